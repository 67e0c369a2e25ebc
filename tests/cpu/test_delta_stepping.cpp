// Parallel delta-stepping against Dijkstra: many random and generated graphs,
// every delta regime (tiny: mostly empty bins and the far pile; huge: one
// bin, Bellman-Ford-like), thread counts 1/2/4, integer and float weights.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/build_csr.hpp"
#include "graph/generators.hpp"
#include "graph/reference.hpp"

using namespace graph;

namespace {

struct RandomGraphSpec {
  vertex_id n;
  std::uint64_t arcs;
  std::uint32_t max_weight;  // weights uniform in [0, max_weight]: zeros included
  bool undirected;
};

// Random multigraph; the vertices >= n - n/5 get no arcs at all, so there
// are always unreachable parts (besides what randomness disconnects).
template <class Weight>
Csr<Weight> random_graph(const RandomGraphSpec& spec, std::uint64_t seed, double float_scale = 0.37) {
  std::mt19937_64 rng(seed);
  Coo<Weight> coo;
  coo.num_vertices = spec.n;
  const vertex_id connected = spec.n - spec.n / 5;
  for (std::uint64_t i = 0; i < spec.arcs && connected > 0; ++i) {
    const auto u = static_cast<vertex_id>(rng() % connected);
    const auto v = static_cast<vertex_id>(rng() % connected);
    const auto w = rng() % (std::uint64_t{spec.max_weight} + 1);
    if constexpr (std::is_same_v<Weight, float>) {
      coo.add(u, v, static_cast<float>(static_cast<double>(w) * float_scale));
    } else {
      coo.add(u, v, static_cast<Weight>(w));
    }
  }
  return build_csr(std::move(coo), BuildOptions{spec.undirected, true});
}

void expect_same(const std::vector<std::uint64_t>& expected, const std::vector<std::uint64_t>& actual,
                 const std::string& what) {
  ASSERT_EQ(expected.size(), actual.size()) << what;
  for (std::size_t v = 0; v < expected.size(); ++v)
    ASSERT_EQ(expected[v], actual[v]) << what << ", vertex " << v;
}

// Float: unreachable must agree exactly, distances within relative 1e-6
// (another relaxation order can round along another, equally short path).
void expect_close(const std::vector<float>& expected, const std::vector<float>& actual, const std::string& what) {
  ASSERT_EQ(expected.size(), actual.size()) << what;
  for (std::size_t v = 0; v < expected.size(); ++v) {
    if (std::isinf(expected[v])) {
      ASSERT_TRUE(std::isinf(actual[v])) << what << ", vertex " << v;
    } else {
      ASSERT_NEAR(expected[v], actual[v], 1e-6 * std::max(1.0f, expected[v])) << what << ", vertex " << v;
    }
  }
}

template <class Weight>
std::vector<double> deltas_for(const Csr<Weight>& g) {
  // tiny (far below any weight: every distance its own bin, many far-pile
  // moves), the smallest useful, auto, large, and huge (everything in bin 0).
  return {1e-3, 0.7, 1.0, auto_delta(g), 50.0, 1e15};
}

// Every configuration runs with 1 thread; with 2 and 4 threads only where the
// solve takes at most kMaxParallelPhases phases. A phase ends in two
// barriers, and on a loaded 2-core CI machine a barrier can cost a scheduler
// tick, so thousands of phases at 2-4 threads would take minutes. Small
// graphs still reach the parallel code with every delta (tests count that).
constexpr std::uint64_t kMaxParallelPhases = 600;

struct RunCounts {
  int single = 0;
  int parallel = 0;
};

// Runs delta-stepping at 1, 2 and 4 threads and hands each result to check.
template <class Weight, class Check>
void for_thread_counts(const Csr<Weight>& g, vertex_id source, double delta, RunCounts& counts, Check check) {
  CpuSolveStats stats;
  const auto single = delta_stepping(g, source, delta, 1, &stats);
  EXPECT_EQ(stats.delta, delta);
  EXPECT_GE(stats.phases, 1u);
  check(single, 1, stats);
  ++counts.single;
  if (stats.phases > kMaxParallelPhases) return;
  for (const int threads : {2, 4}) {
    CpuSolveStats parallel_stats;
    const auto dist = delta_stepping(g, source, delta, threads, &parallel_stats);
    check(dist, threads, parallel_stats);
    ++counts.parallel;
  }
}

}  // namespace

