// Post-scan of block multisplit (BMS; Ashkiani et al., "GPU Multisplit",
// PPoPP 2016, section 4.3), used by split_keys/split_pairs and by every
// radix sort pass.
//
// Block b owns chunk b of `layout`, walks its tiles in order and writes each
// key (and value) to offsets[bucket * num_chunks + b] (the scanned count
// matrix) plus its stable rank among the chunk's keys of that bucket:
//   1. warps rank their sub-tile's keys stably (ballots / match, as WMS);
//   2. BlockCombine turns the warps' counts into each warp's first slot of
//      every bucket inside the block tile;
//   3. the tile is reordered by bucket in shared memory;
//   4. consecutive slots are written out: a bucket's keys are consecutive
//      slots and consecutive output positions, so the stores coalesce.
// For fewer dependent steps per key (first written for the radix sort):
//   * keys and values arrive through two-stage shared buffers filled by
//     cp.async: tile t + 1 is in flight while tile t is ranked and written,
//     and the stage just read is reused as the reorder buffer;
//   * one per-bucket shift (running offset minus the bucket's first slot in
//     the tile) turns a slot into the output position;
//   * the write-out recomputes each key's bucket instead of storing bucket
//     ids, unless the functor keeps state in shared memory (splitters: a
//     binary search is worth storing; a shift or a multiply is not).
// Within a warp's sub-tile, lane l's j-th key is item j * 32 + l, so
// "window order, then lane order" is input order.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "../block/block_combine.cuh"
#include "../common.cuh"
#include "../warp/warp_match.cuh"
#include "chunk_layout.cuh"
#include "policies.cuh"

