// Moving BMS tiles between global and shared memory, for every block tile
// (block_postscan.cuh, block_tile_thread_counts.cuh):
//   * cp.async prefetch of a tile into a shared stage, either in input order
//     (prefetch_tile) or as one padded row of `Items` keys per thread
//     (prefetch_tile_rows), so that the block ranks tile t while tile t + 1
//     is in flight;
//   * the write-out of a reordered tile: consecutive slots of one bucket are
//     consecutive output positions, so the stores coalesce.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../common.cuh"
#include "policies.cuh"

namespace multisplit {
namespace detail {

// Stands in for the bucket functor where only sizes are asked for.
struct NoBucketFn {};

// Which layouts the BMS post-scan's kernels are instantiated for, per tile
// type (its kLayouts): chunks of consecutive tiles, one-tile chunks dealt
// out to the grid (interleaved), or both (chosen per split at run time).
enum class PostscanLayouts { kChunked, kInterleaved, kBoth };

// What the BMS post-scan kernel asks of every block tile type.
template <int BlockThreads, int Items, class Value, class BucketFn>
struct BlockTileShape {
  static constexpr int kThreads = BlockThreads;
  static constexpr int kItems = Items;
  static constexpr int kMinBlocks = MULTISPLIT_BLOCK_MIN_BLOCKS;
  static constexpr bool kPairs = has_values<Value>();
  static constexpr bool kStoreIds = has_shared_binding<BucketFn>::value;  // write-out reads stored bucket ids
  static constexpr std::uint32_t kWarps = BlockThreads / kWarpThreads;
  static constexpr std::uint32_t kTile = static_cast<std::uint32_t>(BlockThreads) * Items;
};

// ---- cp.async (sm_80+): global -> shared without passing through registers.
__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem) {
  const std::uint32_t dst = shared_address(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(gmem) : "memory");
}
template <int Bytes>
__device__ __forceinline__ void cp_async_small(void* smem, const void* gmem) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "4-, 8- or 16-byte element copies");
  const std::uint32_t dst = shared_address(smem);
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(gmem), "n"(Bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

// Elements cp.async can move: 4, 8 or 16 bytes (others go through registers).
template <class T>
__host__ __device__ constexpr bool cp_async_element() {
  return sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16;
}

// Copies src[base + i] to stage[place(i)] for i < count (all threads call
// it). 16-byte vectors when src is 16-byte aligned (tile bases are
// multiples of 16 bytes whenever src is) and `place` keeps every aligned
// group of 16 / sizeof(T) elements together; element copies otherwise.
template <int BlockThreads, class T, class Place>
__device__ __forceinline__ void prefetch_placed(T* stage, const T* src, std::uint32_t base, std::uint32_t count,
                                                bool aligned16, Place place) {
  if constexpr (cp_async_element<T>()) {
    constexpr std::uint32_t kVec = static_cast<std::uint32_t>(16 / sizeof(T));
    std::uint32_t first_single = 0;
    if (aligned16) {
      const std::uint32_t vecs = count / kVec;
      for (std::uint32_t v = threadIdx.x; v < vecs; v += BlockThreads)
        cp_async_16(stage + place(v * kVec), src + base + v * kVec);
      first_single = vecs * kVec;
    }
    for (std::uint32_t i = first_single + threadIdx.x; i < count; i += BlockThreads)
      cp_async_small<sizeof(T)>(stage + place(i), src + base + i);
  } else {
    for (std::uint32_t i = threadIdx.x; i < count; i += BlockThreads) stage[place(i)] = src[base + i];
  }
}

// The tile in input order: stage[i] = src[base + i].
template <int BlockThreads, class T>
__device__ __forceinline__ void prefetch_tile(T* stage, const T* src, std::uint32_t base, std::uint32_t count,
                                              bool aligned16) {
  prefetch_placed<BlockThreads>(stage, src, base, count, aligned16, [](std::uint32_t i) { return i; });
}

// The tile as rows: item i goes to row i / Items, column i % Items, rows
// RowStride elements apart (Items * sizeof(T) a multiple of 16, so vectors
// never straddle rows).
template <int BlockThreads, int Items, std::uint32_t RowStride, class T>
__device__ __forceinline__ void prefetch_tile_rows(T* stage, const T* src, std::uint32_t base, std::uint32_t count,
                                                   bool aligned16) {
  static_assert((Items * sizeof(T)) % 16 == 0, "rows of whole 16-byte vectors");
  prefetch_placed<BlockThreads>(stage, src, base, count, aligned16, [](std::uint32_t i) {
    return i / Items * RowStride + i % Items;
  });
}

// Past this many buckets the write-out marks its stores L2 evict_last
// (measured faster from about a thousand buckets, no gain up to 256:
// docs/TUNING.md, "BMS write-out: L2 eviction priority"). The likely
// reason: every chunk (block) leaves a partly written sector open in each
// bucket until its next tile, and with many buckets the streaming input
// evicts them half written (ncu counts up to 1.4x the ideal DRAM traffic).
constexpr std::uint32_t kEvictLastMinBuckets = 257;

// A global store with an L2 eviction-priority policy (createpolicy).
template <class T>
__device__ __forceinline__ void store_with_policy(T* p, const T& v, std::uint64_t policy) {
  if constexpr (sizeof(T) == 4) {
    std::uint32_t bits;
    memcpy(&bits, &v, 4);
    asm volatile("st.global.L2::cache_hint.b32 [%0], %1, %2;\n" ::"l"(p), "r"(bits), "l"(policy) : "memory");
  } else if constexpr (sizeof(T) == 8) {
    unsigned long long bits;
    memcpy(&bits, &v, 8);
    asm volatile("st.global.L2::cache_hint.b64 [%0], %1, %2;\n" ::"l"(p), "l"(bits), "l"(policy) : "memory");
  } else {
    *p = v;
  }
}

// A plain store, or one under `policy`.
template <bool WithPolicy, class T>
__device__ __forceinline__ void store_out(T* p, const T& v, std::uint64_t policy) {
  if constexpr (WithPolicy) store_with_policy(p, v, policy);
  else *p = v;
}

template <int BlockThreads, int Items, bool StoreIds, bool EvictLast, bool Full, class Key, class Value,
          class BucketFn>
__device__ __forceinline__ void write_out_tile_stores(const BucketFn& fn, std::uint32_t m, std::uint32_t tile_count,
                                                      const Key* tile_keys, const Value* tile_values,
                                                      const std::uint16_t* tile_ids, const std::uint32_t* out_shift,
                                                      Key* __restrict__ keys_out, Value* __restrict__ values_out) {
  std::uint64_t policy = 0;
  if constexpr (EvictLast) asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;\n" : "=l"(policy));
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const std::uint32_t slot = static_cast<std::uint32_t>(j) * BlockThreads + threadIdx.x;
    if (Full || slot < tile_count) {
      const Key k = tile_keys[slot];
      std::uint32_t b;
      if constexpr (StoreIds) b = tile_ids[slot];
      else b = bucket_of(fn, k, m);
      const std::uint32_t dest = slot + out_shift[b];
      store_out<EvictLast>(keys_out + dest, k, policy);
      if constexpr (has_values<Value>()) store_out<EvictLast>(values_out + dest, tile_values[slot], policy);
    }
  }
}

