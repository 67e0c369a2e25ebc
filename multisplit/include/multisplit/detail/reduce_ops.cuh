// Reduction operators of multisplit::reduce_by_bucket and the trait that
// lets the warp-table path fold them with one shared-memory atomic per pair.
//
// Integer sum / min / max have native shared-memory atomics, and integer
// atomics give the same result in any order, so for them the kernel skips
// the warp peer reduction and adds every pair to its warp's table directly
// (the same per-warp privatisation as multisplit::histogram), which measured
// faster than the peer reduction with uniform labels and with all pairs in
// one bucket (docs/TUNING.md, "reduce_by_bucket integer fold"). Floating-point
// sums keep the peer reduction: float atomics would make the result depend
// on timing.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../buckets.hpp"

namespace multisplit {

struct sum_op {
  template <class T>
  MULTISPLIT_HD T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
struct min_op {
  template <class T>
  MULTISPLIT_HD T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
struct max_op {
  template <class T>
  MULTISPLIT_HD T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

namespace detail {

template <class Value, class Op>
struct SharedAtomicFold : std::false_type {};

template <class Value>
constexpr bool kAtomicValue = std::is_same<Value, std::uint32_t>::value || std::is_same<Value, std::int32_t>::value ||
                              std::is_same<Value, unsigned long long>::value ||
                              (std::is_same<Value, std::uint64_t>::value &&
                               sizeof(std::uint64_t) == sizeof(unsigned long long));

template <class Value>
struct SharedAtomicFold<Value, sum_op> : std::integral_constant<bool, kAtomicValue<Value>> {};
template <class Value>
struct SharedAtomicFold<Value, min_op> : std::integral_constant<bool, kAtomicValue<Value>> {};
template <class Value>
struct SharedAtomicFold<Value, max_op> : std::integral_constant<bool, kAtomicValue<Value>> {};

#if defined(__CUDACC__)
// The 64-bit unsigned type as CUDA's atomics name it.
template <class Value>
using AtomicWord = typename std::conditional<sizeof(Value) == 8, unsigned long long, Value>::type;

template <class Value, class Op>
__device__ __forceinline__ void atomic_fold(Value* target, Value value, Op) {
  using W = AtomicWord<Value>;
  W* word = reinterpret_cast<W*>(target);
  const W v = static_cast<W>(value);
  if constexpr (std::is_same<Op, sum_op>::value)
    atomicAdd(word, v);
  else if constexpr (std::is_same<Op, min_op>::value)
    atomicMin(word, v);
  else
    atomicMax(word, v);
}
#endif

}  // namespace detail
}  // namespace multisplit
