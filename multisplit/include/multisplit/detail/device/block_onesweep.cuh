// Single-pass block multisplit: the scan and the post-scan of BMS fused into
// one kernel with decoupled look-back (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016; the scheme of CUB's
// onesweep radix sort, Adinets & Merrill 2022), applied per bucket.
//
// Before it runs, the counting pre-scan has counted the whole input (one
// chunk) and an exclusive scan has turned that histogram into bucket_start.
// Then every block:
//   1. takes the next tile number from a global counter (so tiles are taken
//      in order and a tile only waits on tiles whose blocks already run:
//      no deadlock whatever order the hardware starts blocks in);
//   2. loads its tile straight into registers and ranks it (BlockTileSplit);
//   3. publishes its per-bucket counts, then walks back over earlier tiles'
//      status words until it meets an inclusive prefix, and publishes its own
//      inclusive prefix;
//   4. reorders the tile and writes it to bucket_start + prefix + rank.
// Against the three-phase BMS this drops the count matrix (written, scanned,
// read again) and the persistent blocks' serial tile loop: each tile is one
// short-lived block and occupancy hides the latency.
//
// Status word of (tile, bucket), 32 bits, value and flag together so that a
// relaxed load sees a consistent pair:
//   0               not published yet
//   bit 31 set      inclusive prefix (tiles 0..t) in bits 0..30; n < 2^31
//   otherwise       the tile's own count plus one
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "../common.cuh"
#include "block_postscan.cuh"
#include "policies.cuh"

