// The far pile of near-far and of the bucketing strategies (near_far.cuh,
// bucketing.cuh): improved vertices that are not near yet wait here until a
// split (engine.cuh) sorts them into stale (relaxed already since: dropped),
// near (into the empty frontier) and still far (back to the pile).
//
// The pile is two queues by parity: a split reads the old one while the new
// one collects what stays far and what rounds send far meanwhile. It is
// de-duplicated per split epoch (a vertex sits in it at most once), which
// bounds it by n. It also tracks the smallest distance sent far since the last
// split (an atomicMin on its key), from which the next phase is chosen.
#pragma once

#include <cstdint>

#include "sssp/engine/engine.cuh"
#include "sssp/common/labels.cuh"
#include "sssp/balance/relax.cuh"

namespace sssp::detail {

struct FarPile {
  std::uint32_t* items[2];
  std::uint32_t count;        // entries of items[parity]
  std::uint32_t parity;
  std::uint32_t split_count;  // entries of items[parity ^ 1] the armed split takes
  std::uint32_t epoch;        // de-duplication stamp
  std::uint32_t capacity;
  unsigned long long min_key;  // Codec::key of the smallest distance sent far since the last split
};

template <class Weight>
FarPile initial_far_pile(const Workspace<Weight>& ws, unsigned long long inf_key) {
  FarPile f{};
  f.items[0] = ws.far[0];
  f.items[1] = ws.far[1];
  f.epoch = 1;
  f.capacity = static_cast<std::uint32_t>(ws.small_capacity);
  f.min_key = inf_key;
  return f;
}

// Appends to the pile's current queue: values from this step's view of the
// state, the counter in the state itself (engine.cuh, "view").
__device__ __forceinline__ QueueAppender far_appender(const FarPile& view, FarPile* f, std::uint32_t* stamps,
                                                      std::uint32_t* overflow) {
  return QueueAppender{view.items[view.parity], &f->count, view.capacity, stamps, view.epoch, overflow};
}

// Lowers *p to k, by compare-and-swap. Not atomicMin: the far pile's state
// may sit in another block's shared memory (the cluster regime reaches block
// 0's through distributed shared memory), and a 64-bit atomicMin there, from
// a generic address, lost updates on sm_90 with CUDA 13.0 (the bucketing
// strategies then skipped windows: wrong distances; a compare-and-swap loop
// on the same address did not; tests/gpu/test_cluster_atomics.cu).
__device__ __forceinline__ void atomic_min_by_cas(unsigned long long* p, unsigned long long k) {
  unsigned long long cur = volatile_load(p);
  while (k < cur) {
    const unsigned long long seen = atomicCAS(p, cur, k);
    if (seen == cur) break;
    cur = seen;
  }
}

template <class Codec>
__device__ __forceinline__ void note_far(FarPile* f, typename Codec::Dist d) {
  atomic_min_by_cas(&f->min_key, Codec::key(d));
}

// A round's sink: improved vertices that IsNear calls near go to the output
// queue, the others to the far pile.
template <class Codec, class NearOut, class IsNear>
struct FarPileSink {
  NearOut near_out;
  QueueAppender far_out;
  FarPile* far;
  IsNear is_near;

  __device__ __forceinline__ bool queued(std::uint32_t u) const { return near_out.queued(u); }
  __device__ __forceinline__ void improved(std::uint32_t v, typename Codec::Dist nd) const {
    if (is_near(nd)) {
      near_out.push(v);
    } else {
      far_out.push(v);
      note_far<Codec>(far, nd);
    }
  }
};

// Arms a split of the pile for the next step (one thread): the current
// queue, of `count` entries, becomes the one to split, a fresh epoch
// collects what stays far.
__device__ inline void arm_far_split(LoopState& L, FarPile& f, std::uint32_t count, unsigned long long inf_key) {
  f.split_count = count;  // as the caller read it (volatile: every block appends)
  f.count = 0;
  f.parity ^= 1;
  ++f.epoch;
  f.min_key = inf_key;
  L.split_stamp = next_stamp(L);
  L.split_active = 1;
}

enum class Placement { Stale, Near, Far };

// Splits entries [first, split_count) of the old pile queue, then `extra`
// (n_extra entries: a ready bucket being taken), stride apart, by
// place(distance): stale ones are dropped, near ones go to near_out, the rest
// back to the pile.
template <class Codec, class NearOut, class Place>
__device__ void split_far_pile(const label_t* labels, std::uint32_t* stamps_pile, const FarPile& view, FarPile* f,
                               std::uint32_t* overflow, const std::uint32_t* extra, std::uint32_t n_extra,
                               std::uint32_t first, std::uint32_t stride, const NearOut& near_out,
                               const Place& place) {
  const std::uint32_t n_far = view.split_count;
  const std::uint32_t* old_items = view.items[view.parity ^ 1];
  const QueueAppender far_out = far_appender(view, f, stamps_pile, overflow);
  for (std::uint32_t i = first; i < n_far + n_extra; i += stride) {
    const std::uint32_t v = i < n_far ? old_items[i] : extra[i - n_far];
    if (v == kNoItem) continue;
    const auto d = Codec::dist(load_label(labels + v));
    switch (place(d)) {
      case Placement::Stale: break;
      case Placement::Near: near_out.push(v); break;
      case Placement::Far:
        far_out.push(v);
        note_far<Codec>(f, d);
        break;
    }
  }
}

}  // namespace sssp::detail
