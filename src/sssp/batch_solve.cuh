// Many sources on one DeviceGraph (GpuSolver::solve_batch): one block per
// source in the single-block loop (or the resident block, where the plan
// runs it), sources whose frontier outgrows their block solved together on
// copies of the graph (or alone, where the copies do not fit), the labels
// read back through a pinned buffer kept between calls, or read off on the
// device for a contracted graph (BatchReadOff).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "sssp/single_solve.cuh"

namespace sssp::detail {

// Labels of `count` sources' arrays, `stride` apart: source sources[b]'s
// array starts at labels + b * stride.
template <class Codec>
__global__ void init_labels_batch(label_t* labels, std::uint32_t n, std::uint64_t stride, const std::uint32_t* sources,
                                  std::uint32_t count) {
  const std::uint64_t total = stride * count;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t b = i / stride, v = i % stride;
    if (v < n) labels[i] = v == sources[b] ? Codec::source_label() : Codec::initial_label();
  }
}

// Each source alone in its first queue (queues `stride` entries apart).
template <int kUnused = 0>
__global__ void seed_batch_queues(std::uint32_t* queues, std::uint64_t stride, const std::uint32_t* sources,
                                  std::uint32_t count) {
  for (std::uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b < count; b += gridDim.x * blockDim.x)
    queues[stride * b] = sources[b];
}

