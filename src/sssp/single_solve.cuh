// One solve from one source on a DeviceGraph: label initialisation, the
// strategy's device loop (or the whole solve in the resident block, where
// the plan runs it), predecessors, the renumbered graph's ids mapped back,
// the contracted graph's read-off, and the read-back, between the CUDA
// events that time it.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "sssp/device_graph.cuh"
#include "sssp/policies/bellman_ford.cuh"
#include "sssp/policies/bucketing.cuh"
#include "sssp/policies/near_far.cuh"
#include "sssp/predecessors.cuh"
#include "sssp/read_off.cuh"

namespace sssp::detail {

template <class Codec>
__global__ void init_labels(label_t* labels, std::uint32_t n, std::uint32_t source) {
  for (std::uint64_t v = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
    labels[v] = v == source ? Codec::source_label() : Codec::initial_label();
}

template <class Codec>
typename Codec::Delta codec_delta(double delta) {
  if constexpr (std::is_same_v<typename Codec::Delta, float>) {
    const float d = static_cast<float>(delta);
    return d > 0 ? d : std::numeric_limits<float>::denorm_min();
  } else {
    // Integer distances: whole-number buckets, at least 1 (and small enough
    // that thresholds never overflow).
    const double d = std::floor(delta);
    if (d < 1) return 1;
    return d > 4.6e18 ? static_cast<std::uint64_t>(4.6e18) : static_cast<std::uint64_t>(d);
  }
}


// One solve with `strategy` from `first` on this solver's workspace, its
// labels and stamps initialised already.
template <class Codec, class Weight>
SolveCounters run_strategy(DeviceGraph<Weight>& g, Strategy strategy, FirstFrontier first, typename Codec::Delta delta) {
  return with_balance(g.plan.load_balance, [&](auto balance) {
    using Balance = decltype(balance);
    switch (strategy) {
      case Strategy::BellmanFord: return run_bellman_ford<Codec, Balance>(g.ws, first);
      case Strategy::NearFar: return run_near_far<Codec, Balance>(g.ws, first, delta);
      case Strategy::BucketSort: return run_bucketing<Codec, Balance>(g.ws, first, delta, g.options.buckets, false);
      case Strategy::BucketMultisplit: return run_bucketing<Codec, Balance>(g.ws, first, delta, g.options.buckets, true);
    }
    throw std::logic_error("sssp: unknown strategy");
  });
}

// A solve's distances as the read-off reads them (read_off.cuh).
template <class Codec>
struct LabelDistance {
  const label_t* labels;
  __device__ std::uint64_t operator()(std::uint32_t, std::uint32_t v) const {
    const auto d = Codec::dist(labels[v]);
    return Codec::is_inf(d) ? kReadOffInf : static_cast<std::uint64_t>(d);
  }
};

// A solve's predecessors as the read-off reads them: in the labels (the
// device's ids, mapped back through old_id when renumbered), or in their
// own array already in the input's ids.
template <class Codec>
struct LabelPredecessor {
  const label_t* labels;
  const std::uint32_t* preds;   // without packed predecessors
  const std::uint32_t* old_id;  // renumbered, packed: device id -> input id
  std::uint32_t n;
  __device__ std::uint32_t operator()(std::uint32_t v) const {
    if (!Codec::kPackedPredecessors) return preds[v];
    const auto p = static_cast<std::uint32_t>(labels[v] & 0xFFFFFFFFull);
    if (p >= n) return graph::kNoVertex;
    return old_id ? old_id[p] : p;
  }
};

// The original graph's distances (and predecessors) from the labels, on
// the stream.
template <class Codec, class Weight>
void launch_read_off(DeviceGraph<Weight>& g, const DeviceReadOff& r, const label_t* labels, const std::uint32_t* preds) {
  const int grid = grid_for(r.vertices, 256, g.ws.stream_grid);
  if (g.options.predecessors) {
    PredecessorReadOff p{r.anchor_pred, r.piece, r.core_offsets, r.core_targets, r.via, r.entry,
                         {r.entry_targets[0], r.entry_targets[1]}, {r.entry_preds[0], r.entry_preds[1]}};
    const LabelPredecessor<Codec> core_pred{labels, preds, g.host_order.empty() ? nullptr : g.old_id.template as<std::uint32_t>(), g.n};
    read_off_anchors_with_predecessors<<<grid, 256, 0, g.stream>>>(r.vertices, r.core_of, r.anchor_core,
                                                                 r.anchor_offset, LabelDistance<Codec>{labels},
                                                                 core_pred, p, r.distances, r.predecessors);
    SSSP_CHECK_LAUNCH("read_off_anchors_with_predecessors");
    if (r.pieces > 0) {
      lower_pieces_with_predecessors<<<grid_for(r.pieces, 256, g.ws.stream_grid), 256, 0, g.stream>>>(
          r.pieces, r.piece_index, r.piece_dist, r.piece_pred, r.distances, r.predecessors);
      SSSP_CHECK_LAUNCH("lower_pieces_with_predecessors");
    }
    // The source has no predecessor (also where it is a junction).
    SSSP_CUDA_CHECK(cudaMemsetAsync(r.predecessors + r.source, 0xFF, 4, g.stream));
    return;
  }
  read_off_anchors<<<grid, 256, 0, g.stream>>>(r.vertices, 1, r.core_of, r.anchor_core, r.anchor_offset,
                                             LabelDistance<Codec>{labels}, r.distances);
  SSSP_CHECK_LAUNCH("read_off_anchors");
  if (r.pieces == 0) return;
  lower_pieces<<<grid_for(r.pieces, 256, g.ws.stream_grid), 256, 0, g.stream>>>(r.pieces, r.piece_index,
                                                                           r.piece_dist, r.distances);
  SSSP_CHECK_LAUNCH("lower_pieces");
}

// Near-far solves in the resident block (resident_block.cuh), one block per
// source of `from`, `blocks` of them: one launch writes every label and
// each block's counts to stats[b] (the single solve's: the scratch
// buffer, which resident_counters reads once the solve's stop event is
// recorded, with no host round trip inside the timed solve).
template <class Codec, class Weight>
void launch_resident(DeviceGraph<Weight>& g, ResidentSources from, std::uint32_t blocks, label_t* labels, typename Codec::Delta delta,
                     ResidentStats* stats) {
  const auto launch = [&](auto kernel) {
    kernel<<<blocks, kResidentBlock, resident_shared_bytes(g.n, g.m, g.plan.resident_layout), g.stream>>>(
        g.ws.graph, labels, from, delta, g.plan.resident_local_steps, stats);
  };
  switch (g.plan.resident_layout) {
    case ResidentLayout::Distances: launch(resident_near_far<Codec, ResidentLayout::Distances>); break;
    case ResidentLayout::Offsets: launch(resident_near_far<Codec, ResidentLayout::Offsets>); break;
    case ResidentLayout::Arcs: launch(resident_near_far<Codec, ResidentLayout::Arcs>); break;
  }
  SSSP_CHECK_LAUNCH("resident_near_far");
}
template <class Codec, class Weight>
void launch_resident(DeviceGraph<Weight>& g, std::uint32_t source, typename Codec::Delta delta) {
  static_assert(sizeof(ResidentStats) <= 256, "the resident stats fit the scratch buffer");
  launch_resident<Codec>(g, ResidentSources{nullptr, source, 0}, 1, g.ws.labels, delta, g.scratch.template as<ResidentStats>());
}

// A resident solve's counts as the engine's. Steps count as narrow rounds
// (a single block runs them).
inline SolveCounters resident_counters(const ResidentStats& r) {
  if (r.error == static_cast<std::uint32_t>(LoopError::Watchdog))
    throw std::runtime_error("sssp: the resident loop stopped: " + std::to_string(kMaxStalledSteps) +
                             " steps in a row relaxed no arc (a bug: please report the graph and source)");
  SolveCounters stats;
  stats.relaxations = r.relaxations;
  stats.iterations = r.steps;
  stats.rounds_narrow = r.steps;
  stats.cluster_local_steps = r.local_steps;
  stats.buckets_processed = r.phases;
  return stats;
}

// The counts of the single resident solve just launched, through the
// pinned state buffer (synchronises the stream).
template <class Weight>
SolveCounters resident_counters(DeviceGraph<Weight>& g) {
  SSSP_CUDA_CHECK(cudaMemcpyAsync(g.host_state.template as<void>(), g.scratch.template as<ResidentStats>(), sizeof(ResidentStats),
                                  cudaMemcpyDeviceToHost, g.stream));
  SSSP_CUDA_CHECK(cudaStreamSynchronize(g.stream));
  ResidentStats r{};
  std::memcpy(&r, g.host_state.template as<void>(), sizeof r);
  return resident_counters(r);
}

// A solve from `source` (the device's numbering); the result is in the
// input's ids, but for the source's own predecessor (the caller's). With
// read_off, the result is the original graph's distances, read off the
// labels on the device inside the timed region.
template <class Codec, class Weight>
SolveResult<Weight> solve_from(DeviceGraph<Weight>& g, std::uint32_t source, Strategy strategy, double requested_delta,
                        const DeviceReadOff* read_off) {
  g.ws.track_pred = g.options.predecessors;
  const auto delta = codec_delta<Codec>(requested_delta);
  SSSP_CUDA_CHECK(cudaEventRecord(g.start, g.stream));
  SolveCounters stats;
  bool in_resident = false;
  if constexpr (Codec::kPackedPredecessors) {
    in_resident = g.plan.resident && strategy == Strategy::NearFar && !g.options.predecessors;
    if (in_resident) launch_resident<Codec>(g, source, delta);
  }
  if (!in_resident) {
    init_labels<Codec><<<grid_for(g.n, 256, g.ws.stream_grid), 256, 0, g.stream>>>(g.ws.labels, g.n, source);
    SSSP_CHECK_LAUNCH("init_labels");
    SSSP_CUDA_CHECK(cudaMemsetAsync(g.ws.stamps_a, 0, static_cast<std::size_t>(g.n) * 4, g.stream));
    SSSP_CUDA_CHECK(cudaMemsetAsync(g.ws.stamps_b, 0, static_cast<std::size_t>(g.n) * 4, g.stream));
    SSSP_CUDA_CHECK(cudaMemsetAsync(g.ws.balance.bins.counters, 0, sizeof(BinCounters), g.stream));
    stats = run_strategy<Codec>(g, strategy, source, delta);
  }
  if constexpr (!Codec::kPackedPredecessors) {
    if (g.options.predecessors) {
      SSSP_CUDA_CHECK(cudaMemsetAsync(g.pred.template as<void>(), 0xFF, static_cast<std::size_t>(g.n) * 4, g.stream));
      derive_predecessors(g.ws.graph, g.ws.labels, g.pred.template as<std::uint32_t>(), source, g.has_zero_weights,
                          g.scratch.template as<std::uint32_t>(), g.host_state.template as<std::uint32_t>(), g.ws.stream_grid, g.stream);
    }
  }
  // Renumbered: back to the input's ids on the device, into queue space the
  // solve no longer needs (2n + 1 words each), before the read-back.
  const label_t* labels_out = g.ws.labels;
  const std::uint32_t* pred_out = g.pred.template as<std::uint32_t>();
  if (!g.host_order.empty()) {
    labels_in_input_order<><<<grid_for(g.n, 256, g.ws.stream_grid), 256, 0, g.stream>>>(
        g.ws.labels, g.new_id.template as<std::uint32_t>(), g.n, g.big0.template as<label_t>());
    SSSP_CHECK_LAUNCH("labels_in_input_order");
    labels_out = g.big0.template as<label_t>();
    if (!Codec::kPackedPredecessors && g.options.predecessors) {
      predecessors_in_input_order<><<<grid_for(g.n, 256, g.ws.stream_grid), 256, 0, g.stream>>>(
          g.pred.template as<std::uint32_t>(), g.new_id.template as<std::uint32_t>(), g.old_id.template as<std::uint32_t>(), g.n,
          g.big1.template as<std::uint32_t>());
      SSSP_CHECK_LAUNCH("predecessors_in_input_order");
      pred_out = g.big1.template as<std::uint32_t>();
    }
  }
  if (read_off) launch_read_off<Codec>(g, *read_off, labels_out, pred_out);
  SSSP_CUDA_CHECK(cudaEventRecord(g.stop, g.stream));
  if (in_resident) stats = resident_counters(g);
  SSSP_CUDA_CHECK(cudaEventSynchronize(g.stop));
  float elapsed_ms = 0;
  SSSP_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, g.start, g.stop));

