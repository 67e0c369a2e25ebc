// Block-level multisplit, for use inside your own kernels (CUB's idiom:
// a class over a block's tile, its shared memory in a nested TempStorage).
//
//   using BlockSplit = multisplit::BlockMultisplit<std::uint32_t, cub::NullType, 128, 4, 64>;
//   __shared__ BlockSplit::TempStorage temp;
//   __shared__ std::uint32_t offsets[64 + 1];
//   std::uint32_t keys[4];                       // blocked: thread t holds items 4t .. 4t + 3
//   ...load them (e.g. cub::BlockLoad, or keys[j] = in[4 * threadIdx.x + j])...
//   BlockSplit(temp).Scatter(keys, out, fn, m, offsets, valid_items);
//   // out[offsets[b] .. offsets[b + 1]) now holds the tile's items of bucket b, in input order
//
// Template parameters:
//   Key, Value        item types; Value = cub::NullType (or
//                     multisplit::detail::NullValue) for keys only.
//   BLOCK_THREADS     threads of the (one-dimensional) block, a multiple of 32;
//                     every one of them calls every method together.
//   ITEMS_PER_THREAD  items per thread, in CUB's *blocked* arrangement: the
//                     block's tile is items 0 .. BLOCK_THREADS * ITEMS_PER_THREAD - 1,
//                     thread t holding items t * ITEMS_PER_THREAD + j. That
//                     index is the input order the split keeps stable.
//   MAX_BUCKETS       the largest bucket count a call may use (default 256);
//                     it sizes TempStorage: (TILE_ITEMS + (BLOCK_THREADS / 32
//                     + 1) * MAX_BUCKETS) 4-byte words plus a cub::BlockScan's.
//
// Every method takes the bucket count m at run time, 1 <= m <= MAX_BUCKETS
// (m above MAX_BUCKETS is treated as MAX_BUCKETS, so memory stays in bounds),
// and `valid_items` (default: the whole tile): only items with index
// < valid_items take part (a partial last tile); the others are neither
// counted nor written. Bucket ids at or above m are clamped to m - 1, as
// everywhere in the library. The bucket functor is any `uint32_t(Key)`
// callable on the device (buckets.hpp); it is called as is (a functor's
// bind_shared hook is not used, so range_buckets reads its splitters where
// they are).
//
//   Rank(keys, ranks, bucket_of, m, bucket_offsets = nullptr, valid_items = TILE_ITEMS)
//   RankBuckets(buckets, ranks, m, bucket_offsets = nullptr, valid_items = TILE_ITEMS)
//       ranks[j] = the item's slot in the tile reordered stably by bucket:
//       bucket b's items take slots [bucket_offsets[b], bucket_offsets[b + 1])
//       in input order. Items past valid_items get their own index as rank,
//       so the ranks are always a permutation of 0 .. TILE_ITEMS - 1.
//       RankBuckets takes the bucket ids themselves instead of a functor.
//   Scatter(keys, out_keys, bucket_of, m, bucket_offsets = nullptr, valid_items = TILE_ITEMS)
//   Scatter(keys, values, out_keys, out_values, bucket_of, m, bucket_offsets = nullptr,
//           valid_items = TILE_ITEMS)
//       out_keys[ranks[j]] = keys[j] (and the values) for the valid items:
//       the tile split stably into out_keys[0 .. valid_items), shared or
//       global memory.
//   bucket_offsets (optional, shared or global memory, m + 1 entries):
//       bucket_offsets[b] = first slot of bucket b, bucket_offsets[m] = the
//       number of valid items; bucket b's count is offsets[b + 1] - offsets[b].
//
// Every method ends with __syncthreads(): on return bucket_offsets and a
// shared-memory Scatter output are visible to the whole block, and the
// TempStorage may be used again at once.
//
// To scatter into global buckets of your own (say, per-bucket cursors
// claimed with one atomicAdd per bucket), compute the bucket ids, call
// RankBuckets with bucket_offsets, and write item j to
// cursor[b] + ranks[j] - bucket_offsets[b]: consecutive items of one
// bucket go to consecutive addresses (see examples/block_multisplit_example.cu).
//
// How: the bucket ids go through shared memory so that each warp can rank
// its own 32 * ITEMS_PER_THREAD items window by window in input order
// (warp_rank_shared: ballots up to 8 bits of bucket id, __match_any_sync
// above, one shared atomic per group of equal buckets); the per-warp counts
// are then scanned bucket-major over (bucket, warp), which places every
// warp's items of every bucket (the block-level step of the library's BMS,
// Ashkiani et al., "GPU Multisplit", PPoPP 2016, section 4.3).
#pragma once

