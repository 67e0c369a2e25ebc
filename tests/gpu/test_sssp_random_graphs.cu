// Every GPU strategy against the CPU Dijkstra on many small generated graphs:
// R-MAT (hubs: exercises the block and warp stages of the relax), grids and
// chains (many dependent rounds), uniform random, zero-weight arcs and
// zero-weight cycles, disconnected parts, float and integer weights, 64-bit
// distances, one vertex, no edges, a source with no out-arcs. Predecessor
// trees are checked to be shortest-path trees. Every case runs with both relax
// load balancers (three-stage, degree-binned), and also with the single-block
// loop off, so that small graphs exercise the multi-block relax of each.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_test_support.cuh"
#include "graph/build_csr.hpp"
#include "graph/contraction.hpp"
#include "graph/generators.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "sssp/auto_strategy.hpp"
#include "sssp/balance/merge_path_relax.cuh"
#include "sssp/solver.hpp"
#include "sssp/tree_check.hpp"
#include "road_like_graph.hpp"

namespace {

using graph::Csr;
using graph::vertex_id;

template <class Weight>
Csr<Weight> from_arcs(vertex_id n, const std::vector<std::tuple<vertex_id, vertex_id, Weight>>& arcs,
                      bool symmetrize = false) {
  graph::Coo<Weight> coo;
  coo.num_vertices = n;
  for (const auto& [u, v, w] : arcs) coo.add(u, v, w);
  graph::BuildOptions opts;
  opts.symmetrize = symmetrize;
  return graph::build_csr(std::move(coo), opts);
}

graph::IntCsr generated(const std::string& spec, const std::string& weights, std::uint64_t seed) {
  return graph::generate(graph::GeneratorSpec::parse(spec), graph::WeightRule::parse(weights, seed), seed);
}

// Float copy of an integer graph: w / 7 (inexact in binary, so rounding
// differences between paths would show up).
graph::FloatCsr to_float(const graph::IntCsr& g) {
  graph::FloatCsr f;
  f.num_vertices = g.num_vertices;
  f.offsets = g.offsets;
  f.targets = g.targets;
  f.weights.resize(g.weights.size());
  for (std::size_t e = 0; e < g.weights.size(); ++e) f.weights[e] = static_cast<float>(g.weights[e]) / 7.0f;
  return f;
}

template <class Weight>
void expect_distances(const std::vector<graph::distance_t<Weight>>& want,
                      const std::vector<graph::distance_t<Weight>>& got, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int shown = 0;
  std::size_t bad = 0;
  for (std::size_t v = 0; v < want.size(); ++v) {
    if (!graph::distances_match<Weight>(want[v], got[v])) {  // graph/verify.hpp
      ++bad;
      if (shown++ < 5) ADD_FAILURE() << what << ": vertex " << v << " expected " << want[v] << " got " << got[v];
    }
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " wrong distances";
}

template <class Weight>
void expect_tree(const Csr<Weight>& g, vertex_id source, const std::vector<graph::distance_t<Weight>>& dist,
                 const std::vector<vertex_id>& pred, const std::string& what) {
  for (const auto& problem : sssp::check_shortest_path_tree(g, source, dist, pred)) ADD_FAILURE() << what << ": " << problem;
}

struct Case {
  double delta = 0;  // 0: graph::auto_delta
  std::uint32_t buckets = 10;
  bool persistent_grid = true;
  std::uint32_t narrow_max_arcs = 0;  // 0: the solver's default
  bool medium_grid = true;
  bool cluster_loop = true;
  int cluster_local_steps = -1;  // -1: the solver's default
  bool resident_any_shape = false;  // the resident block on every graph it fits
};

// The relax configurations every case runs under.
struct RelaxMode {
  sssp::LoadBalance load_balance;
  bool single_block_loop;
};
constexpr RelaxMode kRelaxModes[] = {{sssp::LoadBalance::ThreeStage, true}, {sssp::LoadBalance::Binned, true},
                                     {sssp::LoadBalance::MergePath, true},  {sssp::LoadBalance::ThreeStage, false},
                                     {sssp::LoadBalance::Binned, false},    {sssp::LoadBalance::MergePath, false}};

// Runs every strategy with and without predecessors from each source, under
// every relax mode.
template <class Weight>
void check_all(const Csr<Weight>& g, const std::vector<vertex_id>& sources, const std::string& name,
               Case c = Case{}) {
  for (const RelaxMode mode : kRelaxModes) {
    for (const bool with_pred : {false, true}) {
      sssp::SolverOptions opts;
      opts.delta = c.delta > 0 ? c.delta : graph::auto_delta(g);
      opts.buckets = c.buckets;
      opts.predecessors = with_pred;
      opts.load_balance = mode.load_balance;
      opts.overrides.single_block_loop = mode.single_block_loop;
      opts.overrides.persistent_grid = c.persistent_grid;
      opts.overrides.narrow_max_arcs = c.narrow_max_arcs;
      opts.overrides.medium_grid = c.medium_grid;
      opts.overrides.cluster_loop = c.cluster_loop;
      opts.overrides.cluster_local_steps = c.cluster_local_steps;
      opts.overrides.resident_any_shape = c.resident_any_shape;
      sssp::GpuSolver<Weight> solver(g, opts);
      EXPECT_EQ(solver.load_balance(), mode.load_balance) << name;
      for (const vertex_id s : sources) {
        const auto want = graph::dijkstra(g, s);
        for (const sssp::Strategy strategy : sssp::all_strategies()) {
          const std::string what = name + " source " + std::to_string(s) + " " + sssp::to_string(strategy) +
                                   (with_pred ? " +pred" : "") + " delta " + std::to_string(opts.delta) + " B " +
                                   std::to_string(c.buckets) + " " + sssp::to_string(mode.load_balance) +
                                   (mode.single_block_loop ? "" : " no-single-block");
          const auto got = solver.solve(s, strategy);
          expect_distances<Weight>(want, got.distances, what);
          if (with_pred) {
            expect_tree(g, s, got.distances, got.predecessors, what);
          } else {
            EXPECT_TRUE(got.predecessors.empty()) << what;
          }
          EXPECT_GT(got.solve_ms, 0.0) << what;
          EXPECT_GT(got.delta, 0.0) << what;
          EXPECT_EQ(got.rounds_narrow + got.rounds_cluster + got.rounds_wide, got.iterations) << what;
          if (!mode.single_block_loop) EXPECT_EQ(got.rounds_narrow + got.rounds_cluster, 0u) << what;
          // The resident block takes near-far solves without predecessors
          // where asked to on any shape (every graph here fits it).
          if (c.resident_any_shape && mode.single_block_loop)
            EXPECT_EQ(got.resident, strategy == sssp::Strategy::NearFar && !with_pred) << what;
          if (got.resident) EXPECT_EQ(got.rounds_narrow, got.iterations) << what;
          if (g.num_arcs() > 0 && g.out_degree(s) > 0) {
            EXPECT_GT(got.iterations, 0u) << what;
            EXPECT_GE(got.relaxations, g.out_degree(s)) << what;
          }
        }
      }
    }
  }
}

TEST(SsspRandomGraphs, Rmat) {
  SKIP_IF_NO_GPU();
  const auto g = generated("rmat:11:8", "random:1:1000", 3);
  check_all(g, {0, 5, g.num_vertices - 1}, "rmat:11:8");
}

TEST(SsspRandomGraphs, RmatLargerWithHubs) {
  SKIP_IF_NO_GPU();
  // Hubs with thousands of arcs: the block (CTA) stage of the relax.
  const auto g = generated("rmat:14:16", "random:1:1000", 7);
  check_all(g, {1}, "rmat:14:16");
}

TEST(SsspRandomGraphs, GridManyRounds) {
  SKIP_IF_NO_GPU();
  const auto g = generated("grid:40:60", "random:1:1000", 11);
  check_all(g, {0, 1234}, "grid:40:60");
}

TEST(SsspRandomGraphs, Uniform) {
  SKIP_IF_NO_GPU();
  const auto g = generated("urand:3000:6", "random:1:1000", 5);
  check_all(g, {0, 2999}, "urand:3000:6");
}

TEST(SsspRandomGraphs, ZeroWeightsAndZeroCycles) {
  SKIP_IF_NO_GPU();
  // Weights 0..3 on an undirected graph: many zero-weight cycles, many ties.
  const auto g = generated("rmat:10:8", "random:0:3", 9);
  check_all(g, {0, 17}, "rmat:10:8 w0..3");
  const auto grid = generated("grid:30:30", "random:0:1", 2);
  check_all(grid, {0}, "grid:30:30 w0..1");
  check_all(to_float(grid), {0}, "float grid:30:30 w0..1/7");
}

TEST(SsspRandomGraphs, FloatWeights) {
  SKIP_IF_NO_GPU();
  check_all(to_float(generated("rmat:11:8", "random:1:1000", 4)), {0, 9}, "float rmat:11:8");
  check_all(to_float(generated("grid:25:40", "random:1:1000", 4)), {3}, "float grid:25:40");
  check_all(to_float(generated("urand:2000:5", "random:1:100", 4)), {0}, "float urand:2000:5");
}

TEST(SsspRandomGraphs, DisconnectedParts) {
  SKIP_IF_NO_GPU();
  // Two grids side by side with no arc between them, plus isolated vertices.
  const auto a = generated("grid:10:10", "random:1:50", 1);
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> arcs;
  for (vertex_id u = 0; u < a.num_vertices; ++u)
    for (auto e = a.offsets[u]; e < a.offsets[u + 1]; ++e) {
      arcs.emplace_back(u, a.targets[e], a.weights[e]);
      arcs.emplace_back(u + 100, a.targets[e] + 100, a.weights[e] + 1);
    }
  const auto g = from_arcs<std::uint32_t>(250, arcs);
  check_all(g, {0, 150, 240}, "two grids + isolated");
}

TEST(SsspRandomGraphs, TinyAndEdgeless) {
  SKIP_IF_NO_GPU();
  check_all(from_arcs<std::uint32_t>(1, {}), {0}, "one vertex");
  check_all(from_arcs<float>(1, {}), {0}, "one vertex float");
  check_all(from_arcs<std::uint32_t>(10, {}), {0, 9}, "ten vertices, no arcs");
  check_all(from_arcs<std::uint32_t>(2, {{0, 1, 5}}), {0, 1}, "one arc");
  check_all(from_arcs<std::uint32_t>(3, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}}), {0, 2}, "zero cycle");
}

