// A shortest-path reference that shares no code with the library: its own
// adjacency lists built from a plain arc list (any order, duplicates and
// self-loops welcome), a binary heap with lazy deletion, and a separate
// reachability search. The differential oracle (tests/cpu) and the cache
// fuzz harness (fuzz/) check every solver of the library against it, so a
// bug in build_csr, a reader or the cache cannot hide behind the library's
// own Dijkstra.
//
// Distances follow the library's types (graph/types.hpp): 64-bit sums for
// 32-bit integer weights (exact), float for float weights, each step
// rounded as float(d + w), the same operation every solver performs. With
// non-negative weights that rounding is monotone in d, so the result is the
// minimum over all paths of the path's left-to-right rounded length, and
// any correct label-setting or label-correcting solver reaches exactly that
// value whatever its relaxation order: floats can be compared exactly too.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <type_traits>
#include <utility>
#include <vector>

namespace test_support {

template <class Weight>
struct RefArc {
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  Weight weight{};
};

template <class Weight>
using RefDistance = std::conditional_t<std::is_same_v<Weight, float>, float, std::uint64_t>;

template <class Weight>
constexpr RefDistance<Weight> ref_infinity() {
  if constexpr (std::is_same_v<Weight, float>)
    return std::numeric_limits<float>::infinity();
  else
    return std::numeric_limits<std::uint64_t>::max();
}

template <class Weight>
class ReferenceGraph {
 public:
  using Dist = RefDistance<Weight>;

  // Arcs whose endpoints are not below n are a caller's bug: they are skipped.
  ReferenceGraph(std::uint32_t n, const std::vector<RefArc<Weight>>& arcs) : out_(n) {
    for (const RefArc<Weight>& a : arcs)
      if (a.from < n && a.to < n) out_[a.from].push_back({a.to, a.weight});
  }

  std::uint32_t num_vertices() const { return static_cast<std::uint32_t>(out_.size()); }

  std::vector<Dist> distances(std::uint32_t source) const {
    std::vector<Dist> dist(out_.size(), ref_infinity<Weight>());
    using Item = std::pair<Dist, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    dist[source] = 0;
    heap.push({Dist{0}, source});
    while (!heap.empty()) {
      const auto [d, u] = heap.top();
      heap.pop();
      if (d != dist[u]) continue;  // a stale entry
      for (const auto& [v, w] : out_[u]) {
        const Dist candidate = static_cast<Dist>(d + static_cast<Dist>(w));
        if (candidate < dist[v]) {
          dist[v] = candidate;
          heap.push({candidate, v});
        }
      }
    }
    return dist;
  }

  // Reachability by arcs alone, whatever the weights: a reachable vertex
  // must get a finite distance (a float sum that overflows is a wrong answer).
  std::vector<bool> reachable(std::uint32_t source) const {
    std::vector<bool> seen(out_.size(), false);
    std::vector<std::uint32_t> stack{source};
    seen[source] = true;
    while (!stack.empty()) {
      const std::uint32_t u = stack.back();
      stack.pop_back();
      for (const auto& arc : out_[u])
        if (!seen[arc.first]) {
          seen[arc.first] = true;
          stack.push_back(arc.first);
        }
    }
    return seen;
  }

  // Whether u -> v is an arc whose weight makes dist[u] + w == dist[v]: what a
  // predecessor must satisfy.
  bool tight(std::uint32_t u, std::uint32_t v, const std::vector<Dist>& dist) const {
    if (u >= out_.size() || dist[u] == ref_infinity<Weight>()) return false;
    for (const auto& [t, w] : out_[u])
      if (t == v && static_cast<Dist>(dist[u] + static_cast<Dist>(w)) == dist[v]) return true;
    return false;
  }

 private:
  std::vector<std::vector<std::pair<std::uint32_t, Weight>>> out_;
};

}  // namespace test_support
