// Frontier Bellman-Ford: every round relaxes the vertices whose label dropped
// in the previous round, until no label drops. This is the SSSP that Gunrock
// ships (Wang et al., "Gunrock: GPU Graph Analytics", TOPC 2017): no
// priority order at all, so on weighted graphs it re-relaxes vertices many
// times (work ratio well above 1) but needs no bucket bookkeeping.
//
// As a frontier policy of the engine (engine.cuh) it is the simplest one:
// every improved vertex goes to the output queue, no pile, no splits, and an
// empty output ends the solve.
#pragma once

#include <cstdint>

#include "sssp/engine/engine.cuh"

namespace sssp::detail {

template <class CodecT>
struct BellmanFordPolicy {
  using Codec = CodecT;
  using Weight = typename Codec::Weight;

  struct State {
    LoopState loop;
  };

  template <class Out>
  struct Sink {
    Out out;
    __device__ __forceinline__ bool queued(std::uint32_t u) const { return out.queued(u); }
    __device__ __forceinline__ void improved(std::uint32_t v, typename Codec::Dist) const { out.push(v); }
  };

  static constexpr bool kHasSplits = false;
  static constexpr bool kClusterLoop = true;  // runs in the cluster regime (engine.cuh)
  static constexpr bool kPauseOnDevice = false;  // never pauses

  template <class Out>
  __device__ static Sink<Out> sink(const EngineContext<Weight>&, const State&, State*, const Out& out) {
    return Sink<Out>{out};
  }
  __device__ static void frontier_empty(State* st) { st->loop.done = 1; }
  __host__ __device__ static unsigned long long phase_count(const State*) { return 0; }
  __device__ static std::uint32_t split_items(const State&) { return 0; }
  template <class NearOut>
  __device__ static void split(const EngineContext<Weight>&, const State&, State*, std::uint32_t, std::uint32_t,
                               const NearOut&) {}
};

template <class Codec, class Balance>
SolveCounters run_bellman_ford(const Workspace<typename Codec::Weight>& ws, FirstFrontier first) {
  using Policy = BellmanFordPolicy<Codec>;
  typename Policy::State init{};
  init.loop = initial_loop(ws);
  SolveCounters stats = run_engine<Policy, Balance>(ws, first, init, [](const typename Policy::State&) {});
  stats.buckets_processed = 0;
  return stats;
}

}  // namespace sssp::detail