namespace multisplit {
namespace detail {

// ---- cp.async (sm_80+): global -> shared without passing through registers.
__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(gmem) : "memory");
}
template <int Bytes>
__device__ __forceinline__ void cp_async_small(void* smem, const void* gmem) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "4-, 8- or 16-byte element copies");
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(gmem), "n"(Bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

// Elements cp.async can move: 4, 8 or 16 bytes (others go through registers).
template <class T>
__host__ __device__ constexpr bool cp_async_element() {
  return sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16;
}

// Copies src[base, base + count) into stage[0, count) (all threads call it).
// 16-byte vectors when src is 16-byte aligned (tile bases are multiples of
// 16 bytes whenever src is), element copies otherwise.
template <int BlockThreads, class T>
__device__ __forceinline__ void prefetch_tile(T* stage, const T* src, std::uint32_t base, std::uint32_t count,
                                              bool aligned16) {
  if constexpr (cp_async_element<T>()) {
    constexpr std::uint32_t kVec = static_cast<std::uint32_t>(16 / sizeof(T));
    std::uint32_t first_single = 0;
    if (aligned16) {
      const std::uint32_t vecs = count / kVec;
      for (std::uint32_t v = threadIdx.x; v < vecs; v += BlockThreads)
        cp_async_16(stage + v * kVec, src + base + v * kVec);
      first_single = vecs * kVec;
    }
    for (std::uint32_t i = first_single + threadIdx.x; i < count; i += BlockThreads)
      cp_async_small<sizeof(T)>(stage + i, src + base + i);
  } else {
    for (std::uint32_t i = threadIdx.x; i < count; i += BlockThreads) stage[i] = src[base + i];
  }
}

// Shared memory: functor bytes, two key stages [TILE], two value stages
// [TILE] (pairs), bucket ids [TILE] (u16, stateful functors only), then
// running[mm], warp_counts[W * mm], tile_start[mm + 1], shift[mm]
// (mm = max(m, 32)).
template <int BlockThreads, int Items, class Key, class Value>
__host__ __device__ constexpr std::size_t block_postscan_bytes(std::uint32_t m, bool store_ids) {
  constexpr std::size_t kTile = static_cast<std::size_t>(BlockThreads) * Items;
  constexpr std::size_t kWarps = BlockThreads / kWarpThreads;
  std::size_t bytes = 2 * align_up(kTile * sizeof(Key), 16);
  if constexpr (has_values<Value>()) bytes += 2 * align_up(kTile * sizeof(Value), 16);
  if (store_ids) bytes += align_up(kTile * sizeof(std::uint16_t), 16);
  const std::size_t mm = m > 32 ? m : 32;
  bytes += align_up((mm + kWarps * mm + mm + 1 + mm) * sizeof(std::uint32_t), 16);
  return bytes;
}

template <class BucketFn>
constexpr bool block_postscan_stores_ids() {
  return has_shared_binding<BucketFn>::value;
}

template <int BlockThreads, int Items, class Key, class Value, class BucketFn>
__global__ void __launch_bounds__(BlockThreads, MULTISPLIT_BLOCK_MIN_BLOCKS)
    block_postscan_kernel(const Key* __restrict__ keys_in, Key* __restrict__ keys_out,
                          const Value* __restrict__ values_in, Value* __restrict__ values_out, ChunkLayout layout,
                          std::uint32_t m, int bits, BucketFn bucket_fn, std::uint32_t functor_bytes,
                          const std::uint32_t* __restrict__ offsets) {
  constexpr bool kPairs = has_values<Value>();
  constexpr bool kStoreIds = block_postscan_stores_ids<BucketFn>();
  using Combine = BlockCombine<BlockThreads>;
  __shared__ typename Combine::TempStorage scan_storage;
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  constexpr std::uint32_t kWarps = BlockThreads / kWarpThreads;
  constexpr std::uint32_t kSubtile = kWarpThreads * Items;
  constexpr std::uint32_t kTile = kWarps * kSubtile;
  const std::uint32_t warp = threadIdx.x / kWarpThreads;
  const std::uint32_t lane = lane_id();
  const std::uint32_t chunk = blockIdx.x;

  // Stage s starts at stages + s * kStage (arithmetic, not an array of two
  // pointers: a run-time index into one would put it in local memory).
  constexpr std::uint32_t kKeyStage = static_cast<std::uint32_t>(align_up(kTile * sizeof(Key), 16) / sizeof(Key));
  constexpr std::uint32_t kValueStage =
      kPairs ? static_cast<std::uint32_t>(align_up(kTile * sizeof(Value), 16) / sizeof(Value)) : 0u;
  unsigned char* cursor = smem + functor_bytes;
  Key* const key_stages = reinterpret_cast<Key*>(cursor);
  cursor += 2 * align_up(kTile * sizeof(Key), 16);
  Value* const value_stages = reinterpret_cast<Value*>(cursor);
  if constexpr (kPairs) cursor += 2 * align_up(kTile * sizeof(Value), 16);
  std::uint16_t* const tile_ids = reinterpret_cast<std::uint16_t*>(cursor);
  if constexpr (kStoreIds) cursor += align_up(kTile * sizeof(std::uint16_t), 16);
  const std::uint32_t mm = m > 32 ? m : 32;
  std::uint32_t* const running = reinterpret_cast<std::uint32_t*>(cursor);  // next output slot of each bucket
  std::uint32_t* const warp_counts = running + mm;                           // [w * m + b]
  std::uint32_t* const tile_start = warp_counts + kWarps * mm;               // [m + 1]
  std::uint32_t* const out_shift = tile_start + mm + 1;                      // slot -> output position

  for (std::uint32_t b = threadIdx.x; b < m; b += BlockThreads) {
    running[b] = offsets[static_cast<std::size_t>(b) * layout.num_chunks + chunk];
    for (std::uint32_t w = 0; w < kWarps; ++w) warp_counts[w * m + b] = 0;
  }

  const std::uint32_t begin = layout.begin(chunk);
  const std::uint32_t end = layout.end(chunk);
  const bool keys_aligned = reinterpret_cast<std::uintptr_t>(keys_in) % 16 == 0;
  const bool values_aligned = !kPairs || reinterpret_cast<std::uintptr_t>(values_in) % 16 == 0;
  auto prefetch = [&](std::uint32_t stage, std::uint32_t base) {
    const std::uint32_t count = min(kTile, end - base);
    prefetch_tile<BlockThreads>(key_stages + stage * kKeyStage, keys_in, base, count, keys_aligned);
    if constexpr (kPairs)
      prefetch_tile<BlockThreads>(value_stages + stage * kValueStage, values_in, base, count, values_aligned);
  };
  if (begin < end) prefetch(0, begin);
  cp_async_commit();

  std::uint32_t stage = 0;
  for (std::uint32_t tile_base = begin; tile_base < end; tile_base += kTile, stage ^= 1u) {
    // Tile t has landed and every thread is done with tile t - 1, so the
    // other stage is free for tile t + 1.
    cp_async_wait_all();
    __syncthreads();
    if (end - tile_base > kTile) prefetch(stage ^ 1u, tile_base + kTile);
    cp_async_commit();
    Key* const tile_keys = key_stages + stage * kKeyStage;
    Value* const tile_values = value_stages + stage * kValueStage;
    const std::uint32_t tile_count = min(kTile, end - tile_base);

    // 1. Warp-local stable ranks.
    const std::uint32_t sub = warp * kSubtile;
    std::uint32_t* const my_counts = warp_counts + warp * m;
    Key key[Items];
    Value value[kPairs ? Items : 1];
    std::uint32_t bucket_rank[Items];  // bucket | rank << 16
    std::uint32_t lane_count = 0;      // m <= 32: keys of bucket `lane` so far in this sub-tile
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::uint32_t slot = sub + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      const bool valid = slot < tile_count;
      if (valid) {
        key[j] = tile_keys[slot];
        if constexpr (kPairs) value[j] = tile_values[slot];
      }
      const std::uint32_t valid_mask = __ballot_sync(kFullMask, valid);
      const std::uint32_t b = valid ? bucket_of(fn, key[j], m) : 0u;
      std::uint32_t rank;
      if (m <= 32) {
        const WindowMatch match = warp_match_small(b, valid_mask, bits);
        rank = __shfl_sync(kFullMask, lane_count, static_cast<int>(b)) +
               static_cast<std::uint32_t>(__popc(match.peers & lanemask_lt()));
        if (lane < m) lane_count += static_cast<std::uint32_t>(__popc(match.lane_bucket));
      } else {
        rank = warp_rank_shared(my_counts, b, valid, valid_mask, bits);
      }
      bucket_rank[j] = b | (rank << 16);
    }
    if (m <= 32 && lane < m) my_counts[lane] = lane_count;
    __syncthreads();

    // 2. Each warp's first slot of every bucket; each bucket's shift.
    Combine::run(scan_storage, warp_counts, tile_start, m, kWarps);
    for (std::uint32_t b = threadIdx.x; b < m; b += BlockThreads) {
      out_shift[b] = running[b] - tile_start[b];  // modulo 2^32: slot + shift = output position
      running[b] += tile_start[b + 1] - tile_start[b];
    }

    // 3. Reorder the tile by bucket in the stage just read.
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::uint32_t slot = sub + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      if (slot < tile_count) {
        const std::uint32_t b = bucket_rank[j] & 0xFFFFu;
        const std::uint32_t pos = my_counts[b] + (bucket_rank[j] >> 16);
        tile_keys[pos] = key[j];
        if constexpr (kPairs) tile_values[pos] = value[j];
        if constexpr (kStoreIds) tile_ids[pos] = static_cast<std::uint16_t>(b);
      }
    }
    __syncthreads();

    // 4. Write out.
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::uint32_t slot = static_cast<std::uint32_t>(j) * BlockThreads + threadIdx.x;
      if (slot < tile_count) {
        const Key k = tile_keys[slot];
        std::uint32_t b;
        if constexpr (kStoreIds) b = tile_ids[slot];
        else b = bucket_of(fn, k, m);
        const std::uint32_t dest = slot + out_shift[b];
        keys_out[dest] = k;
        if constexpr (kPairs) values_out[dest] = tile_values[slot];
      }
    }
    // Counters back to zero for the next tile (nobody reads them past the
    // reorder; the next tile's ranking starts after its first barrier).
    for (std::uint32_t b = threadIdx.x; b < m; b += BlockThreads)
      for (std::uint32_t w = 0; w < kWarps; ++w) warp_counts[w * m + b] = 0;
  }
  cp_async_wait_all();  // leave no copy in flight (an empty group when the loop ran)
}

}  // namespace detail
}  // namespace multisplit
