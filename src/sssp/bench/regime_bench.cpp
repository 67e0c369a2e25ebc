// regime_bench: the device loop's regimes side by side on the same graph and
// source, in one process: each configuration (single-block loop on/off, its
// arc limit, persistent grid on/off, load balancer) solves with each
// strategy; the table gives the median solve time, the rounds, the split
// between narrow (single-block), cluster and wide (grid) rounds,
// microseconds per round, the bucketing strategies' full splits (and how
// many of them one block, and a cooperative grid, did on the device), and the work ratio (arcs
// relaxed over arcs). Every result is checked against Dijkstra
// (graph/verify.hpp: exact for integer weights, 1e-6 relative for float; the
// "exact" column).
//
//   regime_bench [--runs N] [--seed S] [--strategy NAME]... [--narrow-max-arcs A,B,...]
//                [--configs default,no-narrow,no-persistent,no-medium,no-cluster,no-block-split,
//                          no-grid-split,
//                          cluster-any-shape,no-resident,resident-any-shape,resident-global-arcs,
//                          input-order,degree-order,rcm-order]
//                [--cluster-local-steps A,B,...] [--resident-local-steps A,B,...]
//                [--delta-factors F,F,...]
//                [--wide-blocks-per-sm A,B,...]
//                [--load-balance NAME]
//                GRAPH...
// GRAPH: a file (.mtx, .gr, .el; weights from the file, random:1:1000 where
// it has none), gen:SPEC (graph::GeneratorSpec, weights random:1:1000) or
// core:FILE (the core of the file's chain contraction).
// The first configuration in each group is the baseline of the "vs first"
// column.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "graph/error.hpp"
#include "graph/metrics.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "sssp/auto_strategy.hpp"
#include "sssp/solver.hpp"
#include "sssp/bench/bench_graphs.hpp"

