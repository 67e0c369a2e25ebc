// Kernels of multisplit::reduce_by_bucket (multireduce): per-bucket
// reduction of values under a commutative, associative operator with an
// identity, plus per-bucket counts, for m small enough that a table of m
// partial results per warp (or, for atomic folds, per block) fits in shared
// memory.
//
// Built on the multisplit pre-scan's warp step (Ashkiani et al., "GPU
// Multisplit", section 4.1): for each 32-pair window the warp finds every
// lane's peers (lanes with the same bucket) with detail::warp_match_small
// (m <= 32, log2(m) ballots) or detail::warp_peers (ballots / match_any).
// A count only needs popc(peers); a value needs the peers' values combined,
// which this file adds: each lane links to its next peer (the lowest peer
// lane above it) and the warp does pointer jumping along these chains
// (Wyllie's list ranking, 1979): after step s every lane holds the
// reduction of the 2^s chain members from itself on, so the group's first
// lane holds the group's result after ceil(log2(largest group)) steps (0 to
// 5, and the loop stops as soon as no chain is left: uniform windows of
// many buckets need one or two steps, a one-bucket window five).
// Then, like the histogram:
//   m <= 32 : lane b folds the result of bucket b's group into a register;
//   m >  32 : the group's first lane folds it into the warp's table in
//             shared memory (one writer per bucket per window, then
//             __syncwarp, so no atomics: any operator works).
// Integer sum / min / max (SharedAtomicFold, reduce_ops.cuh) skip all that:
// every lane folds its pair into the warp's table with shared atomics, for
// any m (order-independent, so still exact and deterministic); when m
// tables per warp outgrow shared memory, all warps share one per block.
// Per block the warps' partials are combined in shared memory and written
// to a [block][bucket] matrix; reduce_partials_kernel folds it, one warp
// per bucket. Floating-point results are deterministic for a given device
// and n (fixed grid, fixed order), but the order differs from a sequential
// loop, so float sums may differ from one in the last bits.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "../common.cuh"
#include "../reduce_ops.cuh"
#include "../warp/warp_match.cuh"
#include "histogram_kernels.cuh"  // load_full_subtile

namespace multisplit {
namespace detail {

template <class Value>
struct ReducePolicy {
  static constexpr int kThreads = 256;
  static constexpr int kItems = sizeof(Value) > 4 ? 8 : 16;  // pairs per thread per sub-tile
};

// __shfl_sync for any trivially copyable type, 32 bits at a time.
template <class T>
__device__ __forceinline__ T shfl_any(const T& value, int src_lane) {
  constexpr int kWords = static_cast<int>((sizeof(T) + 3) / 4);
  std::uint32_t words[kWords] = {};
  std::memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int i = 0; i < kWords; ++i) words[i] = __shfl_sync(kFullMask, words[i], src_lane);
  T out;
  std::memcpy(&out, words, sizeof(T));
  return out;
}

template <class T>
__device__ __forceinline__ T shfl_xor_any(const T& value, int lane_mask) {
  constexpr int kWords = static_cast<int>((sizeof(T) + 3) / 4);
  std::uint32_t words[kWords] = {};
  std::memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int i = 0; i < kWords; ++i) words[i] = __shfl_xor_sync(kFullMask, words[i], lane_mask);
  T out;
  std::memcpy(&out, words, sizeof(T));
  return out;
}

// All 32 lanes call it. `peers` = valid lanes with my bucket (meaningful
// for valid lanes). Returns, in the lowest lane of each peer group, the
// reduction of the group's values (other lanes: partial suffixes).
template <class Value, class Op>
__device__ __forceinline__ Value reduce_peers(Value value, std::uint32_t peers, bool valid, const Op& op) {
  const std::uint32_t above = peers & ~(lanemask_lt() | (1u << lane_id()));
  std::uint32_t next = valid && above != 0 ? static_cast<std::uint32_t>(__ffs(above) - 1) : 32u;
  while (__any_sync(kFullMask, next < 32u)) {
    const int src = static_cast<int>(next & 31u);
    const Value other = shfl_any(value, src);
    const std::uint32_t next_next = __shfl_sync(kFullMask, next, src);
    if (next < 32u) {
      value = op(value, other);
      next = next_next;
    }
  }
  return value;
}

