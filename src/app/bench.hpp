// `sssp bench`, the benchmark mode of the sssp command (the sssp_bench
// binary is a main() that calls it): every GPU strategy and the CPU
// delta-stepping on the same graphs and sources, one markdown table and
// optionally JSON.
//
// Per graph: one or more sources with out-arcs (seeded), delta = auto
// (GPU: c * mean weight / mean degree with c = --delta-c, default 32,
// Davidson et al.; the CPU baseline: graph::auto_delta_cpu, its own rule,
// or with --cpu-delta-c the fastest of it and c * mean weight / mean degree
// on a short probe) unless --delta is given, a warm-up solve per strategy,
// then --runs timed solves per source; the median solve time (CUDA events,
// solve only) is reported. Metrics as in graph/metrics.hpp: MTEPS = arcs
// leaving reached vertices / time, work ratio = arcs relaxed / arcs leaving
// reached vertices. Every GPU result is checked against the CPU
// delta-stepping, and trees with --predecessors, by graph/verify.hpp (exact
// for integer weights, 1e-6 relative for float); the graph library's tests
// hold the CPU delta-stepping to Dijkstra.
#pragma once

#include <ostream>

namespace app {

// The table goes to `out`, progress and errors to `err`. Returns 0 when
// every result is valid, 3 when some is not, 1 on a runtime failure (no
// GPU, a failed solve outside a row), 2 on bad options. Never throws.
int run_bench(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace app
