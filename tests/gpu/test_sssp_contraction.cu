// The GPU solver through a chain contraction (ContractedGpuSolver) against
// Dijkstra on the whole graph: road-like graphs (chains, one-way and
// zero-weight arcs, hanging trees, components without junctions), sources of
// every kind (junction, chain vertex, tree vertex), every strategy, with and
// without predecessors, with the single-block loop on and off, and at tiny
// and huge deltas. The entry arcs are rewritten on the device per query, so
// consecutive queries also check that no query sees its predecessor's. Then
// PHAST over the core's hierarchy (HierarchyGpuSolver): one source at a
// time, with and without trees, and many at once (solve_batch).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <variant>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test_support.cuh"
#include "graph/contraction.hpp"
#include "graph/generators.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "road_like_graph.hpp"
#include "graph/hierarchy.hpp"
#include "graph/load.hpp"
#include "graph/random_sources.hpp"
#include "test_support.hpp"
#include "sssp/contracted_solver.hpp"
#include "sssp/hierarchy_solver.hpp"
#include "sssp/solver.hpp"

namespace {

// Road-like graphs growing with the seed: unit-like weights every third,
// many one-way streets every second.
test_support::RoadSpec seeded_spec(std::uint64_t seed) {
  test_support::RoadSpec spec;
  spec.junctions = 60 + 50 * static_cast<graph::vertex_id>(seed);
  spec.roads = 2 * spec.junctions;
  spec.trees = spec.junctions / 2;
  spec.max_weight = seed % 3 == 0 ? 1 : 50;
  spec.one_way = seed % 2 ? 0.15 : 0.4;
  return spec;
}

void expect_exact(const graph::IntCsr& g, const std::string& what, const sssp::SolverOptions& base,
                  std::uint32_t sources, double delta_factor) {
  const graph::ChainContraction c = graph::contract_chains(g);
  ASSERT_LT(c.core_vertices(), g.num_vertices) << what;
  std::vector<graph::vertex_id> junction_and_pieces;
  for (graph::vertex_id v = 0; v < g.num_vertices; v += std::max<graph::vertex_id>(1, g.num_vertices / sources))
    junction_and_pieces.push_back(v);
  for (const bool with_pred : {false, true}) {
    sssp::SolverOptions opts = base;
    opts.predecessors = with_pred;
    sssp::ContractedGpuSolver solver(g, c, opts);
    const double delta = std::max(1.0, graph::auto_delta(c.core) * delta_factor);
    for (const graph::vertex_id s : junction_and_pieces) {
      const auto want = graph::dijkstra(g, s);
      for (const auto strategy : sssp::all_strategies()) {
        const std::string tag = what + ", source " + std::to_string(s) +
                                (c.core_of[s] == graph::kNoVertex ? " (piece) " : " (junction) ") +
                                sssp::to_string(strategy) + (with_pred ? " +pred" : "");
        const auto got = solver.solve(s, strategy, delta);
        const graph::DistanceMismatches m = graph::find_distance_mismatches<std::uint32_t>(want, got.distances, 1);
        ASSERT_TRUE(m.none()) << tag << ": " << m.count << " differ, first vertex " << m.first.front();
        if (with_pred) {
          const graph::TreeCheck tree = graph::check_shortest_path_tree(g, s, got.distances, got.predecessors);
          ASSERT_EQ(tree.errors, 0u) << tag << ": " << (tree.examples.empty() ? "" : tree.examples.front());
        }
      }
    }
  }
}

}  // namespace

TEST(SsspContraction, RoadLikeGraphsEverySourceKindAndStrategy) {
  SKIP_IF_NO_GPU();
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    expect_exact(test_support::road_like(seeded_spec(seed), seed), "road-like seed " + std::to_string(seed), {}, 12,
                 1.0);
    if (HasFatalFailure()) return;
  }
}

TEST(SsspContraction, RegimesAndDeltas) {
  SKIP_IF_NO_GPU();
  test_support::RoadSpec spec;
  spec.junctions = 400;
  spec.roads = 900;
  spec.trees = 200;
  const graph::IntCsr g = test_support::road_like(spec, 77);
  sssp::SolverOptions grid_only;
  grid_only.overrides.single_block_loop = false;
  expect_exact(g, "grid only", grid_only, 6, 1.0);
  sssp::SolverOptions small_narrow;
  small_narrow.overrides.narrow_max_arcs = 64;  // many hand-overs between the regimes
  expect_exact(g, "narrow arcs 64", small_narrow, 6, 1.0);
  expect_exact(g, "tiny delta", {}, 6, 1e-3);
  expect_exact(g, "huge delta", {}, 6, 1e3);
}

