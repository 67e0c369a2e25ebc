// Bounded measurements of a graph's shape (graph_shape.hpp): a degree sample
// and a BFS from the source that stops after a fixed number of arcs.
#include "sssp/graph_shape.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace sssp {

namespace {

// Below this fitted exponent the BFS grows like a power of the hops (see extrapolate_hops).
constexpr double kMaxPolynomialK = 4.0;

// Out-degree statistics of all vertices, or of evenly spaced blocks of
// consecutive ones when there are more than kDegreeSampleVertices.
template <class Weight>
void measure_degrees(const graph::Csr<Weight>& g, GraphShape& shape) {
  const std::uint64_t n = g.num_vertices;
  shape.vertices = n;
  shape.arcs = g.num_arcs();
  shape.mean_degree = n ? static_cast<double>(shape.arcs) / static_cast<double>(n) : 0.0;
  shape.degree_sampled = n > kDegreeSampleVertices;
  const std::uint64_t blocks = shape.degree_sampled ? kDegreeSampleVertices / kDegreeSampleBlock : 1;
  const std::uint64_t block = shape.degree_sampled ? kDegreeSampleBlock : n;
  std::uint64_t count = 0, isolated = 0;
  double sum = 0, sum_squares = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    // Block b starts at b/blocks of the way through the ids, so the sample
    // covers the whole id range (ids are often ordered by locality).
    const std::uint64_t first = n * b / blocks;
    const std::uint64_t last = std::min(n, first + block);
    for (std::uint64_t v = first; v < last; ++v) {
      const std::uint64_t d = g.offsets[v + 1] - g.offsets[v];
      shape.max_degree = std::max(shape.max_degree, d);
      isolated += d == 0;
      sum += static_cast<double>(d);
      sum_squares += static_cast<double>(d) * static_cast<double>(d);
      ++count;
    }
  }
  if (count == 0) return;
  const double mean = sum / static_cast<double>(count);
  const double variance = std::max(0.0, sum_squares / static_cast<double>(count) - mean * mean);
  shape.degree_cv = mean > 0 ? std::sqrt(variance) / mean : 0.0;
  shape.isolated_share = static_cast<double>(isolated) / static_cast<double>(count);
}

}  // namespace

std::uint64_t extrapolate_hops(const std::vector<double>& level_sizes, double reachable) {
  if (level_sizes.empty()) return 0;
  const std::size_t last = level_sizes.size() - 1;  // hops of the last level
  double visited = 0;
  for (const double s : level_sizes) visited += s;
  if (last == 0 || visited >= reachable) return last;
  const double remaining = reachable - visited;
  const double inf = std::numeric_limits<double>::infinity();

  // Geometric: the next levels grow by r = s_last / s_{last-1}; k more levels
  // hold s_last (r + r^2 + ... + r^k) = remaining vertices.
  double geometric = inf;
  const double top = level_sizes[last], before = level_sizes[last - 1];
  const double r = before > 0 ? top / before : inf;
  if (top > 0 && r > 1.001) {
    const double more = std::log1p(remaining * (r - 1) / (top * r)) / std::log(r);
    geometric = static_cast<double>(last) + std::ceil(more);
  }

  // Polynomial: vertices within h hops grow as (h + 1)^k, k fitted between
  // the middle level and the last; the reach is where that gets to `reachable`.
  double polynomial = inf;
  const std::size_t middle = last / 2;
  double within_middle = 0;
  for (std::size_t h = 0; h <= middle; ++h) within_middle += level_sizes[h];
  const double k = std::log(visited / within_middle) /
                   std::log(static_cast<double>(last + 1) / static_cast<double>(middle + 1));
  if (k > 0.05) polynomial = static_cast<double>(last + 1) * std::pow(reachable / visited, 1.0 / k) - 1.0;

  // Growth like a power of the hops with k below kMaxPolynomialK (grids and
  // roads about 2, meshes up to 3) is polynomial; the geometric model would
  // compound a slowly growing frontier and halve a grid's hops. Faster growth
  // (R-MAT, social, uniform random: k 6 and more after two or three levels)
  // is geometric, where the power law would overshoot.
  const double estimate = k < kMaxPolynomialK && std::isfinite(polynomial) ? polynomial
                          : std::isfinite(geometric)                     ? geometric
                                                                         : polynomial;
  // Neither model grows (a frontier that shrinks and a flat reach): the
  // source's reach is as good as finished.
  if (!std::isfinite(estimate)) return last;
  // No path has more hops than the vertices it visits.
  const double capped = std::min(estimate, reachable);
  return std::max<std::uint64_t>(last, static_cast<std::uint64_t>(std::llround(capped)));
}

