// The shared result checks (graph/verify.hpp) and timing summaries
// (graph/metrics.hpp) that sssp --validate, sssp_bench, regime_bench,
// cpu_sssp_bench and the GPU tests all use. These pin the float tolerance:
// |got - expected| <= 1e-6 x max(1, |expected|), infinities equal only to
// infinities, NaN never.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "graph/metrics.hpp"
#include "graph/types.hpp"
#include "graph/verify.hpp"

namespace {

using graph::distances_match;

TEST(Verify, FloatToleranceIsOneMillionthRelative) {
  EXPECT_DOUBLE_EQ(graph::kFloatDistanceTolerance, 1e-6);
  // 1024: the tolerance is 1.024e-3, and the float spacing there is 2^-13.
  const float base = 1024.0f;
  const float ulp = std::ldexp(1.0f, -13);
  EXPECT_TRUE(distances_match<float>(base, base));
  EXPECT_TRUE(distances_match<float>(base, base + 8 * ulp));   // 9.77e-4: inside
  EXPECT_TRUE(distances_match<float>(base, base - 8 * ulp));
  EXPECT_FALSE(distances_match<float>(base, base + 9 * ulp));  // 1.10e-3: just outside
  EXPECT_FALSE(distances_match<float>(base, base - 9 * ulp));
}

TEST(Verify, FloatToleranceHasAnAbsoluteFloorBelowOne) {
  // 0.5: the tolerance is 1e-6 (not 5e-7), float spacing 2^-24.
  const float half = 0.5f;
  const float ulp = std::ldexp(1.0f, -24);
  EXPECT_TRUE(distances_match<float>(half, half + 16 * ulp));   // 9.54e-7
  EXPECT_FALSE(distances_match<float>(half, half + 17 * ulp));  // 1.01e-6
  EXPECT_TRUE(distances_match<float>(0.0f, 9e-7f));
  EXPECT_FALSE(distances_match<float>(0.0f, 2e-6f));
}

TEST(Verify, InfinitiesMustMatchAndNanNever) {
  const float inf = graph::infinite_distance<float>();
  const float big = std::numeric_limits<float>::max();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(distances_match<float>(inf, inf));
  EXPECT_FALSE(distances_match<float>(inf, big));  // the relative test alone would accept it (inf <= inf)
  EXPECT_FALSE(distances_match<float>(big, inf));
  EXPECT_FALSE(distances_match<float>(1.0f, nan));
  EXPECT_FALSE(distances_match<float>(nan, nan));
}

TEST(Verify, IntegerDistancesAreExact) {
  const auto inf = graph::infinite_distance<std::uint32_t>();
  const std::uint64_t large = std::uint64_t{1} << 40;
  EXPECT_TRUE(distances_match<std::uint32_t>(large, large));
  EXPECT_FALSE(distances_match<std::uint32_t>(large, large + 1));  // within 1e-6 relative, still wrong
  EXPECT_TRUE(distances_match<std::uint32_t>(inf, inf));
  EXPECT_FALSE(distances_match<std::uint32_t>(inf, inf - 1));
}

TEST(Verify, FindDistanceMismatchesCountsAllListsTheFirst) {
  const float inf = graph::infinite_distance<float>();
  const std::vector<float> want = {0, 1, 2, 3, inf, 5};
  const std::vector<float> got = {0, 1.5f, 2, 3.0000001f, 7, 6};
  const auto m = graph::find_distance_mismatches<float>(want, got, 2);
  EXPECT_EQ(m.count, 3u);
  EXPECT_EQ(m.first, (std::vector<graph::vertex_id>{1, 4}));
  EXPECT_TRUE(graph::find_distance_mismatches<float>(want, want).none());
  EXPECT_THROW(graph::find_distance_mismatches<float>(want, {0, 1}), std::invalid_argument);
}

TEST(Verify, FloatTreeArcsAreTightWithinTheTolerance) {
  graph::FloatCsr g;
  g.num_vertices = 2;
  g.offsets = {0, 1, 1};
  g.targets = {1};
  g.weights = {100.0f};
  const std::vector<graph::vertex_id> pred = {graph::kNoVertex, 0};
  const auto valid = [&](float d1) {
    return graph::check_shortest_path_tree<float>(g, 0, {0.0f, d1}, pred).valid();
  };
  EXPECT_TRUE(valid(100.0f));
  EXPECT_TRUE(valid(100.00009f));  // 9e-5 off: inside 1e-4
  EXPECT_FALSE(valid(100.0002f));  // 2e-4 off
  EXPECT_FALSE(valid(graph::infinite_distance<float>()));
  // Every problem counts, max_examples are shown, ids plus the base. (The
  // messages of each kind: AppValidate.PredecessorTrees in test_app_report.)
  const auto r = graph::check_shortest_path_tree<float>(g, 0, {0.0f, 100.0f}, {1, graph::kNoVertex}, 1, 1);
  EXPECT_EQ(r.errors, 2u);
  ASSERT_EQ(r.examples.size(), 1u);
  EXPECT_EQ(r.examples.front(), "vertex 1: the source has predecessor 2");
}

// summarize_times itself: AppMetrics.TimingSummaryMedianMinMax (through the
// app's wrapper, which refuses an empty list).
TEST(Metrics, MedianAndEmptyTimes) {
  EXPECT_DOUBLE_EQ(graph::median({5, 1, 3}), 3);
  EXPECT_DOUBLE_EQ(graph::median({4, 1, 3, 10}), 3.5);  // mean of the two middle runs
  EXPECT_DOUBLE_EQ(graph::median({}), 0);
  EXPECT_DOUBLE_EQ(graph::summarize_times({}).max_ms, 0);
}

TEST(Metrics, MeanFormsAgreeWithCountForms) {
  EXPECT_DOUBLE_EQ(graph::mteps(std::uint64_t{2000000}, 4.0), 500);
  EXPECT_DOUBLE_EQ(graph::mteps(2000000.0, 4.0), 500);
  EXPECT_DOUBLE_EQ(graph::mteps(2000000.0, 0.0), 0);
  EXPECT_DOUBLE_EQ(graph::work_ratio(std::uint64_t{3}, std::uint64_t{2}), 1.5);
  EXPECT_DOUBLE_EQ(graph::work_ratio(3.0, 2.0), 1.5);
  EXPECT_DOUBLE_EQ(graph::work_ratio(3.0, 0.0), 0);
}

}  // namespace