TEST(SsspContraction, ChainsLongerThanAnArc) {
  SKIP_IF_NO_GPU();
  test_support::RoadSpec spec;
  spec.heavy_weight = 3'000'000'000u;  // shortcuts are cut; some entries fall back to the host
  spec.max_chain = 6;
  expect_exact(test_support::road_like(spec, 61), "heavy", {}, 20, 1.0);
}

// A core of at most kHostCoreMaxVertices vertices is solved on the host:
// paths (one-way and both ways, as the chain road is), a few junctions with
// long chains and trees, every source kind and strategy, with and without
// predecessors; a larger core still goes to the GPU.
TEST(SsspContraction, TinyCoresSolvedOnTheHost) {
  SKIP_IF_NO_GPU();
  std::vector<std::pair<std::string, graph::IntCsr>> graphs;
  for (const bool both_ways : {false, true}) {
    graph::Coo<std::uint32_t> path;
    path.num_vertices = 1000;
    for (graph::vertex_id v = 0; v + 1 < 1000; ++v) path.add(v, v + 1, 1 + v % 5);
    graph::BuildOptions build;
    build.symmetrize = both_ways;
    graphs.emplace_back(both_ways ? "path both ways" : "one-way path", graph::build_csr(std::move(path), build));
  }
  test_support::RoadSpec small;
  small.junctions = 12;
  small.roads = 20;
  small.trees = 8;
  graphs.emplace_back("road-like, 12 junctions", test_support::road_like(small, 5));
  for (const auto& [name, g] : graphs) {
    const graph::ChainContraction c = graph::contract_chains(g);
    ASSERT_LE(c.core_vertices(), sssp::kHostCoreMaxVertices) << name;
    expect_exact(g, name, {}, 16, 1.0);
    if (HasFatalFailure()) return;
    sssp::ContractedGpuSolver solver(g, c, {});
    EXPECT_TRUE(solver.core_on_host()) << name;
    sssp::ContractedSolveTimes times;
    const auto got = solver.solve(g.num_vertices - 1, sssp::Strategy::NearFar, 1.0, &times);
    EXPECT_TRUE(times.core_on_host) << name;
    EXPECT_THROW(solver.solve(0, sssp::Strategy::NearFar, 0.0), std::invalid_argument) << name;
    EXPECT_FALSE(times.fell_back) << name;
    EXPECT_NEAR(got.solve_ms, times.piece_ms + times.core_ms + times.expand_ms, 1e-9) << name;
  }
  const graph::IntCsr larger = test_support::road_like(seeded_spec(6), 6);
  const graph::ChainContraction c = graph::contract_chains(larger);
  ASSERT_GT(c.core_vertices(), sssp::kHostCoreMaxVertices);
  sssp::ContractedGpuSolver solver(larger, c, {});
  EXPECT_FALSE(solver.core_on_host());
  sssp::ContractedSolveTimes times;
  solver.solve(0, sssp::Strategy::NearFar, graph::auto_delta(c.core), &times);
  EXPECT_FALSE(times.core_on_host);
}

namespace {

// PHAST on the GPU over g's contracted core, from every `step`-th vertex,
// against Dijkstra: consecutive queries on one solver.
// With predecessors, every tree is checked too (the road-like graphs have
// zero-weight arcs).
void expect_phast_exact(const graph::IntCsr& g, const std::string& what, graph::vertex_id step, bool shared_sweep,
                        bool persistent_grid = true) {
  const graph::ChainContraction c = graph::contract_chains(g);
  const graph::Hierarchy h = graph::build_hierarchy(c.core);
  for (const bool with_pred : {false, true}) {
    sssp::HierarchySolverOptions options;
    options.shared_memory_sweep = shared_sweep;
    options.persistent_grid = persistent_grid;
    options.predecessors = with_pred;
    sssp::HierarchyGpuSolver solver(g, c, h, options);
    for (graph::vertex_id s = 0; s < g.num_vertices; s += step) {
      const std::string tag = what + ", source " + std::to_string(s) + (with_pred ? " +pred" : "");
      const auto want = graph::dijkstra(g, s);
      const auto got = solver.solve(s);
      const graph::DistanceMismatches m = graph::find_distance_mismatches<std::uint32_t>(want, got.distances, 1);
      ASSERT_TRUE(m.none()) << tag << ": " << m.count << " differ, first vertex " << m.first.front();
      if (with_pred) {
        const graph::TreeCheck tree = graph::check_shortest_path_tree(g, s, got.distances, got.predecessors);
        ASSERT_EQ(tree.errors, 0u) << tag << ": " << (tree.examples.empty() ? "" : tree.examples.front());
      } else {
        EXPECT_TRUE(got.predecessors.empty()) << tag;
      }
    }
  }
}

}  // namespace

