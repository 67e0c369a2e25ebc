#include "app/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "app/bench_options.hpp"
#include "app/bench_report.hpp"
#include "app/options.hpp"
#include "graph/error.hpp"
#include "graph/generators.hpp"
#include "graph/load.hpp"
#include "graph/metrics.hpp"
#include "graph/reference.hpp"
#include "graph/timing.hpp"
#include "graph/verify.hpp"
#include "graph/random_sources.hpp"
#include "sssp/auto_strategy.hpp"
#include "sssp/solver.hpp"

namespace app {

namespace {

// Up to K distinct vertices with out-arcs (graph::choose_random_sources, the
// picker of every front end); fewer where fewer qualify; vertex 0 when none does.
template <class Weight>
std::vector<graph::vertex_id> pick_sources(const graph::Csr<Weight>& g, std::uint32_t k, std::uint64_t seed) {
  const auto qualified = static_cast<std::uint32_t>(std::min<std::uint64_t>(k, graph::vertices_with_out_arcs(g.offsets)));
  if (qualified == 0) return {0};
  return graph::choose_random_sources(g.offsets, qualified, seed);
}

// --delta's value; 0: auto.
double fixed_delta_of(const BenchOptions& o) { return o.common.deltas.empty() ? 0.0 : o.common.deltas.front(); }

// "yes", or "NO: N differ, first vertex V (want vs got)" (graph::distances_match).
template <class Weight>
std::string compare(const std::vector<graph::distance_t<Weight>>& want,
                    const std::vector<graph::distance_t<Weight>>& got) {
  const graph::DistanceMismatches m = graph::find_distance_mismatches<Weight>(want, got, 1);
  if (m.none()) return "yes";
  const graph::vertex_id first = m.first.front();
  std::ostringstream s;
  s << "NO: " << m.count << " differ, first vertex " << first << " (" << want[first] << " vs " << got[first] << ")";
  return s.str();
}

template <class Weight>
void bench_delta(const std::string& name, const graph::Csr<Weight>& g, double load_s, const BenchOptions& o,
                 const std::vector<graph::vertex_id>& sources, double delta, int threads,
                 std::vector<std::vector<graph::distance_t<Weight>>>& reference, std::vector<BenchRow>& rows,
                 std::ostream& err) {
  const double fixed_delta = fixed_delta_of(o);
  err << "== " << name << ": " << g.num_vertices << " vertices, " << g.num_arcs() << " arcs, delta "
            << delta << ", " << sources.size() << " source(s)\n";

  // CPU delta-stepping: the reference distances (once) and the CPU baseline,
  // at the CPU's own delta rule (graph::auto_delta_cpu) unless --delta is
  // given: the GPU's rule (c = 16 or 128) costs the CPU up to 4x.
  // With --cpu-delta-c the CPU runs at its best delta instead: each
  // candidate (the rule and c * mean weight / mean degree for each c) is
  // probed from the first source, and the fastest median wins. The probe runs
  // in interleaved rounds (one solve of every candidate per round, after a
  // warm-up round), so that load changes on the host hit all candidates
  // alike, and it takes more rounds where solves are short: at 16 threads a
  // millisecond solve moves by 15% from one run to the next, and three
  // solves each had picked c = 32 for email-Enron at 2.0 ms where c = 1 takes
  // 1.4 (docs/TUNING.md, "CPU baseline probe").
  // A timed CPU solve allocates its distances inside, as cpu_sssp_bench and
  // GAP do.
  const auto cpu_solve = [&](graph::vertex_id source, double d, graph::CpuSolveStats* stats) {
    return graph::delta_stepping_new_array(g, source, d, threads, stats);
  };
  double cpu_delta = fixed_delta > 0 ? fixed_delta : graph::auto_delta_cpu(g);
  std::string cpu_delta_choice = fixed_delta > 0 ? "given" : "auto_delta_cpu";
  if (o.cpu && fixed_delta <= 0 && !o.cpu_delta_c.empty()) {
    std::vector<std::pair<double, std::string>> candidates{{cpu_delta, cpu_delta_choice}};
    for (const double c : o.cpu_delta_c) {
      std::ostringstream how;
      how << "best of " << o.cpu_delta_c.size() + 1 << ": c=" << c;
      candidates.emplace_back(graph::auto_delta(g, c), how.str());
    }
    candidates.front().second = "best of " + std::to_string(candidates.size()) + ": auto_delta_cpu";
    constexpr int kProbeMinRounds = 5, kProbeMaxRounds = 25;
    constexpr double kProbeBudgetMs = 300;  // of solving, over all rounds and candidates
    std::vector<std::vector<double>> probe_ms(candidates.size());
    double round_ms = 0;
    for (int round = -1; round < kProbeMaxRounds; ++round) {
      if (round >= kProbeMinRounds && (round + 1) * round_ms > kProbeBudgetMs) break;
      double this_round = 0;
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        const double ms = graph::wall_ms([&] { (void)cpu_solve(sources.front(), candidates[i].first, nullptr); });
        this_round += ms;
        if (round >= 0) probe_ms[i].push_back(ms);  // round -1: the warm-up
      }
      if (round >= 0) round_ms = std::max(round_ms, this_round);
    }
    double best_ms = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const double m = graph::median(probe_ms[i]);
      if (best_ms == 0 || m < best_ms) {
        best_ms = m;
        cpu_delta = candidates[i].first;
        cpu_delta_choice = candidates[i].second;
      }
    }
    err << "   cpu delta " << cpu_delta << " (" << cpu_delta_choice << ", probe " << best_ms << " ms)\n";
  }
  std::vector<double> cpu_ms;
  std::uint64_t cpu_relaxations = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    graph::CpuSolveStats stats;
    if (reference.size() <= i) {
      reference.push_back(graph::delta_stepping(g, sources[i], cpu_delta, threads, &stats));  // also the warm-up
    } else if (o.cpu) {
      (void)cpu_solve(sources[i], cpu_delta, &stats);  // warm-up
    }
    if (!o.cpu) continue;
    for (std::uint32_t r = 0; r < o.common.runs; ++r) {
      cpu_ms.push_back(graph::wall_ms([&] { (void)cpu_solve(sources[i], cpu_delta, &stats); }));
      cpu_relaxations += stats.relaxations;
    }
  }
  std::vector<graph::ReachStats> reach;
  for (const auto& d : reference) reach.push_back(graph::reach_stats(g, d));
  std::uint64_t reached_arcs = 0, reached_vertices = 0;
  for (const auto& r : reach) {
    reached_arcs += r.reached_arcs;
    reached_vertices += r.reached_vertices;
  }
  const double mean_reached_arcs = static_cast<double>(reached_arcs) / static_cast<double>(sources.size());

  const std::size_t first_row = rows.size();
  if (o.cpu) {
    BenchRow row;
    row.graph = name;
    row.method = "cpu delta-stepping (" + std::to_string(threads) + " threads)";
    row.vertices = g.num_vertices;
    row.arcs = g.num_arcs();
    row.delta = cpu_delta;
    row.delta_choice = cpu_delta_choice;
    const graph::TimingSummary t = graph::summarize_times(cpu_ms);
    row.median_ms = t.median_ms;
    row.min_ms = t.min_ms;
    row.max_ms = t.max_ms;
    row.mteps = graph::mteps(mean_reached_arcs, row.median_ms);
    row.work_ratio = graph::work_ratio(static_cast<double>(cpu_relaxations) / static_cast<double>(cpu_ms.size()),
                                       mean_reached_arcs);
    row.reached = reached_vertices / sources.size();
    row.valid = "reference";
    row.load_s = load_s;
    rows.push_back(row);
  }

  for (const auto load_balance : o.load_balances) {
    sssp::SolverOptions opts;
    opts.delta = delta;
    opts.buckets = o.common.buckets;
    opts.predecessors = o.common.predecessors;
    opts.load_balance = load_balance;
    sssp::GpuSolver<Weight> solver(g, opts);
    err << "   load balance " << sssp::to_string(solver.load_balance()) << " (asked: " << sssp::to_string(load_balance)
              << "; arcs leaving vertices of out-degree >= 32: " << solver.heavy_arc_share() << ")\n";
    double near_far_ms = 0;
    const std::size_t first_gpu_row = rows.size();
    for (const auto strategy : o.strategies) {
      BenchRow row;
      row.graph = name;
      row.method = sssp::to_string(strategy);
      row.gpu = true;
      row.load_balance = sssp::to_string(solver.load_balance());
      row.heavy_arc_share = solver.heavy_arc_share();
      row.vertex_order = sssp::to_string(solver.vertex_ordering());
      row.reorder_ms = solver.reorder_ms();
      if (o.name_load_balance) row.method += std::string(" [") + sssp::to_string(load_balance) + "]";
      row.vertices = g.num_vertices;
      row.arcs = g.num_arcs();
      row.buckets = (strategy == sssp::Strategy::BucketSort || strategy == sssp::Strategy::BucketMultisplit) ? o.common.buckets : 0;
      row.upload_ms = solver.upload_ms();
      row.load_s = load_s;
      std::vector<double> ms;
      std::uint64_t relaxations = 0, iterations = 0, buckets = 0, narrow = 0, wide = 0, local_steps = 0;
      bool split_known = true;
      std::string valid = "yes";
      try {
        for (std::size_t i = 0; i < sources.size(); ++i) {
          const auto warm = solver.solve(sources[i], strategy);  // warm-up, validated
          const std::string v = compare<Weight>(reference[i], warm.distances);
          if (v != "yes" && valid == "yes") valid = v;
          if (o.common.predecessors) {
            const auto problems = graph::check_shortest_path_tree<Weight>(g, sources[i], warm.distances, warm.predecessors, 0, 1);
            if (!problems.valid() && valid == "yes") valid = "NO: tree: " + problems.examples.front();
          }
          for (std::uint32_t r = 0; r < o.common.runs; ++r) {
            const auto res = solver.solve(sources[i], strategy);
            ms.push_back(res.solve_ms);
            relaxations += res.relaxations;
            iterations += res.iterations;
            narrow += res.rounds_narrow;
            wide += res.rounds_cluster + res.rounds_wide;  // every multi-block round: cluster and grids
            local_steps += res.cluster_local_steps;
            split_known = split_known && res.rounds_narrow + res.rounds_cluster + res.rounds_wide == res.iterations;
            buckets += res.buckets_processed;
            row.delta = res.delta;
          }
        }
      } catch (const std::exception& e) {
        valid = std::string("ERROR: ") + e.what();
      }
      if (!ms.empty()) {
        const double runs = static_cast<double>(ms.size());
        const graph::TimingSummary t = graph::summarize_times(ms);
        row.median_ms = t.median_ms;
        row.min_ms = t.min_ms;
        row.max_ms = t.max_ms;
        row.mteps = graph::mteps(mean_reached_arcs, row.median_ms);
        row.work_ratio = graph::work_ratio(static_cast<double>(relaxations) / runs, mean_reached_arcs);
        row.iterations = static_cast<std::uint64_t>(std::llround(static_cast<double>(iterations) / runs));
        row.split_known = split_known;
        row.rounds_narrow = static_cast<double>(narrow) / runs;
        row.rounds_wide = static_cast<double>(wide) / runs;
        // Mean rounds per run, not the rounded row.iterations: exact per-round cost.
        if (iterations > 0) row.us_per_round = row.median_ms * 1000.0 * runs / static_cast<double>(iterations);
        row.local_steps = static_cast<double>(local_steps) / runs;
        if (iterations > 0)
          row.us_per_step = row.median_ms * 1000.0 * runs / static_cast<double>(iterations + local_steps);
        row.buckets_processed = static_cast<std::uint64_t>(std::llround(static_cast<double>(buckets) / runs));
        row.reached = reached_vertices / sources.size();
        if (strategy == sssp::Strategy::NearFar) near_far_ms = row.median_ms;
      }
      row.valid = valid;
      rows.push_back(row);
      err << "   " << row.method << ": " << row.median_ms << " ms, " << row.iterations << " rounds ("
                << row.us_per_round << " us/round";
      if (row.local_steps > 0) err << "; + " << row.local_steps << " local steps, " << row.us_per_step << " us/step";
      err << "), valid " << row.valid << "\n";
    }
    // Speedups against near-far with the same load balancing.
    for (std::size_t i = first_gpu_row; i < rows.size(); ++i)
      if (rows[i].median_ms > 0 && near_far_ms > 0) rows[i].vs_near_far = near_far_ms / rows[i].median_ms;
  }
  const double cpu_row_ms = o.cpu ? rows[first_row].median_ms : 0;
  for (std::size_t i = first_row; i < rows.size(); ++i)
    if (rows[i].median_ms > 0 && cpu_row_ms > 0) rows[i].vs_cpu = cpu_row_ms / rows[i].median_ms;
}

