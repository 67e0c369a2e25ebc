#include "app/contraction_forecast.hpp"

#include <cstdio>

namespace app {

namespace {
std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ms < 10 ? "%.2f" : "%.1f", ms);
  return buf;
}
}  // namespace

ContractionForecast forecast_contraction(std::uint64_t vertices, std::uint64_t arcs, const ContractionWorkload& w) {
  ContractionForecast f;
  f.cost_ms = kContractNsPerArc * static_cast<double>(arcs) * 1e-6;
  const double per_vertex = kSingleSavingNsPerVertex * static_cast<double>(w.single_queries) +
                            kBatchedSavingNsPerVertex * static_cast<double>(w.batched_queries);
  f.saving_ms = per_vertex * static_cast<double>(vertices) * 1e-6;
  return f;
}

std::string ContractionForecast::describe(const ContractionWorkload& w) const {
  const std::uint64_t queries = w.single_queries + w.batched_queries;
  std::string who = std::to_string(queries) + (queries == 1 ? " solve" : " solves");
  if (w.batched_queries > 0 && w.single_queries > 0)
    who += " (" + std::to_string(w.batched_queries) + " batched)";
  else if (w.batched_queries > 0)
    who += " (batched)";
  return who + " would save ~" + ms_text(saving_ms) + " ms " + (pays() ? "against" : "but") + " ~" +
         ms_text(cost_ms) + " ms to contract (both predicted from the graph's size)";
}

}  // namespace app