// fn(i) for i in [0, count) on up to one thread per core, rows of a batch's
// read-back: filling fresh rows costs mostly their pages' first touch, which
// threads take in parallel. fn must not throw.
template <class Fn>
void for_each_in_parallel(std::uint64_t count, Fn fn) {
  const std::uint64_t threads = std::min<std::uint64_t>(count, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> helpers;
  for (std::uint64_t t = 1; t < threads; ++t)
    helpers.emplace_back([&fn, t, threads, count] {
      for (std::uint64_t i = t; i < count; i += threads) fn(i);
    });
  for (std::uint64_t i = 0; i < count; i += std::max<std::uint64_t>(threads, 1)) fn(i);
  for (std::thread& h : helpers) h.join();
}

// A batch row's distances as the read-off reads them: source b's core
// distance at v, the nearest of its seeds' rows (in the device's order,
// `stride` labels apart) plus the seed's distance.
template <class Codec>
struct SeededRowDistance {
  const label_t* rows;
  std::uint64_t stride;
  const std::uint32_t* new_id;  // renumbered: input id -> device id
  const std::uint32_t* seed_rows;
  const std::uint64_t* seed_dist;
  __device__ std::uint64_t operator()(std::uint32_t b, std::uint32_t v) const {
    const std::uint32_t at = new_id ? new_id[v] : v;
    std::uint64_t best = kReadOffInf;
    for (int i = 0; i < 2; ++i) {
      const std::uint32_t row = seed_rows[2 * std::uint64_t{b} + i];
      if (row == graph::kNoVertex) continue;
      const auto d = Codec::dist(rows[row * stride + at]);
      if (!Codec::is_inf(d)) best = min(best, seed_dist[2 * std::uint64_t{b} + i] + static_cast<std::uint64_t>(d));
    }
    return best;
  }
};

template <class Weight>
class BatchSolver {
 public:
  explicit BatchSolver(DeviceGraph<Weight>& graph) : g_(graph) {}

  BatchSolveResult<Weight> solve(const std::vector<graph::vertex_id>& sources, Strategy strategy, double delta,
                                 const BatchReadOff* read_off = nullptr) {
    for (const graph::vertex_id s : sources)
      if (s >= g_.n)
        throw std::out_of_range("sssp: source vertex " + std::to_string(s) + " is out of range (the graph has " +
                                std::to_string(g_.n) + " vertices, numbered from 0 here)");
    if (!(delta > 0) || !std::isfinite(delta))
      throw std::invalid_argument("sssp: delta must be a positive number, got " + std::to_string(delta));
    if (strategy != Strategy::NearFar && strategy != Strategy::BellmanFord)
      throw std::invalid_argument(std::string("sssp: batched solves run near-far or bellman-ford, not ") +
                                  to_string(strategy));
    if (g_.options.predecessors) throw std::invalid_argument("sssp: batched solves do not compute predecessors");
    SSSP_CUDA_CHECK(cudaSetDevice(g_.options.device));
    std::vector<graph::vertex_id> ids(sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i) ids[i] = g_.device_vertex(sources[i]);
    if constexpr (std::is_same_v<Weight, float>) {
      if (read_off) throw std::invalid_argument("sssp: a batch's read-off on the device needs integer weights");
      return Run<PackedCodec<float>>(*this, ids, strategy, delta, nullptr).all();
    } else {
      return g_.packed ? Run<PackedCodec<std::uint32_t>>(*this, ids, strategy, delta, read_off).all()
                       : Run<WideCodec>(*this, ids, strategy, delta, read_off).all();
    }
  }

  // How many of `count` sources one batched launch takes: what free memory
  // holds beyond the graph's own (and its limit), at most 8 blocks per
  // SM's worth (more wait in line anyway). Throws when not one fits.
  std::uint64_t chunk(std::uint64_t count) {
    const std::uint64_t per_source = bytes_per_source();
    std::size_t free_bytes = 0, total_bytes = 0;
    SSSP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // What this solver holds for batches can be reused.
    std::uint64_t available = free_bytes + batch_bytes_ + together_bytes();
    const std::uint64_t limit = g_.options.memory_limit_bytes;
    if (limit != 0) available = std::min<std::uint64_t>(available, limit > g_.device_bytes ? limit - g_.device_bytes : 0);
    const std::uint64_t headroom = 64ull << 20;  // for the driver and the single-source loop's launches
    const std::uint64_t fit = available > headroom ? (available - headroom) / per_source : 0;
    if (fit == 0)
      throw std::runtime_error("sssp: a batched source needs " + format_bytes(per_source) + " on GPU " +
                               std::to_string(g_.options.device) + ", but only " + format_bytes(available) +
                               " are free beyond the solver's own");
    return std::min<std::uint64_t>({fit, count, std::uint64_t{8} * g_.sm_count});
  }

 private:
  template <class Codec>
  struct Run;

  // A batch's per-source device bytes: labels, two stamp arrays, two
  // frontier and two far queues, a state slot, and the source id.
  std::uint64_t bytes_per_source() const {
    const std::uint64_t nn = std::max<std::uint64_t>(g_.n, 1), qcap = nn + 1;
    return nn * 8 + 2 * nn * 4 + 4 * qcap * 4 + kStateBytes + 4;
  }

  std::uint64_t together_bytes() const { return together_ ? together_->device_bytes : 0; }

  // How many sources that outgrew their block to solve together, as copies
  // of the graph: all `outgrown` of them if they fit free memory (a copy
  // needs about the graph's memory) and the vertex ids (below 2^30);
  // 0 when fewer than 2 fit (they finish one at a time).
  std::uint32_t copies_together(std::size_t outgrown) {
    if (outgrown < 2) return 0;
    const std::uint64_t id_fit = ((1ull << 30) - 1) / std::max<std::uint64_t>(g_.n, 1);
    std::uint64_t copies = std::min<std::uint64_t>(outgrown, id_fit);
    if (together_ && together_copies_ >= copies) return static_cast<std::uint32_t>(copies);
    std::size_t free_bytes = 0, total_bytes = 0;
    SSSP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    std::uint64_t available = free_bytes + together_bytes();  // a smaller set of copies is replaced
    const std::uint64_t limit = g_.options.memory_limit_bytes;
    if (limit != 0) {
      const std::uint64_t held = g_.device_bytes + batch_bytes_;
      available = std::min<std::uint64_t>(available, limit > held ? limit - held : 0);
    }
    const std::uint64_t headroom = 64ull << 20;
    copies = std::min<std::uint64_t>(copies, available > headroom ? (available - headroom) / g_.device_bytes : 0);
    return copies >= 2 ? static_cast<std::uint32_t>(copies) : 0;
  }

  // The copies of the graph for `copies` sources (at least that many; made
  // or replaced when there are fewer).
  DeviceGraph<Weight>& together(std::uint32_t copies) {
    if (!together_ || together_copies_ < copies) {
      together_.reset();
      together_copies_ = 0;
      together_ = std::make_unique<DeviceGraph<Weight>>(g_, copies);
      together_copies_ = copies;
    }
    return *together_;
  }

  // The per-source arrays for `chunk` sources (kept between calls; the
  // copies of the graph are given up first when they grow).
  unsigned char* per_source_arrays(std::uint64_t chunk) {
    const std::uint64_t bytes = chunk * bytes_per_source();
    if (bytes > batch_bytes_) {
      together_.reset();
      together_copies_ = 0;
      batch_.release();
      batch_bytes_ = 0;
      batch_.allocate(bytes, "batched sources");
      batch_bytes_ = bytes;
    }
    return batch_.as<unsigned char>();
  }

  // The pinned read-back buffer, at least `bytes` (kept between calls).
  void* read_back_buffer(std::uint64_t bytes) {
    if (bytes > labels_bytes_) {
      labels_.release();
      labels_bytes_ = 0;
      labels_.allocate(bytes);
      labels_bytes_ = bytes;
    }
    return labels_.as<void>();
  }

  // A batch's seeds and pieces, up before its timed region.
  static void upload_read_off(const BatchReadOff& r) {
    if (r.sources > 0) {
      SSSP_CUDA_CHECK(cudaMemcpy(r.seed_rows, r.host_seed_rows, std::size_t{r.sources} * 2 * 4, cudaMemcpyHostToDevice));
      SSSP_CUDA_CHECK(cudaMemcpy(r.seed_dist, r.host_seed_dist, std::size_t{r.sources} * 2 * 8, cudaMemcpyHostToDevice));
    }
    if (r.pieces > 0) {
      SSSP_CUDA_CHECK(cudaMemcpy(r.piece_index, r.host_piece_index, r.pieces * 8, cudaMemcpyHostToDevice));
      SSSP_CUDA_CHECK(cudaMemcpy(r.piece_dist, r.host_piece_dist, r.pieces * 8, cudaMemcpyHostToDevice));
    }
  }

  // The read-off of every source of a batch (BatchReadOff), timed by the
  // graph's events; returns its milliseconds.
  template <class Codec>
  double launch_read_off(const BatchReadOff& r, const label_t* rows, std::uint64_t stride) {
    SSSP_CUDA_CHECK(cudaEventRecord(g_.start, g_.stream));
    if (r.sources > 0) {
      const SeededRowDistance<Codec> core_distance{
          rows, stride, g_.host_order.empty() ? nullptr : g_.new_id.template as<std::uint32_t>(), r.seed_rows,
          r.seed_dist};
      read_off_anchors<<<grid_for(std::uint64_t{r.vertices} * r.sources, 256, g_.ws.stream_grid), 256, 0,
                         g_.stream>>>(r.vertices, r.sources, r.core_of, r.anchor_core, r.anchor_offset, core_distance,
                                      r.distances);
      SSSP_CHECK_LAUNCH("read_off_anchors");
    }
    if (r.pieces > 0) {
      lower_pieces<<<grid_for(r.pieces, 256, g_.ws.stream_grid), 256, 0, g_.stream>>>(r.pieces, r.piece_index,
                                                                                     r.piece_dist, r.distances);
      SSSP_CHECK_LAUNCH("lower_pieces");
    }
    SSSP_CUDA_CHECK(cudaEventRecord(g_.stop, g_.stream));
    SSSP_CUDA_CHECK(cudaEventSynchronize(g_.stop));
    float ms = 0;
    SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, g_.start, g_.stop));
    return ms;
  }

  DeviceGraph<Weight>& g_;
  DeviceMemory batch_;  // the per-source arrays, kept between calls
  std::uint64_t batch_bytes_ = 0;
  PinnedMemory labels_;  // the read-back of a launch's labels, kept between calls
  std::uint64_t labels_bytes_ = 0;
  // Sources that outgrow their block are solved together on this many
  // copies of the graph (kept between calls; empty until needed).
  std::unique_ptr<DeviceGraph<Weight>> together_;
  std::uint32_t together_copies_ = 0;
};