template <class Weight>
void bench_graph(const std::string& name, const graph::Csr<Weight>& g, double load_s, const BenchOptions& o,
                 std::vector<BenchRow>& rows, std::ostream& err) {
  const double fixed_delta = fixed_delta_of(o);
  const auto sources = pick_sources(g, o.sources, o.common.seed);
  const int threads = o.common.threads.front() > 0 ? o.common.threads.front() : static_cast<int>(std::thread::hardware_concurrency());
  std::vector<std::vector<graph::distance_t<Weight>>> reference;
  // Without --delta-c, the GPU's own rule (as `sssp` applies it), from the
  // shape seen from the first source.
  std::vector<double> cs = o.common.delta_cs;
  if (cs.empty()) {
    const sssp::DeltaChoice rule = sssp::choose_delta_c(sssp::measure_shape(g, sources.front()));
    err << "   gpu delta rule: " << rule.reason << "\n";
    cs.push_back(rule.c);
  }
  for (const double c : cs) {
    const double delta = fixed_delta > 0 ? fixed_delta : graph::auto_delta(g, c);
    bench_delta(name + (cs.size() > 1 ? " c=" + std::to_string(static_cast<int>(c)) : ""), g, load_s, o, sources, delta,
                threads, reference, rows, err);
    if (fixed_delta > 0) break;
  }
}

