// Graphs in memory: a coordinate list (COO) as read from a file or made by a
// generator, and the compressed sparse row (CSR) form every solver uses.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "graph/types.hpp"

namespace graph {

// Arcs in any order, 0-based ids, possibly with self-loops and duplicates.
template <class Weight>
struct Coo {
  using weight_type = Weight;
  vertex_id num_vertices = 0;
  std::vector<vertex_id> sources;
  std::vector<vertex_id> targets;
  std::vector<Weight> weights;

  std::uint64_t num_entries() const { return sources.size(); }
  void reserve(std::size_t n) {
    sources.reserve(n);
    targets.reserve(n);
    weights.reserve(n);
  }
  void add(vertex_id u, vertex_id v, Weight w) {
    sources.push_back(u);
    targets.push_back(v);
    weights.push_back(w);
  }
};

// Out-arcs of vertex v are targets[offsets[v] .. offsets[v+1]), sorted by target,
// with no self-loops and no duplicate (v, target) pairs.
template <class Weight>
struct Csr {
  using weight_type = Weight;
  vertex_id num_vertices = 0;
  std::vector<edge_offset> offsets{0};  // num_vertices + 1 entries
  std::vector<vertex_id> targets;       // num_arcs entries
  std::vector<Weight> weights;          // num_arcs entries

  edge_offset num_arcs() const { return targets.size(); }
  edge_offset out_degree(vertex_id v) const { return offsets[v + 1] - offsets[v]; }
};

using IntCsr = Csr<std::uint32_t>;
using FloatCsr = Csr<float>;
// A loaded graph keeps its file's weight type: integer files stay integer.
using AnyCsr = std::variant<IntCsr, FloatCsr>;

inline vertex_id num_vertices(const AnyCsr& g) {
  return std::visit([](const auto& c) { return c.num_vertices; }, g);
}
inline edge_offset num_arcs(const AnyCsr& g) {
  return std::visit([](const auto& c) { return c.num_arcs(); }, g);
}
inline bool has_float_weights(const AnyCsr& g) { return std::holds_alternative<FloatCsr>(g); }

}  // namespace graph
