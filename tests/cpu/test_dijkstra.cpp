// Dijkstra (the reference solver) on hand-made graphs with known answers, and
// against an independent Bellman-Ford on random graphs.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "graph/build_csr.hpp"
#include "graph/reference.hpp"

using namespace graph;

namespace {

template <class Weight>
Csr<Weight> directed(vertex_id n, const std::vector<std::tuple<vertex_id, vertex_id, Weight>>& arcs) {
  Coo<Weight> coo;
  coo.num_vertices = n;
  for (const auto& [u, v, w] : arcs) coo.add(u, v, w);
  return build_csr(std::move(coo), BuildOptions{});
}

// Bellman-Ford in the same distance arithmetic: O(n m), independent of any heap.
template <class Weight>
std::vector<distance_t<Weight>> bellman_ford(const Csr<Weight>& g, vertex_id source) {
  using Dist = distance_t<Weight>;
  std::vector<Dist> dist(g.num_vertices, infinite_distance<Weight>());
  dist[source] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (vertex_id u = 0; u < g.num_vertices; ++u) {
      if (dist[u] == infinite_distance<Weight>()) continue;
      for (edge_offset k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
        const Dist candidate = static_cast<Dist>(dist[u] + static_cast<Dist>(g.weights[k]));
        if (candidate < dist[g.targets[k]]) {
          dist[g.targets[k]] = candidate;
          changed = true;
        }
      }
    }
  }
  return dist;
}

// Checks that pred is a shortest-path tree for dist: every reached vertex but
// the source has a predecessor whose arc makes its distance exactly.
template <class Weight>
void expect_valid_tree(const Csr<Weight>& g, vertex_id source, const std::vector<distance_t<Weight>>& dist,
                       const std::vector<vertex_id>& pred) {
  ASSERT_EQ(pred.size(), g.num_vertices);
  EXPECT_EQ(pred[source], kNoVertex);
  for (vertex_id v = 0; v < g.num_vertices; ++v) {
    if (v == source) continue;
    if (dist[v] == infinite_distance<Weight>()) {
      EXPECT_EQ(pred[v], kNoVertex) << "unreachable vertex " << v;
      continue;
    }
    const vertex_id u = pred[v];
    ASSERT_LT(u, g.num_vertices) << "reached vertex " << v << " has no predecessor";
    bool found = false;
    for (edge_offset k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (g.targets[k] == v && static_cast<distance_t<Weight>>(dist[u] + g.weights[k]) == dist[v]) found = true;
    EXPECT_TRUE(found) << "pred[" << v << "] = " << u << " is not on a shortest path";
  }
}

}  // namespace

// Cormen et al., Introduction to Algorithms, figure 24.6: s t x y z = 0..4.
TEST(Dijkstra, TextbookGraph) {
  const auto g = directed<std::uint32_t>(5, {{0, 1, 10}, {0, 3, 5}, {1, 2, 1}, {1, 3, 2}, {3, 1, 3},
                                             {3, 2, 9}, {3, 4, 2}, {2, 4, 4}, {4, 2, 6}, {4, 0, 7}});
  std::vector<vertex_id> pred;
  CpuSolveStats stats;
  const auto dist = dijkstra(g, 0, &pred, &stats);
  EXPECT_EQ(dist, (std::vector<std::uint64_t>{0, 8, 9, 5, 7}));
  EXPECT_EQ(pred, (std::vector<vertex_id>{kNoVertex, 3, 1, 0, 3}));
  EXPECT_EQ(stats.relaxations, 10u);  // every vertex reached, every arc relaxed once
  EXPECT_EQ(stats.phases, 5u);
  EXPECT_EQ(stats.delta, 0.0);
  // From z (4): z->s 7, s->y 12, y->t 15, t->x 16 vs z->x 6.
  EXPECT_EQ(dijkstra(g, 4), (std::vector<std::uint64_t>{7, 15, 6, 12, 0}));
}

TEST(Dijkstra, UnreachableVerticesAndRelaxationCount) {
  // 0 -> 1 -> 2; 3 -> 0 and 3 -> 4 are not reachable from 0; 5 isolated.
  const auto g = directed<std::uint32_t>(6, {{0, 1, 4}, {1, 2, 6}, {3, 0, 1}, {3, 4, 1}});
  std::vector<vertex_id> pred;
  CpuSolveStats stats;
  const auto dist = dijkstra(g, 0, &pred, &stats);
  const auto inf = infinite_distance<std::uint32_t>();
  EXPECT_EQ(dist, (std::vector<std::uint64_t>{0, 4, 10, inf, inf, inf}));
  EXPECT_EQ(pred, (std::vector<vertex_id>{kNoVertex, 0, 1, kNoVertex, kNoVertex, kNoVertex}));
  EXPECT_EQ(stats.relaxations, 2u);  // only arcs leaving reached vertices
  EXPECT_EQ(stats.phases, 3u);
}

