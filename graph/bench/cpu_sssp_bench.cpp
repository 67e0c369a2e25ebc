// cpu_sssp_bench: the CPU baselines side by side -- Dijkstra (one thread) and
// parallel delta-stepping at several thread counts -- on generated graphs and
// graph files. This is the "16-core CPU" column the GPU solver must beat
// (DESIGN.md), measured the way GAP measures its sssp kernel: wall time of the
// whole solve, allocation of the distance array included (uninitialised, first
// touched by the solver's threads, as GAP's pvector is), after a warm-up.
//
//   cpu_sssp_bench --generate rmat:16:16,grid:256:256 --threads 1,2,16 --runs 5 [--json out.json]
//
// Options: the common ones of every front end (src/cli/common_options.hpp)
// and --sweep (cpu_sssp_bench_options.hpp).
//
// Per graph, thread count and delta it prints the median solve time, MTEPS
// (graph/metrics.hpp), the speedup over Dijkstra, the delta used, the phases
// (buckets processed) and the work ratio, then the best delta per thread
// count; every delta-stepping result is checked against Dijkstra's. The
// deltas of one thread count run interleaved (a warm-up round, then --runs
// rounds of every delta), so that load from other processes on a shared
// machine does not pick the winner.
//
// Deltas: a CPU baseline is only honest with a delta that suits the CPU. The
// best delta differs by orders of magnitude between power-law graphs (GAP
// runs kron and urand with delta 2 for weights 1..255, i.e. c ~ 0.5 in the
// formula below) and road graphs (GAP: 50000 on USA roads, c ~ 40), so by
// default the bench tries auto_delta(g, c) = c * mean weight / mean degree for
// several c and reports the best, as a tuned GAP run would, next to the CPU's
// own rule, auto_delta_cpu(g) (row "cpu-auto"): the "auto" line gives its time
// as a multiple of the best delta's. --sweep tries c = 1/32 .. 256 in steps of
// 2 instead of the default few.
#include <omp.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "cli/common_options.hpp"
#include "cpu_sssp_bench_options.hpp"
#include "graph/error.hpp"
#include "graph/generators.hpp"
#include "graph/load.hpp"
#include "graph/metrics.hpp"
#include "graph/random_sources.hpp"
#include "graph/reference.hpp"
#include "graph/timing.hpp"
#include "graph/verify.hpp"
#include "graph/weights.hpp"

using nlohmann::json;

