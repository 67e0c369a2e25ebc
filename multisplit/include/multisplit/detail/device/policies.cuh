// Tuning constants of every method in one place (the CUB habit: kernels take
// their geometry from a policy, never from scattered literals).
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common.cuh"

// Tuning experiments may override the defaults at compile time
// (multisplit_bench builds variants this way); users need not.
#ifndef MULTISPLIT_ITEMS_NARROW
#define MULTISPLIT_ITEMS_NARROW 16
#endif
#ifndef MULTISPLIT_ITEMS_WIDE
#define MULTISPLIT_ITEMS_WIDE 8
#endif

// Resident BMS blocks per SM the compiler must allow (caps registers).
#ifndef MULTISPLIT_BLOCK_MIN_BLOCKS
#define MULTISPLIT_BLOCK_MIN_BLOCKS 3
#endif

// Largest bucket count whose BMS tiles rank with thread-private counters
// (block_tile_thread_counts.cuh) rather than warps (ballots up to 32
// buckets, shared masks above), for key-only and key-value splits; 0 turns
// that off (multisplit_bench A/B builds). Measured against the warp-ranked
// tile (docs/TUNING.md, "BMS thread-counter tiles" and "BMS masked
// ranking"): keys and pairs win up to 32 buckets; past that the
// mask-ranked tile is faster.
#ifndef MULTISPLIT_THREAD_COUNTS_MAX_KEY_BUCKETS
#define MULTISPLIT_THREAD_COUNTS_MAX_KEY_BUCKETS 32
#endif
// Pairs in the thread-counter tile: 1 reads each tile's values from global
// memory into registers when the tile is ranked (one value buffer, three
// blocks per SM); 0 stages them with the keys through cp.async (two value
// stages, two blocks per SM). Measured: docs/TUNING.md, "BMS thread-counter
// tiles: pair values from global memory".
#ifndef MULTISPLIT_THREAD_COUNTS_DIRECT_PAIR_VALUES
#define MULTISPLIT_THREAD_COUNTS_DIRECT_PAIR_VALUES 1
#endif
// Bucket counts (0, 4 or 8) up to which the thread-counter tile counts each
// thread's row of keys in one register rather than in its shared-memory
// counters (key-only splits; block_tile_thread_counts.cuh, kRegisterBuckets).
#ifndef MULTISPLIT_THREAD_COUNTS_REGISTER_BUCKETS
#define MULTISPLIT_THREAD_COUNTS_REGISTER_BUCKETS 8
#endif
#ifndef MULTISPLIT_THREAD_COUNTS_MAX_PAIR_BUCKETS
#define MULTISPLIT_THREAD_COUNTS_MAX_PAIR_BUCKETS 32
#endif

// Largest bucket count at which the warp-ranked BMS tile takes its
// unchecked path for whole tiles in the post-scan's kAll kernel, for keys
// and for pairs (block_postscan.cuh: kFullTileMaxBuckets; docs/TUNING.md,
// "BMS whole-tile path").
#ifndef MULTISPLIT_FULL_TILE_MAX_KEY_BUCKETS
#define MULTISPLIT_FULL_TILE_MAX_KEY_BUCKETS 128
#endif
#ifndef MULTISPLIT_FULL_TILE_MAX_PAIR_BUCKETS
#define MULTISPLIT_FULL_TILE_MAX_PAIR_BUCKETS 64
#endif

// Smallest bucket count from which the warp-ranked BMS tile runs its whole
// tiles in a kernel of their own (block_postscan.cuh: PostscanTiles::kWhole,
// the last partial tile in a second launch), for keys and for pairs; 0:
// never. Below it one kernel takes every tile. Pairs take it from 512
// buckets, where the tile's shared memory leaves one block per SM; keys
// never (slower at 40-100 and at 1024 buckets, mixed at 361-768). Measured:
// docs/TUNING.md, "BMS post-scan: whole tiles in a kernel of their own".
#ifndef MULTISPLIT_WHOLE_KERNEL_MIN_KEY_BUCKETS
#define MULTISPLIT_WHOLE_KERNEL_MIN_KEY_BUCKETS 0
#endif
#ifndef MULTISPLIT_WHOLE_KERNEL_MIN_PAIR_BUCKETS
#define MULTISPLIT_WHOLE_KERNEL_MIN_PAIR_BUCKETS 512
#endif