// A graph's name in the table: the file name, with its own weight rule.
std::string file_label(const cli::GraphFile& file) {
  std::string name = file.path.substr(file.path.find_last_of('/') + 1);
  if (file.own_weights) name += "@" + file.weights;
  return name;
}

int bench(const BenchOptions& o, std::ostream& out, std::ostream& err) {
  std::string why;
  if (!sssp::gpu_available(&why)) {
    err << "sssp bench: no usable GPU (" << why
        << "): it times the GPU strategies; build/graph/cpu_sssp_bench times the CPU's (Dijkstra and "
           "delta-stepping), and sssp --device cpu --strategy all compares them on one graph\n";
    return 1;
  }
  const std::string device = sssp::gpu_description(0);
  err << "device: " << device << "\n";

  // sssp_bench once applied --weights to generated graphs only; a command
  // line from then would now replace the files' weights, so say it.
  if (o.common.weights != "file" && !o.common.graphs.empty())
    err << "sssp bench: note: --weights " << o.common.weights
        << " replaces the weights of the --graph files too, as in every front end (older sssp_bench kept "
           "them); --weights file keeps them\n";

  std::vector<BenchRow> rows;
  try {
    const auto rule = graph::WeightRule::parse(o.common.weights, o.common.seed);
    for (const auto& spec : o.common.generate) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto g = graph::generate(graph::GeneratorSpec::parse(spec), rule, o.common.seed);
      const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      bench_graph(spec, g, load_s, o, rows, err);
    }
    for (const cli::GraphFile& file : o.common.graphs) {
      graph::LoadOptions opts;
      opts.weights = graph::WeightRule::parse(file.weights, o.common.seed);  // --weights, or FILE@RULE
      opts.undirected = o.common.undirected;
      opts.progress = false;
      try {
        const auto t0 = std::chrono::steady_clock::now();
        const auto g = graph::load_graph(file.path, opts);
        const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::visit([&](const auto& csr) { bench_graph(file_label(file), csr, load_s, o, rows, err); }, g);
      } catch (const graph::InputError& e) {
        err << "sssp bench: skipping " << file.path << ": " << e.what() << "\n";
      }
    }
  } catch (const std::exception& e) {
    err << "sssp bench: " << e.what() << "\n";
    out << bench_markdown(rows);
    return 1;
  }
  const std::string table = bench_markdown(rows);
  out << "\ndevice: " << device << "; runs " << o.common.runs << " per source, " << o.sources
      << " source(s) per graph; weights " << o.common.weights << " (file: each file's own, random:1:1000 where a "
      << "graph has none)\n\n"
      << table;
  for (const auto& r : rows)
    if (r.unsteady())
      out << "unsteady: " << r.graph << " " << r.method << ": max " << r.max_ms << " ms is "
          << r.max_ms / r.median_ms << "x the median " << r.median_ms << " ms (more than "
          << BenchRow::kUnsteadyRatio << "x: a stall the median hides)\n";
  if (!o.markdown_path.empty()) std::ofstream(o.markdown_path) << table;
  if (!o.common.json_path.empty()) std::ofstream(o.common.json_path) << bench_json(rows, o, device).dump(2) << "\n";
  bool all_valid = true;
  for (const auto& r : rows) all_valid = all_valid && (r.valid == "yes" || r.valid == "reference");
  return all_valid ? 0 : 3;
}

}  // namespace

int run_bench(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  try {
    const BenchOptions options = parse_bench_options(argc, argv);
    if (options.help) {
      out << bench_help_text();
      return 0;
    }
    return bench(options, out, err);
  } catch (const UsageError& e) {
    err << "sssp bench: " << e.what() << "\n(try --help)\n";
    return 2;
  } catch (const std::exception& e) {
    err << "sssp bench: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace app
