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

// ---- Thread-private 16-bit counters in shared memory, one column per
// thread and one row per bucket (the pre-scan's and the thread-counter
// tile's), addressed in the shared window.
// Counter b of a thread is its column's address + b * row_bytes: one IMAD.
// Written in C++ (counters[b * threads + threadIdx.x], or any pointer
// arithmetic) the compiler multiplied, added the thread and scaled, or
// rebuilt the product from a packed bucket id as shift, mask and add:
// three instructions where one does, up to three times per key. The
// multiply-add is opaque asm so that it stays one instruction.
__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
template <std::uint32_t RowBytes>
__device__ __forceinline__ std::uint32_t counter_address(std::uint32_t column, std::uint32_t row) {
  std::uint32_t address;
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(address) : "r"(row), "n"(RowBytes), "r"(column));
  return address;
}
// Volatile with a memory clobber: the counters are also read and written
// as ordinary shared memory (zeroing, scans) on the other side of barriers.
__device__ __forceinline__ std::uint32_t load_counter(std::uint32_t address) {
  std::uint16_t value;
  asm volatile("ld.shared.u16 %0, [%1];" : "=h"(value) : "r"(address) : "memory");
  return value;
}
__device__ __forceinline__ void store_counter(std::uint32_t address, std::uint32_t value) {
  asm volatile("st.shared.u16 [%0], %1;" ::"r"(address), "h"(static_cast<std::uint16_t>(value)) : "memory");
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
// never make the library write out of bounds. num_buckets >= 1. Written as
// a min against num_buckets - 1 (one VIMNMX): `b < num_buckets ? b :
// num_buckets - 1` is a compare and a select, because for num_buckets == 0
// the two forms differ and the compiler cannot rule that out; the clamp
// runs up to three times per key.
template <class Fn, class Key>
__device__ __forceinline__ std::uint32_t bucket_of(const Fn& fn, const Key& key, std::uint32_t num_buckets) {
  const std::uint32_t b = fn(key);
  const std::uint32_t last = num_buckets - 1;
  return b < last ? b : last;
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

// Whether `kernel` can run with `smem` bytes of dynamic shared memory next
// to its static shared memory under the device's per-block opt-in limit.
template <class Kernel>
cudaError_t fits_shared(Kernel kernel, std::size_t smem, std::size_t limit, bool& fits) {
  cudaFuncAttributes attributes{};
  const cudaError_t err = cudaFuncGetAttributes(&attributes, kernel);
  if (err != cudaSuccess) return err;
  fits = attributes.sharedSizeBytes + smem <= limit;
  return cudaSuccess;
}

// Launch-error check for use inside dispatch functions returning cudaError_t.
#define MULTISPLIT_RETURN_IF_ERROR(expr)          \
  do {                                            \
    const cudaError_t multisplit_err_ = (expr);   \
    if (multisplit_err_ != cudaSuccess) return multisplit_err_; \
  } while (0)

}  // namespace detail
}  // namespace multisplit
