#include "sssp/contracted_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "graph/reference.hpp"
#include "sssp/cuda_check.cuh"
#include "sssp/device_memory.cuh"
#include "sssp/read_off_arrays.hpp"

namespace sssp {

namespace {
using Clock = std::chrono::steady_clock;
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
}  // namespace

struct ContractedGpuSolver::DeviceArrays {
  detail::ReadOffArrays read_off;
  detail::DeviceMemory distances, piece_index, piece_dist;
  // With predecessors: what maps them back (read_off.cuh, PredecessorReadOff).
  detail::DeviceMemory piece, core_offsets, core_targets, via, predecessors, piece_pred;
  std::uint32_t piece_capacity = 0;
  std::vector<std::uint64_t> staged_index, staged_dist;  // the piece, before its upload
  std::vector<std::uint32_t> staged_pred;
};

ContractedGpuSolver::ContractedGpuSolver(const graph::IntCsr& g, const graph::ChainContraction& c,
                                         const SolverOptions& options)
    : g_(g),
      c_(c),
      predecessors_(options.predecessors),
      core_(std::make_unique<GpuSolver<std::uint32_t>>(c.core, options)),
      query_(c, g),
      core_on_host_(solves_core_on_host(c)) {
  if (core_on_host_) host_core_ = c.core;
  if (core_on_host_) return;
  // Once per contraction: each vertex's core id and anchors, 36 bytes a
  // vertex; with predecessors also the anchors' predecessors, the pieces and
  // the core graph in its input order with its vias.
  SSSP_CUDA_CHECK(cudaSetDevice(options.device));
  device_ = std::make_unique<DeviceArrays>();
  device_->read_off.upload(c, predecessors_, 0);
  device_->distances.allocate(std::size_t{g.num_vertices} * 8, "the read-off distances");
  if (predecessors_) {
    detail::upload(device_->piece, c.piece, "the contraction's pieces", 0);
    detail::upload(device_->core_offsets, c.core.offsets, "the core's offsets", 0);
    detail::upload(device_->core_targets, c.core.targets, "the core's targets", 0);
    detail::upload(device_->via, c.via, "the core arcs' vias", 0);
    device_->predecessors.allocate(std::size_t{g.num_vertices} * 4, "the read-off predecessors");
  }
  // The uploads came from pageable memory on the legacy stream; the solver's
  // stream does not wait for it.
  SSSP_CUDA_CHECK(cudaDeviceSynchronize());
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
    if (device_) {
      const DeviceReadOff read_off = stage_pieces();
      t.piece_ms = ms_between(t0, Clock::now());
      core = core_->solve_and_read_off(query_.core_source(), strategy, delta, read_off);
      t.read_off_on_device = true;
    } else {
      t.piece_ms = ms_between(t0, Clock::now());
      core = core_->solve(query_.core_source(), strategy, delta);
    }
  }
  t.core_ms = core.solve_ms;
  if (t.read_off_on_device) {
    out.distances = std::move(core.distances);
    out.predecessors = std::move(core.predecessors);
  } else {
    const auto t2 = Clock::now();
    out.distances.resize(g_.num_vertices);
    if (predecessors_) out.predecessors.resize(g_.num_vertices);
    query_.expand(core.distances.data(), predecessors_ ? core.predecessors.data() : nullptr, out.distances.data(),
                  predecessors_ ? out.predecessors.data() : nullptr);
    t.expand_ms = ms_between(t2, Clock::now());
  }
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

DeviceReadOff ContractedGpuSolver::stage_pieces() {
  DeviceArrays& d = *device_;
  const std::vector<graph::vertex_id>& piece = query_.piece_vertices();
  d.staged_index.assign(piece.begin(), piece.end());
  d.staged_dist.resize(piece.size());
  for (std::size_t i = 0; i < piece.size(); ++i) d.staged_dist[i] = query_.piece_distance(piece[i]);
  if (predecessors_) {
    d.staged_pred.resize(piece.size());
    for (std::size_t i = 0; i < piece.size(); ++i) d.staged_pred[i] = query_.piece_predecessor(piece[i]);
  }
  if (piece.size() > d.piece_capacity) {
    const std::uint32_t capacity = static_cast<std::uint32_t>(std::max<std::size_t>(piece.size(), 2 * d.piece_capacity));
    d.piece_index.release();
    d.piece_dist.release();
    d.piece_pred.release();
    d.piece_index.allocate(std::size_t{capacity} * 8, "the source's piece");
    d.piece_dist.allocate(std::size_t{capacity} * 8, "the source's piece distances");
    if (predecessors_) d.piece_pred.allocate(std::size_t{capacity} * 4, "the source's piece predecessors");
    d.piece_capacity = capacity;
  }
  DeviceReadOff r;
  r.vertices = g_.num_vertices;
  r.core_of = d.read_off.core_of.as<std::uint32_t>();
  r.anchor_core = d.read_off.anchor_core.as<std::uint32_t>();
  r.anchor_offset = d.read_off.anchor_offset.as<std::uint64_t>();
  r.pieces = static_cast<std::uint32_t>(piece.size());
  r.host_piece_index = d.staged_index.data();
  r.host_piece_dist = d.staged_dist.data();
  r.piece_index = d.piece_index.as<std::uint64_t>();
  r.piece_dist = d.piece_dist.as<std::uint64_t>();
  r.distances = d.distances.as<std::uint64_t>();
  if (predecessors_) {
    r.anchor_pred = d.read_off.anchor_pred.as<std::uint32_t>();
    r.piece = d.piece.as<std::uint32_t>();
    r.core_offsets = d.core_offsets.as<std::uint64_t>();
    r.core_targets = d.core_targets.as<std::uint32_t>();
    r.via = d.via.as<std::uint32_t>();
    r.entry = c_.entry;
    for (std::size_t i = 0; i < graph::ChainContraction::kEntryArcs; ++i) {
      r.entry_targets[i] = query_.entry_targets()[i];
      r.entry_preds[i] = query_.entry_preds()[i];
    }
    r.host_piece_pred = d.staged_pred.data();
    r.piece_pred = d.piece_pred.as<std::uint32_t>();
    r.source = query_.source();
    r.predecessors = d.predecessors.as<std::uint32_t>();
  }
  return r;
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