// One call of BatchSolver::solve: its sources (in the device's numbering;
// the distances come back in the input's) and their arrays, one allocation
// for a chunk of them (labels, two stamp arrays, two frontier and two far
// queues, a state slot, and the source id), solved a chunk per launch. With
// a read-off, every source fits one launch (the caller checked
// batch_capacity), and the rows stay on the device for it.
template <class Weight>
template <class Codec>
struct BatchSolver<Weight>::Run {
  using Delta = typename Codec::Delta;

  Run(BatchSolver& owner, const std::vector<graph::vertex_id>& batch_sources, Strategy batch_strategy,
      double requested_delta, const BatchReadOff* batch_read_off)
      : solver(owner),
        g(owner.g_),
        sources(batch_sources),
        strategy(batch_strategy),
        delta(codec_delta<Codec>(requested_delta)),
        read_off(batch_read_off),
        nn(std::max<std::uint64_t>(owner.g_.n, 1)),
        qcap(nn + 1) {}

  BatchSolveResult<Weight> all() {
    out.per_source.resize(sources.size());
    if (sources.empty() && !read_off) return std::move(out);
    g.ws.track_pred = false;
    chunk = solver.chunk(std::max<std::uint64_t>(sources.size(), 1));
    if (read_off && sources.size() > chunk)
      throw std::invalid_argument("sssp: a batch read off on the device takes at most " + std::to_string(chunk) +
                                  " rows now, got " + std::to_string(sources.size()));
    unsigned char* base = solver.per_source_arrays(chunk);
    out.sources_per_launch = static_cast<std::uint32_t>(chunk);
    labels_all = reinterpret_cast<label_t*>(base);
    stamps_a_all = reinterpret_cast<std::uint32_t*>(base + chunk * nn * 8);
    stamps_b_all = stamps_a_all + chunk * nn;
    queues_all = stamps_b_all + chunk * nn;  // small0, small1, far0, far1: chunk * qcap entries each
    states_all = reinterpret_cast<unsigned char*>(queues_all + 4 * chunk * qcap);
    ids = reinterpret_cast<std::uint32_t*>(states_all + chunk * kStateBytes);
    host_states.resize(chunk * kStateBytes);
    // The labels come back through a pinned buffer kept between calls (a
    // pageable vector of K x n labels cost more than the batch's solve:
    // allocation, zero fill, staged copy), up to 256 MiB of it at a time.
    sources_per_copy = std::max<std::uint64_t>(1, std::min<std::uint64_t>(chunk, (256ull << 20) / (nn * 8)));
    host_labels = static_cast<label_t*>(solver.read_back_buffer(sources_per_copy * nn * 8));

    SSSP_CUDA_CHECK(cudaMemsetAsync(g.ws.balance.bins.counters, 0, sizeof(BinCounters), g.stream));
    if (read_off) upload_read_off(*read_off);
    bool in_resident = false;
    if constexpr (Codec::kPackedPredecessors) in_resident = g.plan.resident && strategy == Strategy::NearFar;
    for (std::size_t first = 0; first < sources.size(); first += chunk) {
      const std::uint64_t count = std::min<std::uint64_t>(chunk, sources.size() - first);
      if (in_resident) {
        resident_chunk(first, count);
      } else if (strategy == Strategy::NearFar) {
        engine_chunk(NearFarPolicy<Codec>{}, first, count);
      } else {
        engine_chunk(BellmanFordPolicy<Codec>{}, first, count);
      }
      if (!read_off) copy_back(first, count);  // with a read-off the rows stay on the device
    }
    if (read_off) out.solve_ms += solver.template launch_read_off<Codec>(*read_off, labels_all, nn);
    return std::move(out);
  }