TEST(DeltaStepping, EqualsDijkstraOnRandomIntegerGraphs) {
  const RandomGraphSpec specs[] = {
      {1, 0, 10, false},        // one vertex
      {7, 0, 10, false},        // no edges
      {50, 200, 0, false},      // all weights zero
      {200, 800, 1, true},      // weights 0/1
      {300, 1500, 1000, false}, // directed, sparse
      {1000, 8000, 100, true},  // undirected
      {2000, 4000, 5, true},    // many ties, long paths
  };
  RunCounts counts;
  for (std::size_t s = 0; s < std::size(specs); ++s) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const auto g = random_graph<std::uint32_t>(specs[s], seed * 100 + s);
      const vertex_id source = static_cast<vertex_id>(seed % g.num_vertices);
      const auto expected = dijkstra(g, source);
      for (const double delta : deltas_for(g)) {
        for_thread_counts(g, source, delta, counts, [&](const auto& actual, int threads, const CpuSolveStats&) {
          expect_same(expected, actual,
                      "spec " + std::to_string(s) + " seed " + std::to_string(seed) + " delta " +
                          std::to_string(delta) + " threads " + std::to_string(threads));
        });
      }
    }
  }
  EXPECT_EQ(counts.single, 7 * 3 * 6);
  EXPECT_GE(counts.parallel, 2 * 5 * 3 * 6);  // all but the two largest specs, every delta
}

TEST(DeltaStepping, EqualsDijkstraOnGeneratedGraphs) {
  const char* specs[] = {"rmat:10:8", "rmat:9:8:0.5:0.1:0.1:0.3", "grid:40:50", "urand:3000:3"};
  RunCounts counts;
  for (const char* spec : specs) {
    for (const char* rule : {"random:1:1000", "random:0:3"}) {  // realistic; ties and zero weights
      const auto g = generate(GeneratorSpec::parse(spec), WeightRule::parse(rule, 5), 11);
      // Pick a source with arcs so something happens.
      vertex_id source = 0;
      while (source + 1 < g.num_vertices && g.out_degree(source) == 0) ++source;
      CpuSolveStats dijkstra_stats;
      const auto expected = dijkstra(g, source, nullptr, &dijkstra_stats);
      for (const double delta : deltas_for(g)) {
        for_thread_counts(g, source, delta, counts,
                          [&](const auto& actual, int threads, const CpuSolveStats& stats) {
                            expect_same(expected, actual,
                                        std::string(spec) + " " + rule + " delta " + std::to_string(delta) +
                                            " threads " + std::to_string(threads));
                            // Every reached vertex relaxes its arcs at least once.
                            EXPECT_GE(stats.relaxations, dijkstra_stats.relaxations);
                          });
      }
    }
  }
  EXPECT_EQ(counts.single, 4 * 2 * 6);
  EXPECT_GE(counts.parallel, 2 * 4 * 2 * 3);  // at least the three coarse deltas everywhere
}

TEST(DeltaStepping, FloatWeightsWithinRoundingOfDijkstra) {
  const RandomGraphSpec specs[] = {{300, 1500, 100, false}, {1500, 9000, 1000, true}, {1, 0, 1, false}};
  RunCounts counts;
  for (std::size_t s = 0; s < std::size(specs); ++s) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      for (const double scale : {1e-3, 123.25}) {
        const auto g = random_graph<float>(specs[s], seed * 31 + s, scale);
        const auto expected = dijkstra(g, 0);
        for (const double delta : {1e-4 * scale, scale, auto_delta(g), 1e12}) {
          for_thread_counts(g, 0, delta, counts, [&](const auto& actual, int threads, const CpuSolveStats&) {
            expect_close(expected, actual,
                         "spec " + std::to_string(s) + " seed " + std::to_string(seed) + " scale " +
                             std::to_string(scale) + " delta " + std::to_string(delta) + " threads " +
                             std::to_string(threads));
          });
        }
      }
    }
  }
  EXPECT_EQ(counts.single, 3 * 2 * 2 * 4);
  EXPECT_GE(counts.parallel, 2 * 2 * 2 * 2 * 4);  // the small specs with every delta
}