#include <cub/util_type.cuh>

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "buckets.hpp"
#include "detail/block/block_combine.cuh"
#include "detail/common.cuh"
#include "detail/warp/warp_match.cuh"

namespace multisplit {

template <class Key, class Value, int BLOCK_THREADS, int ITEMS_PER_THREAD, int MAX_BUCKETS = 256>
class BlockMultisplit {
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0, "BLOCK_THREADS must be a positive multiple of 32");
  static_assert(ITEMS_PER_THREAD >= 1, "ITEMS_PER_THREAD must be at least 1");
  static_assert(MAX_BUCKETS >= 1, "MAX_BUCKETS must be at least 1");

 public:
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr bool HAS_VALUES =
      !std::is_same<Value, cub::NullType>::value && !std::is_same<Value, detail::NullValue>::value;

 private:
  static constexpr std::uint32_t kWarps = BLOCK_THREADS / 32;
  static constexpr std::uint32_t kTile = static_cast<std::uint32_t>(TILE_ITEMS);
  static constexpr std::uint32_t kMaxBuckets = static_cast<std::uint32_t>(MAX_BUCKETS);
  static constexpr std::uint32_t kWarpItems = 32u * ITEMS_PER_THREAD;
  using Combine = detail::BlockCombine<BLOCK_THREADS>;

 public:
  // Shared memory of the collective (place it in __shared__ memory; it may
  // be reused for other purposes after any method returns).
  struct TempStorage {
    std::uint32_t exchange[kTile];                   // by item index: bucket id, then rank within its warp
    std::uint32_t warp_counts[kWarps * kMaxBuckets];  // [w * m + b]
    std::uint32_t tile_start[kMaxBuckets + 1];
    typename Combine::TempStorage scan;
  };

  __device__ __forceinline__ explicit BlockMultisplit(TempStorage& temp_storage) : temp_(temp_storage) {}

  // Ranks from bucket ids (see the header comment).
  __device__ __forceinline__ void RankBuckets(const std::uint32_t (&buckets)[ITEMS_PER_THREAD],
                                              std::uint32_t (&ranks)[ITEMS_PER_THREAD], std::uint32_t num_buckets,
                                              std::uint32_t* bucket_offsets = nullptr,
                                              std::uint32_t valid_items = kTile) {
    const std::uint32_t m = clamp_buckets(num_buckets);
    const std::uint32_t valid = valid_items < kTile ? valid_items : kTile;
    const int bits = detail::ceil_log2(m);
    const std::uint32_t tid = threadIdx.x;
    const std::uint32_t warp = tid / 32;
    const std::uint32_t lane = tid % 32;
    const std::uint32_t first = tid * ITEMS_PER_THREAD;

    // 1. Bucket ids into shared memory by item index; zero the warp counts.
    std::uint32_t b[ITEMS_PER_THREAD];
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j) {
      b[j] = buckets[j] < m ? buckets[j] : m - 1;
      temp_.exchange[first + j] = b[j];
    }
    for (std::uint32_t i = tid; i < kWarps * m; i += BLOCK_THREADS) temp_.warp_counts[i] = 0;
    __syncthreads();

    // 2. Warp w ranks items [w * kWarpItems, (w + 1) * kWarpItems) in input
    // order: window j holds items w * kWarpItems + j * 32 + lane. Each rank
    // (among the warp's items of the same bucket) replaces the id.
    std::uint32_t* const my_counts = temp_.warp_counts + warp * m;
#pragma unroll 1
    for (int j = 0; j < ITEMS_PER_THREAD; ++j) {
      const std::uint32_t idx = warp * kWarpItems + static_cast<std::uint32_t>(j) * 32u + lane;
      const bool is_valid = idx < valid;
      const std::uint32_t valid_mask = __ballot_sync(detail::kFullMask, is_valid);
      if (valid_mask == 0) break;  // warp-uniform; the valid items are a prefix
      const std::uint32_t bucket = is_valid ? temp_.exchange[idx] : 0u;
      const std::uint32_t rank = detail::warp_rank_shared(my_counts, bucket, is_valid, valid_mask, bits);
      if (is_valid) temp_.exchange[idx] = rank;
    }
    __syncthreads();

