// Vertex labels on the device: one 64-bit word per vertex, updated with
// 64-bit atomics. A "codec" says how distance (and predecessor) live in it.
//
//   PackedCodec<uint32_t>  high 32 bits: distance, low 32 bits: predecessor.
//                          Used for integer weights when every simple path
//                          is shorter than 2^32 - 1 ((n - 1) * max weight).
//   PackedCodec<float>     high 32 bits: the float's bit pattern (non-negative
//                          floats order like their bit patterns, so integer
//                          comparisons order distances), low: predecessor.
//   WideCodec              the whole word is a 64-bit integer distance; a
//                          second pass derives predecessors (predecessors.cuh).
//
// Relaxation without predecessors is one atomicMin on the word. With
// predecessors it is a compare-and-swap loop that replaces the word only when
// the distance strictly decreases: the predecessor recorded is the vertex
// whose relaxation first reached the final distance, and that vertex reached
// its own final distance earlier, so the predecessor graph is acyclic even
// with zero-weight cycles. (A plain atomicMin on the packed word would break
// ties by vertex id and can close a cycle of zero-weight arcs.)
//
// Labels only decrease, and a label is always the length of a simple path
// (a walk that revisits a vertex cannot improve its label, weights being
// non-negative), so the (n - 1) * max weight bound holds for every label.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "graph/types.hpp"

namespace sssp::detail {

using label_t = unsigned long long;  // the type CUDA's 64-bit atomics take
static_assert(sizeof(label_t) == 8, "labels are 64-bit words");

__device__ __forceinline__ label_t load_label(const label_t* p) {
  // L2 (coherent) load: labels change under atomics from other blocks.
  return __ldcg(p);
}

// Distance arithmetic on the 32-bit half of a packed label.
template <class Weight>
struct PackedDistTraits;

template <>
struct PackedDistTraits<std::uint32_t> {
  using Dist = std::uint64_t;  // arithmetic in 64 bits; stored values < 2^32 - 1
  using Delta = std::uint64_t;
  static constexpr std::uint32_t kInfBits = 0xFFFFFFFFu;
  __host__ __device__ static Dist infinity() { return std::numeric_limits<std::uint64_t>::max(); }
  __host__ __device__ static Dist from_bits(std::uint32_t b) { return b == kInfBits ? infinity() : b; }
  // Returns false when d cannot be stored (only non-shortest walks get there).
  __host__ __device__ static bool to_bits(Dist d, std::uint32_t* bits) {
    if (d >= kInfBits) return false;
    *bits = static_cast<std::uint32_t>(d);
    return true;
  }
  __device__ static Dist add(Dist d, std::uint32_t w) { return d + w; }
};

template <>
struct PackedDistTraits<float> {
  using Dist = float;
  using Delta = float;
  static constexpr std::uint32_t kInfBits = 0x7F800000u;  // +infinity
  __host__ __device__ static Dist infinity() { return std::numeric_limits<float>::infinity(); }
  __host__ __device__ static Dist from_bits(std::uint32_t b) {
#ifdef __CUDA_ARCH__
    return __uint_as_float(b);
#else
    float f;
    static_assert(sizeof f == sizeof b);
    __builtin_memcpy(&f, &b, sizeof f);
    return f;
#endif
  }
  __host__ __device__ static bool to_bits(Dist d, std::uint32_t* bits) {
#ifdef __CUDA_ARCH__
    *bits = __float_as_uint(d);
#else
    __builtin_memcpy(bits, &d, sizeof d);
#endif
    return *bits < kInfBits;  // finite, non-negative (weights were checked on upload)
  }
  __device__ static Dist add(Dist d, float w) { return __fadd_rn(d, w); }
};

template <class WeightT>
struct PackedCodec {
  using Weight = WeightT;
  using Traits = PackedDistTraits<Weight>;
  using Dist = typename Traits::Dist;
  using Delta = typename Traits::Delta;
  static constexpr bool kPackedPredecessors = true;
  static constexpr label_t kNoPred = 0xFFFFFFFFull;

