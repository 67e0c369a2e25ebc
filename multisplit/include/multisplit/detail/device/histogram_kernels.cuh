// Device histogram on the multisplit pre-scan (Ashkiani et al., "GPU
// Multisplit", TOPC 2018, section 7: a histogram is a multisplit's pre-scan
// without the scan and the post-scan). One pass over the keys:
//
//   per warp: counts into the warp's own counter table in shared memory
//       (the pre-scan's per-warp counters), by one of two tunings:
//     - PlainAtomics (the default): every key adds 1 with a shared atomic;
//     - Ballots (the pre-scan's own counting): m <= 32: log2(m) ballots per
//       32-key window (detail::warp_match_small) and lane b keeps bucket b's
//       count in a register; m > 32: detail::warp_peers (ballots up to 8
//       bits, __match_any_sync above), the lowest lane of each group of
//       equal buckets adds the group size to the table;
//   per block: the warps' tables (or lane registers) are summed in shared
//       memory and each non-zero bucket total goes to the output with one
//       global atomicAdd (so a block adds at most m atomics, whatever n is).
//
// On an H200 the plain per-warp atomics won at every m <= 256, uniform,
// skewed and constant keys (docs/TUNING.md, "Histogram", has the numbers):
// Hopper's shared atomics are one instruction per 32 keys even when all
// keys are equal, the ballots log2(m) instructions and more.
//
// Counter tables: one per warp in shared memory while m * warps fits a
// modest budget (no contention between warps), else one per block (shared
// atomics from all warps), else, past what shared memory holds, the output
// array itself (global atomics, warp-aggregated: one per group of equal
// buckets).
//
// Keys are read coalesced, 16 per thread in flight (4 16-byte loads when
// the input is 16-byte aligned, see load_full_subtile).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "../common.cuh"
#include "../warp/warp_match.cuh"

