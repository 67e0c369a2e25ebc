// The metrics every printer and JSON writer uses, defined once:
//   MTEPS       = arcs leaving reached vertices / solve time / 1e6
//                 (Gunrock v1's definition, so figures compare)
//   work ratio  = relaxations / arcs leaving reached vertices
//                 (1.0 is Dijkstra's work-optimal limit)
//   solve time  = the median of the timed runs (summarize_times), with their
//                 minimum and maximum
// Every front end (sssp, sssp_bench, regime_bench, cpu_sssp_bench) takes
// them from here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
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

// The double forms take means (over sources, over runs); 0 when undefined.
inline double mteps(double reached_arcs, double solve_ms) {
  return solve_ms > 0 ? reached_arcs / (solve_ms * 1e-3) / 1e6 : 0.0;
}
inline double mteps(std::uint64_t reached_arcs, double solve_ms) {
  return mteps(static_cast<double>(reached_arcs), solve_ms);
}

inline double work_ratio(double relaxations, double reached_arcs) {
  return reached_arcs > 0 ? relaxations / reached_arcs : 0.0;
}
inline double work_ratio(std::uint64_t relaxations, std::uint64_t reached_arcs) {
  return work_ratio(static_cast<double>(relaxations), static_cast<double>(reached_arcs));
}

struct TimingSummary {
  double median_ms = 0;  // mean of the two middle runs for an even count
  double min_ms = 0;
  double max_ms = 0;
};

// All zero for an empty list.
inline TimingSummary summarize_times(std::vector<double> times_ms) {
  TimingSummary t;
  if (times_ms.empty()) return t;
  std::sort(times_ms.begin(), times_ms.end());
  const std::size_t n = times_ms.size();
  t.median_ms = n % 2 == 1 ? times_ms[n / 2] : 0.5 * (times_ms[n / 2 - 1] + times_ms[n / 2]);
  t.min_ms = times_ms.front();
  t.max_ms = times_ms.back();
  return t;
}

inline double median(std::vector<double> times_ms) { return summarize_times(std::move(times_ms)).median_ms; }

}  // namespace graph
