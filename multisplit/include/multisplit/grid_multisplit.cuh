// Grid-level multisplit, for use inside your own cooperative kernels: every
// block of a grid launched with cudaLaunchCooperativeKernel (or one block
// alone, in any launch) splits n items stably into m buckets, n and m read
// on the device, with no kernel launch and no host in between. The
// persistent-kernel counterpart of multisplit::split_keys: where a kernel
// already runs on the whole GPU (a graph engine between rounds), a split
// costs two grid barriers instead of a chain of launches and a host
// round trip.
//
//   using GridSplit = multisplit::GridMultisplit<std::uint32_t, cub::NullType, 256, 8, 64>;
//   __shared__ GridSplit::TempStorage temp;
//   // scratch: GridSplit::ScratchWords(gridDim.x) words of global memory
//   GridSplit(temp, scratch).Split(keys_in, keys_out, n, fn, m, d_offsets);
//   // keys_out[d_offsets[b] .. d_offsets[b + 1]) holds bucket b's keys, in input order
//
// Template parameters as for BlockMultisplit (block_multisplit.cuh): the
// tile is BLOCK_THREADS * ITEMS_PER_THREAD items in the blocked arrangement,
// and MAX_BUCKETS sizes the shared and global scratch.
//
//   GridMultisplit(temp_storage, scratch)
//       scratch: global memory of ScratchWords(gridDim.x) words, shared by
//       the grid (nullptr: the calling block splits alone, as a grid of one
//       block; any launch, other blocks take no part).
//   Split(keys_in, keys_out, num_items, bucket_of, num_buckets, bucket_offsets = nullptr)
//   Split(keys_in, values_in, keys_out, values_out, num_items, bucket_of, num_buckets,
//         bucket_offsets = nullptr)
//       keys_in / values_in: pointers or random-access iterators (item i is
//       keys_in[i], read with ordinary loads); keys_out / values_out: global
//       memory, num_items entries, not overlapping the input. Every thread of
//       every taking-part block calls it with the same arguments. bucket_offsets
//       (global, m + 1 entries, written by block 0): bucket b's items are
//       [bucket_offsets[b], bucket_offsets[b + 1]), bucket_offsets[m] = n.
//       Bucket ids at or above m are clamped to m - 1; m above MAX_BUCKETS
//       is treated as MAX_BUCKETS.
//       In a grid, Split ends with a grid barrier: on return every block
//       sees the whole output and the offsets, and the scratch may be used
//       again.
//
// How (Ashkiani et al., "GPU Multisplit", PPoPP 2016, with the grid in place
// of their kernel launches): each block takes a contiguous run of tiles,
// ranks its first tile with BlockMultisplit (keys and ranks kept in
// registers), counts the items of the others per bucket in shared memory
// and publishes the counts to the scratch; after a grid barrier every block
// sums, per bucket, all blocks' counts (the bucket's size) and the counts of
// the blocks before it (its own start inside the bucket); then it writes its
// first tile's items of each bucket, and ranks and writes the other tiles
// after them. A block's first tile is read once, the others twice (their
// bucket function evaluated twice).
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "block_multisplit.cuh"
#include "detail/common.cuh"

namespace multisplit {

template <class Key, class Value, int BLOCK_THREADS, int ITEMS_PER_THREAD, int MAX_BUCKETS = 256>
class GridMultisplit {
  using BlockSplit = BlockMultisplit<Key, Value, BLOCK_THREADS, ITEMS_PER_THREAD, MAX_BUCKETS>;
  static constexpr std::uint32_t kTile = static_cast<std::uint32_t>(BlockSplit::TILE_ITEMS);
  static constexpr std::uint32_t kMaxBuckets = static_cast<std::uint32_t>(MAX_BUCKETS);
  static constexpr std::uint32_t kWarps = BLOCK_THREADS / 32;

 public:
  static constexpr int TILE_ITEMS = BlockSplit::TILE_ITEMS;
  static constexpr bool HAS_VALUES = BlockSplit::HAS_VALUES;

  struct TempStorage {
    typename BlockSplit::TempStorage split;
    std::uint32_t cursor[kMaxBuckets + 1];        // this block's counts, then where its next items of each bucket go
    std::uint32_t size[kMaxBuckets + 1];          // each bucket's size
    std::uint32_t tile_offsets[kMaxBuckets + 1];  // the current tile's buckets
  };

