// Frontier Bellman-Ford: every round relaxes the vertices whose label dropped
// in the previous round, until no label drops. This is the SSSP that Gunrock
// ships (Wang et al., "Gunrock: GPU Graph Analytics", TOPC 2017): no
// priority order at all, so on weighted graphs it re-relaxes vertices many
// times (work ratio well above 1) but needs no bucket bookkeeping.
//
// The loop stays on the device: a single-block kernel runs rounds while the
// frontier is small (small_frontier.cuh), otherwise one multi-block launch per
// round whose last block swaps the frontier queues and detects the end. The
// host only enqueues these in growing batches and reads one status block per
// batch.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <tuple>

#include "sssp/binned_relax.cuh"
#include "sssp/cuda_check.cuh"
#include "sssp/relax.cuh"
#include "sssp/small_frontier.cuh"
#include "sssp/workspace.cuh"

namespace sssp::detail {

struct BellmanFordState {
  std::uint32_t* queue[2];
  std::uint32_t count[2];
  std::uint32_t parity;   // queue[parity] is this round's frontier
  std::uint32_t stamp;    // de-duplication stamp of this round's output
  std::uint32_t done;
  std::uint32_t overflow;
  std::uint32_t capacity;
  unsigned blocks_done;
  unsigned long long relaxations;
  unsigned long long iterations;     // relax rounds
  unsigned long long narrow_rounds;  // of those, rounds of the single-block loop
};

template <class Codec, class Out = QueueAppender>
struct BfSink {
  Out out;
  __device__ __forceinline__ bool queued(std::uint32_t u) const { return out.queued(u); }
  __device__ __forceinline__ void improved(std::uint32_t v, typename Codec::Dist) const { out.push(v); }
};

// This round's frontier and output, read through volatile loads (the state
// changes between rounds of the single-block loop).
struct BfRound {
  std::uint32_t p, count;
  const std::uint32_t* frontier;
  QueueAppender out;
};

__device__ __forceinline__ BfRound bf_round(BellmanFordState* st, std::uint32_t* stamps) {
  BfRound r;
  r.p = volatile_load(&st->parity);
  r.count = volatile_load(&st->count[r.p]);
  r.frontier = volatile_load(&st->queue[r.p]);
  r.out = QueueAppender{volatile_load(&st->queue[r.p ^ 1]), &st->count[r.p ^ 1], volatile_load(&st->capacity), stamps,
                        volatile_load(&st->stamp), &st->overflow};
  return r;
}

// End of a round (one thread, after every relaxation of the round).
__device__ __forceinline__ void bf_end_round(BellmanFordState* st, std::uint32_t p, std::uint32_t count) {
  const std::uint32_t next = volatile_load(&st->count[p ^ 1]);
  if (count > 0) ++st->iterations;
  st->count[p] = 0;
  st->parity = p ^ 1;
  ++st->stamp;
  // Capacity: the appender flags its own overflow (the narrow loop's queue
  // holds duplicates and may count more than n entries).
  if (next == 0 || volatile_load(&st->overflow)) st->done = 1;
}

// Degree-binned rounds (binned_relax.cuh) without the persistent grid: this
// bin pass, then bellman_ford_round relaxes the bins.
template <class Codec>
__global__ void __launch_bounds__(kRelaxBlock) bellman_ford_bin(const std::uint64_t* offsets, std::uint32_t* stamps,
                                                                BellmanFordState* st, DegreeBins bins) {
  if (volatile_load(&st->done)) return;  // the same value as bellman_ford_round will see
  const BfRound r = bf_round(st, stamps);
  bin_frontier(offsets, r.frontier, r.count, BfSink<Codec>{r.out}, bins);
}

template <class Codec>
__global__ void __launch_bounds__(kRelaxBlock) bellman_ford_round(GraphView<typename Codec::Weight> g,
                                                                  label_t* labels, std::uint32_t* stamps,
                                                                  BellmanFordState* st, bool track_pred,
                                                                  DegreeBins bins) {
  __shared__ RelaxShared<Codec> sh;
  if (volatile_load(&st->done)) return;  // every block sees the same value: kernel boundary
  const BfRound r = bf_round(st, stamps);
  if (bins.enabled) {
    relax_bins<Codec>(g, labels, bins, track_pred, BfSink<Codec>{r.out}, sh, &st->relaxations);
  } else {
    relax_frontier<Codec>(g, labels, r.frontier, r.count, track_pred, BfSink<Codec>{r.out}, sh, &st->relaxations);
  }
  if (last_block_done(&st->blocks_done) && threadIdx.x == 0) {
    bf_end_round(st, r.p, r.count);
    reset_bins(bins);
    st->blocks_done = 0;
  }
}

// The persistent grid (small_frontier.cuh): rounds separated by grid barriers
// until the frontier is tiny or the end.
template <class Codec>
__global__ void __launch_bounds__(kRelaxBlock) bellman_ford_persistent(GraphView<typename Codec::Weight> g,
                                                                       label_t* labels, std::uint32_t* stamps,
                                                                       BellmanFordState* st, bool track_pred,
                                                                       DegreeBins bins, WideBand band) {
  __shared__ RelaxShared<Codec> sh;
  const cg::grid_group grid = cg::this_grid();
  const bool first = blockIdx.x == 0 && threadIdx.x == 0;
  for (bool first_round = true;; first_round = false) {
    if (volatile_load(&st->done)) return;
    const BfRound r = bf_round(st, stamps);
    // Small: the single block is faster. But always run one round per launch:
    // a few vertices with many arcs are too big for the single block.
    if (r.count > band.max_frontier) return;
    if (!first_round && r.count < band.hand_back) return;
    if (bins.enabled) {
      bin_frontier(g.offsets, r.frontier, r.count, BfSink<Codec>{r.out}, bins);
      grid.sync();
      relax_bins<Codec>(g, labels, bins, track_pred, BfSink<Codec>{r.out}, sh, &st->relaxations);
    } else {
      relax_frontier<Codec>(g, labels, r.frontier, r.count, track_pred, BfSink<Codec>{r.out}, sh, &st->relaxations);
    }
    grid.sync();
    if (first) {
      bf_end_round(st, r.p, r.count);
      reset_bins(bins);
    }
    grid.sync();
  }
}

// The single-block loop (small_frontier.cuh, narrow_relax.cuh): rounds while
// the frontier is small, with the queues in shared memory.
template <class Codec>
__global__ void __launch_bounds__(kSmallBlock) bellman_ford_small(GraphView<typename Codec::Weight> g,
                                                                  label_t* labels, std::uint32_t* stamps,
                                                                  BellmanFordState* global_state, bool track_pred,
                                                                  std::uint32_t max_arcs) {
  extern __shared__ __align__(16) unsigned char narrow_smem[];
  auto& sh = *reinterpret_cast<NarrowShared<Codec>*>(narrow_smem);
  __shared__ BellmanFordState state;  // the block's copy while it runs (copy_state)
  BellmanFordState* const st = &state;
  copy_state(st, global_state);
  __syncthreads();
  {
    const std::uint32_t p = st->parity, count = st->count[p];
    if (st->done || count > kNarrowTile) return;  // nothing changed
    for (std::uint32_t i = threadIdx.x; i < count; i += kSmallBlock) sh.queue[p][i] = __ldcg(st->queue[p] + i);
  }
  __syncthreads();
  for (;;) {
    if (st->done) break;  // written by thread 0 before the last __syncthreads
    const std::uint32_t p = st->parity, count = st->count[p];
    if (count > kNarrowTile) break;
    const BfSink<Codec, SharedQueueAppender> sink{
        SharedQueueAppender{sh.queue[p ^ 1], &st->count[p ^ 1], &st->overflow}};
    if (!narrow_relax<Codec>(g, labels, sh.queue[p], count, max_arcs, track_pred, sink, sh, &st->relaxations)) break;
    __syncthreads();
    if (threadIdx.x == 0) {
      if (count > 0) ++st->narrow_rounds;
      bf_end_round(st, p, count);
    }
    __syncthreads();
  }
  // The queue back to global memory, de-duplicated with the stamp the next
  // round's output would take; that round takes a newer one.
  const std::uint32_t p = st->parity;
  const std::uint32_t kept = copy_out_queue(sh.queue[p], st->count[p], st->queue[p], stamps, st->stamp);
  if (threadIdx.x == 0) {
    st->count[p] = kept;
    ++st->stamp;
  }
  __syncthreads();
  copy_state(global_state, st);
}

// Enqueues `rounds` of `launch_round`, then reads the state back; doubles the
// batch while the loop runs (up to max_batch), so a run with R rounds costs
// about log2(R) + R / max_batch host synchronisations and at most one batch of
// empty launches (each an early-exiting kernel) after the end.
template <class State, class LaunchRound>
void run_device_loop(State* d_state, State* h_state, cudaStream_t stream, LaunchRound launch_round,
                     int max_batch = 64) {
  int batch = 1;
  auto last_progress = std::make_tuple(~0ull, 0ull, 0u);
  for (;;) {
    for (int i = 0; i < batch; ++i) launch_round();
    SSSP_CUDA_CHECK(cudaMemcpyAsync(h_state, d_state, sizeof(State), cudaMemcpyDeviceToHost, stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (h_state->overflow) throw std::runtime_error("sssp: internal error: a frontier queue overflowed");
    if (h_state->done) return;
    // Watchdog: a batch that changed nothing would repeat forever.
    const auto progress = std::make_tuple(h_state->iterations, h_state->relaxations, h_state->parity);
    if (progress == last_progress) throw std::runtime_error("sssp: internal error: the device loop made no progress");
    last_progress = progress;
    batch = std::min(batch * 2, max_batch);
  }
}

template <class Codec>
StrategyStats run_bellman_ford(const Workspace<typename Codec::Weight>& ws, std::uint32_t source) {
  static_assert(sizeof(BellmanFordState) <= kStateBytes);
  auto* d_state = static_cast<BellmanFordState*>(ws.state);
  auto* h_state = static_cast<BellmanFordState*>(ws.host_state);
  BellmanFordState init{};
  init.queue[0] = ws.small[0];
  init.queue[1] = ws.small[1];
  init.count[0] = 1;
  init.stamp = 1;
  init.capacity = static_cast<std::uint32_t>(ws.small_capacity);
  *h_state = init;
  // Pageable source: the call returns once `source` has been staged.
  SSSP_CUDA_CHECK(cudaMemcpyAsync(ws.small[0], &source, sizeof source, cudaMemcpyHostToDevice, ws.stream));
  SSSP_CUDA_CHECK(cudaMemcpyAsync(d_state, h_state, sizeof init, cudaMemcpyHostToDevice, ws.stream));

  const WidePlan wide = wide_plan(bellman_ford_persistent<Codec>, ws);
  DegreeBins bins = ws.bins;
  bins.overflow = &d_state->overflow;
  if (ws.single_block_loop) allow_narrow_shared<Codec>(bellman_ford_small<Codec>);
  run_device_loop(d_state, h_state, ws.stream, [&] {
    if (ws.single_block_loop) {
      bellman_ford_small<Codec><<<1, kSmallBlock, sizeof(NarrowShared<Codec>), ws.stream>>>(
          ws.graph, ws.labels, ws.stamps_a, d_state, ws.track_pred, ws.narrow_max_arcs);
      SSSP_CHECK_LAUNCH("bellman_ford_small");
    }
    if (wide.medium_blocks > 0)
      launch_cooperative(bellman_ford_persistent<Codec>, wide.medium_blocks, kRelaxBlock, ws.stream, ws.graph,
                         ws.labels, ws.stamps_a, d_state, ws.track_pred, bins, wide.medium);
    if (wide.full_blocks > 0) {
      launch_cooperative(bellman_ford_persistent<Codec>, wide.full_blocks, kRelaxBlock, ws.stream, ws.graph,
                         ws.labels, ws.stamps_a, d_state, ws.track_pred, bins, wide.full);
    } else {
      if (bins.enabled) {
        bellman_ford_bin<Codec><<<ws.relax_grid, kRelaxBlock, 0, ws.stream>>>(ws.graph.offsets, ws.stamps_a, d_state,
                                                                              bins);
        SSSP_CHECK_LAUNCH("bellman_ford_bin");
      }
      bellman_ford_round<Codec><<<ws.relax_grid, kRelaxBlock, 0, ws.stream>>>(ws.graph, ws.labels, ws.stamps_a,
                                                                              d_state, ws.track_pred, bins);
      SSSP_CHECK_LAUNCH("bellman_ford_round");
    }
  });
  StrategyStats stats;
  stats.relaxations = h_state->relaxations;
  stats.iterations = h_state->iterations;
  stats.rounds_narrow = h_state->narrow_rounds;
  stats.buckets_processed = 0;
  return stats;
}

}  // namespace sssp::detail