// Every source kind, unit-like and heavy weights, one-way streets.
TEST(SsspContraction, HierarchySweepMatchesDijkstra) {
  SKIP_IF_NO_GPU();
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    test_support::RoadSpec spec = seeded_spec(seed);
    if (seed == 8) spec.heavy_weight = 3'500'000'000u;  // shortcuts past 2^32; some entries fall back
    const graph::IntCsr g = test_support::road_like(spec, seed);
    expect_phast_exact(g, "seed " + std::to_string(seed), std::max<graph::vertex_id>(1, g.num_vertices / 25), true);
    if (HasFatalFailure()) return;
  }
}

// The grid-wide sweep (what cores too large for shared memory get), as one
// cooperative launch and as one launch per level, on the same kind of
// graphs and on a grid whose core is too large for shared memory.
TEST(SsspContraction, HierarchyGridSweep) {
  SKIP_IF_NO_GPU();
  for (std::uint64_t seed = 11; seed <= 13; ++seed) {
    test_support::RoadSpec spec;
    spec.junctions = 300;
    spec.roads = 700;
    spec.trees = 100;
    for (const bool persistent : {true, false}) {
      expect_phast_exact(test_support::road_like(spec, seed),
                         "grid sweep" + std::string(persistent ? "" : " per level") + ", seed " + std::to_string(seed),
                         97, false, persistent);
      if (HasFatalFailure()) return;
    }
  }
  const graph::IntCsr grid =
      graph::generate(graph::GeneratorSpec::parse("grid:180:180"), graph::WeightRule::parse("random:0:50", 5), 5);
  expect_phast_exact(grid, "grid 180 x 180 (core past shared memory)", 3001, true);
}

// Many sources in one call (solve_batch): every source kind, a source twice,
// sources whose entry falls back to the host (heavy weights), both sweep
// kinds, and the batch's buffers reused by a second, larger call.
TEST(SsspContraction, HierarchyBatchMatchesDijkstra) {
  SKIP_IF_NO_GPU();
  for (std::uint64_t seed = 21; seed <= 23; ++seed) {
    test_support::RoadSpec spec = seeded_spec(seed);
    if (seed == 23) spec.heavy_weight = 3'500'000'000u;
    const graph::IntCsr g = test_support::road_like(spec, seed);
    const graph::ChainContraction c = graph::contract_chains(g);
    const graph::Hierarchy h = graph::build_hierarchy(c.core);
    for (const bool shared_sweep : {true, false}) {
      sssp::HierarchySolverOptions options;
      options.shared_memory_sweep = shared_sweep;
      sssp::HierarchyGpuSolver solver(g, c, h, options);
      for (const graph::vertex_id count : {5u, 40u}) {
        std::vector<graph::vertex_id> sources;
        for (graph::vertex_id i = 0; i < count; ++i) sources.push_back((i * 7919u) % g.num_vertices);
        sources.push_back(sources.front());
        const sssp::BatchSolveResult<std::uint32_t> got = solver.solve_batch(sources);
        ASSERT_EQ(got.per_source.size(), sources.size());
        EXPECT_GE(got.sources_per_launch, 1u);
        for (std::size_t b = 0; b < sources.size(); ++b) {
          const auto want = graph::dijkstra(g, sources[b]);
          const graph::DistanceMismatches m =
              graph::find_distance_mismatches<std::uint32_t>(want, got.per_source[b].distances, 1);
          ASSERT_TRUE(m.none()) << "seed " << seed << (shared_sweep ? "" : " (device memory)") << ", source "
                                << sources[b] << ": " << m.count << " differ, first vertex " << m.first.front();
        }
      }
    }
  }
  test_support::RoadSpec spec;
  const graph::IntCsr g = test_support::road_like(spec, 3);
  const graph::ChainContraction c = graph::contract_chains(g);
  const graph::Hierarchy h = graph::build_hierarchy(c.core);
  sssp::HierarchySolverOptions with_pred;
  with_pred.predecessors = true;
  sssp::HierarchyGpuSolver solver(g, c, h, with_pred);
  EXPECT_THROW(solver.solve_batch({0, 1}), std::logic_error);
  EXPECT_TRUE(sssp::HierarchyGpuSolver(g, c, h).solve_batch({}).per_source.empty());
}

