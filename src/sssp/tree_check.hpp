// The shortest-path-tree check of the GPU tests and sssp_bench, kept as this
// name for them: graph::check_shortest_path_tree (graph/verify.hpp, the one
// checker `sssp --validate` uses too) with 0-based ids, as a list of
// problems; empty means a valid tree.
#pragma once

#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"
#include "graph/verify.hpp"

namespace sssp {

template <class Weight>
std::vector<std::string> check_shortest_path_tree(const graph::Csr<Weight>& g, graph::vertex_id source,
                                                  const std::vector<graph::distance_t<Weight>>& dist,
                                                  const std::vector<graph::vertex_id>& pred,
                                                  std::size_t max_problems = 10) {
  return graph::check_shortest_path_tree<Weight>(g, source, dist, pred, 0, max_problems).examples;
}

}  // namespace sssp
