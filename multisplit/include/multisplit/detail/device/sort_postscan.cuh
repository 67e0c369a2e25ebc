// Post-scan of one radix-sort pass: block multisplit (BMS, Ashkiani et al.,
// "GPU Multisplit", PPoPP 2016, section 4.3) specialised for bit digits,
// with the next tile's keys prefetched into shared memory by cp.async while
// the current tile is ranked and written (the first step the multisplit
// README lists for its latency-bound kernels).
//
// Same contract as block_postscan_kernel (three_phase_kernels.cuh): block b
// owns chunk b of `layout`, walks its tiles in order and writes every key to
// offsets[digit * num_chunks + b] (the scanned count matrix) plus its stable
// rank. Differences, all for fewer dependent steps per key:
//   * keys arrive through a two-stage shared buffer: tile t + 1 is in flight
//     while tile t is processed, and the stage just read is reused as the
//     reorder buffer;
//   * no bucket-id array: the write-out recomputes the digit from the key,
//     and one per-digit shift (running offset minus the digit's start in the
//     tile) turns a tile slot into the output position;
//   * each digit's running offset lives in a register of the thread that
//     owns the digit (m <= 256 = threads).
// Within a warp's sub-tile, lane l's j-th key is item j * 32 + l (the BMS
// order), so "window order, then lane order" is input order.
#pragma once

#include <cub/block/block_scan.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "../common.cuh"
#include "../warp/warp_match.cuh"
#include "chunk_layout.cuh"

