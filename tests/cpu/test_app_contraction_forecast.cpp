// --contract auto's cost rule (app/contraction_forecast.hpp): what a run's
// solves are predicted to save against what contracting costs.
#include <gtest/gtest.h>

#include <string>

#include "app/contraction_forecast.hpp"

namespace {

constexpr std::uint64_t kVertices = 49'109, kArcs = 242'048;  // a road graph of DE's size

app::ContractionWorkload singles(std::uint64_t n) {
  app::ContractionWorkload w;
  w.single_queries = n;
  return w;
}

}  // namespace

TEST(AppContractionForecast, CostGrowsWithArcsSavingWithVerticesAndSolves) {
  const app::ContractionForecast one = app::forecast_contraction(kVertices, kArcs, singles(1));
  EXPECT_NEAR(one.cost_ms, app::kContractNsPerArc * kArcs * 1e-6, 1e-12);
  EXPECT_NEAR(one.saving_ms, app::kSingleSavingNsPerVertex * kVertices * 1e-6, 1e-12);
  const app::ContractionForecast ten = app::forecast_contraction(kVertices, kArcs, singles(10));
  EXPECT_NEAR(ten.saving_ms, 10 * one.saving_ms, 1e-9);
  EXPECT_EQ(ten.cost_ms, one.cost_ms);
  EXPECT_NEAR(app::forecast_contraction(2 * kVertices, 2 * kArcs, singles(1)).cost_ms, 2 * one.cost_ms, 1e-9);
  app::ContractionWorkload batched;
  batched.batched_queries = 10;
  EXPECT_NEAR(app::forecast_contraction(kVertices, kArcs, batched).saving_ms,
              10 * app::kBatchedSavingNsPerVertex * kVertices * 1e-6, 1e-9);
  EXPECT_EQ(app::forecast_contraction(kVertices, kArcs, {}).saving_ms, 0.0);
}

TEST(AppContractionForecast, OneQueryDoesNotPayManyDo) {
  // The break-even count of single solves on a road graph of DE's size.
  const double break_even = app::kContractNsPerArc * kArcs / (app::kSingleSavingNsPerVertex * kVertices);
  EXPECT_FALSE(app::forecast_contraction(kVertices, kArcs, singles(1)).pays());
  EXPECT_FALSE(app::forecast_contraction(kVertices, kArcs, singles(static_cast<std::uint64_t>(break_even))).pays());
  EXPECT_TRUE(app::forecast_contraction(kVertices, kArcs, singles(static_cast<std::uint64_t>(break_even) + 1)).pays());
  EXPECT_TRUE(app::forecast_contraction(kVertices, kArcs, singles(51)).pays());  // --runs 50
  EXPECT_FALSE(app::forecast_contraction(kVertices, kArcs, {}).pays());
}

TEST(AppContractionForecast, DescribeSaysWhichWayAndWhy) {
  const app::ContractionWorkload w = singles(2);
  const std::string no = app::forecast_contraction(kVertices, kArcs, w).describe(w);
  EXPECT_NE(no.find("2 solves would save ~"), std::string::npos) << no;
  EXPECT_NE(no.find(" but ~"), std::string::npos) << no;
  EXPECT_NE(no.find("predicted"), std::string::npos) << no;
  const app::ContractionWorkload many = singles(100);
  const std::string yes = app::forecast_contraction(kVertices, kArcs, many).describe(many);
  EXPECT_NE(yes.find(" against ~"), std::string::npos) << yes;
  app::ContractionWorkload mixed;
  mixed.single_queries = 3;
  mixed.batched_queries = 64;
  const std::string both = app::forecast_contraction(kVertices, kArcs, mixed).describe(mixed);
  EXPECT_NE(both.find("67 solves (64 batched)"), std::string::npos) << both;
}
