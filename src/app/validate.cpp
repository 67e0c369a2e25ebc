#include "app/validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>

namespace app {

namespace {

constexpr double kFloatRelativeTolerance = 1e-6;

void add_example(ValidationReport& report, std::size_t max_examples, std::string line) {
  if (report.examples.size() < max_examples) report.examples.push_back(std::move(line));
}

}  // namespace

template <class Weight>
bool distances_match(graph::distance_t<Weight> expected, graph::distance_t<Weight> got) {
  if constexpr (graph::DistanceTraits<Weight>::is_integer) {
    return expected == got;
  } else {
    const auto inf = graph::infinite_distance<Weight>();
    if (expected == inf || got == inf) return expected == got;
    if (std::isnan(got)) return false;
    const double e = expected, g = got;
    return std::fabs(g - e) <= kFloatRelativeTolerance * std::max(std::fabs(g), std::fabs(e));
  }
}

template <class Weight>
std::string format_distance(graph::distance_t<Weight> d) {
  if (d == graph::infinite_distance<Weight>()) return "unreachable";
  if constexpr (graph::DistanceTraits<Weight>::is_integer) {
    return std::to_string(d);
  } else {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(d));
    return buffer;
  }
}

template <class Weight>
void compare_distances(const std::vector<graph::distance_t<Weight>>& expected,
                       const std::vector<graph::distance_t<Weight>>& got, std::uint32_t id_base,
                       ValidationReport& report, std::size_t max_examples) {
  if (expected.size() != got.size()) {
    report.distance_mismatches += 1;
    add_example(report, max_examples,
                        "result has " + std::to_string(got.size()) + " distances, expected " +
                            std::to_string(expected.size()));
    return;
  }
  for (std::size_t v = 0; v < expected.size(); ++v) {
    if (distances_match<Weight>(expected[v], got[v])) continue;
    report.distance_mismatches += 1;
    add_example(report, max_examples,
                        "vertex " + std::to_string(v + id_base) + ": expected " +
                            format_distance<Weight>(expected[v]) + ", got " + format_distance<Weight>(got[v]));
  }
}

template <class Weight>
void check_predecessor_tree(const graph::Csr<Weight>& g, graph::vertex_id source,
                            const std::vector<graph::distance_t<Weight>>& dist,
                            const std::vector<graph::vertex_id>& pred, std::uint32_t id_base,
                            ValidationReport& report, std::size_t max_examples) {
  const graph::vertex_id n = g.num_vertices;
  const auto inf = graph::infinite_distance<Weight>();
  const auto fail = [&](graph::vertex_id v, const std::string& what) {
    report.tree_errors += 1;
    add_example(report, max_examples, "vertex " + std::to_string(std::uint64_t{v} + id_base) + ": " + what);
  };
  if (pred.size() != n || dist.size() != n) {
    report.tree_errors += 1;
    add_example(report, max_examples,
                        "predecessor array has " + std::to_string(pred.size()) + " entries, expected " +
                            std::to_string(n));
    return;
  }
  // 1. Local conditions: each tree arc exists and is tight.
  bool locally_valid = true;
  for (graph::vertex_id v = 0; v < n; ++v) {
    const graph::vertex_id p = pred[v];
    if (v == source || dist[v] == inf) {
      if (p != graph::kNoVertex) {
        fail(v, std::string(v == source ? "the source" : "an unreachable vertex") + " has predecessor " +
                    std::to_string(std::uint64_t{p} + id_base));
        locally_valid = false;
      }
      continue;
    }
    if (p == graph::kNoVertex || p >= n) {
      fail(v, "reached but has no valid predecessor");
      locally_valid = false;
      continue;
    }
    const auto first = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[p]);
    const auto last = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[p + 1]);
    const auto arc = std::lower_bound(first, last, v);  // targets are sorted per vertex
    if (arc == last || *arc != v) {
      fail(v, "predecessor " + std::to_string(std::uint64_t{p} + id_base) + " has no arc to it");
      locally_valid = false;
      continue;
    }
    const Weight w = g.weights[static_cast<std::size_t>(arc - g.targets.begin())];
    // The same arithmetic as the solvers: distance type plus weight.
    const graph::distance_t<Weight> via = dist[p] == inf ? inf : static_cast<graph::distance_t<Weight>>(dist[p] + w);
    if (!distances_match<Weight>(dist[v], via)) {
      fail(v, "predecessor " + std::to_string(std::uint64_t{p} + id_base) + " gives " +
                  format_distance<Weight>(via) + ", not " + format_distance<Weight>(dist[v]));
      locally_valid = false;
    }
  }
  if (!locally_valid) return;
  // 2. Every reached vertex leads back to the source: walk up, marking, so the
  // whole check is linear. Tight arcs with zero weight can still form a cycle.
  enum : std::uint8_t { kUnknown, kOnWalk, kRooted };
  std::vector<std::uint8_t> state(n, kUnknown);
  state[source] = kRooted;
  std::vector<graph::vertex_id> walk;
  for (graph::vertex_id start = 0; start < n; ++start) {
    if (dist[start] == inf || state[start] != kUnknown) continue;
    walk.clear();
    graph::vertex_id v = start;
    while (state[v] == kUnknown) {
      state[v] = kOnWalk;
      walk.push_back(v);
      v = pred[v];
    }
    const bool cycle = state[v] == kOnWalk;
    if (cycle) fail(start, "following predecessors loops without reaching the source");
    for (const graph::vertex_id u : walk) state[u] = kRooted;  // reported once per cycle
  }
}

std::vector<graph::vertex_id> path_from_predecessors(const std::vector<graph::vertex_id>& pred,
                                                     graph::vertex_id source, graph::vertex_id target) {
  std::vector<graph::vertex_id> path;
  if (target >= pred.size() || source >= pred.size()) return path;
  graph::vertex_id v = target;
  path.push_back(v);
  while (v != source) {
    v = pred[v];
    if (v == graph::kNoVertex || v >= pred.size() || path.size() > pred.size()) return {};
    path.push_back(v);
  }
  std::reverse(path.begin(), path.end());
  return path;
}

#define APP_INSTANTIATE(W)                                                                                   \
  template bool distances_match<W>(graph::distance_t<W>, graph::distance_t<W>);                              \
  template std::string format_distance<W>(graph::distance_t<W>);                                             \
  template void compare_distances<W>(const std::vector<graph::distance_t<W>>&,                               \
                                     const std::vector<graph::distance_t<W>>&, std::uint32_t,                \
                                     ValidationReport&, std::size_t);                                        \
  template void check_predecessor_tree<W>(const graph::Csr<W>&, graph::vertex_id,                            \
                                          const std::vector<graph::distance_t<W>>&,                          \
                                          const std::vector<graph::vertex_id>&, std::uint32_t,               \
                                          ValidationReport&, std::size_t);
APP_INSTANTIATE(std::uint32_t)
APP_INSTANTIATE(float)
#undef APP_INSTANTIATE

}  // namespace app
