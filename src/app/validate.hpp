// --validate: a solver's distances against the CPU Dijkstra reference, and a
// predecessor array against the shortest-path-tree definition. Mismatches are
// reported with ids as the user sees them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"
#include "graph/verify.hpp"

namespace app {

struct ValidationReport {
  std::uint64_t distance_mismatches = 0;
  std::uint64_t tree_errors = 0;
  std::vector<std::string> examples;  // the first few problems, one line each
  std::uint64_t problems() const { return distance_mismatches + tree_errors; }
  bool passed() const { return problems() == 0; }
};

// Integer weights: exact. Float weights: within graph::kFloatDistanceTolerance
// relative (floored at 1), both infinite or neither; NaN never matches
// (graph/verify.hpp says why). The definitions every front end and test share.
using graph::distances_match;

// "unreachable", an integer, or a float with 9 significant digits (round trip).
using graph::format_distance;

// Adds one problem per differing vertex; `max_examples` of them as lines
// "vertex ID: expected X, got Y".
template <class Weight>
void compare_distances(const std::vector<graph::distance_t<Weight>>& expected,
                       const std::vector<graph::distance_t<Weight>>& got, std::uint32_t id_base,
                       ValidationReport& report, std::size_t max_examples = 10);

// graph::check_shortest_path_tree (a valid shortest-path tree for `dist`,
// checked against the graph), its problems added to `report`.
template <class Weight>
void check_predecessor_tree(const graph::Csr<Weight>& g, graph::vertex_id source,
                            const std::vector<graph::distance_t<Weight>>& dist,
                            const std::vector<graph::vertex_id>& pred, std::uint32_t id_base,
                            ValidationReport& report, std::size_t max_examples = 10);

// The path source -> target read off a predecessor array, 0-based ids; empty
// when target is unreachable or the array has no path (a cycle or a gap).
std::vector<graph::vertex_id> path_from_predecessors(const std::vector<graph::vertex_id>& pred,
                                                     graph::vertex_id source, graph::vertex_id target);

}  // namespace app
