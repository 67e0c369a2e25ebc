// --contract auto's cost rule: the chain contraction is a one-time cost on
// the host that each contracted query repays by the rounds it saves, so it
// runs only where this run's queries are predicted to save more than it
// costs. Both are predicted from the graph's size, before contracting
// (docs/TUNING.md, "Contraction cost rule").
#pragma once

#include <cstdint>
#include <string>

namespace app {

// What this run asks of the contraction: the solves that would go through
// it, one source at a time (sources x timed and warm-up runs x deltas x
// strategies) and within batches (sources x runs, each batched strategy).
struct ContractionWorkload {
  std::uint64_t single_queries = 0;
  std::uint64_t batched_queries = 0;
};

struct ContractionForecast {
  double cost_ms = 0;    // predicted: contracting the graph
  double saving_ms = 0;  // predicted: what the workload's queries save together
  bool pays() const { return saving_ms > cost_ms; }
  // "32 queries would save ~9.6 ms against ~14.5 ms to contract" and the like.
  std::string describe(const ContractionWorkload& w) const;
};

// Predicted contraction cost per arc and saving per query and vertex of a
// road graph (H200 host, 16 cores; docs/TUNING.md).
inline constexpr double kContractNsPerArc = 70.0;
inline constexpr double kSingleSavingNsPerVertex = 20.0;
inline constexpr double kBatchedSavingNsPerVertex = 2.0;

ContractionForecast forecast_contraction(std::uint64_t vertices, std::uint64_t arcs, const ContractionWorkload& w);

}  // namespace app
