// concurrent_sources_bench: how far does running several single-source
// solves at once get a many-source workload (distance tables, isochrones)
// against solving them together? K sources of one graph are solved
//   sequential  by one GpuSolver, one after another;
//   batched     by one GpuSolver::solve_batch (a block per source in shared
//               launches; sources that outgrow their block are solved
//               together on copies of the graph): a first call (it builds
//               the copies), then the median of three;
//   concurrent  by S GpuSolvers (each its own stream and copy of the graph),
//               each driven by its own host thread, K / S sources apiece;
//   cpu batch   by graph::dijkstra_batch on every core (one source per
//               thread, each a sequential Dijkstra): the CPU baseline of a
//               batch, and the "gpu batch vs cpu batch" line compares it
//               with the batched row (wall times, both with their read-back);
// in the same process, and the table gives the wall time of the whole
// batch (host clock, label read-back included in both), the sum of the
// solves' CUDA-event times, and the ratio. On road graphs every solve runs in
// one single-block kernel (docs/ARCHITECTURE.md, "The device loop"), so S
// such kernels can share the GPU's SMs; solves with persistent grids cannot
// overlap. Every distance array is checked against Dijkstra.
//
//   concurrent_sources_bench [--sources K] [--solvers S,S,...] [--seed N] [--json FILE] GRAPH...
// GRAPH: a file (weights from the file) or gen:SPEC (weights random:1:1000).
// Sources: graph::choose_random_sources (the picker of every front end),
// K or as many vertices as have out-arcs. --json FILE: every row as a
// record per graph (scripts/make_benchmarks_doc.py, "Batched sources").
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <fstream>
#include <memory>
#include <omp.h>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/metrics.hpp"
#include "graph/random_sources.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "sssp/auto_strategy.hpp"
#include "sssp/solver.hpp"
#include "sssp/bench/bench_graphs.hpp"

namespace {

struct Args {
  std::uint32_t sources = 64;
  std::vector<std::uint32_t> solvers{8, 16, 32, 64};
  std::uint64_t seed = 1;
  std::string json_path;
  std::vector<std::string> graphs;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument("concurrent_sources_bench: " + arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--sources") {
      a.sources = static_cast<std::uint32_t>(std::stoul(value()));
    } else if (arg == "--solvers") {
      a.solvers.clear();
      std::stringstream in(value());
      for (std::string s; std::getline(in, s, ',');) a.solvers.push_back(static_cast<std::uint32_t>(std::stoul(s)));
    } else if (arg == "--seed") {
      a.seed = std::stoull(value());
    } else if (arg == "--json") {
      a.json_path = value();
    } else if (arg == "--help" || arg == "-h") {
      std::cout << "usage: concurrent_sources_bench [--sources K] [--solvers S,S,...] [--seed N] [--json FILE] GRAPH...\n";
      std::exit(0);
    } else if (!arg.empty() && arg[0] == '-') {
      throw std::invalid_argument("concurrent_sources_bench: unknown option " + arg);
    } else {
      a.graphs.push_back(arg);
    }
  }
  if (a.sources == 0) throw std::invalid_argument("concurrent_sources_bench: --sources must be at least 1");
  for (const auto s : a.solvers)
    if (s == 0) throw std::invalid_argument("concurrent_sources_bench: --solvers values must be at least 1");
  return a;
}

double wall_ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

using nlohmann::json;

