// The one definition of a correct SSSP result, used by `sssp --validate`,
// sssp_bench, regime_bench, cpu_sssp_bench and the tests:
//   - distances_match: exact for integer weights; for float weights both
//     infinite or both finite with
//         |got - expected| <= kFloatDistanceTolerance x max(1, |expected|)
//     (relative, with an absolute floor of 1e-6 below 1), and never NaN;
//   - find_distance_mismatches: every vertex whose distances do not match;
//   - check_shortest_path_tree: predecessors that form a shortest-path tree.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace graph {

// Why 1e-6 relative, floored at 1: a solver and the Dijkstra reference add
// the same float weights in the same float arithmetic, but may reach a vertex
// over different equally short paths, whose sums round differently (half an
// ulp, 6e-8 relative, per arc). 1e-6 leaves room for about 16 such roundings
// in the worst case and far more in practice, and still rejects a wrong path
// whose length differs in the sixth significant digit. The floor keeps
// distances near zero (sums of tiny weights) from demanding more absolute
// precision than the large ones. This is the tolerance the GPU tests
// (tests/gpu/test_sssp_*.cu, sssp_stress.cu) and the CPU solver tests have
// always used; tests/cpu/test_verify.cpp pins it.
inline constexpr double kFloatDistanceTolerance = 1e-6;

template <class Weight>
bool distances_match(distance_t<Weight> expected, distance_t<Weight> got) {
  if constexpr (DistanceTraits<Weight>::is_integer) {
    return expected == got;
  } else {
    const auto inf = infinite_distance<Weight>();
    if (expected == inf || got == inf) return expected == got;
    if (std::isnan(expected) || std::isnan(got)) return false;
    const double e = expected, g = got;
    return std::fabs(g - e) <= kFloatDistanceTolerance * std::max(1.0, std::fabs(e));
  }
}

// "unreachable", an integer, or a float with 9 significant digits (round trip).
template <class Weight>
std::string format_distance(distance_t<Weight> d) {
  if (d == infinite_distance<Weight>()) return "unreachable";
  if constexpr (DistanceTraits<Weight>::is_integer) {
    return std::to_string(d);
  } else {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(d));
    return buffer;
  }
}

struct DistanceMismatches {
  std::uint64_t count = 0;            // vertices whose distances do not match
  std::vector<vertex_id> first;       // the first of them (up to max_listed), in id order
  bool none() const { return count == 0; }
};

// Compares `got` with the reference `expected` vertex by vertex (distances_match).
// Throws std::invalid_argument when the sizes differ.
template <class Weight>
DistanceMismatches find_distance_mismatches(const std::vector<distance_t<Weight>>& expected,
                                            const std::vector<distance_t<Weight>>& got,
                                            std::size_t max_listed = 10) {
  if (expected.size() != got.size())
    throw std::invalid_argument("result has " + std::to_string(got.size()) + " distances, expected " +
                                std::to_string(expected.size()));
  DistanceMismatches m;
  for (std::size_t v = 0; v < expected.size(); ++v) {
    if (distances_match<Weight>(expected[v], got[v])) continue;
    ++m.count;
    if (m.first.size() < max_listed) m.first.push_back(static_cast<vertex_id>(v));
  }
  return m;
}

struct TreeCheck {
  std::uint64_t errors = 0;           // every problem found
  std::vector<std::string> examples;  // the first few (up to max_examples), "vertex ID: what"
  bool valid() const { return errors == 0; }
};

// Whether `pred` is a shortest-path tree for `dist` from `source`, checked
// against the graph (so it trusts the distances no more than the arcs), in
// O(n + m log deg): the source and unreachable vertices have kNoVertex; every
// other reached v has an arc pred[v] -> v that is tight, dist[pred[v]] + w
// matching dist[v] (distances_match, in the solvers' arithmetic: distance
// type plus weight); and following predecessors from any reached vertex
// reaches the source (tight zero-weight arcs can still form a cycle; that is
// checked only when every arc is locally valid). Ids in the examples are
// shown plus `id_base` (the user's numbering).
template <class Weight>
TreeCheck check_shortest_path_tree(const Csr<Weight>& g, vertex_id source, const std::vector<distance_t<Weight>>& dist,
                                   const std::vector<vertex_id>& pred, std::uint64_t id_base = 0,
                                   std::size_t max_examples = 10) {
  TreeCheck result;
  const vertex_id n = g.num_vertices;
  const auto inf = infinite_distance<Weight>();
  const auto id = [&](vertex_id v) { return std::to_string(std::uint64_t{v} + id_base); };
  const auto fail = [&](vertex_id v, const std::string& what) {
    ++result.errors;
    if (result.examples.size() < max_examples) result.examples.push_back("vertex " + id(v) + ": " + what);
  };
  if (pred.size() != n || dist.size() != n) {
    ++result.errors;
    if (max_examples > 0)
      result.examples.push_back("predecessor array has " + std::to_string(pred.size()) + " entries, expected " +
                                std::to_string(n));
    return result;
  }
  // 1. Local conditions: each tree arc exists and is tight.
  bool locally_valid = true;
  for (vertex_id v = 0; v < n; ++v) {
    const vertex_id p = pred[v];
    if (v == source || dist[v] == inf) {
      if (p != kNoVertex) {
        fail(v, std::string(v == source ? "the source" : "an unreachable vertex") + " has predecessor " + id(p));
        locally_valid = false;
      }
      continue;
    }
    if (p == kNoVertex || p >= n) {
      fail(v, "reached but has no valid predecessor");
      locally_valid = false;
      continue;
    }
    const auto first = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[p]);
    const auto last = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[p + 1]);
    const auto arc = std::lower_bound(first, last, v);  // targets are sorted per vertex
    if (arc == last || *arc != v) {
      fail(v, "predecessor " + id(p) + " has no arc to it");
      locally_valid = false;
      continue;
    }
    const Weight w = g.weights[static_cast<std::size_t>(arc - g.targets.begin())];
    const distance_t<Weight> via = dist[p] == inf ? inf : static_cast<distance_t<Weight>>(dist[p] + w);
    if (!distances_match<Weight>(dist[v], via)) {
      fail(v, "predecessor " + id(p) + " gives " + format_distance<Weight>(via) + ", not " +
                  format_distance<Weight>(dist[v]));
      locally_valid = false;
    }
  }
  if (!locally_valid) return result;
  // 2. Every reached vertex leads back to the source: walk up, marking, so the
  // whole check is linear.
  enum : std::uint8_t { kUnknown, kOnWalk, kRooted };
  std::vector<std::uint8_t> state(n, kUnknown);
  if (source < n) state[source] = kRooted;
  std::vector<vertex_id> walk;
  for (vertex_id start = 0; start < n; ++start) {
    if (dist[start] == inf || state[start] != kUnknown) continue;
    walk.clear();
    vertex_id v = start;
    while (state[v] == kUnknown) {
      state[v] = kOnWalk;
      walk.push_back(v);
      v = pred[v];
    }
    if (state[v] == kOnWalk) fail(start, "following predecessors loops without reaching the source");
    for (const vertex_id u : walk) state[u] = kRooted;  // reported once per cycle
  }
  return result;
}

}  // namespace graph
