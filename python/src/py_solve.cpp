#include "py_solve.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "app/contract_rule.hpp"
#include "graph/contraction.hpp"
#include "graph/metrics.hpp"
#include "graph/predecessors.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "sssp/auto_strategy.hpp"
#include "sssp/contracted_solver.hpp"
#include "sssp/graph_shape.hpp"
#include "sssp/solver.hpp"

namespace pysssp {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// The command line's --contract auto rule (src/app/app.cpp, thresholds in
// app/contract_rule.hpp): contract where the hop diameter estimate is high
// enough for the rounds saved to matter, enough vertices have at most two
// out-arcs to form chains, and the core keeps at most 75% of the vertices
// (graph::contraction_pays).
using app::kContractMinHops;
using app::kContractMinLowDegreeShare;

struct AutoChoice {
  sssp::Strategy strategy = sssp::Strategy::NearFar;
  std::string strategy_reason;
  double delta = 0;
  std::string delta_rule;
};

// Everything a graph keeps between solves, for one weight type.
template <class Weight>
struct Session {
  std::unique_ptr<sssp::GpuSolver<Weight>> plain[2];  // [predecessors]
  bool contraction_decided = false;
  std::optional<graph::ChainContraction> contraction;
  std::string contraction_reason;
  std::unique_ptr<sssp::ContractedGpuSolver> contracted[2];
  // Keyed by (contracted, resident limit): the graph's class does not change
  // with the source, so the first source's choice serves every later call,
  // as the command line makes one choice per run.
  std::map<std::pair<bool, std::uint64_t>, AutoChoice> auto_choices;
  std::optional<double> cpu_delta;
};

bool is_cpu_strategy(const std::string& s) { return s == "dijkstra" || s == "delta-stepping"; }

template <class Weight>
Session<Weight>& session_of(PyGraph& g) {
  if (!g.session) g.session = std::make_shared<Session<Weight>>();
  return *static_cast<Session<Weight>*>(g.session.get());
}

template <class Weight>
void store_row(SolveOutput& out, std::size_t row, const std::vector<graph::distance_t<Weight>>& d) {
  if constexpr (std::is_same_v<Weight, std::uint32_t>)
    std::memcpy(out.int_distances.data() + row * out.vertices, d.data(), d.size() * sizeof(std::uint64_t));
  else
    std::memcpy(out.float_distances.data() + row * out.vertices, d.data(), d.size() * sizeof(float));
}

void store_preds(SolveOutput& out, std::size_t row, const std::vector<graph::vertex_id>& p) {
  if (!p.empty()) std::memcpy(out.predecessors.data() + row * out.vertices, p.data(), p.size() * sizeof(graph::vertex_id));
}

template <class Weight>
void solve_cpu(const graph::Csr<Weight>& g, Session<Weight>& s, const SolveRequest& r, SolveOutput& out) {
  out.device = "cpu";
  const bool batch = r.sources.size() > 1 && !r.predecessors;
  std::string strategy = is_cpu_strategy(r.strategy) ? r.strategy : "delta-stepping";
  // Float trees come from Dijkstra only: rounded sums can make a
  // tight-arc rule close a cycle (graph/predecessors.hpp).
  if (r.predecessors && !std::is_same_v<Weight, std::uint32_t>) strategy = "dijkstra";
  out.strategy_reason = r.strategy == strategy ? "asked for"
                        : r.strategy == "auto" ? "auto on the CPU: delta-stepping, the CPU default"
                                               : r.strategy + " runs on the GPU only: the CPU default";
  if (strategy == "dijkstra" && r.strategy != "dijkstra") out.strategy_reason = "predecessors with float weights: dijkstra";
  if (batch) {
    out.strategy = "dijkstra";
    out.strategy_reason += "; several sources: dijkstra, one source per thread";
    out.batched = true;
    const auto t = Clock::now();
    std::vector<graph::CpuSolveStats> stats;
    auto rows = graph::dijkstra_batch(g, r.sources, 0, &stats);
    out.batch_ms = ms_since(t);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      store_row<Weight>(out, i, rows[i]);
      out.per_source[i].relaxations = stats[i].relaxations;
      out.per_source[i].iterations = stats[i].phases;
    }
    return;
  }
  out.strategy = strategy;
  if (strategy == "delta-stepping") {
    if (r.delta > 0) {
      out.delta = r.delta;
      out.delta_rule = "given";
    } else {
      if (!s.cpu_delta) s.cpu_delta = graph::auto_delta_cpu(g);
      out.delta = *s.cpu_delta;
      out.delta_rule = "the CPU rule, f x mean weight / mean out-degree";
    }
  }
  for (std::size_t i = 0; i < r.sources.size(); ++i) {
    const graph::vertex_id src = r.sources[i];
    graph::CpuSolveStats stats;
    std::vector<graph::vertex_id> pred;
    const auto t = Clock::now();
    std::vector<graph::distance_t<Weight>> d;
    if (strategy == "dijkstra") {
      d = graph::dijkstra(g, src, r.predecessors ? &pred : nullptr, &stats);
    } else {
      d = graph::delta_stepping(g, src, out.delta, 0, &stats);
      if constexpr (std::is_same_v<Weight, std::uint32_t>) {
        if (r.predecessors) {
          pred.resize(g.num_vertices);
          graph::predecessors_from_distances(g, src, d.data(), pred.data());
        }
      }
    }
    out.per_source[i].solve_ms = ms_since(t);
    out.per_source[i].relaxations = stats.relaxations;
    out.per_source[i].iterations = stats.phases;
    store_row<Weight>(out, i, d);
    store_preds(out, i, pred);
  }
}