// Bucket counts at which BMS cuts its input into one chunk per tile and
// deals the tiles round-robin to the resident blocks, instead of one chunk
// of consecutive tiles per block (0 as the minimum: never). Why: with a
// chunk per block, each block keeps a write front open in every bucket, and
// a partly written output sector waits a whole tile for the same block to
// complete it (ncu: 1.3-1.4x the ideal DRAM reads at 256 buckets); with
// round-robin tiles, tiles t and t + 1 run at once on different blocks, so
// each bucket has one front, as in CUB's onesweep pass (pair tiles after
// the first round come from a counter instead, in order: block_postscan.cuh).
// The price: a count
// matrix of m x tiles cells, written by a per-tile counting pre-scan
// (counting_prescan.cuh: tile_counting_kernel), scanned, and read back, so
// it loses where the fronts are few (small m) or the matrix large next to
// the data (keys at 1024 buckets). Ranges measured on the H100 at 2^25 and
// 2^28 keys, delta and identity buckets: docs/TUNING.md, "BMS interleaved
// tiles"; pairs from 40 buckets (not 100) on the H200 once the pre-scan
// got cheaper: docs/TUNING.md, "Interleaved pairs from 40 buckets". Above
// 32 buckets only (the thread-counter tiles do not take it).
#ifndef MULTISPLIT_INTERLEAVED_MIN_KEY_BUCKETS
#define MULTISPLIT_INTERLEAVED_MIN_KEY_BUCKETS 128
#endif
#ifndef MULTISPLIT_INTERLEAVED_MAX_KEY_BUCKETS
#define MULTISPLIT_INTERLEAVED_MAX_KEY_BUCKETS 768
#endif
#ifndef MULTISPLIT_INTERLEAVED_MIN_PAIR_BUCKETS
#define MULTISPLIT_INTERLEAVED_MIN_PAIR_BUCKETS 40
#endif
#ifndef MULTISPLIT_INTERLEAVED_MAX_PAIR_BUCKETS
#define MULTISPLIT_INTERLEAVED_MAX_PAIR_BUCKETS 1024
#endif

// Bucket counts from which pairs of 4-byte keys and values rank in a wide
// warp-ranked BMS tile: 512 threads, one block per SM, instead of 256
// threads and two blocks (the same warps per SM and registers per thread),
// or where that does not fit, 384 threads (one block, 12 warps; there the
// 256-thread pair tile's shared memory leaves one block of 8: 118 KiB at
// 512 buckets).
// Each tile holds more pairs, so every bucket's run of output per tile is
// longer and the tile's barriers and per-bucket steps are paid less often
// per pair. Interleaved tiles only, the widest tile whose shared memory
// fits (on an H200 the 512-thread one at 450 buckets, not at 480; the
// 384-thread one at 900, not at 1024; else the 256-thread tile), and only
// with at least kWideTileMinTilesPerSm 512-thread tiles' worth of pairs per
// SM (fewer leave SMs idle: 2^20 pairs sorted 12% slower with it). 0:
// never. Measured: docs/TUNING.md, "BMS wide pair tile".
#ifndef MULTISPLIT_WIDE_TILE_MIN_PAIR_BUCKETS
#define MULTISPLIT_WIDE_TILE_MIN_PAIR_BUCKETS 176
#endif

namespace multisplit {
namespace detail {

template <class Key, class Value>
struct Policies {
  static constexpr std::size_t kValueBytes = has_values<Value>() ? sizeof(Value) : 0;
  static constexpr bool kWide = sizeof(Key) + kValueBytes > 8;