TEST(Dijkstra, ZeroWeightArcsAndTies) {
  // Two equal paths to 3 and a zero-weight cycle 1 <-> 2.
  const auto g = directed<std::uint32_t>(5, {{0, 1, 0}, {1, 2, 0}, {2, 1, 0}, {0, 3, 5}, {2, 3, 5}, {3, 4, 0}});
  std::vector<vertex_id> pred;
  const auto dist = dijkstra(g, 0, &pred);
  EXPECT_EQ(dist, (std::vector<std::uint64_t>{0, 0, 0, 5, 5}));
  expect_valid_tree(g, 0, dist, pred);
}

TEST(Dijkstra, SingleVertexAndSelfContainedSource) {
  const auto g = directed<std::uint32_t>(1, {});
  std::vector<vertex_id> pred;
  EXPECT_EQ(dijkstra(g, 0, &pred), (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(pred, (std::vector<vertex_id>{kNoVertex}));
}

TEST(Dijkstra, SumsBeyond32BitsAreExact) {
  const std::uint32_t big = std::numeric_limits<std::uint32_t>::max();
  const auto g = directed<std::uint32_t>(4, {{0, 1, big}, {1, 2, big}, {2, 3, big}});
  const auto dist = dijkstra(g, 0);
  EXPECT_EQ(dist[3], 3ull * big);
}

TEST(Dijkstra, FloatWeightsUseFloatArithmetic) {
  // A chain of 0.1f arcs: distances are the float partial sums, not the
  // decimal values (0.1f + 0.1f + 0.1f != 0.3f in float).
  std::vector<std::tuple<vertex_id, vertex_id, float>> arcs;
  for (vertex_id v = 0; v < 10; ++v) arcs.emplace_back(v, v + 1, 0.1f);
  const auto g = directed<float>(11, arcs);
  const auto dist = dijkstra(g, 0);
  float expected = 0.0f;
  for (vertex_id v = 0; v <= 10; ++v) {
    EXPECT_EQ(dist[v], expected) << "vertex " << v;
    expected += 0.1f;
  }
  // The shorter of two float paths wins; unreachable is +infinity.
  const auto h = directed<float>(4, {{0, 1, 0.5f}, {1, 2, 0.25f}, {0, 2, 0.8f}});
  const auto dh = dijkstra(h, 0);
  EXPECT_EQ(dh[2], 0.75f);
  EXPECT_EQ(dh[3], std::numeric_limits<float>::infinity());
}

TEST(Dijkstra, RejectsBadSource) {
  const auto g = directed<std::uint32_t>(3, {{0, 1, 1}});
  EXPECT_THROW(dijkstra(g, 3), std::invalid_argument);
  EXPECT_THROW(dijkstra(g, kNoVertex), std::invalid_argument);
}

TEST(Dijkstra, MatchesBellmanFordOnRandomGraphs) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 30; ++trial) {
    const auto n = static_cast<vertex_id>(1 + rng() % 300);
    const auto m = rng() % (4 * static_cast<std::uint64_t>(n) + 1);
    const auto max_weight = static_cast<std::uint32_t>(trial % 3 == 0 ? 3 : 1000);
    std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> int_arcs;
    std::vector<std::tuple<vertex_id, vertex_id, float>> float_arcs;
    for (std::uint64_t i = 0; i < m; ++i) {
      const auto u = static_cast<vertex_id>(rng() % n), v = static_cast<vertex_id>(rng() % n);
      const auto w = static_cast<std::uint32_t>(rng() % (max_weight + 1));  // zero weights included
      int_arcs.emplace_back(u, v, w);
      float_arcs.emplace_back(u, v, static_cast<float>(w) * 0.37f);
    }
    const auto source = static_cast<vertex_id>(rng() % n);
    const auto gi = directed<std::uint32_t>(n, int_arcs);
    std::vector<vertex_id> pred;
    const auto di = dijkstra(gi, source, &pred);
    EXPECT_EQ(di, bellman_ford(gi, source)) << "trial " << trial;
    expect_valid_tree(gi, source, di, pred);
    // Float: Bellman-Ford may find the same minimum through a different
    // rounding path; Dijkstra's float result is the minimum over the paths
    // it explores, so it can only be within rounding of Bellman-Ford's.
    const auto gf = directed<float>(n, float_arcs);
    const auto df = dijkstra(gf, source);
    const auto bf = bellman_ford(gf, source);
    for (vertex_id v = 0; v < n; ++v) {
      if (bf[v] == std::numeric_limits<float>::infinity()) {
        EXPECT_EQ(df[v], bf[v]);
      } else {
        EXPECT_NEAR(df[v], bf[v], 1e-5 * (1.0 + bf[v])) << "trial " << trial << " vertex " << v;
      }
    }
  }
}
