// --strategy auto: the bounded shape measurements (sssp/graph_shape.hpp) and
// the rule on them (sssp/auto_strategy.hpp), on small generated graphs of
// the classes the rule was fitted to. Host code only: no GPU needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "graph/generators.hpp"
#include "sssp/auto_strategy.hpp"
#include "sssp/graph_shape.hpp"
#include "test_support.hpp"

namespace {

graph::IntCsr generated(const std::string& spec) {
  return graph::generate(graph::GeneratorSpec::parse(spec), graph::WeightRule{}, 1);
}

// 0 -> 1 -> ... -> n-1, unit weights.
graph::IntCsr path_graph(graph::vertex_id n) {
  graph::IntCsr g;
  g.num_vertices = n;
  g.offsets.assign(1, 0);
  for (graph::vertex_id v = 0; v < n; ++v) {
    if (v + 1 < n) {
      g.targets.push_back(v + 1);
      g.weights.push_back(1);
    }
    g.offsets.push_back(g.targets.size());
  }
  return g;
}

using test_support::contains;

}  // namespace

TEST(AutoStrategy, GridIsHighDiameterSoNearFar) {
  // 100 x 100 from the corner: 198 hops, 39,600 arcs: within the BFS budget, so exact.
  const graph::IntCsr g = generated("grid:100:100");
  const sssp::StrategyChoice c = sssp::choose_strategy(g, 0);
  EXPECT_EQ(c.strategy, sssp::Strategy::NearFar);
  EXPECT_TRUE(c.shape.hop_exact);
  EXPECT_EQ(c.shape.hop_estimate, 198u);
  EXPECT_EQ(c.shape.max_degree, 4u);
  EXPECT_FALSE(c.shape.degree_sampled);
  EXPECT_TRUE(contains(c.reason, "hop diameter estimate 198 (exact) > 50")) << c.reason;
  EXPECT_TRUE(contains(c.reason, "max degree 4,")) << c.reason;
}

TEST(AutoStrategy, LargeGridIsExtrapolatedAndStaysHighDiameter) {
  // 600 x 600: 1.4M arcs, far past the budget; the true eccentricity of the
  // corner is 1198 and of the middle about 600.
  const graph::IntCsr g = generated("grid:600:600");
  for (const graph::vertex_id source : {0u, 300u * 600u + 300u}) {
    const sssp::StrategyChoice c = sssp::choose_strategy(g, source);
    EXPECT_EQ(c.strategy, sssp::Strategy::NearFar) << c.reason;
    EXPECT_FALSE(c.shape.hop_exact);
    EXPECT_LE(c.shape.bfs_arcs_scanned, sssp::kHopBfsArcBudget);
    EXPECT_GT(c.shape.hop_estimate, 250u) << c.reason;  // within a factor of about 2 of the truth
    EXPECT_LT(c.shape.hop_estimate, 2400u) << c.reason;
    EXPECT_TRUE(contains(c.reason, "hop diameter estimate ~")) << c.reason;
  }
}

TEST(AutoStrategy, RmatIsLowDiameterAndSkewedSoBellmanFord) {
  // Graph500 R-MAT, 2^14 vertices: a few hops, out-degrees from 0 to hundreds.
  const graph::IntCsr g = generated("rmat:14:16");
  graph::vertex_id source = 0;
  while (g.out_degree(source) == 0) ++source;
  const sssp::StrategyChoice c = sssp::choose_strategy(g, source);
  EXPECT_EQ(c.strategy, sssp::Strategy::BellmanFord) << c.reason;
  EXPECT_LE(c.shape.hop_estimate, sssp::kMaxHopsForBellmanFord) << c.reason;
  EXPECT_GE(c.shape.degree_cv, sssp::kMinDegreeCvForBellmanFord) << c.reason;
  EXPECT_GT(c.shape.max_degree, 100u);
  EXPECT_TRUE(contains(c.reason, ">= 1.3")) << c.reason;
}

TEST(AutoStrategy, UniformRandomIsLowDiameterButEvenSoNearFar) {
  const graph::IntCsr g = generated("urand:20000:8");
  const sssp::StrategyChoice c = sssp::choose_strategy(g, 0);
  EXPECT_EQ(c.strategy, sssp::Strategy::NearFar) << c.reason;
  EXPECT_LE(c.shape.hop_estimate, 12u) << c.reason;
  EXPECT_LT(c.shape.degree_cv, sssp::kMinDegreeCvForBellmanFord) << c.reason;
  EXPECT_TRUE(contains(c.reason, "< 1.3")) << c.reason;
}

