// Parallel delta-stepping against Dijkstra: many random and generated graphs,
// every delta regime (tiny: mostly empty bins and the far pile; huge: one
// bin, Bellman-Ford-like), thread counts 1/2/4, integer and float weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
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
  // moves), the smallest useful, the GPU and CPU auto rules, large, and huge
  // (everything in bin 0).
  return {1e-3, 0.7, 1.0, auto_delta(g), auto_delta_cpu(g), 50.0, 1e15};
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
  EXPECT_EQ(counts.single, 7 * 3 * 7);
  EXPECT_GE(counts.parallel, 2 * 5 * 3 * 7);  // all but the two largest specs, every delta
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
  EXPECT_EQ(counts.single, 4 * 2 * 7);
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

// The buffer overload writes every entry: it needs no initialised memory
// (unreachable vertices included).
TEST(DeltaStepping, WritesEveryEntryOfAnUninitialisedBuffer) {
  auto g = random_graph<std::uint32_t>({3000, 12000, 1000, false}, 23);
  const auto expected = dijkstra(g, 0);
  ASSERT_TRUE(std::count(expected.begin(), expected.end(), infinite_distance<std::uint32_t>()) > 0);
  for (const int threads : {1, 3}) {
    std::vector<distance_t<std::uint32_t>> buffer(g.num_vertices, 0xABABABABABABABABull);
    delta_stepping(g, 0, auto_delta_cpu(g), threads, buffer.data());
    EXPECT_EQ(buffer, expected) << "threads " << threads;
  }
  const auto fg = random_graph<float>({3000, 12000, 1000, false}, 23);
  std::vector<float> fbuffer(fg.num_vertices, -1.0f);
  delta_stepping(fg, 0, auto_delta_cpu(fg), 2, fbuffer.data());
  expect_close(dijkstra(fg, 0), fbuffer, "float buffer");
}

// Entries carry the low 32 bits of their distance. Here vertex v is first
// reached at 2^32 + 5 (over a) and then lowered to exactly 2^32 less (over
// c1, c2), so its stale entry's tag matches again: it must still come out
// exact (it relaxes with the current distance).
TEST(DeltaStepping, DistanceTagCollisionStaysExact) {
  const vertex_id a = 1, v = 2, c1 = 3, c2 = 4, w = 5;
  Coo<std::uint32_t> coo;
  coo.num_vertices = 6;
  coo.add(0, a, 4294967295u);
  coo.add(a, v, 6);
  coo.add(0, c1, 1);
  coo.add(c1, c2, 1);
  coo.add(c2, v, 3);
  coo.add(v, w, 7);
  coo.add(a, w, 1);
  const auto g = build_csr(std::move(coo), BuildOptions{});
  const auto expected = dijkstra(g, 0);
  ASSERT_EQ(expected[v], 5u);
  for (const double delta : {1.0, 3.0, 1e18})
    for (const int threads : {1, 2, 3})
      EXPECT_EQ(delta_stepping(g, 0, delta, threads), expected) << "delta " << delta << " threads " << threads;
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

namespace {

// A "broom": a long path from the source (phases of one vertex: solo mode),
// a hub fanning out to a dense random block (bins of thousands of entries:
// shared phases, claimed in chunks by every thread), long tails out of the
// block (solo again), and a part the source cannot reach. Weights 0..max_w
// (zeros included); float graphs scale them by 0.37.
template <class Weight>
Csr<Weight> broom_graph(std::uint64_t seed, std::uint32_t max_w) {
  std::mt19937_64 rng(seed);
  Coo<Weight> coo;
  const vertex_id path = 400, block = 6000, tails = 6, tail_length = 250, unreachable = 500;
  coo.num_vertices = path + block + tails * tail_length + unreachable;
  const auto weight = [&] {
    const auto w = static_cast<std::uint32_t>(rng() % (std::uint64_t{max_w} + 1));
    if constexpr (std::is_same_v<Weight, float>) {
      return static_cast<float>(w * 0.37);
    } else {
      return static_cast<Weight>(w);
    }
  };
  for (vertex_id v = 0; v + 1 < path; ++v) coo.add(v, v + 1, weight());
  const vertex_id hub = path - 1, first_block = path;
  for (vertex_id b = 0; b < block; ++b) coo.add(hub, first_block + b, weight());
  for (vertex_id b = 0; b < block; ++b)
    for (int k = 0; k < 8; ++k) coo.add(first_block + b, first_block + static_cast<vertex_id>(rng() % block), weight());
  vertex_id next = first_block + block;
  for (vertex_id t = 0; t < tails; ++t) {
    vertex_id previous = first_block + static_cast<vertex_id>(rng() % block);
    for (vertex_id i = 0; i < tail_length; ++i, ++next) {
      coo.add(previous, next, weight());
      previous = next;
    }
  }
  for (vertex_id i = 0; i < unreachable; ++i)
    coo.add(next + i, next + static_cast<vertex_id>(rng() % unreachable), weight());
  return build_csr(std::move(coo), BuildOptions{false, true});
}

}  // namespace

// Solo phases (one thread takes over every thread's bins) alternating with
// shared ones, at thread counts that do and do not divide the work evenly,
// including more threads than this machine has cores.
TEST(DeltaStepping, SoloAndSharedPhasesAtManyThreadCounts) {
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    const auto g = broom_graph<std::uint32_t>(seed, 20);
    const auto expected = dijkstra(g, 0);
    for (const double delta : {1.0, 7.0, auto_delta_cpu(g), 1e6}) {
      for (const int threads : {1, 2, 3, 4, 5, 8}) {
        CpuSolveStats stats;
        expect_same(expected, delta_stepping(g, 0, delta, threads, &stats),
                    "seed " + std::to_string(seed) + " delta " + std::to_string(delta) + " threads " +
                        std::to_string(threads));
        EXPECT_GE(stats.relaxations, g.num_arcs() / 2);  // the block was searched
      }
    }
    const auto gf = broom_graph<float>(seed, 20);
    const auto expected_f = dijkstra(gf, 0);
    for (const double delta : {0.37, auto_delta_cpu(gf), 1e6})
      for (const int threads : {1, 2, 3, 8})
        expect_close(expected_f, delta_stepping(gf, 0, delta, threads),
                     "float seed " + std::to_string(seed) + " delta " + std::to_string(delta) + " threads " +
                         std::to_string(threads));
  }
}

