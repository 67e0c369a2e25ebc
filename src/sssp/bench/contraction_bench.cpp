// contraction_bench: solving through a chain contraction (graph/contraction.hpp)
// against solving the whole graph, in one process on the same sources:
// each GPU strategy plain and contracted, and the 16-thread CPU
// delta-stepping plain and contracted, each at its best delta of a small
// sweep around its own auto rule. Times are the mean over the sources of the
// per-source median; a contracted time is the core solve (CUDA events) plus
// the host's piece search and expansion. The contraction itself (once per
// graph, like loading) is reported apart. Every result is checked against
// Dijkstra on the whole graph (the "exact" column).
//
//   contraction_bench [--runs N] [--sources K] [--seed S] [--threads T]
//                     [--strategy NAME]... [--delta-factors F,F,...] [--no-hierarchy]
//                     [--resident-local-steps N] [--json FILE] GRAPH...
// Then, unless --no-hierarchy, PHAST over a contraction hierarchy of the core
// (graph/hierarchy.hpp): the GPU sweep and the same query on one host thread,
// against the same CPU baselines; the hierarchy's build time apart.
// GRAPH: a file (.mtx, .gr, .el; weights from the file, random:1:1000 where
// it has none) or gen:SPEC. Integer weights only. --json: the same numbers
// as one record (bench_sssp.sh's roads part; docs/BENCHMARKS.md reads it).
// Exit 3 when some result differed from Dijkstra.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/contraction.hpp"
#include "graph/error.hpp"
#include "graph/hierarchy.hpp"
#include "graph/random_sources.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "sssp/auto_strategy.hpp"
#include "sssp/bench/bench_graphs.hpp"
#include "sssp/contracted_solver.hpp"
#include "sssp/hierarchy_solver.hpp"
#include "sssp/solver.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using Dist = std::uint64_t;

struct Args {
  int runs = 7;
  std::uint32_t sources = 4;
  std::uint64_t seed = 1;
  int threads = 0;
  std::vector<sssp::Strategy> strategies;
  std::vector<double> delta_factors{0.5, 1, 2, 4};
  std::vector<std::string> graphs;
  bool hierarchy = true;  // also PHAST over a contraction hierarchy of the core
  int resident_local_steps = -1;  // SolverOptions::resident_local_steps
  std::string json_path;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument("contraction_bench: " + arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--runs") {
      a.runs = std::stoi(value());
    } else if (arg == "--sources") {
      a.sources = static_cast<std::uint32_t>(std::stoul(value()));
    } else if (arg == "--seed") {
      a.seed = std::stoull(value());
    } else if (arg == "--threads") {
      a.threads = std::stoi(value());
    } else if (arg == "--strategy") {
      a.strategies.push_back(sssp::parse_strategy(value()));
    } else if (arg == "--no-hierarchy") {
      a.hierarchy = false;
    } else if (arg == "--json") {
      a.json_path = value();
    } else if (arg == "--resident-local-steps") {
      a.resident_local_steps = std::stoi(value());
    } else if (arg == "--delta-factors") {
      a.delta_factors.clear();
      std::stringstream in(value());
      for (std::string item; std::getline(in, item, ',');) a.delta_factors.push_back(std::stod(item));
    } else if (arg.rfind("--", 0) == 0) {
      throw std::invalid_argument("contraction_bench: unknown option " + arg);
    } else {
      a.graphs.push_back(arg);
    }
  }
  if (a.runs < 1 || a.sources < 1 || a.delta_factors.empty())
    throw std::invalid_argument("contraction_bench: --runs, --sources and --delta-factors need at least one");
  if (a.strategies.empty())
    a.strategies = {sssp::Strategy::NearFar, sssp::Strategy::BucketMultisplit, sssp::Strategy::BellmanFord};
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// One solver's best delta: mean over sources of the per-source median ms,
// and whether every run was exact.
struct Best {
  double ms = 1e300;
  double delta = 0;
  double rounds = 0;  // mean over sources (GPU strategies)
  bool exact = true;
};

// solve(source, delta, &rounds) -> (ms, distances)
template <class Solve>
Best best_over_deltas(const std::vector<graph::vertex_id>& sources, const std::vector<std::vector<Dist>>& want,
                      const std::vector<double>& deltas, int runs, Solve&& solve) {
  Best best;
  bool exact = true;
  for (const double delta : deltas) {
    double total = 0, rounds = 0;
    for (std::size_t i = 0; i < sources.size(); ++i) {
      std::uint64_t r = 0;
      std::vector<Dist> got;
      solve(sources[i], delta, &r, &got);  // warm-up
      exact = exact && graph::find_distance_mismatches<std::uint32_t>(want[i], got, 0).none();
      std::vector<double> ms;
      for (int k = 0; k < runs; ++k) ms.push_back(solve(sources[i], delta, &r, nullptr));
      total += median(ms);
      rounds += static_cast<double>(r);
    }
    const double mean = total / static_cast<double>(sources.size());
    if (mean < best.ms) {
      best.ms = mean;
      best.delta = delta;
      best.rounds = rounds / static_cast<double>(sources.size());
    }
  }
  best.exact = exact;
  return best;
}