// Shared memory: functor bytes, then values[copies * mm], counts[copies * mm]
// with mm = max(m, 32) (m <= 32: the lanes' registers are parked there) and
// one table copy per warp, or a single one per block (block_table, atomic
// folds only: for m whose per-warp tables outgrow shared memory).
__host__ __device__ constexpr std::size_t reduce_table_bytes(std::uint32_t m, std::size_t copies,
                                                             std::size_t value_bytes) {
  const std::size_t mm = m > 32 ? m : 32;
  return align_up(copies * mm * value_bytes, 16) + copies * mm * sizeof(std::uint32_t);
}

// Fold one 32-pair window; all lanes call it. valid_mask != 0.
template <bool kRegisters, class Key, class Value, class BucketFn, class Op>
__device__ __forceinline__ void reduce_window(const Key& key, const Value& value, bool valid, std::uint32_t valid_mask,
                                              std::uint32_t m, int bits, const BucketFn& fn, const Op& op,
                                              Value* table_values, std::uint32_t* table_counts, Value& lane_value,
                                              std::uint32_t& lane_count) {
  const std::uint32_t b = valid ? bucket_of(fn, key, m) : 0u;
  if constexpr (SharedAtomicFold<Value, Op>::value) {
    if (valid) {
      atomic_fold(table_values + b, value, op);
      atomicAdd(table_counts + b, 1u);
    }
  } else if constexpr (kRegisters) {
    const WindowMatch match = warp_match_small(b, valid_mask, bits);
    const Value group = reduce_peers(value, match.peers, valid, op);
    // Lane l takes bucket l's result from the group's first lane. Lanes
    // >= m may match aliased ids; their registers are never read.
    const int first = match.lane_bucket != 0 ? __ffs(match.lane_bucket) - 1 : static_cast<int>(lane_id());
    const Value mine = shfl_any(group, first);
    if (match.lane_bucket != 0) {
      lane_value = op(lane_value, mine);
      lane_count += static_cast<std::uint32_t>(__popc(match.lane_bucket));
    }
  } else {
    const std::uint32_t peers = warp_peers(b, valid_mask, bits);
    const Value group = reduce_peers(value, peers, valid, op);
    if (valid && (peers & lanemask_lt()) == 0) {  // the group's first lane: the only writer of bucket b
      table_values[b] = op(table_values[b], group);
      table_counts[b] += static_cast<std::uint32_t>(__popc(peers));
    }
    __syncwarp();  // the next window's writer of b may be another lane
  }
}

// One warp sub-tile of 32 * Items pairs from `base`: full ones with all
// loads in flight first, the last partial one window by window.
template <bool kRegisters, int Items, class Key, class Value, class BucketFn, class Op>
__device__ __forceinline__ void reduce_subtile(const Key* __restrict__ keys, const Value* __restrict__ values,
                                               std::uint32_t base, std::uint32_t n, bool vector, std::uint32_t m,
                                               int bits, const BucketFn& fn, const Op& op, const Value& identity,
                                               Value* table_values, std::uint32_t* table_counts, Value& lane_value,
                                               std::uint32_t& lane_count) {
  const std::uint32_t lane = lane_id();
  if (base + kWarpThreads * Items <= n) {
    // Keys and values must pair up: vector loads only when both arrays
    // are aligned and pack alike (same element size), else both scalar.
    Key key[Items];
    Value value[Items];
    load_full_subtile<Items>(keys, base, vector, key);
    load_full_subtile<Items>(values, base, vector, value);
#pragma unroll
    for (int j = 0; j < Items; ++j)
      reduce_window<kRegisters>(key[j], value[j], true, kFullMask, m, bits, fn, op, table_values, table_counts,
                                lane_value, lane_count);
    return;
  }
#pragma unroll 1
  for (std::uint32_t window = base; window < n; window += kWarpThreads) {  // warp-uniform bounds
    const std::uint32_t idx = window + lane;
    const bool valid = idx < n;
    const Key key = valid ? keys[idx] : Key{};
    const Value value = valid ? values[idx] : identity;
    reduce_window<kRegisters>(key, value, valid, __ballot_sync(kFullMask, valid), m, bits, fn, op, table_values,
                              table_counts, lane_value, lane_count);
  }
}