TEST(SsspRandomGraphs, SourceWithoutOutArcs) {
  SKIP_IF_NO_GPU();
  // Directed: arcs only into vertex 0 and among the others.
  check_all(from_arcs<std::uint32_t>(5, {{1, 0, 3}, {2, 0, 1}, {1, 2, 4}, {3, 4, 2}}), {0, 1}, "sink source");
}

TEST(SsspRandomGraphs, StarHub) {
  SKIP_IF_NO_GPU();
  // One vertex with 5000 arcs, then a second level: block stage, then warp/scan stages.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> arcs;
  std::mt19937 rng(42);
  for (vertex_id v = 1; v <= 5000; ++v) arcs.emplace_back(0, v, rng() % 1000 + 1);
  for (vertex_id v = 1; v <= 5000; ++v) arcs.emplace_back(v, 5001 + (v % 97), rng() % 1000);
  for (vertex_id v = 0; v < 97; ++v)
    for (vertex_id k = 0; k < 40; ++k) arcs.emplace_back(5001 + v, 1 + (v * 40 + k) % 5000, rng() % 10);
  const auto g = from_arcs<std::uint32_t>(5098, arcs);
  check_all(g, {0, 5001}, "star");
  // (5000 hub arcs + 97 * 40 arcs of degree-40 vertices) of 13880 arcs leave
  // vertices of degree >= 32; auto takes merge-path whatever the share.
  sssp::SolverOptions opts;
  opts.delta = graph::auto_delta(g);
  sssp::GpuSolver<std::uint32_t> solver(g, opts);
  EXPECT_DOUBLE_EQ(solver.heavy_arc_share(), (5000.0 + 97.0 * 40.0) / 13880.0);
  EXPECT_EQ(solver.load_balance(), sssp::LoadBalance::MergePath);
}

TEST(SsspRandomGraphs, ChainManyDependentRounds) {
  SKIP_IF_NO_GPU();
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> arcs;
  for (vertex_id v = 0; v + 1 < 3000; ++v) arcs.emplace_back(v, v + 1, 1 + v % 5);
  // Shortcuts that look good but are not.
  for (vertex_id v = 0; v + 100 < 3000; v += 37) arcs.emplace_back(v, v + 100, 400);
  check_all(from_arcs<std::uint32_t>(3000, arcs), {0}, "chain");
}

