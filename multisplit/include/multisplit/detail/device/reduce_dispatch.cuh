// Dispatch of multisplit::reduce_by_bucket.
//
// Warp-table path (reduce_kernels.cuh): one pass, whenever the 8 per-warp
// tables of m values and m counts fit in a block's shared memory (on an
// H200, 227 KB: m up to about 3500 for 4-byte values), and for integer
// sum / min / max (shared atomics) also with one table per block (m up to
// about 29000).
//
// Sort-based path past that, reusing the library itself: label every pair
// with its bucket and its index, one stable split_pairs of (label, index)
// with identity buckets groups the indices by bucket, the values are
// gathered in that order, and cub::DeviceReduce::ReduceByKey folds the runs
// of equal labels (load-balanced, so one huge bucket costs no more than many
// small ones); the non-empty buckets' results are scattered over an
// identity-filled output, and the split's offsets give the counts. Splitting
// labels rather than the user's keys and values keeps a single split
// instantiation (uint32 pairs, identity buckets) for every key, value and
// functor type, which keeps compile times modest.
#pragma once

#include <cub/device/device_reduce.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "../common.cuh"
#include "dispatch.cuh"
#include "reduce_kernels.cuh"

namespace multisplit {
namespace detail {

// Which path runs (tests force each; users get Auto).
enum class ReducePath { Auto, WarpTables, SortBased };

template <class Key, class Value, class BucketFn, class Op>
struct ReduceByBucket {
  using P = ReducePolicy<Value>;
  enum { kPartialValues, kPartialCounts, kParts };
  enum {
    kSplitTemp,
    kLabels,
    kIndices,
    kLabelsOut,
    kPermutation,
    kGathered,
    kOffsets,
    kRunLabels,
    kRunValues,
    kNumRuns,
    kRunTemp,
    kSortParts
  };
  using Labels = identity_buckets<std::uint32_t>;

  struct Plan {
    bool fast = true;
    bool block_table = false;  // one shared table per block instead of one per warp
    std::uint32_t grid = 0;
    std::size_t smem = 0;
    std::uint32_t functor_bytes = 0;
    TempLayout<kParts> temp;
    TempLayout<kSortParts> sort_temp;
    std::size_t needed = 1;
  };

  static auto kernel() { return reduce_by_bucket_kernel<P::kThreads, P::kItems, Key, Value, BucketFn, Op>; }

  static cudaError_t plan(Plan& plan, std::uint32_t n, std::uint32_t m, const BucketFn& fn, const Op& op,
                          ReducePath path) {
    DeviceLimits limits;
    MULTISPLIT_RETURN_IF_ERROR(query_device(limits));
    plan.functor_bytes = static_cast<std::uint32_t>(functor_shared_bytes(fn));
    constexpr std::size_t kWarps = P::kThreads / kWarpThreads;
    plan.smem = plan.functor_bytes + reduce_table_bytes(m, kWarps, sizeof(Value));
    plan.block_table = false;
    if (plan.smem > limits.max_shared_bytes && SharedAtomicFold<Value, Op>::value) {
      // Atomic folds may share one table per block: 8x the buckets.
      plan.block_table = true;
      plan.smem = plan.functor_bytes + reduce_table_bytes(m, 1, sizeof(Value));
    }
    plan.fast = path != ReducePath::SortBased && plan.smem <= limits.max_shared_bytes;
    if (n == 0) return cudaSuccess;  // reduce_partials_kernel alone writes the result
    if (plan.fast) {
      if (plan.smem > 48 * 1024)
        MULTISPLIT_RETURN_IF_ERROR(
            cudaFuncSetAttribute(kernel(), cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(plan.smem)));
      int blocks_per_sm = 0;
      MULTISPLIT_RETURN_IF_ERROR(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel(), P::kThreads, plan.smem));
      if (blocks_per_sm < 1) return cudaErrorInvalidConfiguration;
      const std::uint32_t tiles = div_up(n, static_cast<std::uint32_t>(P::kThreads * P::kItems));
      plan.grid = std::max(1u, std::min(tiles, static_cast<std::uint32_t>(blocks_per_sm * limits.sm_count)));
      plan.temp.bytes[kPartialValues] = static_cast<std::size_t>(plan.grid) * m * sizeof(Value);
      plan.temp.bytes[kPartialCounts] = static_cast<std::size_t>(plan.grid) * m * sizeof(std::uint32_t);
      plan.temp.finish();
      plan.needed = plan.temp.total;
      return cudaSuccess;
    }
    if (plan.functor_bytes > 48 * 1024)
      MULTISPLIT_RETURN_IF_ERROR(cudaFuncSetAttribute(label_pairs_kernel<Key, BucketFn>,
                                                      cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                      static_cast<int>(plan.functor_bytes)));
    std::size_t split_bytes = 0;
    MULTISPLIT_RETURN_IF_ERROR((detail::split<std::uint32_t, std::uint32_t, Labels>(
        nullptr, split_bytes, nullptr, nullptr, nullptr, nullptr, n, m, Labels{}, nullptr, 0, Method::Auto, nullptr)));
    std::size_t run_bytes = 0;
    MULTISPLIT_RETURN_IF_ERROR(cub::DeviceReduce::ReduceByKey(
        nullptr, run_bytes, static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr),
        static_cast<const Value*>(nullptr), static_cast<Value*>(nullptr), static_cast<std::uint32_t*>(nullptr), op, n));
    const std::size_t words = static_cast<std::size_t>(n) * sizeof(std::uint32_t);
    plan.sort_temp.bytes[kSplitTemp] = split_bytes;
    plan.sort_temp.bytes[kLabels] = words;
    plan.sort_temp.bytes[kIndices] = words;
    plan.sort_temp.bytes[kLabelsOut] = words;
    plan.sort_temp.bytes[kPermutation] = words;
    plan.sort_temp.bytes[kGathered] = static_cast<std::size_t>(n) * sizeof(Value);
    plan.sort_temp.bytes[kOffsets] = (static_cast<std::size_t>(m) + 1) * sizeof(std::uint32_t);
    plan.sort_temp.bytes[kRunLabels] = static_cast<std::size_t>(m) * sizeof(std::uint32_t);
    plan.sort_temp.bytes[kRunValues] = static_cast<std::size_t>(m) * sizeof(Value);
    plan.sort_temp.bytes[kNumRuns] = sizeof(std::uint32_t);
    plan.sort_temp.bytes[kRunTemp] = run_bytes;
    plan.sort_temp.finish();
    plan.needed = plan.sort_temp.total;
    return cudaSuccess;
  }

