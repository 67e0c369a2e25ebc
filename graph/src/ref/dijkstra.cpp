// Dijkstra's algorithm (Dijkstra 1959) with a binary heap and lazy deletion:
// an improved vertex is pushed again instead of decreasing its key, and stale
// heap entries (key above the vertex's current distance) are skipped when
// popped. O((n + m) log m); the reference every other solver is checked against.
//
// Arithmetic is distance_t<Weight>: exact 64-bit sums for integer weights,
// and for float weights dist[u] + w rounded to float, exactly as the GPU
// relaxes, so both sides compute the same sums.
#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graph/reference.hpp"

namespace graph {

template <class Weight>
std::vector<distance_t<Weight>> dijkstra(const Csr<Weight>& g, vertex_id source, std::vector<vertex_id>* pred,
                                         CpuSolveStats* stats) {
  using Dist = distance_t<Weight>;
  if (source >= g.num_vertices)
    throw std::invalid_argument("dijkstra: source " + std::to_string(source) + " is not a vertex (the graph has " +
                                std::to_string(g.num_vertices) + " vertices)");
  std::vector<Dist> dist(g.num_vertices, infinite_distance<Weight>());
  if (pred) pred->assign(g.num_vertices, kNoVertex);

  using Item = std::pair<Dist, vertex_id>;
  std::vector<Item> storage;
  storage.reserve(1024);
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap(std::greater<Item>(), std::move(storage));

  std::uint64_t relaxations = 0, settled = 0;
  dist[source] = 0;
  heap.push({Dist{0}, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[u]) continue;  // stale: u was settled with a smaller key
    ++settled;
    const edge_offset end = g.offsets[u + 1];
    relaxations += end - g.offsets[u];
    for (edge_offset k = g.offsets[u]; k < end; ++k) {
      const vertex_id v = g.targets[k];
      const Dist candidate = static_cast<Dist>(d + static_cast<Dist>(g.weights[k]));
      if (candidate < dist[v]) {
        dist[v] = candidate;
        if (pred) (*pred)[v] = u;
        heap.push({candidate, v});
      }
    }
  }
  if (stats) {
    stats->relaxations = relaxations;
    stats->phases = settled;
    stats->delta = 0;
  }
  return dist;
}

template std::vector<distance_t<std::uint32_t>> dijkstra(const Csr<std::uint32_t>&, vertex_id,
                                                         std::vector<vertex_id>*, CpuSolveStats*);
template std::vector<distance_t<float>> dijkstra(const Csr<float>&, vertex_id, std::vector<vertex_id>*,
                                                 CpuSolveStats*);

}  // namespace graph