template <class Weight>
AutoChoice choose(const graph::Csr<Weight>& rule_g, graph::vertex_id rule_source, std::uint64_t resident_limit) {
  AutoChoice a;
  const sssp::StrategyChoice sc = sssp::choose_strategy(rule_g, rule_source, resident_limit);
  a.strategy = sc.strategy;
  a.strategy_reason = sc.reason;
  const sssp::DeltaChoice dc = sssp::choose_delta_c(sc.shape);
  a.delta = graph::auto_delta(rule_g, dc.c);
  a.delta_rule = dc.reason;
  return a;
}

// A device graph's auto choice: only what summarize_device_csr measured (no
// hop estimate, which a host BFS makes), so near-far, the default, and the
// narrow delta rule over the exact mean weight and mean out-degree, at least
// the smallest positive weight (graph::auto_delta's form).
AutoChoice choose_on_device(const PyGraph& pg) {
  AutoChoice a;
  a.strategy = sssp::Strategy::NearFar;
  a.strategy_reason = "device graph: auto's hop estimate needs a host copy; near-far, the default";
  const sssp::DeviceCsrSummary& d = pg.device_summary;
  if (pg.device_arcs == 0 || pg.device_vertices == 0 || d.min_positive_weight == 0) {
    a.delta = 1.0;
    a.delta_rule = "no positive weights: any delta is exact";
    return a;
  }
  const double mean_weight = d.weight_sum / static_cast<double>(pg.device_arcs);
  const double mean_degree = static_cast<double>(pg.device_arcs) / static_cast<double>(pg.device_vertices);
  a.delta = std::max(sssp::kNarrowDeltaC * mean_weight / mean_degree, d.min_positive_weight);
  a.delta_rule = "device graph, no hop estimate: 16 x mean weight / mean out-degree (the narrow rule)";
  return a;
}

// --contract's decision, made once per graph (integer weights only).
void decide_contraction(const graph::IntCsr& g, Session<std::uint32_t>& s, const std::string& request,
                        graph::vertex_id first_source) {
  if (s.contraction_decided) return;
  s.contraction_decided = true;
  if (request == "auto") {
    const std::uint64_t hops = sssp::measure_shape(g, first_source).hop_estimate;
    if (hops < kContractMinHops) {
      s.contraction_reason = "auto: hop diameter estimate " + std::to_string(hops) + " < " +
                             std::to_string(kContractMinHops) + ": too few rounds to save";
      return;
    }
    std::uint64_t low = 0;
    for (graph::vertex_id v = 0; v < g.num_vertices; ++v) low += g.out_degree(v) <= 2;
    if (g.num_vertices == 0 || static_cast<double>(low) / g.num_vertices < kContractMinLowDegreeShare) {
      s.contraction_reason = "auto: too few vertices with at most two out-arcs to contract";
      return;
    }
  }
  graph::ChainContraction c = graph::contract_chains(g);
  if (request == "auto" && !graph::contraction_pays(c)) {
    s.contraction_reason = "auto: the core would keep more than 75% of the vertices";
    return;
  }
  s.contraction = std::move(c);
  s.contraction_reason = request == "on" ? "asked for" : "auto: a road-like graph whose core keeps 75% of the vertices or less";
}

