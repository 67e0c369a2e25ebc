// Kernels of the three-phase multisplits (Ashkiani et al., "GPU Multisplit",
// PPoPP 2016, and the extended TOPC 2018 version):
//   pre-scan : per-chunk bucket histograms, written bucket-major
//              (counts[b * num_chunks + chunk]);
//   scan     : one exclusive sum over that matrix (cub::DeviceScan) gives
//              every (bucket, chunk) its first output position;
//   post-scan: each chunk re-reads its keys in order, ranks them stably and
//              scatters them, carrying per-bucket running offsets.
// The post-scan comes in three flavours:
//   DMS (direct)  : warp chunks, ranks from warp ballots, direct scatter;
//   WMS (warp)    : warp chunks, each warp tile reordered by bucket in shared
//                   memory first, so stores of one bucket are contiguous;
//   BMS (block)   : block chunks, the whole block tile reordered.
// Within a warp tile, lane l's j-th key is item j * 32 + l, so the windows
// are read coalesced and "window order, then lane order" is input order.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "../common.cuh"
#include "../warp/warp_match.cuh"
#include "block_postscan.cuh"
#include "chunk_layout.cuh"
#include "counting_prescan.cuh"
#include "policies.cuh"

namespace multisplit {
namespace detail {

// Bucket ids in shared memory (reordered tiles) are 16 bits wide.
constexpr std::uint32_t kMaxSharedBucketId = 0xFFFFu;

// ---------------------------------------------------------------- pre-scan
// counting_prescan.cuh (shared with the radix sort passes).

// First output position of every bucket: the scanned matrix's column 0.
// (A template so that the header can be included by many translation units.)
// offsets[m] = n, or with a device count min(*device_n, n).
template <int Unused = 0>
__global__ void bucket_offsets_kernel(const std::uint32_t* __restrict__ scanned, std::uint32_t num_chunks,
                                      std::uint32_t m, std::uint32_t n, const std::uint32_t* __restrict__ device_n,
                                      std::uint32_t* __restrict__ offsets) {
  const std::uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < m) offsets[b] = scanned[static_cast<std::size_t>(b) * num_chunks];
  if (b == m) offsets[m] = device_n == nullptr ? n : min(*device_n, n);
}

// ------------------------------------------------------- post-scan: DMS
// Shared memory: functor bytes, then (m > 32) num_warps * m running offsets.
template <int ItemsPerThread, class Key, class Value, class BucketFn>
__global__ void direct_postscan_kernel(const Key* __restrict__ keys_in, Key* __restrict__ keys_out,
                                       const Value* __restrict__ values_in, Value* __restrict__ values_out,
                                       ChunkLayout planned_layout, std::uint32_t m, int bits, BucketFn bucket_fn,
                                       std::uint32_t functor_bytes, const std::uint32_t* __restrict__ offsets) {
  const ChunkLayout layout = planned_layout.on_device();  // device counts: the real n
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  const std::uint32_t num_warps = blockDim.x / kWarpThreads;
  const std::uint32_t warp = threadIdx.x / kWarpThreads;
  const std::uint32_t lane = lane_id();
  const std::uint32_t chunk = blockIdx.x * num_warps + warp;
  if (chunk >= layout.num_chunks) return;  // no block barrier follows
  std::uint32_t* running = reinterpret_cast<std::uint32_t*>(smem + functor_bytes) + warp * m;
  std::uint32_t lane_running = 0;  // m <= 32: next output slot of bucket `lane`
  if (m <= 32) {
    if (lane < m) lane_running = offsets[lane * layout.num_chunks + chunk];
  } else {
    for (std::uint32_t b = lane; b < m; b += kWarpThreads) running[b] = offsets[b * layout.num_chunks + chunk];
    __syncwarp();
  }

  constexpr std::uint32_t kSubtile = kWarpThreads * ItemsPerThread;
  const std::uint32_t end = layout.end(chunk);
  // Full: the whole sub-tile lies before `end` (every one but the chunk's
  // last), so no item needs a bound check.
  auto subtile = [&](std::uint32_t base, auto full) {
    constexpr bool kFull = decltype(full)::value;
    Key key[ItemsPerThread];
    [[maybe_unused]] Value value[ItemsPerThread];  // unused for keys only
#pragma unroll
    for (int j = 0; j < ItemsPerThread; ++j) {
      const std::uint32_t idx = base + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      if (kFull || idx < end) {
        key[j] = keys_in[idx];
        if constexpr (has_values<Value>()) value[j] = values_in[idx];
      }
    }
#pragma unroll
    for (int j = 0; j < ItemsPerThread; ++j) {
      const std::uint32_t idx = base + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      const bool valid = kFull || idx < end;
      const std::uint32_t valid_mask = kFull ? kFullMask : __ballot_sync(kFullMask, valid);
      if (valid_mask == 0) break;
      const std::uint32_t b = valid ? bucket_of(fn, key[j], m) : 0u;
      // Ranked against the running output offsets, so the rank is the position.
      const std::uint32_t pos = warp_rank_window(b, valid, valid_mask, m, bits, lane_running, running);
      if (valid) {
        keys_out[pos] = key[j];
        if constexpr (has_values<Value>()) values_out[pos] = value[j];
      }
    }
  };
  std::uint32_t base = layout.begin(chunk);
  for (; base < end && end - base >= kSubtile; base += kSubtile) subtile(base, std::true_type{});
  for (; base < end; base += kSubtile) subtile(base, std::false_type{});
}

// ------------------------------------------------------- post-scan: WMS
// Shared memory: functor bytes, then per warp: keys[32*IPT], values[32*IPT],
// bucket ids[32*IPT] (u16), and for m > 32: running[m], tile_counts[m],
// tile_start[m + 1].
template <int ItemsPerThread, class Key, class Value>
__host__ __device__ constexpr std::size_t warp_postscan_warp_bytes(std::uint32_t m) {
  constexpr std::size_t kSubtile = kWarpThreads * ItemsPerThread;
  std::size_t bytes = align_up(kSubtile * sizeof(Key), 16);
  if constexpr (has_values<Value>()) bytes += align_up(kSubtile * sizeof(Value), 16);
  bytes += align_up(kSubtile * sizeof(std::uint16_t), 16);
  if (m > 32) bytes += align_up((3 * static_cast<std::size_t>(m) + 1) * sizeof(std::uint32_t), 16);
  return bytes;
}

template <int ItemsPerThread, class Key, class Value, class BucketFn>
__global__ void warp_postscan_kernel(const Key* __restrict__ keys_in, Key* __restrict__ keys_out,
                                     const Value* __restrict__ values_in, Value* __restrict__ values_out,
                                     ChunkLayout planned_layout, std::uint32_t m, int bits, BucketFn bucket_fn,
                                     std::uint32_t functor_bytes, const std::uint32_t* __restrict__ offsets) {
  const ChunkLayout layout = planned_layout.on_device();  // device counts: the real n
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  constexpr std::uint32_t kSubtile = kWarpThreads * ItemsPerThread;
  const std::uint32_t num_warps = blockDim.x / kWarpThreads;
  const std::uint32_t warp = threadIdx.x / kWarpThreads;
  const std::uint32_t lane = lane_id();
  const std::uint32_t chunk = blockIdx.x * num_warps + warp;
  if (chunk >= layout.num_chunks) return;  // no block barrier follows

  unsigned char* mine = smem + functor_bytes + warp * warp_postscan_warp_bytes<ItemsPerThread, Key, Value>(m);
  Key* tile_keys = reinterpret_cast<Key*>(mine);
  mine += align_up(kSubtile * sizeof(Key), 16);
  Value* tile_values = reinterpret_cast<Value*>(mine);
  if constexpr (has_values<Value>()) mine += align_up(kSubtile * sizeof(Value), 16);
  std::uint16_t* tile_buckets = reinterpret_cast<std::uint16_t*>(mine);
  mine += align_up(kSubtile * sizeof(std::uint16_t), 16);
  std::uint32_t* running = reinterpret_cast<std::uint32_t*>(mine);  // m > 32 only
  std::uint32_t* tile_counts = running + m;
  std::uint32_t* tile_start = tile_counts + m;

  std::uint32_t lane_running = 0;  // m <= 32: next output slot of bucket `lane`
  if (m <= 32) {
    if (lane < m) lane_running = offsets[lane * layout.num_chunks + chunk];
  } else {
    for (std::uint32_t b = lane; b < m; b += kWarpThreads) {
      running[b] = offsets[b * layout.num_chunks + chunk];
      tile_counts[b] = 0;
    }
    __syncwarp();
  }

  const std::uint32_t end = layout.end(chunk);
  for (std::uint32_t base = layout.begin(chunk); base < end; base += kSubtile) {
    Key key[ItemsPerThread];
    // Bucket id (low 16 bits) and rank among the tile's keys of that bucket
    // (high 16 bits; a warp tile holds at most 2^16 keys), packed to save
    // registers.
    std::uint32_t bucket_rank[ItemsPerThread];
#pragma unroll
    for (int j = 0; j < ItemsPerThread; ++j) {
      const std::uint32_t idx = base + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      if (idx < end) key[j] = keys_in[idx];
    }
    // Rank every key among the keys of its bucket in this warp tile.
    std::uint32_t lane_count = 0;  // m <= 32: keys of bucket `lane` in this tile
    warp_rank_subtile(fn, key, base, end, m, bits, lane_count, tile_counts, bucket_rank);
    // Where each bucket starts inside the reordered tile.
    std::uint32_t lane_start = 0, tile_total = 0;
    if (m <= 32) {
      lane_start = warp_exclusive_sum(lane_count, &tile_total);
    } else {
      __syncwarp();
      warp_exclusive_scan_array(tile_counts, tile_start, m);
      tile_total = tile_start[m];
    }
    // Reorder the tile by bucket in shared memory.
#pragma unroll
    for (int j = 0; j < ItemsPerThread; ++j) {
      const std::uint32_t idx = base + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      const std::uint32_t b = bucket_rank[j] & 0xFFFFu;
      const std::uint32_t start = m <= 32 ? __shfl_sync(kFullMask, lane_start, static_cast<int>(b))
                                          : (idx < end ? tile_start[b] : 0u);
      if (idx < end) {
        const std::uint32_t pos = start + (bucket_rank[j] >> 16);
        tile_keys[pos] = key[j];
        tile_buckets[pos] = static_cast<std::uint16_t>(b);
        if constexpr (has_values<Value>()) tile_values[pos] = values_in[idx];
      }
    }
    __syncwarp();
    // Write out: consecutive slots of one bucket go to consecutive addresses.
#pragma unroll
    for (int j = 0; j < ItemsPerThread; ++j) {
      const std::uint32_t slot = static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      const bool valid = slot < tile_total;
      const std::uint32_t b = valid ? tile_buckets[slot] : 0u;
      std::uint32_t dest;
      if (m <= 32) {
        dest = __shfl_sync(kFullMask, lane_running, static_cast<int>(b)) + slot -
               __shfl_sync(kFullMask, lane_start, static_cast<int>(b));
      } else {
        dest = valid ? running[b] + slot - tile_start[b] : 0u;
      }
      if (valid) {
        keys_out[dest] = tile_keys[slot];
        if constexpr (has_values<Value>()) values_out[dest] = tile_values[slot];
      }
    }
    if (m <= 32) {
      lane_running += lane_count;
    } else {
      __syncwarp();
      for (std::uint32_t b = lane; b < m; b += kWarpThreads) {
        running[b] += tile_counts[b];
        tile_counts[b] = 0;
      }
    }
    __syncwarp();  // the next tile overwrites the shared tile
  }
}

// ------------------------------------------------------- post-scan: BMS
// block_postscan.cuh (shared with the radix sort passes).

}  // namespace detail
}  // namespace multisplit
