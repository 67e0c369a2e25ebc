// The bucketing strategies' full split (bucketing.cuh) on the device: a
// kernel that the host enqueues last in every step of the device loop
// (engine.cuh, engine_resolve_pause) cuts the pile into the B + 1 buckets,
// instead of the loop pausing for the host to launch a device-wide split.
// That pause costs a host round trip and a chain of launches per full split
// (docs/TUNING.md, "Full splits in the block" and "Full splits in the
// grid"). A pile of up to kBlockSplitMaxItems entries is split by one block;
// a larger one by every block of a cooperative grid, each taking a
// contiguous run of tiles, with grid barriers between the passes. It is the
// multisplit of Ashkiani et al., "GPU Multisplit" (PPoPP 2016) inside a graph
// kernel, on the library's block collective (multisplit::BlockMultisplit).
//
// Two steps, all threads of the group:
//   1. de-duplicate (stamps) and find the smallest live distance, whose
//      window becomes ready bucket 0 (the base); in a grid, through a
//      global atomicMin and a grid barrier;
//   2. split the pile by bucket with multisplit::GridMultisplit (count,
//      then rank and write tile by tile; one block alone, or the grid).
// The result has the device-wide split's layout: buckets 0 .. B - 1 in
// out[offsets[b] .. offsets[b + 1]), offsets[B + 1] = n, the discarded
// entries (bucket B) last.
#pragma once

#include <cooperative_groups.h>

#include <cstddef>
#include <cstdint>

#include <multisplit/grid_multisplit.cuh>

#include "sssp/common/labels.cuh"
#include "sssp/engine/narrow_relax.cuh"
#include "sssp/balance/relax.cuh"

namespace sssp::detail {

// Largest pile split in one block (kBlockSplitMaxItems, plan.hpp; larger
// ones: in the grid), and the most buckets (B + 1, the discard bucket
// included) a device split handles; more pause for the host's device-wide
// split.
constexpr std::uint32_t kBlockSplitMaxBuckets = 64;
constexpr int kBlockSplitItemsPerThread = 4;

// Bucket of an entry whose window is `b`: relative to the base for ready
// buckets 0 .. windows - 2, windows - 1 for everything further, `windows` for
// stale entries (window at most the current one). Shared with the
// device-wide split's functor (bucketing.cuh, DistanceBuckets).
__host__ __device__ __forceinline__ std::uint32_t bucket_slot(std::uint64_t b, std::uint64_t window, std::uint64_t base,
                                                              std::uint32_t windows) {
  if (b <= window) return windows;
  const std::uint64_t rel = b > base ? b - base : 0;
  return rel < windows - 1 ? static_cast<std::uint32_t>(rel) : windows - 1;
}

// The smallest of the warp's values, in lane 0.
__device__ __forceinline__ unsigned long long warp_min_to_lane0(unsigned long long x) {
  for (int off = 16; off > 0; off >>= 1) {
    const unsigned long long other = __shfl_down_sync(0xFFFFFFFFu, x, off);
    x = other < x ? other : x;
  }
  return x;
}

using PileSplit = multisplit::GridMultisplit<std::uint32_t, cub::NullType, kSmallBlock, kBlockSplitItemsPerThread,
                                             kBlockSplitMaxBuckets>;

// Shared memory of a full split.
struct BlockSplitShared {
  typename PileSplit::TempStorage split;
  unsigned long long warp_min[kSmallBlock / 32];
  unsigned long long min_key;
};

// The pile: `n_a` entries at `a`, then `n_b` at `b` (the last split's
// overflow bucket and the far pile).
struct SplitInput {
  std::uint32_t* a;
  std::uint32_t n_a;
  std::uint32_t* b;
  std::uint32_t n_b;
  __device__ __forceinline__ std::uint32_t* at(std::uint32_t i) const { return i < n_a ? a + i : b + (i - n_a); }
  // Item i, past L1: other blocks of the split may have marked it.
  __device__ __forceinline__ std::uint32_t operator[](std::uint32_t i) const { return __ldcg(at(i)); }
};

// Who splits: one block (the default), or every block of a cooperative grid
// (block_counts set): block_counts holds PileSplit::ScratchWords(gridDim.x)
// words, and min_key (global) is infinite on entry and again on return.
struct SplitGroup {
  std::uint32_t* block_counts = nullptr;
  unsigned long long* min_key = nullptr;
  __device__ __forceinline__ bool grid() const { return block_counts != nullptr; }
};

// Splits `in` into `out` and `offsets` (global, windows + 2 entries) around
// the current window; returns the base window (ready bucket 0) in every
// thread. Duplicates are marked kNoItem in the input with `stamp` (a stamp
// no round uses). All threads of the group call it; it ends with a block
// barrier. In a grid, only block 0 writes `offsets`.
template <class Codec>
__device__ unsigned long long split_pile(const label_t* labels, std::uint32_t* stamps, std::uint32_t stamp,
                                         const SplitInput& in, std::uint32_t* out, std::uint32_t* offsets,
                                         std::uint32_t windows, unsigned long long window, typename Codec::Delta delta,
                                         BlockSplitShared& sh, const SplitGroup& group) {
  constexpr int kItems = kBlockSplitItemsPerThread;
  constexpr std::uint32_t kTile = kSmallBlock * kItems;
  const std::uint32_t tid = threadIdx.x, n = in.n_a + in.n_b;
  const std::uint32_t blocks = group.grid() ? gridDim.x : 1, me = group.grid() ? blockIdx.x : 0;
  const auto tiles = static_cast<std::uint32_t>((std::uint64_t{n} + kTile - 1) / kTile);
  // This thread's entries of tile t (striped; kNoItem past n).
  const auto load_tile = [&](std::uint32_t t, std::uint32_t (&v)[kItems]) {
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const std::uint32_t i = t * kTile + j * kSmallBlock + tid;
      v[j] = i < n ? __ldcg(in.at(i)) : kNoItem;
    }
  };

