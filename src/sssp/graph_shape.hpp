// Cheap statistics of a graph's shape, measured on the host before a solve:
// what the `auto` strategy rule (auto_strategy.hpp) decides by. Every
// measurement is bounded by a constant amount of work (below), not by the
// graph's size, so it costs a small fraction of any solve it precedes.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace sssp {

// Degree statistics read at most this many vertices' offsets, taken as
// kDegreeSampleBlock consecutive vertices at evenly spaced places (whole
// blocks keep the reads sequential): exact up to this many vertices, a
// sample above, about 2 MB of reads whatever the graph.
inline constexpr std::uint64_t kDegreeSampleVertices = std::uint64_t{1} << 18;
inline constexpr std::uint64_t kDegreeSampleBlock = 256;

// The BFS from the source scans at most this many arcs (stopping inside a
// level, or inside one vertex's arcs, when it runs out) and then
// extrapolates. The budget keeps the whole measurement (degree sample
// included) to about a millisecond on one core, a few percent of the GPU
// solve of any graph too large to be scanned whole (numbers: docs/TUNING.md,
// "Strategy auto"). The only other cost is a visited bit per vertex (n / 8
// bytes zeroed). Graphs of up to 2^16 arcs are measured exactly.
inline constexpr std::uint64_t kHopBfsArcBudget = std::uint64_t{1} << 16;

struct GraphShape {
  std::uint64_t vertices = 0;
  std::uint64_t arcs = 0;
  double mean_degree = 0;           // arcs / vertices (exact)
  // Of the sampled vertices (all of them when degree_sampled is false):
  std::uint64_t max_degree = 0;     // largest out-degree seen
  double degree_cv = 0;             // standard deviation / mean of the out-degree: the skew
  double isolated_share = 0;        // share with out-degree 0
  bool degree_sampled = false;
  // Hops from the source to the farthest vertex it reaches (its
  // eccentricity): exact when the BFS finished within its budget, else
  // extrapolated from the growth of its levels.
  std::uint64_t hop_estimate = 0;
  bool hop_exact = false;
  std::uint64_t bfs_levels = 0;        // levels the BFS completed
  std::uint64_t bfs_arcs_scanned = 0;  // at most the budget: it stops inside a vertex's arcs too
};

// Throws std::invalid_argument when source >= g.num_vertices.
template <class Weight>
GraphShape measure_shape(const graph::Csr<Weight>& g, graph::vertex_id source,
                         std::uint64_t bfs_arc_budget = kHopBfsArcBudget);

// The extrapolation on its own, for tests: `level_sizes` are the vertex
// counts of BFS levels 0, 1, ... (the last one may be an estimate of a level
// cut short), `reachable` the number of vertices the source is expected to
// reach. Two growth models, picked by the exponent k of a power law fitted
// to the levels: polynomial (visited vertices grow as hops^k, k about 2 on
// grids and roads) when k is small, else geometric (the frontier grows by a
// constant factor per level, as on R-MAT, social and uniform random graphs).
std::uint64_t extrapolate_hops(const std::vector<double>& level_sizes, double reachable);

}  // namespace sssp
