// Post-scan of block multisplit (BMS; Ashkiani et al., "GPU Multisplit",
// PPoPP 2016, section 4.3), used by split_keys/split_pairs and by every
// radix sort pass.
//
// Block b owns chunk b of `layout` (a run of consecutive tiles), walks its
// tiles in order and writes each key (and value) to offsets[bucket *
// num_chunks + b] (the scanned count matrix) plus its stable rank among the
// chunk's keys of that bucket. Interleaved (many buckets): every chunk is a
// single tile and block b takes tiles b, b + gridDim.x, ... The
// kernel is generic over the block tile, which ranks, reorders and writes:
//   * BlockTileSplit (below), any m up to the BMS limit:
//     1. warps rank their sub-tile's keys stably (ballots up to 32 buckets,
//        as WMS; above, peer masks built in shared memory, as CUB's
//        onesweep ranks with RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR);
//     2. BlockCombine turns the warps' counts into each warp's first slot of
//        every bucket inside the block tile;
//   * BlockTileThreadCounts (block_tile_thread_counts.cuh), m <= 32: each
//     thread ranks its own row of keys with private counters, one scan of
//     the counters places every key;
//   then both: 3. the tile is reordered by bucket in shared memory;
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
// In BlockTileSplit, lane l's j-th key of a warp's sub-tile is item
// j * 32 + l, so "window order, then lane order" is input order.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../block/block_combine.cuh"
#include "../common.cuh"
#include "../warp/warp_match.cuh"
#include "chunk_layout.cuh"
#include "policies.cuh"
#include "block_tile_thread_counts.cuh"
#include "tile_io.cuh"