TEST(AutoStrategy, RuleThresholdsAreInclusive) {
  sssp::GraphShape s;
  s.vertices = 1000000;  // far from thin at any hop count below
  s.hop_estimate = sssp::kMaxHopsForBellmanFord;
  s.degree_cv = sssp::kMinDegreeCvForBellmanFord;
  EXPECT_EQ(sssp::choose_strategy(s).strategy, sssp::Strategy::BellmanFord);
  s.hop_estimate += 1;
  EXPECT_EQ(sssp::choose_strategy(s).strategy, sssp::Strategy::NearFar);
  s.hop_estimate -= 1;
  s.degree_cv = sssp::kMinDegreeCvForBellmanFord * 0.99;
  EXPECT_EQ(sssp::choose_strategy(s).strategy, sssp::Strategy::NearFar);
  s.degree_sampled = true;
  s.max_degree = 12345;
  EXPECT_TRUE(contains(sssp::choose_strategy(s).reason, "max degree 12345 (sampled)"));
}

// High diameter and thin (andorra_osm: 38,410 vertices over about 1,300
// hops): bellman-ford, whatever the skew; from kMaxVerticesPerHopForBellmanFord
// vertices per hop up, near-far. Low-diameter graphs are never thin.
TEST(AutoStrategy, ThinHighDiameterGraphsRunBellmanFord) {
  sssp::GraphShape s;
  s.vertices = 38410;
  s.hop_estimate = 1300;
  s.degree_cv = 0.3;
  sssp::StrategyChoice c = sssp::choose_strategy(s);
  EXPECT_EQ(c.strategy, sssp::Strategy::BellmanFord);
  EXPECT_TRUE(contains(c.reason, "hop diameter estimate ~1300 > 50, 29.5 vertices per hop < 40, degree cv 0.30"))
      << c.reason;
  s.vertices = 40 * 1300;
  c = sssp::choose_strategy(s);
  EXPECT_EQ(c.strategy, sssp::Strategy::NearFar);
  EXPECT_TRUE(contains(c.reason, "40.0 vertices per hop >= 40")) << c.reason;
  s.vertices = 100;
  s.hop_estimate = sssp::kMaxHopsForBellmanFord;  // 2 per hop, but low diameter and even: near-far
  EXPECT_EQ(sssp::choose_strategy(s).strategy, sssp::Strategy::NearFar);
  // A path measured for real: one vertex per hop.
  const sssp::StrategyChoice path = sssp::choose_strategy(path_graph(1000), 0);
  EXPECT_EQ(path.strategy, sssp::Strategy::BellmanFord) << path.reason;
  EXPECT_TRUE(contains(path.reason, "hop diameter estimate 999 (exact) > 50, 1.0 vertices per hop < 40"))
      << path.reason;
}

// Thin and chain-like (a road such as andorra_osm, mean out-degree 2.0)
// where near-far runs whole in the resident block: near-far, which beat
// bellman-ford there; bellman-ford again where the block does not run
// (resident_max_vertices 0: predecessors, batches), where the graph does not
// fit it, or where the thin graph is not chain-like (a small grid).
TEST(AutoStrategy, ThinChainLikeGraphsInTheResidentBlockRunNearFar) {
  sssp::GraphShape s;
  s.vertices = 38410;
  s.hop_estimate = 1300;
  s.degree_cv = 0.14;
  s.mean_degree = 2.0;
  sssp::StrategyChoice c = sssp::choose_strategy(s, 50000);
  EXPECT_EQ(c.strategy, sssp::Strategy::NearFar) << c.reason;
  EXPECT_TRUE(contains(c.reason, "29.5 vertices per hop < 40")) << c.reason;
  EXPECT_TRUE(contains(c.reason, "; chain-like, 38410 vertices <= 50000: near-far runs whole in the resident block"))
      << c.reason;
  c = sssp::choose_strategy(s, 38410);
  EXPECT_EQ(c.strategy, sssp::Strategy::NearFar) << "the bound is inclusive: " << c.reason;
  c = sssp::choose_strategy(s, 38409);
  EXPECT_EQ(c.strategy, sssp::Strategy::BellmanFord) << c.reason;
  EXPECT_TRUE(contains(c.reason, "38410 vertices > 38409: more than the resident block holds")) << c.reason;
  c = sssp::choose_strategy(s);
  EXPECT_EQ(c.strategy, sssp::Strategy::BellmanFord) << c.reason;
  EXPECT_TRUE(contains(c.reason, "; chain-like, but the resident block does not run here")) << c.reason;
  s.mean_degree = sssp::kMaxMeanDegreeForChainDelta;  // a thin grid: not chain-like
  c = sssp::choose_strategy(s, 50000);
  EXPECT_EQ(c.strategy, sssp::Strategy::BellmanFord) << c.reason;
  EXPECT_FALSE(contains(c.reason, "chain-like")) << c.reason;
  // Skewed and low-diameter: bellman-ford whatever the block holds.
  sssp::GraphShape rmat;
  rmat.vertices = 4096;
  rmat.hop_estimate = 5;
  rmat.degree_cv = 3;
  rmat.mean_degree = 2;
  EXPECT_EQ(sssp::choose_strategy(rmat, 50000).strategy, sssp::Strategy::BellmanFord);
  // A path measured for real: chain-like, one vertex per hop.
  const sssp::StrategyChoice path = sssp::choose_strategy(path_graph(1000), 0, 5000);
  EXPECT_EQ(path.strategy, sssp::Strategy::NearFar) << path.reason;
  EXPECT_EQ(sssp::choose_strategy(path_graph(1000), 0, 999).strategy, sssp::Strategy::BellmanFord);
}

