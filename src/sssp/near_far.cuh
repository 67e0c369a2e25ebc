// Near-Far: Davidson, Baxter, Garland and Owens, "Work-Efficient Parallel
// GPU Methods for Single-Source Shortest Paths" (IPDPS 2014), section IV-C.
//
// A threshold T splits updated vertices into a near set (distance < T),
// relaxed in the next round, and a far pile (distance >= T), left alone.
// When the near set runs empty, T grows by delta and the far pile is split
// again: entries whose distance is now below the old T are stale (the vertex
// was improved into a near set and relaxed already) and are dropped, those
// below the new T form the next near set, the rest stay far.
//
// Differences from the paper, both to keep the loop on the device:
// - T jumps past the smallest distance appended to the far pile since the
//   last split (tracked with an atomicMin), so a split never comes up empty
//   because of a gap in the distances; it still grows by at least delta.
// - The far pile is de-duplicated per split epoch (a vertex appears in it at
//   most once), which bounds it by n.
// Rounds run in a single-block kernel while the near set and the far pile are
// small (small_frontier.cuh); otherwise one round = one relax launch (its
// last block does the bookkeeping) plus one split launch that exits at once
// unless the near set ran empty. The host enqueues these in batches.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "sssp/bellman_ford.cuh"  // run_device_loop
#include "sssp/cuda_check.cuh"
#include "sssp/relax.cuh"
#include "sssp/small_frontier.cuh"
#include "sssp/workspace.cuh"

namespace sssp::detail {

template <class Codec>
struct NearFarState {
  using Dist = typename Codec::Dist;
  std::uint32_t* near[2];
  std::uint32_t* far[2];
  std::uint32_t near_count[2];
  std::uint32_t near_parity;    // near[near_parity] is this round's frontier
  std::uint32_t far_count;      // entries of far[far_parity]
  std::uint32_t far_parity;
  std::uint32_t split_count;    // entries of far[far_parity ^ 1] to split this round
  std::uint32_t split_active;
  std::uint32_t near_stamp;     // stamp of this round's near output
  std::uint32_t split_stamp;    // stamp of the near set a split builds
  std::uint32_t far_epoch;      // far-pile de-duplication stamp
  std::uint32_t stamp_seq;
  std::uint32_t done;
  std::uint32_t overflow;
  std::uint32_t near_capacity, far_capacity;
  unsigned blocks_done;
  unsigned split_blocks_done;
  Dist threshold;       // near: distance < threshold
  Dist old_threshold;   // during a split: entries below it are stale
  typename Codec::Delta delta;
  unsigned long long far_min_key;  // Codec::key of the smallest distance sent far
  unsigned long long relaxations;
  unsigned long long iterations;
  unsigned long long phases;
};

template <class Codec>
struct NearFarSink {
  QueueAppender near_out;
  QueueAppender far_out;
  typename Codec::Dist threshold;
  unsigned long long* far_min_key;

