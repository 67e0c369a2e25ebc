// The engine (enactor): the device loop every strategy runs in. A strategy is
// a frontier policy (near_far.cuh, bucketing.cuh, bellman_ford.cuh) over this
// loop; the load balancer is a compile-time operator (balance.cuh).
//
// A solve is a sequence of steps on the device, each taken by whichever
// regime's kernel the frontier fits (docs/ARCHITECTURE.md, "The device loop"):
//
//   round  relax the frontier queue[parity] into queue[parity ^ 1] (the
//          policy's sink decides what else an improved vertex goes to), then
//          end_round: swap the queues; when the output is empty the policy
//          chooses what comes next (frontier_empty: end, a new phase, a split,
//          or a pause for the host);
//   split  a policy may arm a split of its own pile (near-far's far pile):
//          every thread of the regime runs the policy's split, which refills
//          queue[parity] (the empty frontier) from the pile.
//
// Regimes (small_frontier.cuh): the narrow loop (one block, frontier and
// output queue in shared memory, the policy's state copied into shared
// memory while it runs), and two persistent cooperative grids (medium: one
// block per SM; full: every resident block) with grid barriers between
// steps; without cooperative launch, one launch per step. The host enqueues
// the regimes' kernels in growing batches (each kernel exits at once when the
// frontier is not its size) and reads the loop's header once per batch.
// Many sources (solve_batch) run one narrow loop per block in one launch
// (engine_narrow_batch); a source that outgrows its block is finished from
// its state by continue_engine.
//
// A policy is a class with
//   State                       its control block; the first member is
//                               `LoopState loop` (below), the engine's part;
//   Sink<Out>, sink(ctx, view, st, out)
//                               what a round's improved vertices go to, with
//                               `out` the round's output queue (device
//                               memory or the narrow loop's shared queue);
//   frontier_empty(st)          one thread: a round produced nothing;
//   kHasSplits, split_items(view), split(ctx, view, st, first, stride, near_out)
//                               its pile split (all threads, grid-stride);
//   phase_count(st)             phases begun (progress besides relaxations);
//   kPauseOnDevice, PauseShared, pause_site(view, grid),
//   resolve_pause(ctx, st, scratch, global_state, grid_scratch)
//                               whether a pause may be resolved on the device
//                               (engine_resolve_pause: by one block, or by
//                               every block of a cooperative grid with
//                               kPauseGridScratch words of grid_scratch per
//                               block; PauseShared each block's scratch)
//                               instead of the host.
// `view` is this step's copy of the state (load_view), read by every thread;
// `st` is the state itself, for the counters the step updates.
//
// Reliability: a queue that would overflow sets `overflow` instead of writing
// past its end, and the loop stops with an error; a watchdog on the device
// stops the loop when kMaxStalledSteps steps in a row neither relax an arc nor
// begin a phase (no correct solve takes more than a few such steps in a row).
// Either way the host throws with a message naming the cause.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "sssp/balance/balance.cuh"
#include "sssp/common/cuda_check.cuh"
#include "sssp/engine/narrow_relax.cuh"
#include "sssp/balance/relax.cuh"
#include "sssp/engine/small_frontier.cuh"
#include "sssp/engine/workspace.cuh"