TEST(AutoDelta, WideBucketsFromTheHopDiameterUp) {
  sssp::GraphShape s;
  s.hop_estimate = sssp::kMinHopsForWideDelta - 1;
  s.hop_exact = true;
  sssp::DeltaChoice d = sssp::choose_delta_c(s);
  EXPECT_EQ(d.c, sssp::kNarrowDeltaC);
  EXPECT_TRUE(contains(d.reason, "16 x mean weight / mean out-degree (hop diameter estimate 31 < 32)")) << d.reason;
  s.hop_estimate = sssp::kMinHopsForWideDelta;
  s.hop_exact = false;
  s.mean_degree = sssp::kMaxMeanDegreeForChainDelta;
  d = sssp::choose_delta_c(s);
  EXPECT_EQ(d.c, sssp::kWideDeltaC);
  EXPECT_TRUE(contains(d.reason, "128 x mean weight / mean out-degree (hop diameter estimate ~32 >= 32, mean degree "
                                 "3.5 >= 3.5, 0 vertices < 2097152)"))
      << d.reason;
  // Large grids: narrower.
  s.vertices = sssp::kMinVerticesForLargeWideDelta;
  d = sssp::choose_delta_c(s);
  EXPECT_EQ(d.c, sssp::kLargeWideDeltaC);
  EXPECT_TRUE(contains(d.reason, "64 x mean weight / mean out-degree (hop diameter estimate ~32 >= 32, mean degree "
                                 "3.5 >= 3.5, 2097152 vertices >= 2097152)"))
      << d.reason;
  s.vertices = sssp::kMinVerticesForLargeWideDelta - 1;
  EXPECT_EQ(sssp::choose_delta_c(s).c, sssp::kWideDeltaC);
  s.vertices = sssp::kMinVerticesForLargeWideDelta;
  // Chains (roads): wider still, however large.
  s.mean_degree = 2.4;
  d = sssp::choose_delta_c(s);
  EXPECT_EQ(d.c, sssp::kChainDeltaC);
  EXPECT_TRUE(contains(d.reason, "256 x mean weight / mean out-degree (hop diameter estimate ~32 >= 32, mean degree "
                                 "2.4 < 3.5)"))
      << d.reason;
}

TEST(AutoDelta, EvenLowDiameterGraphsGetNarrowerBuckets) {
  sssp::GraphShape s;
  s.hop_estimate = sssp::kMaxHopsForEvenNarrowDelta;
  s.hop_exact = true;
  s.degree_cv = 0.2;
  sssp::DeltaChoice d = sssp::choose_delta_c(s);
  EXPECT_EQ(d.c, sssp::kEvenNarrowDeltaC);
  EXPECT_TRUE(contains(d.reason, "8 x mean weight / mean out-degree (hop diameter estimate 10 < 32, degree cv 0.20 "
                                 "< 1.3)"))
      << d.reason;
  s.degree_cv = sssp::kMinDegreeCvForBellmanFord;  // skewed (social, Graph500 R-MAT): the usual narrow c
  EXPECT_EQ(sssp::choose_delta_c(s).c, sssp::kNarrowDeltaC);
  s.degree_cv = 0.2;
  s.hop_estimate = sssp::kMaxHopsForEvenNarrowDelta + 1;  // a mesh's tens of hops: the usual narrow c
  EXPECT_EQ(sssp::choose_delta_c(s).c, sssp::kNarrowDeltaC);
}

