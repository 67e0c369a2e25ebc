// Predecessors from exact distances (graph/predecessors.hpp).
#include "graph/predecessors.hpp"

#include <omp.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace graph {

void predecessors_from_distances(const IntCsr& g, vertex_id source, const std::uint64_t* dist, vertex_id* pred,
                                 int threads) {
  constexpr std::uint64_t unreachable = infinite_distance<std::uint32_t>();
  const vertex_id n = g.num_vertices;
  if (source >= n) throw std::out_of_range("graph: source " + std::to_string(source) + " is not a vertex");
  for (vertex_id v = 0; v < n; ++v) pred[v] = kNoVertex;
  // Step 1, one vertex's in-arcs found from its in-neighbours' out-arcs:
  // several tails may be tight for one head, and any of them will do; the
  // stores are atomic so that the race between them is well-defined.
  bool has_zero = false;
  const int team = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 4096) num_threads(team) reduction(|| : has_zero) if (n >= (1u << 15))
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
    const auto u = static_cast<vertex_id>(i);
    const std::uint64_t du = dist[u];
    if (du == unreachable) continue;
    for (edge_offset e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const std::uint32_t w = g.weights[e];
      const vertex_id v = g.targets[e];
      if (w == 0) {
        has_zero = true;
      } else if (du + w == dist[v]) {
        __atomic_store_n(pred + v, u, __ATOMIC_RELAXED);
      }
    }
  }
  if (!has_zero) return;
  // Step 2: breadth first over tight zero-weight arcs from every resolved
  // vertex (and the source) into unresolved ones.
  std::vector<vertex_id> frontier;
  for (vertex_id u = 0; u < n; ++u)
    if (dist[u] != unreachable && (u == source || pred[u] != kNoVertex)) frontier.push_back(u);
  std::vector<vertex_id> next;
  while (!frontier.empty()) {
    next.clear();
    for (const vertex_id u : frontier)
      for (edge_offset e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const vertex_id v = g.targets[e];
        if (g.weights[e] == 0 && v != source && pred[v] == kNoVertex && dist[v] == dist[u]) {
          pred[v] = u;
          next.push_back(v);
        }
      }
    frontier.swap(next);
  }
}

}  // namespace graph