namespace {

struct BenchOptions {
  std::vector<int> threads;
  int runs = 5;
  std::uint64_t seed = 1;
  std::vector<double> deltas;    // explicit bucket widths; empty: auto_delta(g, c) for each c
  std::vector<double> delta_cs;  // the c values of auto_delta to try
  bool cpu_auto = true;          // also auto_delta_cpu(g) (with --delta auto)
  std::int64_t source = -1;  // in the graph's own ids; -1: a seeded random vertex with out-arcs
};

// A source outside the graph: exit status 2, like a bad option.
struct BadArgument : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

[[noreturn]] void bad_argument(const std::string& what) { throw BadArgument(what); }

std::string join(const std::vector<double>& values) {
  std::string text;
  for (const double v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

// A vertex with out-arcs (GAP also picks random non-isolated sources: vertex
// 0 of a permuted R-MAT graph is often isolated), from the picker every front
// end shares (graph/random_sources.hpp); vertex 0 when none has out-arcs.
template <class Weight>
graph::vertex_id pick_source(const graph::Csr<Weight>& g, std::uint64_t seed) {
  if (graph::vertices_with_out_arcs(g.offsets) == 0) return 0;
  return graph::choose_random_sources(g.offsets, 1, seed).front();
}

void print_row(const char* solver, int threads, const std::vector<double>& times_ms, double mteps,
               double speedup, const std::string& delta, const std::string& rule, std::uint64_t phases, double work,
               const std::string& check) {
  const graph::TimingSummary t = graph::summarize_times(times_ms);
  std::printf("  %-15s %7d %10.3f %10.3f %9.1f %8.2fx %10s %8s %9llu %6.2f  %s\n", solver, threads,
              t.median_ms, t.min_ms, mteps, speedup, delta.c_str(),
              rule.c_str(), static_cast<unsigned long long>(phases), work, check.c_str());
}

// The deltas to try: explicit values, or auto_delta_cpu(g) and
// auto_delta(g, c) for each c.
struct DeltaChoice {
  double delta;
  std::string label;  // "cpu-auto", "c=0.5" or "fixed"
};
constexpr const char* kCpuAutoLabel = "cpu-auto";

template <class Weight>
std::vector<DeltaChoice> resolve_deltas(const graph::Csr<Weight>& g, const BenchOptions& options) {
  std::vector<DeltaChoice> out;
  if (!options.deltas.empty()) {
    for (const double d : options.deltas) out.push_back({d, "fixed"});
    return out;
  }
  if (options.cpu_auto) out.push_back({graph::auto_delta_cpu(g), kCpuAutoLabel});
  for (const double c : options.delta_cs) {
    char label[32];
    std::snprintf(label, sizeof(label), "c=%g", c);
    out.push_back({graph::auto_delta(g, c), label});
  }
  return out;
}

template <class Weight>
json bench_graph(const std::string& name, const graph::Csr<Weight>& g, graph::vertex_id id_base,
                 const std::string& weight_rule, double prepare_s, const BenchOptions& options, bool& all_ok) {
  graph::vertex_id source = 0;
  if (options.source >= 0) {
    if (options.source < id_base || static_cast<std::uint64_t>(options.source) - id_base >= g.num_vertices)
      bad_argument("--source " + std::to_string(options.source) + " is not a vertex of " + name);
    source = static_cast<graph::vertex_id>(options.source - id_base);
  } else {
    source = pick_source(g, options.seed);
  }
  const std::vector<DeltaChoice> deltas = resolve_deltas(g, options);

  std::vector<graph::distance_t<Weight>> reference;
  graph::CpuSolveStats dijkstra_stats;
  const auto dijkstra_ms =
      graph::time_runs(options.runs, [&] { reference = graph::dijkstra(g, source, nullptr, &dijkstra_stats); });
  const graph::ReachStats reach = graph::reach_stats(g, reference);
  const double dijkstra_median = graph::median(dijkstra_ms);

  std::printf("\n== %s  (generated or loaded in %.2f s)\n", name.c_str(), prepare_s);
  std::printf("   %u vertices, %llu arcs, %s weights (%s); source %llu (id base %u); reached %llu vertices, "
              "%llu arcs\n",
              g.num_vertices, static_cast<unsigned long long>(g.num_arcs()),
              std::is_same_v<Weight, float> ? "float" : "integer", weight_rule.c_str(),
              static_cast<unsigned long long>(source) + id_base, id_base,
              static_cast<unsigned long long>(reach.reached_vertices),
              static_cast<unsigned long long>(reach.reached_arcs));
  std::printf("  %-15s %7s %10s %10s %9s %9s %10s %8s %9s %6s  %s\n", "solver", "threads", "median_ms", "min_ms",
              "MTEPS", "speedup", "delta", "rule", "phases", "work", "check");
  const double dijkstra_mteps = graph::mteps(reach.reached_arcs, dijkstra_median);
  print_row("dijkstra", 1, dijkstra_ms, dijkstra_mteps, 1.0, "-", "-", dijkstra_stats.phases,
            graph::work_ratio(dijkstra_stats.relaxations, reach.reached_arcs), "reference");

  json record = {{"graph", name},
                 {"vertices", g.num_vertices},
                 {"arcs", g.num_arcs()},
                 {"weight_type", std::is_same_v<Weight, float> ? "float" : "integer"},
                 {"weights", weight_rule},
                 {"source", static_cast<std::uint64_t>(source) + id_base},
                 {"id_base", id_base},
                 {"reached_vertices", reach.reached_vertices},
                 {"reached_arcs", reach.reached_arcs},
                 {"prepare_s", prepare_s},
                 {"dijkstra", {{"times_ms", dijkstra_ms}, {"median_ms", dijkstra_median}, {"mteps", dijkstra_mteps}}},
                 {"delta_stepping", json::array()},
                 {"best_delta_stepping", json::array()},
                 {"auto_delta_cpu", json::array()}};

  for (const int threads : options.threads) {
    double best_ms = 0, auto_ms = 0;
    const DeltaChoice* best = nullptr;
    const DeltaChoice* auto_choice = nullptr;
    // Interleaved: each round (the first a warm-up) runs every delta once, so
    // a load change on a shared machine hits all deltas alike instead of
    // deciding which one looks best. Every result is checked.
    std::vector<std::vector<double>> all_times(deltas.size());
    std::vector<graph::CpuSolveStats> all_stats(deltas.size());
    std::vector<std::uint64_t> all_mismatches(deltas.size(), 0);
    for (int round = -1; round < options.runs; ++round) {
      for (std::size_t i = 0; i < deltas.size(); ++i) {
        // Timed as GAP times its kernel, distance array included.
        std::unique_ptr<graph::distance_t<Weight>[]> buffer;
        const double ms = graph::wall_ms([&] {
          buffer = graph::delta_stepping_new_array(g, source, deltas[i].delta, threads, &all_stats[i]);
        });
        if (round >= 0) all_times[i].push_back(ms);
        const std::vector<graph::distance_t<Weight>> dist(buffer.get(), buffer.get() + g.num_vertices);
        all_mismatches[i] =
            std::max(all_mismatches[i], graph::find_distance_mismatches<Weight>(reference, dist, 0).count);
      }
    }
    for (std::size_t i = 0; i < deltas.size(); ++i) {
      const DeltaChoice& choice = deltas[i];
      const std::vector<double>& times_ms = all_times[i];
      const graph::CpuSolveStats& stats = all_stats[i];
      const std::uint64_t mismatches = all_mismatches[i];
      all_ok = all_ok && mismatches == 0;
      const double median_ms = graph::median(times_ms);
      const double rate = graph::mteps(reach.reached_arcs, median_ms);
      const double work = graph::work_ratio(stats.relaxations, reach.reached_arcs);
      char delta_text[32];
      std::snprintf(delta_text, sizeof(delta_text), "%.6g", choice.delta);
      print_row("delta-stepping", threads, times_ms, rate, dijkstra_median / median_ms, delta_text,
                choice.label, stats.phases, work,
                mismatches == 0 ? "ok" : "MISMATCH (" + std::to_string(mismatches) + " vertices)");
      record["delta_stepping"].push_back({{"threads", threads},
                                          {"delta", choice.delta},
                                          {"delta_rule", choice.label},
                                          {"times_ms", times_ms},
                                          {"median_ms", median_ms},
                                          {"mteps", rate},
                                          {"speedup_over_dijkstra", dijkstra_median / median_ms},
                                          {"phases", stats.phases},
                                          {"relaxations", stats.relaxations},
                                          {"work_ratio", work},
                                          {"mismatches", mismatches}});
      if (!best || median_ms < best_ms) {
        best = &choice;
        best_ms = median_ms;
      }
      if (choice.label == kCpuAutoLabel) {
        auto_choice = &choice;
        auto_ms = median_ms;
      }
    }
    if (deltas.size() > 1) {
      std::printf("  best at %2d threads: %.3f ms, %.1f MTEPS, %.2fx Dijkstra, delta %.6g (%s)\n", threads, best_ms,
                  graph::mteps(reach.reached_arcs, best_ms), dijkstra_median / best_ms, best->delta,
                  best->label.c_str());
    }
    if (auto_choice && deltas.size() > 1) {
      std::printf("  auto at %2d threads: %.3f ms, %.2fx Dijkstra, delta %.6g (auto_delta_cpu) = %.2fx the best "
                  "delta's time\n",
                  threads, auto_ms, dijkstra_median / auto_ms, auto_choice->delta, auto_ms / best_ms);
      record["auto_delta_cpu"].push_back({{"threads", threads},
                                          {"delta", auto_choice->delta},
                                          {"median_ms", auto_ms},
                                          {"speedup_over_dijkstra", dijkstra_median / auto_ms},
                                          {"best_delta", best->delta},
                                          {"best_median_ms", best_ms},
                                          {"time_over_best", auto_ms / best_ms}});
    }
    record["best_delta_stepping"].push_back({{"threads", threads},
                                             {"median_ms", best_ms},
                                             {"mteps", graph::mteps(reach.reached_arcs, best_ms)},
                                             {"speedup_over_dijkstra", dijkstra_median / best_ms},
                                             {"delta", best->delta},
                                             {"delta_rule", best->label}});
  }
  std::fflush(stdout);
  return record;
}

}  // namespace

int main(int argc, char** argv) {
  const int max_threads = omp_get_max_threads();
  try {
    const cpu_bench::CpuBenchOptions parsed = cpu_bench::parse_cpu_bench_options(argc, argv, max_threads);
    if (parsed.help) {
      std::cout << cpu_bench::cpu_bench_help(max_threads) << "\n";
      return 0;
    }
    const cli::CommonOptions& common = parsed.common;
    BenchOptions options;
    options.threads = parsed.threads;
    options.runs = static_cast<int>(common.runs);
    options.seed = common.seed;
    options.deltas = common.deltas;
    options.delta_cs = common.delta_cs;
    if (!common.sources.empty()) options.source = static_cast<std::int64_t>(common.sources.front());
    const graph::WeightRule rule = graph::WeightRule::parse(common.weights, options.seed);
    std::vector<graph::GeneratorSpec> specs;
    for (const auto& spec : common.generate) specs.push_back(graph::GeneratorSpec::parse(spec));

    const std::string delta_text = options.deltas.empty() ? "auto" : join(options.deltas);
    std::printf("cpu_sssp_bench: %d hardware threads available (omp_get_max_threads), runs %d after one warm-up, "
                "delta %s%s%s\n",
                max_threads, options.runs, delta_text.c_str(), options.deltas.empty() ? " (auto_delta_cpu) and c in " : "",
                options.deltas.empty() ? join(options.delta_cs).c_str() : "");
    for (const int threads : options.threads)
      if (threads > max_threads)
        std::printf("warning: %d threads requested but only %d available: oversubscribed\n", threads, max_threads);

    bool all_ok = true;
    json report = {{"benchmark", "cpu_sssp_bench"},
                   {"max_threads", max_threads},
                   {"runs", options.runs},
                   {"seed", options.seed},
                   {"graphs", json::array()}};
    for (const auto& spec : specs) {
      const auto start = std::chrono::steady_clock::now();
      const graph::IntCsr g = graph::generate(spec, rule, options.seed);
      const double prepare_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      report["graphs"].push_back(
          bench_graph(spec.describe(), g, 0, rule.for_pattern_file().describe(), prepare_s, options, all_ok));
    }
    for (const cli::GraphFile& file : common.graphs) {
      graph::LoadOptions load_options;
      load_options.undirected = common.undirected;
      load_options.weights = graph::WeightRule::parse(file.weights, options.seed);  // --weights or FILE@RULE
      load_options.progress = false;
      graph::LoadReport load_report;
      const graph::AnyCsr any = graph::load_graph(file.path, load_options, &load_report);
      std::visit(
          [&](const auto& g) {
            report["graphs"].push_back(bench_graph(file.path, g, load_report.id_base, load_report.weight_rule,
                                                   load_report.total_seconds, options, all_ok));
          },
          any);
    }
    if (!common.json_path.empty()) {
      std::ofstream out(common.json_path);
      out << report.dump(2) << "\n";
      if (!out) throw std::runtime_error("cannot write " + common.json_path);
    }
    if (!all_ok) {
      // Like sssp_bench and concurrent_sources_bench: exit 3 when a result
      // differed from Dijkstra (the JSON says which), so that bench_sssp.sh
      // tells it from a failure (1) or a bad option (2).
      std::fprintf(stderr, "cpu_sssp_bench: delta-stepping disagreed with Dijkstra\n");
      return 3;
    }
  } catch (const cli::UsageError& e) {
    std::cerr << "cpu_sssp_bench: " << e.what() << "\n(try --help)\n";
    return 2;
  } catch (const graph::InputError& e) {
    std::cerr << "cpu_sssp_bench: " << e.what() << "\n";
    return 2;
  } catch (const BadArgument& e) {
    std::cerr << "cpu_sssp_bench: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "cpu_sssp_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
