// COO -> CSR: self-loops, duplicates (minimum weight kept), symmetrisation.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "graph/build_csr.hpp"
#include "graph/weights.hpp"

using namespace graph;

namespace {
Coo<std::uint32_t> small_coo() {
  Coo<std::uint32_t> coo;
  coo.num_vertices = 4;
  coo.add(0, 1, 5);
  coo.add(0, 1, 3);  // duplicate, cheaper: kept
  coo.add(0, 1, 7);  // duplicate, dearer: dropped
  coo.add(1, 1, 2);  // self-loop
  coo.add(2, 0, 4);
  coo.add(1, 3, 1);
  return coo;
}
}  // namespace

TEST(BuildCsr, DropsSelfLoopsAndKeepsMinimumDuplicate) {
  BuildStats stats;
  const auto csr = build_csr(small_coo(), BuildOptions{}, &stats);
  EXPECT_EQ(csr.num_vertices, 4u);
  EXPECT_EQ(csr.num_arcs(), 3u);
  EXPECT_EQ(stats.input_entries, 6u);
  EXPECT_EQ(stats.self_loops_dropped, 1u);
  EXPECT_EQ(stats.duplicates_dropped, 2u);
  EXPECT_EQ((std::vector<edge_offset>{0, 1, 2, 3, 3}), csr.offsets);
  EXPECT_EQ((std::vector<vertex_id>{1, 3, 0}), csr.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{3, 1, 4}), csr.weights);
}

TEST(BuildCsr, SymmetrizeMirrorsEveryArc) {
  BuildStats stats;
  const auto csr = build_csr(small_coo(), BuildOptions{true, true}, &stats);
  // {0,1} w3, {0,2} w4, {1,3} w1 in both directions.
  EXPECT_EQ(csr.num_arcs(), 6u);
  EXPECT_EQ((std::vector<edge_offset>{0, 2, 4, 5, 6}), csr.offsets);
  EXPECT_EQ((std::vector<vertex_id>{1, 2, 0, 3, 0, 1}), csr.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{3, 4, 3, 1, 4, 1}), csr.weights);
  EXPECT_EQ(stats.duplicates_dropped, 4u);  // three copies of {0,1} each way, minus one kept
}

TEST(BuildCsr, EmptyAndIsolatedVertices) {
  Coo<float> coo;
  coo.num_vertices = 3;
  const auto csr = build_csr(std::move(coo), BuildOptions{});
  EXPECT_EQ(csr.num_arcs(), 0u);
  EXPECT_EQ((std::vector<edge_offset>{0, 0, 0, 0}), csr.offsets);
}

TEST(BuildCsr, MatchesSerialReferenceOnRandomMultigraph) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 5; ++trial) {
    const vertex_id n = 1 + static_cast<vertex_id>(rng() % 500);
    Coo<std::uint32_t> coo;
    coo.num_vertices = n;
    std::map<std::pair<vertex_id, vertex_id>, std::uint32_t> expected;
    for (int i = 0; i < 5000; ++i) {
      const auto u = static_cast<vertex_id>(rng() % n), v = static_cast<vertex_id>(rng() % n);
      const auto w = static_cast<std::uint32_t>(rng() % 10);
      coo.add(u, v, w);
      if (u == v) continue;
      for (auto key : {std::pair{u, v}, std::pair{v, u}}) {
        auto it = expected.find(key);
        if (it == expected.end() || w < it->second) expected[key] = w;
      }
    }
    const auto csr = build_csr(std::move(coo), BuildOptions{true, true});
    ASSERT_EQ(csr.num_arcs(), expected.size());
    auto it = expected.begin();
    for (vertex_id u = 0; u < n; ++u)
      for (edge_offset k = csr.offsets[u]; k < csr.offsets[u + 1]; ++k, ++it) {
        ASSERT_EQ(it->first.first, u);
        ASSERT_EQ(it->first.second, csr.targets[k]);
        ASSERT_EQ(it->second, csr.weights[k]);
      }
  }
}

TEST(WeightRule, ParsesAndDescribes) {
  EXPECT_EQ(WeightRule::parse("unit").kind, WeightRule::Kind::Unit);
  const auto r = WeightRule::parse("random:5:9", 7);
  EXPECT_EQ(r.lo, 5u);
  EXPECT_EQ(r.hi, 9u);
  EXPECT_EQ(r.describe(), "random:5:9 seed=7");
  EXPECT_EQ(WeightRule::parse("file").for_pattern_file().describe(), "random:1:1000 seed=1");
  EXPECT_THROW(WeightRule::parse("random:9:5"), std::runtime_error);
  EXPECT_THROW(WeightRule::parse("gauss"), std::runtime_error);
  EXPECT_THROW(WeightRule::parse("random:1:x"), std::runtime_error);
}

TEST(WeightRule, RandomWeightsAreSymmetricInRangeAndSeeded) {
  const auto a = WeightRule::parse("random:1:1000", 1);
  const auto b = WeightRule::parse("random:1:1000", 2);
  int differ = 0;
  for (vertex_id u = 0; u < 200; ++u)
    for (vertex_id v = 0; v < 20; ++v) {
      const auto w = a.random_weight(u, v);
      EXPECT_EQ(w, a.random_weight(v, u));
      EXPECT_GE(w, 1u);
      EXPECT_LE(w, 1000u);
      differ += w != b.random_weight(u, v);
    }
  EXPECT_GT(differ, 3000);
}