  SolveResult<Weight> result;
  static_cast<SolveCounters&>(result) = stats;
  result.solve_ms = elapsed_ms;
  result.resident = in_resident;
  result.resident_shared_arcs = in_resident && g.plan.resident_layout == ResidentLayout::Arcs;
  result.delta = static_cast<double>(delta);

  if (read_off) {
    static_assert(sizeof(graph::distance_t<std::uint32_t>) == 8 &&
                  graph::infinite_distance<std::uint32_t>() == kReadOffInf);
    result.distances.resize(read_off->vertices);
    SSSP_CUDA_CHECK(cudaMemcpy(result.distances.data(), read_off->distances,
                               static_cast<std::size_t>(read_off->vertices) * 8, cudaMemcpyDeviceToHost));
    if (g.options.predecessors) {
      result.predecessors.resize(read_off->vertices);
      SSSP_CUDA_CHECK(cudaMemcpy(result.predecessors.data(), read_off->predecessors,
                                 static_cast<std::size_t>(read_off->vertices) * 4, cudaMemcpyDeviceToHost));
    }
    return result;
  }
  std::vector<label_t> host_labels(g.n);
  SSSP_CUDA_CHECK(cudaMemcpy(host_labels.data(), labels_out, static_cast<std::size_t>(g.n) * 8, cudaMemcpyDeviceToHost));
  result.distances.resize(g.n);
  for (std::uint32_t v = 0; v < g.n; ++v) result.distances[v] = Codec::host_distance(host_labels[v]);
  if (g.options.predecessors) {
    if constexpr (Codec::kPackedPredecessors) {
      result.predecessors.resize(g.n);
      for (std::uint32_t v = 0; v < g.n; ++v) result.predecessors[v] = Codec::host_pred(host_labels[v]);
      if (!g.host_order.empty()) {
        for (std::uint32_t v = 0; v < g.n; ++v)
          if (result.predecessors[v] < g.n) result.predecessors[v] = g.host_order.old_id[result.predecessors[v]];
      }
    } else {
      result.predecessors.resize(g.n);
      SSSP_CUDA_CHECK(cudaMemcpy(result.predecessors.data(), pred_out, static_cast<std::size_t>(g.n) * 4,
                                 cudaMemcpyDeviceToHost));
    }
  }
  return result;
}