template <class Weight>
json bench(const std::string& name, const graph::Csr<Weight>& g, const Args& a) {
  const auto wanted_sources =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(a.sources, graph::vertices_with_out_arcs(g.offsets)));
  if (wanted_sources == 0) throw std::invalid_argument("concurrent_sources_bench: " + name + " has no vertex with out-arcs");
  const std::vector<graph::vertex_id> sources = graph::choose_random_sources(g.offsets, wanted_sources, a.seed);
  std::vector<std::vector<graph::distance_t<Weight>>> want;
  for (const auto s : sources) want.push_back(graph::dijkstra(g, s));
  sssp::SolverOptions opts;
  // The auto strategy and delta, from one measurement of the graph's shape.
  const sssp::StrategyChoice choice = sssp::choose_strategy(g, sources.front());
  opts.delta = graph::auto_delta(g, sssp::choose_delta_c(choice.shape).c);
  const sssp::Strategy strategy = choice.strategy;
  std::cout << "\n## " << name << ": " << g.num_vertices << " vertices, " << g.num_arcs() << " arcs, "
            << sources.size() << " sources, " << sssp::to_string(strategy) << ", delta " << opts.delta << "\n\n"
            << "| mode | solvers | batch wall ms | sum of solve ms | per source ms | vs sequential | exact |\n"
            << "|---|---:|---:|---:|---:|---:|---|\n";
  json record = {{"graph", name},
                 {"vertices", g.num_vertices},
                 {"arcs", g.num_arcs()},
                 {"sources", sources.size()},
                 {"strategy", sssp::to_string(strategy)},
                 {"delta", opts.delta},
                 {"concurrent", json::array()}};

  // Sequential: one solver, warmed up, then the batch.
  double sequential_ms = 0;
  {
    sssp::GpuSolver<Weight> solver(g, opts);
    (void)solver.solve(sources.front(), strategy);
    bool exact = true;
    double sum = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const auto r = solver.solve(sources[i], strategy);
      sum += r.solve_ms;
      exact = exact && graph::find_distance_mismatches<Weight>(want[i], r.distances, 0).none();
    }
    sequential_ms = wall_ms_since(t0);
    std::cout << "| sequential | 1 | " << std::fixed << std::setprecision(3) << sequential_ms << " | " << sum << " | "
              << sequential_ms / static_cast<double>(sources.size()) << " | 1.00x | " << (exact ? "yes" : "NO")
              << " |\n"
              << std::flush;
    record["sequential"] = {{"wall_ms", sequential_ms}, {"solve_ms_sum", sum}, {"exact", exact}};
  }

  double gpu_batch_ms = 0;
  {
    sssp::GpuSolver<Weight> solver(g, opts);
    // The first call allocates the batch arrays and builds the copies of
    // the graph that later calls reuse: reported on its own.
    auto t0 = std::chrono::steady_clock::now();
    (void)solver.solve_batch(sources, strategy, opts.delta);
    const double first_ms = wall_ms_since(t0);
    std::vector<double> walls;
    sssp::BatchSolveResult<Weight> r;
    for (int run = 0; run < 3; ++run) {
      t0 = std::chrono::steady_clock::now();
      r = solver.solve_batch(sources, strategy, opts.delta);
      walls.push_back(wall_ms_since(t0));
    }
    const double batch_ms = graph::median(walls);
    bool exact = true;
    for (std::size_t i = 0; i < sources.size(); ++i)
      exact = exact && graph::find_distance_mismatches<Weight>(want[i], r.per_source[i].distances, 0).none();
    std::cout << "| batched (" << r.sources_per_launch << " per launch, " << r.solved_together << " together, "
              << r.finished_alone << " alone; first call " << std::fixed << std::setprecision(3) << first_ms
              << " ms) | 1 | "
              << std::fixed << std::setprecision(3) << batch_ms << " | " << r.solve_ms << " | "
              << batch_ms / static_cast<double>(sources.size()) << " | " << std::setprecision(2)
              << sequential_ms / batch_ms << "x | " << (exact ? "yes" : "NO") << " |\n"
              << std::flush;
    gpu_batch_ms = batch_ms;
    record["batched"] = {{"wall_ms", batch_ms},
                         {"solve_ms", r.solve_ms},
                         {"sources_per_launch", r.sources_per_launch},
                         {"solved_together", r.solved_together},
                         {"finished_alone", r.finished_alone},
                         {"first_call_wall_ms", first_ms},
                         {"wall_runs", walls},
                         {"exact", exact}};
  }

  // The CPU's batch: every core, one source per thread; checked like the GPU's.
  {
    const int threads = graph::batch_threads(sources.size(), 0);
    (void)graph::dijkstra_batch(g, sources, 0);  // warm-up (first-touch of the rows)
    const auto t0 = std::chrono::steady_clock::now();
    const auto rows = graph::dijkstra_batch(g, sources, 0);
    const double cpu_ms = wall_ms_since(t0);
    bool exact = true;
    for (std::size_t i = 0; i < sources.size(); ++i)
      exact = exact && graph::find_distance_mismatches<Weight>(want[i], rows[i], 0).none();
    std::cout << "| cpu batch (dijkstra, one source per thread, " << threads << " of " << omp_get_max_threads()
              << " threads) | - | " << std::fixed << std::setprecision(3) << cpu_ms << " | - | "
              << cpu_ms / static_cast<double>(sources.size()) << " | " << std::setprecision(2)
              << sequential_ms / cpu_ms << "x | " << (exact ? "yes" : "NO") << " |\n";
    // > 1: the GPU's batch is that many times as fast as the CPU's.
    const double gpu_vs_cpu = gpu_batch_ms > 0 ? cpu_ms / gpu_batch_ms : 0;
    std::cout << "\ngpu batch vs cpu batch: " << std::setprecision(2) << gpu_vs_cpu << "x (cpu " << std::setprecision(3)
              << cpu_ms << " ms / gpu " << gpu_batch_ms << " ms; > 1: the GPU is faster)\n\n"
              << "| mode | solvers | batch wall ms | sum of solve ms | per source ms | vs sequential | exact |\n"
              << "|---|---:|---:|---:|---:|---:|---|\n"
              << std::flush;
    record["cpu_batch"] = {{"wall_ms", cpu_ms}, {"threads", threads}, {"exact", exact},
                           {"solver", "dijkstra, one source per thread"}};
    record["gpu_vs_cpu_batch"] = gpu_vs_cpu;
  }

  for (const std::uint32_t wanted : a.solvers) {
    const std::uint32_t count = std::min<std::uint32_t>(wanted, static_cast<std::uint32_t>(sources.size()));
    std::vector<std::unique_ptr<sssp::GpuSolver<Weight>>> solvers;
    for (std::uint32_t k = 0; k < count; ++k) {
      solvers.push_back(std::make_unique<sssp::GpuSolver<Weight>>(g, opts));
      (void)solvers.back()->solve(sources.front(), strategy);  // warm-up
    }
    std::vector<double> sums(count, 0);
    std::vector<char> exact(count, 1);
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (std::uint32_t k = 0; k < count; ++k) {
      threads.emplace_back([&, k] {
        for (std::size_t i = k; i < sources.size(); i += count) {
          const auto r = solvers[k]->solve(sources[i], strategy);
          sums[k] += r.solve_ms;
          exact[k] = exact[k] && graph::find_distance_mismatches<Weight>(want[i], r.distances, 0).none();
        }
      });
    }
    for (auto& t : threads) t.join();
    const double batch_ms = wall_ms_since(t0);
    double sum = 0;
    for (const double s : sums) sum += s;
    const bool all_exact = std::all_of(exact.begin(), exact.end(), [](char e) { return e != 0; });
    std::cout << "| concurrent | " << count << " | " << std::fixed << std::setprecision(3) << batch_ms << " | " << sum
              << " | " << batch_ms / static_cast<double>(sources.size()) << " | " << std::setprecision(2)
              << sequential_ms / batch_ms << "x | " << (all_exact ? "yes" : "NO") << " |\n"
              << std::flush;
    record["concurrent"].push_back({{"solvers", count}, {"wall_ms", batch_ms}, {"solve_ms_sum", sum}, {"exact", all_exact}});
  }
  return record;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args a = parse(argc, argv);
    std::string why;
    if (!sssp::gpu_available(&why)) {
      std::cerr << "concurrent_sources_bench: no GPU: " << why << "\n";
      return 2;
    }
    std::cout << "# concurrent_sources_bench on " << sssp::gpu_description() << "\n";
    json report = {{"benchmark", "concurrent_sources_bench"},
                   {"device", sssp::gpu_description()},
                   {"cpu_threads", omp_get_max_threads()},
                   {"seed", a.seed},
                   {"requested_sources", a.sources},
                   {"graphs", json::array()}};
    bool all_exact = true;
    sssp_bench::for_each_bench_graph(a.graphs, a.seed, [&](const std::string& name, const auto& csr) {
      json record = bench(name, csr, a);
      all_exact = all_exact && record["sequential"]["exact"] && record["batched"]["exact"] && record["cpu_batch"]["exact"];
      for (const json& c : record["concurrent"]) all_exact = all_exact && c["exact"].get<bool>();
      report["graphs"].push_back(std::move(record));
    });
    if (!a.json_path.empty()) {
      std::ofstream out(a.json_path);
      out << report.dump(2) << "\n";
      if (!out) throw std::runtime_error("concurrent_sources_bench: cannot write " + a.json_path);
    }
    // Like sssp_bench: exit 3 when a result differed from Dijkstra.
    if (!all_exact) return 3;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
