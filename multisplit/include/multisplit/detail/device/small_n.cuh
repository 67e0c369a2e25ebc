// Small-n multisplit (Method::SmallN): the whole split in
// ONE cooperative kernel launch and one pass over the data, for inputs that
// fit in one tile per co-resident block.
//
// Grid: G = ceil(n_max / TILE) blocks (n_max = n, or max_items for a device
// count), every one of them resident at once: the kernel is launched with
// cudaLaunchKernelEx and cudaLaunchAttributeCooperative, and the dispatch
// only chooses this method when G <= (resident blocks per SM from the
// occupancy calculator) x (SM count), which is exactly the condition under
// which CUDA accepts a cooperative launch. Block i:
//   1. loads tile i (items [i * TILE, (i + 1) * TILE) below n) into
//      registers (keys, and values for pairs) and ranks it stably with
//      BlockMultisplit::RankBuckets (per-bucket tile offsets + the slot of
//      every item in the tile reordered by bucket);
//   2. publishes its per-bucket counts: counts[b * G + i];
//   3. grid.sync() (cooperative groups; every block of the grid reaches it,
//      no block returns early);
//   4. gets, for every bucket b, total(b) = sum over all blocks and
//      before(b, i) = sum over blocks < i (SmallNGather, chosen on the host
//      by the rounds of dependent L2 reads each way costs):
//        * kWarpRows: every block reads the G x m matrix itself, a warp per
//          bucket row (ceil(m / 8) * ceil(G / 32) rounds; few buckets);
//        * kThreadRows: the same, a thread per bucket row, loads unrolled
//          (ceil(G / 8) rounds; many buckets, few blocks);
//        * kTwoLevel (both above kSmallNMaxRounds): warp w of the grid scans
//          bucket rows w, w + 8G, ... in place (counts[b * G + i] becomes
//          before(b, i)) and writes totals[b], then a second grid.sync();
//          each block then reads m totals and its own column;
//   5. bucket start(b) = exclusive scan of the totals (one cub::BlockScan);
//      item of bucket b at tile slot s goes to start(b) + before(b, i) +
//      s - tile_offset(b): the tile is staged in shared memory in bucket
//      order and written out with consecutive threads on consecutive
//      slots (coalesced), keys and values;
//   6. block 0 writes d_offsets[0..m] (d_offsets[m] = n).
// Stable: RankBuckets keeps input order inside a tile; tiles are ordered by
// block index through before(b, i).
//
// Why it cannot deadlock: the only inter-block waits are grid.sync() of a
// cooperative launch, which CUDA accepts only when every block of the grid
// can be resident at once (else the launch fails with
// cudaErrorCooperativeLaunchTooLarge: an error, not a hang; the dispatch
// sizes the grid from the same occupancy query so that it does not happen).
// Every block reaches every grid.sync(): no block returns early, and the
// gather mode (one barrier or two) is a kernel argument, the same for all
// blocks. No block spins on a flag of its own making.
//
// No state survives a launch: counts/totals are fully written by the launch
// before they are read (after a grid.sync()), so back-to-back calls, CUDA
// graph replays (cooperative kernel nodes are capturable) and poisoned or
// reused temporary storage all work without any memset.
#pragma once

#include <cooperative_groups.h>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../../block_multisplit.cuh"
#include "../common.cuh"