// A star of 20,000 leaves: one step appends them all, past the resident
// block's queue of 2,048 entries (the overflow bitmap); each leaf leads on to
// a chain of 3,000 vertices.
graph::IntCsr star_with_chain() {
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> star;
  std::mt19937 rng(7);
  const vertex_id leaves = 20000;
  for (vertex_id v = 1; v <= leaves; ++v) star.emplace_back(0, v, rng() % 1000 + 1);
  for (vertex_id v = 1; v <= leaves; ++v) star.emplace_back(v, leaves + 1 + v % 3000, rng() % 100);
  for (vertex_id v = 0; v + 1 < 3000; ++v) star.emplace_back(leaves + 1 + v, leaves + 2 + v, rng() % 10);
  return from_arcs<std::uint32_t>(leaves + 3001, star);
}

// The resident block (resident_block.cuh) on every graph it fits: grids,
// R-MAT hubs, uniform graphs with zero weights, float weights, disconnected
// parts, a chain, a star whose frontier overflows the block's queues, at
// tiny, automatic and huge deltas; exact, and in the block exactly for
// near-far without predecessors. Then its rule: by default on chain-like
// graphs only, never for other strategies, with predecessors, with
// resident_block or the single-block loop off, or past shared memory.
TEST(SsspRandomGraphs, ResidentBlock) {
  SKIP_IF_NO_GPU();
  Case c;
  c.resident_any_shape = true;
  check_all(generated("grid:40:60", "random:1:1000", 11), {0, 1234}, "grid:40:60 resident", c);
  check_all(generated("rmat:11:8", "random:1:1000", 3), {0, 5}, "rmat:11:8 resident", c);
  check_all(generated("urand:3000:6", "random:0:3", 5), {0}, "urand:3000:6 w0..3 resident", c);
  check_all(to_float(generated("grid:25:40", "random:1:1000", 4)), {3}, "float grid:25:40 resident", c);
  check_all(from_arcs<std::uint32_t>(10, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {5, 6, 3}}), {0, 5}, "parts resident", c);
  for (const double delta : {0.3, 1e12}) {
    Case d = c;
    d.delta = delta;
    check_all(generated("grid:30:30", "random:1:100", 6), {0}, "grid:30:30 resident delta " + std::to_string(delta), d);
  }
  const auto g_star = star_with_chain();
  for (const double delta : {0.0, 1e12}) {
    Case d = c;
    d.delta = delta;
    check_all(g_star, {0}, "star of 20000 resident", d);
  }

  // The rule.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> chain;
  for (vertex_id v = 0; v + 1 < 5000; ++v) {
    chain.emplace_back(v, v + 1, 1 + v % 7);
    chain.emplace_back(v + 1, v, 1 + v % 7);
  }
  const auto g_chain = from_arcs<std::uint32_t>(5000, chain);
  const auto resident_of = [](const auto& g, sssp::SolverOptions opts, sssp::Strategy strategy) {
    opts.delta = graph::auto_delta(g);
    sssp::GpuSolver<std::uint32_t> solver(g, opts);
    const auto got = solver.solve(0, strategy);
    expect_distances<std::uint32_t>(graph::dijkstra(g, 0), got.distances, "resident rule");
    return got.resident;
  };
  const sssp::SolverOptions defaults;
  EXPECT_TRUE(resident_of(g_chain, defaults, sssp::Strategy::NearFar)) << "a chain of 5000 vertices";
  for (const auto strategy : {sssp::Strategy::BellmanFord, sssp::Strategy::BucketSort, sssp::Strategy::BucketMultisplit})
    EXPECT_FALSE(resident_of(g_chain, defaults, strategy)) << sssp::to_string(strategy);
  sssp::SolverOptions off = defaults;
  off.predecessors = true;
  EXPECT_FALSE(resident_of(g_chain, off, sssp::Strategy::NearFar)) << "with predecessors";
  off = defaults;
  off.overrides.resident_block = false;
  EXPECT_FALSE(resident_of(g_chain, off, sssp::Strategy::NearFar)) << "resident_block off";
  off = defaults;
  off.overrides.single_block_loop = false;
  EXPECT_FALSE(resident_of(g_chain, off, sssp::Strategy::NearFar)) << "single_block_loop off";
  EXPECT_FALSE(resident_of(generated("grid:40:60", "random:1:1000", 11), defaults, sssp::Strategy::NearFar))
      << "a grid (mean out-degree 3.9) is not chain-like";
  EXPECT_FALSE(resident_of(generated("urand:3000:3", "random:1:1000", 5), defaults, sssp::Strategy::NearFar))
      << "a uniform random graph has few hops";
  // The kernel's shared-memory limit is the kernel's, not a solver's: a
  // solver made later for a smaller graph must not break an earlier one.
  {
    sssp::SolverOptions opts;
    opts.delta = graph::auto_delta(g_chain);
    sssp::GpuSolver<std::uint32_t> big(g_chain, opts);
    std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> short_arcs;
    for (vertex_id v = 0; v + 1 < 100; ++v) short_arcs.emplace_back(v, v + 1, 3);
    const auto g_short = from_arcs<std::uint32_t>(100, short_arcs);
    sssp::GpuSolver<std::uint32_t> small(g_short, opts);
    EXPECT_TRUE(small.solve(0, sssp::Strategy::NearFar).resident) << "a chain of 100 vertices";
    const auto got = big.solve(0, sssp::Strategy::NearFar);
    EXPECT_TRUE(got.resident);
    expect_distances<std::uint32_t>(graph::dijkstra(g_chain, 0), got.distances, "chain of 5000 after a smaller solver");
  }
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> long_chain;
  for (vertex_id v = 0; v + 1 < 100000; ++v) long_chain.emplace_back(v, v + 1, 1);
  EXPECT_FALSE(resident_of(from_arcs<std::uint32_t>(100000, long_chain), defaults, sssp::Strategy::NearFar))
      << "100,000 distances do not fit one block's shared memory";
}

TEST(SsspRandomGraphs, WideDistances) {
  SKIP_IF_NO_GPU();
  // (n - 1) * max weight >= 2^32: 64-bit labels, predecessors from the second
  // pass, including zero-weight arcs (its zero-arc rounds).
  std::mt19937 rng(5);
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> arcs;
  for (vertex_id v = 0; v + 1 < 400; ++v) arcs.emplace_back(v, v + 1, 0xF0000000u + rng() % 1000);
  for (int k = 0; k < 1500; ++k) {
    const vertex_id u = rng() % 400, v = rng() % 400;
    if (u != v) arcs.emplace_back(u, v, rng() % 3 == 0 ? 0u : 0x7FFFFFFFu + rng() % 0x7FFFFFFFu);
  }
  const auto g = from_arcs<std::uint32_t>(400, arcs, true);
  check_all(g, {0, 200}, "wide");
  check_all(g, {0}, "wide small delta", Case{1e6, 4});
}