template <class Weight>
void solve_gpu(const PyGraph& pg, const graph::Csr<Weight>& g, Session<Weight>& s, const SolveRequest& r,
               SolveOutput& out) {
  out.device = "gpu";
  out.device_description = sssp::gpu_description(pg.device);
  const bool automatic = r.strategy == "auto";
  sssp::Strategy strategy = automatic ? sssp::Strategy::NearFar : sssp::parse_strategy(r.strategy);
  const int p = r.predecessors ? 1 : 0;
  const auto setup = Clock::now();

  bool contracted = false;
  if (pg.on_device) {
    out.contraction_reason = r.contract == "off" ? "off" : "device graph: the contraction is built on the host";
  } else if constexpr (std::is_same_v<Weight, std::uint32_t>) {
    if (r.contract != "off") decide_contraction(g, s, r.contract, r.sources.front());
    contracted = s.contraction.has_value() && r.contract != "off";
    out.contraction_reason = r.contract == "off" ? "off" : s.contraction_reason;
  } else {
    out.contraction_reason = "float weights: contraction is exact for integer weights only";
  }
  out.contracted = contracted;
  // Batches share launches: near-far and bellman-ford, without trees, not
  // contracted (GpuSolver::solve_batch).
  const bool batch = !contracted && r.sources.size() > 1 && !r.predecessors &&
                     (automatic || strategy == sssp::Strategy::NearFar || strategy == sssp::Strategy::BellmanFord);
  // The resident block runs near-far one source at a time without trees.
  const std::uint64_t resident_limit = r.predecessors || batch ? 0 : sssp::resident_max_vertices(pg.device);

  sssp::SolverOptions options;
  options.predecessors = r.predecessors;
  options.delta = 1;  // every solve passes its delta
  options.device = pg.device;

  if (automatic || r.delta <= 0) {
    auto key = std::make_pair(contracted, resident_limit);
    auto it = s.auto_choices.find(key);
    if (it == s.auto_choices.end()) {
      AutoChoice a;
      if (pg.on_device) {
        a = choose_on_device(pg);
      } else if constexpr (std::is_same_v<Weight, std::uint32_t>) {
        if (contracted) {
          // Auto reads the graph the strategies will solve: the core, with
          // the first source's entry arcs.
          graph::ContractionQuery q(*s.contraction, g);
          q.start(r.sources.front());
          graph::IntCsr core = s.contraction->core;
          q.apply_entry(core);
          a = choose(core, q.core_source(), resident_limit);
        } else {
          a = choose(g, r.sources.front(), resident_limit);
        }
      } else {
        a = choose(g, r.sources.front(), resident_limit);
      }
      it = s.auto_choices.emplace(key, a).first;
    }
    if (automatic) {
      strategy = it->second.strategy;
      out.strategy_reason = it->second.strategy_reason;
    }
    if (r.delta <= 0) {
      out.delta = it->second.delta;
      out.delta_rule = it->second.delta_rule;
    }
  }
  if (!automatic) out.strategy_reason = "asked for";
  if (r.delta > 0) {
    out.delta = r.delta;
    out.delta_rule = "given";
  }
  out.strategy = sssp::to_string(strategy);

  if constexpr (std::is_same_v<Weight, std::uint32_t>) {
    if (contracted) {
      if (!s.contracted[p]) s.contracted[p] = std::make_unique<sssp::ContractedGpuSolver>(g, *s.contraction, options);
      out.setup_ms = ms_since(setup);
      for (std::size_t i = 0; i < r.sources.size(); ++i) {
        auto res = s.contracted[p]->solve(r.sources[i], strategy, out.delta);
        out.per_source[i] = {res.solve_ms, res.relaxations, res.iterations};
        store_row<Weight>(out, i, res.distances);
        store_preds(out, i, res.predecessors);
      }
      return;
    }
  }
  if (!s.plain[p]) {
    if (pg.on_device)  // the graph's only copy is the first solver's, on the device
      s.plain[p] = std::make_unique<sssp::GpuSolver<Weight>>(s.plain[0]->device_graph(), options);
    else
      s.plain[p] = std::make_unique<sssp::GpuSolver<Weight>>(g, options);
  }
  out.setup_ms = ms_since(setup);
  if (batch) {
    out.batched = true;
    auto res = s.plain[p]->solve_batch(r.sources, strategy, out.delta);
    out.batch_ms = res.solve_ms;
    for (std::size_t i = 0; i < res.per_source.size(); ++i) {
      out.per_source[i] = {0.0, res.per_source[i].relaxations, res.per_source[i].iterations};
      store_row<Weight>(out, i, res.per_source[i].distances);
    }
    return;
  }
  for (std::size_t i = 0; i < r.sources.size(); ++i) {
    auto res = s.plain[p]->solve(r.sources[i], strategy, out.delta);
    out.per_source[i] = {res.solve_ms, res.relaxations, res.iterations};
    store_row<Weight>(out, i, res.distances);
    store_preds(out, i, res.predecessors);
  }
}