    // 3. Bucket-major scan over (bucket, warp): warp_counts[w * m + b]
    // becomes the first slot of warp w's items of bucket b, tile_start[b]
    // the first slot of bucket b (ends with a barrier).
    Combine::run(temp_.scan, temp_.warp_counts, temp_.tile_start, m, kWarps);

    // 4. Slot = where my warp's items of the bucket start + rank in the warp.
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j) {
      const std::uint32_t idx = first + static_cast<std::uint32_t>(j);
      ranks[j] = idx < valid ? temp_.warp_counts[warp * m + b[j]] + temp_.exchange[idx] : idx;
    }
    if (bucket_offsets != nullptr)
      for (std::uint32_t i = tid; i <= m; i += BLOCK_THREADS) bucket_offsets[i] = temp_.tile_start[i];
    __syncthreads();
  }

  // Ranks from keys and a bucket functor.
  template <class BucketFn>
  __device__ __forceinline__ void Rank(const Key (&keys)[ITEMS_PER_THREAD], std::uint32_t (&ranks)[ITEMS_PER_THREAD],
                                       BucketFn bucket_of, std::uint32_t num_buckets,
                                       std::uint32_t* bucket_offsets = nullptr, std::uint32_t valid_items = kTile) {
    std::uint32_t buckets[ITEMS_PER_THREAD];
    BucketsOf(keys, buckets, bucket_of, num_buckets, valid_items);
    RankBuckets(buckets, ranks, num_buckets, bucket_offsets, valid_items);
  }

  // Stable split of the tile's keys into out_keys[0 .. valid_items).
  template <class BucketFn>
  __device__ __forceinline__ void Scatter(const Key (&keys)[ITEMS_PER_THREAD], Key* out_keys, BucketFn bucket_of,
                                          std::uint32_t num_buckets, std::uint32_t* bucket_offsets = nullptr,
                                          std::uint32_t valid_items = kTile) {
    std::uint32_t ranks[ITEMS_PER_THREAD];
    Rank(keys, ranks, bucket_of, num_buckets, bucket_offsets, valid_items);
    const std::uint32_t first = threadIdx.x * ITEMS_PER_THREAD;
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      if (first + j < valid_items) out_keys[ranks[j]] = keys[j];
    __syncthreads();
  }

  // Stable split of the tile's pairs (values follow their keys).
  template <class BucketFn>
  __device__ __forceinline__ void Scatter(const Key (&keys)[ITEMS_PER_THREAD], const Value (&values)[ITEMS_PER_THREAD],
                                          Key* out_keys, Value* out_values, BucketFn bucket_of,
                                          std::uint32_t num_buckets, std::uint32_t* bucket_offsets = nullptr,
                                          std::uint32_t valid_items = kTile) {
    static_assert(HAS_VALUES, "the key-value Scatter needs a Value type (not cub::NullType)");
    std::uint32_t ranks[ITEMS_PER_THREAD];
    Rank(keys, ranks, bucket_of, num_buckets, bucket_offsets, valid_items);
    const std::uint32_t first = threadIdx.x * ITEMS_PER_THREAD;
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j) {
      if (first + j < valid_items) {
        out_keys[ranks[j]] = keys[j];
        out_values[ranks[j]] = values[j];
      }
    }
    __syncthreads();
  }

  // The bucket ids Rank would use (clamped below m; 0 for items past
  // valid_items, whose keys need not be initialised). No shared memory, no
  // barrier.
  template <class BucketFn>
  __device__ __forceinline__ static void BucketsOf(const Key (&keys)[ITEMS_PER_THREAD],
                                                   std::uint32_t (&buckets)[ITEMS_PER_THREAD], BucketFn bucket_of,
                                                   std::uint32_t num_buckets, std::uint32_t valid_items = kTile) {
    const std::uint32_t m = clamp_buckets(num_buckets);
    const std::uint32_t first = threadIdx.x * ITEMS_PER_THREAD;
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      buckets[j] = first + j < valid_items ? detail::bucket_of(bucket_of, keys[j], m) : 0u;
  }

 private:
  __device__ __forceinline__ static std::uint32_t clamp_buckets(std::uint32_t m) {
    return m < 1 ? 1u : (m > kMaxBuckets ? kMaxBuckets : m);
  }

  TempStorage& temp_;
};

}  // namespace multisplit
