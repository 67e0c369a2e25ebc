// Load balancers of the wide regime's relax rounds, as compile-time operators
// (solver.hpp, LoadBalance): the engine's kernels (engine.cuh) are templates
// over one of these, so a round carries no runtime switch between them.
//
//   ThreeStageBalance  one pass: relax_frontier (relax.cuh);
//   BinnedBalance      two passes: bin_frontier, a grid barrier, relax_bins
//                      (binned_relax.cuh);
//   MergePathBalance   two passes: merge_path_prefix, a grid barrier,
//                      merge_path_relax (merge_path_relax.cuh).
//
// Each has the same members:
//   kTwoPass            true when prepare() must run, and the grid
//                       synchronise, before relax();
//   prepare(...)        the first pass (every thread of the grid);
//   relax<Codec>(...)   the round's relaxations (every thread of the grid);
//   reset(plan)         one thread, after every thread is done with relax():
//                       clears the plan's counters for the next round.
#pragma once

#include <cstdint>

#include "sssp/balance/binned_relax.cuh"
#include "sssp/balance/merge_path_relax.cuh"
#include "sssp/balance/relax.cuh"
#include "sssp/solver.hpp"

namespace sssp::detail {

// What the two-pass balancers keep between their passes, in device memory.
struct BalancePlan {
  DegreeBins bins;                   // BinnedBalance
  MergePathPlan merge;               // MergePathBalance
  std::uint32_t* overflow = nullptr; // the loop's overflow flag (never set, by construction)
};

struct ThreeStageBalance {
  static constexpr LoadBalance kKind = LoadBalance::ThreeStage;
  static constexpr bool kTwoPass = false;
  template <class Sink>
  __device__ static void prepare(const std::uint64_t*, const std::uint32_t*, std::uint32_t, const Sink&,
                                 const BalancePlan&) {}
  template <class Codec, class Sink>
  __device__ static void relax(const GraphView<typename Codec::Weight>& g, label_t* labels,
                               const std::uint32_t* frontier, std::uint32_t count, const BalancePlan&,
                               bool track_pred, const Sink& sink, RelaxShared<Codec>& sh,
                               unsigned long long* arcs_examined) {
    relax_frontier<Codec>(g, labels, frontier, count, track_pred, sink, sh, arcs_examined);
  }
  __device__ static void reset(const BalancePlan&) {}
};

struct BinnedBalance {
  static constexpr LoadBalance kKind = LoadBalance::Binned;
  static constexpr bool kTwoPass = true;
  template <class Sink>
  __device__ static void prepare(const std::uint64_t* offsets, const std::uint32_t* frontier, std::uint32_t count,
                                 const Sink& sink, const BalancePlan& plan) {
    bin_frontier(offsets, frontier, count, sink, plan.bins, plan.overflow);
  }
  template <class Codec, class Sink>
  __device__ static void relax(const GraphView<typename Codec::Weight>& g, label_t* labels, const std::uint32_t*,
                               std::uint32_t, const BalancePlan& plan, bool track_pred, const Sink& sink,
                               RelaxShared<Codec>& sh, unsigned long long* arcs_examined) {
    relax_bins<Codec>(g, labels, plan.bins, track_pred, sink, sh, arcs_examined);
  }
  __device__ static void reset(const BalancePlan& plan) { reset_bins(plan.bins); }
};

struct MergePathBalance {
  static constexpr LoadBalance kKind = LoadBalance::MergePath;
  static constexpr bool kTwoPass = true;
  template <class Sink>
  __device__ static void prepare(const std::uint64_t* offsets, const std::uint32_t* frontier, std::uint32_t count,
                                 const Sink& sink, const BalancePlan& plan) {
    merge_path_prefix(offsets, frontier, count, sink, plan.merge, plan.overflow);
  }
  template <class Codec, class Sink>
  __device__ static void relax(const GraphView<typename Codec::Weight>& g, label_t* labels, const std::uint32_t*,
                               std::uint32_t, const BalancePlan& plan, bool track_pred, const Sink& sink,
                               RelaxShared<Codec>&, unsigned long long* arcs_examined) {
    merge_path_relax<Codec>(g, labels, plan.merge, track_pred, sink, arcs_examined);
  }
  __device__ static void reset(const BalancePlan& plan) { *plan.merge.reserved = 0; }
};

// Calls f(Balance{}) with the operator for `kind` (not Auto: resolved first).
template <class F>
decltype(auto) with_balance(LoadBalance kind, F&& f) {
  switch (kind) {
    case LoadBalance::Binned: return f(BinnedBalance{});
    case LoadBalance::MergePath: return f(MergePathBalance{});
    default: return f(ThreeStageBalance{});
  }
}

}  // namespace sssp::detail