  static cudaError_t run(const Plan& plan, void* d_temp, const Key* keys, const Value* values, std::uint32_t n,
                         std::uint32_t m, BucketFn fn, Op op, Value identity, Value* out_values,
                         std::uint32_t* out_counts, cudaStream_t stream,
                         const std::uint32_t* device_n = nullptr) {
    constexpr std::uint32_t kCombineThreads = 256;
    const std::uint32_t combine_grid = div_up(m, kCombineThreads / kWarpThreads);
    if (n == 0) {
      reduce_partials_kernel<Value, Op>
          <<<combine_grid, kCombineThreads, 0, stream>>>(nullptr, nullptr, 0u, m, op, identity, out_values, out_counts);
      return cudaGetLastError();
    }
    if (plan.fast) {
      Value* partial_values = plan.temp.template get<Value>(d_temp, kPartialValues);
      std::uint32_t* partial_counts = plan.temp.template get<std::uint32_t>(d_temp, kPartialCounts);
      // Same element size: lane l's j-th key and value are then the same pair.
      const bool vector = sizeof(Key) == sizeof(Value) && vector_loadable(keys) && vector_loadable(values);
      kernel()<<<plan.grid, P::kThreads, plan.smem, stream>>>(keys, values, n, device_n, vector, plan.block_table, m,
                                                              ceil_log2(m), fn, plan.functor_bytes, op, identity,
                                                              partial_values, partial_counts);
      MULTISPLIT_RETURN_IF_ERROR(cudaGetLastError());
      reduce_partials_kernel<Value, Op><<<combine_grid, kCombineThreads, 0, stream>>>(
          partial_values, partial_counts, plan.grid, m, op, identity, out_values, out_counts);
      return cudaGetLastError();
    }
    const auto& t = plan.sort_temp;
    std::uint32_t* labels = t.template get<std::uint32_t>(d_temp, kLabels);
    std::uint32_t* indices = t.template get<std::uint32_t>(d_temp, kIndices);
    std::uint32_t* permutation = t.template get<std::uint32_t>(d_temp, kPermutation);
    Value* gathered = t.template get<Value>(d_temp, kGathered);
    std::uint32_t* offsets = t.template get<std::uint32_t>(d_temp, kOffsets);
    const std::uint32_t stream_grid = std::min(div_up(n, 256), 65535u);
    label_pairs_kernel<Key, BucketFn>
        <<<stream_grid, 256, plan.functor_bytes, stream>>>(keys, n, m, fn, labels, indices);
    MULTISPLIT_RETURN_IF_ERROR(cudaGetLastError());
    std::size_t split_bytes = t.bytes[kSplitTemp];
    MULTISPLIT_RETURN_IF_ERROR((detail::split<std::uint32_t, std::uint32_t, Labels>(
        t.template get<void>(d_temp, kSplitTemp), split_bytes, labels,
        t.template get<std::uint32_t>(d_temp, kLabelsOut), indices, permutation, n, m, Labels{}, offsets, stream,
        Method::Auto, nullptr)));
    gather_kernel<Value><<<stream_grid, 256, 0, stream>>>(values, permutation, n, gathered);
    MULTISPLIT_RETURN_IF_ERROR(cudaGetLastError());
    std::uint32_t* run_labels = t.template get<std::uint32_t>(d_temp, kRunLabels);
    Value* run_values = t.template get<Value>(d_temp, kRunValues);
    std::uint32_t* num_runs = t.template get<std::uint32_t>(d_temp, kNumRuns);
    std::size_t run_bytes = t.bytes[kRunTemp];
    MULTISPLIT_RETURN_IF_ERROR(cub::DeviceReduce::ReduceByKey(
        t.template get<void>(d_temp, kRunTemp), run_bytes,
        static_cast<const std::uint32_t*>(t.template get<std::uint32_t>(d_temp, kLabelsOut)), run_labels,
        static_cast<const Value*>(gathered), run_values, num_runs, op, n, stream));
    scatter_runs_kernel<Value><<<div_up(m, 256), 256, 0, stream>>>(run_labels, run_values, num_runs, offsets, m,
                                                                   identity, out_values, out_counts);
    MULTISPLIT_RETURN_IF_ERROR(cudaGetLastError());
    return cudaSuccess;
  }
};

