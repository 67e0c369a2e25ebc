// --strategy auto in the command: what it stands for on this run's device
// and graph. On a GPU, sssp::choose_strategy (sssp/auto_strategy.hpp) picks
// from the graph's shape; on the CPU there is nothing to pick from (the GPU
// strategies cannot run), so auto is the CPU default, delta-stepping, and
// the report says so.
#pragma once

#include "app/options.hpp"
#include "app/report.hpp"
#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace app {

struct AutoResolution {
  Algorithm algorithm = Algorithm::DeltaStepping;  // what Auto runs as
  AutoStrategyInfo info;                           // for the report and JSON
};

// Measures from `source` (the run's first source: one choice per run, as the
// graph's class does not change with the source) on the gpu device. Under
// --delta-sweep, bellman-ford (which ignores delta) gives way to near-far.
// resident_max_vertices: what the resident block holds where near-far would
// run in it (one source at a time, no predecessors), else 0
// (sssp::choose_strategy).
template <class Weight>
AutoResolution resolve_auto_strategy(const graph::Csr<Weight>& g, graph::vertex_id source,
                                     std::uint32_t id_base, DeviceKind device, bool delta_sweep,
                                     std::uint64_t resident_max_vertices);

}  // namespace app
