// Chain contraction against Dijkstra on the whole graph: road-like graphs
// (junctions joined by chains, one-way and zero-weight arcs, hanging trees),
// cycles and trees with no junction, random sparse graphs, chains whose
// lengths overflow an arc, and every kind of source (junction, chain vertex,
// tree vertex). Distances must be equal and predecessors a valid tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "graph/build_csr.hpp"
#include "graph/contraction.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "road_like_graph.hpp"

using namespace graph;
using test_support::road_like;
using test_support::RoadSpec;
using test_support::random_sparse;

namespace {

// Solves `source` through the contraction (Dijkstra on the core) and checks
// it against Dijkstra on g, distances and predecessor tree.
void expect_exact(const IntCsr& g, const ChainContraction& c, ContractionQuery& q, vertex_id source,
                  const std::string& what) {
  q.start(source);
  std::vector<vertex_id> expected_pred;
  const std::vector<std::uint64_t> expected = dijkstra(g, source, &expected_pred);
  std::vector<std::uint64_t> dist(g.num_vertices);
  std::vector<vertex_id> pred(g.num_vertices);
  if (!q.fits()) {
    // Too far into the core for an entry arc: the caller solves uncontracted.
    // Only the heavy-weight graphs get here.
    return;
  }
  IntCsr core = c.core;
  q.apply_entry(core);
  std::vector<vertex_id> core_pred;
  const std::vector<std::uint64_t> core_dist = dijkstra(core, q.core_source(), &core_pred);
  q.expand(core_dist.data(), core_pred.data(), dist.data(), pred.data(), 2);
  for (vertex_id v = 0; v < g.num_vertices; ++v)
    ASSERT_EQ(expected[v], dist[v]) << what << ", source " << source << ", vertex " << v
                                    << (c.core_of[v] == kNoVertex ? " (piece)" : " (core)");
  const TreeCheck tree = check_shortest_path_tree(g, source, dist, pred);
  ASSERT_EQ(tree.errors, 0u) << what << ", source " << source << ": "
                             << (tree.examples.empty() ? "" : tree.examples.front());
  // Distances alone take expand's other loop (no branch per vertex).
  std::vector<std::uint64_t> dist_only(g.num_vertices);
  q.expand(core_dist.data(), nullptr, dist_only.data(), nullptr, 2);
  for (vertex_id v = 0; v < g.num_vertices; ++v)
    ASSERT_EQ(expected[v], dist_only[v]) << what << ", distances only, source " << source << ", vertex " << v
                                         << (c.core_of[v] == kNoVertex ? " (piece)" : " (core)");
}

void expect_exact_all_sources(const IntCsr& g, const std::string& what, std::uint32_t max_sources = 400) {
  const ChainContraction c = contract_chains(g);
  ASSERT_EQ(c.core.num_vertices, c.core_vertices() + 1 + ChainContraction::kEntryArcs);
  ContractionQuery q(c, g);
  const vertex_id step = std::max<vertex_id>(1, g.num_vertices / max_sources);
  for (vertex_id s = 0; s < g.num_vertices; s += step) {
    expect_exact(g, c, q, s, what);
    if (testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace

TEST(ChainContraction, RoadLikeGraphsEveryKindOfSource) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    RoadSpec spec;
    spec.max_weight = seed % 3 == 0 ? 1 : 20;  // unit-like weights have many ties
    const IntCsr g = road_like(spec, seed);
    const ChainContraction c = contract_chains(g);
    // The generator's chains and trees must go: only junctions (and the
    // components' own core vertices) stay.
    EXPECT_LT(c.core_vertices(), g.num_vertices / 3) << "seed " << seed;
    EXPECT_GT(c.peeled, 0u);
    EXPECT_GT(c.shortcuts, 0u);
    expect_exact_all_sources(g, "road-like seed " + std::to_string(seed));
    if (HasFatalFailure()) return;
  }
}

TEST(ChainContraction, ZeroWeightsAndOneWayStreets) {
  for (std::uint64_t seed = 20; seed < 40; ++seed) {
    RoadSpec spec;
    spec.max_weight = 1;  // half the arcs weigh 0
    spec.one_way = 0.5;
    expect_exact_all_sources(road_like(spec, seed), "zero/one-way seed " + std::to_string(seed));
    if (HasFatalFailure()) return;
  }
}

TEST(ChainContraction, RandomSparseGraphs) {
  for (std::uint64_t seed = 40; seed < 52; ++seed) {
    const vertex_id n = 50 + static_cast<vertex_id>(seed * 13 % 300);
    const std::uint64_t arcs = n * (1 + seed % 3);  // mean degree 1 .. 3: many chains and trees
    expect_exact_all_sources(random_sparse(n, arcs, seed % 2 ? 9 : 0, seed), "random seed " + std::to_string(seed));
    if (HasFatalFailure()) return;
  }
}

TEST(ChainContraction, ChainsLongerThanAnArcAreCut) {
  RoadSpec spec;
  spec.heavy_weight = 3'000'000'000u;  // two of them overflow a 32-bit shortcut
  spec.max_chain = 6;
  for (std::uint64_t seed = 60; seed < 66; ++seed) {
    const IntCsr g = road_like(spec, seed);
    const ChainContraction c = contract_chains(g);
    for (const std::uint32_t w : c.core.weights) EXPECT_LE(w, std::numeric_limits<std::uint32_t>::max());
    expect_exact_all_sources(g, "heavy seed " + std::to_string(seed));
    if (HasFatalFailure()) return;
  }
}

TEST(ChainContraction, PathCycleTreeAndEmptyGraphs) {
  // A bidirectional path: one junction stays (its last peeled end).
  Coo<std::uint32_t> path;
  path.num_vertices = 30;
  for (vertex_id v = 0; v + 1 < 30; ++v) {
    path.add(v, v + 1, v % 4);
    path.add(v + 1, v, 3);
  }
  const IntCsr p = build_csr(std::move(path), BuildOptions{false, true});
  const ChainContraction cp = contract_chains(p);
  EXPECT_EQ(cp.core_vertices(), 1u);
  expect_exact_all_sources(p, "path");
  // A one-way cycle: one vertex becomes its junction.
  Coo<std::uint32_t> cycle;
  cycle.num_vertices = 12;
  for (vertex_id v = 0; v < 12; ++v) cycle.add(v, (v + 1) % 12, 1 + v % 3);
  const IntCsr cy = build_csr(std::move(cycle), BuildOptions{false, true});
  EXPECT_EQ(contract_chains(cy).core_vertices(), 1u);
  expect_exact_all_sources(cy, "cycle");
  // No arcs at all: every vertex is its own core.
  Coo<std::uint32_t> empty;
  empty.num_vertices = 5;
  const IntCsr e = build_csr(std::move(empty), BuildOptions{false, true});
  EXPECT_EQ(contract_chains(e).core_vertices(), 5u);
  expect_exact_all_sources(e, "no arcs");
}

TEST(ChainContraction, PaysOnlyWhereChainsAre) {
  RoadSpec spec;
  EXPECT_TRUE(contraction_pays(contract_chains(road_like(spec, 3))));
  // A complete digraph has no chain and no tree.
  Coo<std::uint32_t> complete;
  complete.num_vertices = 12;
  for (vertex_id u = 0; u < 12; ++u)
    for (vertex_id v = 0; v < 12; ++v)
      if (u != v) complete.add(u, v, 1);
  const ChainContraction c = contract_chains(build_csr(std::move(complete), BuildOptions{false, true}));
  EXPECT_EQ(c.core_vertices(), 12u);
  EXPECT_EQ(c.shortcuts, 0u);
  EXPECT_FALSE(contraction_pays(c));
}

TEST(ChainContraction, SourceOutOfRangeIsRefused) {
  RoadSpec spec;
  const IntCsr g = road_like(spec, 5);
  const ChainContraction c = contract_chains(g);
  ContractionQuery q(c, g);
  EXPECT_THROW(q.start(g.num_vertices), std::out_of_range);
}