namespace multisplit {
namespace detail {

// One block tile of BMS, warp-striped: rank, combine, reorder, write.
// (A single-pass variant with decoupled look-back was built on it and
// measured slower: docs/TUNING.md, "Rejected variants".)
// Shared memory: functor bytes, `Stages` key buffers [TILE], `Stages` value
// buffers [TILE] (pairs), bucket ids [TILE] (u16, stateful functors only),
// then running[mm], warp_counts[W * mm], tile_start[mm + 1], shift[mm]
// (mm = max(m, 32)), and past 32 buckets warp_masks[W * m]. The key/value
// buffer a tile was ranked from doubles as its reorder buffer.
template <int BlockThreads, int Items, class Key, class Value, class BucketFn>
struct BlockTileSplit : BlockTileShape<BlockThreads, Items, Value, BucketFn> {
  using Shape = BlockTileShape<BlockThreads, Items, Value, BucketFn>;
  using Shape::kPairs;
  using Shape::kStoreIds;
  using Shape::kTile;
  using Shape::kWarps;
  static constexpr std::uint32_t kSubtile = kWarpThreads * Items;
  // Stage s starts at stage_base + s * kStage (arithmetic, not an array of
  // pointers: a run-time index into one would put it in local memory).
  static constexpr std::uint32_t kKeyStage = static_cast<std::uint32_t>(align_up(kTile * sizeof(Key), 16) / sizeof(Key));
  static constexpr std::uint32_t kValueStage =
      kPairs ? static_cast<std::uint32_t>(align_up(kTile * sizeof(Value), 16) / sizeof(Value)) : 0u;
  using Combine = BlockCombine<BlockThreads>;
  // Past 32 buckets warps find a window's peers through per-warp masks in
  // shared memory (warp_rank_masked), not ceil(log2 m) ballots: measured
  // faster for keys and pairs at every m from 40 to 256 (docs/TUNING.md,
  // "BMS masked ranking").
  __host__ __device__ static constexpr bool masked(std::uint32_t m) { return m > 32; }
  // Pairs: 128 registers per thread, two resident blocks of 256 threads
  // (the compiler's cap at three made the pair tile slower from 40 buckets
  // up; same section), or one block of a wide pair tile's 512 or 384
  // (policies.cuh: MULTISPLIT_WIDE_TILE_MIN_PAIR_BUCKETS).
  static constexpr int kMinBlocks = kPairs ? (BlockThreads > 256 ? 1 : 2) : Shape::kMinBlocks;
  // rank/scatter have an unchecked path for whole tiles, taken up to this
  // many buckets in the post-scan's kAll kernel: faster there, slightly
  // slower past it, where the checks are not what the tile waits on
  // (docs/TUNING.md, "BMS whole-tile path"). From kWholeKernelMinBuckets
  // whole tiles run it in a kernel of their own (PostscanTiles; policies.cuh).
  static constexpr bool kFullTilePath = true;
  static constexpr std::uint32_t kFullTileMaxBuckets =
      kPairs ? MULTISPLIT_FULL_TILE_MAX_PAIR_BUCKETS : MULTISPLIT_FULL_TILE_MAX_KEY_BUCKETS;
  // Whether a kAll kernel of this layout can take the whole-tile path at
  // all: interleaved tiles start at Policies::kInterleavedMinBuckets (the
  // wide pair tiles at MULTISPLIT_WIDE_TILE_MIN_PAIR_BUCKETS), so the path
  // is compiled only where that is at most kFullTileMaxBuckets
  // (BlockPostscan::kernel).
  static constexpr std::uint32_t kInterleavedFromBuckets =
      BlockThreads > 256
          ? std::max<std::uint32_t>(Policies<Key, Value>::kInterleavedMinBuckets, MULTISPLIT_WIDE_TILE_MIN_PAIR_BUCKETS)
          : Policies<Key, Value>::kInterleavedMinBuckets;
  __host__ __device__ static constexpr bool full_tile_path(bool interleaved) {
    return kFullTilePath && (!interleaved || kFullTileMaxBuckets >= kInterleavedFromBuckets);
  }
  // Whether the interleaved layout compiles that path into an instance of
  // its own for the bucket counts that take it, the other counts running
  // an instance without it (BlockPostscan::kernel). Pairs (40-64 of
  // 40-1024): yes. Keys (only 128 of 128-768): no, one kernel for all, as
  // measured: without the dead path the key kernel ran 256 buckets at 2^28
  // 6% slower (docs/TUNING.md, "Interleaved pairs from 40 buckets").
  static constexpr bool kSplitInterleavedFullPath = kPairs;
  // (The wide pair tiles have no kernel of whole tiles: they run the
  // checked path only, in the interleaved kAll kernel.)
  static constexpr std::uint32_t kWholeKernelMinBuckets =
      BlockThreads > 256 ? 0u
      : kPairs           ? MULTISPLIT_WHOLE_KERNEL_MIN_PAIR_BUCKETS
                         : MULTISPLIT_WHOLE_KERNEL_MIN_KEY_BUCKETS;
  // Both layouts (policies.cuh: interleave_tiles); the wide pair tiles are
  // only planned for interleaved tiles (dispatch.cuh).
  static constexpr PostscanLayouts kLayouts =
      BlockThreads > 256 ? PostscanLayouts::kInterleaved : PostscanLayouts::kBoth;
  using ScanStorage = typename Combine::TempStorage;

  // The counter arrays' words for m buckets (at least 32 slots each):
  // running, warp_counts, tile_start (m + 1) and out_shift, in that order.
  __host__ __device__ static constexpr std::uint32_t counter_slots(std::uint32_t m) { return m > 32 ? m : 32; }
  __host__ __device__ static constexpr std::size_t counter_bytes(std::uint32_t m) {
    const std::size_t mm = counter_slots(m);
    return align_up((mm + kWarps * mm + mm + 1 + mm) * sizeof(std::uint32_t), 16);
  }

  __host__ __device__ static constexpr std::size_t bytes(std::uint32_t m, bool store_ids, int stages) {
    std::size_t total = stages * align_up(kTile * sizeof(Key), 16);
    if constexpr (kPairs) total += stages * align_up(kTile * sizeof(Value), 16);
    if (store_ids) total += align_up(kTile * sizeof(std::uint16_t), 16);
    total += counter_bytes(m);
    if (masked(m)) total += align_up(kWarps * m * sizeof(std::uint32_t), 16);
    return total;
  }

  Key* key_stages;
  Value* value_stages;
  std::uint16_t* tile_ids;
  std::uint32_t* running;      // next output slot of each bucket (three-phase)
  std::uint32_t* warp_counts;  // [w * m + b]
  std::uint32_t* tile_start;   // [m + 1]
  std::uint32_t* out_shift;    // slot -> output position
  std::uint32_t* warp_masks;   // [w * m + b], zero between windows (masked ranking only)
  std::uint32_t m;
  int bits;