namespace sssp::detail {

enum class LoopError : std::uint32_t { None = 0, Overflow = 1, Watchdog = 2 };

// Who resolves a pause (a policy's pause_site): the host after the batch,
// one block, or every block of engine_resolve_pause's cooperative grid.
enum class PauseSite { Host, Block, Grid };
constexpr int kPauseGridScratch = 64;

constexpr std::uint32_t kMaxStalledSteps = 1024;

// The engine's part of a policy's state.
struct LoopState {
  std::uint32_t* queue[2];    // the frontier queues (de-duplicated by stamps in device memory)
  std::uint32_t count[2];
  std::uint32_t parity;       // queue[parity] is this round's frontier
  std::uint32_t capacity;     // entries of each queue
  std::uint32_t out_stamp;    // de-duplication stamp of this round's output
  std::uint32_t split_stamp;  // de-duplication stamp of the near queue a split fills
  std::uint32_t stamp_seq;    // the last stamp handed out
  std::uint32_t split_active; // the policy armed a split: the next step runs it
  std::uint32_t done;         // the solve ended (error says whether it failed)
  std::uint32_t paused;       // the policy needs the host before the loop goes on
  std::uint32_t error;        // LoopError
  std::uint32_t overflow;     // an appender ran out of capacity
  std::uint32_t stalled_steps;
  unsigned blocks_done;       // last-block-out counters of the per-step launches
  unsigned split_blocks_done;
  unsigned long long relaxations;    // arcs examined
  unsigned long long iterations;     // relax rounds with a non-empty frontier
  unsigned long long narrow_rounds;  // of those, rounds of the narrow loop
  unsigned long long cluster_rounds; // of those, rounds of the cluster loop
  unsigned long long cluster_steps;  // local steps within them: per round, the deepest block's
  unsigned long long progress_mark;  // relaxations + phases at the last step that made progress
};

// What every kernel of the engine gets, by value.
template <class Weight>
struct EngineContext {
  GraphView<Weight> graph;
  label_t* labels;
  std::uint32_t* stamps_out;   // de-duplicates the frontier queues
  std::uint32_t* stamps_pile;  // de-duplicates the policy's pile (near-far's far pile)
  bool track_pred;
  std::uint32_t narrow_max_arcs;
};

// A new stamp (one thread).
__device__ __forceinline__ std::uint32_t next_stamp(LoopState& L) { return ++L.stamp_seq; }

// Watchdog, after every step (one thread); `relaxations` as just read.
template <class Policy>
__device__ void check_progress(typename Policy::State* st, unsigned long long relaxations) {
  LoopState& L = st->loop;
  const unsigned long long mark = relaxations + Policy::phase_count(st);
  if (mark != L.progress_mark) {
    L.progress_mark = mark;
    L.stalled_steps = 0;
  } else if (++L.stalled_steps > kMaxStalledSteps && !L.done) {
    L.error = static_cast<std::uint32_t>(LoopError::Watchdog);
    L.done = 1;
  }
}

// End of a round (one thread, after every relaxation of the round). The
// whole grid waits for it, so the counters it needs are loaded together
// first (chained, each would cost an L2 round trip).
template <class Policy>
__device__ void end_round(typename Policy::State* st, std::uint32_t p, std::uint32_t count) {
  LoopState& L = st->loop;
  const std::uint32_t next = volatile_load(&L.count[p ^ 1]);
  const std::uint32_t overflow = volatile_load(&L.overflow);
  const unsigned long long relaxations = volatile_load(&L.relaxations);
  if (count > 0) ++L.iterations;
  L.count[p] = 0;
  L.parity = p ^ 1;
  // Capacity: each appender flags its own overflow (the narrow loop's queue
  // holds duplicates and may count more than n entries).
  if (overflow) {
    L.error = static_cast<std::uint32_t>(LoopError::Overflow);
    L.done = 1;
  } else if (next == 0) {
    Policy::frontier_empty(st);
  }
  L.out_stamp = next_stamp(L);
  check_progress<Policy>(st, relaxations);
}

// End of a split (one thread, after every thread's part of it).
template <class Policy>
__device__ void end_split(typename Policy::State* st) {
  LoopState& L = st->loop;
  const std::uint32_t overflow = volatile_load(&L.overflow);
  const unsigned long long relaxations = volatile_load(&L.relaxations);
  L.split_active = 0;
  if (overflow) {
    L.error = static_cast<std::uint32_t>(LoopError::Overflow);
    L.done = 1;
  }
  check_progress<Policy>(st, relaxations);
}

__device__ __forceinline__ bool loop_stopped(const LoopState& L) { return L.done || L.paused; }

// The multi-block kernels read the state through a per-block view: at the
// start of each step the block copies the whole control block from L2 into
// shared memory (a few coalesced lines, loaded together) and every thread
// reads its values there. Read directly, each field would be a separate load
// of one hot address by every warp of the grid, and the chains among them
// (done, then paused, then the parity, then the count at that parity, ...)
// would each wait a full L2 round trip. Counters that the step updates
// (queue counts, relaxations, the far pile's count) are still addressed in
// the state itself. All threads of the block call it.
template <class State>
__device__ __forceinline__ void load_view(State* view, const State* st) {
  static_assert(sizeof(State) % sizeof(std::uint32_t) == 0, "state copied in 32-bit words");
  auto* d = reinterpret_cast<std::uint32_t*>(view);
  const auto* s = reinterpret_cast<const std::uint32_t*>(st);
  for (unsigned i = threadIdx.x; i < sizeof(State) / sizeof(std::uint32_t); i += blockDim.x) d[i] = __ldcg(s + i);
  __syncthreads();
}

// This round's frontier and output queue in device memory.
struct GlobalRound {
  std::uint32_t p, count;
  const std::uint32_t* frontier;
  QueueAppender out;
};

template <class Weight>
__device__ __forceinline__ GlobalRound global_round(const EngineContext<Weight>& ctx, const LoopState& view,
                                                    LoopState* L) {
  GlobalRound r;
  r.p = view.parity;
  r.count = view.count[r.p];
  r.frontier = view.queue[r.p];
  r.out = QueueAppender{view.queue[r.p ^ 1], &L->count[r.p ^ 1], view.capacity, ctx.stamps_out, view.out_stamp,
                        &L->overflow};
  return r;
}

// The queue a split fills: this round's frontier, which is empty.
template <class Weight>
__device__ __forceinline__ QueueAppender split_output(const EngineContext<Weight>& ctx, const LoopState& view,
                                                      LoopState* L) {
  const std::uint32_t p = view.parity;
  return QueueAppender{view.queue[p], &L->count[p], view.capacity, ctx.stamps_out, view.split_stamp, &L->overflow};
}

// ---- Wide regime, one launch per step (no cooperative launch).

// First pass of a two-pass balancer. Exits on the same state as
// engine_round, which follows it (nothing changes the state in between).
template <class Policy, class Balance>
__global__ void __launch_bounds__(kRelaxBlock)
    engine_prepare(EngineContext<typename Policy::Weight> ctx, typename Policy::State* st, BalancePlan plan) {
  __shared__ typename Policy::State view;
  load_view(&view, st);
  if (loop_stopped(view.loop) || view.loop.split_active) return;
  const GlobalRound r = global_round(ctx, view.loop, &st->loop);
  Balance::prepare(ctx.graph.offsets, r.frontier, r.count, Policy::sink(ctx, view, st, r.out), plan);
}

template <class Policy, class Balance>
__global__ void __launch_bounds__(kRelaxBlock)
    engine_round(EngineContext<typename Policy::Weight> ctx, typename Policy::State* st, BalancePlan plan) {
  using Codec = typename Policy::Codec;
  __shared__ RelaxShared<Codec> sh;
  __shared__ typename Policy::State view;
  load_view(&view, st);
  // Same values in every block (kernel boundary): a pending split runs first.
  if (loop_stopped(view.loop) || view.loop.split_active) return;
  const GlobalRound r = global_round(ctx, view.loop, &st->loop);
  Balance::template relax<Codec>(ctx.graph, ctx.labels, r.frontier, r.count, plan, ctx.track_pred,
                                 Policy::sink(ctx, view, st, r.out), sh, &st->loop.relaxations);
  if (last_block_done(&st->loop.blocks_done) && threadIdx.x == 0) {
    end_round<Policy>(st, r.p, r.count);
    Balance::reset(plan);
    st->loop.blocks_done = 0;
  }
}

template <class Policy>
__global__ void engine_split(EngineContext<typename Policy::Weight> ctx, typename Policy::State* st) {
  __shared__ typename Policy::State view;
  load_view(&view, st);
  if (!view.loop.split_active || view.loop.done) return;
  Policy::split(ctx, view, st, blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x,
                split_output(ctx, view.loop, &st->loop));
  if (last_block_done(&st->loop.split_blocks_done) && threadIdx.x == 0) {
    end_split<Policy>(st);
    st->loop.split_blocks_done = 0;
  }
}

// ---- Wide regime on a persistent grid: steps separated by grid barriers
// while the frontier stays in the band (small_frontier.cuh, WideBand).
template <class Policy, class Balance>
__global__ void __launch_bounds__(kRelaxBlock) engine_persistent(EngineContext<typename Policy::Weight> ctx,
                                                                 typename Policy::State* st, BalancePlan plan,
                                                                 WideBand band) {
  using Codec = typename Policy::Codec;
  __shared__ RelaxShared<Codec> sh;
  __shared__ typename Policy::State view;
  const cg::grid_group grid = cg::this_grid();
  const std::uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t threads = gridDim.x * blockDim.x;
  for (bool first_round = true;; first_round = false) {
    // Every block sees the same state: it changes only between grid barriers
    // (which also order this view after the last step's reads of the old one).
    load_view(&view, st);
    if (loop_stopped(view.loop)) return;
    if (view.loop.split_active) {
      Policy::split(ctx, view, st, thread, threads, split_output(ctx, view.loop, &st->loop));
      grid.sync();
      if (thread == 0) end_split<Policy>(st);
      grid.sync();
      continue;
    }
    const GlobalRound r = global_round(ctx, view.loop, &st->loop);
    // Small: the single block is faster. But always run one round per launch:
    // a few vertices with many arcs are too big for the single block.
    if (r.count > band.max_frontier) return;
    if (!first_round && r.count < band.hand_back) return;
    const auto sink = Policy::sink(ctx, view, st, r.out);
    if constexpr (Balance::kTwoPass) {
      Balance::prepare(ctx.graph.offsets, r.frontier, r.count, sink, plan);
      grid.sync();
    }
    Balance::template relax<Codec>(ctx.graph, ctx.labels, r.frontier, r.count, plan, ctx.track_pred, sink, sh,
                                   &st->loop.relaxations);
    grid.sync();
    if (thread == 0) {
      end_round<Policy>(st, r.p, r.count);
      Balance::reset(plan);
    }
    grid.sync();
  }
}

// ---- Narrow regime: one block runs steps while the frontier fits
// (narrow_relax.cuh), with the policy's state and the frontier queues in
// shared memory; it returns when a step is too large for it. The state in
// shared memory is its own view (only thread 0 changes it, between barriers).
template <class Policy>
__device__ __forceinline__ void narrow_loop(const EngineContext<typename Policy::Weight>& ctx,
                                            typename Policy::State* global_state) {
  using Codec = typename Policy::Codec;
  using State = typename Policy::State;
  extern __shared__ __align__(16) unsigned char narrow_smem[];
  auto& sh = *reinterpret_cast<NarrowShared<Codec>*>(narrow_smem);
  __shared__ State state;  // the block's copy while it runs (copy_state)
  State* const st = &state;
  LoopState& L = st->loop;
  copy_state(st, global_state);
  __syncthreads();
  {
    const std::uint32_t p = L.parity, count = L.count[p];
    if (L.done || L.paused || count > kNarrowTile) return;  // nothing changed
    for (std::uint32_t i = threadIdx.x; i < count; i += kSmallBlock) sh.queue[p][i] = __ldcg(L.queue[p] + i);
  }
  __syncthreads();
  // A round whose output is a non-empty frontier the block can take (the
  // common case) changes nothing the next round reads from the state but the
  // parity and the count, which every thread knows already: the threads go on
  // with those in registers while thread 0 updates the state, without the
  // barrier after it (the next round's first barrier orders its writes before
  // anything reads or appends to them).
  std::uint32_t p = 0, count = 0;
  for (bool reload = true;; ) {
    if (reload) {
      // Every exit below is block-uniform: the state is read after a barrier.
      if (L.done || L.paused) break;
      p = L.parity;
      if (L.split_active) {
        if constexpr (Policy::kHasSplits) {
          if (Policy::split_items(*st) > kSmallSplit) break;  // the multi-block split takes it
          Policy::split(ctx, *st, st, threadIdx.x, kSmallBlock,
                        SharedQueueAppender{sh.queue[p], &L.count[p], &L.overflow});
          __syncthreads();
          if (threadIdx.x == 0) end_split<Policy>(st);
          __syncthreads();
          continue;
        }
      }
      count = L.count[p];
    }
    if (count > kNarrowTile) break;
    const auto sink = Policy::sink(ctx, *st, st, SharedQueueAppender{sh.queue[p ^ 1], &L.count[p ^ 1], &L.overflow});
    if (!narrow_relax<Codec>(ctx.graph, ctx.labels, sh.queue[p], count, ctx.narrow_max_arcs, ctx.track_pred, sink,
                             sh, &L.relaxations))
      break;
    __syncthreads();
    const std::uint32_t next = volatile_load(&L.count[p ^ 1]);
    const bool fast = next > 0 && next <= kNarrowTile && !volatile_load(&L.overflow);
    // The last thread keeps the books: entry j sits on thread j % kSmallBlock,
    // so its warp holds none of the next round's entries unless they number
    // more than kSmallBlock - 32, and warp 0 loads its entries meanwhile
    // instead of after end_round.
    if (threadIdx.x == kSmallBlock - 1) {
      if (count > 0) ++L.narrow_rounds;
      end_round<Policy>(st, p, count);  // with `fast`, it changes only what the next round does not read
    }
    if (fast) {
      p ^= 1;
      count = next;
      reload = false;
    } else {
      __syncthreads();
      reload = true;
    }
  }
  // The frontier back to global memory, de-duplicated with a stamp no round
  // has used; the next round's output takes a newer one.
  p = L.parity;
  const std::uint32_t stamp = L.stamp_seq + 1;
  const std::uint32_t kept = copy_out_queue(sh.queue[p], L.count[p], L.queue[p], ctx.stamps_out, stamp);
  if (threadIdx.x == 0) {
    L.count[p] = kept;
    L.stamp_seq = stamp + 1;
    L.out_stamp = stamp + 1;
  }
  __syncthreads();
  copy_state(global_state, st);
}

template <class Policy>
__global__ void __launch_bounds__(kSmallBlock) engine_narrow(EngineContext<typename Policy::Weight> ctx,
                                                             typename Policy::State* global_state) {
  narrow_loop<Policy>(ctx, global_state);
}

// A pause the policy can resolve on the device (bucketing's full split),
// resolved there: the host enqueues this kernel last in every step, so the
// loop goes on without a host round trip; it exits at once when the loop is
// not paused, or the pause needs the host (then the host resolves it after
// the batch). Launched as one block, or as a cooperative grid with
// `grid_scratch` (kPauseGridScratch words per block) for pauses too large for
// one block. A separate kernel, not part of the narrow loop: there its
// registers slowed every narrow round.
template <class Policy>
__global__ void __launch_bounds__(kSmallBlock) engine_resolve_pause(EngineContext<typename Policy::Weight> ctx,
                                                                    typename Policy::State* global_state,
                                                                    std::uint32_t* grid_scratch) {
  if constexpr (Policy::kPauseOnDevice) {
    __shared__ typename Policy::State state;
    __shared__ typename Policy::PauseShared scratch;
    copy_state(&state, global_state);
    __syncthreads();
    if (!state.loop.paused || state.loop.done) return;  // then nobody writes the state: every block agrees
    // Every block has read the state before block 0 may write it back: a
    // block starting late must not decide on the state a resolved pause
    // leaves (a new pause, perhaps for the grid it no longer has).
    if (grid_scratch != nullptr) cooperative_groups::this_grid().sync();
    const PauseSite site = Policy::pause_site(state, grid_scratch != nullptr);  // the same in every block
    if (site == PauseSite::Host || (site == PauseSite::Block && blockIdx.x != 0)) return;
    Policy::resolve_pause(ctx, &state, &scratch, global_state, site == PauseSite::Grid ? grid_scratch : nullptr);
    if (blockIdx.x == 0) copy_state(global_state, &state);
  }
}

// Many sources at once (solve_batch): block b runs source b's narrow loop
// over its own labels and stamps (arrays `stride` elements apart) and its own
// state (slots `state_bytes` apart; the queues are named in each state),
// independently of the other blocks. A source whose frontier outgrows the
// block is left in its state for the single-source loop to finish.
template <class Policy>
__global__ void __launch_bounds__(kSmallBlock) engine_narrow_batch(EngineContext<typename Policy::Weight> ctx,
                                                                   std::uint64_t stride, unsigned char* states,
                                                                   std::uint64_t state_bytes) {
  EngineContext<typename Policy::Weight> mine = ctx;
  const std::uint64_t offset = stride * blockIdx.x;
  mine.labels += offset;
  mine.stamps_out += offset;
  mine.stamps_pile += offset;
  narrow_loop<Policy>(mine, reinterpret_cast<typename Policy::State*>(states + state_bytes * blockIdx.x));
}

// ---- Cluster regime: a thread-block cluster (Hopper, sm_90) runs the
// rounds of medium frontiers, from where the single block gives up to a few
// tens of thousands of vertices (grids, meshes, bellman-ford on roads). One
// block saturates its SM's memory pipeline at about one scattered access per
// cycle, so a round of a few thousand arcs costs it microseconds, and a
// persistent grid pays three grid barriers and L2 round trips for its state
// per round. A cluster of C blocks on C SMs has C memory pipelines, a
// cluster barrier, and distributed shared memory between its blocks.
//
// Each block appends the vertices its round improves to its own part of the
// next frontier, in its own shared memory. At the start of a round the
// frontier (every block's part, in block order) is dealt evenly: block b
// takes entries [b T / C, (b + 1) T / C), read from their blocks' shared
// memory, and relaxes them with the narrow round (narrow_relax.cuh). Without
// the deal a wave stays in the blocks where it started and the round waits
// for the one holding a third of it (docs/TUNING.md, "Cluster regime").
// The policy's state lives in block 0's shared memory; the other blocks reach
// it through distributed shared memory (the appenders' counters and the far
// pile's minimum are atomics there) and keep a view of it, refreshed after
// every step that changes what a round reads. After each round's cluster
// barrier warp 0 of every block reads the parts' sizes, and all blocks decide
// the same thing: go on, hand the frontier to another regime, or let block 0
// end the round with the policy (an empty frontier: a split or the end)
// before the next barrier.
//
// Local steps: before the cluster barrier each block relaxes what its own
// round improved, and again what that improved, up to band.local_steps
// times or until its part is empty (or too large for one narrow round), with
// block barriers only. A cluster round then carries the wave many hops and
// pays the barrier, the deal and the parts' sizes once per cascade; vertices
// another block improves meanwhile wait for the next deal
// (docs/TUNING.md, "Cluster regime: local steps").
//
// A block whose entries have more arcs than its owner map holds relaxes
// nothing that round (narrow_relax writes nothing then) and keeps them: the
// cluster hands over, the frontier being those entries with the other
// blocks' output (near-far is label-correcting: entries of two rounds may
// meet).
struct ClusterBand {
  std::uint32_t max_entry = 0;  // takes the loop when the frontier has at most this many vertices
  std::uint32_t hand_back = 0;  // returns once a round's output is smaller (the single block is cheaper)
  std::uint32_t local_steps = 0;  // block-local relax steps after each round's own (below)
};

template <class Policy>
__global__ void __launch_bounds__(kSmallBlock) engine_cluster(EngineContext<typename Policy::Weight> ctx,
                                                              typename Policy::State* global_state,
                                                              ClusterBand band) {
  using Codec = typename Policy::Codec;
  using State = typename Policy::State;
  constexpr unsigned kWords = sizeof(State) / sizeof(std::uint32_t);
  static_assert(sizeof(State) % sizeof(std::uint32_t) == 0, "state copied in 32-bit words");
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
  const unsigned tid = threadIdx.x, lane = tid % 32;
  const bool leader = rank == 0 && tid == 0;
  extern __shared__ __align__(16) unsigned char narrow_smem[];
  auto& sh = *reinterpret_cast<NarrowShared<Codec>*>(narrow_smem);
  __shared__ State view;             // block 0's is the state itself
  __shared__ std::uint32_t part[2];  // this block's output in sh.queue[0 / 1]
  __shared__ std::uint32_t cur[kNarrowTile];  // this round's entries, dealt from every block's output
  __shared__ std::uint32_t stuck;    // this round's entries had more arcs than a round takes
  __shared__ unsigned long long arcs;
  State* const st = cluster.map_shared_rank(&view, 0u);
  const auto refresh = [&] {
    if (rank != 0) {
      auto* d = reinterpret_cast<std::uint32_t*>(&view);
      const auto* s = reinterpret_cast<const std::uint32_t*>(st);
      for (unsigned i = tid; i < kWords; i += blockDim.x) d[i] = s[i];
    }
    __syncthreads();
  };
  // The blocks' part[q] sizes, whether any block was stuck, and the overflow
  // flag: warp 0 reads them across the cluster and every warp reads its copy
  // (32 warps in 16 blocks reading the same remote words stalled a round by
  // thousands of cycles). Lane c of every warp gets block c's size.
  // Also the most local steps a block took in the round that wrote part[q]
  // (steps[q], by the same parity, so the next round's count does not
  // overwrite one being read).
  __shared__ std::uint32_t seen_part[32], seen_stuck, seen_overflow, seen_steps;
  __shared__ std::uint32_t steps[2];
  const auto read_parts = [&](std::uint32_t q) -> std::uint32_t {
    if (tid < 32) {
      std::uint32_t size = 0, was_stuck = 0, deepest = 0;
      if (lane < blocks) {
        size = *cluster.map_shared_rank(&part[q], lane);
        was_stuck = *cluster.map_shared_rank(&stuck, lane);
        deepest = *cluster.map_shared_rank(&steps[q], lane);
      }
      seen_part[lane] = size;
      was_stuck = __any_sync(0xFFFFFFFFu, was_stuck != 0);
      deepest = __reduce_max_sync(0xFFFFFFFFu, deepest);
      if (lane == 0) {
        seen_stuck = was_stuck;
        seen_overflow = volatile_load(&st->loop.overflow);
        seen_steps = deepest;
      }
    }
    __syncthreads();
    return seen_part[lane];
  };
  if (rank == 0) copy_state(&view, global_state);
  cluster.sync();
  refresh();
  const LoopState& V = view.loop;
  std::uint32_t p = V.parity;
  {
    const std::uint32_t count = V.count[p];
    if (V.done || V.paused || count > band.max_entry || (count == 0 && !V.split_active)) {
      cluster.sync();  // block 0's shared memory outlives every read of it
      return;          // nothing changed
    }
    const std::uint32_t lo = static_cast<std::uint32_t>(std::uint64_t{count} * rank / blocks);
    const std::uint32_t hi = static_cast<std::uint32_t>(std::uint64_t{count} * (rank + 1) / blocks);
    for (std::uint32_t i = tid; i < hi - lo; i += kSmallBlock) sh.queue[p][i] = __ldcg(V.queue[p] + lo + i);
    if (tid == 0) {
      part[p] = hi - lo;
      part[p ^ 1] = 0;
      arcs = 0;
      stuck = 0;
      steps[0] = steps[1] = 0;
    }
  }
  cluster.sync();
  std::uint32_t parts = read_parts(p);  // lane c: block c's part of the frontier
  std::uint32_t mine = 0;               // entries of this block's round (in cur)
  bool handed_over = false;             // the loop ended after a round, its output not yet in global memory
  for (;;) {
    if (V.done || V.paused) break;
    if (V.split_active) {
      if constexpr (Policy::kHasSplits) {
        if (Policy::split_items(view) > blocks * kSmallSplit) break;  // a grid takes it
        Policy::split(ctx, view, st, rank * kSmallBlock + tid, blocks * kSmallBlock,
                      SharedQueueAppender{sh.queue[p], &part[p], &st->loop.overflow});
        cluster.sync();
        if (leader) end_split<Policy>(st);
        cluster.sync();
        refresh();
        parts = read_parts(p);
        continue;
      }
    }
    // Deal the frontier (every block's part, in block order) evenly: this
    // block takes entries [lo, hi) of it, read from their blocks' shared
    // memory.
    std::uint32_t incl = parts;
#pragma unroll
    for (unsigned d = 1; d < 32; d *= 2) {
      const std::uint32_t y = __shfl_up_sync(0xFFFFFFFFu, incl, d);
      if (lane >= d) incl += y;
    }
    const std::uint32_t total = __shfl_sync(0xFFFFFFFFu, incl, 31);
    if (total > blocks * kNarrowTile) break;  // more than the blocks' rounds hold: a grid takes it
    std::uint32_t upto[16];  // upto[c]: entries in blocks 0..c
#pragma unroll
    for (int c = 0; c < 16; ++c) upto[c] = __shfl_sync(0xFFFFFFFFu, incl, c);
    const std::uint32_t lo = static_cast<std::uint32_t>(std::uint64_t{total} * rank / blocks);
    const std::uint32_t hi = static_cast<std::uint32_t>(std::uint64_t{total} * (rank + 1) / blocks);
    mine = hi - lo;
    for (std::uint32_t j = tid; j < mine; j += kSmallBlock) {
      const std::uint32_t i = lo + j;
      std::uint32_t from = 0, before = 0;  // the block holding entry i, and the entries before it
#pragma unroll
      for (int c = 0; c < 16; ++c) {
        const bool past = c < static_cast<int>(blocks) && upto[c] <= i;
        from += past;
        before = past ? upto[c] : before;
      }
      cur[j] = *cluster.map_shared_rank(&sh.queue[p][i - before], from);
    }
    if (tid == 0) part[p ^ 1] = 0;  // nobody reads it this round; appends come after the barrier below
    __syncthreads();
    const auto sink = Policy::sink(ctx, view, st, SharedQueueAppender{sh.queue[p ^ 1], &part[p ^ 1], &st->loop.overflow});
    // `arcs` is thread 0's (narrow_relax adds to it after its last barrier):
    // only thread 0 reads it (racecheck flagged the other threads' reads).
    unsigned long long arcs_before = 0;
    if (tid == 0) arcs_before = arcs;
    const bool relaxed =
        narrow_relax<Codec>(ctx.graph, ctx.labels, cur, mine, kNarrowMaxArcs, ctx.track_pred, sink, sh, &arcs);
    // Local steps: the block relaxes what its own round just improved, with
    // block barriers only, before the cluster barrier and the next deal, so
    // a cluster round advances the wave by 1 + local_steps hops. Entries the
    // other blocks improve meanwhile wait for the next round (label
    // correcting: order changes work, never the result). The block's output
    // part is read by no other block before the cluster barrier, and `cur`
    // (its dealt entries, relaxed) is its own.
    std::uint32_t taken = 0;  // local steps that relaxed (block-uniform)
    if (relaxed) {
      for (std::uint32_t step = 0; step < band.local_steps; ++step) {
        __syncthreads();  // the last relax's appends and its reads of sh are done
        const std::uint32_t n = part[p ^ 1];
        if (n == 0 || n > kNarrowTile) break;  // block-uniform
        for (std::uint32_t j = tid; j < n; j += kSmallBlock) cur[j] = sh.queue[p ^ 1][j];
        __syncthreads();  // every thread has read part[p ^ 1]; cur is complete
        // Appends begin after narrow_relax's first barrier, so after this.
        if (tid == 0) part[p ^ 1] = 0;
        if (!narrow_relax<Codec>(ctx.graph, ctx.labels, cur, n, kNarrowMaxArcs, ctx.track_pred, sink, sh, &arcs)) {
          if (tid == 0) part[p ^ 1] = n;  // nothing was written: the entries are still in queue[p ^ 1]
          break;
        }
        mine = n;
        ++taken;
      }
    }
    if (tid == 0) {
      steps[p ^ 1] = taken;
      if (!relaxed) {
        stuck = 1;
      } else if (arcs != arcs_before) {
        atomicAdd(&st->loop.relaxations, arcs - arcs_before);
      }
    }
    cluster.sync();  // every block's output, counters and atomics are done; nobody reads queue[p] any more
    parts = read_parts(p ^ 1);
    std::uint32_t next = parts;
#pragma unroll
    for (int d = 16; d > 0; d /= 2) next += __shfl_xor_sync(0xFFFFFFFFu, next, d);
    const bool any_stuck = seen_stuck != 0;
    const bool overflow = seen_overflow != 0;
    if (any_stuck || (!overflow && (next > band.max_entry || (next > 0 && next < band.hand_back)))) {
      handed_over = true;  // block 0 ends the round after the copy below
      break;
    }
    if (leader) {
      st->loop.count[p ^ 1] = next;  // what end_round reads as the next frontier's size
      if (total > 0) {  // as end_round counts iterations
        ++st->loop.cluster_rounds;
        st->loop.cluster_steps += seen_steps;
      }
      end_round<Policy>(st, p, total);
    }
    p ^= 1;
    if (next > 0 && !overflow) continue;  // end_round changed nothing a round reads
    // The frontier ran empty (or failed): the policy's turn, then everyone
    // reads the state again.
    cluster.sync();
    refresh();
  }
  // Every block's pending entries back to the global queue of the state's
  // parity, de-duplicated with a stamp no round has used (the next round's
  // output takes a newer one): after a round, its output, or for a block
  // that could not relax its entries, those entries; otherwise its part of
  // the frontier (empty unless a split just filled it).
  cluster.sync();  // the leader's last end_round or end_split is done; nobody reads a part any more
  const std::uint32_t out_parity = handed_over ? p ^ 1 : V.parity;
  const std::uint32_t stamp = volatile_load(&st->loop.stamp_seq) + 1;
  const std::uint32_t* pending = handed_over ? (stuck ? cur : sh.queue[p ^ 1]) : sh.queue[p];
  const std::uint32_t n_pending = handed_over ? (stuck ? mine : part[p ^ 1]) : part[p];
  std::uint32_t* staging = handed_over ? sh.queue[p] : sh.queue[p ^ 1];  // free now
  if (leader) st->loop.count[out_parity] = 0;
  cluster.sync();
  const std::uint32_t kept = copy_out_queue(pending, n_pending, staging, ctx.stamps_out, stamp);
  __shared__ std::uint32_t base;
  std::uint32_t* global_queue = view.loop.queue[out_parity];
  if (tid == 0) base = atomicAdd(&st->loop.count[out_parity], kept);
  __syncthreads();
  for (std::uint32_t i = tid; i < kept; i += kSmallBlock) global_queue[base + i] = staging[i];
  cluster.sync();
  if (leader) {
    LoopState& L = st->loop;
    if (handed_over) {
      ++L.cluster_rounds;
      L.cluster_steps += seen_steps;
      ++L.iterations;
      L.count[out_parity ^ 1] = 0;
    }
    L.parity = out_parity;
    L.stamp_seq = stamp + 1;
    L.out_stamp = stamp + 1;
  }
  if (rank == 0) {
    __syncthreads();
    copy_state(global_state, &view);
  }
}

// ---- Host side.

// The loop's initial header: one source in queue[0] (run_engine stages the
// first frontier there and sets its size), stamps from 1.
template <class Weight>
LoopState initial_loop(const Workspace<Weight>& ws) {
  LoopState L{};
  L.queue[0] = ws.small[0];
  L.queue[1] = ws.small[1];
  L.count[0] = 1;
  L.capacity = static_cast<std::uint32_t>(ws.small_capacity);  // n + 1 suffices: de-duplicated
  L.out_stamp = 1;
  L.stamp_seq = 1;
  return L;
}

template <class Weight>
EngineContext<Weight> engine_context(const Workspace<Weight>& ws) {
  return EngineContext<Weight>{ws.graph, ws.labels, ws.stamps_a, ws.stamps_b, ws.track_pred, ws.narrow_max_arcs};
}

inline void throw_loop_error(const LoopState& L) {
  switch (static_cast<LoopError>(L.error)) {
    case LoopError::None: return;
    case LoopError::Overflow: throw std::runtime_error("sssp: internal error: a frontier queue overflowed");
    case LoopError::Watchdog:
      throw std::runtime_error("sssp: internal error: the device loop made no progress in " +
                               std::to_string(kMaxStalledSteps) + " steps (watchdog)");
  }
  throw std::runtime_error("sssp: internal error: the device loop reported error " + std::to_string(L.error));
}

// A launch of `blocks` blocks as one cluster of that many, with the narrow
// loop's shared memory. `attribute` must outlive the configuration.
template <class Codec>
cudaLaunchConfig_t cluster_launch(int blocks, cudaStream_t stream, cudaLaunchAttribute& attribute) {
  attribute = cudaLaunchAttribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = static_cast<unsigned>(blocks);
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(blocks));
  config.blockDim = dim3(kSmallBlock);
  config.dynamicSmemBytes = sizeof(NarrowShared<Codec>);
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

// Blocks of the cluster regime's cluster: 16 where the device can run such
// a cluster (a non-portable size on Hopper), else 8, else 0 (no cluster
// regime: pre-Hopper devices, policies without it, or options).
template <class Policy>
int cluster_blocks_for(const Workspace<typename Policy::Weight>& ws) {
  if (!Policy::kClusterLoop || !ws.single_block_loop || !ws.cluster_loop) return 0;
  int major = 0;
  SSSP_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ws.device));
  if (major < 9) return 0;
  auto kernel = engine_cluster<Policy>;
  SSSP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(sizeof(NarrowShared<typename Policy::Codec>))));
  SSSP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  for (const int blocks : {16, 8}) {
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = cluster_launch<typename Policy::Codec>(blocks, ws.stream, attribute);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &config) == cudaSuccess && clusters > 0) return blocks;
    (void)cudaGetLastError();  // a size the device cannot schedule: try the next
  }
  return 0;
}