// The read-off runs on the device, inside the timed core solve, with and
// without predecessors: against Dijkstra and (with them) a shortest-path tree
// check, from a junction, a chain vertex and a tree vertex, one query after
// another.
TEST(SsspContraction, ReadOffOnTheDeviceForEverySourceKind) {
  SKIP_IF_NO_GPU();
  const graph::IntCsr g = test_support::road_like(seeded_spec(4), 4);
  const graph::ChainContraction c = graph::contract_chains(g);
  ASSERT_GT(c.core_vertices(), sssp::kHostCoreMaxVertices);
  // One source of each kind: a junction, a piece vertex on a chain (two
  // anchors) and one in a tree (one anchor).
  graph::vertex_id junction = graph::kNoVertex, chain = graph::kNoVertex, tree = graph::kNoVertex;
  for (graph::vertex_id v = 0; v < g.num_vertices; ++v) {
    if (c.core_of[v] != graph::kNoVertex) {
      if (junction == graph::kNoVertex) junction = v;
      continue;
    }
    const bool two = c.anchors[2 * std::size_t{v}].core != graph::kNoVertex &&
                     c.anchors[2 * std::size_t{v} + 1].core != graph::kNoVertex;
    if (two && chain == graph::kNoVertex) chain = v;
    if (!two && tree == graph::kNoVertex) tree = v;
  }
  ASSERT_NE(junction, graph::kNoVertex);
  ASSERT_NE(chain, graph::kNoVertex);
  ASSERT_NE(tree, graph::kNoVertex);
  for (const bool with_pred : {false, true}) {
    sssp::SolverOptions options;
    options.predecessors = with_pred;
    sssp::ContractedGpuSolver solver(g, c, options);
    for (int round = 0; round < 2; ++round)
      for (const graph::vertex_id s : {junction, chain, tree, chain}) {
        sssp::ContractedSolveTimes times;
        const auto got = solver.solve(s, sssp::Strategy::NearFar, graph::auto_delta(c.core), &times);
        const auto want = graph::dijkstra(g, s);
        const graph::DistanceMismatches m = graph::find_distance_mismatches<std::uint32_t>(want, got.distances, 1);
        ASSERT_TRUE(m.none()) << "source " << s << (with_pred ? " +pred" : "") << ": " << m.count << " differ";
        EXPECT_TRUE(times.read_off_on_device) << s;
        EXPECT_EQ(times.expand_ms, 0.0);
        if (with_pred) {
          const graph::TreeCheck tree = graph::check_shortest_path_tree(g, s, got.distances, got.predecessors);
          ASSERT_EQ(tree.errors, 0u) << "source " << s << ": " << (tree.examples.empty() ? "" : tree.examples.front());
        }
        EXPECT_NEAR(got.solve_ms, times.piece_ms + times.core_ms + times.expand_ms, 1e-9);
      }
  }
}

namespace {

// fn(file, g, c) for each shared road graph with integer weights that is
// present; returns how many ran.
template <class Fn>
int for_each_shared_road_graph(Fn fn) {
  const std::vector<std::string> roads = {"road/DE.gr", "road/rome99.gr", "road/andorra_osm.mtx",
                                          "road/amsterdam-roads.mtx", "road/luxembourg_osm.mtx", "road/chain.gr"};
  int ran = 0;
  for (const std::string& file : roads) {
    const auto path = test_support::datasets_dir() / file;
    if (!std::filesystem::exists(path)) continue;
    graph::LoadOptions load;
    load.progress = false;
    const graph::AnyCsr any = graph::load_graph(path.string(), load);
    if (!std::holds_alternative<graph::IntCsr>(any)) continue;
    const graph::IntCsr& g = std::get<graph::IntCsr>(any);
    fn(file, g, graph::contract_chains(g));
    ++ran;
  }
  return ran;
}

}  // namespace