namespace multisplit {
namespace detail {

// Auto picks SmallN up to this many items (n, or max_items for device
// counts), where the device can hold the grid; asked for explicitly, SmallN
// runs up to the device's capacity (SmallNPolicy::kTile x resident blocks).
// 2^18 is the issue's "a few hundred thousand" (128 tiles of 2048 keys); where
// SmallN stops beating Block is to be read off multisplit_small_n_bench.
#ifndef MULTISPLIT_SMALL_N_AUTO_MAX_ITEMS
#define MULTISPLIT_SMALL_N_AUTO_MAX_ITEMS (1u << 18)
#endif
constexpr std::uint32_t kSmallNAutoMaxItems = MULTISPLIT_SMALL_N_AUTO_MAX_ITEMS;

// How the blocks get the bucket totals and their prefixes after the first
// grid barrier (see above). kSmallNMaxRounds: the most rounds of dependent
// L2 reads a one-barrier gather may take before the two-level one (a second
// grid barrier, little reading) is used instead. A tuning guess, not
// measured yet.
enum class SmallNGather : int { kWarpRows = 0, kThreadRows = 1, kTwoLevel = 2 };
#ifndef MULTISPLIT_SMALL_N_MAX_ROUNDS
#define MULTISPLIT_SMALL_N_MAX_ROUNDS 6
#endif
constexpr std::uint32_t kSmallNMaxRounds = MULTISPLIT_SMALL_N_MAX_ROUNDS;

template <class Key, class Value>
struct SmallNPolicy {
  static constexpr bool kPairs = has_values<Value>();
  static constexpr std::size_t kItemBytes = sizeof(Key) + (kPairs ? sizeof(Value) : 0);
  // 512 threads x 4 items: the split is latency-bound, and twice the warps
  // of 256 x 8 rank the tile in half the sequential windows (docs/TUNING.md,
  // "SmallN block shape"); 1024 x 2 does not fit 48 KB of static shared memory.
  static constexpr int kThreads = 512;
  static constexpr int kMaxBuckets = 256;  // bucket ids staged as bytes; BlockMultisplit's MAX_BUCKETS
  static constexpr int kItems = kItemBytes <= 16 ? 4 : kItemBytes <= 32 ? 2 : 1;
  static constexpr std::uint32_t kTile = static_cast<std::uint32_t>(kThreads) * kItems;
  static constexpr std::uint32_t kWarps = kThreads / 32;
  // The staged tile (keys, values, one byte of bucket id per item) must fit
  // the static shared memory next to the rest; else the method is not offered.
  static constexpr bool kSupported = kTile * (kItemBytes + 1) <= 40u * 1024u;
  static_assert(kMaxBuckets <= kThreads, "one bucket per thread in the bucket scan");
};

template <class Value, int Threads, int Items, bool = has_values<Value>()>
struct SmallNValueLoad {
  struct TempStorage {};
};
template <class Value, int Threads, int Items>
struct SmallNValueLoad<Value, Threads, Items, true> {
  using Load = cub::BlockLoad<Value, Threads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using TempStorage = typename Load::TempStorage;
};

// Sum over the warp's 32 lanes (every lane gets it); all lanes call it.
__device__ __forceinline__ std::uint32_t small_n_warp_sum(std::uint32_t x) {
#pragma unroll
  for (int delta = 16; delta > 0; delta >>= 1) x += __shfl_xor_sync(kFullMask, x, delta);
  return x;
}

template <class Key, class Value, class BucketFn>
__global__ void __launch_bounds__(SmallNPolicy<Key, Value>::kThreads)
    small_n_split_kernel(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                         std::uint32_t max_n, const std::uint32_t* device_n, std::uint32_t m, BucketFn bucket_fn,
                         std::uint32_t* counts, std::uint32_t* totals, SmallNGather gather,
                         std::uint32_t* d_offsets) {
  using P = SmallNPolicy<Key, Value>;
  constexpr int kThreads = P::kThreads;
  constexpr int kItems = P::kItems;
  constexpr std::uint32_t kTile = P::kTile;
  constexpr std::uint32_t kWarps = P::kWarps;
  constexpr bool kPairs = P::kPairs;
  using BlockSplit = BlockMultisplit<Key, Value, kThreads, kItems, P::kMaxBuckets>;
  using KeyLoad = cub::BlockLoad<Key, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using ValueLoad = SmallNValueLoad<Value, kThreads, kItems>;
  using StageValue = typename std::conditional<kPairs, Value, char>::type;
  using Scan = cub::BlockScan<std::uint32_t, kThreads>;
  struct Stage {
    Key keys[kTile];
    StageValue values[kPairs ? kTile : 1];
    std::uint8_t ids[kTile];
  };
  union Shared {
    typename KeyLoad::TempStorage key_load;
    typename ValueLoad::TempStorage value_load;
    typename BlockSplit::TempStorage split;
    Stage stage;
  };
  __shared__ Shared s;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ std::uint32_t tile_offsets[P::kMaxBuckets + 1];
  __shared__ std::uint32_t bucket_total[P::kMaxBuckets];
  __shared__ std::uint32_t bucket_before[P::kMaxBuckets];
  __shared__ std::uint32_t bucket_base[P::kMaxBuckets];
  extern __shared__ __align__(16) unsigned char functor_smem[];

  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const BucketFn fn = bind_functor(bucket_fn, functor_smem);
  const std::uint32_t tid = threadIdx.x;
  const std::uint32_t warp = tid / kWarpThreads;
  const std::uint32_t lane = tid % kWarpThreads;
  const std::uint32_t block = blockIdx.x;
  const std::uint32_t num_blocks = gridDim.x;
  std::uint32_t n = max_n;
  if (device_n != nullptr) {
    const std::uint32_t count = *device_n;
    n = count < max_n ? count : max_n;
  }
  const std::uint32_t tile_begin = block * kTile;
  const std::uint32_t valid = tile_begin < n ? (n - tile_begin < kTile ? n - tile_begin : kTile) : 0u;

  // 1. Load the tile (blocked arrangement) and rank it.
  Key keys[kItems];
  Value values[kItems];
  if (valid > 0) {  // block-uniform
    KeyLoad(s.key_load).Load(keys_in + tile_begin, keys, static_cast<int>(valid));
    if constexpr (kPairs) {
      __syncthreads();  // value_load aliases key_load
      using LoadValues = typename ValueLoad::Load;
      LoadValues(s.value_load).Load(values_in + tile_begin, values, static_cast<int>(valid));
    }
  }
  __syncthreads();  // the load storage aliases the split's
  std::uint32_t buckets[kItems];
  std::uint32_t ranks[kItems];
  BlockSplit::BucketsOf(keys, buckets, fn, m, valid);
  BlockSplit(s.split).RankBuckets(buckets, ranks, m, tile_offsets, valid);  // ends with __syncthreads()

  // 2. Publish this tile's per-bucket counts; 3. wait for every block.
  // grid.sync() orders them for every block (a block barrier, then its
  // first thread's release/acquire at GPU scope), so no fence per thread.
  for (std::uint32_t b = tid; b < m; b += kThreads) counts[b * num_blocks + block] = tile_offsets[b + 1] - tile_offsets[b];
  grid.sync();

  // 4. total(b) and before(b, block) into shared memory.
  if (gather == SmallNGather::kWarpRows) {
    for (std::uint32_t b = warp; b < m; b += kWarps) {  // warp-uniform loops
      std::uint32_t total = 0, before = 0;
      for (std::uint32_t i = lane; i < num_blocks; i += kWarpThreads) {
        const std::uint32_t c = __ldcg(counts + b * num_blocks + i);
        total += c;
        before += i < block ? c : 0u;
      }
      total = small_n_warp_sum(total);
      before = small_n_warp_sum(before);
      if (lane == 0) {
        bucket_total[b] = total;
        bucket_before[b] = before;
      }
    }
  } else if (gather == SmallNGather::kThreadRows) {
    for (std::uint32_t b = tid; b < m; b += kThreads) {
      const std::uint32_t* row = counts + b * num_blocks;
      std::uint32_t total = 0, before = 0;
#pragma unroll 8
      for (std::uint32_t i = 0; i < num_blocks; ++i) {
        const std::uint32_t c = __ldcg(row + i);
        total += c;
        before += i < block ? c : 0u;
      }
      bucket_total[b] = total;
      bucket_before[b] = before;
    }
  } else {
    // Bucket rows scanned in place by the grid's warps: counts[b * G + i]
    // becomes before(b, i); totals[b] the row's sum. Only the warp owning
    // row b touches it, and each lane reads a cell before writing it.
    const std::uint32_t grid_warps = num_blocks * kWarps;
    for (std::uint32_t b = block * kWarps + warp; b < m; b += grid_warps) {
      std::uint32_t carry = 0;
      for (std::uint32_t base = 0; base < num_blocks; base += kWarpThreads) {
        const std::uint32_t i = base + lane;
        const std::uint32_t c = i < num_blocks ? __ldcg(counts + b * num_blocks + i) : 0u;
        std::uint32_t chunk_total = 0;
        const std::uint32_t excl = warp_exclusive_sum(c, &chunk_total);
        if (i < num_blocks) counts[b * num_blocks + i] = carry + excl;
        carry += chunk_total;
      }
      if (lane == 0) totals[b] = carry;
    }
    grid.sync();
    for (std::uint32_t b = tid; b < m; b += kThreads) {
      bucket_total[b] = __ldcg(totals + b);
      bucket_before[b] = __ldcg(counts + b * num_blocks + block);
    }
  }
  __syncthreads();

  // 5. Bucket starts (m <= kThreads: one bucket per thread), then where this
  // tile's slots go: slot s of bucket b -> bucket_base[b] + s.
  const std::uint32_t my_total = tid < m ? bucket_total[tid] : 0u;
  std::uint32_t start = 0;
  Scan(scan_storage).ExclusiveSum(my_total, start);
  if (tid < m) {
    // Modulo 2^32: bucket_base[b] + s is exact for every slot s >= tile_offsets[b].
    bucket_base[tid] = start + bucket_before[tid] - tile_offsets[tid];
    if (block == 0) d_offsets[tid] = start;
  }
  if (block == 0 && tid == 0) d_offsets[m] = n;

  // 6. Stage the tile in bucket order (the split storage is free: RankBuckets
  // ended with a barrier, and barriers followed), then write it out.
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    if (tid * kItems + static_cast<std::uint32_t>(j) < valid) {
      const std::uint32_t r = ranks[j];
      s.stage.keys[r] = keys[j];
      if constexpr (kPairs) s.stage.values[r] = values[j];
      s.stage.ids[r] = static_cast<std::uint8_t>(buckets[j]);
    }
  }
  __syncthreads();
  for (std::uint32_t slot = tid; slot < valid; slot += kThreads) {
    const std::uint32_t dst = bucket_base[s.stage.ids[slot]] + slot;
    keys_out[dst] = s.stage.keys[slot];
    if constexpr (kPairs) values_out[dst] = s.stage.values[slot];
  }
}

// Host side: capacity, plan, launch.
template <class Key, class Value, class BucketFn>
struct SmallN {
  using P = SmallNPolicy<Key, Value>;
  enum { kCounts, kTotals, kParts };