  // Global scratch words for a grid of `grid_blocks` blocks.
  __host__ __device__ static constexpr std::size_t ScratchWords(std::uint32_t grid_blocks) {
    return static_cast<std::size_t>(grid_blocks) * kMaxBuckets;
  }

  __device__ __forceinline__ GridMultisplit(TempStorage& temp_storage, std::uint32_t* scratch)
      : temp_(temp_storage), scratch_(scratch) {}

  template <class KeyIt, class BucketFn>
  __device__ void Split(KeyIt keys_in, Key* keys_out, std::uint32_t num_items, BucketFn bucket_of,
                        std::uint32_t num_buckets, std::uint32_t* bucket_offsets = nullptr) {
    run(keys_in, static_cast<const Value*>(nullptr), keys_out, static_cast<Value*>(nullptr), num_items, bucket_of,
        num_buckets, bucket_offsets);
  }

  template <class KeyIt, class ValueIt, class BucketFn>
  __device__ void Split(KeyIt keys_in, ValueIt values_in, Key* keys_out, Value* values_out, std::uint32_t num_items,
                        BucketFn bucket_of, std::uint32_t num_buckets, std::uint32_t* bucket_offsets = nullptr) {
    static_assert(HAS_VALUES, "the key-value Split needs a Value type (not cub::NullType)");
    run(keys_in, values_in, keys_out, values_out, num_items, bucket_of, num_buckets, bucket_offsets);
  }

 private:
  template <class KeyIt, class ValueIt, class BucketFn>
  __device__ void run(KeyIt keys_in, ValueIt values_in, Key* keys_out, Value* values_out, std::uint32_t n,
                      BucketFn bucket_of, std::uint32_t num_buckets, std::uint32_t* bucket_offsets) {
    const bool grid = scratch_ != nullptr;
    const std::uint32_t m = num_buckets < 1 ? 1u : (num_buckets > kMaxBuckets ? kMaxBuckets : num_buckets);
    const std::uint32_t tid = threadIdx.x, blocks = grid ? gridDim.x : 1, me = grid ? blockIdx.x : 0;
    // This block's tiles: a contiguous run, so the blocks' items of a bucket
    // follow each other in input order.
    const std::uint64_t tiles = (std::uint64_t{n} + kTile - 1) / kTile;
    const auto t_begin = static_cast<std::uint32_t>(tiles * me / blocks);
    const auto t_end = static_cast<std::uint32_t>(tiles * (me + 1) / blocks);
    const std::uint32_t first = tid * ITEMS_PER_THREAD;

    // Item j of this thread in tile t, and the tile's valid items.
    const auto tile_valid = [&](std::uint32_t t) { return n - t * kTile < kTile ? n - t * kTile : kTile; };
    const auto load_keys = [&](std::uint32_t t, Key (&keys)[ITEMS_PER_THREAD]) {
      const std::uint32_t valid = tile_valid(t);
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
        if (first + j < valid) keys[j] = keys_in[t * kTile + first + j];
    };

    // 1. Rank this block's first tile at once (its keys and ranks stay in
    // registers until they are written: a grid of one tile per block reads
    // its input once), and count the items of its other tiles.
    BlockSplit splitter(temp_.split);
    Key first_keys[ITEMS_PER_THREAD];
    std::uint32_t first_buckets[ITEMS_PER_THREAD], first_ranks[ITEMS_PER_THREAD];
    const bool have_first = t_begin < t_end;  // the same in the whole block
    if (have_first) {
      const std::uint32_t valid = tile_valid(t_begin);
      load_keys(t_begin, first_keys);
      BlockSplit::BucketsOf(first_keys, first_buckets, bucket_of, m, valid);
      splitter.RankBuckets(first_buckets, first_ranks, m, temp_.tile_offsets, valid);  // ends with a barrier
    }
    for (std::uint32_t b = tid; b < m; b += BLOCK_THREADS)
      temp_.cursor[b] = have_first ? temp_.tile_offsets[b + 1] - temp_.tile_offsets[b] : 0u;
    __syncthreads();
    for (std::uint32_t t = t_begin + 1; t < t_end; ++t) {
      const std::uint32_t base = t * kTile;
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j) {
        const std::uint32_t i = base + first + static_cast<std::uint32_t>(j);
        if (i < n) atomicAdd(&temp_.cursor[detail::bucket_of(bucket_of, static_cast<Key>(keys_in[i]), m)], 1u);
      }
    }
    __syncthreads();