namespace {

struct Config {
  std::string name;
  bool single_block_loop = true;
  bool persistent_grid = true;
  std::uint32_t narrow_max_arcs = 0;
  int wide_blocks_per_sm = 0;
  bool medium_grid = true;
  bool cluster_loop = true;
  bool cluster_any_shape = false;
  int cluster_local_steps = -1;  // SolverOptions::cluster_local_steps
  int resident_local_steps = -1;  // SolverOptions::resident_local_steps
  bool resident_block = true;
  bool resident_any_shape = false;
  bool resident_shared_arcs = true;
  bool block_split = true;
  bool grid_split = true;
  double delta_factor = 1;  // times the auto delta
  sssp::VertexOrdering ordering = sssp::VertexOrdering::Auto;
};

struct Args {
  int runs = 7;
  std::uint64_t seed = 1;
  std::vector<sssp::Strategy> strategies;
  std::vector<Config> configs;
  std::vector<double> delta_factors;  // every configuration at each (times the auto delta)
  sssp::LoadBalance load_balance = sssp::LoadBalance::Auto;
  std::vector<std::string> graphs;
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

Config named_config(const std::string& name) {
  Config c;
  c.name = name;
  if (name == "default") return c;
  if (name == "no-narrow") {
    c.single_block_loop = false;
    return c;
  }
  if (name == "no-persistent") {
    c.persistent_grid = false;
    return c;
  }
  if (name == "no-medium") {
    c.medium_grid = false;
    return c;
  }
  if (name == "no-cluster") {
    c.cluster_loop = false;
    return c;
  }
  if (name == "cluster-any-shape") {
    c.cluster_any_shape = true;
    return c;
  }
  if (name == "no-resident") {
    c.resident_block = false;
    return c;
  }
  if (name == "resident-any-shape") {
    c.resident_any_shape = true;
    return c;
  }
  if (name == "resident-global-arcs") {
    c.resident_shared_arcs = false;
    return c;
  }
  if (name == "no-grid-split") {
    c.grid_split = false;
    return c;
  }
  if (name == "no-block-split") {
    c.block_split = false;
    return c;
  }
  // input-order, degree-order, rcm-order: SolverOptions::vertex_ordering.
  const std::string suffix = "-order";
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
    c.ordering = sssp::parse_vertex_ordering(name.substr(0, name.size() - suffix.size()));
    return c;
  }
  throw std::invalid_argument("regime_bench: unknown configuration '" + name +
                              "' (default, no-narrow, no-persistent, no-medium, no-cluster, no-block-split, no-grid-split, cluster-any-shape, no-resident, resident-any-shape, resident-global-arcs, input-order, degree-order, rcm-order)");
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument("regime_bench: " + arg + " needs a value");
      return argv[++i];
    };
    // One default configuration per value of a comma list, set(config, value).
    const auto sweep = [&](auto&& set) {
      for (const auto& s : split_commas(value())) {
        Config c;
        set(c, s);
        a.configs.push_back(c);
      }
    };
    if (arg == "--runs") {
      a.runs = std::max(1, std::atoi(value().c_str()));
    } else if (arg == "--seed") {
      a.seed = std::strtoull(value().c_str(), nullptr, 10);
    } else if (arg == "--strategy") {
      for (const auto& s : split_commas(value())) a.strategies.push_back(sssp::parse_strategy(s));
    } else if (arg == "--configs") {
      for (const auto& s : split_commas(value())) a.configs.push_back(named_config(s));
    } else if (arg == "--narrow-max-arcs") {
      sweep([](Config& c, const std::string& s) {
        c.narrow_max_arcs = static_cast<std::uint32_t>(std::strtoul(s.c_str(), nullptr, 10));
        c.name = "narrow<=" + s;
      });
    } else if (arg == "--wide-blocks-per-sm") {
      sweep([](Config& c, const std::string& s) {
        c.wide_blocks_per_sm = std::atoi(s.c_str());
        c.name = "wide " + s + "/SM";
      });
    } else if (arg == "--cluster-local-steps") {
      sweep([](Config& c, const std::string& s) {
        c.cluster_local_steps = std::atoi(s.c_str());
        c.name = "local steps " + s;
      });
    } else if (arg == "--resident-local-steps") {
      sweep([](Config& c, const std::string& s) {
        c.resident_local_steps = std::atoi(s.c_str());
        c.name = "resident local steps " + s;
      });
    } else if (arg == "--delta-factors") {
      for (const auto& s : split_commas(value())) a.delta_factors.push_back(std::strtod(s.c_str(), nullptr));
    } else if (arg == "--load-balance") {
      a.load_balance = sssp::parse_load_balance(value());
    } else if (arg == "--help" || arg == "-h") {
      std::cout << "usage: regime_bench [--runs N] [--seed S] [--strategy NAME[,NAME]] [--configs "
                   "default,no-narrow,no-persistent] [--narrow-max-arcs A,B] [--wide-blocks-per-sm A,B] "
                   "[--cluster-local-steps A,B] [--resident-local-steps A,B] [--delta-factors A,B] "
                   "[--load-balance NAME] GRAPH...\n"
                   "GRAPH: FILE, gen:SPEC or core:FILE (the core of FILE's chain contraction)\n";
      std::exit(0);
    } else if (!arg.empty() && arg[0] == '-') {
      throw std::invalid_argument("regime_bench: unknown option " + arg);
    } else {
      a.graphs.push_back(arg);
    }
  }
  if (a.strategies.empty()) a.strategies = sssp::all_strategies();
  if (a.configs.empty()) a.configs.push_back(named_config("default"));
  if (!a.delta_factors.empty()) {
    std::vector<Config> each;
    for (const double f : a.delta_factors) {
      if (!(f > 0)) throw std::invalid_argument("regime_bench: --delta-factors takes positive numbers");
      for (Config c : a.configs) {
        c.delta_factor = f;
        std::ostringstream name;
        name << c.name << ", delta x" << f;
        c.name = name.str();
        each.push_back(c);
      }
    }
    a.configs = each;
  }
  return a;
}

