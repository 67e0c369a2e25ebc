#include "graph/atomic_file.hpp"
#include "app/json_report.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

#include "graph/error.hpp"
#include "sssp/auto_strategy.hpp"

#include "sssp_git_commit.h"  // generated at build time (cmake/GitCommit.cmake)

namespace app {

namespace {

using nlohmann::json;

template <class T>
json optional_json(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json string_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json plan_json(const std::optional<sssp::ExecutionPlan>& plan) {
  if (!plan) return nullptr;
  const sssp::ExecutionPlan& p = *plan;
  json regimes = json::array();
  for (const sssp::Regime r : p.regimes) regimes.push_back(sssp::to_string(r));
  return {{"vertex_order", sssp::to_string(p.vertex_ordering)},
          {"load_balance", sssp::to_string(p.load_balance)},
          {"heavy_arc_share", p.heavy_arc_share},
          {"merge_path_arc_bits", p.merge_path_arc_bits},
          {"single_block_loop", p.single_block_loop},
          {"skewed", p.skewed},
          {"cluster_loop", p.cluster_loop},
          {"cluster_local_steps", p.cluster_local_steps},
          {"narrow_max_arcs", p.narrow_max_arcs},
          {"batch_narrow_max_arcs", p.batch_narrow_max_arcs},
          {"resident", p.resident},
          {"resident_layout", p.resident ? json(sssp::to_string(p.resident_layout)) : json(nullptr)},
          {"resident_local_steps", p.resident_local_steps},
          {"persistent_grid", p.persistent_grid},
          {"medium_grid", p.medium_grid},
          {"regimes", regimes},
          {"notes", p.notes}};
}

json auto_strategy_json(const AutoStrategyInfo& a) {
  json statistics = nullptr;
  if (a.shape) {
    const sssp::GraphShape& s = *a.shape;
    statistics = {{"mean_degree", s.mean_degree},
                  {"max_degree", s.max_degree},
                  {"degree_cv", s.degree_cv},
                  {"isolated_share", s.isolated_share},
                  {"degree_sampled", s.degree_sampled},
                  {"hop_estimate", s.hop_estimate},
                  {"hop_exact", s.hop_exact},
                  {"bfs_levels", s.bfs_levels},
                  {"bfs_arcs_scanned", s.bfs_arcs_scanned}};
  }
  return {{"chosen", a.chosen},
          {"reason", a.reason},
          {"source", a.source},
          {"measure_ms", a.shape ? json(a.measure_ms) : json(nullptr)},
          {"statistics", statistics},
          {"thresholds",
           {{"max_hops_for_bellman_ford", sssp::kMaxHopsForBellmanFord},
            {"min_degree_cv_for_bellman_ford", sssp::kMinDegreeCvForBellmanFord}}}};
}

}  // namespace

std::string tool_version() {
#ifdef SSSP_VERSION
  return SSSP_VERSION;
#else
  return "0.1.0";
#endif
}

std::string git_commit() { return SSSP_GIT_COMMIT; }

json to_json(const AppOptions& options, const RunSummary& run) {
  json j;
  j["schema"] = kJsonSchema;
  j["tool"] = {{"name", "sssp"}, {"version", tool_version()}, {"git_commit", git_commit()}};
  j["command_line"] = options.command_line;

  const DeviceInfo& d = run.device;
  json gpu = nullptr;
  if (d.gpu) {
    const sssp::GpuIdentity& g = *d.gpu;
    gpu = {{"name", g.name},
           {"compute_capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor)},
           {"multiprocessors", g.multiprocessors},
           {"memory_bytes", g.memory_bytes},
           {"driver", string_or_null(g.driver)},
           {"cuda_driver", g.cuda_driver},
           {"cuda_runtime", g.cuda_runtime}};
  }
  j["device"] = {{"requested", d.requested},    {"kind", d.kind},
                 {"description", d.description}, {"gpu", gpu}, {"note", string_or_null(d.note)},
                 {"cpu_threads", d.cpu_threads}, {"upload_ms", optional_json(d.upload_ms)},
                 {"gpu_bytes", d.gpu_bytes ? json(*d.gpu_bytes) : json(nullptr)},
                 {"gpu_graph_bytes", d.gpu_graph_bytes ? json(*d.gpu_graph_bytes) : json(nullptr)},
                 {"host_peak_bytes", d.host_peak_bytes},
                 {"load_balance", string_or_null(d.load_balance)},
                 {"heavy_arc_share", d.load_balance.empty() ? json(nullptr) : json(d.heavy_arc_share)},
                 {"vertex_order", string_or_null(d.vertex_order)},
                 {"reorder_ms", d.vertex_order.empty() ? json(nullptr) : json(d.reorder_ms)},
                 {"plan", plan_json(d.plan)}};

  const GraphInfo& g = run.graph;
  j["graph"] = {{"source", g.source},
                {"generated", g.generated},
                {"format", g.format},
                {"vertices", g.vertices},
                {"arcs", g.arcs},
                {"weight_type", g.weight_type},
                {"weight_rule", g.weight_rule},
                {"file_has_weights", g.file_has_weights},
                {"id_base", g.id_base},
                {"undirected", g.undirected},
                {"input_entries", g.input_entries},
                {"self_loops_dropped", g.self_loops_dropped},
                {"duplicates_dropped", g.duplicates_dropped},
                {"file_bytes", g.file_bytes},
                {"load_ms", {{"parse", g.parse_ms}, {"build", g.build_ms}, {"total", g.total_ms}}},
                {"from_cache", g.from_cache},
                {"cache_written", g.cache_written},
                {"cache_saved_ms", g.cache_saved_ms}};

  json o;
  o["strategies"] = run.strategies;
  o["strategy_all"] = options.strategy_all;
  o["strategy_auto"] =
      std::find(options.strategies.begin(), options.strategies.end(), Algorithm::Auto) != options.strategies.end();
  o["delta"] = options.delta_auto ? json("auto") : json(options.delta);
  o["delta_used"] = run.delta.value;
  o["delta_auto_value"] = run.delta.auto_value;
  o["delta_auto_rule"] = run.delta.auto_rule;
  o["delta_cpu_strategies"] = optional_json(run.delta.cpu_auto_value);
  o["delta_sweep"] = run.delta.sweep.empty() ? json(nullptr) : json(run.delta.sweep);
  o["buckets"] = options.buckets;
  o["runs"] = options.runs;
  o["warmup_runs"] = 1;
  o["seed"] = options.seed;
  o["weights"] = options.weights;
  o["sources"] = run.sources;
  o["random_sources"] = options.random_sources ? json(options.random_sources) : json(nullptr);
  o["validate"] = options.validate;
  o["predecessors"] = options.predecessors;
  o["path_to"] = optional_json(options.path_to);
  o["output"] = string_or_null(options.output_path);
  o["threads"] = options.threads;
  o["gpu_memory_limit_bytes"] =
      options.gpu_memory_limit_bytes ? json(options.gpu_memory_limit_bytes) : json(nullptr);
  o["batch"] = options.batch == 0 ? json("auto") : json(options.batch);
  o["targets"] = options.targets.empty() ? json(nullptr) : json(options.targets);
  o["targets_file"] = string_or_null(options.targets_file.path);
  o["sources_file"] = string_or_null(options.sources_file.path);
  j["options"] = o;

  json batched_strategies = json::array();
  std::optional<std::uint32_t> batch_size;
  for (const BatchRecord& b : run.batches) {
    if (std::find(batched_strategies.begin(), batched_strategies.end(), b.strategy) == batched_strategies.end())
      batched_strategies.push_back(b.strategy);
    batch_size = b.batch_size;
  }
  j["batch"] = {{"batched", !run.batches.empty()},
                {"strategies", batched_strategies},
                {"size", optional_json(batch_size)},
                {"reason", run.batch_reason}};
  json batches = json::array();
  for (const BatchRecord& b : run.batches) {
    batches.push_back({{"strategy", b.strategy},
                       {"device", b.device},
                       {"solver", b.solver},
                       {"delta", optional_json(b.delta)},
                       {"sources", b.sources},
                       {"batch_size", b.batch_size},
                       {"calls", b.calls},
                       {"solve_ms",
                        {{"median", b.time.median_ms}, {"min", b.time.min_ms}, {"max", b.time.max_ms},
                         {"runs", b.solve_ms}}},
                       {"per_source_ms", b.per_source_ms},
                       {"sources_per_second", b.sources_per_second},
                       {"mteps", b.mteps},
                       {"reached_arcs", b.reached_arcs},
                       {"sources_per_launch", optional_json(b.sources_per_launch)},
                       {"solved_together", optional_json(b.solved_together)},
                       {"finished_alone", optional_json(b.finished_alone)},
                       {"resident", optional_json(b.resident)},
                       {"threads", optional_json(b.threads)},
                       {"validation", {{"checked", b.validated}, {"failed", b.failed}}}});
  }
  j["batches"] = batches;
  j["auto_strategy"] = run.auto_strategy ? auto_strategy_json(*run.auto_strategy) : json(nullptr);
  if (run.contraction) {
    const ContractionInfo& c = *run.contraction;
    j["contraction"] = {{"used", c.used},
                        {"reason", c.reason},
                        {"core_vertices", c.core_vertices},
                        {"core_arcs", c.core_arcs},
                        {"shortcuts", c.shortcuts},
                        {"tree_vertices", c.tree_vertices},
                        {"chain_vertices", c.chain_vertices},
                        {"ms", c.ms},
                        {"core_on_host", c.core_on_host},
                        {"from_cache", c.from_cache},
                        {"cache", c.cache.empty() ? json(nullptr) : json(c.cache)},
                        {"hierarchy", c.hierarchy ? json{{"ms", c.hierarchy_ms},
                                                         {"from_cache", c.hierarchy_from_cache},
                                                         {"shortcuts", c.hierarchy_shortcuts},
                                                         {"levels", c.hierarchy_levels}}
                                                   : json(nullptr)}};
  } else {
    j["contraction"] = nullptr;
  }

  json results = json::array();
  for (const RunRecord& r : run.records) {
    results.push_back({{"strategy", r.strategy},
                       {"device", r.device},
                       {"source", r.source},
                       {"delta", optional_json(r.delta)},
                       {"delta_used", optional_json(r.delta_used)},
                       {"solve_ms",
                        {{"median", r.time.median_ms}, {"min", r.time.min_ms}, {"max", r.time.max_ms},
                         {"runs", r.solve_ms}}},
                       {"mteps", r.mteps},
                       {"work_ratio", r.work_ratio},
                       {"relaxations", r.relaxations},
                       {"reached_vertices", r.reached_vertices},
                       {"reached_arcs", r.reached_arcs},
                       {"rounds", optional_json(r.rounds)},
                       {"rounds_narrow", optional_json(r.rounds_narrow)},
                       {"rounds_wide", optional_json(r.rounds_wide)},
                       {"us_per_round", optional_json(r.us_per_round)},
                       {"local_steps", optional_json(r.local_steps)},
                       {"us_per_step", optional_json(r.us_per_step)},
                       {"resident", optional_json(r.resident)},
                       {"iterations", optional_json(r.rounds)},  // "rounds" under its old name
                       {"buckets_processed", optional_json(r.buckets_processed)},
                       {"full_splits", optional_json(r.full_splits)},
                       {"full_splits_in_block", optional_json(r.full_splits_in_block)},
                       {"full_splits_in_grid", optional_json(r.full_splits_in_grid)},
                       {"predecessors", r.has_predecessors},
                       {"validation", to_string(r.validation)},
                       {"mismatches", r.mismatches},
                       {"batched", r.batched}});
  }
  j["results"] = results;

  json summary = json::array();
  for (const SummaryRow& s : run.summary) {
    summary.push_back({{"strategy", s.strategy},
                       {"device", s.device},
                       {"delta", optional_json(s.delta)},
                       {"sources", s.sources},
                       {"solve_ms", s.solve_ms},
                       {"mteps", s.mteps},
                       {"work_ratio", s.work_ratio},
                       {"rounds", optional_json(s.rounds)},
                       {"rounds_narrow", optional_json(s.rounds_narrow)},
                       {"rounds_wide", optional_json(s.rounds_wide)},
                       {"us_per_round", optional_json(s.us_per_round)},
                       {"iterations", optional_json(s.rounds)},  // "rounds" under its old name
                       {"buckets_processed", optional_json(s.buckets_processed)},
                       {"speedup_vs_cpu_delta_stepping", optional_json(s.speedup)}});
  }
  j["summary"] = summary;

  if (run.path) {
    const PathInfo& p = *run.path;
    json distance = nullptr;
    if (p.reachable)
      distance = g.weight_type == "uint32" ? json(std::stoull(p.distance)) : json(p.distance_value);
    j["path"] = {{"source", p.source},
                 {"target", p.target},
                 {"reachable", p.reachable},
                 {"distance", distance},
                 {"vertices", p.vertices.empty() ? json(nullptr) : json(p.vertices)},
                 {"note", string_or_null(p.note)}};
  } else {
    j["path"] = nullptr;
  }

  const bool performed = options.validate;
  j["validation"] = {{"performed", performed},
                     {"passed", performed ? json(run.validation_problems == 0) : json(nullptr)},
                     {"problems", run.validation_problems}};
  return j;
}

namespace {

// e.what() is "PATH: reason" (line 0); keep the reason, say what failed.
std::runtime_error cannot_write(const std::string& path, const graph::InputError& e) {
  const std::string what = e.what();
  const std::string reason = what.compare(0, path.size() + 2, path + ": ") == 0 ? what.substr(path.size() + 2) : what;
  return std::runtime_error(path + ": cannot write (" + reason + ")");
}

}  // namespace

StagedFile::StagedFile(const std::string& path, const std::string& content) : path_(path) {
  try {
    file_.emplace(path);
    file_->write(content);
    file_->finish();
  } catch (const graph::InputError& e) {
    throw cannot_write(path_, e);
  }
}

void StagedFile::commit() {
  try {
    file_->commit();
  } catch (const graph::InputError& e) {
    throw cannot_write(path_, e);
  }
}

void write_file_atomically(const std::string& path, const std::string& content) {
  StagedFile(path, content).commit();
}

}  // namespace app