template <class Weight>
SolveOutput solve_typed(PyGraph& pg, const graph::Csr<Weight>& g, const SolveRequest& r) {
  const auto start = Clock::now();
  if (r.contract != "auto" && r.contract != "on" && r.contract != "off")
    throw std::invalid_argument("contract must be 'auto', 'on' or 'off', not '" + r.contract + "'");
  if (r.device != "auto" && r.device != "gpu" && r.device != "cpu")
    throw std::invalid_argument("device must be 'auto', 'gpu' or 'cpu', not '" + r.device + "'");
  if (r.strategy != "auto" && !is_cpu_strategy(r.strategy)) (void)sssp::parse_strategy(r.strategy);
  if (!(r.delta <= 0) && !(r.delta < std::numeric_limits<double>::infinity()))
    throw std::invalid_argument("delta must be positive and finite");
  if (r.contract == "on" && !std::is_same_v<Weight, std::uint32_t>)
    throw std::invalid_argument("contract='on' needs integer weights (the contraction is exact only there)");
  for (const graph::vertex_id v : r.sources)
    if (v >= pg.vertices()) throw std::out_of_range("source " + std::to_string(v) + " is not a vertex");
  if (pg.on_device && (r.device == "cpu" || is_cpu_strategy(r.strategy)))
    throw std::invalid_argument("a device graph (from_device_csr) solves on the GPU only: device='cpu' and the CPU "
                                "strategies need a host graph (from_csr)");

  SolveOutput out;
  out.rows = r.sources.size();
  out.vertices = pg.vertices();
  if constexpr (std::is_same_v<Weight, std::uint32_t>)
    out.int_distances.resize(out.rows * out.vertices);
  else
    out.float_distances.resize(out.rows * out.vertices);
  if (r.predecessors) out.predecessors.assign(out.rows * out.vertices, graph::kNoVertex);
  out.per_source.resize(out.rows);
  if (out.rows == 0) return out;

  Session<Weight>& s = session_of<Weight>(pg);
  std::string why;
  const bool gpu = r.device != "cpu" && !is_cpu_strategy(r.strategy) && gpu_usable(&why);
  if (r.device == "gpu" && !gpu) {
    if (is_cpu_strategy(r.strategy)) throw std::invalid_argument(r.strategy + " runs on the CPU, not with device='gpu'");
    throw std::runtime_error("device='gpu': no usable GPU (" + why + ")");
  }
  if (gpu) {
    solve_gpu(pg, g, s, r, out);
  } else {
    if (r.device == "auto" && !is_cpu_strategy(r.strategy)) out.fallback_reason = why;
    solve_cpu(g, s, r, out);
  }
  out.total_ms = ms_since(start);
  return out;
}

}  // namespace

bool gpu_usable(std::string* why) {
  // Probed once: the CUDA runtime's first call is slow, and the answer does
  // not change within a process.
  static std::string reason;
  static const bool usable = sssp::gpu_available(&reason);
  if (why) *why = reason;
  return usable;
}

SolveOutput solve(PyGraph& g, const SolveRequest& request) {
  std::lock_guard<std::mutex> lock(g.mutex);
  return std::visit([&](const auto& csr) { return solve_typed(g, csr, request); }, g.csr);
}

template <class Weight>
std::shared_ptr<PyGraph> from_device_csr(const sssp::DeviceCsrView<Weight>& csr, int device) {
  std::string why;
  if (!gpu_usable(&why)) throw std::runtime_error("from_device_csr: no usable GPU (" + why + ")");
  auto g = std::make_shared<PyGraph>();
  graph::Csr<Weight> empty;
  empty.offsets.assign(1, 0);
  g->csr = std::move(empty);
  g->on_device = true;
  g->device = device;
  g->device_vertices = csr.num_vertices;
  g->device_arcs = csr.num_arcs;
  g->description = "device arrays";
  g->weight_rule = "given";
  sssp::SolverOptions options;
  options.device = device;
  options.delta = 1;
  // Validated (and measured) once here; the solver's construction runs the
  // same checks on its own copy.
  g->device_summary = sssp::summarize_device_csr(csr, device);
  Session<Weight>& s = session_of<Weight>(*g);
  s.plain[0] = std::make_unique<sssp::GpuSolver<Weight>>(csr, options);
  return g;
}

