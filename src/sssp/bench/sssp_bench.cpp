// sssp_bench: every GPU strategy and the CPU delta-stepping on the same
// graphs and sources; prints one markdown table (and optionally JSON).
//
//   sssp_bench --generate rmat:20:16 --generate grid:2048:2048
//              --graph ../shared/datasets/road/DE.gr --runs 5   (one line)
//
// Per graph: one or more sources with out-arcs (seeded), delta = auto
// (GPU: 32 * mean weight / mean degree, Davidson et al.; the CPU baseline:
// graph::auto_delta_cpu, its own rule) unless --delta is given,
// a warm-up solve per strategy, then --runs timed solves per source; the
// median solve time (CUDA events, solve only) is reported. Metrics as in
// graph/metrics.hpp: MTEPS = arcs leaving reached vertices / time, work
// ratio = arcs relaxed / arcs leaving reached vertices. Every GPU result is
// checked against the CPU delta-stepping (graph/verify.hpp: exact for integer
// weights, 1e-6 relative for float), which the graph library's tests hold to
// Dijkstra.
#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "graph/error.hpp"
#include "graph/generators.hpp"
#include "graph/load.hpp"
#include "graph/metrics.hpp"
#include "graph/reference.hpp"
#include "graph/timing.hpp"
#include "graph/verify.hpp"
#include "sssp/solver.hpp"
#include "sssp/tree_check.hpp"

namespace po = boost::program_options;