  __device__ BlockTileSplit(unsigned char* smem, std::uint32_t functor_bytes, std::uint32_t m_, int bits_, int stages)
      : m(m_), bits(bits_) {
    unsigned char* cursor = smem + functor_bytes;
    key_stages = reinterpret_cast<Key*>(cursor);
    cursor += stages * align_up(kTile * sizeof(Key), 16);
    value_stages = reinterpret_cast<Value*>(cursor);
    if constexpr (kPairs) cursor += stages * align_up(kTile * sizeof(Value), 16);
    tile_ids = reinterpret_cast<std::uint16_t*>(cursor);
    if constexpr (kStoreIds) cursor += align_up(kTile * sizeof(std::uint16_t), 16);
    const std::uint32_t mm = counter_slots(m);
    running = reinterpret_cast<std::uint32_t*>(cursor);
    warp_counts = running + mm;
    tile_start = warp_counts + kWarps * mm;
    out_shift = tile_start + mm + 1;
    warp_masks = masked(m) ? reinterpret_cast<std::uint32_t*>(cursor + counter_bytes(m)) : nullptr;
    // Zero once; every window leaves them zero. (All threads construct the
    // tile before the kernel's first barrier.)
    if (warp_masks != nullptr)
      for (std::uint32_t i = threadIdx.x; i < kWarps * m; i += BlockThreads) warp_masks[i] = 0;
  }

  __device__ Key* key_stage(std::uint32_t s) const { return key_stages + s * kKeyStage; }
  __device__ Value* value_stage(std::uint32_t s) const { return value_stages + s * kValueStage; }

  // Starts the copy of items [base, base + count) into `stage` (input order).
  __device__ void prefetch(std::uint32_t stage, const Key* keys_in, const Value* values_in, std::uint32_t base,
                           std::uint32_t count, bool keys_aligned, bool values_aligned) const {
    prefetch_tile<BlockThreads>(key_stage(stage), keys_in, base, count, keys_aligned);
    if constexpr (kPairs) prefetch_tile<BlockThreads>(value_stage(stage), values_in, base, count, values_aligned);
  }

  __device__ void zero_counts() {
    for (std::uint32_t i = threadIdx.x; i < kWarps * m; i += BlockThreads) warp_counts[i] = 0;
  }

  // Steps 1-2 for the tile in `stage` (tile_count items). Leaves each key's
  // bucket | rank << 16 in bucket_rank, and in tile_start[0..m] the tile's
  // bucket starts; warp_counts[w * m + b] becomes warp w's first slot of
  // bucket b. warp_counts must be zero on entry. Ends with a barrier.
  // Full: tile_count == kTile (no per-item checks).
  template <bool Full = false>
  __device__ void rank(const BucketFn& fn, std::uint32_t tile_count, std::uint32_t stage, Key (&key)[Items],
                       Value (&value)[kPairs ? Items : 1], std::uint32_t (&bucket_rank)[Items],
                       ScanStorage& scan_storage) {
    const std::uint32_t warp = threadIdx.x / kWarpThreads;
    const std::uint32_t lane = lane_id();
    const std::uint32_t sub = warp * kSubtile;
    std::uint32_t* const my_counts = warp_counts + warp * m;
    const Key* const tile_keys = key_stage(stage);
    const Value* const tile_values = value_stage(stage);
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::uint32_t slot = sub + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      if (Full || slot < tile_count) {
        key[j] = tile_keys[slot];
        if constexpr (kPairs) value[j] = tile_values[slot];
      }
    }
    std::uint32_t lane_count = 0;  // m <= 32: keys of bucket `lane` so far in this sub-tile
    warp_rank_subtile<Items, Full>(fn, key, sub, tile_count, m, bits, lane_count, my_counts, bucket_rank,
                                   warp_masks != nullptr ? warp_masks + warp * m : nullptr);
    if (m <= 32 && lane < m) my_counts[lane] = lane_count;
    __syncthreads();
    Combine::run(scan_storage, warp_counts, tile_start, m, kWarps);
  }