template <class Policy>
void launch_cluster(int blocks, cudaStream_t stream, EngineContext<typename Policy::Weight> ctx,
                    typename Policy::State* state, ClusterBand band) {
  cudaLaunchAttribute attribute;
  const cudaLaunchConfig_t config = cluster_launch<typename Policy::Codec>(blocks, stream, attribute);
  SSSP_CUDA_CHECK(cudaLaunchKernelEx(&config, engine_cluster<Policy>, ctx, state, band));
}

// Blocks of engine_resolve_pause's cooperative grid: one per SM, as many as
// ws.pause_scratch has room for; 0 where pauses get no grid.
template <class Policy>
int pause_grid_blocks(const Workspace<typename Policy::Weight>& ws) {
  if constexpr (Policy::kPauseOnDevice) {
    if (!ws.block_split || !ws.grid_split || !ws.cooperative) return 0;
    const int blocks = cooperative_grid(engine_resolve_pause<Policy>, kSmallBlock, ws.device, 1);
    return std::min(blocks, ws.pause_scratch_blocks);
  }
  return 0;
}

// What a finished loop counted, from its state as read back.
template <class Policy>
SolveCounters loop_stats(const typename Policy::State& s) {
  SolveCounters stats;
  stats.relaxations = s.loop.relaxations;
  stats.iterations = s.loop.iterations;
  stats.rounds_narrow = s.loop.narrow_rounds;
  stats.rounds_cluster = s.loop.cluster_rounds;
  stats.rounds_wide = s.loop.iterations - s.loop.narrow_rounds - s.loop.cluster_rounds;
  stats.cluster_local_steps = s.loop.cluster_steps;
  stats.buckets_processed = Policy::phase_count(&s);
  return stats;
}

