#include "sssp/contracted_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "graph/hierarchy.hpp"
#include "graph/reference.hpp"
#include "sssp/common/cuda_check.cuh"
#include "sssp/common/device_memory.cuh"
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
  // solve_batch's: a group's distances (group x n), seeds and pieces.
  detail::DeviceMemory batch_distances, seed_rows, seed_dist, batch_piece_index, batch_piece_dist;
  std::uint64_t batch_capacity = 0, batch_piece_capacity = 0;
  std::vector<std::uint32_t> host_seed_rows, row_of, rows;
  std::vector<std::uint64_t> host_seed_dist, host_piece_index, host_piece_dist, local_relaxations;
  std::vector<char> fell_back;
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

BatchSolveResult<std::uint32_t> ContractedGpuSolver::solve_batch(const std::vector<graph::vertex_id>& sources,
                                                                 Strategy strategy, double delta,
                                                                 ContractedBatchTimes* times) {
  if (!(delta > 0) || !std::isfinite(delta))
    throw std::invalid_argument("sssp: delta must be a positive number, got " + std::to_string(delta));
  if (strategy != Strategy::NearFar && strategy != Strategy::BellmanFord)
    throw std::invalid_argument(std::string("sssp: batched solves run near-far or bellman-ford, not ") +
                                to_string(strategy));
  if (predecessors_) throw std::invalid_argument("sssp: batched solves do not compute predecessors");
  for (const graph::vertex_id s : sources)
    if (s >= g_.num_vertices)
      throw std::out_of_range("sssp: source vertex " + std::to_string(s) + " is out of range (the graph has " +
                              std::to_string(g_.num_vertices) + " vertices, numbered from 0 here)");
  BatchSolveResult<std::uint32_t> out;
  ContractedBatchTimes t;
  out.per_source.resize(sources.size());
  const std::size_t group = sources.empty() || !device_ ? 0 : group_size(sources.size());
  if (group == 0) {
    // A core on the host (or one that leaves no room for a group): the
    // sources one by one, each timed whole.
    for (std::size_t i = 0; i < sources.size(); ++i) {
      ContractedSolveTimes one;
      out.per_source[i] = solve(sources[i], strategy, delta, &one);
      out.solve_ms += out.per_source[i].solve_ms;
      t.host_ms += one.piece_ms + one.expand_ms;
      t.core_ms += one.core_ms;
      t.fell_back += one.fell_back;
      out.per_source[i].solve_ms = 0;
    }
    out.sources_per_launch = 1;
  } else {
    for (std::size_t first = 0; first < sources.size(); first += group)
      solve_group(sources, first, std::min(group, sources.size() - first), strategy, delta, out, t);
    out.solve_ms = t.host_ms + t.core_ms;
  }
  if (times) *times = t;
  return out;
}

std::size_t ContractedGpuSolver::group_size(std::size_t sources) {
  const std::uint64_t n = std::max<std::uint64_t>(g_.num_vertices, 1);
  std::size_t free_bytes = 0, total_bytes = 0;
  SSSP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // What this solver already holds for a group's distances can be reused.
  const std::uint64_t held = device_->batch_capacity * n * 8;
  const std::uint64_t by_memory = (free_bytes + held) / 2 / (n * 8 + 32);
  std::size_t group = static_cast<std::size_t>(std::min<std::uint64_t>(sources, by_memory));
  if (group == 0) return 0;
  if (group > device_->batch_capacity) {
    device_->batch_distances.release();
    device_->seed_rows.release();
    device_->seed_dist.release();
    device_->batch_capacity = 0;
    device_->batch_distances.allocate(group * n * 8, "a contracted batch's distances");
    device_->seed_rows.allocate(group * 2 * 4, "a contracted batch's seeds");
    device_->seed_dist.allocate(group * 2 * 8, "a contracted batch's seed distances");
    device_->batch_capacity = group;
  }
  // The core's launch takes two rows a source at most.
  return std::min<std::size_t>(group, core_->batch_capacity() / 2);
}