  // Steps 3-4: reorder into the given buffers, then write each slot to
  // slot + out_shift[bucket]. out_shift must be published (barrier) first.
  // Zeroes warp_counts for the next tile. Full: as in rank().
  template <bool Full = false>
  __device__ void scatter(const BucketFn& fn, std::uint32_t tile_count, Key* tile_keys, Value* tile_values,
                          const Key (&key)[Items], const Value (&value)[kPairs ? Items : 1],
                          const std::uint32_t (&bucket_rank)[Items], Key* __restrict__ keys_out,
                          Value* __restrict__ values_out) {
    const std::uint32_t warp = threadIdx.x / kWarpThreads;
    const std::uint32_t lane = lane_id();
    const std::uint32_t sub = warp * kSubtile;
    const std::uint32_t* const my_counts = warp_counts + warp * m;
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::uint32_t slot = sub + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
      if (Full || slot < tile_count) {
        const std::uint32_t b = bucket_rank[j] & 0xFFFFu;
        const std::uint32_t pos = my_counts[b] + (bucket_rank[j] >> 16);
        tile_keys[pos] = key[j];
        if constexpr (kPairs) tile_values[pos] = value[j];
        if constexpr (kStoreIds) tile_ids[pos] = static_cast<std::uint16_t>(b);
      }
    }
    __syncthreads();
    write_out_tile<BlockThreads, Items, kStoreIds, Full>(fn, m, tile_count, tile_keys, tile_values, tile_ids,
                                                         out_shift, keys_out, values_out);
    // Nobody reads the counters past the reorder; the next tile's ranking
    // starts after its first barrier.
    zero_counts();
  }
};

template <int BlockThreads, int Items, class Key, class Value>
__host__ __device__ constexpr std::size_t block_postscan_bytes(std::uint32_t m, bool store_ids) {
  return BlockTileSplit<BlockThreads, Items, Key, Value, NoBucketFn>::bytes(m, store_ids, 2);
}

template <class BucketFn>
constexpr bool block_postscan_stores_ids() {
  return has_shared_binding<BucketFn>::value;
}

// Which tiles one launch of the BMS post-scan walks. Every tile but the
// input's last is whole (chunks are tile aligned), and whole tiles can skip
// every per-item bound check.
//   kAll  : every tile; whole ones unchecked up to the tile's
//           kFullTileMaxBuckets, the rest checked: two paths in one kernel,
//           chosen per tile;
//   kWhole: whole tiles only, unchecked, in a kernel of their own, so that
//           the checked path's code does not share (and move) its register
//           allocation; its partner kLast takes the rest;
//   kLast : the input's last tile when it is partial, checked, one block.
//           Its keys of bucket b are the last of b in the output, so bucket
//           b's keys end where bucket b + 1's first chunk starts (or at n):
//           it needs neither the chunk's running offsets nor the other
//           blocks, and runs in a launch of its own.
// Which bucket counts take kWhole + kLast: the tile's kWholeKernelMinBuckets
// (policies.cuh; docs/TUNING.md, "BMS post-scan: whole tiles in a kernel of
// their own").
enum class PostscanTiles { kAll, kWhole, kLast };