// Layers: arcs of weight 0 or 1..3 inside a distance layer, 10^6 between
// layers (into the far pile at delta 1 or 2, beyond the 2048-bin window).
// Layers grow to thousands of vertices and shrink again, so the solve moves
// between shared and solo phases while every thread holds ring and far
// entries, and threads' lowest bins differ (unclaimed published entries must
// go back to their owner).
TEST(DeltaStepping, LayeredGraphMovesBetweenSharedAndSoloPhases) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    std::mt19937_64 rng(seed * 7919);
    Coo<std::uint32_t> coo;
    coo.num_vertices = 20000;
    for (vertex_id u = 0; u < coo.num_vertices; ++u) {
      for (int k = 0; k < 4; ++k) {
        const auto v = static_cast<vertex_id>(rng() % coo.num_vertices);
        const auto kind = rng() % 4;
        coo.add(u, v, kind == 0 ? 0u : kind == 1 ? static_cast<std::uint32_t>(1 + rng() % 3) : 1000000u);
      }
    }
    const auto g = build_csr(std::move(coo), BuildOptions{});
    const auto expected = dijkstra(g, 0);
    for (const double delta : {1.0, 2.0})
      for (const int threads : {2, 3, 4, 8})
        expect_same(expected, delta_stepping(g, 0, delta, threads),
                    "seed " + std::to_string(seed) + " delta " + std::to_string(delta) + " threads " +
                        std::to_string(threads));
  }
}

// Many improvements of the same vertices within one bin: every stale copy
// must be skipped, the latest one relaxed (random graphs, heavy ties).
TEST(DeltaStepping, ManyThreadCountsOnRandomGraphsWithZeroWeights) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto g = random_graph<std::uint32_t>({1500, 12000, 3, seed % 2 == 0}, 500 + seed);
    const auto expected = dijkstra(g, 1);
    for (const double delta : {1.0, 2.5, auto_delta_cpu(g), 1e9})
      for (const int threads : {1, 2, 3, 6, 7})
        expect_same(expected, delta_stepping(g, 1, delta, threads),
                    "seed " + std::to_string(seed) + " delta " + std::to_string(delta) + " threads " +
                        std::to_string(threads));
  }
}

TEST(DeltaStepping, EqualsDijkstraAtAutoDeltaCpuOnGeneratedClasses) {
  for (const char* spec : {"rmat:11:8", "urand:4000:6", "grid:60:70"}) {
    for (const char* rule : {"random:1:1000", "random:0:3", "unit"}) {
      const auto g = generate(GeneratorSpec::parse(spec), WeightRule::parse(rule, 3), 7);
      vertex_id source = 0;
      while (source + 1 < g.num_vertices && g.out_degree(source) == 0) ++source;
      const auto expected = dijkstra(g, source);
      const double delta = auto_delta_cpu(g);
      for (const int threads : {1, 2, 3, 4})
        expect_same(expected, delta_stepping(g, source, delta, threads),
                    std::string(spec) + " " + rule + " threads " + std::to_string(threads));
    }
  }
}