nlohmann::json best_json(const Best& b) {
  return {{"ms", b.ms}, {"delta", b.delta}, {"rounds", b.rounds}, {"exact", b.exact}};
}

// Prints one graph's tables and returns the same numbers as a record.
nlohmann::json bench(const std::string& name, const graph::IntCsr& g, const Args& a) {
  const auto t0 = Clock::now();
  const graph::ChainContraction c = graph::contract_chains(g);
  const double contract_ms = ms_since(t0);
  const auto k = std::min<std::uint64_t>(a.sources, graph::vertices_with_out_arcs(g.offsets));
  const std::vector<graph::vertex_id> sources =
      k == 0 ? std::vector<graph::vertex_id>{0} : graph::choose_random_sources(g.offsets, static_cast<std::uint32_t>(k), a.seed);
  std::vector<std::vector<Dist>> want;
  for (const graph::vertex_id s : sources) want.push_back(graph::dijkstra(g, s));

  std::cout << "\n## " << name << ": " << g.num_vertices << " vertices, " << g.num_arcs() << " arcs; core "
            << c.core_vertices() << " vertices (" << std::fixed << std::setprecision(1)
            << 100.0 * c.core_vertices() / std::max<double>(1, g.num_vertices) << "%), " << c.core_arcs()
            << " arcs (" << c.shortcuts << " shortcuts); " << c.peeled << " tree and " << c.chain_vertices
            << " chain vertices in " << c.pieces << " pieces; contraction " << std::setprecision(2) << contract_ms
            << " ms (host, once per graph); " << sources.size() << " sources\n\n"
            << "| solver | plain ms | rounds | contracted ms | rounds | of it on the host | speed-up | plain delta | contracted delta | exact |\n"
            << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  std::cout << std::setprecision(3);
  nlohmann::json record = {{"graph", name},
                           {"vertices", g.num_vertices},
                           {"arcs", g.num_arcs()},
                           {"core_vertices", c.core_vertices()},
                           {"core_arcs", c.core_arcs()},
                           {"shortcuts", c.shortcuts},
                           {"contract_ms", contract_ms},
                           {"sources", sources},
                           {"solvers", nlohmann::json::array()}};
  // host_ms: the contracted solve's piece search and expansion, the median
  // of all its runs (every delta's: the host part does not depend on it; a
  // mean showed one stalled run as a host part longer than the solve).
  const auto row = [&](const std::string& solver, const Best& plain, const Best& contracted, double host_ms) {
    record["solvers"].push_back(
        {{"solver", solver}, {"plain", best_json(plain)}, {"contracted", best_json(contracted)}, {"host_ms", host_ms}});
    std::cout << "| " << solver << " | " << plain.ms << " | " << std::setprecision(0) << plain.rounds << " | "
              << std::setprecision(3) << contracted.ms << " | " << std::setprecision(0) << contracted.rounds << " | "
              << std::setprecision(3) << host_ms << " | " << std::setprecision(2) << plain.ms / contracted.ms << "x | " << std::setprecision(0) << plain.delta
              << " | " << contracted.delta << " | " << (plain.exact && contracted.exact ? "yes" : "NO") << " |\n"
              << std::setprecision(3);
  };

  // Each side's deltas around its own GPU rule, read from its own graph.
  const auto gpu_deltas = [&](const graph::IntCsr& graph_for_rule, graph::vertex_id s) {
    const double base = graph::auto_delta(graph_for_rule, sssp::choose_delta_c(sssp::measure_shape(graph_for_rule, s)).c);
    std::vector<double> d;
    for (const double f : a.delta_factors) d.push_back(base * f);
    return d;
  };
  graph::ContractionQuery probe(c, g);
  probe.start(sources.front());
  graph::IntCsr core_for_rule = c.core;
  probe.apply_entry(core_for_rule);
  const std::vector<double> plain_deltas = gpu_deltas(g, sources.front());
  const std::vector<double> core_deltas = gpu_deltas(core_for_rule, probe.core_source());

  sssp::SolverOptions opts;
  opts.delta = plain_deltas.front();
  opts.overrides.resident_local_steps = a.resident_local_steps;
  sssp::GpuSolver<std::uint32_t> plain(g, opts);
  sssp::ContractedGpuSolver contracted(g, c, opts);
  Best best_gpu_contracted;
  for (const sssp::Strategy strategy : a.strategies) {
    const Best p = best_over_deltas(sources, want, plain_deltas, a.runs,
                                    [&](graph::vertex_id s, double d, std::uint64_t* rounds, std::vector<Dist>* out) {
                                      auto r = plain.solve(s, strategy, d);
                                      *rounds = r.iterations;
                                      if (out) *out = std::move(r.distances);
                                      return r.solve_ms;
                                    });
    std::vector<double> host_ms;
    const Best q = best_over_deltas(sources, want, core_deltas, a.runs,
                                    [&](graph::vertex_id s, double d, std::uint64_t* rounds, std::vector<Dist>* out) {
                                      sssp::ContractedSolveTimes t;
                                      auto r = contracted.solve(s, strategy, d, &t);
                                      host_ms.push_back(t.piece_ms + t.expand_ms);
                                      *rounds = r.iterations;
                                      if (out) *out = std::move(r.distances);
                                      return r.solve_ms;
                                    });
    row(std::string("gpu ") + sssp::to_string(strategy), p, q, host_ms.empty() ? 0.0 : median(host_ms));
    if (q.ms < best_gpu_contracted.ms) best_gpu_contracted = q;
  }

  // The CPU: delta-stepping on the whole graph, and on the core with the
  // same host-side piece search and expansion.
  const auto cpu_deltas = [&](const graph::IntCsr& graph_for_rule) {
    std::vector<double> d;
    for (const double f : a.delta_factors) d.push_back(graph::auto_delta_cpu(graph_for_rule) * f);
    return d;
  };
  const Best cp = best_over_deltas(sources, want, cpu_deltas(g), a.runs,
                                   [&](graph::vertex_id s, double d, std::uint64_t* rounds, std::vector<Dist>* out) {
                                     graph::CpuSolveStats stats;
                                     const auto t = Clock::now();
                                     auto dist = graph::delta_stepping_new_array(g, s, d, a.threads, &stats);
                                     const double ms = ms_since(t);
                                     *rounds = stats.phases;
                                     if (out) out->assign(dist.get(), dist.get() + g.num_vertices);
                                     return ms;
                                   });
  graph::ContractionQuery query(c, g);
  graph::IntCsr core = c.core;
  std::vector<Dist> expanded(g.num_vertices);
  std::vector<double> cpu_host_ms;
  const Best cq = best_over_deltas(sources, want, cpu_deltas(core_for_rule), a.runs,
                                   [&](graph::vertex_id s, double d, std::uint64_t* rounds, std::vector<Dist>* out) {
                                     graph::CpuSolveStats stats;
                                     const auto t = Clock::now();
                                     query.start(s);
                                     const double piece_ms = ms_since(t);
                                     if (!query.fits()) throw std::runtime_error("contraction_bench: entry does not fit");
                                     query.apply_entry(core);
                                     auto dist = graph::delta_stepping_new_array(core, query.core_source(), d, a.threads, &stats);
                                     const auto t2 = Clock::now();
                                     query.expand(dist.get(), nullptr, expanded.data(), nullptr, a.threads);
                                     const double ms = ms_since(t);
                                     cpu_host_ms.push_back(piece_ms + ms_since(t2));
                                     *rounds = stats.phases;
                                     if (out) *out = expanded;
                                     return ms;
                                   });
  row("cpu delta-stepping", cp, cq, cpu_host_ms.empty() ? 0.0 : median(cpu_host_ms));
  std::cout << "\nbest contracted GPU vs plain CPU delta-stepping (at its best delta): " << std::setprecision(2)
            << cp.ms / best_gpu_contracted.ms << "x; vs contracted CPU: " << cq.ms / best_gpu_contracted.ms << "x\n";
  if (!a.hierarchy) return record;

  // PHAST over a contraction hierarchy of the core: the GPU sweep, and the
  // same query on one host thread. The hierarchy is built once per graph.
  const auto th = Clock::now();
  const graph::Hierarchy h = graph::build_hierarchy(c.core);
  const double hierarchy_ms = ms_since(th);
  sssp::HierarchyGpuSolver phast_gpu(g, c, h);
  sssp::HierarchySolveTimes parts_sum;
  int parts_runs = 0;
  const Best pg = best_over_deltas(sources, want, {1.0}, a.runs,
                                   [&](graph::vertex_id s, double, std::uint64_t* rounds, std::vector<Dist>* out) {
                                     sssp::HierarchySolveTimes t;
                                     auto r = phast_gpu.solve(s, &t);
                                     parts_sum.piece_ms += t.piece_ms;
                                     parts_sum.upward_ms += t.upward_ms;
                                     parts_sum.sweep_ms += t.sweep_ms;
                                     ++parts_runs;
                                     *rounds = r.iterations;
                                     if (out) *out = std::move(r.distances);
                                     return r.solve_ms;
                                   });
  std::vector<Dist> phast_core(c.core.num_vertices);
  const Best pc = best_over_deltas(sources, want, {1.0}, a.runs,
                                   [&](graph::vertex_id s, double, std::uint64_t* rounds, std::vector<Dist>* out) {
                                     const auto t = Clock::now();
                                     query.start(s);
                                     if (!query.fits()) throw std::runtime_error("contraction_bench: entry does not fit");
                                     graph::phast(h, graph::core_seeds(c, query), phast_core.data());
                                     query.expand(phast_core.data(), nullptr, expanded.data(), nullptr, a.threads);
                                     const double ms = ms_since(t);
                                     *rounds = h.levels();
                                     if (out) *out = expanded;
                                     return ms;
                                   });
  const double runs = std::max(1, parts_runs);
  std::cout << "\nhierarchy over the core: built in " << std::setprecision(1) << hierarchy_ms << " ms (host, once per graph), "
            << h.shortcuts << " shortcuts, " << h.levels() << " levels\n\n"
            << "| PHAST | ms | levels | piece / upward / sweep, read-off and piece ms | vs plain CPU delta-stepping | vs contracted CPU | exact |\n"
            << "|---|---:|---:|---|---:|---:|---|\n"
            << std::setprecision(3) << "| gpu sweep | " << pg.ms << " | " << h.levels() << " | "
            << parts_sum.piece_ms / runs << " / " << parts_sum.upward_ms / runs << " / " << parts_sum.sweep_ms / runs
            << " | " << std::setprecision(2) << cp.ms / pg.ms << "x | "
            << cq.ms / pg.ms << "x | " << (pg.exact ? "yes" : "NO") << " |\n"
            << std::setprecision(3) << "| cpu, sweep on one thread | " << pc.ms << " | " << h.levels() << " | - | "
            << std::setprecision(2) << cp.ms / pc.ms << "x | " << cq.ms / pc.ms << "x | " << (pc.exact ? "yes" : "NO")
            << " |\n";
  record["hierarchy"] = {{"build_ms", hierarchy_ms},
                         {"shortcuts", h.shortcuts},
                         {"levels", h.levels()},
                         {"gpu", best_json(pg)},
                         {"gpu_parts_ms",
                          {{"piece", parts_sum.piece_ms / runs},
                           {"upward", parts_sum.upward_ms / runs},
                           {"sweep_read_off_piece", parts_sum.sweep_ms / runs}}},
                         {"cpu_one_thread", best_json(pc)}};
  return record;
}