// The BMS post-scan over any block tile type (BlockTileSplit,
// BlockTileThreadCounts): two stages, tile t + 1 prefetched while tile t is
// ranked and written. Interleaved: every chunk is one tile and block b
// takes tiles b, b + gridDim.x, ... (dispatch.cuh plans it from
// policies.cuh, interleave_tiles); else block b walks chunk b's tiles,
// carrying each bucket's running offset from tile to tile. Two
// instantiations rather than one loop for both: the general loop's extra
// live state cost the key tile (three blocks' registers) a quarter of its
// speed at 16 buckets.
template <class Tile, bool Interleaved, PostscanTiles Tiles, bool FullPath, class Key, class Value, class BucketFn>
__global__ void __launch_bounds__(Tile::kThreads, Tile::kMinBlocks)
    block_postscan_kernel(const Key* __restrict__ keys_in, Key* __restrict__ keys_out,
                          const Value* __restrict__ values_in, Value* __restrict__ values_out,
                          ChunkLayout planned_layout, std::uint32_t m, int bits, BucketFn bucket_fn,
                          std::uint32_t functor_bytes, const std::uint32_t* __restrict__ offsets,
                          std::uint32_t* __restrict__ tile_counter) {
  constexpr bool kPairs = Tile::kPairs;
  constexpr std::uint32_t kTile = Tile::kTile;
  constexpr int kItems = Tile::kItems;
  constexpr bool kWholeOnly = Tiles == PostscanTiles::kWhole;
  const ChunkLayout layout = planned_layout.on_device();  // device counts: the real n
  // Items in whole tiles; kWhole stops there, kLast starts there.
  const std::uint32_t whole_end = layout.n - layout.n % kTile;
  if (Tiles == PostscanTiles::kLast && whole_end == layout.n) return;  // no partial tile
  __shared__ typename Tile::ScanStorage scan_storage;
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  Tile split(smem, functor_bytes, m, bits, 2);
  const bool keys_aligned = reinterpret_cast<std::uintptr_t>(keys_in) % 16 == 0;
  const bool values_aligned = !kPairs || reinterpret_cast<std::uintptr_t>(values_in) % 16 == 0;

  // Ranks and writes the tile of tile_count items in `stage`; first_slot(b)
  // gives bucket b's first output position for this tile (called by thread
  // b % kThreads only, after the ranking, with the tile's count of b).
  auto process = [&](std::uint32_t stage, std::uint32_t tile_count, auto&& first_slot) {
    auto run = [&](auto full) {
      constexpr bool kFull = decltype(full)::value;
      Key key[kItems];
      Value value[kPairs ? kItems : 1];
      std::uint32_t bucket_rank[kItems];
      split.template rank<kFull>(fn, tile_count, stage, key, value, bucket_rank, scan_storage);
      for (std::uint32_t b = threadIdx.x; b < m; b += Tile::kThreads) {
        const std::uint32_t start = split.tile_start[b];
        // modulo 2^32: slot + shift = output position
        split.out_shift[b] = first_slot(b, split.tile_start[b + 1] - start) - start;
      }
      // (scatter's reorder barrier comes after this; out_shift is read after it.)
      split.template scatter<kFull>(fn, tile_count, split.key_stage(stage), split.value_stage(stage), key, value,
                                    bucket_rank, keys_out, values_out);
    };
    if constexpr (kWholeOnly) {
      run(std::true_type{});
    } else if constexpr (Tiles == PostscanTiles::kLast) {
      run(std::false_type{});
    } else {
      // kAll: whole tiles (all but the input's last) skip every per-item
      // bound check; tiles without that path take the checked one always,
      // and it is not compiled where it cannot run (FullPath:
      // BlockPostscan::kernel).
      if (FullPath && tile_count == kTile && m <= Tile::kFullTileMaxBuckets)
        run(std::integral_constant<bool, FullPath>{});
      else
        run(std::false_type{});
    }
  };

  if constexpr (Tiles == PostscanTiles::kLast) {
    const std::uint32_t count = layout.n - whole_end;
    split.zero_counts();
    split.prefetch(0, keys_in, values_in, whole_end, count, keys_aligned, values_aligned);
    cp_async_commit();
    cp_async_wait_all();
    __syncthreads();
    process(0, count, [&](std::uint32_t b, std::uint32_t tile_count) {
      const std::uint32_t bucket_end =
          b + 1 < m ? offsets[static_cast<std::size_t>(b + 1) * layout.num_chunks] : layout.n;
      return bucket_end - tile_count;
    });
  } else if constexpr (Interleaved) {
    // Chunk t is tile t; with a device count the planned chunks past the
    // real tiles are empty, so the real tiles are all there is to walk.
    // Pair tiles: after the first round, blocks take tiles in order from
    // a counter (zeroed by the pre-scan), not round-robin. With a block's
    // tiles t, t + G, ... the blocks drift apart over many rounds, so tiles
    // t and t + 1, which share an output sector at every bucket's front,
    // were written further and further apart in time, and L2 evicted their
    // shared sectors half written in between (measured: docs/TUNING.md,
    // "BMS interleaved tiles: tiles in order"). Thread 0 asks for the tile
    // after next, so the atomic's latency hides behind a tile's work; the
    // slots alternate so that no read races the next write. Key tiles keep
    // round-robin: the extra live register spilled under their cap.
    constexpr bool kInOrder = kPairs;
    __shared__ std::uint32_t tile_slots[2];
    const std::uint32_t num_tiles = kWholeOnly ? layout.n / kTile : div_up(layout.n, kTile);
    split.zero_counts();
    std::uint32_t tile = blockIdx.x;
    std::uint32_t ahead = 0;  // kInOrder, thread 0: the tile after next
    if (kInOrder && threadIdx.x == 0) ahead = gridDim.x + atomicAdd(tile_counter, 1u);
    if (tile < num_tiles)
      split.prefetch(0, keys_in, values_in, tile * kTile, min(kTile, layout.n - tile * kTile), keys_aligned,
                     values_aligned);
    cp_async_commit();
    for (std::uint32_t stage = 0; tile < num_tiles; stage ^= 1u) {
      if (kInOrder && threadIdx.x == 0) {
        tile_slots[stage] = ahead;
        ahead = gridDim.x + atomicAdd(tile_counter, 1u);
      }
      cp_async_wait_all();
      __syncthreads();
      const std::uint32_t next = kInOrder ? tile_slots[stage] : tile + gridDim.x;
      if (next < num_tiles)
        split.prefetch(stage ^ 1u, keys_in, values_in, next * kTile, min(kTile, layout.n - next * kTile), keys_aligned,
                       values_aligned);
      cp_async_commit();
      // Loaded now, used after the ranking.
      const std::uint32_t own =
          threadIdx.x < m ? offsets[static_cast<std::size_t>(threadIdx.x) * layout.num_chunks + tile] : 0u;
      process(stage, min(kTile, layout.n - tile * kTile), [&](std::uint32_t b, std::uint32_t) {
        return b == threadIdx.x ? own : offsets[static_cast<std::size_t>(b) * layout.num_chunks + tile];
      });
      tile = next;
    }
  } else {
    const std::uint32_t chunk = blockIdx.x;
    for (std::uint32_t b = threadIdx.x; b < m; b += Tile::kThreads)
      split.running[b] = offsets[static_cast<std::size_t>(b) * layout.num_chunks + chunk];
    split.zero_counts();
    const std::uint32_t begin = layout.begin(chunk);
    const std::uint32_t end = kWholeOnly ? min(layout.end(chunk), whole_end) : layout.end(chunk);
    if (begin < end) split.prefetch(0, keys_in, values_in, begin, min(kTile, end - begin), keys_aligned, values_aligned);
    cp_async_commit();
    std::uint32_t stage = 0;
    for (std::uint32_t tile_base = begin; tile_base < end; tile_base += kTile, stage ^= 1u) {
      // Tile t has landed and every thread is done with tile t - 1, so the
      // other stage is free for tile t + 1.
      cp_async_wait_all();
      __syncthreads();
      if (end - tile_base > kTile) {
        const std::uint32_t next = tile_base + kTile;
        split.prefetch(stage ^ 1u, keys_in, values_in, next, min(kTile, end - next), keys_aligned, values_aligned);
      }
      cp_async_commit();
      process(stage, min(kTile, end - tile_base), [&](std::uint32_t b, std::uint32_t count) {
        const std::uint32_t from = split.running[b];
        split.running[b] = from + count;
        return from;
      });
    }
  }
  cp_async_wait_all();  // leave no copy in flight (an empty group when the loop ran)
}