void ContractedGpuSolver::solve_group(const std::vector<graph::vertex_id>& sources, std::size_t first,
                                      std::size_t count, Strategy strategy, double delta,
                                      BatchSolveResult<std::uint32_t>& out, ContractedBatchTimes& t) {
  DeviceArrays& d = *device_;
  const std::uint64_t n = g_.num_vertices;
  const auto t0 = Clock::now();
  d.row_of.resize(c_.core.num_vertices, graph::kNoVertex);
  d.rows.clear();
  d.host_seed_rows.assign(2 * count, graph::kNoVertex);
  d.host_seed_dist.assign(2 * count, 0);
  d.host_piece_index.clear();
  d.host_piece_dist.clear();
  d.local_relaxations.assign(count, 0);
  d.fell_back.assign(count, 0);
  for (std::size_t b = 0; b < count; ++b) {
    query_.start(sources[first + b]);
    d.local_relaxations[b] = query_.local_relaxations();
    if (!query_.fits()) {
      d.fell_back[b] = 1;  // solved below, uncontracted on the host; no seeds, no piece
      continue;
    }
    const graph::Seeds seeds = graph::core_seeds(c_, query_);
    if (seeds.size() > 2) throw std::logic_error("sssp: a source enters the core at more than two junctions");
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      const graph::vertex_id v = seeds[i].first;
      if (d.row_of[v] == graph::kNoVertex) {
        d.row_of[v] = static_cast<std::uint32_t>(d.rows.size());
        d.rows.push_back(v);
      }
      d.host_seed_rows[2 * b + i] = d.row_of[v];
      d.host_seed_dist[2 * b + i] = seeds[i].second;
    }
    for (const graph::vertex_id v : query_.piece_vertices()) {
      d.host_piece_index.push_back(b * n + v);
      d.host_piece_dist.push_back(query_.piece_distance(v));
    }
  }
  for (const graph::vertex_id v : d.rows) d.row_of[v] = graph::kNoVertex;
  if (d.host_piece_index.size() > d.batch_piece_capacity) {
    const std::uint64_t capacity = std::max<std::uint64_t>(d.host_piece_index.size(), 2 * d.batch_piece_capacity);
    d.batch_piece_index.release();
    d.batch_piece_dist.release();
    d.batch_piece_capacity = 0;
    d.batch_piece_index.allocate(capacity * 8, "a contracted batch's pieces");
    d.batch_piece_dist.allocate(capacity * 8, "a contracted batch's piece distances");
    d.batch_piece_capacity = capacity;
  }
  BatchReadOff r;
  r.vertices = g_.num_vertices;
  r.sources = static_cast<std::uint32_t>(count);
  r.core_of = d.read_off.core_of.as<std::uint32_t>();
  r.anchor_core = d.read_off.anchor_core.as<std::uint32_t>();
  r.anchor_offset = d.read_off.anchor_offset.as<std::uint64_t>();
  r.host_seed_rows = d.host_seed_rows.data();
  r.host_seed_dist = d.host_seed_dist.data();
  r.seed_rows = d.seed_rows.as<std::uint32_t>();
  r.seed_dist = d.seed_dist.as<std::uint64_t>();
  r.pieces = d.host_piece_index.size();
  r.host_piece_index = d.host_piece_index.data();
  r.host_piece_dist = d.host_piece_dist.data();
  r.piece_index = d.batch_piece_index.as<std::uint64_t>();
  r.piece_dist = d.batch_piece_dist.as<std::uint64_t>();
  r.distances = d.batch_distances.as<std::uint64_t>();
  // Sources whose piece reaches the core farther than an arc can say: exact,
  // on the host, uncontracted (timed with the host part).
  for (std::size_t b = 0; b < count; ++b)
    if (d.fell_back[b]) {
      out.per_source[first + b].distances = graph::dijkstra(g_, sources[first + b]);
      ++t.fell_back;
    }
  t.host_ms += ms_between(t0, Clock::now());
  BatchSolveResult<std::uint32_t> core;
  if (!d.rows.empty() || r.pieces > 0) {
    core = core_->solve_batch_and_read_off(d.rows, strategy, delta, r);
    t.core_ms += core.solve_ms;
    out.finished_alone += core.finished_alone;
    out.solved_together += core.solved_together;
    out.resident += core.resident;
    out.sources_per_launch = std::max<std::uint32_t>(out.sources_per_launch, static_cast<std::uint32_t>(count));
  } else {
    // Nothing to solve on the device (every source fell back or has no
    // piece and no junction): each distance row is infinite but the pieces'.
    SSSP_CUDA_CHECK(cudaMemset(r.distances, 0xFF, count * n * 8));
  }
  t.rows += static_cast<std::uint32_t>(d.rows.size());
  ++t.launches;
  for (std::size_t b = 0; b < count; ++b) {
    SolveResult<std::uint32_t>& one = out.per_source[first + b];
    one.delta = delta;
    if (d.fell_back[b]) continue;
    one.distances.resize(n);
    SSSP_CUDA_CHECK(cudaMemcpy(one.distances.data(), r.distances + b * n, n * 8, cudaMemcpyDeviceToHost));
    one.relaxations = d.local_relaxations[b];
    for (int i = 0; i < 2; ++i) {
      const std::uint32_t row = d.host_seed_rows[2 * b + i];
      if (row == graph::kNoVertex) continue;
      const SolveResult<std::uint32_t>& rs = core.per_source[row];
      one.relaxations += rs.relaxations;
      one.iterations = std::max(one.iterations, rs.iterations);
      one.rounds_narrow = std::max(one.rounds_narrow, rs.rounds_narrow);
      one.rounds_cluster = std::max(one.rounds_cluster, rs.rounds_cluster);
      one.rounds_wide = std::max(one.rounds_wide, rs.rounds_wide);
      one.buckets_processed = std::max(one.buckets_processed, rs.buckets_processed);
      one.delta = rs.delta;
    }
  }
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
