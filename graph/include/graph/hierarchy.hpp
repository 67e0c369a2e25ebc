// A contraction hierarchy (Geisberger, Sanders, Schultes and Delling, "Contraction
// Hierarchies", WEA 2008) and PHAST's one-to-all query over it (Delling, Goldberg,
// Nowatzyk and Werneck, "PHAST: Hardware-Accelerated Shortest Path Trees",
// IPDPS 2011).
//
// Building: vertices are contracted least important first (edge difference
// plus contracted neighbours plus depth), in rounds of vertices each less
// important than all its neighbours, on every OpenMP thread; contracting v
// adds a shortcut u -> x for each pair of arcs u -> v -> x unless a witness
// search finds a path from u to x no longer than the pair that avoids v (and
// the round's other vertices). A search cut short only adds shortcuts that
// were not needed, so the result is exact whatever the search limits, and it
// does not depend on the thread count. rank = contraction order.
//
// Query (PHAST): a Dijkstra from the sources over the upward arcs (to higher
// ranks) only, then one sweep over all vertices in decreasing rank that
// relaxes each vertex's downward in-arcs (from higher ranks). Every shortest
// path in a hierarchy goes up, then down, so the sweep finishes every
// distance. The sweep has no priority queue and no rounds: vertices are
// grouped into levels (a vertex's level is one more than the highest level
// of its downward in-neighbours), and a level's vertices are independent of
// each other, so a GPU sweeps level by level (sssp/hierarchy_solver.hpp).
//
// Integer weights; arcs of the hierarchy are 64-bit (a shortcut's sum may
// pass 2^32). Source independent: build once per graph.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "graph/contraction.hpp"
#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace graph {

struct Hierarchy {
  vertex_id num_vertices = 0;
  std::vector<vertex_id> rank;  // per vertex: contraction order
  // Upward arcs (to higher ranks), by vertex.
  std::vector<edge_offset> up_offsets{0};
  std::vector<vertex_id> up_targets;
  std::vector<std::uint64_t> up_weights;
  // The sweep: vertices in level order (position -> vertex and back), level
  // L holding positions level_offsets[L] .. level_offsets[L+1]; each
  // position's downward in-arcs name their tails by position.
  std::vector<vertex_id> order;
  std::vector<vertex_id> position;
  std::vector<std::uint32_t> level_offsets{0};
  std::vector<edge_offset> down_offsets{0};
  std::vector<vertex_id> down_tails;  // positions
  std::vector<std::uint64_t> down_weights;
  std::uint64_t shortcuts = 0;

  std::uint32_t levels() const { return static_cast<std::uint32_t>(level_offsets.size() - 1); }
};

Hierarchy build_hierarchy(const IntCsr& g);

// A query's start: vertices and their distances (a source at 0, or the
// junctions a piece enters the core at; graph/contraction.hpp).
using Seeds = std::vector<std::pair<vertex_id, std::uint64_t>>;

// A started query's seeds in the contraction's core: its core source at 0,
// or the junctions its piece enters the core at (not the sinks).
Seeds core_seeds(const ChainContraction& c, const ContractionQuery& q);

// PHAST's first half: the distances the upward search settles, as
// (position, distance) pairs in the sweep's numbering, ready to scatter into
// a sweep's distance array.
std::vector<std::pair<vertex_id, std::uint64_t>> upward_search(const Hierarchy& h, const Seeds& seeds);

// The whole query on the host: dist (num_vertices entries, by vertex id;
// infinite_distance<uint32_t>() for unreachable). The reference for the
// GPU sweep and the tests.
void phast(const Hierarchy& h, const Seeds& seeds, std::uint64_t* dist);

}  // namespace graph