    // 2. Each bucket's size, and where this block's items of it start.
    if (grid) {
      for (std::uint32_t b = tid; b < m; b += BLOCK_THREADS) scratch_[std::size_t{me} * kMaxBuckets + b] = temp_.cursor[b];
      cooperative_groups::this_grid().sync();
      const std::uint32_t warp = tid / 32, lane = tid % 32;
      for (std::uint32_t b = warp; b < m; b += kWarps) {
        std::uint32_t size = 0, before = 0;
        for (std::uint32_t g = lane; g < blocks; g += 32) {
          const std::uint32_t c = __ldcg(scratch_ + std::size_t{g} * kMaxBuckets + b);  // not a stale L1 line
          size += c;
          before += g < me ? c : 0u;
        }
        for (int off = 16; off > 0; off >>= 1) {
          size += __shfl_down_sync(detail::kFullMask, size, off);
          before += __shfl_down_sync(detail::kFullMask, before, off);
        }
        if (lane == 0) {
          temp_.size[b] = size;
          temp_.cursor[b] = before;
        }
      }
    } else {
      for (std::uint32_t b = tid; b < m; b += BLOCK_THREADS) {
        temp_.size[b] = temp_.cursor[b];
        temp_.cursor[b] = 0;
      }
    }
    __syncthreads();
    // Exclusive scan of the sizes by warp 0, each lane over a run of buckets.
    if (tid < 32) {
      constexpr std::uint32_t kPerLane = (kMaxBuckets + 31) / 32;
      const std::uint32_t b0 = tid * kPerLane;
      std::uint32_t sum = 0;
      for (std::uint32_t k = 0; k < kPerLane; ++k)
        if (b0 + k < m) sum += temp_.size[b0 + k];
      std::uint32_t prefix = sum;
      for (int off = 1; off < 32; off <<= 1) {
        const std::uint32_t x = __shfl_up_sync(detail::kFullMask, prefix, off);
        if (tid >= static_cast<std::uint32_t>(off)) prefix += x;
      }
      std::uint32_t start = prefix - sum;
      for (std::uint32_t k = 0; k < kPerLane && b0 + k < m; ++k) {
        const std::uint32_t b = b0 + k;
        const std::uint32_t size = temp_.size[b];
        if (me == 0 && bucket_offsets != nullptr) bucket_offsets[b] = start;
        temp_.cursor[b] += start;
        start += size;
      }
      if (tid == 31 && me == 0 && bucket_offsets != nullptr) bucket_offsets[m] = prefix;  // lane 31: the total
    }
    __syncthreads();

    // 3. Write each tile's items after this block's earlier ones: the first
    // tile from registers, the others ranked now.
    const auto write_tile = [&](std::uint32_t t, const Key (&keys)[ITEMS_PER_THREAD],
                                const std::uint32_t (&buckets)[ITEMS_PER_THREAD],
                                const std::uint32_t (&ranks)[ITEMS_PER_THREAD]) {
      const std::uint32_t base = t * kTile, valid = tile_valid(t);
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j) {
        if (first + j >= valid) continue;
        const std::uint32_t b = buckets[j];
        const std::uint32_t slot = temp_.cursor[b] + ranks[j] - temp_.tile_offsets[b];
        keys_out[slot] = keys[j];
        if constexpr (HAS_VALUES) values_out[slot] = values_in[base + first + j];
      }
      __syncthreads();  // every thread has read the cursors and the tile's offsets
      for (std::uint32_t b = tid; b < m; b += BLOCK_THREADS)
        temp_.cursor[b] += temp_.tile_offsets[b + 1] - temp_.tile_offsets[b];
      __syncthreads();
    };
    if (have_first) write_tile(t_begin, first_keys, first_buckets, first_ranks);
    for (std::uint32_t t = t_begin + 1; t < t_end; ++t) {
      Key keys[ITEMS_PER_THREAD];
      std::uint32_t buckets[ITEMS_PER_THREAD], ranks[ITEMS_PER_THREAD];
      load_keys(t, keys);
      BlockSplit::BucketsOf(keys, buckets, bucket_of, m, tile_valid(t));
      splitter.RankBuckets(buckets, ranks, m, temp_.tile_offsets, tile_valid(t));  // ends with a barrier
      write_tile(t, keys, buckets, ranks);
    }
    if (grid) cooperative_groups::this_grid().sync();
  }

  TempStorage& temp_;
  std::uint32_t* scratch_;
};

}  // namespace multisplit