namespace {

struct Config {
  std::vector<std::string> generate, graphs;
  std::string weights = "random:1:1000";
  std::uint64_t seed = 1;
  int runs = 5;
  int sources = 1;
  int cpu_threads = 0;
  bool cpu = true;
  bool predecessors = false;
  double delta = 0;  // 0: auto
  std::vector<double> delta_c{32.0};  // auto delta = c * mean weight / mean degree, one row set per c
  // The CPU baseline's delta: graph::auto_delta_cpu, or with these c values
  // also c * mean weight / mean degree each, the fastest of them on a probe.
  std::vector<double> cpu_delta_c;
  std::vector<sssp::Strategy> strategies = sssp::all_strategies();
  std::uint32_t buckets = 10;
  // Relax load balancing, one solver (and row set) per entry; the rows name
  // it when it was asked for explicitly.
  std::vector<sssp::LoadBalance> load_balances{sssp::LoadBalance::Auto};
  bool name_load_balance = false;
  std::string json_path, markdown_path;
};

struct Row {
  std::string graph, method, load_balance;
  std::string delta_choice;  // CPU rows: how the delta was chosen
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
  double vs_near_far = 0, vs_cpu = 0;
  double upload_ms = 0, load_s = 0;
  std::string valid;
};

template <class Weight>
std::vector<graph::vertex_id> pick_sources(const graph::Csr<Weight>& g, int k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<graph::vertex_id> out;
  for (int tries = 0; static_cast<int>(out.size()) < k && tries < 100000; ++tries) {
    const auto v = static_cast<graph::vertex_id>(rng() % g.num_vertices);
    if (g.out_degree(v) > 0) out.push_back(v);
  }
  if (out.empty()) out.push_back(0);
  return out;
}

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
void bench_delta(const std::string& name, const graph::Csr<Weight>& g, double load_s, const Config& cfg,
                 const std::vector<graph::vertex_id>& sources, double delta, int threads,
                 std::vector<std::vector<graph::distance_t<Weight>>>& reference, std::vector<Row>& rows) {
  std::cerr << "== " << name << ": " << g.num_vertices << " vertices, " << g.num_arcs() << " arcs, delta "
            << delta << ", " << sources.size() << " source(s)\n";

  // CPU delta-stepping: the reference distances (once) and the CPU baseline,
  // at the CPU's own delta rule (graph::auto_delta_cpu) unless --delta is
  // given: the GPU's rule (c = 32) costs the CPU up to 4x.
  // With --cpu-delta-c the CPU runs at its best delta instead: each
  // candidate (the rule and c * mean weight / mean degree for each c) is
  // probed with 3 solves from the first source after a warm-up, and the
  // fastest median wins.
  double cpu_delta = cfg.delta > 0 ? cfg.delta : graph::auto_delta_cpu(g);
  std::string cpu_delta_choice = cfg.delta > 0 ? "given" : "auto_delta_cpu";
  if (cfg.cpu && cfg.delta <= 0 && !cfg.cpu_delta_c.empty()) {
    std::vector<std::pair<double, std::string>> candidates{{cpu_delta, cpu_delta_choice}};
    for (const double c : cfg.cpu_delta_c) {
      std::ostringstream how;
      how << "best of " << cfg.cpu_delta_c.size() + 1 << ": c=" << c;
      candidates.emplace_back(graph::auto_delta(g, c), how.str());
    }
    candidates.front().second = "best of " + std::to_string(candidates.size()) + ": auto_delta_cpu";
    double best_ms = 0;
    for (const auto& [d, how] : candidates) {
      const double m = graph::median(
          graph::time_runs(3, [&] { (void)graph::delta_stepping(g, sources.front(), d, threads, nullptr); }));
      if (best_ms == 0 || m < best_ms) {
        best_ms = m;
        cpu_delta = d;
        cpu_delta_choice = how;
      }
    }
    std::cerr << "   cpu delta " << cpu_delta << " (" << cpu_delta_choice << ", probe " << best_ms << " ms)\n";
  }
  std::vector<double> cpu_ms;
  std::uint64_t cpu_relaxations = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    graph::CpuSolveStats stats;
    if (reference.size() <= i) {
      reference.push_back(graph::delta_stepping(g, sources[i], cpu_delta, threads, &stats));  // also the warm-up
    } else if (cfg.cpu) {
      (void)graph::delta_stepping(g, sources[i], cpu_delta, threads, &stats);  // warm-up
    }
    if (!cfg.cpu) continue;
    for (int r = 0; r < cfg.runs; ++r) {
      cpu_ms.push_back(graph::wall_ms([&] { (void)graph::delta_stepping(g, sources[i], cpu_delta, threads, &stats); }));
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
  if (cfg.cpu) {
    Row row;
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

  for (const auto load_balance : cfg.load_balances) {
    sssp::SolverOptions opts;
    opts.delta = delta;
    opts.buckets = cfg.buckets;
    opts.predecessors = cfg.predecessors;
    opts.load_balance = load_balance;
    sssp::GpuSolver<Weight> solver(g, opts);
    std::cerr << "   load balance " << sssp::to_string(solver.load_balance()) << " (asked: " << sssp::to_string(load_balance)
              << "; arcs leaving vertices of out-degree >= 32: " << solver.heavy_arc_share() << ")\n";
    double near_far_ms = 0;
    const std::size_t first_gpu_row = rows.size();
    for (const auto strategy : cfg.strategies) {
      Row row;
      row.graph = name;
      row.method = sssp::to_string(strategy);
      row.gpu = true;
      row.load_balance = sssp::to_string(solver.load_balance());
      row.heavy_arc_share = solver.heavy_arc_share();
      if (cfg.name_load_balance) row.method += std::string(" [") + sssp::to_string(load_balance) + "]";
      row.vertices = g.num_vertices;
      row.arcs = g.num_arcs();
      row.buckets = (strategy == sssp::Strategy::BucketSort || strategy == sssp::Strategy::BucketMultisplit) ? cfg.buckets : 0;
      row.upload_ms = solver.upload_ms();
      row.load_s = load_s;
      std::vector<double> ms;
      std::uint64_t relaxations = 0, iterations = 0, buckets = 0, narrow = 0, wide = 0;
      bool split_known = true;
      std::string valid = "yes";
      try {
        for (std::size_t i = 0; i < sources.size(); ++i) {
          const auto warm = solver.solve(sources[i], strategy);  // warm-up, validated
          const std::string v = compare<Weight>(reference[i], warm.distances);
          if (v != "yes" && valid == "yes") valid = v;
          if (cfg.predecessors) {
            const auto problems = sssp::check_shortest_path_tree(g, sources[i], warm.distances, warm.predecessors, 1);
            if (!problems.empty() && valid == "yes") valid = "NO: tree: " + problems.front();
          }
          for (int r = 0; r < cfg.runs; ++r) {
            const auto res = solver.solve(sources[i], strategy);
            ms.push_back(res.solve_ms);
            relaxations += res.relaxations;
            iterations += res.iterations;
            narrow += res.rounds_narrow;
            wide += res.rounds_wide;
            split_known = split_known && res.rounds_narrow + res.rounds_wide == res.iterations;
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
        row.buckets_processed = static_cast<std::uint64_t>(std::llround(static_cast<double>(buckets) / runs));
        row.reached = reached_vertices / sources.size();
        if (strategy == sssp::Strategy::NearFar) near_far_ms = row.median_ms;
      }
      row.valid = valid;
      rows.push_back(row);
      std::cerr << "   " << row.method << ": " << row.median_ms << " ms, " << row.iterations << " rounds ("
                << row.us_per_round << " us/round), valid " << row.valid << "\n";
    }
    // Speedups against near-far with the same load balancing.
    for (std::size_t i = first_gpu_row; i < rows.size(); ++i)
      if (rows[i].median_ms > 0 && near_far_ms > 0) rows[i].vs_near_far = near_far_ms / rows[i].median_ms;
  }
  const double cpu_row_ms = cfg.cpu ? rows[first_row].median_ms : 0;
  for (std::size_t i = first_row; i < rows.size(); ++i)
    if (rows[i].median_ms > 0 && cpu_row_ms > 0) rows[i].vs_cpu = cpu_row_ms / rows[i].median_ms;
}

template <class Weight>
void bench_graph(const std::string& name, const graph::Csr<Weight>& g, double load_s, const Config& cfg,
                 std::vector<Row>& rows) {
  const auto sources = pick_sources(g, cfg.sources, cfg.seed);
  const int threads = cfg.cpu_threads > 0 ? cfg.cpu_threads : static_cast<int>(std::thread::hardware_concurrency());
  std::vector<std::vector<graph::distance_t<Weight>>> reference;
  for (const double c : cfg.delta_c) {
    const double delta = cfg.delta > 0 ? cfg.delta : graph::auto_delta(g, c);
    bench_delta(name + (cfg.delta_c.size() > 1 ? " c=" + std::to_string(static_cast<int>(c)) : ""), g, load_s, cfg,
                sources, delta, threads, reference, rows);
    if (cfg.delta > 0) break;
  }
}

std::string markdown(const std::vector<Row>& rows) {
  std::ostringstream s;
  s << "| graph | vertices | arcs | method | delta | median ms | min-max ms | MTEPS | work ratio | rounds "
       "| narrow/wide | us/round | buckets | speedup vs near-far | speedup vs CPU | valid |\n";
  s << "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& r : rows) {
    s << std::fixed;
    s << "| " << r.graph << " | " << r.vertices << " | " << r.arcs << " | " << r.method << " | "
      << std::setprecision(r.delta < 10 ? 3 : 0) << r.delta << " | " << std::setprecision(3) << r.median_ms << " | "
      << r.min_ms << "-" << r.max_ms << " | " << std::setprecision(0) << r.mteps << " | " << std::setprecision(2);
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

nlohmann::json to_json(const std::vector<Row>& rows, const Config& cfg) {
  nlohmann::json out;
  out["device"] = sssp::gpu_description(0);
  out["runs"] = cfg.runs;
  out["sources_per_graph"] = cfg.sources;
  out["weights_for_unweighted"] = cfg.weights;
  out["seed"] = cfg.seed;
  for (const auto& r : rows) {
    out["rows"].push_back({{"graph", r.graph},
                           {"method", r.method},
                           {"load_balance", r.load_balance},
                           {"heavy_arc_share", r.heavy_arc_share},
                           {"vertices", r.vertices},
                           {"arcs", r.arcs},
                           {"delta", r.delta},
                           {"delta_choice", r.delta_choice},
                           {"buckets", r.buckets},
                           {"median_ms", r.median_ms},
                           {"min_ms", r.min_ms},
                           {"max_ms", r.max_ms},
                           {"mteps", r.mteps},
                           {"work_ratio", r.work_ratio},
                           {"iterations", r.iterations},  // relax rounds (the name make_benchmarks_doc.py reads)
                           {"rounds", r.gpu ? nlohmann::json(r.iterations) : nlohmann::json(nullptr)},
                           {"rounds_narrow", r.split_known ? nlohmann::json(r.rounds_narrow) : nlohmann::json(nullptr)},
                           {"rounds_wide", r.split_known ? nlohmann::json(r.rounds_wide) : nlohmann::json(nullptr)},
                           {"us_per_round", r.us_per_round > 0 ? nlohmann::json(r.us_per_round) : nlohmann::json(nullptr)},
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

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  po::options_description desc("sssp_bench options");
  desc.add_options()("help,h", "this help")
      ("generate", po::value(&cfg.generate)->composing(), "rmat:SCALE:EF | grid:ROWS:COLS | urand:N:DEG (repeatable)")
      ("graph", po::value(&cfg.graphs)->composing(), "graph file (.mtx, .gr, .el; repeatable)")
      ("weights", po::value(&cfg.weights), "weights for generated graphs and files without weights")
      ("seed", po::value(&cfg.seed), "seed for weights and sources")
      ("runs", po::value(&cfg.runs), "timed solves per source (after one warm-up)")
      ("sources", po::value(&cfg.sources), "random sources (with out-arcs) per graph")
      ("cpu-threads", po::value(&cfg.cpu_threads), "threads of the CPU delta-stepping (0: all)")
      ("no-cpu", "skip timing the CPU delta-stepping (it still provides the reference)")
      ("cpu-delta-c", po::value<std::string>(),
       "comma-separated c values: the CPU baseline runs at the fastest of auto_delta_cpu and "
       "c * mean weight / mean degree for each c (a short probe per graph)")
      ("predecessors", "also compute and check shortest-path trees")
      ("delta", po::value(&cfg.delta), "bucket width (default: auto)")
      ("buckets", po::value(&cfg.buckets), "buckets of the bucketing strategies")
      ("delta-c", po::value<std::string>(), "comma-separated c values for auto delta (default 32): a sweep")
      ("strategies", po::value<std::string>(), "comma-separated strategies (default: all)")
      ("load-balance", po::value<std::string>(),
       "comma-separated relax load balancing: auto, three-stage, binned, merge-path (default: auto); several: one row set each")
      ("json", po::value(&cfg.json_path), "write all rows as JSON here")
      ("markdown", po::value(&cfg.markdown_path), "write the table here too");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "sssp_bench: " << e.what() << "\n" << desc;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc;
    return 0;
  }
  cfg.cpu = vm.count("no-cpu") == 0;
  try {
    auto split = [](const std::string& text) {
      std::vector<std::string> parts;
      std::stringstream in(text);
      for (std::string item; std::getline(in, item, ',');) parts.push_back(item);
      return parts;
    };
    if (vm.count("delta-c")) {
      cfg.delta_c.clear();
      for (const auto& c : split(vm["delta-c"].as<std::string>())) cfg.delta_c.push_back(std::stod(c));
    }
    if (vm.count("cpu-delta-c"))
      for (const auto& c : split(vm["cpu-delta-c"].as<std::string>())) {
        const double v = std::stod(c);
        if (!(v > 0)) throw std::invalid_argument("--cpu-delta-c: values must be positive, got " + c);
        cfg.cpu_delta_c.push_back(v);
      }
    if (vm.count("load-balance")) {
      cfg.load_balances.clear();
      for (const auto& name : split(vm["load-balance"].as<std::string>()))
        cfg.load_balances.push_back(sssp::parse_load_balance(name));
      cfg.name_load_balance = true;
    }
    if (vm.count("strategies")) {
      cfg.strategies.clear();
      for (const auto& name : split(vm["strategies"].as<std::string>())) cfg.strategies.push_back(sssp::parse_strategy(name));
    }
  } catch (const std::exception& e) {
    std::cerr << "sssp_bench: " << e.what() << "\n";
    return 2;
  }
  cfg.predecessors = vm.count("predecessors") != 0;
  if (cfg.runs < 1 || cfg.sources < 1) {
    std::cerr << "sssp_bench: --runs and --sources must be at least 1\n";
    return 2;
  }
  std::string why;
  if (!sssp::gpu_available(&why)) {
    std::cerr << "sssp_bench: no usable GPU: " << why << "\n";
    return 1;
  }
  std::cerr << "device: " << sssp::gpu_description(0) << "\n";

  std::vector<Row> rows;
  try {
    const auto rule = graph::WeightRule::parse(cfg.weights, cfg.seed);
    for (const auto& spec : cfg.generate) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto g = graph::generate(graph::GeneratorSpec::parse(spec), rule, cfg.seed);
      const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      bench_graph(spec, g, load_s, cfg, rows);
    }
    for (const auto& spec : cfg.graphs) {
      // FILE or FILE@RULE: files keep their weights ("file": pattern files get
      // random:1:1000); @RULE overrides, e.g. @unit.
      const auto at = spec.find('@');
      const std::string path = spec.substr(0, at);
      graph::LoadOptions opts;
      opts.weights = at == std::string::npos ? graph::WeightRule::parse("file", cfg.seed)
                                             : graph::WeightRule::parse(spec.substr(at + 1), cfg.seed);
      opts.progress = false;
      try {
        const auto t0 = std::chrono::steady_clock::now();
        const auto g = graph::load_graph(path, opts);
        const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const std::string name = spec.substr(spec.find_last_of('/') + 1);
        std::visit([&](const auto& csr) { bench_graph(name, csr, load_s, cfg, rows); }, g);
      } catch (const graph::InputError& e) {
        std::cerr << "sssp_bench: skipping " << spec << ": " << e.what() << "\n";
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "sssp_bench: " << e.what() << "\n";
    std::cout << markdown(rows);
    return 1;
  }
  const std::string table = markdown(rows);
  std::cout << "\ndevice: " << sssp::gpu_description(0) << "; runs " << cfg.runs << " per source, "
            << cfg.sources << " source(s) per graph; weights " << cfg.weights << " where a graph has none\n\n"
            << table;
  if (!cfg.markdown_path.empty()) std::ofstream(cfg.markdown_path) << table;
  if (!cfg.json_path.empty()) std::ofstream(cfg.json_path) << to_json(rows, cfg).dump(2) << "\n";
  bool all_valid = true;
  for (const auto& r : rows) all_valid = all_valid && (r.valid == "yes" || r.valid == "reference");
  return all_valid ? 0 : 3;
}
