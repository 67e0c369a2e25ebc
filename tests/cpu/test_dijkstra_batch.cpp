// dijkstra_batch (one source per OpenMP thread) must give each source exactly
// what the sequential Dijkstra gives it: on random graphs with integer and
// float weights, from a source in another component, a repeated source, one
// source, and more sources than threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "graph/build_csr.hpp"
#include "graph/generators.hpp"
#include "graph/reference.hpp"

using namespace graph;

namespace {

IntCsr random_graph(const std::string& spec, std::uint64_t seed) {
  return generate(GeneratorSpec::parse(spec), WeightRule::parse("random:1:1000", seed), seed);
}

template <class Weight>
void expect_equals_per_source(const Csr<Weight>& g, const std::vector<vertex_id>& sources, int threads) {
  std::vector<CpuSolveStats> stats;
  const auto rows = dijkstra_batch(g, sources, threads, &stats);
  ASSERT_EQ(rows.size(), sources.size());
  ASSERT_EQ(stats.size(), sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    CpuSolveStats want_stats;
    EXPECT_EQ(rows[i], dijkstra(g, sources[i], nullptr, &want_stats)) << "source " << sources[i] << " (row " << i << ")";
    EXPECT_EQ(stats[i].relaxations, want_stats.relaxations) << "source " << sources[i];
    EXPECT_EQ(stats[i].phases, want_stats.phases) << "source " << sources[i];
  }
}

std::vector<vertex_id> random_sources(vertex_id n, std::size_t k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<vertex_id> s;
  for (std::size_t i = 0; i < k; ++i) s.push_back(static_cast<vertex_id>(rng() % n));
  return s;
}

TEST(DijkstraBatch, EqualsPerSourceDijkstraOnRandomGraphs) {
  for (const char* spec : {"rmat:10:8", "urand:2000:4", "grid:30:40"}) {
    SCOPED_TRACE(spec);
    const IntCsr g = random_graph(spec, 7);
    expect_equals_per_source(g, random_sources(g.num_vertices, 12, 3), 4);
  }
}

TEST(DijkstraBatch, FloatWeights) {
  const IntCsr gi = random_graph("urand:1500:6", 11);
  Csr<float> g;
  g.num_vertices = gi.num_vertices;
  g.offsets = gi.offsets;
  g.targets = gi.targets;
  for (const auto w : gi.weights) g.weights.push_back(static_cast<float>(w) / 7.0f);
  expect_equals_per_source(g, random_sources(g.num_vertices, 9, 5), 3);
}

TEST(DijkstraBatch, DisconnectedAndRepeatedSources) {
  // Two components: 0 -> 1 -> 2 and 3 -> 4; vertex 5 has no arcs at all.
  Coo<std::uint32_t> coo;
  coo.num_vertices = 6;
  coo.add(0, 1, 2);
  coo.add(1, 2, 3);
  coo.add(3, 4, 5);
  const IntCsr g = build_csr(std::move(coo), BuildOptions{});
  const auto rows = dijkstra_batch(g, {0, 3, 0, 5}, 2);
  const auto inf = infinite_distance<std::uint32_t>();
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], (std::vector<distance_t<std::uint32_t>>{0, 2, 5, inf, inf, inf}));
  EXPECT_EQ(rows[1], (std::vector<distance_t<std::uint32_t>>{inf, inf, inf, 0, 5, inf}));
  EXPECT_EQ(rows[2], rows[0]);  // a repeated source gets its own, equal row
  EXPECT_EQ(rows[3], (std::vector<distance_t<std::uint32_t>>{inf, inf, inf, inf, inf, 0}));
}

TEST(DijkstraBatch, OneSourceAndMoreSourcesThanThreads) {
  const IntCsr g = random_graph("rmat:9:8", 13);
  expect_equals_per_source(g, {1}, 0);
  expect_equals_per_source(g, random_sources(g.num_vertices, 37, 17), 2);  // 37 sources on 2 threads
  expect_equals_per_source(g, random_sources(g.num_vertices, 5, 19), 0);   // all cores
  EXPECT_TRUE(dijkstra_batch(g, {}, 2).empty());
}

TEST(DijkstraBatch, ThreadCountIsCappedBySources) {
  EXPECT_EQ(batch_threads(3, 8), 3);
  EXPECT_EQ(batch_threads(100, 8), 8);
  EXPECT_EQ(batch_threads(0, 8), 1);
  EXPECT_GE(batch_threads(1000, 0), 1);
  EXPECT_EQ(batch_threads(1, 0), 1);
}

TEST(DijkstraBatch, RefusesANonVertexBeforeAnyWork) {
  const IntCsr g = random_graph("grid:4:4", 1);
  EXPECT_THROW(dijkstra_batch(g, {0, 16}, 2), std::invalid_argument);
}

}  // namespace
