// Near-Far: Davidson, Baxter, Garland and Owens, "Work-Efficient Parallel
// GPU Methods for Single-Source Shortest Paths" (IPDPS 2014), section IV-C,
// as a frontier policy of the engine (engine.cuh).
//
// A threshold T splits updated vertices into a near set (distance < T),
// relaxed in the next round, and a far pile (distance >= T, far_pile.cuh),
// left alone. When the near set runs empty, T grows by delta and the far pile
// is split again: entries whose distance is now below the old T are stale
// (the vertex was improved into a near set and relaxed already) and are
// dropped, those below the new T form the next near set, the rest stay far.
//
// Differences from the paper, both to keep the loop on the device:
// - T jumps past the smallest distance appended to the far pile since the
//   last split (tracked with an atomicMin), so a split never comes up empty
//   because of a gap in the distances; it still grows by at least delta.
// - The far pile is de-duplicated per split epoch (a vertex appears in it at
//   most once), which bounds it by n.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "sssp/engine/engine.cuh"
#include "sssp/policies/far_pile.cuh"
#include "sssp/common/labels.cuh"

namespace sssp::detail {

template <class CodecT>
struct NearFarPolicy {
  using Codec = CodecT;
  using Weight = typename Codec::Weight;
  using Dist = typename Codec::Dist;

  struct State {
    LoopState loop;
    FarPile far;
    Dist threshold;      // near: distance < threshold
    Dist old_threshold;  // during a split: entries below it are stale
    typename Codec::Delta delta;
    unsigned long long phases;
  };

  struct IsNear {
    Dist threshold;
    __device__ __forceinline__ bool operator()(Dist d) const { return d < threshold; }
  };
  template <class Out>
  using Sink = FarPileSink<Codec, Out, IsNear>;

  static constexpr bool kHasSplits = true;
  static constexpr bool kClusterLoop = true;  // runs in the cluster regime (engine.cuh)
  static constexpr bool kPauseOnDevice = false;  // never pauses

  template <class Out>
  __device__ static Sink<Out> sink(const EngineContext<Weight>& ctx, const State& view, State* st, const Out& out) {
    return Sink<Out>{out, far_appender(view.far, &st->far, ctx.stamps_pile, &st->loop.overflow), &st->far,
                     IsNear{view.threshold}};
  }

  // The near set ran empty: raise T past the far pile's smallest distance
  // and split the pile, or end when it is empty.
  __device__ static void frontier_empty(State* st) {
    const std::uint32_t far = volatile_load(&st->far.count);
    const unsigned long long far_min = volatile_load(&st->far.min_key);  // loaded with the count, not after it
    if (far == 0) {
      st->loop.done = 1;
      return;
    }
    st->old_threshold = st->threshold;
    st->threshold = next_threshold(st->threshold, Codec::dist_from_key(far_min), st->delta);
    arm_far_split(st->loop, st->far, far, Codec::inf_key());
    ++st->phases;
  }

  __host__ __device__ static unsigned long long phase_count(const State* st) { return st->phases; }
  __device__ static std::uint32_t split_items(const State& view) { return view.far.split_count; }

  template <class NearOut>
  __device__ static void split(const EngineContext<Weight>& ctx, const State& view, State* st, std::uint32_t first,
                               std::uint32_t stride, const NearOut& near_out) {
    const Dist lo = view.old_threshold;
    const Dist hi = view.threshold;
    split_far_pile<Codec>(ctx.labels, ctx.stamps_pile, view.far, &st->far, &st->loop.overflow, nullptr, 0, first,
                          stride, near_out, [lo, hi](Dist d) {
                            return d < lo ? Placement::Stale : (d < hi ? Placement::Near : Placement::Far);
                          });
  }

  // The first frontier (the source, or a batch's sources: all at distance 0)
  // in the near set, threshold delta.
  static State initial_state(const Workspace<Weight>& ws, typename Codec::Delta delta) {
    State init{};
    init.loop = initial_loop(ws);
    init.far = initial_far_pile(ws, Codec::inf_key());
    init.delta = delta;
    init.threshold = static_cast<Dist>(delta);  // sources (distance 0) are near
    init.phases = 1;
    return init;
  }
};

template <class Codec, class Balance>
SolveCounters run_near_far(const Workspace<typename Codec::Weight>& ws, FirstFrontier first,
                           typename Codec::Delta delta) {
  using Policy = NearFarPolicy<Codec>;
  return run_engine<Policy, Balance>(ws, first, Policy::initial_state(ws, delta), [](const typename Policy::State&) {
    throw std::logic_error("sssp: near-far asked the host for a full split");
  });
}

}  // namespace sssp::detail