TEST(SsspRandomGraphs, DeltaAndBucketExtremes) {
  SKIP_IF_NO_GPU();
  const auto g = generated("urand:1500:8", "random:1:1000", 8);
  check_all(g, {0}, "delta 1", Case{1, 10});          // every distance its own bucket
  check_all(g, {0}, "delta huge", Case{1e12, 10});    // one bucket: Bellman-Ford
  check_all(g, {0}, "2 buckets", Case{50, 2});
  check_all(g, {0}, "3 buckets", Case{50, 3});
  check_all(g, {0}, "300 buckets", Case{5, 300});
  const auto f = to_float(g);
  check_all(f, {0}, "float delta tiny", Case{1e-3, 10});
  check_all(f, {0}, "float delta huge", Case{1e30, 7});
}

// One launch per round instead of the persistent grid: the binned relax then
// runs as a bin kernel plus a relax kernel per round.
TEST(SsspRandomGraphs, BinnedWithoutPersistentGrid) {
  SKIP_IF_NO_GPU();
  Case c;
  c.persistent_grid = false;
  check_all(generated("rmat:12:16", "random:1:1000", 13), {0, 77}, "no-persistent rmat:12:16", c);
  check_all(generated("grid:30:50", "random:0:20", 13), {5}, "no-persistent grid:30:50", c);
}

// The full persistent grid alone (no medium grid), and the medium grid
// with frontiers crossing its limit (urand rounds of tens of thousands of
// vertices move between the medium and the full grid). Without the cluster
// regime: beside it the medium grid is not used.
TEST(SsspRandomGraphs, MediumAndFullGrids) {
  SKIP_IF_NO_GPU();
  for (const bool medium : {false, true}) {
    Case c;
    c.medium_grid = medium;
    c.cluster_loop = false;
    const std::string tag = medium ? " medium+full" : " full only";
    check_all(generated("grid:200:150", "random:1:100", 41), {0}, "grid:200:150" + tag, c);
    check_all(generated("urand:60000:8", "random:1:1000", 42), {9}, "urand:60000:8" + tag, c);
    check_all(generated("rmat:15:16", "random:1:1000", 43), {2}, "rmat:15:16" + tag, c);
  }
}

// The cluster regime (thread-block clusters, sm_90 and later) on and off:
// exact either way, with frontiers dealt over the cluster's blocks, handed to
// it by the single block and back, and on to the grids (a narrow arc cap of
// 256 sends every frontier past a few dozen vertices to the cluster).
// One near-far solve of g from vertex 0 under opts at the auto delta,
// checked against Dijkstra; the result for the caller's regime checks.
sssp::SolveResult<std::uint32_t> exact_near_far(const graph::IntCsr& g, sssp::SolverOptions opts,
                                                const std::string& what) {
  opts.delta = graph::auto_delta(g);
  sssp::GpuSolver<std::uint32_t> solver(g, opts);
  auto got = solver.solve(0, sssp::Strategy::NearFar);
  expect_distances<std::uint32_t>(graph::dijkstra(g, 0), got.distances, what);
  return got;
}

TEST(SsspRandomGraphs, ClusterRegime) {
  SKIP_IF_NO_GPU();
  for (const bool cluster : {true, false}) {
    Case c;
    c.cluster_loop = cluster;
    c.narrow_max_arcs = 256;
    const std::string tag = cluster ? " cluster" : " no-cluster";
    check_all(generated("grid:120:90", "random:1:1000", 51), {0, 5000}, "grid:120:90" + tag, c);
    check_all(generated("urand:20000:12", "random:0:50", 52), {3}, "urand:20000:12" + tag, c);
    check_all(to_float(generated("grid:60:60", "random:1:100", 53)), {0}, "float grid:60:60" + tag, c);
    // Tiny delta, five buckets, every round past one arc handed on, no
    // medium grid: many windows pass through the cluster, and the bucketing
    // strategies depend on the far pile's minimum that its blocks lower
    // remotely (the shape sssp_stress found wrong before that minimum was
    // taken by compare-and-swap).
    Case tiny = c;
    tiny.delta = 0.13;
    tiny.buckets = 5;
    tiny.narrow_max_arcs = 1;
    tiny.medium_grid = false;
    const auto small = to_float(generated("grid:11:40", "random:1:10", 55));
    check_all(small, {19, 300}, "float grid:11:40 tiny delta" + tag, tiny);
  }
  int major = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  const auto g = generated("grid:300:300", "random:1:1000", 54);
  for (const bool cluster : {true, false}) {
    sssp::SolverOptions opts;
    opts.overrides.narrow_max_arcs = 256;
    opts.overrides.cluster_loop = cluster;
    const auto got = exact_near_far(g, opts, "grid:300:300");
    if (cluster && major >= 9) {
      EXPECT_GT(got.rounds_cluster, 0u) << "the cluster regime took no round on sm_" << major;
    } else {
      EXPECT_EQ(got.rounds_cluster, 0u);
    }
  }
  // A small skewed graph (R-MAT, 2^14 vertices) skips the cluster unless
  // cluster_any_shape asks for it; exact either way.
  const auto skewed = generated("rmat:14:8", "random:1:1000", 56);
  for (const bool any_shape : {false, true}) {
    sssp::SolverOptions opts;
    opts.delta = graph::auto_delta(skewed);
    opts.overrides.cluster_any_shape = any_shape;
    sssp::GpuSolver<std::uint32_t> solver(skewed, opts);
    for (const auto strategy : sssp::all_strategies()) {
      const auto got = solver.solve(0, strategy);
      expect_distances<std::uint32_t>(graph::dijkstra(skewed, 0), got.distances, "rmat:14:8");
      if (!any_shape) EXPECT_EQ(got.rounds_cluster, 0u) << sssp::to_string(strategy);
      if (any_shape && major >= 9 && strategy == sssp::Strategy::NearFar)
        EXPECT_GT(got.rounds_cluster, 0u) << "cluster_any_shape: the cluster took no round";
    }
  }
}

