#include "app/bench_report.hpp"

#include <iomanip>
#include <sstream>

namespace app {

std::string bench_markdown(const std::vector<BenchRow>& rows) {
  std::ostringstream s;
  s << "| graph | vertices | arcs | method | delta | median ms | min-max ms | MTEPS | work ratio | rounds "
       "| narrow/wide | us/round | buckets | speedup vs near-far | speedup vs CPU | valid |\n";
  s << "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& r : rows) {
    s << std::fixed;
    s << "| " << r.graph << " | " << r.vertices << " | " << r.arcs << " | " << r.method << " | "
      << std::setprecision(r.delta < 10 ? 3 : 0) << r.delta << " | " << std::setprecision(3) << r.median_ms << " | "
      << r.min_ms << "-" << r.max_ms << (r.unsteady() ? " (unsteady)" : "") << " | " << std::setprecision(0) << r.mteps << " | " << std::setprecision(2);
    if (r.work_ratio > 0) s << r.work_ratio; else s << "-";
    s << " | ";
    if (r.gpu) s << r.iterations;
    else s << "-";
    s << " | ";
    if (r.split_known) s << std::setprecision(0) << r.rounds_narrow << "/" << r.rounds_wide;
    else s << "-";
    s << " | ";
    if (r.us_per_round > 0) s << std::setprecision(2) << r.us_per_round;
    else s << "-";
    s << std::setprecision(2) << " | " << r.buckets_processed << " | " << (r.vs_near_far > 0 ? r.vs_near_far : 0.0) << "x | "
      << (r.vs_cpu > 0 ? r.vs_cpu : 0.0) << "x | " << r.valid << " |\n";
  }
  return s.str();
}

nlohmann::json bench_json(const std::vector<BenchRow>& rows, const BenchOptions& options, const std::string& device) {
  nlohmann::json out;
  out["device"] = device;
  out["runs"] = options.common.runs;
  out["sources_per_graph"] = options.sources;
  out["weights"] = options.common.weights;
  // The rule of graphs without weights of their own (generated, pattern
  // files), the figure BENCHMARKS.md prints: "file" gives them random:1:1000.
  out["weights_for_unweighted"] = options.common.weights == "file" ? "random:1:1000" : options.common.weights;
  out["seed"] = options.common.seed;
  for (const auto& r : rows) {
    out["rows"].push_back({{"graph", r.graph},
                           {"method", r.method},
                           {"load_balance", r.load_balance},
                           {"heavy_arc_share", r.heavy_arc_share},
                           {"vertex_order", r.gpu ? nlohmann::json(r.vertex_order) : nlohmann::json(nullptr)},
                           {"reorder_ms", r.gpu ? nlohmann::json(r.reorder_ms) : nlohmann::json(nullptr)},
                           {"vertices", r.vertices},
                           {"arcs", r.arcs},
                           {"delta", r.delta},
                           {"delta_choice", r.delta_choice},
                           {"buckets", r.buckets},
                           {"median_ms", r.median_ms},
                           {"min_ms", r.min_ms},
                           {"max_ms", r.max_ms},
                           {"unsteady", r.unsteady()},
                           {"mteps", r.mteps},
                           {"work_ratio", r.work_ratio},
                           {"iterations", r.iterations},  // relax rounds (the name make_benchmarks_doc.py reads)
                           {"rounds", r.gpu ? nlohmann::json(r.iterations) : nlohmann::json(nullptr)},
                           {"rounds_narrow", r.split_known ? nlohmann::json(r.rounds_narrow) : nlohmann::json(nullptr)},
                           {"rounds_wide", r.split_known ? nlohmann::json(r.rounds_wide) : nlohmann::json(nullptr)},
                           {"us_per_round", r.us_per_round > 0 ? nlohmann::json(r.us_per_round) : nlohmann::json(nullptr)},
                           {"local_steps", r.gpu ? nlohmann::json(r.local_steps) : nlohmann::json(nullptr)},
                           {"us_per_step", r.us_per_step > 0 ? nlohmann::json(r.us_per_step) : nlohmann::json(nullptr)},
                           {"buckets_processed", r.buckets_processed},
                           {"reached_vertices", r.reached},
                           {"speedup_vs_near_far", r.vs_near_far},
                           {"speedup_vs_cpu", r.vs_cpu},
                           {"upload_ms", r.upload_ms},
                           {"load_s", r.load_s},
                           {"valid", r.valid}});
  }
  return out;
}

}  // namespace app