  __device__ __forceinline__ bool queued(std::uint32_t u) const { return near_out.queued(u); }
  __device__ __forceinline__ void improved(std::uint32_t v, typename Codec::Dist nd) const {
    if (nd < threshold) {
      near_out.push(v);
    } else {
      far_out.push(v);
      const unsigned long long k = Codec::key(nd);
      if (k < volatile_load(far_min_key)) atomicMin(far_min_key, k);
    }
  }
};

template <class Codec>
__device__ __forceinline__ QueueAppender far_appender(NearFarState<Codec>* st, std::uint32_t* stamps_far) {
  return QueueAppender{volatile_load(&st->far[volatile_load(&st->far_parity)]), &st->far_count,
                       volatile_load(&st->far_capacity), stamps_far, volatile_load(&st->far_epoch), &st->overflow};
}

// This round's frontier and sink, read through volatile loads (the state
// changes between rounds of the single-block loop).
template <class Codec>
struct NearFarRound {
  std::uint32_t p, count;
  const std::uint32_t* frontier;
  NearFarSink<Codec> sink;
};

template <class Codec>
__device__ __forceinline__ NearFarRound<Codec> near_far_round(NearFarState<Codec>* st, std::uint32_t* stamps_near,
                                                               std::uint32_t* stamps_far) {
  NearFarRound<Codec> r;
  r.p = volatile_load(&st->near_parity);
  r.count = volatile_load(&st->near_count[r.p]);
  r.frontier = volatile_load(&st->near[r.p]);
  r.sink = NearFarSink<Codec>{QueueAppender{volatile_load(&st->near[r.p ^ 1]), &st->near_count[r.p ^ 1],
                                            volatile_load(&st->near_capacity), stamps_near,
                                            volatile_load(&st->near_stamp), &st->overflow},
                              far_appender(st, stamps_far), volatile_load(&st->threshold), &st->far_min_key};
  return r;
}

// End of a relax round (one thread, after all of the round's relaxations):
// swap the near queues; if the near set is empty, start a split.
template <class Codec>
__device__ void near_far_end_round(NearFarState<Codec>* st, const NearFarRound<Codec>& r) {
  const std::uint32_t next = volatile_load(&st->near_count[r.p ^ 1]);
  const std::uint32_t far = volatile_load(&st->far_count);
  if (r.count > 0) ++st->iterations;
  st->near_count[r.p] = 0;
  st->near_parity = r.p ^ 1;
  if (next > st->near_capacity || far > st->far_capacity) st->overflow = 1;
  if (volatile_load(&st->overflow) || (next == 0 && far == 0)) {
    st->done = 1;
  } else if (next == 0) {
    // Near set empty: advance the threshold and split the far pile.
    st->old_threshold = st->threshold;
    st->threshold = next_threshold(st->threshold, Codec::dist_from_key(volatile_load(&st->far_min_key)), st->delta);
    st->split_count = far;
    st->far_count = 0;
    st->far_parity ^= 1;
    ++st->far_epoch;
    st->far_min_key = Codec::inf_key();
    st->split_stamp = ++st->stamp_seq;
    st->split_active = 1;
    ++st->phases;
  }
  st->near_stamp = ++st->stamp_seq;
}

// Splits entries [first, split_count) of the old far pile, stride apart.
template <class Codec>
__device__ void near_far_split_items(const label_t* labels, std::uint32_t* stamps_near, std::uint32_t* stamps_far,
                                     NearFarState<Codec>* st, std::uint32_t first, std::uint32_t stride) {
  const std::uint32_t n = volatile_load(&st->split_count);
  const std::uint32_t* items = volatile_load(&st->far[volatile_load(&st->far_parity) ^ 1]);
  const auto lo = volatile_load(&st->old_threshold);
  const auto hi = volatile_load(&st->threshold);
  // The near set being rebuilt is this round's frontier, which is empty.
  const std::uint32_t p = volatile_load(&st->near_parity);
  const QueueAppender near_out{volatile_load(&st->near[p]), &st->near_count[p], volatile_load(&st->near_capacity),
                              stamps_near, volatile_load(&st->split_stamp), &st->overflow};
  const QueueAppender far_out = far_appender(st, stamps_far);
  for (std::uint32_t i = first; i < n; i += stride) {
    const std::uint32_t v = items[i];
    const auto d = Codec::dist(load_label(labels + v));
    if (d < lo) continue;  // stale: relaxed in an earlier near set
    if (d < hi) {
      near_out.push(v);
    } else {
      far_out.push(v);
      const unsigned long long k = Codec::key(d);
      if (k < volatile_load(&st->far_min_key)) atomicMin(&st->far_min_key, k);
    }
  }
}

template <class Codec>
__global__ void __launch_bounds__(kRelaxBlock) near_far_relax(GraphView<typename Codec::Weight> g, label_t* labels,
                                                              std::uint32_t* stamps_near, std::uint32_t* stamps_far,
                                                              NearFarState<Codec>* st, bool track_pred) {
  __shared__ RelaxShared<Codec> sh;
  // Same value in every block (kernel boundary): a pending split runs first.
  if (volatile_load(&st->done) || volatile_load(&st->split_active)) return;
  const NearFarRound<Codec> r = near_far_round(st, stamps_near, stamps_far);
  relax_frontier<Codec>(g, labels, r.frontier, r.count, track_pred, r.sink, sh, &st->relaxations);
  if (last_block_done(&st->blocks_done) && threadIdx.x == 0) {
    near_far_end_round(st, r);
    st->blocks_done = 0;
  }
}

template <class Codec>
__global__ void near_far_split(const label_t* labels, std::uint32_t* stamps_near, std::uint32_t* stamps_far,
                               NearFarState<Codec>* st) {
  if (!volatile_load(&st->split_active)) return;
  near_far_split_items(labels, stamps_near, stamps_far, st, blockIdx.x * blockDim.x + threadIdx.x,
                       gridDim.x * blockDim.x);
  if (last_block_done(&st->split_blocks_done) && threadIdx.x == 0) {
    st->split_active = 0;
    st->split_blocks_done = 0;
  }
}

// The single-block loop (small_frontier.cuh): relax rounds and splits while
// the near set and the far pile are small.
template <class Codec>
__global__ void __launch_bounds__(kSmallBlock) near_far_small(GraphView<typename Codec::Weight> g, label_t* labels,
                                                              std::uint32_t* stamps_near, std::uint32_t* stamps_far,
                                                              NearFarState<Codec>* st, bool track_pred) {
  __shared__ SmallShared<Codec> sh;
  for (;;) {
    if (volatile_load(&st->done)) return;
    if (volatile_load(&st->split_active)) {
      if (volatile_load(&st->split_count) > kSmallSplit) return;  // the multi-block split takes it
      near_far_split_items(labels, stamps_near, stamps_far, st, threadIdx.x, kSmallBlock);
      __threadfence_block();
      __syncthreads();
      if (threadIdx.x == 0) st->split_active = 0;
      __syncthreads();
      continue;
    }
    const NearFarRound<Codec> r = near_far_round(st, stamps_near, stamps_far);
    if (!frontier_is_small<Codec>(g, r.frontier, r.count, sh)) return;
    relax_frontier<Codec, kSmallBlock>(g, labels, r.frontier, r.count, track_pred, r.sink, sh.relax,
                                       &st->relaxations);
    __threadfence_block();
    __syncthreads();
    if (threadIdx.x == 0) near_far_end_round(st, r);
    __syncthreads();
  }
}

template <class Codec>
StrategyStats run_near_far(const Workspace<typename Codec::Weight>& ws, std::uint32_t source,
                           typename Codec::Delta delta) {
  using State = NearFarState<Codec>;
  static_assert(sizeof(State) <= kStateBytes);
  auto* d_state = static_cast<State*>(ws.state);
  auto* h_state = static_cast<State*>(ws.host_state);
  State init{};
  init.near[0] = ws.big[0];
  init.near[1] = ws.big[1];
  init.far[0] = ws.small[0];
  init.far[1] = ws.small[1];
  init.near_count[0] = 1;
  init.near_stamp = 1;
  init.far_epoch = 1;
  init.stamp_seq = 1;
  init.near_capacity = static_cast<std::uint32_t>(ws.small_capacity);  // n + 1 suffices: de-duplicated
  init.far_capacity = static_cast<std::uint32_t>(ws.small_capacity);
  init.delta = delta;
  init.threshold = static_cast<typename Codec::Dist>(delta);  // the source (distance 0) is near
  init.far_min_key = Codec::inf_key();
  init.phases = 1;
  *h_state = init;
  SSSP_CUDA_CHECK(cudaMemcpyAsync(ws.big[0], &source, sizeof source, cudaMemcpyHostToDevice, ws.stream));
  SSSP_CUDA_CHECK(cudaMemcpyAsync(d_state, h_state, sizeof init, cudaMemcpyHostToDevice, ws.stream));

  run_device_loop(d_state, h_state, ws.stream, [&] {
    near_far_small<Codec><<<1, kSmallBlock, 0, ws.stream>>>(ws.graph, ws.labels, ws.stamps_a, ws.stamps_b, d_state,
                                                            ws.track_pred);
    SSSP_CHECK_LAUNCH("near_far_small");
    near_far_relax<Codec><<<ws.relax_grid, kRelaxBlock, 0, ws.stream>>>(ws.graph, ws.labels, ws.stamps_a,
                                                                        ws.stamps_b, d_state, ws.track_pred);
    SSSP_CHECK_LAUNCH("near_far_relax");
    near_far_split<Codec><<<ws.stream_grid, 256, 0, ws.stream>>>(ws.labels, ws.stamps_a, ws.stamps_b, d_state);
    SSSP_CHECK_LAUNCH("near_far_split");
  });
  StrategyStats stats;
  stats.relaxations = h_state->relaxations;
  stats.iterations = h_state->iterations;
  stats.buckets_processed = h_state->phases;
  return stats;
}

}  // namespace sssp::detail