// Runs the device loop from the state in ws.state (uploaded, or left there
// by an earlier kernel) until the end; `pause` as for run_engine.
template <class Policy, class Balance, class Pause>
SolveCounters continue_engine(const Workspace<typename Policy::Weight>& ws, Pause pause) {
  using State = typename Policy::State;
  auto* d_state = static_cast<State*>(ws.state);
  auto* h_state = static_cast<State*>(ws.host_state);
  const auto ctx = engine_context(ws);
  BalancePlan plan = ws.balance;
  plan.overflow = &d_state->loop.overflow;
  if (ws.single_block_loop) allow_narrow_shared<typename Policy::Codec>(engine_narrow<Policy>);
  const int cluster_blocks = cluster_blocks_for<Policy>(ws);
  WidePlan wide = wide_plan(engine_persistent<Policy, Balance>, ws, ws.medium_grid && cluster_blocks == 0);
  ClusterBand cluster_band;
  if (cluster_blocks > 0) {
    cluster_band.max_entry = static_cast<std::uint32_t>(cluster_blocks) * kNarrowTile / 2;
    cluster_band.hand_back = hand_back_frontier(ws.narrow_max_arcs);
    cluster_band.local_steps = ws.cluster_local_steps;
    wide.full.hand_back = std::max(wide.full.hand_back, std::min(cluster_band.max_entry, wide.medium.max_frontier));
  }
  // Last in every step, so that a pause any regime ends on is resolved
  // before the next step, or before the host reads the state.
  const int pause_blocks = pause_grid_blocks<Policy>(ws);
  const auto launch_resolve_pause = [&] {
    if constexpr (Policy::kPauseOnDevice) {
      if (pause_blocks > 1) {
        launch_cooperative(engine_resolve_pause<Policy>, pause_blocks, kSmallBlock, ws.stream, ctx, d_state,
                           ws.pause_scratch);
      } else if (ws.block_split) {
        engine_resolve_pause<Policy><<<1, kSmallBlock, 0, ws.stream>>>(ctx, d_state, nullptr);
        SSSP_CHECK_LAUNCH("engine_resolve_pause");
      }
    }
  };
  const auto launch_batch = [&](int batch) {
    for (int i = 0; i < batch; ++i) {
      if (ws.single_block_loop) {
        engine_narrow<Policy><<<1, kSmallBlock, sizeof(NarrowShared<typename Policy::Codec>), ws.stream>>>(ctx,
                                                                                                          d_state);
        SSSP_CHECK_LAUNCH("engine_narrow");
      }
      if (cluster_blocks > 0) launch_cluster<Policy>(cluster_blocks, ws.stream, ctx, d_state, cluster_band);
      if (wide.medium_blocks > 0)
        launch_cooperative(engine_persistent<Policy, Balance>, wide.medium_blocks, kRelaxBlock, ws.stream, ctx,
                           d_state, plan, wide.medium);
      if (wide.full_blocks > 0) {
        launch_cooperative(engine_persistent<Policy, Balance>, wide.full_blocks, kRelaxBlock, ws.stream, ctx, d_state,
                           plan, wide.full);
        launch_resolve_pause();
        continue;
      }
      if constexpr (Balance::kTwoPass) {
        engine_prepare<Policy, Balance><<<ws.relax_grid, kRelaxBlock, 0, ws.stream>>>(ctx, d_state, plan);
        SSSP_CHECK_LAUNCH("engine_prepare");
      }
      engine_round<Policy, Balance><<<ws.relax_grid, kRelaxBlock, 0, ws.stream>>>(ctx, d_state, plan);
      SSSP_CHECK_LAUNCH("engine_round");
      if constexpr (Policy::kHasSplits) {
        engine_split<Policy><<<ws.stream_grid, 256, 0, ws.stream>>>(ctx, d_state);
        SSSP_CHECK_LAUNCH("engine_split");
      }
      launch_resolve_pause();
    }
  };
  // Batches double while the loop runs (up to 64), so a solve of R steps
  // costs about log2(R) + R / 64 host synchronisations.
  int batch = 1;
  auto last = std::make_tuple(~0ull, ~0ull, ~0u, ~0u);
  for (;;) {
    launch_batch(batch);
    SSSP_CUDA_CHECK(cudaMemcpyAsync(h_state, d_state, sizeof(State), cudaMemcpyDeviceToHost, ws.stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(ws.stream));
    const LoopState& L = h_state->loop;
    throw_loop_error(L);
    if (L.done) break;
    if (L.paused) {
      pause(*h_state);
      batch = 1;
      continue;
    }
    // A batch in which no kernel took a step (no regime admitted the
    // frontier) would repeat forever; the device watchdog cannot see it.
    const auto now = std::make_tuple(L.progress_mark + L.iterations, Policy::phase_count(h_state), L.stamp_seq,
                                     L.split_active);
    if (now == last) throw std::runtime_error("sssp: internal error: no regime of the device loop took a step");
    last = now;
    batch = std::min(batch * 2, 64);
  }
  return loop_stats<Policy>(*h_state);
}

// The first frontier of a solve: one source, or several (the sources of a
// batch solved together as copies of the graph, each at distance 0).
struct FirstFrontier {
  const std::uint32_t* vertices;
  std::uint32_t count;
  FirstFrontier(const std::uint32_t& source) : vertices(&source), count(1) {}  // NOLINT: one source converts
  explicit FirstFrontier(const std::vector<std::uint32_t>& sources)
      : vertices(sources.data()), count(static_cast<std::uint32_t>(sources.size())) {}
};

// Runs the device loop from `init` with `first` as the first frontier until
// the end. `pause` is called whenever the policy asks for the host (its
// state's loop.paused set) with the state as read back, and must enqueue
// what resolves it (clearing loop.paused on the device).
template <class Policy, class Balance, class Pause>
SolveCounters run_engine(const Workspace<typename Policy::Weight>& ws, FirstFrontier first,
                         const typename Policy::State& init, Pause pause) {
  using State = typename Policy::State;
  static_assert(sizeof(State) <= kStateBytes);
  if (first.count == 0 || first.count > ws.small_capacity)
    throw std::logic_error("sssp: the first frontier must hold 1 .. n sources");
  auto* d_state = static_cast<State*>(ws.state);
  auto* h_state = static_cast<State*>(ws.host_state);
  *h_state = init;
  h_state->loop.count[0] = first.count;
  // Pageable sources: the call returns once they have been staged.
  SSSP_CUDA_CHECK(cudaMemcpyAsync(init.loop.queue[0], first.vertices, std::size_t{first.count} * 4,
                                  cudaMemcpyHostToDevice, ws.stream));
  SSSP_CUDA_CHECK(cudaMemcpyAsync(d_state, h_state, sizeof(State), cudaMemcpyHostToDevice, ws.stream));
  return continue_engine<Policy, Balance>(ws, pause);
}

}  // namespace sssp::detail
