// Near-Far: Davidson, Baxter, Garland and Owens, "Work-Efficient Parallel
// GPU Methods for Single-Source Shortest Paths" (IPDPS 2014), section IV-C,
// and the device loop the bucketing strategies (bucketing.cuh) share.
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
//
// Bucketed mode (bucket-sort, bucket-multisplit): phases are delta-wide
// windows w (bucket of a distance = floor(dist / delta)), and besides the far
// pile F there are "ready" buckets made by the last full split (bucketing.cuh),
// which cut the far pile into B buckets at once. A phase takes window w = the
// lower of the first non-empty ready bucket and the smallest window in F, and
// its near set is that ready bucket plus the entries of F in window w. A full
// split (host-driven: the sort and the multisplit need the item count on the
// host) is requested when the next window lies past the ready buckets and the
// overflow bucket is not empty, or when no ready bucket is left and F is large.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <tuple>

#include "sssp/bellman_ford.cuh"  // run_device_loop
#include "sssp/binned_relax.cuh"
#include "sssp/cuda_check.cuh"
#include "sssp/relax.cuh"
#include "sssp/small_frontier.cuh"
#include "sssp/workspace.cuh"

namespace sssp::detail {

constexpr unsigned long long kNoWindow = ~0ull;

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
  unsigned long long iterations;     // relax rounds
  unsigned long long narrow_rounds;  // of those, rounds of the single-block loop
  unsigned long long phases;
  // ---- bucketed mode
  std::uint32_t bucketed;
  std::uint32_t need_full_split;   // the device loop pauses until the host has split
  std::uint32_t have_ready;        // ready buckets exist
  std::uint32_t num_buckets;       // B: ready buckets 0 .. B-2, overflow B-1
  std::uint32_t ready_next;        // first ready bucket not taken yet
  std::uint32_t take_begin, take_count;  // ready segment the current split folds into the near set
  std::uint32_t full_split_at;     // far-pile size that asks for a full split when no ready bucket is left
  std::uint32_t full_splits;
  std::uint32_t overflow_begin, overflow_end;  // the overflow bucket in `ready`
  const std::uint32_t* ready;          // the ready buckets (output of the last full split)
  const std::uint32_t* ready_offsets;  // B + 2 entries
  unsigned long long window;       // the current window (near: bucket <= window)
  unsigned long long base_bucket;  // window of ready bucket 0
  unsigned long long min_key;      // full-split scratch
};

template <class Codec, class NearOut = QueueAppender>
struct NearFarSink {
  NearOut near_out;
  QueueAppender far_out;
  typename Codec::Dist threshold;
  unsigned long long* far_min_key;
  unsigned long long window;  // kNoWindow: compare with threshold (plain near-far)
  typename Codec::Delta delta;

