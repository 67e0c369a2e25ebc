// GPU multisplit: a stable partition of n items into m buckets given by a
// bucket functor, after Ashkiani, Davidson, Meyer, Owens, "GPU Multisplit",
// PPoPP 2016 (and ACM TOPC 2018). CUB conventions:
//
//   size_t temp_bytes = 0;
//   multisplit::split_keys(nullptr, temp_bytes, d_in, d_out, n, m, fn, d_offsets);  // size query
//   cudaMalloc(&d_temp, temp_bytes);
//   multisplit::split_keys(d_temp, temp_bytes, d_in, d_out, n, m, fn, d_offsets, stream);
//
// * Stable: items of one bucket keep their input order, in every method.
// * d_bucket_offsets (device, m + 1 entries): offsets[b] is the first output
//   position of bucket b, offsets[m] == n. Written on the device; the host is
//   never synchronised and nothing is allocated behind the caller's back.
// * BucketFn: copyable callable `uint32_t(Key)` usable on the device (it may
//   hold device pointers); ready-made ones in buckets.hpp. Results >= m are
//   clamped to m - 1.
// * Any m >= 1 and 0 <= n <= 2^31 - 1. A method asked for past its bucket
//   limit hands over to the next that can (Warp -> Block -> Direct ->
//   SortBased); `method_used` reports what ran (see method_for()).
// * The size query must be made with the same m, functor, method and
//   current device as the real call, and n no smaller: the bytes needed
//   never shrink as n grows, so one query at the largest n serves every
//   smaller split.
// * Small n (Method::SmallN): the whole split in ONE kernel launch, one
//   pass over the data (detail/device/small_n.cuh): a cooperative launch of
//   one 2048-item tile per block (1024/512/256 for wider items), all blocks
//   co-resident; each ranks its tile with BlockMultisplit, publishes its
//   bucket counts, waits at a grid barrier, computes its global offsets and
//   scatters. For m <= 256, n <= capacity = co-resident blocks x tile (about
//   1M keys on an H100/H200), on devices with cooperative launch. No state
//   between calls, no memset: back-to-back calls and graph replays just work.
//   Auto rule: Auto runs SmallN when m <= 256 and n (device counts:
//   max_items) <= min(2^18, capacity) (MULTISPLIT_SMALL_N_AUTO_MAX_ITEMS);
//   otherwise it picks by m as described in method.hpp / README. An explicit
//   SmallN past its limits hands over to Block (then Block's chain).
//   method_for(requested, n, m, fn, &used) and method_for_device_count(
//   requested, max_items, m, fn, &used) tell in advance; the overloads
//   without n answer for n above the small-n bound.
// Errors come back as cudaError_t: cudaErrorInvalidValue for m == 0, n too
// large, missing pointers or a too-small temporary buffer; launch errors as
// CUDA reports them.
//
// Device-side item count (overloads taking `const uint32_t* d_num_items,
// uint32_t max_items` where the others take n):
//
//   multisplit::split_keys(nullptr, temp_bytes, d_in, d_out, d_num_items, max_items, m, fn, d_offsets);
//   multisplit::split_keys(d_temp, temp_bytes, d_in, d_out, d_num_items, max_items, m, fn, d_offsets, stream);
//
// * n = min(*d_num_items, max_items) is read by the kernels on the device,
//   in stream order (write it with a kernel or cudaMemcpyAsync on `stream`
//   just before); the host never sees it. max_items (<= 2^31 - 1) sizes the
//   temporary storage and the grids; d_offsets[m] = n.
// * The three-phase methods serve it (Block, Direct, Warp: each kernel
//   re-cuts the chunks planned for max_items over the real n; idle chunks
//   count zero). SortBased and Auto's choice of it (many buckets) run Block
//   instead, or Direct past Block's bucket limit; past Direct's limit (about
//   14k buckets on an H100/H200) cudaErrorNotSupported. `method_used` says
//   which ran; method_for_device_count() asks in advance.
// * Everything else as above: no host synchronisation, no allocation, so
//   the call can be captured into a CUDA graph once and replayed with a
//   different count in d_num_items each time. Its latency is that of the
//   max_items split's launches (five kernels and a memset), not of n;
//   except SmallN (Auto for max_items <= 2^18 and m <= 256, see below):
//   one launch sized for max_items, idle tiles past n count zero.
// cudaErrorInvalidValue also for a null d_num_items.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "buckets.hpp"
#include "detail/device/dispatch.cuh"
#include "method.hpp"

namespace multisplit {

template <class Key, class BucketFn>
cudaError_t split_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_in, Key* d_out, std::uint32_t n,
                       std::uint32_t num_buckets, BucketFn bucket_of, std::uint32_t* d_bucket_offsets,
                       cudaStream_t stream = 0, Method method = Method::Auto, Method* method_used = nullptr) {
  return detail::split<Key, detail::NullValue, BucketFn>(d_temp, temp_bytes, d_in, d_out, nullptr, nullptr, n,
                                                         num_buckets, bucket_of, d_bucket_offsets, stream, method,
                                                         method_used);
}