TEST(AutoDelta, GridsRoadsAndUniformRandomGetTheirBuckets) {
  EXPECT_EQ(sssp::choose_delta_c(sssp::measure_shape(generated("grid:100:100"), 0)).c, sssp::kWideDeltaC);
  EXPECT_EQ(sssp::choose_delta_c(sssp::measure_shape(generated("urand:20000:8"), 0)).c, sssp::kEvenNarrowDeltaC);
  EXPECT_EQ(sssp::choose_delta_c(sssp::measure_shape(path_graph(1000), 0)).c, sssp::kChainDeltaC);
}

TEST(GraphShape, PathIsExactWithinTheBudgetAndExtrapolatedPastIt) {
  const graph::IntCsr g = path_graph(1000);
  sssp::GraphShape s = sssp::measure_shape(g, 0);
  EXPECT_TRUE(s.hop_exact);
  EXPECT_EQ(s.hop_estimate, 999u);
  EXPECT_EQ(s.bfs_arcs_scanned, 999u);
  EXPECT_EQ(s.max_degree, 1u);
  EXPECT_DOUBLE_EQ(s.mean_degree, 0.999);
  // From the middle: only what the source reaches counts.
  EXPECT_EQ(sssp::measure_shape(g, 600).hop_estimate, 399u);
  // A budget of 100 arcs: the BFS stops and must not claim an exact answer;
  // a path's growth is linear (k = 1), so the estimate stays high.
  s = sssp::measure_shape(g, 0, 100);
  EXPECT_FALSE(s.hop_exact);
  EXPECT_EQ(s.bfs_arcs_scanned, 100u);
  EXPECT_GT(s.hop_estimate, 500u);
  EXPECT_THROW(sssp::measure_shape(g, 1000), std::invalid_argument);
}

TEST(GraphShape, BudgetStopsInsideOneHugeVertex) {
  // A star: the centre has 5000 arcs, the budget 64: one level cut short.
  graph::IntCsr g;
  g.num_vertices = 5001;
  for (graph::vertex_id v = 1; v <= 5000; ++v) {
    g.targets.push_back(v);
    g.weights.push_back(1);
  }
  g.offsets.assign(g.num_vertices + 1, g.targets.size());
  g.offsets[0] = 0;
  const sssp::GraphShape s = sssp::measure_shape(g, 0, 64);
  EXPECT_EQ(s.bfs_arcs_scanned, 64u);
  EXPECT_FALSE(s.hop_exact);
  EXPECT_LE(s.hop_estimate, 2u);  // the cut level scaled up already holds every vertex
  EXPECT_EQ(s.max_degree, 5000u);
  EXPECT_GT(s.degree_cv, 10.0);
}

TEST(GraphShape, ExtrapolationModels) {
  // Geometric growth x10 per level to a million vertices: about 6 hops.
  const std::uint64_t geometric = sssp::extrapolate_hops({1, 10, 100, 1000}, 1111111);
  EXPECT_GE(geometric, 5u);
  EXPECT_LE(geometric, 7u);
  // Linear frontier growth (a grid from a corner, levels of h + 1
  // vertices) to 500,000 vertices: about 1000 hops.
  std::vector<double> grid;
  for (int h = 0; h <= 100; ++h) grid.push_back(h + 1);
  const std::uint64_t grid_hops = sssp::extrapolate_hops(grid, 500000);
  EXPECT_GE(grid_hops, 500u);
  EXPECT_LE(grid_hops, 2000u);
  // Everything reachable seen already: the levels so far.
  EXPECT_EQ(sssp::extrapolate_hops({1, 3, 2}, 6), 2u);
  EXPECT_EQ(sssp::extrapolate_hops({1}, 100), 0u);
  EXPECT_EQ(sssp::extrapolate_hops({}, 100), 0u);
}

TEST(GraphShape, LargeGraphsAreSampled) {
  // More vertices than the degree sample: statistics from evenly spaced blocks.
  const graph::IntCsr g = generated("grid:700:700");
  const sssp::GraphShape s = sssp::measure_shape(g, 0);
  EXPECT_TRUE(s.degree_sampled);
  EXPECT_EQ(s.max_degree, 4u);
  EXPECT_NEAR(s.mean_degree, 4.0, 0.01);  // the mean is exact: arcs / vertices
  EXPECT_LT(s.degree_cv, 0.1);
}