// The device read-off on every shared road graph, against Dijkstra, with and
// without predecessors.
TEST(SsspContraction, ReadOffOnTheDeviceOnTheSharedRoadGraphs) {
  SKIP_IF_NO_GPU();
  const int ran = for_each_shared_road_graph([](const std::string& file, const graph::IntCsr& g,
                                                const graph::ChainContraction& c) {
    if (sssp::solves_core_on_host(c)) return;
    for (const bool with_pred : {false, true}) {
      sssp::SolverOptions options;
      options.predecessors = with_pred;
      sssp::ContractedGpuSolver solver(g, c, options);
      for (const graph::vertex_id s : {graph::vertex_id{0}, g.num_vertices / 2, g.num_vertices - 1}) {
        sssp::ContractedSolveTimes times;
        const auto got = solver.solve(s, sssp::Strategy::NearFar, graph::auto_delta(c.core), &times);
        EXPECT_TRUE(times.read_off_on_device) << file;
        const auto want = graph::dijkstra(g, s);
        const graph::DistanceMismatches m = graph::find_distance_mismatches<std::uint32_t>(want, got.distances, 1);
        EXPECT_TRUE(m.none()) << file << ", source " << s << ": " << m.count << " differ";
        if (with_pred) {
          const graph::TreeCheck tree = graph::check_shortest_path_tree(g, s, got.distances, got.predecessors);
          EXPECT_EQ(tree.errors, 0u) << file << ", source " << s << ": "
                                     << (tree.examples.empty() ? "" : tree.examples.front());
        }
      }
    }
  });
  if (ran == 0) GTEST_SKIP() << "no shared road graph found under " << test_support::datasets_dir();
}

namespace {

// ContractedGpuSolver::solve_batch against single-source contracted solves
// (which equal Dijkstra, above) and Dijkstra itself: sources of every kind,
// repeated sources, both batched strategies.
void expect_batch_exact(const graph::IntCsr& g, const std::string& what, const std::vector<graph::vertex_id>& sources,
                        const sssp::SolverOptions& options = {}) {
  const graph::ChainContraction c = graph::contract_chains(g);
  sssp::ContractedGpuSolver solver(g, c, options);
  const double delta = std::max(1.0, graph::auto_delta(c.core));
  for (const sssp::Strategy strategy : {sssp::Strategy::NearFar, sssp::Strategy::BellmanFord}) {
    sssp::ContractedBatchTimes times;
    const sssp::BatchSolveResult<std::uint32_t> got = solver.solve_batch(sources, strategy, delta, &times);
    ASSERT_EQ(got.per_source.size(), sources.size()) << what;
    EXPECT_NEAR(got.solve_ms, times.host_ms + times.core_ms, 1e-9) << what;
    for (std::size_t b = 0; b < sources.size(); ++b) {
      const std::string tag = what + ", " + sssp::to_string(strategy) + ", source " + std::to_string(sources[b]) +
                              (c.core_of[sources[b]] == graph::kNoVertex ? " (piece)" : " (junction)");
      const auto want = graph::dijkstra(g, sources[b]);
      const graph::DistanceMismatches m =
          graph::find_distance_mismatches<std::uint32_t>(want, got.per_source[b].distances, 1);
      ASSERT_TRUE(m.none()) << tag << ": " << m.count << " differ, first vertex " << m.first.front();
      const auto one = solver.solve(sources[b], strategy, delta);
      ASSERT_EQ(one.distances, got.per_source[b].distances) << tag << ": batch and single solve differ";
    }
  }
}

// Every `step`-th vertex, then the first again (a repeated source).
std::vector<graph::vertex_id> spread_sources(const graph::IntCsr& g, graph::vertex_id count) {
  std::vector<graph::vertex_id> sources;
  for (graph::vertex_id i = 0; i < count; ++i) sources.push_back(static_cast<graph::vertex_id>((i * 7919ull) % g.num_vertices));
  sources.push_back(sources.front());
  return sources;
}

}  // namespace

TEST(SsspContraction, BatchMatchesSingleSolvesAndDijkstra) {
  SKIP_IF_NO_GPU();
  for (std::uint64_t seed = 31; seed <= 34; ++seed) {
    test_support::RoadSpec spec = seeded_spec(seed);
    if (seed == 33) spec.heavy_weight = 3'000'000'000u;  // some entries fall back to the host
    if (seed == 34) spec.max_weight = 1;                  // many ties
    const graph::IntCsr g = test_support::road_like(spec, seed);
    expect_batch_exact(g, "seed " + std::to_string(seed), spread_sources(g, 40));
    if (HasFatalFailure()) return;
  }
  // Zero-weight arcs, and sources of each kind side by side.
  graph::Coo<std::uint32_t> coo;
  const graph::IntCsr base = test_support::road_like(seeded_spec(5), 5);
  coo.num_vertices = base.num_vertices;
  for (graph::vertex_id u = 0; u < base.num_vertices; ++u)
    for (graph::edge_offset e = base.offsets[u]; e < base.offsets[u + 1]; ++e)
      coo.add(u, base.targets[e], (u + e) % 4 == 0 ? 0u : base.weights[e]);
  const graph::IntCsr zero = graph::build_csr(std::move(coo), {});
  expect_batch_exact(zero, "zero weights", spread_sources(zero, 25));
  if (HasFatalFailure()) return;
  // Vertex orders other than the input's renumber the core's rows.
  sssp::SolverOptions degree;
  degree.vertex_ordering = sssp::VertexOrdering::Degree;
  expect_batch_exact(base, "degree order", spread_sources(base, 25), degree);
}

