// A shortest-path tree from exact distances, for solvers that compute
// distances only (PHAST, delta-stepping): pred[v] = some u with
// dist[u] + w(u, v) == dist[v] (a "tight" arc), chosen so the tree has no
// cycle even where zero-weight arcs tie distances:
//   1. tight arcs of positive weight: they point to strictly smaller
//      distances, so they cannot close a cycle;
//   2. tight zero-weight arcs, taken in breadth-first order from vertices
//      already resolved (or the source) into vertices not yet resolved.
// Every reached vertex gets a predecessor: a shortest path to it enters its
// zero-weight component through a resolved vertex. The GPU's version of the
// same rule is sssp/predecessors.cuh.
//
// Integer weights: with float weights a positive arc can add nothing to a
// rounded distance, and step 1 could then close a cycle.
#pragma once

#include <cstdint>

#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace graph {

// dist: g.num_vertices entries, infinite_distance<uint32_t>() for vertices
// not reached; pred receives g.num_vertices entries (kNoVertex for the
// source and unreached vertices). Up to `threads` OpenMP threads (0: all).
void predecessors_from_distances(const IntCsr& g, vertex_id source, const std::uint64_t* dist, vertex_id* pred,
                                 int threads = 0);

}  // namespace graph
