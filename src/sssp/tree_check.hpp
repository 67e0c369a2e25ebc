// Checks that predecessors form a shortest-path tree for given distances
// (CPU, O(n + m log deg)): every reached vertex but the source has a
// predecessor with an arc to it that is tight (dist[p] + w == dist[v]; for
// float weights within a relative tolerance), unreached vertices and the
// source have none, and following predecessors from any reached vertex ends
// at the source (no cycles). Used by the tests and the benchmark.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace sssp {

// Returns up to max_problems descriptions; empty means a valid tree.
template <class Weight>
std::vector<std::string> check_shortest_path_tree(const graph::Csr<Weight>& g, graph::vertex_id source,
                                                  const std::vector<graph::distance_t<Weight>>& dist,
                                                  const std::vector<graph::vertex_id>& pred,
                                                  std::size_t max_problems = 10) {
  std::vector<std::string> problems;
  auto report = [&](const std::string& what) {
    if (problems.size() < max_problems) problems.push_back(what);
  };
  const graph::vertex_id n = g.num_vertices;
  if (dist.size() != n || pred.size() != n) {
    report("sizes differ from the graph's vertex count");
    return problems;
  }
  const auto inf = graph::infinite_distance<Weight>();
  if (pred[source] != graph::kNoVertex) report("the source has a predecessor");
  for (graph::vertex_id v = 0; v < n && problems.size() < max_problems; ++v) {
    if (v == source) continue;
    const graph::vertex_id p = pred[v];
    if (dist[v] == inf) {
      if (p != graph::kNoVertex) report("unreached vertex " + std::to_string(v) + " has a predecessor");
      continue;
    }
    if (p == graph::kNoVertex || p >= n) {
      report("reached vertex " + std::to_string(v) + " has no predecessor");
      continue;
    }
    const auto first = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[p]);
    const auto last = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[p + 1]);
    const auto it = std::lower_bound(first, last, v);
    if (it == last || *it != v) {
      report("predecessor " + std::to_string(p) + " of " + std::to_string(v) + " has no arc to it");
      continue;
    }
    const Weight w = g.weights[static_cast<std::size_t>(it - g.targets.begin())];
    bool tight;
    if constexpr (std::is_floating_point_v<Weight>) {
      const double sum = static_cast<double>(dist[p]) + static_cast<double>(w);
      tight = std::fabs(sum - static_cast<double>(dist[v])) <= 1e-5 * std::max(1.0, static_cast<double>(dist[v]));
    } else {
      tight = dist[p] != inf && dist[p] + w == dist[v];
    }
    if (!tight) {
      std::ostringstream s;
      s << "arc " << p << "->" << v << " (weight " << w << ") is not tight: " << dist[p] << " + " << w
        << " != " << dist[v];
      report(s.str());
    }
  }
  // Cycles: walk each chain once; 2 = known to reach the source.
  std::vector<std::uint8_t> state(n, 0);
  state[source] = 2;
  std::vector<graph::vertex_id> walk;
  for (graph::vertex_id v = 0; v < n && problems.size() < max_problems; ++v) {
    if (dist[v] == inf || state[v] == 2) continue;
    walk.clear();
    graph::vertex_id x = v;
    bool broken = false;
    while (state[x] != 2) {
      if (state[x] == 1 || pred[x] == graph::kNoVertex || pred[x] >= n) {
        broken = true;
        break;
      }
      state[x] = 1;
      walk.push_back(x);
      x = pred[x];
    }
    for (graph::vertex_id y : walk) state[y] = 2;  // reported once, not again from each member
    if (broken) report("the predecessor chain from " + std::to_string(v) + " does not reach the source");
  }
  return problems;
}

}  // namespace sssp
