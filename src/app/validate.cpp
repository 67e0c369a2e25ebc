#include "app/validate.hpp"

#include <algorithm>
#include <utility>

namespace app {

namespace {

void add_example(ValidationReport& report, std::size_t max_examples, std::string line) {
  if (report.examples.size() < max_examples) report.examples.push_back(std::move(line));
}

}  // namespace

template <class Weight>
void compare_distances(const std::vector<graph::distance_t<Weight>>& expected,
                       const std::vector<graph::distance_t<Weight>>& got, std::uint32_t id_base,
                       ValidationReport& report, std::size_t max_examples) {
  if (expected.size() != got.size()) {
    report.distance_mismatches += 1;
    add_example(report, max_examples,
                "result has " + std::to_string(got.size()) + " distances, expected " + std::to_string(expected.size()));
    return;
  }
  const graph::DistanceMismatches m = graph::find_distance_mismatches<Weight>(expected, got, max_examples);
  report.distance_mismatches += m.count;
  for (const graph::vertex_id v : m.first)
    add_example(report, max_examples,
                "vertex " + std::to_string(std::uint64_t{v} + id_base) + ": expected " +
                    format_distance<Weight>(expected[v]) + ", got " + format_distance<Weight>(got[v]));
}

template <class Weight>
void check_predecessor_tree(const graph::Csr<Weight>& g, graph::vertex_id source,
                            const std::vector<graph::distance_t<Weight>>& dist,
                            const std::vector<graph::vertex_id>& pred, std::uint32_t id_base,
                            ValidationReport& report, std::size_t max_examples) {
  graph::TreeCheck tree = graph::check_shortest_path_tree<Weight>(g, source, dist, pred, id_base, max_examples);
  report.tree_errors += tree.errors;
  for (std::string& line : tree.examples) add_example(report, max_examples, std::move(line));
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