  static auto kernel() { return small_n_split_kernel<Key, Value, BucketFn>; }

  // Items one split can take on the current device (0: not offered: item
  // types too large, no cooperative launch, or m too large). Occupancy is
  // cached per device for functors without shared memory (the common case),
  // so that the call costs little host time.
  static cudaError_t capacity(std::uint32_t m, std::size_t functor_bytes, int device, int sm_count,
                              bool cooperative, std::uint32_t& items) {
    items = 0;
    if constexpr (!P::kSupported) {
      return cudaSuccess;
    } else {
      if (!cooperative || m > static_cast<std::uint32_t>(P::kMaxBuckets) || m == 0) return cudaSuccess;
      int blocks_per_sm = 0;
      constexpr int kCachedDevices = 64;
      static std::atomic<int> cache[kCachedDevices];  // zero-initialised (static storage)
      const bool cacheable = functor_bytes == 0 && device >= 0 && device < kCachedDevices;
      if (cacheable) blocks_per_sm = cache[device].load(std::memory_order_relaxed);
      if (blocks_per_sm <= 0) {
        if (functor_bytes > 0)
          MULTISPLIT_RETURN_IF_ERROR(cudaFuncSetAttribute(kernel(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                          static_cast<int>(functor_bytes)));
        MULTISPLIT_RETURN_IF_ERROR(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel(), P::kThreads, functor_bytes));
        if (cacheable && blocks_per_sm > 0) cache[device].store(blocks_per_sm, std::memory_order_relaxed);
      }
      if (blocks_per_sm <= 0) return cudaSuccess;
      const std::uint64_t cap = static_cast<std::uint64_t>(blocks_per_sm) * static_cast<std::uint64_t>(sm_count) * P::kTile;
      items = cap > 0x7FFFFFFFull ? 0x7FFFFFFFu : static_cast<std::uint32_t>(cap);
      return cudaSuccess;
    }
  }