  __device__ __forceinline__ bool is_near(typename Codec::Dist d) const {
    return window == kNoWindow ? d < threshold : bucket_of(d, delta) <= window;
  }
  __device__ __forceinline__ bool queued(std::uint32_t u) const { return near_out.queued(u); }
  __device__ __forceinline__ void improved(std::uint32_t v, typename Codec::Dist nd) const {
    if (is_near(nd)) {
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

// The sink of this round, with `near_out` as the near queue; read through
// volatile loads (the state changes between rounds of the single-block loop).
template <class Codec, class NearOut>
__device__ __forceinline__ NearFarSink<Codec, NearOut> near_far_sink(NearFarState<Codec>* st, const NearOut& near_out,
                                                                    std::uint32_t* stamps_far) {
  return NearFarSink<Codec, NearOut>{near_out,
                                     far_appender(st, stamps_far),
                                     volatile_load(&st->threshold),
                                     &st->far_min_key,
                                     volatile_load(&st->bucketed) ? volatile_load(&st->window) : kNoWindow,
                                     volatile_load(&st->delta)};
}

// This round's frontier and sink in the global queues.
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
  r.sink = near_far_sink(st,
                         QueueAppender{volatile_load(&st->near[r.p ^ 1]), &st->near_count[r.p ^ 1],
                                       volatile_load(&st->near_capacity), stamps_near,
                                       volatile_load(&st->near_stamp), &st->overflow},
                         stamps_far);
  return r;
}

// Arms a split of the far pile (and of a ready segment) for the next phase.
template <class Codec>
__device__ void arm_split(NearFarState<Codec>* st, std::uint32_t far) {
  st->split_count = far;
  st->far_count = 0;
  st->far_parity ^= 1;
  ++st->far_epoch;
  st->far_min_key = Codec::inf_key();
  st->split_stamp = ++st->stamp_seq;
  st->split_active = 1;
  ++st->phases;
}

// The near set is empty: choose the next phase, or end, or ask for a full
// split (bucketed mode). One thread.
template <class Codec>
__device__ void start_phase(NearFarState<Codec>* st) {
  const std::uint32_t far = volatile_load(&st->far_count);
  const unsigned long long far_min = volatile_load(&st->far_min_key);
  if (!st->bucketed) {
    if (far == 0) {
      st->done = 1;
      return;
    }
    st->old_threshold = st->threshold;
    st->threshold = next_threshold(st->threshold, Codec::dist_from_key(far_min), st->delta);
    st->take_count = 0;
    arm_split(st, far);
    return;
  }
  // Windows: the smallest in F (far_min bounds every live entry from below),
  // and the first non-empty ready bucket.
  const unsigned long long w_far =
      (far > 0 && far_min != Codec::inf_key()) ? bucket_of(Codec::dist_from_key(far_min), st->delta) : kNoWindow;
  unsigned long long w_ready = kNoWindow;
  std::uint32_t j = st->ready_next;
  bool overflow_left = false;
  if (st->have_ready) {
    const std::uint32_t last = st->num_buckets - 1;  // the overflow bucket
    for (; j < last; ++j)
      if (st->ready_offsets[j + 1] > st->ready_offsets[j]) {
        w_ready = st->base_bucket + j;
        break;
      }
    overflow_left = st->ready_offsets[last + 1] > st->ready_offsets[last];
  }
  const unsigned long long w = w_far < w_ready ? w_far : w_ready;
  const bool past_ready = !st->have_ready || w == kNoWindow || w > st->base_bucket + (st->num_buckets - 2);
  if (w == kNoWindow && !overflow_left) {
    if (far > 0) {  // entries but no finite far_min (cannot happen): let a full split sort it out
      st->need_full_split = 1;
      return;
    }
    st->done = 1;
    return;
  }
  if ((past_ready && overflow_left) || (w_ready == kNoWindow && far > st->full_split_at)) {
    st->need_full_split = 1;
    return;
  }
  st->window = w;
  if (w == w_ready) {
    st->take_begin = st->ready_offsets[j];
    st->take_count = st->ready_offsets[j + 1] - st->ready_offsets[j];
    st->ready_next = j + 1;
  } else {
    st->take_count = 0;
  }
  arm_split(st, far);
}

// End of a relax round (one thread, after all of the round's relaxations):
// swap the near queues; if the near set is empty, start the next phase.
template <class Codec>
__device__ void near_far_end_round(NearFarState<Codec>* st, std::uint32_t p, std::uint32_t count) {
  const std::uint32_t next = volatile_load(&st->near_count[p ^ 1]);
  if (count > 0) ++st->iterations;
  st->near_count[p] = 0;
  st->near_parity = p ^ 1;
  // Capacity: each appender flags its own overflow (the narrow loop's queue
  // holds duplicates and may count more than n entries).
  if (volatile_load(&st->overflow)) {
    st->done = 1;
  } else if (next == 0) {
    start_phase(st);
  }
  st->near_stamp = ++st->stamp_seq;
}

// The near queue a split fills: this round's frontier, which is empty.
template <class Codec>
__device__ __forceinline__ QueueAppender split_near_out(NearFarState<Codec>* st, std::uint32_t* stamps_near) {
  const std::uint32_t p = volatile_load(&st->near_parity);
  return QueueAppender{volatile_load(&st->near[p]), &st->near_count[p], volatile_load(&st->near_capacity),
                       stamps_near, volatile_load(&st->split_stamp), &st->overflow};
}

// Splits entries [first, split_count) of the old far pile, then the ready
// segment being taken, stride apart: stale entries are dropped, near ones
// go to near_out (split_near_out, or the narrow loop's shared queue), the
// rest back to the far pile.
template <class Codec, class NearOut>
__device__ void near_far_split_items(const label_t* labels, std::uint32_t* stamps_far, NearFarState<Codec>* st,
                                     std::uint32_t first, std::uint32_t stride, const NearOut& near_out) {
  const std::uint32_t n_far = volatile_load(&st->split_count);
  const std::uint32_t n_take = volatile_load(&st->take_count);
  const std::uint32_t* far_items = volatile_load(&st->far[volatile_load(&st->far_parity) ^ 1]);
  const std::uint32_t* take_items = volatile_load(&st->ready) + volatile_load(&st->take_begin);
  const bool bucketed = volatile_load(&st->bucketed) != 0;
  const unsigned long long window = volatile_load(&st->window);
  const auto delta = volatile_load(&st->delta);
  const auto lo = volatile_load(&st->old_threshold);
  const auto hi = volatile_load(&st->threshold);
  const QueueAppender far_out = far_appender(st, stamps_far);
  for (std::uint32_t i = first; i < n_far + n_take; i += stride) {
    const std::uint32_t v = i < n_far ? far_items[i] : take_items[i - n_far];
    if (v == kNoItem) continue;
    const auto d = Codec::dist(load_label(labels + v));
    bool stale, near;
    if (bucketed) {
      const unsigned long long b = bucket_of(d, delta);
      stale = b < window;  // relaxed in an earlier phase
      near = b == window;
    } else {
      stale = d < lo;
      near = d < hi;
    }
    if (stale) continue;
    if (near) {
      near_out.push(v);
    } else {
      far_out.push(v);
      const unsigned long long k = Codec::key(d);
      if (k < volatile_load(&st->far_min_key)) atomicMin(&st->far_min_key, k);
    }
  }
}

// Degree-binned rounds (binned_relax.cuh) without the persistent grid: this
// bin pass, then near_far_relax relaxes the bins. Both kernels exit on the
// same state (nothing changes it between them).
template <class Codec>
__global__ void __launch_bounds__(kRelaxBlock) near_far_bin(const std::uint64_t* offsets, std::uint32_t* stamps_near,
                                                            std::uint32_t* stamps_far, NearFarState<Codec>* st,
                                                            DegreeBins bins) {
  if (volatile_load(&st->done) || volatile_load(&st->split_active) || volatile_load(&st->need_full_split)) return;
  const NearFarRound<Codec> r = near_far_round(st, stamps_near, stamps_far);
  bin_frontier(offsets, r.frontier, r.count, r.sink, bins);
}

template <class Codec>
__global__ void __launch_bounds__(kRelaxBlock) near_far_relax(GraphView<typename Codec::Weight> g, label_t* labels,
                                                              std::uint32_t* stamps_near, std::uint32_t* stamps_far,
                                                              NearFarState<Codec>* st, bool track_pred,
                                                              DegreeBins bins) {
  __shared__ RelaxShared<Codec> sh;
  // Same values in every block (kernel boundary): a pending split runs first.
  if (volatile_load(&st->done) || volatile_load(&st->split_active) || volatile_load(&st->need_full_split)) return;
  const NearFarRound<Codec> r = near_far_round(st, stamps_near, stamps_far);
  if (bins.enabled) {
    relax_bins<Codec>(g, labels, bins, track_pred, r.sink, sh, &st->relaxations);
  } else {
    relax_frontier<Codec>(g, labels, r.frontier, r.count, track_pred, r.sink, sh, &st->relaxations);
  }
  if (last_block_done(&st->blocks_done) && threadIdx.x == 0) {
    near_far_end_round(st, r.p, r.count);
    reset_bins(bins);
    st->blocks_done = 0;
  }
}

template <class Codec>
__global__ void near_far_split(const label_t* labels, std::uint32_t* stamps_near, std::uint32_t* stamps_far,
                               NearFarState<Codec>* st) {
  if (!volatile_load(&st->split_active)) return;
  near_far_split_items(labels, stamps_far, st, blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x,
                       split_near_out(st, stamps_near));
  if (last_block_done(&st->split_blocks_done) && threadIdx.x == 0) {
    st->split_active = 0;
    st->split_blocks_done = 0;
  }
}

// The persistent grid (small_frontier.cuh): rounds and splits separated by
// grid barriers, until the near set is tiny, a full split is needed, or the end.
template <class Codec>
__global__ void __launch_bounds__(kRelaxBlock) near_far_persistent(GraphView<typename Codec::Weight> g,
                                                                   label_t* labels, std::uint32_t* stamps_near,
                                                                   std::uint32_t* stamps_far, NearFarState<Codec>* st,
                                                                   bool track_pred, DegreeBins bins, WideBand band) {
  __shared__ RelaxShared<Codec> sh;
  const cg::grid_group grid = cg::this_grid();
  const std::uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t threads = gridDim.x * blockDim.x;
  for (bool first_round = true;; first_round = false) {
    // Every block reads the same state: it changes only between grid barriers.
    if (volatile_load(&st->done) || volatile_load(&st->need_full_split)) return;
    if (volatile_load(&st->split_active)) {
      near_far_split_items(labels, stamps_far, st, thread, threads, split_near_out(st, stamps_near));
      grid.sync();
      if (thread == 0) st->split_active = 0;
      grid.sync();
      continue;
    }
    const NearFarRound<Codec> r = near_far_round(st, stamps_near, stamps_far);
    // Small: the single block is faster. But always run one round per launch:
    // a few vertices with many arcs are too big for the single block.
    if (r.count > band.max_frontier) return;
    if (!first_round && r.count < band.hand_back) return;
    if (bins.enabled) {
      bin_frontier(g.offsets, r.frontier, r.count, r.sink, bins);
      grid.sync();
      relax_bins<Codec>(g, labels, bins, track_pred, r.sink, sh, &st->relaxations);
    } else {
      relax_frontier<Codec>(g, labels, r.frontier, r.count, track_pred, r.sink, sh, &st->relaxations);
    }
    grid.sync();
    if (thread == 0) {
      near_far_end_round(st, r.p, r.count);
      reset_bins(bins);
    }
    grid.sync();
  }
}

// The single-block loop (small_frontier.cuh, narrow_relax.cuh): relax rounds
// and splits while the near set and the far pile are small, with the near
// queues in shared memory.
template <class Codec>
__global__ void __launch_bounds__(kSmallBlock) near_far_small(GraphView<typename Codec::Weight> g, label_t* labels,
                                                              std::uint32_t* stamps_near, std::uint32_t* stamps_far,
                                                              NearFarState<Codec>* global_state, bool track_pred,
                                                              std::uint32_t max_arcs) {
  extern __shared__ __align__(16) unsigned char narrow_smem[];
  auto& sh = *reinterpret_cast<NarrowShared<Codec>*>(narrow_smem);
  __shared__ NearFarState<Codec> state;  // the block's copy while it runs (copy_state)
  NearFarState<Codec>* const st = &state;
  copy_state(st, global_state);
  __syncthreads();
  {
    const std::uint32_t p = st->near_parity, count = st->near_count[p];
    if (st->done || st->need_full_split || count > kNarrowTile) return;  // nothing changed
    for (std::uint32_t i = threadIdx.x; i < count; i += kSmallBlock) sh.queue[p][i] = __ldcg(st->near[p] + i);
  }
  __syncthreads();
  for (;;) {
    // Every exit below is block-uniform: the state is read after a barrier.
    if (st->done || st->need_full_split) break;
    const std::uint32_t p = st->near_parity;
    if (st->split_active) {
      if (st->split_count + st->take_count > kSmallSplit) break;  // the multi-block split takes it
      near_far_split_items(labels, stamps_far, st, threadIdx.x, kSmallBlock,
                           SharedQueueAppender{sh.queue[p], &st->near_count[p], &st->overflow});
      __syncthreads();
      if (threadIdx.x == 0) st->split_active = 0;
      __syncthreads();
      continue;
    }
    const std::uint32_t count = st->near_count[p];
    if (count > kNarrowTile) break;
    const auto sink = near_far_sink(st, SharedQueueAppender{sh.queue[p ^ 1], &st->near_count[p ^ 1], &st->overflow},
                                    stamps_far);
    if (!narrow_relax<Codec>(g, labels, sh.queue[p], count, max_arcs, track_pred, sink, sh, &st->relaxations)) break;
    __syncthreads();
    if (threadIdx.x == 0) {
      if (count > 0) ++st->narrow_rounds;
      near_far_end_round(st, p, count);
    }
    __syncthreads();
  }
  // The near queue back to global memory, de-duplicated with a stamp no
  // round has used; the next round's output takes a newer one.
  const std::uint32_t p = st->near_parity;
  const std::uint32_t stamp = st->stamp_seq + 1;
  const std::uint32_t kept = copy_out_queue(sh.queue[p], st->near_count[p], st->near[p], stamps_near, stamp);
  if (threadIdx.x == 0) {
    st->near_count[p] = kept;
    st->stamp_seq = stamp + 1;
    st->near_stamp = stamp + 1;
  }
  __syncthreads();
  copy_state(global_state, st);
}

// Initial state: the source alone in the near set, threshold delta (window 0).
template <class Codec>
NearFarState<Codec> near_far_initial_state(const Workspace<typename Codec::Weight>& ws, typename Codec::Delta delta) {
  NearFarState<Codec> init{};
  init.near[0] = ws.small[0];
  init.near[1] = ws.small[1];
  init.far[0] = ws.far[0];
  init.far[1] = ws.far[1];
  init.near_count[0] = 1;
  init.near_stamp = 1;
  init.far_epoch = 1;
  init.stamp_seq = 1;
  init.near_capacity = static_cast<std::uint32_t>(ws.small_capacity);  // n + 1 suffices: de-duplicated
  init.far_capacity = static_cast<std::uint32_t>(ws.small_capacity);
  init.delta = delta;
  init.threshold = static_cast<typename Codec::Dist>(delta);  // the source (distance 0) is near
  init.far_min_key = Codec::inf_key();
  init.min_key = Codec::inf_key();
  init.phases = 1;
  init.window = 0;
  return init;
}

// Runs the device loop from the state already in ws.state; `pause` is called
// when the device asks for a full split (bucketed mode) and must resolve it.
template <class Codec, class Pause>
StrategyStats near_far_loop(const Workspace<typename Codec::Weight>& ws, Pause pause) {
  using State = NearFarState<Codec>;
  auto* d_state = static_cast<State*>(ws.state);
  auto* h_state = static_cast<State*>(ws.host_state);
  const WidePlan wide = wide_plan(near_far_persistent<Codec>, ws);
  int batch = 1;
  std::tuple<unsigned long long, unsigned long long, unsigned long long, std::uint32_t, std::uint32_t, std::uint32_t>
      last_progress{~0ull, 0, 0, 0, 0, 0};
  DegreeBins bins = ws.bins;
  bins.overflow = &d_state->overflow;
  if (ws.single_block_loop) allow_narrow_shared<Codec>(near_far_small<Codec>);
  for (;;) {
    for (int i = 0; i < batch; ++i) {
      if (ws.single_block_loop) {
        near_far_small<Codec><<<1, kSmallBlock, sizeof(NarrowShared<Codec>), ws.stream>>>(
            ws.graph, ws.labels, ws.stamps_a, ws.stamps_b, d_state, ws.track_pred, ws.narrow_max_arcs);
        SSSP_CHECK_LAUNCH("near_far_small");
      }
      if (wide.medium_blocks > 0)
        launch_cooperative(near_far_persistent<Codec>, wide.medium_blocks, kRelaxBlock, ws.stream, ws.graph,
                           ws.labels, ws.stamps_a, ws.stamps_b, d_state, ws.track_pred, bins, wide.medium);
      if (wide.full_blocks > 0) {
        launch_cooperative(near_far_persistent<Codec>, wide.full_blocks, kRelaxBlock, ws.stream, ws.graph, ws.labels,
                           ws.stamps_a, ws.stamps_b, d_state, ws.track_pred, bins, wide.full);
      } else {
        if (bins.enabled) {
          near_far_bin<Codec><<<ws.relax_grid, kRelaxBlock, 0, ws.stream>>>(ws.graph.offsets, ws.stamps_a,
                                                                            ws.stamps_b, d_state, bins);
          SSSP_CHECK_LAUNCH("near_far_bin");
        }
        near_far_relax<Codec><<<ws.relax_grid, kRelaxBlock, 0, ws.stream>>>(ws.graph, ws.labels, ws.stamps_a,
                                                                            ws.stamps_b, d_state, ws.track_pred, bins);
        SSSP_CHECK_LAUNCH("near_far_relax");
        near_far_split<Codec><<<ws.stream_grid, 256, 0, ws.stream>>>(ws.labels, ws.stamps_a, ws.stamps_b, d_state);
        SSSP_CHECK_LAUNCH("near_far_split");
      }
    }
    SSSP_CUDA_CHECK(cudaMemcpyAsync(h_state, d_state, sizeof(State), cudaMemcpyDeviceToHost, ws.stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(ws.stream));
    if (h_state->overflow) throw std::runtime_error("sssp: internal error: a frontier queue overflowed");
    if (h_state->done) break;
    if (h_state->need_full_split) {
      pause(*h_state);
      batch = 1;
      continue;
    }
    // Watchdog: a batch that changed nothing would repeat forever.
    const auto progress = std::make_tuple(h_state->iterations, h_state->phases, h_state->relaxations,
                                          h_state->full_splits, h_state->split_active, h_state->near_parity);
    if (progress == last_progress) throw std::runtime_error("sssp: internal error: the device loop made no progress");
    last_progress = progress;
    batch = std::min(batch * 2, 64);
  }
  StrategyStats stats;
  stats.relaxations = h_state->relaxations;
  stats.iterations = h_state->iterations;
  stats.rounds_narrow = h_state->narrow_rounds;
  stats.buckets_processed = h_state->phases;
  return stats;
}

template <class Codec>
StrategyStats run_near_far(const Workspace<typename Codec::Weight>& ws, std::uint32_t source,
                           typename Codec::Delta delta) {
  using State = NearFarState<Codec>;
  static_assert(sizeof(State) <= kStateBytes);
  auto* h_state = static_cast<State*>(ws.host_state);
  *h_state = near_far_initial_state<Codec>(ws, delta);
  // Pageable source: the call returns once `source` has been staged.
  SSSP_CUDA_CHECK(cudaMemcpyAsync(ws.small[0], &source, sizeof source, cudaMemcpyHostToDevice, ws.stream));
  SSSP_CUDA_CHECK(cudaMemcpyAsync(ws.state, h_state, sizeof(State), cudaMemcpyHostToDevice, ws.stream));
  return near_far_loop<Codec>(ws, [](const State&) {
    throw std::logic_error("sssp: near-far asked for a full split");
  });
}

}  // namespace sssp::detail