template <class Weight>
void bench(const std::string& name, const graph::Csr<Weight>& g, const Args& a) {
  std::mt19937_64 rng(a.seed);
  graph::vertex_id source = 0;
  for (int tries = 0; tries < 100000; ++tries) {
    source = static_cast<graph::vertex_id>(rng() % std::max<graph::vertex_id>(g.num_vertices, 1));
    if (g.out_degree(source) > 0) break;
  }
  const auto want = graph::dijkstra(g, source);
  // The GPU's auto delta, as `sssp` applies it.
  const double delta = graph::auto_delta(g, sssp::choose_delta_c(sssp::measure_shape(g, source)).c);
  std::cout << "\n## " << name << ": " << g.num_vertices << " vertices, " << g.num_arcs() << " arcs, source "
            << source << ", delta " << delta << "\n\n";
  std::cout
            << "| strategy | config | order (ms to make) | median ms | rounds | narrow | cluster | wide | local steps | us/round | us/step | full splits (block, grid) | vs first | work ratio | exact |\n"
            << "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto strategy : a.strategies) {
    double first_ms = 0;
    for (const auto& c : a.configs) {
      sssp::SolverOptions opts;
      opts.delta = delta * c.delta_factor;
      opts.load_balance = a.load_balance;
      opts.overrides.single_block_loop = c.single_block_loop;
      opts.overrides.persistent_grid = c.persistent_grid;
      opts.overrides.narrow_max_arcs = c.narrow_max_arcs;
      opts.overrides.wide_blocks_per_sm = c.wide_blocks_per_sm;
      opts.overrides.medium_grid = c.medium_grid;
      opts.overrides.cluster_loop = c.cluster_loop;
      opts.overrides.cluster_any_shape = c.cluster_any_shape;
      opts.overrides.cluster_local_steps = c.cluster_local_steps;
      opts.overrides.resident_local_steps = c.resident_local_steps;
      opts.overrides.resident_block = c.resident_block;
      opts.overrides.resident_any_shape = c.resident_any_shape;
      opts.overrides.resident_shared_arcs = c.resident_shared_arcs;
      opts.overrides.block_split = c.block_split;
      opts.overrides.grid_split = c.grid_split;
      opts.vertex_ordering = c.ordering;
      sssp::GpuSolver<Weight> solver(g, opts);
      const auto warm = solver.solve(source, strategy);
      bool exact = graph::find_distance_mismatches<Weight>(want, warm.distances, 0).none();
      std::vector<double> ms;
      sssp::SolveResult<Weight> last;
      for (int r = 0; r < a.runs; ++r) {
        last = solver.solve(source, strategy);
        ms.push_back(last.solve_ms);
        exact = exact && graph::find_distance_mismatches<Weight>(want, last.distances, 0).none();
      }
      const double med = graph::median(ms);
      if (first_ms == 0) first_ms = med;
      std::cout << "| " << sssp::to_string(strategy) << " | " << c.name << (last.resident ? (last.resident_shared_arcs ? " (resident, shared arcs)" : " (resident)") : "") << " | "
                << sssp::to_string(solver.vertex_ordering()) << " (" << std::fixed << std::setprecision(1)
                << solver.reorder_ms() << ") | " << std::setprecision(3) << med << " | " << last.iterations << " | " << last.rounds_narrow << " | " << last.rounds_cluster << " | " << last.rounds_wide << " | "
                << last.cluster_local_steps << " | " << std::setprecision(2)
                << (last.iterations ? med * 1000.0 / static_cast<double>(last.iterations) : 0) << " | "
                << (last.iterations ? med * 1000.0 / static_cast<double>(last.iterations + last.cluster_local_steps) : 0)
                << " | " << last.full_splits << " (" << last.full_splits_in_block << ", "
                << last.full_splits_in_grid << ")"
                << " | " << (med > 0 ? first_ms / med : 0) << "x | "
                << graph::work_ratio(last.relaxations, g.num_arcs()) << " | "
                << (exact ? "yes" : "NO") << " |\n"
                << std::flush;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args a = parse(argc, argv);
    std::string why;
    if (!sssp::gpu_available(&why)) {
      std::cerr << "regime_bench: no GPU: " << why << "\n";
      return 2;
    }
    std::cout << "# regime_bench on " << sssp::gpu_description() << "\n";
    sssp_bench::for_each_bench_graph(a.graphs, a.seed,
                                     [&](const std::string& name, const auto& csr) { bench(name, csr, a); });
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