namespace multisplit {
namespace detail {

enum class HistogramTable : int {
  LaneRegisters,  // m <= 32: counts in lane registers
  WarpShared,     // one counter table per warp in shared memory
  BlockShared,    // one table per block in shared memory
  Global,         // the output itself
};

template <class Key>
struct HistogramPolicy {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 16;  // keys per thread per sub-tile (loads in flight)
  // Per-warp tables while they take at most this much shared memory.
  static constexpr std::size_t kWarpTablesMaxBytes = 48 * 1024;
};

// Loads a full warp sub-tile of 32 * Items items from p + base into
// registers. With `vector` (p 16-byte aligned, base a multiple of 32 * Items)
// and items that pack into 16 bytes, lane l's q-th 16-byte load covers
// items base + q * 32 * kPer + l * kPer .. + kPer - 1 (kPer = 16 / sizeof(T)):
// a quarter of the load instructions for 4-byte items, each warp load still
// one contiguous 512-byte run. Otherwise item j of lane l is base + j * 32 + l.
// Which item lands where does not matter to a histogram or a reduction.
template <int Items, class T>
__device__ __forceinline__ void load_full_subtile(const T* __restrict__ p, std::uint32_t base, bool vector,
                                                  T (&out)[Items]) {
  const std::uint32_t lane = lane_id();
  constexpr bool kPacks = sizeof(T) <= 16 && 16 % sizeof(T) == 0 && (Items * sizeof(T)) % 16 == 0;
  if constexpr (kPacks) {
    if (vector) {
      constexpr int kVectors = static_cast<int>(Items * sizeof(T) / 16);
      const uint4* src = reinterpret_cast<const uint4*>(p + base);
      uint4 raw[kVectors];
#pragma unroll
      for (int q = 0; q < kVectors; ++q) raw[q] = src[q * kWarpThreads + lane];
      static_assert(sizeof(raw) == sizeof(out), "vector loads must cover the sub-tile");
      std::memcpy(out, raw, sizeof(out));
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < Items; ++j) out[j] = p[base + static_cast<std::uint32_t>(j) * kWarpThreads + lane];
}

// True when p may be read with load_full_subtile's 16-byte vector loads.
template <class T>
bool vector_loadable(const T* p) {
  return p != nullptr && reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Count one 32-key window; all lanes call it. valid_mask != 0.
template <bool kRegisters, bool kAggregate, class Key, class BucketFn>
__device__ __forceinline__ void histogram_window(const Key& key, bool valid, std::uint32_t valid_mask, std::uint32_t m,
                                                 int bits, const BucketFn& fn, std::uint32_t* table,
                                                 std::uint32_t& lane_count) {
  const std::uint32_t b = valid ? bucket_of(fn, key, m) : 0u;
  if constexpr (kRegisters) {
    // Lanes >= m may collect counts of aliased ids; they are never read.
    lane_count += static_cast<std::uint32_t>(__popc(warp_match_small(b, valid_mask, bits).lane_bucket));
  } else if constexpr (kAggregate) {
    const std::uint32_t peers = warp_peers(b, valid_mask, bits);
    if (valid && static_cast<std::uint32_t>(__ffs(peers) - 1) == lane_id())
      atomicAdd(table + b, static_cast<std::uint32_t>(__popc(peers)));
  } else {
    if (valid) atomicAdd(table + b, 1u);
  }
}

// Count one warp sub-tile of 32 * Items keys starting at `base`: a full one
// with all Items loads in flight first; the last, partial one window by
// window (not unrolled: it runs once per warp, and this halves the code).
template <bool kRegisters, bool kAggregate, int Items, class Key, class BucketFn>
__device__ __forceinline__ void histogram_subtile(const Key* __restrict__ keys, std::uint32_t base, std::uint32_t n,
                                                  bool vector, std::uint32_t m, int bits, const BucketFn& fn,
                                                  std::uint32_t* table, std::uint32_t& lane_count) {
  const std::uint32_t lane = lane_id();
  if (base + kWarpThreads * Items <= n) {
    Key key[Items];
    load_full_subtile<Items>(keys, base, vector, key);
#pragma unroll
    for (int j = 0; j < Items; ++j)
      histogram_window<kRegisters, kAggregate>(key[j], true, kFullMask, m, bits, fn, table, lane_count);
    return;
  }
#pragma unroll 1
  for (std::uint32_t window = base; window < n; window += kWarpThreads) {  // warp-uniform bounds
    const std::uint32_t idx = window + lane;
    const bool valid = idx < n;
    const Key key = valid ? keys[idx] : Key{};
    histogram_window<kRegisters, kAggregate>(key, valid, __ballot_sync(kFullMask, valid), m, bits, fn, table,
                                             lane_count);
  }
}

template <bool kRegisters, bool kAggregate, int Threads, int Items, class Key, class BucketFn>
__device__ __forceinline__ void histogram_tiles(const Key* __restrict__ keys, std::uint32_t n, bool vector,
                                                std::uint32_t m, int bits, const BucketFn& fn, std::uint32_t* table,
                                                std::uint32_t& lane_count) {
  constexpr std::uint32_t kSubtile = kWarpThreads * Items;
  constexpr std::uint32_t kTile = (Threads / kWarpThreads) * kSubtile;
  const std::uint32_t warp = threadIdx.x / kWarpThreads;
  const std::uint32_t num_tiles = div_up(n, kTile);
  for (std::uint32_t tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    // base + kSubtile <= 2^31 - 1 + 2 * kTile: no overflow in 32 bits.
    const std::uint32_t base = tile * kTile + warp * kSubtile;
    if (base < n)
      histogram_subtile<kRegisters, kAggregate, Items>(keys, base, n, vector, m, bits, fn, table, lane_count);
  }
}

// Adds the histogram of keys[0, n) into counts[0, m) (which the caller
// zeroed); with device_n (a device-side count), of keys[0, min(*device_n,
// n)). Shared memory: functor bytes, then the counter tables:
// LaneRegisters warps * 32, WarpShared warps * m, BlockShared m words.
template <int Threads, int Items, class Key, class BucketFn>
__global__ void __launch_bounds__(Threads)
    histogram_kernel(const Key* __restrict__ keys, std::uint32_t n, const std::uint32_t* __restrict__ device_n,
                     bool vector, std::uint32_t m, int bits, BucketFn bucket_fn, std::uint32_t functor_bytes,
                     HistogramTable table_kind, bool aggregate,
                     std::uint32_t* __restrict__ counts) {
  if (device_n != nullptr) n = min(*device_n, n);  // block-uniform
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  constexpr std::uint32_t kWarps = Threads / kWarpThreads;
  const std::uint32_t warp = threadIdx.x / kWarpThreads;
  const std::uint32_t lane = lane_id();
  std::uint32_t* tables = reinterpret_cast<std::uint32_t*>(smem + functor_bytes);
  const std::uint32_t table_words = table_kind == HistogramTable::LaneRegisters ? kWarps * kWarpThreads
                                    : table_kind == HistogramTable::WarpShared  ? kWarps * m
                                    : table_kind == HistogramTable::BlockShared ? m
                                                                                : 0u;
  for (std::uint32_t i = threadIdx.x; i < table_words; i += Threads) tables[i] = 0;
  __syncthreads();

  std::uint32_t lane_count = 0;
  switch (table_kind) {
    case HistogramTable::LaneRegisters:
      histogram_tiles<true, true, Threads, Items>(keys, n, vector, m, bits, fn, nullptr, lane_count);
      tables[warp * kWarpThreads + lane] = lane_count;
      break;
    case HistogramTable::WarpShared:
    case HistogramTable::BlockShared: {
      std::uint32_t* table = table_kind == HistogramTable::WarpShared ? tables + warp * m : tables;
      if (aggregate)
        histogram_tiles<false, true, Threads, Items>(keys, n, vector, m, bits, fn, table, lane_count);
      else
        histogram_tiles<false, false, Threads, Items>(keys, n, vector, m, bits, fn, table, lane_count);
      break;
    }
    case HistogramTable::Global:
      // Warp-aggregated global atomics straight into the output: nothing to combine.
      histogram_tiles<false, true, Threads, Items>(keys, n, vector, m, bits, fn, counts, lane_count);
      return;
  }
  __syncthreads();
  // Block combine: sum the warps' tables, one global atomic per non-empty bucket.
  const std::uint32_t copies = table_kind == HistogramTable::BlockShared ? 1u : kWarps;
  const std::uint32_t stride = table_kind == HistogramTable::LaneRegisters ? kWarpThreads : m;
  for (std::uint32_t b = threadIdx.x; b < m; b += Threads) {
    std::uint32_t sum = 0;
    for (std::uint32_t w = 0; w < copies; ++w) sum += tables[w * stride + b];
    if (sum != 0) atomicAdd(counts + b, sum);
  }
}

}  // namespace detail
}  // namespace multisplit
