// Multireduce: per-bucket reduction of key-value pairs. The bucket comes
// from the key (any multisplit bucket functor), the value is folded into its
// bucket's result with a commutative, associative operator that has an
// identity (sum, min, max, bitwise or, ...), and every bucket's pair count
// comes along. CUB conventions:
//
//   size_t temp_bytes = 0;
//   multisplit::reduce_by_bucket(nullptr, temp_bytes, d_keys, d_values, n, m, fn,
//                                multisplit::sum_op{}, 0u, d_bucket_values, d_bucket_counts);
//   cudaMalloc(&d_temp, temp_bytes);
//   multisplit::reduce_by_bucket(d_temp, temp_bytes, d_keys, d_values, n, m, fn,
//                                multisplit::sum_op{}, 0u, d_bucket_values, d_bucket_counts, stream);
//
// * d_bucket_values: m values on the device; bucket b gets identity folded
//   with the values of its pairs (identity for an empty bucket).
//   d_bucket_counts: m 32-bit counts on the device, or nullptr if not wanted.
// * Value: any trivially copyable type; Op: `Value op(Value, Value)` usable
//   on the device (sum_op / min_op / max_op below, or your own). Bucket ids
//   >= m are clamped to m - 1, as in split_pairs.
// * One pass over the pairs (warp peer reduction, or for integer sum / min
//   / max one shared atomic per pair; see detail/device/reduce_kernels.cuh)
//   and a tiny combine kernel, while per-warp tables of m values fit in
//   shared memory (m up to about 3500 for 4-byte values on an H100/H200;
//   integer sum / min / max share one table per block: up to about 29000).
//   Past that a sort-based path (a stable split_pairs of bucket labels, then
//   cub::DeviceReduce::ReduceByKey): correct for any m, several times
//   slower, and its temporary storage holds about 5 words per pair.
// * Floating-point sums are reduced in a tree order, not left to right, so
//   they may differ from a sequential sum in the last bits; run to run on
//   one device and n they are identical.
// * 0 <= n <= 2^31 - 1; stream-ordered, no host synchronisation, no
//   allocation. The size query must use the same m, functor, op and device
//   as the call and an n no smaller.
// * Device-side item count: the overload taking `const uint32_t*
//   d_num_items, uint32_t max_items` reduces the pairs [0, min(*d_num_items,
//   max_items)), the count read by the kernel on the device; planned for
//   max_items, capturable into a CUDA graph and replayable with another
//   count. The one-pass path only: cudaErrorNotSupported where m needs the
//   sort-based fallback.
// Errors come back as cudaError_t: cudaErrorInvalidValue for m == 0, n too
// large, missing pointers (d_num_items included) or a too-small temporary
// buffer.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "buckets.hpp"
#include "detail/device/reduce_dispatch.cuh"
#include "detail/histogram_buckets.cuh"
#include "detail/reduce_ops.cuh"

namespace multisplit {

// sum_op, min_op, max_op: detail/reduce_ops.cuh.

template <class Key, class Value, class BucketFn, class ReduceOp>
cudaError_t reduce_by_bucket(void* d_temp, std::size_t& temp_bytes, const Key* d_keys, const Value* d_values,
                             std::uint32_t n, std::uint32_t num_buckets, BucketFn bucket_of, ReduceOp reduce_op,
                             Value identity, Value* d_bucket_values, std::uint32_t* d_bucket_counts,
                             cudaStream_t stream = 0) {
  return detail::reduce_by_bucket(d_temp, temp_bytes, d_keys, d_values, n, num_buckets, bucket_of, reduce_op, identity,
                                  d_bucket_values, d_bucket_counts, stream);
}

template <class Key, class Value, class BucketFn, class ReduceOp>
cudaError_t reduce_by_bucket(void* d_temp, std::size_t& temp_bytes, const Key* d_keys, const Value* d_values,
                             const std::uint32_t* d_num_items, std::uint32_t max_items, std::uint32_t num_buckets,
                             BucketFn bucket_of, ReduceOp reduce_op, Value identity, Value* d_bucket_values,
                             std::uint32_t* d_bucket_counts, cudaStream_t stream = 0) {
  return detail::reduce_by_bucket_device_count(d_temp, temp_bytes, d_keys, d_values, d_num_items, max_items,
                                               num_buckets, bucket_of, reduce_op, identity, d_bucket_values,
                                               d_bucket_counts, stream);
}

}  // namespace multisplit