template <class Key, class Value, class BucketFn>
cudaError_t split_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                        const Value* d_values_in, Value* d_values_out, std::uint32_t n, std::uint32_t num_buckets,
                        BucketFn bucket_of, std::uint32_t* d_bucket_offsets, cudaStream_t stream = 0,
                        Method method = Method::Auto, Method* method_used = nullptr) {
  return detail::split<Key, Value, BucketFn>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                             num_buckets, bucket_of, d_bucket_offsets, stream, method, method_used);
}

// Device-side item count: n = min(*d_num_items, max_items), read on the
// device (see above). Same temporary-storage query convention.
template <class Key, class BucketFn>
cudaError_t split_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_in, Key* d_out,
                       const std::uint32_t* d_num_items, std::uint32_t max_items, std::uint32_t num_buckets,
                       BucketFn bucket_of, std::uint32_t* d_bucket_offsets, cudaStream_t stream = 0,
                       Method method = Method::Auto, Method* method_used = nullptr) {
  return detail::split_device_count<Key, detail::NullValue, BucketFn>(
      d_temp, temp_bytes, d_in, d_out, nullptr, nullptr, d_num_items, max_items, num_buckets, bucket_of,
      d_bucket_offsets, stream, method, method_used);
}

template <class Key, class Value, class BucketFn>
cudaError_t split_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                        const Value* d_values_in, Value* d_values_out, const std::uint32_t* d_num_items,
                        std::uint32_t max_items, std::uint32_t num_buckets, BucketFn bucket_of,
                        std::uint32_t* d_bucket_offsets, cudaStream_t stream = 0, Method method = Method::Auto,
                        Method* method_used = nullptr) {
  return detail::split_device_count<Key, Value, BucketFn>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in,
                                                          d_values_out, d_num_items, max_items, num_buckets,
                                                          bucket_of, d_bucket_offsets, stream, method, method_used);
}

// The method a split with these parameters runs on the current device
// (Auto resolved, limits applied) for an n above the small-n bound (SmallN
// reports its hand-over, Block); the overload taking n below applies the
// small-n rule. Value = void for key-only splits.
template <class Key, class Value = void, class BucketFn>
cudaError_t method_for(Method requested, std::uint32_t num_buckets, const BucketFn& bucket_of, Method* method_used) {
  using V = typename std::conditional<std::is_void<Value>::value, detail::NullValue, Value>::type;
  detail::DeviceLimits limits;
  MULTISPLIT_RETURN_IF_ERROR(detail::query_device(limits));
  if (num_buckets == 0) return cudaErrorInvalidValue;
  *method_used = detail::resolve<Key, V>(requested, num_buckets, detail::functor_shared_bytes(bucket_of),
                                         detail::block_postscan_stores_ids<BucketFn>(), limits);
  return cudaSuccess;
}

// The method a split of n items runs (the small-n rule included).
template <class Key, class Value = void, class BucketFn>
cudaError_t method_for(Method requested, std::uint32_t n, std::uint32_t num_buckets, const BucketFn& bucket_of,
                       Method* method_used) {
  using V = typename std::conditional<std::is_void<Value>::value, detail::NullValue, Value>::type;
  detail::DeviceLimits limits;
  MULTISPLIT_RETURN_IF_ERROR(detail::query_device(limits));
  if (num_buckets == 0) return cudaErrorInvalidValue;
  std::uint32_t small_limit = 0;
  return detail::resolve_sized<Key, V>(requested, n, num_buckets, bucket_of, limits, false, *method_used,
                                       small_limit);
}

// The same for a split with a device-side item count (the three-phase
// methods only; cudaErrorNotSupported where none can serve num_buckets),
// for max_items above the small-n bound.
template <class Key, class Value = void, class BucketFn>
cudaError_t method_for_device_count(Method requested, std::uint32_t num_buckets, const BucketFn& bucket_of,
                                    Method* method_used) {
  using V = typename std::conditional<std::is_void<Value>::value, detail::NullValue, Value>::type;
  detail::DeviceLimits limits;
  MULTISPLIT_RETURN_IF_ERROR(detail::query_device(limits));
  if (num_buckets == 0) return cudaErrorInvalidValue;
  return detail::resolve_device_count<Key, V>(requested, num_buckets, detail::functor_shared_bytes(bucket_of),
                                              detail::block_postscan_stores_ids<BucketFn>(), limits, *method_used);
}

// The method a device-count split with this max_items runs (the small-n
// rule included: SmallN where max_items is small enough).
template <class Key, class Value = void, class BucketFn>
cudaError_t method_for_device_count(Method requested, std::uint32_t max_items, std::uint32_t num_buckets,
                                    const BucketFn& bucket_of, Method* method_used) {
  using V = typename std::conditional<std::is_void<Value>::value, detail::NullValue, Value>::type;
  detail::DeviceLimits limits;
  MULTISPLIT_RETURN_IF_ERROR(detail::query_device(limits));
  if (num_buckets == 0) return cudaErrorInvalidValue;
  std::uint32_t small_limit = 0;
  return detail::resolve_sized<Key, V>(requested, max_items, num_buckets, bucket_of, limits, true, *method_used,
                                       small_limit);
}

}  // namespace multisplit
