// The rows of `sssp bench` and their two forms: the markdown table and the
// JSON that scripts/make_benchmarks_doc.py and plot_results.py read (its
// field names are that contract).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/bench_options.hpp"

namespace app {

struct BenchRow {
  std::string graph, method, load_balance;
  std::string delta_choice;  // CPU rows: how the delta was chosen
  std::string vertex_order;  // GPU rows: the solver's vertex order as resolved ("input", "degree", "rcm")
  double reorder_ms = 0;     // GPU rows: what making that order cost, once per graph
  double heavy_arc_share = 0;
  std::uint64_t vertices = 0, arcs = 0;
  double delta = 0;
  std::uint32_t buckets = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  double mteps = 0, work_ratio = 0;
  std::uint64_t iterations = 0, buckets_processed = 0, reached = 0;  // iterations: relax rounds, mean per run
  bool gpu = false;  // a GPU strategy's row (the CPU row has no rounds)
  // Of the rounds, those of the single-block loop (narrow) and of the grid
  // (wide), means per run; known only when every run's split added up to
  // its rounds (an engine that does not count them reports 0 / 0).
  bool split_known = false;
  double rounds_narrow = 0, rounds_wide = 0;
  double us_per_round = 0;  // median_ms in us / iterations; 0: no rounds (the CPU row)
  // Local steps the cluster's blocks (or the resident block's warps) took
  // between barriers (mean per run; sssp::SolveResult::cluster_local_steps),
  // and the time per step of the whole chain: median_ms in us / (iterations
  // + local_steps).
  double local_steps = 0;
  double us_per_step = 0;
  double vs_near_far = 0, vs_cpu = 0;
  double upload_ms = 0, load_s = 0;
  std::string valid;  // "yes", "reference" (the CPU row), "NO: ...", "ERROR: ..."

  // A measurement whose slowest run took more than kUnsteadyRatio times its
  // median: a stall (a host thread descheduled, a clock change) that the
  // median hides. Flagged in the table and the JSON, never dropped.
  static constexpr double kUnsteadyRatio = 1.5;
  bool unsteady() const { return median_ms > 0 && max_ms > kUnsteadyRatio * median_ms; }
};

std::string bench_markdown(const std::vector<BenchRow>& rows);

nlohmann::json bench_json(const std::vector<BenchRow>& rows, const BenchOptions& options, const std::string& device);

}  // namespace app