TEST(SsspContraction, BatchLargerThanOneLaunchAndEdgeCases) {
  SKIP_IF_NO_GPU();
  const graph::IntCsr g = test_support::road_like(seeded_spec(8), 8);
  const graph::ChainContraction c = graph::contract_chains(g);
  sssp::ContractedGpuSolver solver(g, c, {});
  // More sources than one core launch takes (two rows each at most).
  const std::uint32_t capacity = solver.core_solver().batch_capacity();
  std::vector<graph::vertex_id> many;
  for (std::uint32_t i = 0; i < capacity + 7; ++i) many.push_back(static_cast<graph::vertex_id>((i * 104729ull) % g.num_vertices));
  sssp::ContractedBatchTimes times;
  const auto got = solver.solve_batch(many, sssp::Strategy::NearFar, graph::auto_delta(c.core), &times);
  ASSERT_EQ(got.per_source.size(), many.size());
  EXPECT_GE(times.launches, 2u);
  for (std::size_t b = 0; b < many.size(); b += 97) {
    const auto want = graph::dijkstra(g, many[b]);
    EXPECT_TRUE(graph::find_distance_mismatches<std::uint32_t>(want, got.per_source[b].distances, 1).none())
        << "source " << many[b];
  }
  EXPECT_TRUE(solver.solve_batch({}, sssp::Strategy::NearFar, 1.0).per_source.empty());
  EXPECT_THROW(solver.solve_batch({0}, sssp::Strategy::BucketSort, 1.0), std::invalid_argument);
  EXPECT_THROW(solver.solve_batch({0}, sssp::Strategy::NearFar, 0.0), std::invalid_argument);
  EXPECT_THROW(solver.solve_batch({g.num_vertices}, sssp::Strategy::NearFar, 1.0), std::out_of_range);
  sssp::SolverOptions with_pred;
  with_pred.predecessors = true;
  sssp::ContractedGpuSolver pred_solver(g, c, with_pred);
  EXPECT_THROW(pred_solver.solve_batch({0, 1}, sssp::Strategy::NearFar, 1.0), std::invalid_argument);
  // A core small enough for the host runs the sources one by one.
  test_support::RoadSpec small;
  small.junctions = 12;
  small.roads = 20;
  small.trees = 8;
  const graph::IntCsr tiny = test_support::road_like(small, 5);
  expect_batch_exact(tiny, "core on the host", spread_sources(tiny, 10));
}

// Contracted batches on every shared road graph against Dijkstra.
TEST(SsspContraction, BatchOnTheSharedRoadGraphs) {
  SKIP_IF_NO_GPU();
  const int ran = for_each_shared_road_graph([](const std::string& file, const graph::IntCsr& g,
                                                const graph::ChainContraction& c) {
    sssp::ContractedGpuSolver solver(g, c, {});
    const std::vector<graph::vertex_id> sources = graph::choose_random_sources(g.offsets, 16, 7);
    const auto got = solver.solve_batch(sources, sssp::Strategy::NearFar, graph::auto_delta(c.core));
    ASSERT_EQ(got.per_source.size(), sources.size()) << file;
    const std::vector<std::vector<std::uint64_t>> want = graph::dijkstra_batch(g, sources, 0);
    for (std::size_t b = 0; b < sources.size(); ++b) {
      const graph::DistanceMismatches m =
          graph::find_distance_mismatches<std::uint32_t>(want[b], got.per_source[b].distances, 1);
      EXPECT_TRUE(m.none()) << file << ", source " << sources[b] << ": " << m.count << " differ";
    }
  });
  if (ran == 0) GTEST_SKIP() << "no shared road graph found under " << test_support::datasets_dir();
}