  __host__ __device__ static label_t initial_label() {
    return (static_cast<label_t>(Traits::kInfBits) << 32) | kNoPred;
  }
  __host__ __device__ static label_t source_label() { return kNoPred; }  // distance 0, no predecessor
  __host__ __device__ static Dist dist(label_t label) {
    return Traits::from_bits(static_cast<std::uint32_t>(label >> 32));
  }
  __host__ __device__ static Dist infinity() { return Traits::infinity(); }
  __host__ __device__ static bool is_inf(Dist d) { return d == Traits::infinity(); }
  __host__ __device__ static std::uint64_t inf_key() { return Traits::kInfBits; }
  __device__ static Dist add(Dist d, Weight w) { return Traits::add(d, w); }

  // Lowers *label to nd if that is a strict improvement; true when it did.
  // precheck: read the label first and skip the atomic when nd is no better
  // (saves atomics where most relaxations fail); without it the atomic is
  // issued at once, one dependent memory access less (latency-bound loops).
  __device__ static bool try_lower(label_t* label, Dist nd, std::uint32_t pred, bool track_pred,
                                   bool precheck = true) {
    std::uint32_t nbits;
    if (!Traits::to_bits(nd, &nbits)) return false;
    label_t cur = 0;
    if (precheck || track_pred) {  // the compare-and-swap loop starts from the label read
      cur = load_label(label);
      if (nbits >= static_cast<std::uint32_t>(cur >> 32)) return false;  // stale reads only overestimate
    }
    if (!track_pred) {
      const label_t want = (static_cast<label_t>(nbits) << 32) | kNoPred;
      const label_t old = atomicMin(label, want);
      return nbits < static_cast<std::uint32_t>(old >> 32);
    }
    const label_t want = (static_cast<label_t>(nbits) << 32) | pred;
    while (nbits < static_cast<std::uint32_t>(cur >> 32)) {
      const label_t prev = atomicCAS(label, cur, want);
      if (prev == cur) return true;
      cur = prev;
    }
    return false;
  }

  // The label a plain atomicMin writes for distance d (no predecessor), or
  // no_label() when d cannot be stored; lowers(want, old): that atomicMin,
  // having found `old`, strictly lowered the distance. For loops that issue
  // several atomics before they look at any result (narrow_relax.cuh).
  __host__ __device__ static label_t no_label() { return ~0ull; }
  __device__ static label_t label_of(Dist d) {
    std::uint32_t b;
    return Traits::to_bits(d, &b) ? (static_cast<label_t>(b) << 32) | kNoPred : no_label();
  }
  __device__ static bool lowers(label_t want, label_t old) { return (want >> 32) < (old >> 32); }

  // Monotone 64-bit key of a distance (for atomicMin over distances).
  __host__ __device__ static std::uint64_t key(Dist d) {
    std::uint32_t b;
    return Traits::to_bits(d, &b) ? b : Traits::kInfBits;
  }
  __host__ __device__ static Dist dist_from_key(std::uint64_t k) {
    return Traits::from_bits(static_cast<std::uint32_t>(k));
  }

  __host__ static graph::distance_t<Weight> host_distance(label_t label) {
    const std::uint32_t b = static_cast<std::uint32_t>(label >> 32);
    if (b == Traits::kInfBits) return graph::infinite_distance<Weight>();
    return static_cast<graph::distance_t<Weight>>(Traits::from_bits(b));
  }
  __host__ static graph::vertex_id host_pred(label_t label) {
    return static_cast<graph::vertex_id>(label & 0xFFFFFFFFull);
  }
};

// 64-bit integer distances, no room for a predecessor.
struct WideCodec {
  using Weight = std::uint32_t;
  using Dist = std::uint64_t;
  using Delta = std::uint64_t;
  static constexpr bool kPackedPredecessors = false;