template <class Weight>
GraphShape measure_shape(const graph::Csr<Weight>& g, graph::vertex_id source, std::uint64_t bfs_arc_budget) {
  if (source >= g.num_vertices)
    throw std::invalid_argument("measure_shape: source " + std::to_string(source) + " is not below " +
                                std::to_string(g.num_vertices) + " vertices");
  GraphShape shape;
  measure_degrees(g, shape);

  // Level-synchronous BFS with a visited bit per vertex; stops as soon as it
  // has scanned bfs_arc_budget arcs, recording how far through the current
  // level it got so the cut-short next level can be scaled up.
  std::vector<std::uint64_t> visited((static_cast<std::uint64_t>(g.num_vertices) + 63) / 64, 0);
  const auto mark = [&](graph::vertex_id v) {
    std::uint64_t& word = visited[v >> 6];
    const std::uint64_t bit = std::uint64_t{1} << (v & 63);
    const bool was = (word & bit) != 0;
    word |= bit;
    return !was;
  };
  std::vector<graph::vertex_id> frontier{source}, next;
  mark(source);
  std::vector<double> level_sizes{1.0};
  std::uint64_t scanned = 0;
  bool cut = false;
  while (!frontier.empty()) {
    if (scanned >= bfs_arc_budget) {  // the budget ran out exactly at a level's end
      cut = true;
      break;
    }
    next.clear();
    double done = 0;  // vertices of the frontier scanned, a fraction of the last one included
    for (std::size_t i = 0; i < frontier.size() && !cut; ++i) {
      const graph::vertex_id v = frontier[i];
      const graph::edge_offset begin = g.offsets[v], end = g.offsets[v + 1];
      const std::uint64_t room = bfs_arc_budget - scanned;
      const graph::edge_offset stop = end - begin > room ? begin + room : end;
      for (graph::edge_offset e = begin; e < stop; ++e)
        if (mark(g.targets[e])) next.push_back(g.targets[e]);
      scanned += stop - begin;
      done += stop < end ? static_cast<double>(stop - begin) / static_cast<double>(end - begin) : 1.0;
      cut = scanned >= bfs_arc_budget && (stop < end || i + 1 < frontier.size());
    }
    if (next.empty()) break;
    if (cut) {
      // What the level cut short found, scaled up by the share of its
      // frontier scanned: an overestimate (the first vertices scanned find
      // the most new ones; on a grid twice the true size), so used only
      // where fewer than two whole levels say how fast the BFS grows.
      if (level_sizes.size() < 3)
        level_sizes.push_back(static_cast<double>(next.size()) * static_cast<double>(frontier.size()) / done);
      break;
    }
    level_sizes.push_back(static_cast<double>(next.size()));
    shape.bfs_levels = level_sizes.size() - 1;
    frontier.swap(next);
  }
  shape.bfs_arcs_scanned = scanned;
  shape.hop_exact = !cut;
  if (shape.hop_exact) {
    shape.hop_estimate = level_sizes.size() - 1;
  } else {
    // The vertices a source can reach: at most those not isolated (out-degree
    // 0 vertices of a directed graph may still be reached; a small error).
    const double reachable = std::max(1.0, static_cast<double>(shape.vertices) * (1.0 - shape.isolated_share));
    shape.hop_estimate = extrapolate_hops(level_sizes, reachable);
  }
  return shape;
}

template GraphShape measure_shape(const graph::Csr<std::uint32_t>&, graph::vertex_id, std::uint64_t);
template GraphShape measure_shape(const graph::Csr<float>&, graph::vertex_id, std::uint64_t);

}  // namespace sssp