  // DMS: warp chunks, direct scatter. Warps per block shrink with m so that
  // every warp's m running offsets fit in shared memory.
  static constexpr int kDirectItems = kWide ? MULTISPLIT_ITEMS_WIDE : MULTISPLIT_ITEMS_NARROW;
  static constexpr std::uint32_t kDirectWideBlockBuckets = 1024;  // 8 warps up to here, then 4

  // WMS: warp chunks, warp-tile reordering.
  static constexpr int kWarpItems = kWide ? MULTISPLIT_ITEMS_WIDE : MULTISPLIT_ITEMS_NARROW;
  static constexpr int kWarpBlockThreads = 256;
  static constexpr std::uint32_t kWarpMaxBuckets = 256;  // per-warp tables past this; use BMS

  // BMS: block chunks, block-tile reordering.
  static constexpr int kBlockThreads = 256;
  static constexpr int kBlockItems = kWide ? MULTISPLIT_ITEMS_WIDE : MULTISPLIT_ITEMS_NARROW;
  // Items per thread of the warp-ranked tile (BlockTileSplit: past 32
  // buckets, and wherever thread counters cannot serve): pairs of 4-byte
  // keys and values take larger tiles (measured: docs/TUNING.md, "BMS pair
  // tile size").
  static constexpr int kBlockSplitItems = has_values<Value>() && !kWide ? 20 : kBlockItems;
  static constexpr std::uint32_t kBlockMaxBuckets = 2048;  // per-tile combine cost grows with m; use DMS
  // The fewest buckets that interleave (above 32 only; 0xFFFFFFFF: never).
  static constexpr std::uint32_t kInterleavedMinLimit =
      has_values<Value>() ? MULTISPLIT_INTERLEAVED_MIN_PAIR_BUCKETS : MULTISPLIT_INTERLEAVED_MIN_KEY_BUCKETS;
  static constexpr std::uint32_t kInterleavedMinBuckets =
      kInterleavedMinLimit == 0 ? 0xFFFFFFFFu : (kInterleavedMinLimit > 33 ? kInterleavedMinLimit : 33u);
  static constexpr bool interleave_tiles(std::uint32_t m) {
    const std::uint32_t hi =
        has_values<Value>() ? MULTISPLIT_INTERLEAVED_MAX_PAIR_BUCKETS : MULTISPLIT_INTERLEAVED_MAX_KEY_BUCKETS;
    return kInterleavedMinBuckets != 0xFFFFFFFFu && m >= kInterleavedMinBuckets && m <= hi;
  }
  // The wide pair tiles (MULTISPLIT_WIDE_TILE_MIN_PAIR_BUCKETS), widest
  // first: 4-byte keys and values only (the tile of kBlockSplitItems = 20
  // they were measured with), interleaved bucket counts only. Shared memory
  // decides between them (dispatch.cuh).
  static constexpr int kBlockWideThreads = 512;
  static constexpr int kBlockMidThreads = 384;
  static constexpr std::uint32_t kWideTileMinTilesPerSm = 2;
  static constexpr bool kWideTileTypes = has_values<Value>() && !kWide && sizeof(Key) == 4;
  static constexpr bool wide_tile(std::uint32_t m) {
    return kWideTileTypes && MULTISPLIT_WIDE_TILE_MIN_PAIR_BUCKETS != 0 && m >= MULTISPLIT_WIDE_TILE_MIN_PAIR_BUCKETS &&
           interleave_tiles(m);
  }
  static constexpr std::uint32_t kThreadCountsMaxBuckets =
      has_values<Value>() ? MULTISPLIT_THREAD_COUNTS_MAX_PAIR_BUCKETS : MULTISPLIT_THREAD_COUNTS_MAX_KEY_BUCKETS;
};

}  // namespace detail
}  // namespace multisplit