// Host side of the BMS post-scan for one tile type: which kernels run for
// m buckets (kWhole + kLast from the tile's kWholeKernelMinBuckets, 0 =
// never; else kAll), their shared-memory opt-in, the launch. Layouts: the
// layouts whose kernels are instantiated (a caller that never interleaves
// says kChunked; `interleaved` must then be false, and with kInterleaved
// true).
template <class Tile, class Key, class Value, class BucketFn, PostscanLayouts Layouts = Tile::kLayouts>
struct BlockPostscan {
  static constexpr bool kWholeKernel = Tile::kFullTilePath && Tile::kWholeKernelMinBuckets > 0;
  static bool whole_tiles(std::uint32_t m) { return kWholeKernel && m >= Tile::kWholeKernelMinBuckets; }

  // The kernel for m buckets. kAll compiles the unchecked whole-tile path
  // (the tile's full_tile_path) into the chunked layout's one kernel, which
  // takes it per tile up to kFullTileMaxBuckets, and for the interleaved
  // layout, where the tile splits it off (kSplitInterleavedFullPath), only
  // into an instance of its own for bucket counts that take it: compiled
  // into the pair kernel of the other bucket counts, the dead path doubled
  // its code and slowed it (docs/TUNING.md, "BMS post-scan: code size of
  // the interleaved pair kernel"). kWhole and kLast ignore FullPath.
  template <PostscanTiles Tiles>
  static auto kernel(bool interleaved, std::uint32_t m) {
    constexpr bool kAll = Tiles == PostscanTiles::kAll;
    constexpr bool kChunkedFull = kAll && Tile::full_tile_path(false);
    constexpr bool kInterleavedFull = kAll && Tile::full_tile_path(true);
    using Kernel = void (*)(const Key*, Key*, const Value*, Value*, ChunkLayout, std::uint32_t, int, BucketFn,
                            std::uint32_t, const std::uint32_t*, std::uint32_t*);
    Kernel chunked = nullptr, spread = nullptr;
    if constexpr (Layouts != PostscanLayouts::kInterleaved)
      chunked = block_postscan_kernel<Tile, false, Tiles, kChunkedFull, Key, Value, BucketFn>;
    if constexpr (Layouts != PostscanLayouts::kChunked) {
      constexpr bool kSplit = kInterleavedFull && Tile::kSplitInterleavedFullPath;
      spread = block_postscan_kernel<Tile, true, Tiles, kInterleavedFull && !kSplit, Key, Value, BucketFn>;
      if constexpr (kSplit) {
        if (m <= Tile::kFullTileMaxBuckets) spread = block_postscan_kernel<Tile, true, Tiles, true, Key, Value, BucketFn>;
      }
    }
    (void)m;
    return interleaved ? spread : chunked;
  }
  // The kernel of the grid (the one occupancy is planned for). kWhole is
  // only instantiated for tiles that can take it.
  static auto grid_kernel(bool interleaved, std::uint32_t m) {
    if constexpr (kWholeKernel) {
      if (whole_tiles(m)) return kernel<PostscanTiles::kWhole>(interleaved, m);
    }
    return kernel<PostscanTiles::kAll>(interleaved, m);
  }
  static cudaError_t prepare(bool interleaved, std::uint32_t m, std::size_t smem) {
    MULTISPLIT_RETURN_IF_ERROR(opt_in_shared(grid_kernel(interleaved, m), smem));
    if constexpr (kWholeKernel) {
      if (whole_tiles(m))
        MULTISPLIT_RETURN_IF_ERROR(opt_in_shared(kernel<PostscanTiles::kLast>(interleaved, m), smem));
    }
    return cudaSuccess;
  }
  static cudaError_t blocks_per_sm(bool interleaved, std::uint32_t m, std::size_t smem, int& blocks) {
    MULTISPLIT_RETURN_IF_ERROR(prepare(interleaved, m, smem));
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, grid_kernel(interleaved, m), Tile::kThreads, smem);
  }
  // The grid over `layout`, then (whole-tile kernel, and a partial last
  // tile possible: always with a device count) the one-block kLast.
  static cudaError_t launch(bool interleaved, std::uint32_t grid, std::size_t smem, const ChunkLayout& layout,
                            const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                            std::uint32_t m, int bits, const BucketFn& fn, std::uint32_t functor_bytes,
                            const std::uint32_t* offsets, std::uint32_t* tile_counter, cudaStream_t stream) {
    grid_kernel(interleaved, m)<<<grid, Tile::kThreads, smem, stream>>>(keys_in, keys_out, values_in, values_out,
                                                                        layout, m, bits, fn, functor_bytes, offsets,
                                                                        tile_counter);
    MULTISPLIT_RETURN_IF_ERROR(cudaGetLastError());
    if constexpr (kWholeKernel) {
      if (whole_tiles(m) && (layout.device_n != nullptr || layout.n % Tile::kTile != 0)) {
        kernel<PostscanTiles::kLast>(interleaved, m)<<<1, Tile::kThreads, smem, stream>>>(
            keys_in, keys_out, values_in, values_out, layout, m, bits, fn, functor_bytes, offsets, tile_counter);
        MULTISPLIT_RETURN_IF_ERROR(cudaGetLastError());
      }
    }
    return cudaSuccess;
  }
};

}  // namespace detail
}  // namespace multisplit
