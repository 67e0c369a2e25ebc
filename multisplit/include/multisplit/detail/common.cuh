// Shared helpers of the multisplit implementation: value placeholder, bit
// helpers, the optional shared-memory hook of bucket functors, temporary
// storage carving, the dynamic shared-memory opt-in of kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace multisplit {
namespace detail {

// Value type of key-only splits: carries nothing, moves nothing.
struct NullValue {};

template <class Value>
__host__ __device__ constexpr bool has_values() {
  return !std::is_same<Value, NullValue>::value;
}

constexpr std::uint32_t kFullMask = 0xFFFFFFFFu;
constexpr std::uint32_t kWarpThreads = 32;

// Bits needed to name buckets 0 .. m-1 (0 for m == 1).
__host__ __device__ constexpr int ceil_log2(std::uint32_t m) {
  int bits = 0;
  while (bits < 32 && (std::uint64_t{1} << bits) < m) ++bits;
  return bits;
}

__host__ __device__ constexpr std::uint32_t div_up(std::uint32_t a, std::uint32_t b) {
  return a / b + (a % b != 0 ? 1u : 0u);
}

__host__ __device__ constexpr std::size_t align_up(std::size_t bytes, std::size_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

__device__ __forceinline__ std::uint32_t lane_id() { return threadIdx.x & (kWarpThreads - 1); }

__device__ __forceinline__ std::uint32_t lanemask_lt() {
  std::uint32_t mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

// ---- Optional shared-memory hook of bucket functors (see buckets.hpp).
template <class Fn, class = void>
struct has_shared_binding : std::false_type {};
template <class Fn>
struct has_shared_binding<Fn, decltype((void)std::declval<const Fn&>().shared_bytes(), void())> : std::true_type {};

template <class Fn>
std::size_t functor_shared_bytes(const Fn& fn) {
  if constexpr (has_shared_binding<Fn>::value) return align_up(fn.shared_bytes(), 16);
  else return 0;
}

// Every thread of the block must call this at the same point; it ends with
// __syncthreads() when the functor copied anything to shared memory.
template <class Fn>
__device__ __forceinline__ Fn bind_functor(const Fn& fn, void* smem) {
  if constexpr (has_shared_binding<Fn>::value) {
    Fn bound = fn.bind_shared(smem);
    __syncthreads();
    return bound;
  } else {
    (void)smem;
    return fn;
  }
}

// Bucket of a key, clamped into range so that a misbehaving functor can
// never make the library write out of bounds.
template <class Fn, class Key>
__device__ __forceinline__ std::uint32_t bucket_of(const Fn& fn, const Key& key, std::uint32_t num_buckets) {
  const std::uint32_t b = fn(key);
  return b < num_buckets ? b : num_buckets - 1;
}

// ---- Temporary storage: several 256-byte aligned sub-allocations in one
// user buffer (the CUB idiom).
template <int N>
struct TempLayout {
  std::size_t bytes[N] = {};
  std::size_t offset[N] = {};
  std::size_t total = 0;

  void finish() {
    total = 0;
    for (int i = 0; i < N; ++i) {
      offset[i] = total;
      total += align_up(bytes[i], 256);
    }
    if (total == 0) total = 1;  // never ask for 0 bytes: d_temp stays non-null
  }
  template <class T>
  T* get(void* base, int i) const {
    return reinterpret_cast<T*>(static_cast<char*>(base) + offset[i]);
  }
};

// Opts a kernel in to `smem` bytes of dynamic shared memory. Needed past
// 48 KiB of static plus dynamic shared memory, so set whenever the dynamic
// part alone comes near (the static part, e.g. a BlockScan's storage, is
// not known here).
template <class Kernel>
cudaError_t opt_in_shared(Kernel kernel, std::size_t smem) {
  if (smem <= 40 * 1024) return cudaSuccess;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
}

// Launch-error check for use inside dispatch functions returning cudaError_t.
#define MULTISPLIT_RETURN_IF_ERROR(expr)          \
  do {                                            \
    const cudaError_t multisplit_err_ = (expr);   \
    if (multisplit_err_ != cudaSuccess) return multisplit_err_; \
  } while (0)

}  // namespace detail
}  // namespace multisplit
