// The metrics every printer and JSON writer uses, defined once:
//   MTEPS       = arcs leaving reached vertices / solve time / 1e6
//                 (Gunrock v1's definition, so figures compare)
//   work ratio  = relaxations / arcs leaving reached vertices
//                 (1.0 is Dijkstra's work-optimal limit)
#pragma once

#include <cstdint>
#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace graph {

struct ReachStats {
  std::uint64_t reached_vertices = 0;
  std::uint64_t reached_arcs = 0;  // sum of out-degrees of reached vertices
};

template <class Weight>
ReachStats reach_stats(const Csr<Weight>& g, const std::vector<distance_t<Weight>>& dist) {
  ReachStats s;
  const auto inf = infinite_distance<Weight>();
  for (vertex_id v = 0; v < g.num_vertices; ++v) {
    if (dist[v] != inf) {
      ++s.reached_vertices;
      s.reached_arcs += g.out_degree(v);
    }
  }
  return s;
}

inline double mteps(std::uint64_t reached_arcs, double solve_ms) {
  return solve_ms > 0 ? static_cast<double>(reached_arcs) / (solve_ms * 1e-3) / 1e6 : 0.0;
}

inline double work_ratio(std::uint64_t relaxations, std::uint64_t reached_arcs) {
  return reached_arcs > 0 ? static_cast<double>(relaxations) / static_cast<double>(reached_arcs) : 0.0;
}

}  // namespace graph
