// Sort-based multisplit ("RB-sort" in Ashkiani et al., GPU Multisplit,
// section 3.2): label every key with its bucket id, sort (label, key) pairs
// by the low ceil(log2 m) bits of the label with CUB's radix sort (stable),
// then unpack. Key-value splits carry (key, value) packed together as the
// sort's value. Bucket offsets come from a histogram taken while labelling.
// It is the baseline every method is measured against, and the fallback for
// bucket counts past what the shared-memory methods can hold.
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "../common.cuh"
#include "../warp/warp_match.cuh"

namespace multisplit {
namespace detail {

template <class Key, class Value>
struct PackedPair {
  Key key;
  Value value;
};

// Histogram bins in shared memory up to this many buckets; past it, global
// atomics (still warp-aggregated).
constexpr std::uint32_t kLabelSharedBuckets = 12288;
constexpr int kLabelThreads = 256;
constexpr int kLabelItemsPerThread = 8;

template <class Key, class Value, class BucketFn>
__global__ void __launch_bounds__(kLabelThreads)
    label_kernel(const Key* __restrict__ keys, const Value* __restrict__ values, std::uint32_t n, std::uint32_t m,
                 int bits, BucketFn bucket_fn, std::uint32_t functor_bytes, std::uint32_t* __restrict__ labels,
                 PackedPair<Key, Value>* __restrict__ packed, std::uint32_t* __restrict__ counts) {
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  const bool shared_hist = m <= kLabelSharedBuckets;
  std::uint32_t* hist = shared_hist ? reinterpret_cast<std::uint32_t*>(smem + functor_bytes) : counts;
  if (shared_hist) {
    for (std::uint32_t b = threadIdx.x; b < m; b += blockDim.x) hist[b] = 0;
    __syncthreads();
  }
  constexpr std::uint32_t kTile = kLabelThreads * kLabelItemsPerThread;
  const std::uint32_t lane = lane_id();
  for (std::uint32_t tile = blockIdx.x * kTile; tile < n; tile += gridDim.x * kTile) {
#pragma unroll
    for (int j = 0; j < kLabelItemsPerThread; ++j) {
      const std::uint32_t idx = tile + static_cast<std::uint32_t>(j) * kLabelThreads + threadIdx.x;
      const bool valid = idx < n;
      const std::uint32_t valid_mask = __ballot_sync(kFullMask, valid);
      if (valid_mask == 0) break;
      std::uint32_t b = 0;
      if (valid) {
        const Key key = keys[idx];
        b = bucket_of(fn, key, m);
        labels[idx] = b;
        if constexpr (has_values<Value>()) packed[idx] = PackedPair<Key, Value>{key, values[idx]};
      }
      const std::uint32_t peers = warp_peers(b, valid_mask, bits);
      if (valid && static_cast<std::uint32_t>(__ffs(peers) - 1) == lane)
        atomicAdd(hist + b, static_cast<std::uint32_t>(__popc(peers)));
    }
  }
  if (shared_hist) {
    __syncthreads();
    for (std::uint32_t b = threadIdx.x; b < m; b += blockDim.x)
      if (hist[b] != 0) atomicAdd(counts + b, hist[b]);
  }
}

template <class Key, class Value>
__global__ void unpack_kernel(const PackedPair<Key, Value>* __restrict__ packed, std::uint32_t n,
                              Key* __restrict__ keys, Value* __restrict__ values) {
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const PackedPair<Key, Value> p = packed[i];
    keys[i] = p.key;
    values[i] = p.value;
  }
}

// Sort-based split. Temporary layout: labels, sorted labels, packed pairs
// (in and out; pairs only), counts[m + 1], CUB temp (max of sort and scan).
template <class Key, class Value, class BucketFn>
struct SortBased {
  using Packed = PackedPair<Key, Value>;
  static constexpr bool kPairs = has_values<Value>();
  enum { kLabels, kSortedLabels, kPackedIn, kPackedOut, kCounts, kCubTemp, kParts };