// Each block reduces its tiles (grid-stride) and writes its per-bucket
// partials to partial_values / partial_counts[blockIdx.x * m + b]. With
// device_n (a device-side count), the pairs are [0, min(*device_n, n)).
template <int Threads, int Items, class Key, class Value, class BucketFn, class Op>
__global__ void __launch_bounds__(Threads)
    reduce_by_bucket_kernel(const Key* __restrict__ keys, const Value* __restrict__ values, std::uint32_t n,
                            const std::uint32_t* __restrict__ device_n, bool vector, bool block_table,
                            std::uint32_t m, int bits, BucketFn bucket_fn,
                            std::uint32_t functor_bytes, Op op, Value identity, Value* __restrict__ partial_values,
                            std::uint32_t* __restrict__ partial_counts) {
  if (device_n != nullptr) n = min(*device_n, n);  // block-uniform
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  constexpr std::uint32_t kWarps = Threads / kWarpThreads;
  constexpr std::uint32_t kSubtile = kWarpThreads * Items;
  constexpr std::uint32_t kTile = kWarps * kSubtile;
  const std::uint32_t warp = threadIdx.x / kWarpThreads;
  const std::uint32_t lane = lane_id();
  const std::uint32_t mm = m > 32 ? m : 32;
  if constexpr (!SharedAtomicFold<Value, Op>::value) block_table = false;  // only atomics may share a table
  const std::uint32_t copies = block_table ? 1u : kWarps;
  Value* all_values = reinterpret_cast<Value*>(smem + functor_bytes);
  std::uint32_t* all_counts =
      reinterpret_cast<std::uint32_t*>(smem + functor_bytes + align_up(copies * mm * sizeof(Value), 16));
  Value* table_values = all_values + (block_table ? 0u : warp * mm);
  std::uint32_t* table_counts = all_counts + (block_table ? 0u : warp * mm);
  const bool registers = m <= 32 && !SharedAtomicFold<Value, Op>::value;
  if (block_table) {
    for (std::uint32_t b = threadIdx.x; b < m; b += Threads) {
      table_values[b] = identity;
      table_counts[b] = 0;
    }
    __syncthreads();
  } else if (!registers) {
    for (std::uint32_t b = lane; b < m; b += kWarpThreads) {
      table_values[b] = identity;
      table_counts[b] = 0;
    }
    __syncwarp();
  }

  Value lane_value = identity;
  std::uint32_t lane_count = 0;
  const std::uint32_t num_tiles = div_up(n, kTile);
  for (std::uint32_t tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    const std::uint32_t base = tile * kTile + warp * kSubtile;
    if (base >= n) continue;
    if (!SharedAtomicFold<Value, Op>::value && registers)  // (compile-time false for atomic folds: less code)
      reduce_subtile<true, Items>(keys, values, base, n, vector, m, bits, fn, op, identity, table_values, table_counts,
                                  lane_value, lane_count);
    else
      reduce_subtile<false, Items>(keys, values, base, n, vector, m, bits, fn, op, identity, table_values, table_counts,
                                   lane_value, lane_count);
  }
  if (registers) {
    table_values[lane] = lane_value;
    table_counts[lane] = lane_count;
  }
  __syncthreads();
  // Block combine: fold the warps' partials, warp order (deterministic).
  for (std::uint32_t b = threadIdx.x; b < m; b += Threads) {
    Value acc = all_values[b];
    std::uint32_t count = all_counts[b];
    for (std::uint32_t w = 1; w < copies; ++w) {
      acc = op(acc, all_values[w * mm + b]);
      count += all_counts[w * mm + b];
    }
    partial_values[static_cast<std::size_t>(blockIdx.x) * m + b] = acc;
    partial_counts[static_cast<std::size_t>(blockIdx.x) * m + b] = count;
  }
}