 private:
  // Source b's workspace: the graph's, with b's arrays.
  Workspace<Weight> workspace_of(std::uint64_t b) const {
    Workspace<Weight> w = g.ws;
    w.labels = labels_all + b * nn;
    w.stamps_a = stamps_a_all + b * nn;
    w.stamps_b = stamps_b_all + b * nn;
    w.small[0] = queues_all + (0 * chunk + b) * qcap;
    w.small[1] = queues_all + (1 * chunk + b) * qcap;
    w.far[0] = queues_all + (2 * chunk + b) * qcap;
    w.far[1] = queues_all + (3 * chunk + b) * qcap;
    w.small_capacity = qcap;
    w.state = states_all + b * kStateBytes;
    return w;
  }

  void record(std::size_t index, const SolveCounters& counts, std::uint64_t relaxations) {
    SolveResult<Weight>& r = out.per_source[index];
    static_cast<SolveCounters&>(r) = counts;
    r.relaxations = relaxations;
    if (strategy == Strategy::BellmanFord) r.buckets_processed = 0;
    r.delta = static_cast<double>(delta);
  }

  // A source that outgrew its block, finished alone on the whole device.
  template <class Policy>
  SolveCounters finish_alone(const Workspace<Weight>& w) {
    return with_balance(g.plan.load_balance, [&](auto balance) {
      return continue_engine<Policy, decltype(balance)>(w, [](const typename Policy::State&) {
        throw std::logic_error("sssp: a batched source asked for a full split");
      });
    });
  }