TEST(DeltaStepping, TinyGraphsWithMoreThreadsThanVertices) {
  for (const vertex_id n : {1u, 2u, 3u}) {
    Coo<std::uint32_t> coo;
    coo.num_vertices = n;
    for (vertex_id v = 0; v + 1 < n; ++v) coo.add(v, v + 1, v);  // the first weight is 0
    const auto g = build_csr(std::move(coo), BuildOptions{});
    for (const int threads : {1, 2, 8, 16})
      EXPECT_EQ(delta_stepping(g, 0, auto_delta_cpu(g), threads), dijkstra(g, 0))
          << n << " vertices, " << threads << " threads";
  }
}

namespace {

template <class Weight>
Csr<Weight> from_arcs(vertex_id n, const std::vector<std::tuple<vertex_id, vertex_id, Weight>>& arcs) {
  Coo<Weight> coo;
  coo.num_vertices = n;
  for (const auto& [u, v, w] : arcs) coo.add(u, v, w);
  return build_csr(std::move(coo), BuildOptions{});
}

}  // namespace

TEST(AutoDeltaCpu, PositiveAndFiniteOnEdgeCases) {
  const auto sane = [](double delta) { return delta > 0 && std::isfinite(delta) && std::isfinite(1.0 / delta); };
  // One vertex, no arcs; several vertices, no arcs; a self-loop of weight 0;
  // only zero weights: 1 (any delta is exact there).
  EXPECT_EQ(auto_delta_cpu(from_arcs<std::uint32_t>(1, {})), 1.0);
  EXPECT_EQ(auto_delta_cpu(from_arcs<std::uint32_t>(5, {})), 1.0);
  EXPECT_EQ(auto_delta_cpu(from_arcs<std::uint32_t>(1, {{0, 0, 0}})), 1.0);
  EXPECT_EQ(auto_delta_cpu(from_arcs<float>(3, {{0, 1, 0.0f}, {1, 2, 0.0f}})), 1.0);
  // Extreme weights stay positive, finite, usable, and never below the
  // smallest positive weight.
  for (const float w : {1e-30f, 1e-3f, 1.0f, 3e30f}) {
    const auto g = from_arcs<float>(3, {{0, 1, w}, {1, 2, 0.0f}});
    const double delta = auto_delta_cpu(g);
    EXPECT_TRUE(sane(delta)) << w;
    EXPECT_GE(delta, static_cast<double>(w)) << w;
    const auto dist = delta_stepping(g, 0, delta, 2);
    EXPECT_EQ(dist[2], w);
  }
  for (const std::uint32_t w : {1u, 4000000000u}) {
    const auto g = from_arcs<std::uint32_t>(2, {{0, 1, w}});
    EXPECT_TRUE(sane(auto_delta_cpu(g))) << w;
    EXPECT_GE(auto_delta_cpu(g), static_cast<double>(w));
  }
}