  static cudaError_t plan(TempLayout<kParts>& layout, std::uint32_t n, std::uint32_t m, std::uint32_t* d_offsets,
                          int end_bit) {
    layout.bytes[kLabels] = static_cast<std::size_t>(n) * sizeof(std::uint32_t);
    layout.bytes[kSortedLabels] = static_cast<std::size_t>(n) * sizeof(std::uint32_t);
    layout.bytes[kPackedIn] = kPairs ? static_cast<std::size_t>(n) * sizeof(Packed) : 0;
    layout.bytes[kPackedOut] = kPairs ? static_cast<std::size_t>(n) * sizeof(Packed) : 0;
    layout.bytes[kCounts] = (static_cast<std::size_t>(m) + 1) * sizeof(std::uint32_t);
    std::size_t sort_bytes = 0, scan_bytes = 0;
    if constexpr (kPairs) {
      MULTISPLIT_RETURN_IF_ERROR(cub::DeviceRadixSort::SortPairs(
          nullptr, sort_bytes, static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr),
          static_cast<const Packed*>(nullptr), static_cast<Packed*>(nullptr), n, 0, end_bit));
    } else {
      MULTISPLIT_RETURN_IF_ERROR(cub::DeviceRadixSort::SortPairs(
          nullptr, sort_bytes, static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr),
          static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr), n, 0, end_bit));
    }
    MULTISPLIT_RETURN_IF_ERROR(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes,
                                                             static_cast<const std::uint32_t*>(nullptr), d_offsets,
                                                             m + 1));
    layout.bytes[kCubTemp] = std::max(sort_bytes, scan_bytes);
    layout.finish();
    return cudaSuccess;
  }

  static cudaError_t run(void* d_temp, const TempLayout<kParts>& layout, const Key* keys_in, Key* keys_out,
                         const Value* values_in, Value* values_out, std::uint32_t n, std::uint32_t m,
                         BucketFn bucket_fn, std::uint32_t* d_offsets, cudaStream_t stream, int sm_count,
                         int end_bit) {
    auto* labels = layout.template get<std::uint32_t>(d_temp, kLabels);
    auto* sorted_labels = layout.template get<std::uint32_t>(d_temp, kSortedLabels);
    auto* packed_in = layout.template get<Packed>(d_temp, kPackedIn);
    auto* packed_out = layout.template get<Packed>(d_temp, kPackedOut);
    auto* counts = layout.template get<std::uint32_t>(d_temp, kCounts);
    void* cub_temp = layout.template get<void>(d_temp, kCubTemp);
    std::size_t cub_bytes = layout.bytes[kCubTemp];

    MULTISPLIT_RETURN_IF_ERROR(
        cudaMemsetAsync(counts, 0, (static_cast<std::size_t>(m) + 1) * sizeof(std::uint32_t), stream));
    const std::uint32_t functor_bytes = static_cast<std::uint32_t>(functor_shared_bytes(bucket_fn));
    const std::size_t smem =
        functor_bytes + (m <= kLabelSharedBuckets ? static_cast<std::size_t>(m) * sizeof(std::uint32_t) : 0);
    auto kernel = label_kernel<Key, Value, BucketFn>;
    if (smem > 48 * 1024)
      MULTISPLIT_RETURN_IF_ERROR(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    const std::uint32_t tiles = div_up(n, kLabelThreads * kLabelItemsPerThread);
    const std::uint32_t grid = std::min<std::uint32_t>(tiles, static_cast<std::uint32_t>(sm_count) * 8u);
    kernel<<<grid, kLabelThreads, smem, stream>>>(keys_in, values_in, n, m, ceil_log2(m), bucket_fn, functor_bytes,
                                                   labels, packed_in, counts);
    MULTISPLIT_RETURN_IF_ERROR(cudaGetLastError());
    if constexpr (kPairs) {
      MULTISPLIT_RETURN_IF_ERROR(cub::DeviceRadixSort::SortPairs(cub_temp, cub_bytes, labels, sorted_labels,
                                                                 packed_in, packed_out, n, 0, end_bit, stream));
      const std::uint32_t unpack_grid =
          std::min<std::uint32_t>(div_up(n, 256), static_cast<std::uint32_t>(sm_count) * 16u);
      unpack_kernel<Key, Value><<<unpack_grid, 256, 0, stream>>>(packed_out, n, keys_out, values_out);
      MULTISPLIT_RETURN_IF_ERROR(cudaGetLastError());
    } else {
      (void)values_out;
      MULTISPLIT_RETURN_IF_ERROR(cub::DeviceRadixSort::SortPairs(cub_temp, cub_bytes, labels, sorted_labels,
                                                                 keys_in, keys_out, n, 0, end_bit, stream));
    }
    cub_bytes = layout.bytes[kCubTemp];
    MULTISPLIT_RETURN_IF_ERROR(cub::DeviceScan::ExclusiveSum(cub_temp, cub_bytes, counts, d_offsets, m + 1, stream));
    return cudaSuccess;
  }
};

}  // namespace detail
}  // namespace multisplit
