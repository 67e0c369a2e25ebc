#include "sssp/contracted_solver.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "graph/reference.hpp"

namespace sssp {

namespace {
using Clock = std::chrono::steady_clock;
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
}  // namespace

ContractedGpuSolver::ContractedGpuSolver(const graph::IntCsr& g, const graph::ChainContraction& c,
                                         const SolverOptions& options)
    : g_(g),
      c_(c),
      predecessors_(options.predecessors),
      core_(std::make_unique<GpuSolver<std::uint32_t>>(c.core, options)),
      query_(c, g),
      core_on_host_(solves_core_on_host(c)) {
  if (core_on_host_) host_core_ = c.core;
}

ContractedGpuSolver::~ContractedGpuSolver() = default;

GpuSolver<std::uint32_t>& ContractedGpuSolver::core_solver() { return *core_; }

SolveResult<std::uint32_t> ContractedGpuSolver::solve(graph::vertex_id source, Strategy strategy, double delta,
                                                      ContractedSolveTimes* times) {
  // As GpuSolver::solve checks it, also where the core is solved on the host
  // (which needs no delta): one contract for every core size.
  if (!(delta > 0) || !std::isfinite(delta))
    throw std::invalid_argument("sssp: delta must be a positive number, got " + std::to_string(delta));
  if (source >= g_.num_vertices)
    throw std::out_of_range("sssp: source vertex " + std::to_string(source) + " is out of range (the graph has " +
                            std::to_string(g_.num_vertices) + " vertices, numbered from 0 here)");
  ContractedSolveTimes t;
  const auto t0 = Clock::now();
  query_.start(source);
  SolveResult<std::uint32_t> out;
  if (!query_.fits()) {
    // The piece reaches the core farther than an arc's weight can say (a
    // weight near 2^32 on a long path): exact, on the host, uncontracted.
    out.distances = graph::dijkstra(g_, source, predecessors_ ? &out.predecessors : nullptr);
    t.piece_ms = ms_between(t0, Clock::now());
    t.fell_back = true;
    out.solve_ms = t.piece_ms;
    out.delta = delta;
    if (times) *times = t;
    return out;
  }
  SolveResult<std::uint32_t> core;
  if (core_on_host_) {
    query_.apply_entry(host_core_);
    t.piece_ms = ms_between(t0, Clock::now());
    core = solve_host_core(delta);
    t.core_on_host = true;
  } else {
    core_->rewrite_arcs(c_.core.offsets[c_.entry], query_.entry_targets(), query_.entry_weights());
    t.piece_ms = ms_between(t0, Clock::now());
    core = core_->solve(query_.core_source(), strategy, delta);
  }
  t.core_ms = core.solve_ms;
  const auto t2 = Clock::now();
  out.distances.resize(g_.num_vertices);
  if (predecessors_) out.predecessors.resize(g_.num_vertices);
  query_.expand(core.distances.data(), predecessors_ ? core.predecessors.data() : nullptr, out.distances.data(),
                predecessors_ ? out.predecessors.data() : nullptr);
  t.expand_ms = ms_between(t2, Clock::now());
  out.solve_ms = t.core_ms + t.piece_ms + t.expand_ms;
  out.relaxations = core.relaxations + query_.local_relaxations();
  out.iterations = core.iterations;
  out.rounds_narrow = core.rounds_narrow;
  out.rounds_cluster = core.rounds_cluster;
  out.rounds_wide = core.rounds_wide;
  out.cluster_local_steps = core.cluster_local_steps;
  out.resident = core.resident;
  out.buckets_processed = core.buckets_processed;
  out.full_splits = core.full_splits;
  out.full_splits_in_block = core.full_splits_in_block;
  out.full_splits_in_grid = core.full_splits_in_grid;
  out.delta = core.delta;
  if (times) *times = t;
  return out;
}

SolveResult<std::uint32_t> ContractedGpuSolver::solve_host_core(double delta) {
  SolveResult<std::uint32_t> core;
  graph::CpuSolveStats stats;
  const auto start = Clock::now();
  core.distances = graph::dijkstra(host_core_, query_.core_source(), predecessors_ ? &core.predecessors : nullptr, &stats);
  core.solve_ms = ms_between(start, Clock::now());
  core.relaxations = stats.relaxations;
  core.delta = delta;
  return core;
}

}  // namespace sssp
