// The one run harness every solver goes through (GAP's BenchmarkKernel idea):
// a warm-up run, N timed runs, reach statistics and the metrics, so a solver
// adapter only says how to solve once.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "app/report.hpp"
#include "graph/csr.hpp"
#include "graph/metrics.hpp"
#include "graph/types.hpp"

namespace app {

// One solve from one source, as any solver reports it.
template <class Weight>
struct SolveOutcome {
  std::vector<graph::distance_t<Weight>> distances;
  std::vector<graph::vertex_id> predecessors;  // empty when the solver computes none
  double solve_ms = 0;                         // the solve only (CUDA events on the GPU)
  std::uint64_t relaxations = 0;
  std::optional<std::uint64_t> rounds;         // relax rounds (GPU strategies)
  std::optional<std::uint64_t> rounds_narrow;  // of them, in the single-block loop; set with rounds_wide
  std::optional<std::uint64_t> rounds_wide;    // and on several blocks (the cluster and the grids)
  std::optional<std::uint64_t> local_steps;    // hops the cluster's blocks took between its barriers
  std::optional<bool> resident;                // GPU: the whole solve ran in the resident block
  std::optional<std::uint64_t> buckets_processed;
  std::optional<std::uint64_t> full_splits;           // bucketing strategies: full splits of the far pile
  std::optional<std::uint64_t> full_splits_in_block;  // of them, split in one block on the device
  std::optional<std::uint64_t> full_splits_in_grid;   // and by a cooperative grid on the device
  std::optional<double> delta;  // the delta the solver used, when it uses one (may differ from the request)
};

template <class Weight>
using SolveFunction = std::function<SolveOutcome<Weight>()>;

// One call of a batched solver on some sources: each source's outcome (their
// solve_ms are 0: the sources share the call) and the call's time.
template <class Weight>
struct BatchOutcome {
  std::vector<SolveOutcome<Weight>> per_source;  // in the order of the call's sources
  double solve_ms = 0;                           // the whole call (CUDA events on the GPU)
  std::optional<std::uint32_t> sources_per_launch;  // GPU: sources one launch took
  std::optional<std::uint32_t> solved_together;     // GPU: sources that outgrew their block, solved as copies
  std::optional<std::uint32_t> finished_alone;      // GPU: sources that outgrew their block, solved one by one
  std::optional<std::uint32_t> resident;            // GPU: sources solved in the resident block, one block each
};

template <class Weight>
using BatchSolveFunction = std::function<BatchOutcome<Weight>(const std::vector<graph::vertex_id>& sources)>;

// Fills `record`'s reach statistics, counters and metrics from the outcome
// of its last timed run (record.solve_ms already set). Throws when the
// solver returned the wrong number of distances.
template <class Weight>
void fill_record(const graph::Csr<Weight>& g, const SolveOutcome<Weight>& outcome, RunRecord& record) {
  if (outcome.distances.size() != g.num_vertices)
    throw std::runtime_error(record.strategy + " returned " + std::to_string(outcome.distances.size()) +
                             " distances for " + std::to_string(g.num_vertices) + " vertices");
  const graph::ReachStats reach = graph::reach_stats(g, outcome.distances);
  record.reached_vertices = reach.reached_vertices;
  record.reached_arcs = reach.reached_arcs;
  record.relaxations = outcome.relaxations;
  record.rounds = outcome.rounds;
  record.rounds_narrow = outcome.rounds_narrow;
  record.rounds_wide = outcome.rounds_wide;
  record.local_steps = outcome.local_steps;
  record.resident = outcome.resident;
  record.buckets_processed = outcome.buckets_processed;
  record.full_splits = outcome.full_splits;
  record.full_splits_in_block = outcome.full_splits_in_block;
  record.full_splits_in_grid = outcome.full_splits_in_grid;
  record.delta_used = outcome.delta;
  record.has_predecessors = !outcome.predecessors.empty();
  finish_record(record);
}

// Calls `solve` once to warm up (first-touch allocation, GPU clocks, caches),
// then `runs` times timed. `identity` carries strategy, device and source; the
// returned record holds the timings, and the reach statistics, relaxations,
// rounds and buckets of the last run, whose outcome is left in *last.
template <class Weight>
RunRecord run_timed(const graph::Csr<Weight>& g, const SolveFunction<Weight>& solve, std::uint32_t runs,
                    RunRecord identity, SolveOutcome<Weight>* last) {
  RunRecord record = std::move(identity);
  SolveOutcome<Weight> outcome = solve();  // warm-up, not timed
  record.solve_ms.clear();
  for (std::uint32_t run = 0; run < runs; ++run) {
    outcome = solve();
    record.solve_ms.push_back(outcome.solve_ms);
  }
  fill_record(g, outcome, record);
  if (last) *last = std::move(outcome);
  return record;
}

}  // namespace app
