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
//   phase_count(st)             phases begun (progress besides relaxations).
// `view` is this step's copy of the state (load_view), read by every thread;
// `st` is the state itself, for the counters the step updates.
//
// Reliability: a queue that would overflow sets `overflow` instead of writing
// past its end, and the loop stops with an error; a watchdog on the device
// stops the loop when kMaxStalledSteps steps in a row neither relax an arc nor
// begin a phase (no correct solve takes more than a few such steps in a row).
// Either way the host throws with a message naming the cause.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>

#include "sssp/balance.cuh"
#include "sssp/cuda_check.cuh"
#include "sssp/narrow_relax.cuh"
#include "sssp/relax.cuh"
#include "sssp/small_frontier.cuh"
#include "sssp/workspace.cuh"

namespace sssp::detail {

enum class LoopError : std::uint32_t { None = 0, Overflow = 1, Watchdog = 2 };

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
    if (threadIdx.x == 0) {
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

// ---- Host side.

// The loop's initial header: `source` alone in queue[0] (the caller stages
// it there), stamps from 1.
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

// Runs the device loop from the state in ws.state (uploaded, or left there
// by an earlier kernel) until the end; `pause` as for run_engine.
template <class Policy, class Balance, class Pause>
StrategyStats continue_engine(const Workspace<typename Policy::Weight>& ws, Pause pause) {
  using State = typename Policy::State;
  auto* d_state = static_cast<State*>(ws.state);
  auto* h_state = static_cast<State*>(ws.host_state);
  const auto ctx = engine_context(ws);
  BalancePlan plan = ws.balance;
  plan.overflow = &d_state->loop.overflow;
  const WidePlan wide = wide_plan(engine_persistent<Policy, Balance>, ws);
  if (ws.single_block_loop) allow_narrow_shared<typename Policy::Codec>(engine_narrow<Policy>);
  const auto launch_batch = [&](int batch) {
    for (int i = 0; i < batch; ++i) {
      if (ws.single_block_loop) {
        engine_narrow<Policy><<<1, kSmallBlock, sizeof(NarrowShared<typename Policy::Codec>), ws.stream>>>(ctx,
                                                                                                          d_state);
        SSSP_CHECK_LAUNCH("engine_narrow");
      }
      if (wide.medium_blocks > 0)
        launch_cooperative(engine_persistent<Policy, Balance>, wide.medium_blocks, kRelaxBlock, ws.stream, ctx,
                           d_state, plan, wide.medium);
      if (wide.full_blocks > 0) {
        launch_cooperative(engine_persistent<Policy, Balance>, wide.full_blocks, kRelaxBlock, ws.stream, ctx, d_state,
                           plan, wide.full);
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
  StrategyStats stats;
  stats.relaxations = h_state->loop.relaxations;
  stats.iterations = h_state->loop.iterations;
  stats.rounds_narrow = h_state->loop.narrow_rounds;
  stats.buckets_processed = Policy::phase_count(h_state);
  return stats;
}

// Runs the device loop from `init` with `source` as the first frontier until
// the end. `pause` is called whenever the policy asks for the host (its
// state's loop.paused set) with the state as read back, and must enqueue
// what resolves it (clearing loop.paused on the device).
template <class Policy, class Balance, class Pause>
StrategyStats run_engine(const Workspace<typename Policy::Weight>& ws, std::uint32_t source,
                         const typename Policy::State& init, Pause pause) {
  using State = typename Policy::State;
  static_assert(sizeof(State) <= kStateBytes);
  auto* d_state = static_cast<State*>(ws.state);
  auto* h_state = static_cast<State*>(ws.host_state);
  *h_state = init;
  // Pageable source: the call returns once `source` has been staged.
  SSSP_CUDA_CHECK(cudaMemcpyAsync(init.loop.queue[0], &source, sizeof source, cudaMemcpyHostToDevice, ws.stream));
  SSSP_CUDA_CHECK(cudaMemcpyAsync(d_state, h_state, sizeof(State), cudaMemcpyHostToDevice, ws.stream));
  return continue_engine<Policy, Balance>(ws, pause);
}

}  // namespace sssp::detail