template std::shared_ptr<PyGraph> from_device_csr(const sssp::DeviceCsrView<std::uint32_t>&, int);
template std::shared_ptr<PyGraph> from_device_csr(const sssp::DeviceCsrView<float>&, int);

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t k = v.size() / 2;
  return v.size() % 2 ? v[k] : 0.5 * (v[k - 1] + v[k]);
}

template <class Weight>
std::vector<graph::distance_t<Weight>> row_of(const SolveOutput& out) {
  if constexpr (std::is_same_v<Weight, std::uint32_t>)
    return std::vector<graph::distance_t<Weight>>(out.int_distances.begin(), out.int_distances.begin() + out.vertices);
  else
    return std::vector<graph::distance_t<Weight>>(out.float_distances.begin(),
                                                  out.float_distances.begin() + out.vertices);
}

template <class Weight>
std::vector<StrategyRun> compare_typed(PyGraph& pg, const graph::Csr<Weight>& g, const CompareRequest& c) {
  if (pg.on_device)
    throw std::invalid_argument("compare validates against Dijkstra on a host copy: build the graph with from_csr");
  if (c.runs < 1) throw std::invalid_argument("runs must be at least 1");
  if (c.source >= g.num_vertices) throw std::out_of_range("source " + std::to_string(c.source) + " is not a vertex");
  std::vector<std::string> names = c.strategies;
  if (names.empty()) {
    if (gpu_usable(nullptr))
      for (const sssp::Strategy st : sssp::all_strategies()) names.push_back(sssp::to_string(st));
    names.push_back("delta-stepping");
    names.push_back("dijkstra");
  }
  const std::vector<graph::distance_t<Weight>> reference = graph::dijkstra(g, c.source);
  std::vector<StrategyRun> runs;
  for (const std::string& name : names) {
    SolveRequest r;
    r.sources = {c.source};
    r.strategy = name;
    r.delta = c.delta;
    r.device = is_cpu_strategy(name) ? "cpu" : "gpu";
    r.contract = c.contract;
    (void)solve_typed(pg, g, r);  // untimed: builds the solver, the contraction and the auto choices
    StrategyRun run;
    SolveOutput out;
    for (int i = 0; i < c.runs; ++i) {
      out = solve_typed(pg, g, r);
      run.solve_ms.push_back(out.per_source.front().solve_ms);
    }
    run.strategy = out.strategy;
    run.device = out.device;
    run.strategy_reason = out.strategy_reason;
    run.median_ms = median_of(run.solve_ms);
    run.min_ms = *std::min_element(run.solve_ms.begin(), run.solve_ms.end());
    run.max_ms = *std::max_element(run.solve_ms.begin(), run.solve_ms.end());
    run.rounds = out.per_source.front().iterations;
    run.relaxations = out.per_source.front().relaxations;
    run.delta = out.delta;
    run.delta_rule = out.delta_rule;
    run.contracted = out.contracted;
    const std::vector<graph::distance_t<Weight>> got = row_of<Weight>(out);
    const graph::ReachStats reach = graph::reach_stats(g, got);
    run.reached_vertices = reach.reached_vertices;
    run.reached_arcs = reach.reached_arcs;
    run.mteps = graph::mteps(reach.reached_arcs, run.median_ms);
    const graph::DistanceMismatches bad = graph::find_distance_mismatches<Weight>(reference, got, 3);
    run.mismatches = bad.count;
    if (bad.none()) {
      run.validation = "ok";
    } else {
      run.validation = std::to_string(bad.count) + " distance mismatches; first:";
      for (const graph::vertex_id v : bad.first)
        run.validation += " vertex " + std::to_string(v) + " got " + graph::format_distance<Weight>(got[v]) +
                          ", expected " + graph::format_distance<Weight>(reference[v]) + ";";
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace

std::vector<StrategyRun> compare(PyGraph& g, const CompareRequest& request) {
  std::lock_guard<std::mutex> lock(g.mutex);
  return std::visit([&](const auto& csr) { return compare_typed(g, csr, request); }, g.csr);
}

}  // namespace pysssp