TEST(DeltaStepping, DenseGraphWithHugeDeltaRepushesManyTimes) {
  // One bin holds everything, so vertices are improved (and pushed) many times
  // per phase; the shared frontier must grow beyond n entries.
  const auto g = random_graph<std::uint32_t>({3000, 150000, 100000, false}, 99);
  const auto expected = dijkstra(g, 0);
  for (const int threads : {1, 2, 4}) {
    CpuSolveStats stats;
    expect_same(expected, delta_stepping(g, 0, 1e18, threads, &stats), "threads " + std::to_string(threads));
    EXPECT_GT(stats.relaxations, g.num_arcs() * 8 / 10);
  }
}

TEST(DeltaStepping, DistancesBeyond32Bits) {
  Coo<std::uint32_t> coo;
  coo.num_vertices = 64;
  for (vertex_id v = 0; v + 1 < 64; ++v) coo.add(v, v + 1, 4000000000u);
  const auto g = build_csr(std::move(coo), BuildOptions{});
  for (const double delta : {1.0, 4e9, auto_delta(g)}) {
    const auto dist = delta_stepping(g, 0, delta, 2);
    EXPECT_EQ(dist[63], 63ull * 4000000000ull) << "delta " << delta;
    EXPECT_EQ(dist, dijkstra(g, 0));
  }
}

TEST(DeltaStepping, ZeroThreadsMeansAllCores) {
  const auto g = random_graph<std::uint32_t>({400, 2000, 50, true}, 17);
  CpuSolveStats stats;
  EXPECT_EQ(delta_stepping(g, 3, auto_delta(g), 0, &stats), dijkstra(g, 3));
  EXPECT_EQ(stats.delta, auto_delta(g));
}

TEST(DeltaStepping, RejectsBadArguments) {
  const auto g = random_graph<std::uint32_t>({10, 20, 5, false}, 1);
  EXPECT_THROW(delta_stepping(g, 10, 1.0), std::invalid_argument);
  for (const double delta : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity(), 1e-320})
    EXPECT_THROW(delta_stepping(g, 0, delta), std::invalid_argument) << delta;
  EXPECT_THROW(delta_stepping(g, 0, 1.0, -1), std::invalid_argument);
  EXPECT_THROW(auto_delta(g, 0.0), std::invalid_argument);
}

TEST(AutoDelta, FollowsDavidsonFormula) {
  // 4 vertices, 4 arcs, weights 2 4 6 8: mean weight 5, mean degree 1.
  Coo<std::uint32_t> coo;
  coo.num_vertices = 4;
  coo.add(0, 1, 2);
  coo.add(1, 2, 4);
  coo.add(2, 3, 6);
  coo.add(3, 0, 8);
  const auto g = build_csr(std::move(coo), BuildOptions{});
  EXPECT_DOUBLE_EQ(auto_delta(g), 32.0 * 5.0);
  EXPECT_DOUBLE_EQ(auto_delta(g, 1.0), 5.0);
  EXPECT_DOUBLE_EQ(auto_delta(g, 0.01), 2.0);  // never below the smallest positive weight

  // Complete digraph on 5 vertices: mean degree 4, unit weights: delta = 32 / 4.
  Coo<std::uint32_t> dense;
  dense.num_vertices = 5;
  for (vertex_id u = 0; u < 5; ++u)
    for (vertex_id v = 0; v < 5; ++v)
      if (u != v) dense.add(u, v, 1);
  EXPECT_DOUBLE_EQ(auto_delta(build_csr(std::move(dense), BuildOptions{})), 8.0);
}

TEST(AutoDelta, NeverZero) {
  Coo<std::uint32_t> none;
  none.num_vertices = 3;
  EXPECT_EQ(auto_delta(build_csr(std::move(none), BuildOptions{})), 1.0);
  Coo<float> zeros;
  zeros.num_vertices = 2;
  zeros.add(0, 1, 0.0f);
  EXPECT_EQ(auto_delta(build_csr(std::move(zeros), BuildOptions{})), 1.0);
  Coo<float> small;
  small.num_vertices = 2;
  small.add(0, 1, 1e-3f);
  EXPECT_GT(auto_delta(build_csr(std::move(small), BuildOptions{})), 0.0);
}