template <class Weight>
SolveResult<Weight> solve(DeviceGraph<Weight>& g, graph::vertex_id source, Strategy strategy, double delta,
                          const DeviceReadOff* read_off = nullptr) {
  if (source >= g.n)
    throw std::out_of_range("sssp: source vertex " + std::to_string(source) + " is out of range (the graph has " +
                            std::to_string(g.n) + " vertices, numbered from 0 here)");
  if (!(delta > 0) || !std::isfinite(delta))
    throw std::invalid_argument("sssp: delta must be a positive number, got " + std::to_string(delta));
  if ((strategy == Strategy::BucketSort || strategy == Strategy::BucketMultisplit) &&
      (g.options.buckets < 2 || g.options.buckets > kMaxBuckets))
    throw std::invalid_argument("sssp: the number of buckets must be in 2.." + std::to_string(kMaxBuckets) +
                                ", got " + std::to_string(g.options.buckets));
  SSSP_CUDA_CHECK(cudaSetDevice(g.options.device));
  SolveResult<Weight> r;
  if (read_off && g.options.predecessors && !read_off->predecessors)
    throw std::invalid_argument("sssp: a read-off with predecessors needs their arrays");
  if (read_off && read_off->pieces > 0) {  // ahead of the timed region, on the solve's stream
    SSSP_CUDA_CHECK(cudaMemcpyAsync(read_off->piece_index, read_off->host_piece_index,
                                    std::size_t{read_off->pieces} * 8, cudaMemcpyHostToDevice, g.stream));
    SSSP_CUDA_CHECK(cudaMemcpyAsync(read_off->piece_dist, read_off->host_piece_dist,
                                    std::size_t{read_off->pieces} * 8, cudaMemcpyHostToDevice, g.stream));
    if (g.options.predecessors)
      SSSP_CUDA_CHECK(cudaMemcpyAsync(read_off->piece_pred, read_off->host_piece_pred,
                                      std::size_t{read_off->pieces} * 4, cudaMemcpyHostToDevice, g.stream));
  }
  if constexpr (std::is_same_v<Weight, float>) {
    if (read_off) throw std::invalid_argument("sssp: a read-off on the device needs integer weights");
    r = solve_from<PackedCodec<float>>(g, g.device_vertex(source), strategy, delta, nullptr);
  } else {
    r = g.packed ? solve_from<PackedCodec<std::uint32_t>>(g, g.device_vertex(source), strategy, delta, read_off)
               : solve_from<WideCodec>(g, g.device_vertex(source), strategy, delta, read_off);
  }
  if (g.options.predecessors && !read_off) r.predecessors[source] = graph::kNoVertex;  // the read-off sets its own
  return r;
}

}  // namespace sssp::detail
