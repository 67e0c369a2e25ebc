// CPU shortest-path solvers: Dijkstra (the reference every other solver is
// validated against) and a parallel delta-stepping (the CPU baseline and the
// fallback where no GPU exists).
#pragma once

#include <cstdint>
#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace graph {

struct CpuSolveStats {
  std::uint64_t relaxations = 0;  // arcs relaxed (for the work ratio)
  std::uint64_t phases = 0;       // delta-stepping: buckets processed; Dijkstra: vertices settled
  double delta = 0;               // delta-stepping: the delta used
};

// Binary-heap Dijkstra. pred (optional) receives a shortest-path tree,
// kNoVertex for the source and unreachable vertices.
template <class Weight>
std::vector<distance_t<Weight>> dijkstra(const Csr<Weight>& g, vertex_id source,
                                         std::vector<vertex_id>* pred = nullptr,
                                         CpuSolveStats* stats = nullptr);

// Parallel (OpenMP) delta-stepping (Meyer and Sanders 2003). delta > 0.
// threads == 0: all cores. Results equal Dijkstra's exactly for integer weights.
template <class Weight>
std::vector<distance_t<Weight>> delta_stepping(const Csr<Weight>& g, vertex_id source, double delta,
                                               int threads = 0, CpuSolveStats* stats = nullptr);

// delta "auto": c * mean weight / mean out-degree (Davidson et al. use c = 32),
// at least the smallest positive weight and never 0.
template <class Weight>
double auto_delta(const Csr<Weight>& g, double c = 32.0);

}  // namespace graph