  // A chunk's sources in the single-block loop, one block each; those whose
  // frontier outgrows their block finish together on copies of the graph,
  // or alone.
  template <class Policy>
  void engine_chunk(Policy, std::size_t first, std::uint64_t count) {
    using State = typename Policy::State;
    static_assert(sizeof(State) <= kStateBytes);
    for (std::uint64_t b = 0; b < count; ++b) {
      const Workspace<Weight> w = workspace_of(b);
      State init{};
      if constexpr (std::is_same_v<Policy, NearFarPolicy<Codec>>) {
        init = Policy::initial_state(w, delta);
      } else {
        init.loop = initial_loop(w);
      }
      std::memcpy(host_states.data() + b * kStateBytes, &init, sizeof init);
    }
    SSSP_CUDA_CHECK(cudaMemcpy(ids, sources.data() + first, count * 4, cudaMemcpyHostToDevice));
    SSSP_CUDA_CHECK(cudaMemcpy(states_all, host_states.data(), count * kStateBytes, cudaMemcpyHostToDevice));
    SSSP_CUDA_CHECK(cudaEventRecord(g.start, g.stream));
    init_labels_batch<Codec><<<grid_for(count * nn, 256, g.ws.stream_grid), 256, 0, g.stream>>>(
        labels_all, g.n, nn, ids, static_cast<std::uint32_t>(count));
    SSSP_CHECK_LAUNCH("init_labels_batch");
    SSSP_CUDA_CHECK(cudaMemsetAsync(stamps_a_all, 0, 2 * count * nn * 4, g.stream));
    seed_batch_queues<><<<grid_for(count, 256, g.ws.stream_grid), 256, 0, g.stream>>>(
        queues_all, qcap, ids, static_cast<std::uint32_t>(count));
    SSSP_CHECK_LAUNCH("seed_batch_queues");
    allow_narrow_shared<Codec>(engine_narrow_batch<Policy>);
    // Each source's block keeps the full arc limit (a source leaving its
    // block is finished on copies of the graph, which costs more than its
    // block's rounds; the single-source loop's lower default does not apply).
    const EngineContext<Weight> ctx{g.ws.graph, labels_all, stamps_a_all, stamps_b_all, false,
                                    g.plan.batch_narrow_max_arcs};
    engine_narrow_batch<Policy><<<static_cast<unsigned>(count), kSmallBlock, sizeof(NarrowShared<Codec>), g.stream>>>(
        ctx, nn, states_all, kStateBytes);
    SSSP_CHECK_LAUNCH("engine_narrow_batch");
    SSSP_CUDA_CHECK(
        cudaMemcpyAsync(host_states.data(), states_all, count * kStateBytes, cudaMemcpyDeviceToHost, g.stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(g.stream));
    std::vector<std::uint64_t> outgrown;
    for (std::uint64_t b = 0; b < count; ++b) {
      State st;
      std::memcpy(&st, host_states.data() + b * kStateBytes, sizeof st);
      throw_loop_error(st.loop);
      if (st.loop.done) {
        const SolveCounters counts = loop_stats<Policy>(st);
        record(first + b, counts, counts.relaxations);
      } else {
        outgrown.push_back(b);
      }
    }
    const std::uint32_t copies = solver.copies_together(outgrown.size());
    if (copies < 2) {
      for (const std::uint64_t b : outgrown) {
        Workspace<Weight> w = workspace_of(b);
        w.host_state = g.host_state.template as<void>();
        const SolveCounters counts = finish_alone<Policy>(w);
        record(first + b, counts, counts.relaxations);
        ++out.finished_alone;
      }
    }
    out.solve_ms += elapsed_ms(g);
    if (copies >= 2) solve_together(first, outgrown, copies);
  }

  // Sources of the chunk (indexes b) whose frontier outgrew their block,
  // solved together as copies of the graph, `copies` at a time; their
  // label rows are copied back into the chunk's.
  void solve_together(std::size_t first, const std::vector<std::uint64_t>& outgrown, std::uint32_t copies) {
    for (std::size_t g0 = 0; g0 < outgrown.size(); g0 += copies) {
      const auto group = static_cast<std::uint32_t>(std::min<std::size_t>(copies, outgrown.size() - g0));
      DeviceGraph<Weight>& t = solver.together(copies);
      std::vector<std::uint32_t> group_sources(group), seeds(group);
      for (std::uint32_t c = 0; c < group; ++c) {
        group_sources[c] = sources[first + outgrown[g0 + c]];
        seeds[c] = c * g.n + group_sources[c];  // copy c's vertex
      }
      // The chunk's ids are free once its launch has ended.
      SSSP_CUDA_CHECK(cudaMemcpy(ids, group_sources.data(), std::size_t{group} * 4, cudaMemcpyHostToDevice));
      SSSP_CUDA_CHECK(cudaEventRecord(t.start, t.stream));
      init_labels_batch<Codec><<<grid_for(group * nn, 256, t.ws.stream_grid), 256, 0, t.stream>>>(t.ws.labels, g.n,
                                                                                               nn, ids, group);
      SSSP_CHECK_LAUNCH("init_labels_batch");
      // Only the group's copies are read: the others are not reachable from its sources.
      SSSP_CUDA_CHECK(cudaMemsetAsync(t.ws.stamps_a, 0, group * nn * 4, t.stream));
      SSSP_CUDA_CHECK(cudaMemsetAsync(t.ws.stamps_b, 0, group * nn * 4, t.stream));
      SSSP_CUDA_CHECK(cudaMemsetAsync(t.ws.balance.bins.counters, 0, sizeof(BinCounters), t.stream));
      t.ws.track_pred = false;
      const SolveCounters counts = run_strategy<Codec>(t, strategy, FirstFrontier(seeds), delta);
      for (std::uint32_t c = 0; c < group; ++c)
        SSSP_CUDA_CHECK(cudaMemcpyAsync(labels_all + outgrown[g0 + c] * nn, t.ws.labels + c * nn, nn * 8,
                                        cudaMemcpyDeviceToDevice, t.stream));
      out.solve_ms += elapsed_ms(t);
      // The engine counts the solve's relaxations, not each copy's: each
      // source of the group is charged an equal share.
      for (std::uint32_t c = 0; c < group; ++c)
        record(first + outgrown[g0 + c], counts,
               counts.relaxations / group + (c < counts.relaxations % group ? 1 : 0));
      out.solved_together += group;
    }
  }

  // A chunk's near-far solves in the resident block where the graph's
  // single solves run there: one block per source, each with the whole
  // solve in its SM's shared memory, none outgrowing it.
  void resident_chunk(std::size_t first, std::uint64_t count) {
    static_assert(sizeof(ResidentStats) <= kStateBytes, "a source's counts fit its state slot");
    auto* stats_all = reinterpret_cast<ResidentStats*>(states_all);
    SSSP_CUDA_CHECK(cudaMemcpy(ids, sources.data() + first, count * 4, cudaMemcpyHostToDevice));
    SSSP_CUDA_CHECK(cudaEventRecord(g.start, g.stream));
    if constexpr (Codec::kPackedPredecessors)
      launch_resident<Codec>(g, ResidentSources{ids, 0, nn}, static_cast<std::uint32_t>(count), labels_all, delta,
                             stats_all);
    SSSP_CUDA_CHECK(cudaEventRecord(g.stop, g.stream));
    SSSP_CUDA_CHECK(cudaMemcpyAsync(host_states.data(), stats_all, count * sizeof(ResidentStats),
                                    cudaMemcpyDeviceToHost, g.stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(g.stream));
    float ms = 0;
    SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, g.start, g.stop));
    out.solve_ms += ms;
    for (std::uint64_t b = 0; b < count; ++b) {
      ResidentStats r{};
      std::memcpy(&r, host_states.data() + b * sizeof r, sizeof r);
      record(first + b, resident_counters(r), r.relaxations);
      out.per_source[first + b].resident = true;
    }
    out.resident += static_cast<std::uint32_t>(count);
  }