TEST(AutoDeltaCpu, FollowsItsRule) {
  constexpr double kC = 1.0;       // the rule's c (graph/reference.hpp)
  constexpr double kSkew = 0.425;  // its factor for large, extremely skewed graphs
  // Hub-free, mean degree >= 8: delta = 4 * kC * mean w / mean degree, the
  // mean degree taken over vertices with arcs. Complete digraph on 10
  // vertices (degree 9), 50 arcs of weight 1 and 40 of 1000 (mean 445):
  // 4 * kC * 445 / 9.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> complete;
  for (vertex_id u = 0; u < 10; ++u)
    for (vertex_id v = 0; v < 10; ++v)
      if (u != v) complete.emplace_back(u, v, (u + v) % 2 ? 1u : 1000u);
  const auto dense = from_arcs<std::uint32_t>(10, complete);
  EXPECT_NEAR(auto_delta_cpu(dense), 4 * kC * 445 / 9.0, 1e-9);
  // Isolated vertices change nothing.
  EXPECT_DOUBLE_EQ(auto_delta_cpu(from_arcs<std::uint32_t>(1000, complete)), auto_delta_cpu(dense));

  // Hub-free, mean degree 5 (each vertex to the next 5 on a ring, weights
  // 2..6, mean 4): widened by (8 / 5)^4.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> ring;
  for (vertex_id v = 0; v < 12; ++v)
    for (vertex_id k = 1; k <= 5; ++k) ring.emplace_back(v, (v + k) % 12, k + 1);
  EXPECT_NEAR(auto_delta_cpu(from_arcs<std::uint32_t>(12, ring)), kC * std::pow(8.0 / 5, 4) * 4 / 5,
              1e-9);
  // Hub-free, mean degree 4 (a torus-like ring with 4 neighbours): widened 16x.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> ring4;
  for (vertex_id v = 0; v < 12; ++v)
    for (vertex_id k = 1; k <= 4; ++k) ring4.emplace_back(v, (v + k) % 12, 10u);
  EXPECT_NEAR(auto_delta_cpu(from_arcs<std::uint32_t>(12, ring4)), kC * 16 * 10 / 4, 1e-9);
  // Hub-free, mean degree 3 (a ring with 3 neighbours): (8 / 3)^4 = 50.6 is
  // capped at 19 (the road graphs' range), above (4 / 3)^5 = 4.2.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> ring3;
  for (vertex_id v = 0; v < 12; ++v)
    for (vertex_id k = 1; k <= 3; ++k) ring3.emplace_back(v, (v + k) % 12, 10u);
  EXPECT_NEAR(auto_delta_cpu(from_arcs<std::uint32_t>(12, ring3)), kC * 19 * 10 / 3, 1e-9);

  // A directed cycle (mean degree 1, no hub): nearly a tree, so delta widens
  // by (4 / 1)^5: kC * 1024 * 6 / 1.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> cycle;
  for (vertex_id v = 0; v < 8; ++v) cycle.emplace_back(v, (v + 1) % 8, 6u);
  EXPECT_NEAR(auto_delta_cpu(from_arcs<std::uint32_t>(8, cycle)), kC * 1024 * 6, 1e-9);

  // The same low mean degree with a hub (an undirected star, 50 leaves, mean
  // degree 100 / 51, weights 1 out and 999 back, mean 500): no widening.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> star;
  for (vertex_id leaf = 1; leaf <= 50; ++leaf) {
    star.emplace_back(0, leaf, 1u);
    star.emplace_back(leaf, 0, 999u);
  }
  EXPECT_NEAR(auto_delta_cpu(from_arcs<std::uint32_t>(51, star)), kC * 500 / (100.0 / 51), 1e-9);
  // A large graph with an extreme degree spread (an undirected star with
  // 2^20 leaves: 2^21 arcs, degree cv about 512; weights 2 out and 998 back,
  // mean 500) is narrowed: kSkew * kC * 500 / (2^21 / (2^20 + 1)). One
  // arc fewer (below 2^21 arcs) keeps kC.
  {
    constexpr vertex_id kLeaves = vertex_id{1} << 20;
    std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> big_star;
    big_star.reserve(2 * kLeaves);
    for (vertex_id leaf = 1; leaf <= kLeaves; ++leaf) {
      big_star.emplace_back(0, leaf, 2u);
      big_star.emplace_back(leaf, 0, 998u);
    }
    const double degree = 2.0 * kLeaves / (kLeaves + 1);
    EXPECT_NEAR(auto_delta_cpu(from_arcs<std::uint32_t>(kLeaves + 1, big_star)), kSkew * kC * 500 / degree, 1e-9);
    // Without the last leaf's arc back: 2^21 - 1 arcs over 2^20 vertices with arcs.
    big_star.pop_back();
    const double mean_w = (2.0 * kLeaves + 998.0 * (kLeaves - 1)) / (2.0 * kLeaves - 1);
    EXPECT_NEAR(auto_delta_cpu(from_arcs<std::uint32_t>(kLeaves + 1, big_star)),
                kC * mean_w / ((2.0 * kLeaves - 1) / kLeaves), 1e-9);
  }
  // Never below the smallest positive weight: complete digraph on 40
  // vertices, weights 50: 4 * kC * 50 / 39 < 50.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> complete40;
  for (vertex_id u = 0; u < 40; ++u)
    for (vertex_id v = 0; v < 40; ++v)
      if (u != v) complete40.emplace_back(u, v, 50u);
  EXPECT_DOUBLE_EQ(auto_delta_cpu(from_arcs<std::uint32_t>(40, complete40)), 50.0);
  // The size of the graph does not matter: a 2^16-vertex directed cycle
  // with weights 3.
  std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>> big_cycle;
  for (vertex_id v = 0; v < 65536; ++v) big_cycle.emplace_back(v, (v + 1) % 65536, 3u);
  EXPECT_NEAR(auto_delta_cpu(from_arcs<std::uint32_t>(65536, big_cycle)), kC * 1024 * 3, 1e-9);

  // Across classes with the same weights: a grid gets a wider delta (in units
  // of the mean weight) than R-MAT, a road-like sparse mesh wider still.
  const auto rule = WeightRule::parse("random:1:1000", 1);
  const auto rmat = generate(GeneratorSpec::parse("rmat:12:16"), rule, 1);
  const auto grid = generate(GeneratorSpec::parse("grid:64:64"), rule, 1);
  EXPECT_GT(auto_delta_cpu(grid), 4 * auto_delta_cpu(rmat));
  EXPECT_LT(auto_delta_cpu(rmat), auto_delta(rmat));  // the GPU rule (c = 32) is far wider on R-MAT
}