  // 1. De-duplicate; the smallest key past the window.
  unsigned long long best = Codec::inf_key();
  for (std::uint32_t t = me; t < tiles; t += blocks) {
    std::uint32_t v[kItems];
    load_tile(t, v);
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      if (v[j] != kNoItem && global_atomic_exch(stamps + v[j], stamp) == stamp) {
        *in.at(t * kTile + j * kSmallBlock + tid) = kNoItem;
        v[j] = kNoItem;
      }
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      if (v[j] == kNoItem) continue;
      const auto d = Codec::dist(load_label(labels + v[j]));
      if (bucket_of(d, delta) <= window) continue;
      const unsigned long long k = Codec::key(d);
      best = k < best ? k : best;
    }
  }
  best = warp_min_to_lane0(best);
  if (tid % 32 == 0) sh.warp_min[tid / 32] = best;
  __syncthreads();  // also orders pass 1's kNoItem marks before the reads below
  if (tid == 0) {
    unsigned long long m = sh.warp_min[0];
    for (int w = 1; w < kSmallBlock / 32; ++w) m = sh.warp_min[w] < m ? sh.warp_min[w] : m;
    sh.min_key = m;
    if (group.grid() && m != Codec::inf_key()) atomicMin(group.min_key, m);
  }
  if (group.grid()) {
    cooperative_groups::this_grid().sync();  // also makes every block's kNoItem marks visible
    if (tid == 0) sh.min_key = __ldcg(group.min_key);
  }
  __syncthreads();
  const unsigned long long base =
      sh.min_key == Codec::inf_key() ? window + 1 : bucket_of(Codec::dist_from_key(sh.min_key), delta);
  const auto bucket = [&](std::uint32_t v) -> std::uint32_t {
    if (v == kNoItem) return windows;
    return bucket_slot(bucket_of(Codec::dist(load_label(labels + v)), delta), window, base, windows);
  };

  // 2. The split itself (the library's grid collective; one block alone
  // when the group is one block). The discarded entries of bucket B are
  // written too, past the others.
  PileSplit(sh.split, group.grid() ? group.block_counts : nullptr)
      .Split(in, out, n, bucket, windows + 1, offsets);  // in a grid, ends with a grid barrier
  if (group.grid() && blockIdx.x == 0 && tid == 0) *group.min_key = Codec::inf_key();  // every block has read it
  __syncthreads();
  return base;
}

}  // namespace sssp::detail
