#include "py_solve.hpp"

#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "app/contract_rule.hpp"
#include "graph/contraction.hpp"
#include "graph/predecessors.hpp"
#include "graph/reference.hpp"
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
void solve_gpu(const graph::Csr<Weight>& g, Session<Weight>& s, const SolveRequest& r, SolveOutput& out) {
  out.device = "gpu";
  out.device_description = sssp::gpu_description(0);
  const bool automatic = r.strategy == "auto";
  sssp::Strategy strategy = automatic ? sssp::Strategy::NearFar : sssp::parse_strategy(r.strategy);
  const int p = r.predecessors ? 1 : 0;
  const auto setup = Clock::now();

  bool contracted = false;
  if constexpr (std::is_same_v<Weight, std::uint32_t>) {
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
  const std::uint64_t resident_limit = r.predecessors || batch ? 0 : sssp::resident_max_vertices(0);

  sssp::SolverOptions options;
  options.predecessors = r.predecessors;
  options.delta = 1;  // every solve passes its delta

  if (automatic || r.delta <= 0) {
    auto key = std::make_pair(contracted, resident_limit);
    auto it = s.auto_choices.find(key);
    if (it == s.auto_choices.end()) {
      AutoChoice a;
      if constexpr (std::is_same_v<Weight, std::uint32_t>) {
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
  if (!s.plain[p]) s.plain[p] = std::make_unique<sssp::GpuSolver<Weight>>(g, options);
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
    if (v >= g.num_vertices) throw std::out_of_range("source " + std::to_string(v) + " is not a vertex");

  SolveOutput out;
  out.rows = r.sources.size();
  out.vertices = g.num_vertices;
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
    solve_gpu(g, s, r, out);
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

}  // namespace pysssp
