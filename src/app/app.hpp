// The `sssp` command as a function, so tests run it in-process: main.cpp
// only forwards to run_sssp.
#pragma once

#include <ostream>

namespace app {

// Parses argv, loads or generates the graph, runs the chosen solvers through
// the shared harness, validates, and reports on `out` (errors on `err`, one
// line "sssp: ..."). Returns the exit status: 0 success; 1 runtime failure
// (GPU out of memory, CUDA error, validation mismatch, failed write); 2 bad
// input (graph::InputError), bad options, or a parameter the solver rejects
// (std::invalid_argument). Never throws. Output files
// (--output, --json) are written only by a successful run. `sssp bench ...`
// runs the benchmark mode instead (app/bench.hpp).
int run_sssp(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace app