// out_values[b] = identity folded with every block's partial of bucket b
// (one warp per bucket, lanes stride over the blocks, then a butterfly);
// out_counts likewise when not null. num_partials == 0 writes identity / 0.
template <class Value, class Op>
__global__ void reduce_partials_kernel(const Value* __restrict__ partial_values,
                                       const std::uint32_t* __restrict__ partial_counts, std::uint32_t num_partials,
                                       std::uint32_t m, Op op, Value identity, Value* __restrict__ out_values,
                                       std::uint32_t* __restrict__ out_counts) {
  const std::uint32_t warps = blockDim.x / kWarpThreads;
  const std::uint32_t b = blockIdx.x * warps + threadIdx.x / kWarpThreads;
  if (b >= m) return;  // warp-uniform; no block barrier follows
  const std::uint32_t lane = lane_id();
  Value acc = identity;
  std::uint32_t count = 0;
  for (std::uint32_t p = lane; p < num_partials; p += kWarpThreads) {
    acc = op(acc, partial_values[static_cast<std::size_t>(p) * m + b]);
    count += partial_counts[static_cast<std::size_t>(p) * m + b];
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    acc = op(acc, shfl_xor_any(acc, offset));
    count += __shfl_xor_sync(kFullMask, count, offset);
  }
  if (lane == 0) {
    out_values[b] = acc;
    if (out_counts != nullptr) out_counts[b] = count;
  }
}

// Sort-based path (tables too large for shared memory), see reduce_dispatch.cuh.
// labels[i] = bucket of keys[i] (clamped), indices[i] = i. Dynamic shared
// memory: the functor's bytes.
template <class Key, class BucketFn>
__global__ void label_pairs_kernel(const Key* __restrict__ keys, std::uint32_t n, std::uint32_t m, BucketFn bucket_fn,
                                   std::uint32_t* __restrict__ labels, std::uint32_t* __restrict__ indices) {
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    labels[i] = bucket_of(fn, keys[i], m);
    indices[i] = i;
  }
}

// gathered[i] = values[permutation[i]].
template <class Value>
__global__ void gather_kernel(const Value* __restrict__ values, const std::uint32_t* __restrict__ permutation,
                              std::uint32_t n, Value* __restrict__ gathered) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    gathered[i] = values[permutation[i]];
}

// Sort-based path's output: runs of equal labels (ReduceByKey's output,
// *num_runs of them, labels ascending) scattered over identity, counts from
// the split's offsets. Thread b handles bucket b: it finds its run by binary
// search, so every output element is written exactly once (no ordering
// between a fill and a scatter is needed).
template <class Value>
__global__ void scatter_runs_kernel(const std::uint32_t* __restrict__ run_labels, const Value* __restrict__ run_values,
                                    const std::uint32_t* __restrict__ num_runs,
                                    const std::uint32_t* __restrict__ offsets, std::uint32_t m, Value identity,
                                    Value* __restrict__ out_values, std::uint32_t* __restrict__ out_counts) {
  const std::uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= m) return;
  const std::uint32_t runs = *num_runs;
  std::uint32_t lo = 0, hi = runs;  // first run with label >= b
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi) / 2;
    if (run_labels[mid] < b)
      lo = mid + 1;
    else
      hi = mid;
  }
  out_values[b] = lo < runs && run_labels[lo] == b ? run_values[lo] : identity;
  if (out_counts != nullptr) out_counts[b] = offsets[b + 1] - offsets[b];
}

}  // namespace detail
}  // namespace multisplit