namespace multisplit {
namespace detail {

constexpr std::uint32_t kOnesweepPrefixFlag = 0x80000000u;

__device__ __forceinline__ void store_status(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;\n" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ std::uint32_t load_status(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// Up to this many buckets a whole warp looks back for one bucket, reading 32
// earlier tiles per round trip; above, a thread per bucket walks one tile
// per round trip (there are enough buckets to keep the loads in flight).
// Tiles start a few nanoseconds apart while one round trip to L2 takes
// several hundred, so a walker usually passes many tiles whose own look-back
// has not finished: one tile per step makes those walks long.
constexpr std::uint32_t kOnesweepWarpLookbackBuckets = 32;

// Keys of bucket b in tiles [0, tile), read by the whole warp (all lanes call
// it with the same b and tile > 0).
__device__ __forceinline__ std::uint32_t warp_lookback(const std::uint32_t* status, std::uint32_t m,
                                                       std::uint32_t tile, std::uint32_t b) {
  const std::uint32_t lane = lane_id();
  std::uint32_t before = 0;
  for (std::int64_t newest = static_cast<std::int64_t>(tile) - 1;; newest -= kWarpThreads) {
    const std::int64_t t = newest - lane;  // lane 0 reads the newest tile
    std::uint32_t s = kOnesweepPrefixFlag;  // "tiles" before 0: an inclusive prefix of 0
    if (t >= 0) {
      const std::uint32_t* const word = status + static_cast<std::size_t>(t) * m + b;
      do {
        s = load_status(word);
      } while (s == 0);
    }
    const bool is_prefix = (s & kOnesweepPrefixFlag) != 0;
    const std::uint32_t value = is_prefix ? (s & ~kOnesweepPrefixFlag) : s - 1;
    const std::uint32_t prefixes = __ballot_sync(kFullMask, is_prefix);
    if (prefixes != 0) {
      // Sum down to the newest tile that already knows its inclusive prefix.
      const std::uint32_t stop = static_cast<std::uint32_t>(__ffs(prefixes) - 1);
      return before + __reduce_add_sync(kFullMask, lane <= stop ? value : 0u);
    }
    before += __reduce_add_sync(kFullMask, value);
  }
}

// Keys of bucket b in tiles [0, tile) (tile > 0), read by one thread,
// kOnesweepWalk earlier tiles per round trip (independent loads; reading
// past the tile that ends the walk costs nothing but bandwidth).
constexpr int kOnesweepWalk = 4;
__device__ __forceinline__ std::uint32_t thread_lookback(const std::uint32_t* status, std::uint32_t m,
                                                         std::uint32_t tile, std::uint32_t b) {
  std::uint32_t before = 0;
  for (std::int64_t newest = static_cast<std::int64_t>(tile) - 1;; newest -= kOnesweepWalk) {
    std::uint32_t s[kOnesweepWalk];
#pragma unroll
    for (int k = 0; k < kOnesweepWalk; ++k) {
      const std::int64_t t = newest - k;
      s[k] = t >= 0 ? load_status(status + static_cast<std::size_t>(t) * m + b) : kOnesweepPrefixFlag;
    }
#pragma unroll
    for (int k = 0; k < kOnesweepWalk; ++k) {
      while (s[k] == 0) s[k] = load_status(status + static_cast<std::size_t>(newest - k) * m + b);
      if (s[k] & kOnesweepPrefixFlag) return before + (s[k] & ~kOnesweepPrefixFlag);
      before += s[k] - 1;
    }
  }
}

template <int BlockThreads, int Items, class Key, class Value>
__host__ __device__ constexpr std::size_t block_onesweep_bytes(std::uint32_t m, bool store_ids) {
  return BlockTileSplit<BlockThreads, Items, Key, Value, NoBucketFn>::bytes(m, store_ids, 1);
}

// status[tiles * m] and *tile_counter must be zero on entry.
template <int BlockThreads, int Items, class Key, class Value, class BucketFn>
__global__ void __launch_bounds__(BlockThreads, MULTISPLIT_ONESWEEP_MIN_BLOCKS)
    block_onesweep_kernel(const Key* __restrict__ keys_in, Key* __restrict__ keys_out,
                          const Value* __restrict__ values_in, Value* __restrict__ values_out, std::uint32_t n,
                          std::uint32_t m, int bits, BucketFn bucket_fn, std::uint32_t functor_bytes,
                          const std::uint32_t* __restrict__ bucket_start, std::uint32_t* status,
                          std::uint32_t* tile_counter) {
  using Tile = BlockTileSplit<BlockThreads, Items, Key, Value, BucketFn>;
  constexpr bool kPairs = Tile::kPairs;
  constexpr std::uint32_t kTile = Tile::kTile;
  __shared__ typename Tile::Combine::TempStorage scan_storage;
  __shared__ std::uint32_t shared_tile;
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  Tile split(smem, functor_bytes, m, bits, 1);

  if (threadIdx.x == 0) shared_tile = atomicAdd(tile_counter, 1u);
  split.zero_counts();
  __syncthreads();
  const std::uint32_t tile = shared_tile;
  const std::uint32_t tile_base = tile * kTile;
  const std::uint32_t tile_count = min(kTile, n - tile_base);

  Key key[Items];
  Value value[kPairs ? Items : 1];
  std::uint32_t bucket_rank[Items];
  split.rank(
      fn, tile_count,
      [&](std::uint32_t slot, Key& k, Value& v) {
        k = keys_in[tile_base + slot];
        if constexpr (kPairs) v = values_in[tile_base + slot];
      },
      key, value, bucket_rank, scan_storage);

  // Publish every bucket's count first (later tiles can pass over us while
  // we look back), then look back bucket by bucket.
  std::uint32_t* const my_status = status + static_cast<std::size_t>(tile) * m;
  for (std::uint32_t b = threadIdx.x; b < m; b += BlockThreads) {
    const std::uint32_t count = split.tile_start[b + 1] - split.tile_start[b];
    store_status(my_status + b, tile == 0 ? (kOnesweepPrefixFlag | count) : count + 1);
  }
  if (m <= kOnesweepWarpLookbackBuckets) {
    const std::uint32_t warp = threadIdx.x / kWarpThreads;
    for (std::uint32_t b = warp; b < m; b += Tile::kWarps) {
      const std::uint32_t count = split.tile_start[b + 1] - split.tile_start[b];
      const std::uint32_t before = tile > 0 ? warp_lookback(status, m, tile, b) : 0u;
      if (lane_id() == 0) {
        if (tile > 0) store_status(my_status + b, kOnesweepPrefixFlag | (before + count));
        split.out_shift[b] = bucket_start[b] + before - split.tile_start[b];  // modulo 2^32
      }
    }
  } else {
    for (std::uint32_t b = threadIdx.x; b < m; b += BlockThreads) {
      const std::uint32_t count = split.tile_start[b + 1] - split.tile_start[b];
      const std::uint32_t before = tile > 0 ? thread_lookback(status, m, tile, b) : 0u;
      if (tile > 0) store_status(my_status + b, kOnesweepPrefixFlag | (before + count));
      split.out_shift[b] = bucket_start[b] + before - split.tile_start[b];  // modulo 2^32
    }
  }
  // (scatter's reorder barrier publishes out_shift before the write-out.)
  split.scatter(fn, tile_count, split.key_stages, split.value_stages, key, value, bucket_rank, keys_out, values_out);
}

}  // namespace detail
}  // namespace multisplit