template <class Key, class Value, class BucketFn, class Op>
cudaError_t reduce_by_bucket(void* d_temp, std::size_t& temp_bytes, const Key* keys, const Value* values,
                             std::uint32_t n, std::uint32_t m, BucketFn fn, Op op, Value identity, Value* out_values,
                             std::uint32_t* out_counts, cudaStream_t stream, ReducePath path = ReducePath::Auto) {
  if (m == 0 || n > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max())) return cudaErrorInvalidValue;
  using R = ReduceByBucket<Key, Value, BucketFn, Op>;
  typename R::Plan plan;
  MULTISPLIT_RETURN_IF_ERROR(R::plan(plan, n, m, fn, op, path));
  if (d_temp == nullptr) {
    temp_bytes = plan.needed;
    return cudaSuccess;
  }
  if (temp_bytes < plan.needed || out_values == nullptr) return cudaErrorInvalidValue;
  if (n > 0 && (keys == nullptr || values == nullptr)) return cudaErrorInvalidValue;
  return R::run(plan, d_temp, keys, values, n, m, fn, op, identity, out_values, out_counts, stream);
}

// With a device-side count: the pairs [0, min(*device_n, max_items)), the
// count read by the kernel; planned for max_items. Only the one-pass
// warp-table path reads counts on the device (the sort-based fallback for
// very many buckets needs n on the host): cudaErrorNotSupported past it.
template <class Key, class Value, class BucketFn, class Op>
cudaError_t reduce_by_bucket_device_count(void* d_temp, std::size_t& temp_bytes, const Key* keys, const Value* values,
                                          const std::uint32_t* device_n, std::uint32_t max_items, std::uint32_t m,
                                          BucketFn fn, Op op, Value identity, Value* out_values,
                                          std::uint32_t* out_counts, cudaStream_t stream) {
  if (m == 0 || max_items > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max()))
    return cudaErrorInvalidValue;
  using R = ReduceByBucket<Key, Value, BucketFn, Op>;
  typename R::Plan plan;
  MULTISPLIT_RETURN_IF_ERROR(R::plan(plan, max_items, m, fn, op, ReducePath::Auto));
  if (!plan.fast) return cudaErrorNotSupported;
  if (d_temp == nullptr) {
    temp_bytes = plan.needed;
    return cudaSuccess;
  }
  if (temp_bytes < plan.needed || out_values == nullptr || device_n == nullptr) return cudaErrorInvalidValue;
  if (max_items > 0 && (keys == nullptr || values == nullptr)) return cudaErrorInvalidValue;
  return R::run(plan, d_temp, keys, values, max_items, m, fn, op, identity, out_values, out_counts, stream, device_n);
}

}  // namespace detail
}  // namespace multisplit