  static std::uint32_t grid_for(std::uint32_t max_n) { return max_n == 0 ? 1u : div_up(max_n, P::kTile); }

  // Temporary storage for up to max_n items (1 byte for max_n == 0, which
  // launches nothing).
  static TempLayout<kParts> layout(std::uint32_t max_n, std::uint32_t m) {
    TempLayout<kParts> t;
    if (max_n > 0) {
      t.bytes[kCounts] = static_cast<std::size_t>(grid_for(max_n)) * m * sizeof(std::uint32_t);
      t.bytes[kTotals] = static_cast<std::size_t>(m) * sizeof(std::uint32_t);
    }
    t.finish();
    return t;
  }

  // One cooperative launch over max_n items (device_n: read min(*device_n,
  // max_n) on the device; nullptr: max_n is exact). max_n > 0.
  static cudaError_t run(void* d_temp, const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                         std::uint32_t max_n, const std::uint32_t* device_n, std::uint32_t m, const BucketFn& fn,
                         std::uint32_t* d_offsets, cudaStream_t stream) {
    if constexpr (!P::kSupported) {
      return cudaErrorNotSupported;
    } else {
      const TempLayout<kParts> t = layout(max_n, m);
      std::uint32_t* counts = t.template get<std::uint32_t>(d_temp, kCounts);
      std::uint32_t* totals = t.template get<std::uint32_t>(d_temp, kTotals);
      const std::uint32_t grid = grid_for(max_n);
      // Few rounds of reads: every block reads the count matrix itself (one
      // grid barrier); many: the grid scans it first (two barriers).
      const std::uint32_t warp_rounds = div_up(m, P::kWarps) * div_up(grid, kWarpThreads);
      const std::uint32_t thread_rounds = div_up(grid, 8);
      const SmallNGather gather = warp_rounds <= thread_rounds
                                      ? (warp_rounds <= kSmallNMaxRounds ? SmallNGather::kWarpRows
                                                                         : SmallNGather::kTwoLevel)
                                      : (thread_rounds <= kSmallNMaxRounds ? SmallNGather::kThreadRows
                                                                           : SmallNGather::kTwoLevel);
      const std::size_t functor_bytes = functor_shared_bytes(fn);
      if (functor_bytes > 0)
        MULTISPLIT_RETURN_IF_ERROR(cudaFuncSetAttribute(kernel(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                        static_cast<int>(functor_bytes)));
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(grid);
      config.blockDim = dim3(P::kThreads);
      config.dynamicSmemBytes = functor_bytes;
      config.stream = stream;
      cudaLaunchAttribute attribute[1];
      attribute[0].id = cudaLaunchAttributeCooperative;
      attribute[0].val.cooperative = 1;
      config.attrs = attribute;
      config.numAttrs = 1;
      return cudaLaunchKernelEx(&config, kernel(), keys_in, keys_out, values_in, values_out, max_n, device_n, m, fn,
                                counts, totals, gather, d_offsets);
    }
  }
};

}  // namespace detail
}  // namespace multisplit