// Narrow rounds capped at a few arcs: the solve moves between the
// single-block loop and the grid many times, with queues handed over in both
// directions (shared-memory queues with duplicates out, global queues in).
// bucket-multisplit's full splits inside the single-block loop's block
// (bucket_split_block.cuh) and the host-launched ones: exact either way, and
// the counters say which ran: in the block only for bucket-multisplit with
// block splits on and at most 63 buckets, on the host for larger piles.
// The cluster loop's block-local steps (engine.cuh): every strategy, relax
// mode and tree exact at 0 to 3 steps, on a grid, a float grid with a tiny
// delta and five buckets, and a uniform graph; on a grid where the cluster
// runs, more local steps take fewer cluster rounds.
TEST(SsspRandomGraphs, ClusterLocalSteps) {
  SKIP_IF_NO_GPU();
  for (const int steps : {0, 1, 2, 3}) {
    Case c;
    c.narrow_max_arcs = 256;
    c.cluster_local_steps = steps;
    const std::string tag = " local steps " + std::to_string(steps);
    check_all(generated("grid:120:90", "random:1:1000", 71), {0, 7000}, "grid:120:90" + tag, c);
    check_all(generated("urand:20000:12", "random:0:50", 72), {3}, "urand:20000:12" + tag, c);
    Case tiny = c;
    tiny.delta = 0.13;
    tiny.buckets = 5;
    tiny.narrow_max_arcs = 1;
    tiny.medium_grid = false;
    check_all(to_float(generated("grid:11:40", "random:1:10", 73)), {19, 300}, "float grid:11:40 tiny delta" + tag,
              tiny);
  }
  int major = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  if (major < 9) GTEST_SKIP() << "no thread-block clusters on sm_" << major << ": the round counts need them";
  const auto g = generated("grid:300:300", "random:1:1000", 74);
  std::uint64_t rounds[3] = {0, 0, 0};
  for (const int steps : {0, 1, 2}) {
    sssp::SolverOptions opts;
    opts.overrides.narrow_max_arcs = 256;
    opts.overrides.cluster_local_steps = steps;
    const auto got = exact_near_far(g, opts, "grid:300:300");
    rounds[steps] = got.rounds_cluster;
    // The reported local steps: none without them, at most `steps` per
    // cluster round, and some where the wave cascades.
    const std::string what = "grid:300:300, local steps " + std::to_string(steps);
    EXPECT_LE(got.cluster_local_steps, static_cast<std::uint64_t>(steps) * got.rounds_cluster) << what;
    if (steps > 0) EXPECT_GT(got.cluster_local_steps, 0u) << what;
  }
  EXPECT_GT(rounds[0], 0u);
  EXPECT_LT(rounds[1], rounds[0]) << "one local step per round took no fewer cluster rounds";
  EXPECT_LT(rounds[2], rounds[1]) << "two local steps per round took no fewer cluster rounds than one";
  // Where the cluster takes local steps the single block hands over sooner
  // (kNarrowMaxArcsBeforeCluster): this grid's wave reaches the cluster by
  // default, and stays in the block without local steps.
  for (const int steps : {-1, 0}) {
    sssp::SolverOptions opts;
    opts.overrides.cluster_local_steps = steps;
    const auto got = exact_near_far(g, opts, "grid:300:300 default narrow limit");
    if (steps < 0) {
      EXPECT_GT(got.rounds_cluster, 0u) << "the default narrow limit kept every round in the block";
      EXPECT_GT(got.cluster_local_steps, got.rounds_cluster) << "the default's cluster rounds took few local steps";
    } else {
      EXPECT_EQ(got.rounds_cluster, 0u) << "without local steps the block's limit is kNarrowMaxArcs";
    }
  }
  sssp::SolverOptions bad;
  bad.delta = 1;
  for (const int steps : {-2, sssp::kClusterMaxLocalSteps + 1}) {
    bad.overrides.cluster_local_steps = steps;
    EXPECT_THROW(sssp::GpuSolver<std::uint32_t>(g, bad), std::invalid_argument) << steps;
  }
}

// The resident block's warp-local steps (SolverOptions::resident_local_steps)
// exact at 0 (one hop per block barrier), 1, 3, the default and the largest,
// at the automatic, a tiny and a huge delta, on a road-like graph and its
// contraction's core, a grid whose steps spill the warps' queues into the
// block's, a uniform graph with zero weights, float weights and a star whose
// appends pass the block's queue. Local steps are reported only where taken,
// at most `steps` per block step, and save block steps on a chain.
TEST(SsspRandomGraphs, ResidentLocalSteps) {
  SKIP_IF_NO_GPU();
  test_support::RoadSpec spec;
  spec.junctions = 400;
  spec.roads = 700;
  spec.trees = 200;
  const auto road = test_support::road_like(spec, 81);
  // The road-like graph (5,488 vertices, 10,731 arcs), its core and the
  // grids have their arcs in shared memory by default (`shared_arcs`); the
  // uniform graph (35,910 arcs) and the star do not fit them. Each runs with
  // its arcs in L2 too.
  const auto check = [](const auto& g, const std::vector<vertex_id>& sources, const std::string& name,
                        bool shared_arcs) {
    using Weight = typename std::decay_t<decltype(g)>::weight_type;
    const double automatic = graph::auto_delta(g);
    for (const int steps : {0, 1, 3, -1, sssp::kResidentMaxLocalSteps}) {
      for (const double delta : {automatic, automatic * 0.01, 1e12}) {
        for (const bool allow_shared_arcs : {true, false}) {
          sssp::SolverOptions opts;
          opts.overrides.resident_any_shape = true;
          opts.overrides.resident_local_steps = steps;
          opts.overrides.resident_shared_arcs = allow_shared_arcs;
          opts.delta = delta;
          sssp::GpuSolver<Weight> solver(g, opts);
          for (const vertex_id s : sources) {
            const std::string what = name + " source " + std::to_string(s) + " local steps " + std::to_string(steps) +
                                     " delta " + std::to_string(delta) + (allow_shared_arcs ? "" : " arcs in L2");
            const auto got = solver.solve(s, sssp::Strategy::NearFar);
            EXPECT_TRUE(got.resident) << what;
            EXPECT_EQ(got.resident_shared_arcs, shared_arcs && allow_shared_arcs) << what;
            expect_distances<Weight>(graph::dijkstra(g, s), got.distances, what);
            const std::uint64_t most = steps < 0 ? sssp::kResidentLocalSteps : static_cast<std::uint64_t>(steps);
            EXPECT_LE(got.cluster_local_steps, most * got.rounds_narrow) << what;
          }
        }
      }
    }
  };
  check(road, {0, road.num_vertices / 2}, "road-like", true);
  check(graph::contract_chains(road).core, {0, 7}, "road-like core", true);
  check(generated("grid:60:80", "random:1:1000", 82), {0, 2400}, "grid:60:80", true);
  check(generated("urand:3000:6", "random:0:3", 83), {1}, "urand:3000:6 w0..3", false);
  check(to_float(generated("grid:25:40", "random:1:1000", 84)), {3}, "float grid:25:40", true);
  check(star_with_chain(), {0}, "star of 20000", false);

  // A chain of 5000 vertices: with local steps the wave runs on between
  // block barriers.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> arcs;
  for (vertex_id v = 0; v + 1 < 5000; ++v) {
    arcs.emplace_back(v, v + 1, 1 + v % 7);
    arcs.emplace_back(v + 1, v, 1 + v % 7);
  }
  const auto chain = from_arcs<std::uint32_t>(5000, arcs);
  std::uint64_t block_steps[2] = {0, 0};
  for (const int steps : {0, 8}) {
    sssp::SolverOptions opts;
    opts.overrides.resident_local_steps = steps;
    const auto got = exact_near_far(chain, opts, "chain, local steps " + std::to_string(steps));
    ASSERT_TRUE(got.resident);
    block_steps[steps ? 1 : 0] = got.rounds_narrow;
    if (steps == 0) EXPECT_EQ(got.cluster_local_steps, 0u);
    else EXPECT_GT(got.cluster_local_steps, got.rounds_narrow) << "the chain's wave took few local steps";
  }
  EXPECT_LT(block_steps[1] * 4, block_steps[0]) << "8 local steps saved few block steps on a chain";
  sssp::SolverOptions bad;
  bad.delta = 1;
  for (const int steps : {-2, sssp::kResidentMaxLocalSteps + 1}) {
    bad.overrides.resident_local_steps = steps;
    EXPECT_THROW(sssp::GpuSolver<std::uint32_t>(chain, bad), std::invalid_argument) << steps;
  }
}

