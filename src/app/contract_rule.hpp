// --contract auto's thresholds, shared by the command line (app.cpp) and the
// Python package (python/src/py_solve.cpp) so that both decide alike. Header
// only: the Python extension does not link the command line's library.
#pragma once

#include <cstdint>

namespace app {

// The smallest hop diameter estimate (sssp::measure_shape) at which
// contraction runs. The roads estimate 232-1173 before contraction and
// gained; social graphs (tens of hops) lost 0.41-0.78x (docs/TUNING.md).
inline constexpr std::uint64_t kContractMinHops = 100;
// Contracts only where at least this share of the vertices has at most two
// out-arcs (a cheap check before the contraction itself: DE, luxembourg,
// andorra and amsterdam have 44-98%, grids almost none). It can miss a graph
// whose trees have wider vertices; --contract on still contracts it.
inline constexpr double kContractMinLowDegreeShare = 0.25;

}  // namespace app