namespace multisplit {
namespace detail {

// ---- cp.async (sm_80+): global -> shared without passing through registers.
__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(gmem) : "memory");
}
template <int Bytes>
__device__ __forceinline__ void cp_async_small(void* smem, const void* gmem) {
  static_assert(Bytes == 4 || Bytes == 8, "4- or 8-byte element copies");
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(gmem), "n"(Bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

// Shared memory: two key stages [TILE], values reorder buffer [TILE] (pairs),
// per-warp digit counters [warps * m], per-digit output shift [m].
template <int BlockThreads, int Items, class Key, class Value>
__host__ __device__ constexpr std::size_t sort_postscan_bytes(std::uint32_t m) {
  constexpr std::size_t kTile = static_cast<std::size_t>(BlockThreads) * Items;
  std::size_t bytes = 2 * align_up(kTile * sizeof(Key), 16);
  if constexpr (has_values<Value>()) bytes += align_up(kTile * sizeof(Value), 16);
  bytes += align_up((static_cast<std::size_t>(BlockThreads / kWarpThreads) + 1) * m * sizeof(std::uint32_t), 16);
  return bytes;
}

// Issues the copies of keys[base, base + count) into `stage` (all threads).
template <int BlockThreads, class Key>
__device__ __forceinline__ void prefetch_tile(Key* stage, const Key* keys, std::uint32_t base, std::uint32_t count,
                                              bool aligned16) {
  constexpr std::uint32_t kVec = 16 / sizeof(Key);
  std::uint32_t first_single = 0;
  if (aligned16) {
    const std::uint32_t vecs = count / kVec;
    for (std::uint32_t v = threadIdx.x; v < vecs; v += BlockThreads)
      cp_async_16(stage + v * kVec, keys + base + v * kVec);
    first_single = vecs * kVec;
  }
  for (std::uint32_t i = first_single + threadIdx.x; i < count; i += BlockThreads)
    cp_async_small<sizeof(Key)>(stage + i, keys + base + i);
}

template <int BlockThreads, int Items, class Key, class Value>
__global__ void __launch_bounds__(BlockThreads, 3)
    sort_postscan_kernel(const Key* __restrict__ keys_in, Key* __restrict__ keys_out,
                         const Value* __restrict__ values_in, Value* __restrict__ values_out, ChunkLayout layout,
                         std::uint32_t shift, int digit_bits, const std::uint32_t* __restrict__ offsets) {
  static_assert(sizeof(Key) == 4 || sizeof(Key) == 8, "32- or 64-bit keys");
  static_assert(Items % 4 == 0, "tiles of whole 16-byte vectors");
  using Scan = cub::BlockScan<std::uint32_t, BlockThreads>;
  __shared__ typename Scan::TempStorage scan_storage;
  extern __shared__ __align__(16) unsigned char smem[];
  constexpr std::uint32_t kWarps = BlockThreads / kWarpThreads;
  constexpr std::uint32_t kSubtile = kWarpThreads * Items;
  constexpr std::uint32_t kTile = kWarps * kSubtile;
  const std::uint32_t m = 1u << digit_bits;  // <= 256 <= BlockThreads
  const Key digit_mask = static_cast<Key>(m - 1);
  const std::uint32_t warp = threadIdx.x / kWarpThreads;
  const std::uint32_t lane = lane_id();
  const std::uint32_t chunk = blockIdx.x;

  // Stage s starts at stages + s * kStageKeys (arithmetic, not an array of
  // two pointers: a run-time index into one would put it in local memory).
  constexpr std::uint32_t kStageKeys = static_cast<std::uint32_t>(align_up(kTile * sizeof(Key), 16) / sizeof(Key));
  unsigned char* cursor = smem;
  Key* const stages = reinterpret_cast<Key*>(cursor);
  cursor += 2 * align_up(kTile * sizeof(Key), 16);
  Value* tile_values = reinterpret_cast<Value*>(cursor);
  if constexpr (has_values<Value>()) cursor += align_up(kTile * sizeof(Value), 16);
  std::uint32_t* warp_counts = reinterpret_cast<std::uint32_t*>(cursor);  // [w * m + digit]
  std::uint32_t* out_shift = warp_counts + kWarps * m;                     // [digit]

  const std::uint32_t digit = threadIdx.x;  // the digit this thread keeps the books of (if < m)
  std::uint32_t running = 0;                // next output position of `digit` in this chunk
  if (digit < m) {
    running = offsets[static_cast<std::size_t>(digit) * layout.num_chunks + chunk];
    for (std::uint32_t w = 0; w < kWarps; ++w) warp_counts[w * m + digit] = 0;
  }

  const std::uint32_t begin = layout.begin(chunk);
  const std::uint32_t end = layout.end(chunk);
  const bool aligned16 = reinterpret_cast<std::uintptr_t>(keys_in) % 16 == 0;
  if (begin < end) prefetch_tile<BlockThreads>(stages, keys_in, begin, min(kTile, end - begin), aligned16);
  cp_async_commit();

  std::uint32_t stage = 0;
  for (std::uint32_t tile_base = begin; tile_base < end; tile_base += kTile, stage ^= 1u) {
    // Tile t has landed, and every thread is done with tile t - 1, so the
    // other stage is free for tile t + 1.
    cp_async_wait_all();
    __syncthreads();
    if (end - tile_base > kTile) {
      const std::uint32_t next = tile_base + kTile;
      prefetch_tile<BlockThreads>(stages + (stage ^ 1u) * kStageKeys, keys_in, next, min(kTile, end - next), aligned16);
    }
    cp_async_commit();
    Key* tile_keys = stages + stage * kStageKeys;
    const std::uint32_t tile_count = min(kTile, end - tile_base);

    // Warp-local stable ranks (as BMS).
    const std::uint32_t sub = warp * kSubtile;
    std::uint32_t* my_counts = warp_counts + warp * m;
    Key key[Items];
    std::uint32_t bucket_rank[Items];  // digit | rank << 16
    std::uint32_t lane_count = 0;      // m <= 32: keys of digit `lane` so far in this sub-tile
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::uint32_t slot = sub + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      const bool valid = slot < tile_count;
      if (valid) key[j] = tile_keys[slot];
      const std::uint32_t valid_mask = __ballot_sync(kFullMask, valid);
      const std::uint32_t b = valid ? static_cast<std::uint32_t>((key[j] >> shift) & digit_mask) : 0u;
      std::uint32_t rank;
      if (m <= 32) {
        const WindowMatch match = warp_match_small(b, valid_mask, digit_bits);
        rank = __shfl_sync(kFullMask, lane_count, static_cast<int>(b)) +
               static_cast<std::uint32_t>(__popc(match.peers & lanemask_lt()));
        if (lane < m) lane_count += static_cast<std::uint32_t>(__popc(match.lane_bucket));
      } else {
        rank = warp_rank_shared(my_counts, b, valid, valid_mask, digit_bits);
      }
      bucket_rank[j] = b | (rank << 16);
    }
    if (m <= 32 && lane < m) my_counts[lane] = lane_count;
    __syncthreads();

    // Combine: warp w's first slot of each digit, and the digit's shift from
    // tile slot to output position.
    std::uint32_t total = 0;
    if (digit < m) {
      for (std::uint32_t w = 0; w < kWarps; ++w) {
        const std::uint32_t c = warp_counts[w * m + digit];
        warp_counts[w * m + digit] = total;
        total += c;
      }
    }
    std::uint32_t digit_start = 0;
    Scan(scan_storage).ExclusiveSum(total, digit_start);
    if (digit < m) {
      for (std::uint32_t w = 0; w < kWarps; ++w) warp_counts[w * m + digit] += digit_start;
      out_shift[digit] = running - digit_start;  // modulo 2^32: slot + shift = output position
      running += total;
    }
    __syncthreads();

    // Reorder the tile by digit in the stage just read.
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::uint32_t slot = sub + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      if (slot < tile_count) {
        const std::uint32_t pos = my_counts[bucket_rank[j] & 0xFFFFu] + (bucket_rank[j] >> 16);
        tile_keys[pos] = key[j];
        if constexpr (has_values<Value>()) tile_values[pos] = values_in[tile_base + slot];
      }
    }
    __syncthreads();

    // Write out: a digit's keys are consecutive slots and consecutive outputs.
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::uint32_t slot = static_cast<std::uint32_t>(j) * BlockThreads + threadIdx.x;
      if (slot < tile_count) {
        const Key k = tile_keys[slot];
        const std::uint32_t dest = slot + out_shift[static_cast<std::uint32_t>((k >> shift) & digit_mask)];
        keys_out[dest] = k;
        if constexpr (has_values<Value>()) values_out[dest] = tile_values[slot];
      }
    }
    // Counters back to zero for the next tile (nobody reads them past the
    // reorder; the next tile's ranking starts after its first barrier).
    if (digit < m)
      for (std::uint32_t w = 0; w < kWarps; ++w) warp_counts[w * m + digit] = 0;
  }
  cp_async_wait_all();  // leave no copy in flight (an empty group when the loop ran)
}

}  // namespace detail
}  // namespace multisplit