TEST(SsspRandomGraphs, BlockSplits) {
  SKIP_IF_NO_GPU();
  // Far piles of 4,000 to 12,000 entries: past the size below which a phase
  // scans the pile instead of splitting it, within the block's limit.
  const auto small = generated("urand:12000:6", "random:1:1000", 61);
  const auto small_f = to_float(generated("urand:9000:5", "random:0:100", 62));
  for (const bool block : {true, false}) {
    for (const std::uint32_t buckets : {2u, 5u, 10u, 63u, 64u}) {
      for (const double divisor : {64.0, 8.0}) {
        sssp::SolverOptions opts;
        opts.delta = graph::auto_delta(small) / divisor;
        opts.buckets = buckets;
        opts.overrides.block_split = block;
        const std::string what = std::string(block ? "block" : "host") + " splits, B " + std::to_string(buckets) +
                                 ", delta auto/" + std::to_string(divisor);
        sssp::GpuSolver<std::uint32_t> solver(small, opts);
        const auto want = graph::dijkstra(small, 0);
        const auto got = solver.solve(0, sssp::Strategy::BucketMultisplit);
        expect_distances<std::uint32_t>(want, got.distances, "urand:12000:6 " + what);
        EXPECT_GT(got.full_splits, 0u) << what;
        if (block && buckets + 1 <= 64) {
          EXPECT_GT(got.full_splits_in_block, 0u) << what;
        } else {
          EXPECT_EQ(got.full_splits_in_block, 0u) << what;
        }
        const auto sorted = solver.solve(0, sssp::Strategy::BucketSort);
        expect_distances<std::uint32_t>(want, sorted.distances, "urand:12000:6 bucket-sort " + what);
        EXPECT_EQ(sorted.full_splits_in_block, 0u) << what;

        opts.delta = graph::auto_delta(small_f) / divisor;
        sssp::GpuSolver<float> fsolver(small_f, opts);
        const auto fgot = fsolver.solve(17, sssp::Strategy::BucketMultisplit);
        expect_distances<float>(graph::dijkstra(small_f, 17), fgot.distances, "float urand:9000:5 " + what);
        EXPECT_EQ(fgot.full_splits_in_block > 0, block && buckets + 1 <= 64) << "float " << what;
      }
    }
  }
  // Piles past the block's limit go to a cooperative grid on the device
  // (or, without it, to the host); smaller ones in the same solve stay in
  // the block.
  const auto wide = generated("urand:300000:8", "random:1:1000", 63);
  for (const bool grid : {true, false}) {
    sssp::SolverOptions opts;
    opts.delta = graph::auto_delta(wide) / 16;
    opts.overrides.grid_split = grid;
    sssp::GpuSolver<std::uint32_t> solver(wide, opts);
    const auto got = solver.solve(5, sssp::Strategy::BucketMultisplit);
    const std::string what = grid ? "urand:300000:8, grid splits" : "urand:300000:8, host splits";
    expect_distances<std::uint32_t>(graph::dijkstra(wide, 5), got.distances, what);
    EXPECT_GT(got.full_splits, got.full_splits_in_block) << what << ": no pile outgrew the block";
    if (grid) {
      EXPECT_GT(got.full_splits_in_grid, 0u) << what;
      EXPECT_EQ(got.full_splits, got.full_splits_in_block + got.full_splits_in_grid) << what << ": a split paused";
    } else {
      EXPECT_EQ(got.full_splits_in_grid, 0u) << what;
    }
  }
}

