// Contraction hierarchy and PHAST against Dijkstra: random sparse graphs,
// road-like graphs, grids, zero weights, one-way arcs, many seeds at once,
// and the whole road pipeline (chain contraction, a hierarchy over its core,
// PHAST from the entry's seeds, then the read-off), and the same hierarchy
// from any thread count.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "graph/build_csr.hpp"
#include "graph/contraction.hpp"
#include "graph/generators.hpp"
#include "graph/hierarchy.hpp"
#include "graph/reference.hpp"
#include "road_like_graph.hpp"

using namespace graph;
using test_support::random_sparse;

namespace {

void expect_phast_exact(const IntCsr& g, const std::string& what, std::uint32_t sources = 40) {
  const Hierarchy h = build_hierarchy(g);
  ASSERT_EQ(h.order.size(), g.num_vertices);
  ASSERT_EQ(h.level_offsets.back(), g.num_vertices);
  std::vector<std::uint64_t> got(g.num_vertices);
  const vertex_id step = std::max<vertex_id>(1, g.num_vertices / sources);
  for (vertex_id s = 0; s < g.num_vertices; s += step) {
    phast(h, {{s, 0}}, got.data());
    const std::vector<std::uint64_t> want = dijkstra(g, s);
    for (vertex_id v = 0; v < g.num_vertices; ++v)
      ASSERT_EQ(want[v], got[v]) << what << ", source " << s << ", vertex " << v;
  }
}

}  // namespace

TEST(Hierarchy, RandomGraphs) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const vertex_id n = 20 + static_cast<vertex_id>(seed * 37 % 400);
    expect_phast_exact(random_sparse(n, n * (1 + seed % 4), seed % 3 == 0 ? 1 : 50, seed),
                       "random seed " + std::to_string(seed));
    if (HasFatalFailure()) return;
  }
}

TEST(Hierarchy, ZeroWeightsAndRoads) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    expect_phast_exact(random_sparse(200, 600, 1, 100 + seed), "zero/one seed " + std::to_string(seed));
    test_support::RoadSpec spec;
    spec.one_way = 0.3;
    expect_phast_exact(test_support::road_like(spec, seed), "road-like seed " + std::to_string(seed));
    if (HasFatalFailure()) return;
  }
}

TEST(Hierarchy, GridsAndHeavyWeights) {
  const IntCsr grid = generate(GeneratorSpec::parse("grid:20:30"), WeightRule::parse("random:1:100", 3), 3);
  expect_phast_exact(grid, "grid 20x30");
  test_support::RoadSpec spec;
  spec.heavy_weight = 4'000'000'000u;  // shortcuts pass 2^32
  expect_phast_exact(test_support::road_like(spec, 9), "heavy");
}

TEST(Hierarchy, ManySeedsAtOnce) {
  // Seeds at distances d_i equal a super source with arcs of weight d_i.
  const IntCsr g = random_sparse(300, 900, 20, 77);
  const Hierarchy h = build_hierarchy(g);
  const Seeds seeds{{5, 7}, {100, 0}, {250, 31}, {5, 3}};
  Coo<std::uint32_t> coo;
  coo.num_vertices = g.num_vertices + 1;
  for (vertex_id u = 0; u < g.num_vertices; ++u)
    for (edge_offset e = g.offsets[u]; e < g.offsets[u + 1]; ++e) coo.add(u, g.targets[e], g.weights[e]);
  for (const auto& [v, d] : seeds) coo.add(g.num_vertices, v, static_cast<std::uint32_t>(d));
  const IntCsr with_super = build_csr(std::move(coo), BuildOptions{false, true});
  const std::vector<std::uint64_t> want = dijkstra(with_super, g.num_vertices);
  std::vector<std::uint64_t> got(g.num_vertices);
  phast(h, seeds, got.data());
  for (vertex_id v = 0; v < g.num_vertices; ++v) ASSERT_EQ(want[v], got[v]) << "vertex " << v;
}

TEST(Hierarchy, OverAChainContractionsCore) {
  for (std::uint64_t seed = 30; seed < 36; ++seed) {
    test_support::RoadSpec spec;
    spec.max_weight = seed % 2 ? 1 : 30;
    const IntCsr g = test_support::road_like(spec, seed);
    const ChainContraction c = contract_chains(g);
    const Hierarchy h = build_hierarchy(c.core);
    ContractionQuery q(c, g);
    std::vector<std::uint64_t> core_dist(c.core.num_vertices), dist(g.num_vertices);
    for (vertex_id s = 0; s < g.num_vertices; s += 7) {
      q.start(s);
      ASSERT_TRUE(q.fits());
      phast(h, core_seeds(c, q), core_dist.data());
      q.expand(core_dist.data(), nullptr, dist.data(), nullptr, 1);
      const std::vector<std::uint64_t> want = dijkstra(g, s);
      for (vertex_id v = 0; v < g.num_vertices; ++v)
        ASSERT_EQ(want[v], dist[v]) << "seed " << seed << ", source " << s << ", vertex " << v;
    }
  }
}

// The rounds' witness searches run on every thread, and the hierarchy must
// not depend on how many: the same ranks, levels and arcs from one thread
// and from four.
TEST(Hierarchy, SameOnAnyThreadCount) {
  test_support::RoadSpec spec;
  spec.junctions = 400;
  spec.roads = 900;
  spec.trees = 100;
  const IntCsr g = test_support::road_like(spec, 9);
  const int before = omp_get_max_threads();
  omp_set_num_threads(1);
  const Hierarchy one = build_hierarchy(g);
  omp_set_num_threads(4);
  const Hierarchy four = build_hierarchy(g);
  omp_set_num_threads(before);
  EXPECT_EQ(one.rank, four.rank);
  EXPECT_EQ(one.level_offsets, four.level_offsets);
  EXPECT_EQ(one.up_targets, four.up_targets);
  EXPECT_EQ(one.up_weights, four.up_weights);
  EXPECT_EQ(one.down_tails, four.down_tails);
  EXPECT_EQ(one.down_weights, four.down_weights);
  EXPECT_EQ(one.shortcuts, four.shortcuts);
}