  // A chunk's label rows into its sources' distance vectors.
  void copy_back(std::size_t first, std::uint64_t count) {
    for (std::uint64_t b0 = 0; b0 < count; b0 += sources_per_copy) {
      const std::uint64_t copied = std::min(sources_per_copy, count - b0);
      SSSP_CUDA_CHECK(cudaMemcpyAsync(host_labels, labels_all + b0 * nn, copied * nn * 8, cudaMemcpyDeviceToHost,
                                      g.stream));
      SSSP_CUDA_CHECK(cudaStreamSynchronize(g.stream));
      // Reserved here, filled on several threads (the rows' first touch
      // dominates the read-back, and threads take it in parallel).
      for (std::uint64_t b = 0; b < copied; ++b) out.per_source[first + b0 + b].distances.reserve(g.n);
      for_each_in_parallel(copied, [&](std::uint64_t b) {
        auto& d = out.per_source[first + b0 + b].distances;
        d.resize(g.n);
        const label_t* row = host_labels + b * nn;
        if (g.host_order.empty()) {
          for (std::uint32_t v = 0; v < g.n; ++v) d[v] = Codec::host_distance(row[v]);
        } else {
          for (std::uint32_t v = 0; v < g.n; ++v) d[v] = Codec::host_distance(row[g.host_order.new_id[v]]);
        }
      });
    }
  }

  // The milliseconds since graph's start event, to a stop event recorded now.
  static double elapsed_ms(DeviceGraph<Weight>& on) {
    SSSP_CUDA_CHECK(cudaEventRecord(on.stop, on.stream));
    SSSP_CUDA_CHECK(cudaEventSynchronize(on.stop));
    float ms = 0;
    SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, on.start, on.stop));
    return ms;
  }

  BatchSolver& solver;
  DeviceGraph<Weight>& g;
  const std::vector<graph::vertex_id>& sources;
  const Strategy strategy;
  const Delta delta;
  const BatchReadOff* const read_off;
  const std::uint64_t nn, qcap;
  std::uint64_t chunk = 0, sources_per_copy = 0;
  label_t* labels_all = nullptr;
  std::uint32_t *stamps_a_all = nullptr, *stamps_b_all = nullptr, *queues_all = nullptr, *ids = nullptr;
  unsigned char* states_all = nullptr;
  std::vector<unsigned char> host_states;
  label_t* host_labels = nullptr;
  BatchSolveResult<Weight> out;
};

}  // namespace sssp::detail