// On a grid at the GPU rule's delta (far above the weights) every improved
// vertex lands in the next window, so a full split fills one ready bucket
// and saves no scan: each such split doubles the pile size that asks for the
// next one, so a solve makes at most log2(n / kFullSplitMinFar) + 1 of them
// (9 here; 16-28 before the back-off on grid 1024^2). With a delta below the
// weights the buckets fill and splits go on past that bound.
TEST(SsspRandomGraphs, UnproductiveSplitsBackOff) {
  SKIP_IF_NO_GPU();
  const auto backoff_bound = [](std::uint32_t n) {
    return static_cast<std::uint64_t>(std::ceil(std::log2(n / 4096.0))) + 1;
  };
  const auto g = generated("grid:1000:1000", "random:1:1000", 66);
  const auto want = graph::dijkstra(g, 1234);
  for (const double factor : {1.0, 0.5}) {
    sssp::SolverOptions opts;
    opts.delta = graph::auto_delta(g, sssp::kWideDeltaC) * factor;
    sssp::GpuSolver<std::uint32_t> solver(g, opts);
    for (const auto strategy : {sssp::Strategy::BucketMultisplit, sssp::Strategy::BucketSort}) {
      const auto got = solver.solve(1234, strategy);
      const std::string what =
          std::string("grid:1000:1000 ") + sssp::to_string(strategy) + ", delta x" + std::to_string(factor);
      expect_distances<std::uint32_t>(want, got.distances, what);
      EXPECT_GT(got.full_splits, 0u) << what << ": no pile reached the split size";
      EXPECT_LE(got.full_splits, backoff_bound(g.num_vertices)) << what << ": splits that fill one bucket went on";
    }
  }
  const auto u = generated("urand:200000:6", "random:1:1000", 67);
  sssp::SolverOptions small_delta;
  small_delta.delta = graph::auto_delta(u) / 64;
  sssp::GpuSolver<std::uint32_t> usolver(u, small_delta);
  const auto got = usolver.solve(5, sssp::Strategy::BucketMultisplit);
  expect_distances<std::uint32_t>(graph::dijkstra(u, 5), got.distances, "urand:200000:6, delta auto/64");
  EXPECT_GT(got.full_splits, backoff_bound(u.num_vertices))
      << "urand:200000:6, delta auto/64: splits that fill their buckets backed off";
}

// Every pile of more than one entry split by the cooperative grid
// (block_split_max_items = 1): one to many blocks' worth of entries, every
// bucket count up to the device split's limit, integer and float weights.
TEST(SsspRandomGraphs, GridSplits) {
  SKIP_IF_NO_GPU();
  // Far piles of a few thousand entries (as in BlockSplits): small enough
  // for the sanitizers, several tiles each.
  const auto g = generated("urand:12000:6", "random:0:1000", 64);
  const auto gf = to_float(generated("urand:9000:5", "random:0:100", 65));
  const auto want = graph::dijkstra(g, 3);
  const auto want_f = graph::dijkstra(gf, 11);
  for (const std::uint32_t buckets : {2u, 7u, 33u, 63u}) {
    for (const double divisor : {64.0, 8.0}) {
      sssp::SolverOptions opts;
      opts.buckets = buckets;
      opts.overrides.block_split_max_items = 1;
      const std::string what = "B " + std::to_string(buckets) + ", delta auto/" + std::to_string(divisor);
      opts.delta = graph::auto_delta(g) / divisor;
      sssp::GpuSolver<std::uint32_t> solver(g, opts);
      const auto got = solver.solve(3, sssp::Strategy::BucketMultisplit);
      expect_distances<std::uint32_t>(want, got.distances, "urand:12000:6 " + what);
      EXPECT_EQ(got.full_splits, got.full_splits_in_block + got.full_splits_in_grid) << what;
      EXPECT_GT(got.full_splits_in_grid, 0u) << what;

      opts.delta = graph::auto_delta(gf) / divisor;
      sssp::GpuSolver<float> fsolver(gf, opts);
      const auto fgot = fsolver.solve(11, sssp::Strategy::BucketMultisplit);
      expect_distances<float>(want_f, fgot.distances, "float urand:9000:5 " + what);
      EXPECT_EQ(fgot.full_splits, fgot.full_splits_in_block + fgot.full_splits_in_grid) << "float " << what;
    }
  }
}

TEST(SsspRandomGraphs, ManyRegimeTransitions) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t max_arcs : {1u, 7u, 64u, 700u}) {
    Case c;
    c.narrow_max_arcs = max_arcs;
    const std::string tag = " narrow_max_arcs " + std::to_string(max_arcs);
    check_all(generated("grid:40:60", "random:0:30", 21), {0, 1234}, "grid:40:60" + tag, c);
    check_all(generated("rmat:11:8", "random:1:1000", 22), {3}, "rmat:11:8" + tag, c);
    check_all(to_float(generated("urand:3000:3", "random:1:100", 23)), {7}, "urand float" + tag, c);
  }
  // Both regimes really ran (without the cluster's local steps, which keep
  // every round of this grid in the cluster).
  sssp::SolverOptions opts;
  const auto g = generated("grid:60:60", "random:1:100", 24);
  opts.delta = graph::auto_delta(g);
  opts.overrides.narrow_max_arcs = 64;
  opts.overrides.cluster_local_steps = 0;
  sssp::GpuSolver<std::uint32_t> solver(g, opts);
  for (const sssp::Strategy strategy : sssp::all_strategies()) {
    const auto got = solver.solve(0, strategy);
    EXPECT_GT(got.rounds_narrow, 0u) << sssp::to_string(strategy);
    EXPECT_GT(got.rounds_wide, 0u) << sssp::to_string(strategy);
  }
}

// One solver, many deltas: solve(source, strategy, delta) overrides
// SolverOptions::delta per call, and refuses a delta that is not positive.
TEST(SsspSolver, DeltaIsASolveArgument) {
  SKIP_IF_NO_GPU();
  const auto g = generated("grid:30:40", "random:1:100", 61);
  const auto want = graph::dijkstra(g, 0);
  sssp::SolverOptions opts;
  opts.delta = 50;
  sssp::GpuSolver<std::uint32_t> solver(g, opts);
  for (const double delta : {1.0, 7.0, 50.0, 1e6}) {
    for (const sssp::Strategy strategy : sssp::all_strategies()) {
      const auto got = solver.solve(0, strategy, delta);
      expect_distances<std::uint32_t>(want, got.distances, std::string(sssp::to_string(strategy)) + " delta " +
                                                               std::to_string(delta));
      EXPECT_EQ(got.delta, delta) << sssp::to_string(strategy);
    }
  }
  EXPECT_EQ(solver.solve(0, sssp::Strategy::NearFar).delta, 50.0);
  EXPECT_THROW(solver.solve(0, sssp::Strategy::NearFar, 0.0), std::invalid_argument);
  EXPECT_THROW(solver.solve(0, sssp::Strategy::NearFar, -3.0), std::invalid_argument);
}