  __host__ __device__ static label_t initial_label() { return ~0ull; }
  __host__ __device__ static label_t source_label() { return 0; }
  __host__ __device__ static Dist dist(label_t label) { return label; }
  __host__ __device__ static Dist infinity() { return ~0ull; }
  __host__ __device__ static bool is_inf(Dist d) { return d == ~0ull; }
  __host__ __device__ static std::uint64_t inf_key() { return ~0ull; }
  __device__ static Dist add(Dist d, Weight w) { return d + w; }  // d < (n-1) * 2^32: no overflow

  __device__ static bool try_lower(label_t* label, Dist nd, std::uint32_t /*pred*/, bool /*track_pred*/,
                                   bool precheck = true) {
    if (precheck && nd >= load_label(label)) return false;
    return nd < atomicMin(label, static_cast<label_t>(nd));
  }
  // See PackedCodec::label_of (distances stay below (n - 1) * 2^32 < ~0).
  __host__ __device__ static label_t no_label() { return ~0ull; }
  __device__ static label_t label_of(Dist d) { return d; }
  __device__ static bool lowers(label_t want, label_t old) { return want < old; }
  __host__ __device__ static std::uint64_t key(Dist d) { return d; }
  __host__ __device__ static Dist dist_from_key(std::uint64_t k) { return k; }

  __host__ static graph::distance_t<Weight> host_distance(label_t label) {
    return label == ~0ull ? graph::infinite_distance<Weight>() : label;
  }
};

// ---- Buckets and thresholds (delta-stepping, near-far) ----
// Integer deltas are whole numbers (at least 1); float deltas are floats.

__host__ __device__ inline std::uint64_t bucket_of(std::uint64_t d, std::uint64_t delta) { return d / delta; }
__host__ __device__ inline std::uint64_t bucket_of(float d, float delta) {
  const double b = floor(static_cast<double>(d) / static_cast<double>(delta));
  return b >= 1.8e19 ? ~0ull : static_cast<std::uint64_t>(b);
}

// The smallest distance whose bucket is past `window`: d < bucket_end(w, delta)
// exactly when bucket_of(d, delta) <= w, so a round compares instead of
// dividing (bucket_of is monotone in d).
__host__ __device__ inline std::uint64_t bucket_end(std::uint64_t window, std::uint64_t delta) {
  const std::uint64_t kMax = ~0ull;
  return window >= kMax / delta - 1 ? kMax : (window + 1) * delta;  // saturated: no distance is past it
}
__host__ __device__ inline float bucket_end(std::uint64_t window, float delta) {
  const float inf = std::numeric_limits<float>::infinity();
  float t = static_cast<float>((static_cast<double>(window) + 1.0) * static_cast<double>(delta));
  // The product is within an ulp or two of the answer: step onto it.
  while (t < inf && bucket_of(t, delta) <= window) t = nextafterf(t, inf);
  while (t > 0 && bucket_of(nextafterf(t, 0.0f), delta) > window) t = nextafterf(t, 0.0f);
  return t;
}

// Near-far: the next threshold after `t`, given the smallest distance `min_far`
// known in the far pile. At least t + delta (Davidson et al.'s step) and past
// min_far, so that each split moves something into the near set unless all of
// the far pile is stale; strictly increasing, so the loop always ends.
__host__ __device__ inline std::uint64_t next_threshold(std::uint64_t t, std::uint64_t min_far, std::uint64_t delta) {
  const std::uint64_t kMax = ~0ull;
  const std::uint64_t step = t > kMax - delta ? kMax : t + delta;
  if (min_far == kMax) return step;
  const std::uint64_t q = min_far / delta + 1;
  const std::uint64_t jump = q > kMax / delta ? kMax : q * delta;
  return step > jump ? step : jump;
}
__host__ __device__ inline float next_threshold(float t, float min_far, float delta) {
  const float inf = std::numeric_limits<float>::infinity();
  float next = t + delta;
  if (min_far != inf) {
    const float jump = static_cast<float>((floor(static_cast<double>(min_far) / delta) + 1.0) * delta);
    if (jump > next) next = jump;
    if (!(next > min_far)) next = nextafterf(min_far, inf);
  }
  if (!(next > t)) next = nextafterf(t, inf);
  return next;
}

}  // namespace sssp::detail