// Whether every result of a record was exact.
bool all_exact(const nlohmann::json& r) {
  for (const auto& s : r.value("solvers", nlohmann::json::array()))
    if (!s["plain"]["exact"].get<bool>() || !s["contracted"]["exact"].get<bool>()) return false;
  if (r.contains("hierarchy"))
    return r["hierarchy"]["gpu"]["exact"].get<bool>() && r["hierarchy"]["cpu_one_thread"]["exact"].get<bool>();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args a = parse(argc, argv);
    std::cout << "contraction_bench: " << a.runs << " timed runs (after a warm-up) per source and delta; delta factors";
    for (const double f : a.delta_factors) std::cout << " " << f;
    std::cout << "; GPU " << sssp::gpu_description(0) << "\n";
    nlohmann::json out = {{"bench", "contraction_bench"},
                          {"device", sssp::gpu_description(0)},
                          {"runs", a.runs},
                          {"sources_per_graph", a.sources},
                          {"seed", a.seed},
                          {"delta_factors", a.delta_factors},
                          {"graphs", nlohmann::json::array()}};
    bool exact = true;
    sssp_bench::for_each_bench_graph(a.graphs, a.seed, [&](const std::string& name, const auto& g) {
      if constexpr (std::is_same_v<std::decay_t<decltype(g)>, graph::IntCsr>) {
        out["graphs"].push_back(bench(name, g, a));
        exact = exact && all_exact(out["graphs"].back());
      } else {
        std::cout << "\n## " << name << ": float weights, not contracted (skipped)\n";
      }
    });
    if (!a.json_path.empty()) {
      std::ofstream f(a.json_path);
      f << out.dump(1) << "\n";
      if (!f) throw std::runtime_error("cannot write " + a.json_path);
    }
    if (!exact) std::cerr << "contraction_bench: some result differed from Dijkstra (the \"exact\" columns)\n";
    return exact ? 0 : 3;
  } catch (const std::exception& e) {
    std::cerr << "contraction_bench: " << e.what() << "\n";
    return 1;
  }
}