TEST(SsspSolver, LoadBalanceChoice) {
  SKIP_IF_NO_GPU();
  EXPECT_STREQ(sssp::to_string(sssp::LoadBalance::Binned), "binned");
  EXPECT_EQ(sssp::parse_load_balance("three-stage"), sssp::LoadBalance::ThreeStage);
  EXPECT_EQ(sssp::parse_load_balance("auto"), sssp::LoadBalance::Auto);
  EXPECT_EQ(sssp::parse_load_balance("merge-path"), sssp::LoadBalance::MergePath);
  EXPECT_STREQ(sssp::to_string(sssp::LoadBalance::MergePath), "merge-path");
  EXPECT_THROW(sssp::parse_load_balance("binned "), std::invalid_argument);
  // A grid has out-degrees <= 4 (no heavy arcs); auto takes merge-path.
  const auto grid = generated("grid:20:20", "random:1:10", 1);
  sssp::SolverOptions opts;
  opts.delta = 10;
  EXPECT_EQ(sssp::GpuSolver<std::uint32_t>(grid, opts).heavy_arc_share(), 0.0);
  EXPECT_EQ(sssp::GpuSolver<std::uint32_t>(grid, opts).load_balance(), sssp::LoadBalance::MergePath);
  opts.load_balance = sssp::LoadBalance::Binned;
  EXPECT_EQ(sssp::GpuSolver<std::uint32_t>(grid, opts).load_balance(), sssp::LoadBalance::Binned);
  opts.load_balance = sssp::LoadBalance::ThreeStage;
  EXPECT_EQ(sssp::GpuSolver<std::uint32_t>(grid, opts).load_balance(), sssp::LoadBalance::ThreeStage);
  // The narrow loop's arc limit is checked before anything is allocated.
  opts.overrides.narrow_max_arcs = 8193;
  EXPECT_THROW(sssp::GpuSolver<std::uint32_t>(grid, opts), std::invalid_argument);
}

// The merge-path relax reserves slots and arcs in one 64-bit word; the split
// of its bits decides which graphs it accepts. Host arithmetic: no GPU needed.
TEST(SsspSolver, MergePathWordSplit) {
  using sssp::detail::merge_path_arc_bits;
  EXPECT_EQ(merge_path_arc_bits(1, 0), 1);
  EXPECT_EQ(merge_path_arc_bits(1, 1), 1);
  EXPECT_EQ(merge_path_arc_bits(1, 2), 2);
  EXPECT_EQ(merge_path_arc_bits(1u << 20, 31399872), 25);           // rmat:20:16
  EXPECT_EQ(merge_path_arc_bits(134217728, 4220000000ull), 32);      // about rmat:27:16: 28 + 32 bits
  EXPECT_EQ(merge_path_arc_bits(134217728, 4300000000ull), 33);      // past 2^32 arcs
  EXPECT_EQ(merge_path_arc_bits((1u << 30) - 1, (1ull << 34) - 1), 34);  // 30 + 34 = 64 bits: fits
  EXPECT_EQ(merge_path_arc_bits((1u << 30) - 1, 1ull << 34), 0);     // 30 + 35 bits: refused
}

TEST(SsspSolver, RepeatedSolvesAgree) {
  SKIP_IF_NO_GPU();
  const auto g = generated("rmat:12:8", "random:1:1000", 21);
  sssp::SolverOptions opts;
  opts.delta = graph::auto_delta(g);
  sssp::GpuSolver<std::uint32_t> solver(g, opts);
  const auto want = graph::dijkstra(g, 3u);
  for (int rep = 0; rep < 3; ++rep)
    for (const auto s : sssp::all_strategies()) {
      const auto a = solver.solve(3, s);
      const auto b = solver.solve(0, s);  // a different source in between
      expect_distances<std::uint32_t>(want, a.distances, std::string("repeat ") + sssp::to_string(s));
      EXPECT_EQ(b.distances[0], 0u);
    }
}

TEST(SsspSolver, RejectsBadArguments) {
  SKIP_IF_NO_GPU();
  const auto g = generated("grid:4:4", "random:1:10", 1);
  sssp::SolverOptions opts;
  opts.delta = 10;
  sssp::GpuSolver<std::uint32_t> solver(g, opts);
  EXPECT_THROW(solver.solve(16, sssp::Strategy::NearFar), std::out_of_range);
  opts.buckets = 1;
  sssp::GpuSolver<std::uint32_t> one_bucket(g, opts);
  EXPECT_THROW(one_bucket.solve(0, sssp::Strategy::BucketSort), std::invalid_argument);
  EXPECT_NO_THROW(one_bucket.solve(0, sssp::Strategy::NearFar));
  opts.buckets = 10;
  opts.delta = 0;
  sssp::GpuSolver<std::uint32_t> no_delta(g, opts);
  EXPECT_THROW(no_delta.solve(0, sssp::Strategy::NearFar), std::invalid_argument);
}

TEST(SsspSolver, MemoryLimitGivesClearMessage) {
  SKIP_IF_NO_GPU();
  const auto g = generated("grid:100:100", "random:1:10", 1);
  sssp::SolverOptions opts;
  opts.delta = 10;
  opts.memory_limit_bytes = 100000;
  try {
    sssp::GpuSolver<std::uint32_t> solver(g, opts);
    FAIL() << "expected the memory estimate to refuse";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("needs"), std::string::npos) << msg;
    EXPECT_NE(msg.find("100000 bytes"), std::string::npos) << msg;
  }
  opts.memory_limit_bytes = 0;
  EXPECT_NO_THROW(sssp::GpuSolver<std::uint32_t>(g, opts));
}

TEST(SsspSolver, RejectsBadFloatWeights) {
  SKIP_IF_NO_GPU();
  sssp::SolverOptions opts;
  opts.delta = 1;
  auto g = from_arcs<float>(3, {{0, 1, 1.0f}, {1, 2, 2.0f}});
  g.weights[1] = -1.0f;
  EXPECT_THROW(sssp::GpuSolver<float>(g, opts), std::invalid_argument);
  // -0.0 is a valid zero weight.
  g.weights[1] = -0.0f;
  sssp::GpuSolver<float> solver(g, opts);
  EXPECT_EQ(solver.solve(0, sssp::Strategy::NearFar).distances[2], 1.0f);
}

TEST(SsspSolver, DescribesTheGpu) {
  SKIP_IF_NO_GPU();
  std::string why;
  EXPECT_TRUE(sssp::gpu_available(&why)) << why;
  const std::string d = sssp::gpu_description(0);
  EXPECT_NE(d.find("driver"), std::string::npos) << d;
  EXPECT_NE(d.find("sm_"), std::string::npos) << d;
}

}  // namespace