// Writes a tile reordered by bucket in shared memory: slot s (s <
// tile_count) goes to s + out_shift[bucket]. The bucket is recomputed from
// the key unless StoreIds (the functor keeps state in shared memory: a
// binary search is worth storing, a shift or a multiply is not). Full: the
// tile is whole (tile_count == BlockThreads * Items), no per-slot checks.
template <int BlockThreads, int Items, bool StoreIds, bool Full = false, class Key, class Value, class BucketFn>
__device__ __forceinline__ void write_out_tile(const BucketFn& fn, std::uint32_t m, std::uint32_t tile_count,
                                               const Key* tile_keys, const Value* tile_values,
                                               const std::uint16_t* tile_ids, const std::uint32_t* out_shift,
                                               Key* __restrict__ keys_out, Value* __restrict__ values_out) {
  if (m >= kEvictLastMinBuckets)
    write_out_tile_stores<BlockThreads, Items, StoreIds, true, Full>(fn, m, tile_count, tile_keys, tile_values,
                                                                     tile_ids, out_shift, keys_out, values_out);
  else
    write_out_tile_stores<BlockThreads, Items, StoreIds, false, Full>(fn, m, tile_count, tile_keys, tile_values,
                                                                      tile_ids, out_shift, keys_out, values_out);
}

}  // namespace detail
}  // namespace multisplit
