// Dispatch: choose the method (resolving Auto and methods asked for beyond
// their bucket limits), size the temporary storage, launch the kernels.
#pragma once

#include <cub/device/device_scan.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "../../method.hpp"
#include "../common.cuh"
#include "chunk_layout.cuh"
#include "counting_prescan.cuh"
#include "policies.cuh"
#include "small_n.cuh"
#include "sort_based.cuh"
#include "three_phase_kernels.cuh"

namespace multisplit {
namespace detail {

struct DeviceLimits {
  int device = 0;
  int sm_count = 0;
  std::size_t max_shared_bytes = 48 * 1024;  // opt-in limit per block
  bool cooperative = false;                  // cooperative launches (Method::SmallN)
};

inline cudaError_t query_device(DeviceLimits& limits) {
  int device = 0;
  MULTISPLIT_RETURN_IF_ERROR(cudaGetDevice(&device));
  int sm_count = 0, max_shared = 0, cooperative = 0;
  MULTISPLIT_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  MULTISPLIT_RETURN_IF_ERROR(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  MULTISPLIT_RETURN_IF_ERROR(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  limits.device = device;
  limits.sm_count = sm_count;
  limits.cooperative = cooperative != 0;
  limits.max_shared_bytes = static_cast<std::size_t>(max_shared);
  return cudaSuccess;
}

// Shared memory each method's post-scan needs for m buckets (0 = cannot).
template <class Key, class Value>
struct MethodFootprint {
  using P = Policies<Key, Value>;

  static std::uint32_t direct_warps(std::uint32_t m) { return m <= P::kDirectWideBlockBuckets ? 8u : 4u; }
  static std::size_t direct_bytes(std::uint32_t m) {
    return m <= 32 ? 0 : static_cast<std::size_t>(direct_warps(m)) * m * sizeof(std::uint32_t);
  }
  static std::size_t warp_bytes(std::uint32_t m) {
    return static_cast<std::size_t>(P::kWarpBlockThreads / 32) * warp_postscan_warp_bytes<P::kWarpItems, Key, Value>(m);
  }
  // BMS tiles of few buckets rank with thread-private counters.
  static bool block_thread_counts(std::uint32_t m) {
    using Tile = BlockTileThreadCounts<P::kBlockThreads, P::kBlockItems, Key, Value, NoBucketFn>;
    return Tile::supported() && m <= P::kThreadCountsMaxBuckets;
  }
  static std::size_t block_bytes(std::uint32_t m, bool store_ids) {
    if (block_thread_counts(m)) return block_thread_counts_bytes<P::kBlockThreads, P::kBlockItems, Key, Value>(m, store_ids);
    return block_postscan_bytes<P::kBlockThreads, P::kBlockSplitItems, Key, Value>(m, store_ids);
  }
};

// The method that actually runs for a large n: Auto picks by bucket count
// (measured, see docs/TUNING.md, "Auto method"); an explicit method past its
// limits hands over to the next one that can (SmallN -> Block -> Direct ->
// SortBased, Warp -> Block). The small-n rule, which needs n, is applied on
// top by resolve_sized(). store_ids: the functor keeps state in shared
// memory (block_postscan.cuh).
template <class Key, class Value>
Method resolve(Method requested, std::uint32_t m, std::size_t functor_bytes, bool store_ids,
               const DeviceLimits& limits) {
  using P = Policies<Key, Value>;
  using F = MethodFootprint<Key, Value>;
  const std::size_t budget = limits.max_shared_bytes > functor_bytes ? limits.max_shared_bytes - functor_bytes : 0;
  const bool direct_ok =
      F::direct_bytes(m) <= budget && counting_prescan_copies(m, functor_bytes, limits.max_shared_bytes) > 0;
  const bool block_ok = m <= P::kBlockMaxBuckets && m <= kMaxSharedBucketId + 1 && F::block_bytes(m, store_ids) <= budget;
  const bool warp_ok = m <= P::kWarpMaxBuckets && F::warp_bytes(m) <= budget;

  Method method = requested;
  if (method == Method::Auto) {
    // The fastest method per bucket count in multisplit_bench (uniform keys,
    // delta and identity buckets). With the counting pre-scan and the
    // prefetching BMS post-scan, BMS beats RB-sort's single CUB pass for keys
    // up to its 2048-bucket limit, and for pairs up to 1024 buckets (with the
    // masked ranking past 32 buckets). With thread-counter tiles (m <= 32)
    // BMS also beats WMS for keys from m = 3, and since their rows are
    // counted in a register (m <= 8) DMS at m = 2 too. Numbers:
    // docs/TUNING.md, "Auto method".
    if (!has_values<Value>()) {
      if (m <= P::kBlockMaxBuckets) method = Method::Block;
      else method = Method::SortBased;
    } else {
      method = m <= 1024 ? Method::Block : Method::SortBased;
    }
  }
  if (method == Method::SmallN) method = Method::Block;  // n too large (or unknown here)
  if (method == Method::Warp && !warp_ok) method = Method::Block;
  if (method == Method::Block && !block_ok) method = Method::Direct;
  if (method == Method::Direct && !direct_ok) method = Method::SortBased;
  return method;
}

// ---------------------------------------------------------- three-phase
template <class Key, class Value, class BucketFn>
struct ThreePhase {
  using P = Policies<Key, Value>;
  using F = MethodFootprint<Key, Value>;
  enum { kCounts, kScanTemp, kParts };

  struct Plan {
    Method method = Method::Block;
    ChunkLayout layout;
    bool warp_chunks = false;
    bool thread_counts = false;  // Block with BlockTileThreadCounts tiles
    bool interleaved = false;    // Block: one chunk per tile, tiles dealt out to the blocks (block_postscan.cuh)
    std::uint32_t wide_threads = 0;  // Block, interleaved pairs: a 512- or 384-thread tile (policies.cuh); 0: not
    std::uint32_t post_threads = 0, post_grid = 0;
    std::size_t post_smem = 0;
    std::uint32_t pre_threads = 0, pre_grid = 0, pre_slices = 1, pre_copies = 1;
    std::size_t pre_smem = 0;
    std::uint32_t functor_bytes = 0;
    TempLayout<kParts> temp;
  };

  static auto direct_kernel() { return direct_postscan_kernel<P::kDirectItems, Key, Value, BucketFn>; }
  static auto warp_kernel() { return warp_postscan_kernel<P::kWarpItems, Key, Value, BucketFn>; }
  using BlockTile = BlockTileSplit<P::kBlockThreads, P::kBlockSplitItems, Key, Value, BucketFn>;
  using CountsTile = BlockTileThreadCounts<P::kBlockThreads, P::kBlockItems, Key, Value, BucketFn>;
  using BlockPost = BlockPostscan<BlockTile, Key, Value, BucketFn>;
  using WideTile = BlockTileSplit<P::kBlockWideThreads, P::kBlockSplitItems, Key, Value, BucketFn>;
  using WidePost = BlockPostscan<WideTile, Key, Value, BucketFn>;
  using MidTile = BlockTileSplit<P::kBlockMidThreads, P::kBlockSplitItems, Key, Value, BucketFn>;
  using MidPost = BlockPostscan<MidTile, Key, Value, BucketFn>;
  using CountsPost = BlockPostscan<CountsTile, Key, Value, BucketFn>;
  static auto counting_prescan() { return counting_prescan_kernel<kCountingPrescanThreads, Key, BucketFn>; }
  static auto tile_counting(std::uint32_t m) {
    return tile_counting_group(m) == kTileCountGroupWide
               ? tile_counting_kernel<kTileCountThreads, kTileCountGroupWide, Key, BucketFn>
               : tile_counting_kernel<kTileCountThreads, kTileCountGroupNarrow, Key, BucketFn>;
  }

  // The wide pair tiles need at least kWideTileMinTilesPerSm 512-thread
  // tiles' worth of pairs per SM (policies.cuh).
  static std::uint32_t wide_tile_min_items(const DeviceLimits& limits) {
    return P::kWideTileMinTilesPerSm * static_cast<std::uint32_t>(limits.sm_count) * WideTile::kTile;
  }

  // Plans the post-scan on wide pair tile Tile if its shared memory fits
  // (else leaves the plan as it is).
  template <class Tile, class Post>
  static cudaError_t take_wide_tile_if_it_fits(Plan& plan, std::uint32_t m, bool store_ids,
                                               const DeviceLimits& limits, int& blocks_per_sm) {
    const std::size_t smem = plan.functor_bytes + Tile::bytes(m, store_ids, 2);
    bool fits = false;
    MULTISPLIT_RETURN_IF_ERROR(fits_shared(Post::grid_kernel(true, m), smem, limits.max_shared_bytes, fits));
    if (!fits) return cudaSuccess;
    plan.wide_threads = static_cast<std::uint32_t>(Tile::kThreads);
    plan.post_threads = static_cast<std::uint32_t>(Tile::kThreads);
    plan.post_smem = smem;
    plan.layout.tile_items = Tile::kTile;
    return Post::blocks_per_sm(true, m, smem, blocks_per_sm);
  }

  // Pre-scan geometry for plan.layout: several blocks per chunk at full
  // occupancy (counting_prescan.cuh). Call again after re-cutting the layout.
  static cudaError_t plan_prescan(Plan& plan, std::uint32_t m, const DeviceLimits& limits) {
    plan.pre_copies = counting_prescan_copies(m, plan.functor_bytes, limits.max_shared_bytes);
    if (plan.pre_copies == 0) return cudaErrorInvalidConfiguration;
    plan.pre_slices = counting_prescan_slices(plan.layout, limits.sm_count);
    plan.pre_threads = kCountingPrescanThreads;
    plan.pre_smem = counting_prescan_smem(m, plan.pre_copies, plan.functor_bytes);
    plan.pre_grid = plan.layout.num_chunks * plan.pre_slices;
    if (plan.interleaved) {
      // One-tile chunks: the tile-counting kernel, a full-occupancy grid
      // walking groups of tiles.
      plan.pre_threads = kTileCountThreads;
      plan.pre_smem = tile_counting_smem(m, plan.functor_bytes);
      plan.pre_grid = std::min(div_up(plan.layout.num_chunks, tile_counting_group(m)),
                               static_cast<std::uint32_t>(limits.sm_count) * kCountingPrescanBlocksPerSm);
      return opt_in_shared(tile_counting(m), plan.pre_smem);
    }
    return opt_in_shared(counting_prescan(), plan.pre_smem);
  }

  static cudaError_t plan(Plan& plan, Method method, std::uint32_t n, std::uint32_t m, const BucketFn& fn,
                          const DeviceLimits& limits) {
    plan.method = method;
    plan.functor_bytes = static_cast<std::uint32_t>(functor_shared_bytes(fn));
    int blocks_per_sm = 0;
    std::uint32_t warps_per_block = 1;
    if (method == Method::Direct) {
      warps_per_block = F::direct_warps(m);
      plan.post_threads = warps_per_block * 32;
      plan.post_smem = plan.functor_bytes + F::direct_bytes(m);
      plan.layout.tile_items = 32u * P::kDirectItems;
      plan.warp_chunks = true;
      MULTISPLIT_RETURN_IF_ERROR(opt_in_shared(direct_kernel(), plan.post_smem));
      MULTISPLIT_RETURN_IF_ERROR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &blocks_per_sm, direct_kernel(), static_cast<int>(plan.post_threads), plan.post_smem));
    } else if (method == Method::Warp) {
      warps_per_block = P::kWarpBlockThreads / 32;
      plan.post_threads = P::kWarpBlockThreads;
      plan.post_smem = plan.functor_bytes + F::warp_bytes(m);
      plan.layout.tile_items = 32u * P::kWarpItems;
      plan.warp_chunks = true;
      MULTISPLIT_RETURN_IF_ERROR(opt_in_shared(warp_kernel(), plan.post_smem));
      MULTISPLIT_RETURN_IF_ERROR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &blocks_per_sm, warp_kernel(), static_cast<int>(plan.post_threads), plan.post_smem));
    } else {
      const bool store_ids = block_postscan_stores_ids<BucketFn>();
      plan.post_threads = P::kBlockThreads;
      plan.post_smem = plan.functor_bytes + F::block_bytes(m, store_ids);
      plan.warp_chunks = false;
      plan.thread_counts = F::block_thread_counts(m);
      plan.interleaved = !plan.thread_counts && P::interleave_tiles(m);
      plan.layout.tile_items =
          static_cast<std::uint32_t>(P::kBlockThreads) * (plan.thread_counts ? P::kBlockItems : P::kBlockSplitItems);
      if constexpr (P::kWideTileTypes) {
        if (plan.interleaved && P::wide_tile(m) && n >= wide_tile_min_items(limits)) {
          MULTISPLIT_RETURN_IF_ERROR(
              (take_wide_tile_if_it_fits<WideTile, WidePost>(plan, m, store_ids, limits, blocks_per_sm)));
          if (plan.wide_threads == 0)
            MULTISPLIT_RETURN_IF_ERROR(
                (take_wide_tile_if_it_fits<MidTile, MidPost>(plan, m, store_ids, limits, blocks_per_sm)));
        }
      }
      if (plan.wide_threads == 0)
        MULTISPLIT_RETURN_IF_ERROR(
            plan.thread_counts ? CountsPost::blocks_per_sm(false, m, plan.post_smem, blocks_per_sm)
                               : BlockPost::blocks_per_sm(plan.interleaved, m, plan.post_smem, blocks_per_sm));
    }
    if (blocks_per_sm < 1) return cudaErrorInvalidConfiguration;
    const std::uint32_t sms = static_cast<std::uint32_t>(limits.sm_count);
    if (plan.interleaved) {
      // One chunk per tile (the count matrix has m x tiles cells, rows
      // padded to whole 32-byte sectors by empty chunks past the last tile),
      // the resident grid taking the real tiles round-robin (pairs: in
      // order from a counter after the first round): tiles t and t + 1 are
      // in flight at once on different blocks, so every bucket's output
      // advances at one front (policies.cuh).
      plan.layout = ChunkLayout::one_per_tile(n, plan.layout.tile_items, kCountRowCells);
      plan.post_grid = std::min(std::max(1u, div_up(n, plan.layout.tile_items)),
                                static_cast<std::uint32_t>(blocks_per_sm) * sms);
    } else {
      const std::uint32_t unit = plan.warp_chunks ? warps_per_block : 1u;
      // One chunk per resident warp (or block): a single wave, evenly shared.
      std::uint32_t chunks = static_cast<std::uint32_t>(blocks_per_sm) * sms * unit;
      // Keep the m x chunks count matrix (and its scan) small next to n.
      const std::uint32_t scan_cap = std::max(sms * unit, div_up(n, m));
      chunks = std::min(chunks, scan_cap);
      plan.layout = ChunkLayout::make(n, plan.layout.tile_items, chunks);
      plan.post_grid = plan.warp_chunks ? div_up(plan.layout.num_chunks, warps_per_block) : plan.layout.num_chunks;
    }
    MULTISPLIT_RETURN_IF_ERROR(plan_prescan(plan, m, limits));
    const std::size_t cells = static_cast<std::size_t>(m) * plan.layout.num_chunks;
    // A size asked for n serves every smaller n (multisplit.cuh): with a
    // wide pair tile the matrix has fewer columns than the 256-thread
    // tile's just below wide_tile_min_items, so it is sized for those too.
    const std::size_t below_switch_cells =
        static_cast<std::size_t>(m) *
        ChunkLayout::one_per_tile(wide_tile_min_items(limits) - 1, BlockTile::kTile, kCountRowCells).num_chunks;
    const std::size_t sized_cells = plan.wide_threads != 0 ? std::max(cells, below_switch_cells) : cells;
    if (sized_cells > std::numeric_limits<std::uint32_t>::max()) return cudaErrorInvalidValue;
    // Interleaved: one word past the matrix counts the tiles handed out
    // (block_postscan.cuh); the tile-counting pre-scan zeroes it.
    plan.temp.bytes[kCounts] = (sized_cells + (plan.interleaved ? 1 : 0)) * sizeof(std::uint32_t);
    std::size_t scan_bytes = 0;
    MULTISPLIT_RETURN_IF_ERROR(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<std::uint32_t*>(nullptr),
                                                             static_cast<std::uint32_t*>(nullptr),
                                                             static_cast<std::uint32_t>(sized_cells)));
    plan.temp.bytes[kScanTemp] = scan_bytes;
    plan.temp.finish();
    return cudaSuccess;
  }

  // Fills counts[b * num_chunks + chunk] (the matrix the scan turns into offsets).
  static cudaError_t launch_prescan(const Plan& plan, const Key* keys_in, std::uint32_t m, const BucketFn& fn,
                                    std::uint32_t* counts, cudaStream_t stream) {
    if (plan.interleaved) {  // every cell stored once: no memset
      tile_counting(m)<<<plan.pre_grid, plan.pre_threads, plan.pre_smem, stream>>>(keys_in, plan.layout, m, fn,
                                                                                 plan.functor_bytes, counts);
      return cudaGetLastError();
    }
    MULTISPLIT_RETURN_IF_ERROR(cudaMemsetAsync(
        counts, 0, static_cast<std::size_t>(m) * plan.layout.num_chunks * sizeof(std::uint32_t), stream));
    counting_prescan()<<<plan.pre_grid, plan.pre_threads, plan.pre_smem, stream>>>(
        keys_in, plan.layout, plan.pre_slices, m, fn, plan.functor_bytes, plan.pre_copies, counts);
    return cudaGetLastError();
  }

  static cudaError_t run(const Plan& plan, void* d_temp, const Key* keys_in, Key* keys_out, const Value* values_in,
                         Value* values_out, std::uint32_t m, BucketFn fn, std::uint32_t* d_offsets,
                         cudaStream_t stream) {
    std::uint32_t* counts = plan.temp.template get<std::uint32_t>(d_temp, kCounts);
    void* scan_temp = plan.temp.template get<void>(d_temp, kScanTemp);
    std::size_t scan_bytes = plan.temp.bytes[kScanTemp];
    const std::uint32_t cells = m * plan.layout.num_chunks;

    MULTISPLIT_RETURN_IF_ERROR(launch_prescan(plan, keys_in, m, fn, counts, stream));
    MULTISPLIT_RETURN_IF_ERROR(cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, counts, counts, cells, stream));
    bucket_offsets_kernel<><<<div_up(m + 1, 256), 256, 0, stream>>>(counts, plan.layout.num_chunks, m,
                                                                   plan.layout.n, plan.layout.device_n, d_offsets);
    MULTISPLIT_RETURN_IF_ERROR(cudaGetLastError());
    return launch_postscan(plan, keys_in, keys_out, values_in, values_out, m, fn, counts, stream);
  }

  // The post-scan the plan chose, over the scanned count matrix `counts`
  // (interleaved plans: with the tile counter in the word past it).
  static cudaError_t launch_postscan(const Plan& plan, const Key* keys_in, Key* keys_out, const Value* values_in,
                                     Value* values_out, std::uint32_t m, const BucketFn& fn, std::uint32_t* counts,
                                     cudaStream_t stream) {
    const int bits = ceil_log2(m);
    const std::uint32_t* offsets = counts;
    if (plan.method == Method::Block) {
      std::uint32_t* tile_counter = plan.interleaved ? counts + m * plan.layout.num_chunks : nullptr;
      if (plan.thread_counts)
        return CountsPost::launch(false, plan.post_grid, plan.post_smem, plan.layout, keys_in, keys_out, values_in,
                                  values_out, m, bits, fn, plan.functor_bytes, offsets, nullptr, stream);
      if constexpr (P::kWideTileTypes) {
        if (plan.wide_threads == static_cast<std::uint32_t>(WideTile::kThreads))
          return WidePost::launch(true, plan.post_grid, plan.post_smem, plan.layout, keys_in, keys_out, values_in,
                                  values_out, m, bits, fn, plan.functor_bytes, offsets, tile_counter, stream);
        if (plan.wide_threads == static_cast<std::uint32_t>(MidTile::kThreads))
          return MidPost::launch(true, plan.post_grid, plan.post_smem, plan.layout, keys_in, keys_out, values_in,
                                 values_out, m, bits, fn, plan.functor_bytes, offsets, tile_counter, stream);
      }
      return BlockPost::launch(plan.interleaved, plan.post_grid, plan.post_smem, plan.layout, keys_in, keys_out,
                               values_in, values_out, m, bits, fn, plan.functor_bytes, offsets, tile_counter,
                               stream);
    }
    const auto kernel = plan.method == Method::Direct ? direct_kernel() : warp_kernel();
    kernel<<<plan.post_grid, plan.post_threads, plan.post_smem, stream>>>(
        keys_in, keys_out, values_in, values_out, plan.layout, m, bits, fn, plan.functor_bytes, offsets);
    return cudaGetLastError();
  }
};

// ------------------------------------------------ device-side item count
// The method a device-count split runs. Only the three-phase methods read
// the count on the device (every kernel re-cuts the planned chunks over it:
// ChunkLayout::on_device); RB-sort's CUB radix sort needs n on the host. So
// SortBased, asked for or chosen by Auto (many buckets), becomes Block, and
// past Block's limits Direct; past Direct's (about 14k buckets of shared
// memory per warp) there is no method: cudaErrorNotSupported.
template <class Key, class Value>
cudaError_t resolve_device_count(Method requested, std::uint32_t m, std::size_t functor_bytes, bool store_ids,
                                 const DeviceLimits& limits, Method& method) {
  method = resolve<Key, Value>(requested, m, functor_bytes, store_ids, limits);
  if (method == Method::SortBased) method = resolve<Key, Value>(Method::Block, m, functor_bytes, store_ids, limits);
  return method == Method::SortBased ? cudaErrorNotSupported : cudaSuccess;
}

// The small-n rule on top of resolve() / resolve_device_count(). SmallN
// runs for Auto when n (a device-count split: max_items) <= min(2^18
// (kSmallNAutoMaxItems), capacity) and for an explicit SmallN when n <=
// capacity; capacity = co-resident blocks (occupancy x SMs) x tile items,
// and 0 (never SmallN) for m > 256, no cooperative launch on the device, or
// item types too large for the staged tile. small_limit: the largest n that
// runs SmallN for this request (0: none).
template <class Key, class Value, class BucketFn>
cudaError_t small_n_limit(Method requested, std::uint32_t m, const BucketFn& fn, const DeviceLimits& limits,
                          std::uint32_t& small_limit) {
  small_limit = 0;
  if (requested != Method::Auto && requested != Method::SmallN) return cudaSuccess;
  std::uint32_t capacity = 0;
  using Small = SmallN<Key, Value, BucketFn>;
  MULTISPLIT_RETURN_IF_ERROR(
      Small::capacity(m, functor_shared_bytes(fn), limits.device, limits.sm_count, limits.cooperative, capacity));
  small_limit = requested == Method::Auto ? std::min(capacity, kSmallNAutoMaxItems) : capacity;
  return cudaSuccess;
}

template <class Key, class Value, class BucketFn>
cudaError_t resolve_sized(Method requested, std::uint32_t n, std::uint32_t m, const BucketFn& fn,
                          const DeviceLimits& limits, bool device_count, Method& method, std::uint32_t& small_limit) {
  MULTISPLIT_RETURN_IF_ERROR((small_n_limit<Key, Value>(requested, m, fn, limits, small_limit)));
  if (small_limit > 0 && n <= small_limit) {
    method = Method::SmallN;
    return cudaSuccess;
  }
  const std::size_t functor_bytes = functor_shared_bytes(fn);
  const bool store_ids = block_postscan_stores_ids<BucketFn>();
  if (device_count) return resolve_device_count<Key, Value>(requested, m, functor_bytes, store_ids, limits, method);
  method = resolve<Key, Value>(requested, m, functor_bytes, store_ids, limits);
  return cudaSuccess;
}

// ---------------------------------------------------------- entry point
template <class Key, class Value, class BucketFn>
cudaError_t split(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out, const Value* values_in,
                  Value* values_out, std::uint32_t n, std::uint32_t m, BucketFn fn, std::uint32_t* d_offsets,
                  cudaStream_t stream, Method requested, Method* method_used) {
  if (m == 0 || n > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max()))
    return cudaErrorInvalidValue;
  DeviceLimits limits;
  MULTISPLIT_RETURN_IF_ERROR(query_device(limits));
  Method method = Method::Block;
  std::uint32_t small_limit = 0;
  MULTISPLIT_RETURN_IF_ERROR(
      (resolve_sized<Key, Value>(requested, n, m, fn, limits, false, method, small_limit)));
  if (method_used != nullptr) *method_used = method;

  using Sort = SortBased<Key, Value, BucketFn>;
  using Three = ThreePhase<Key, Value, BucketFn>;
  using Small = SmallN<Key, Value, BucketFn>;
  const int end_bit = std::max(1, ceil_log2(m));
  TempLayout<Sort::kParts> sort_temp;
  typename Three::Plan plan;
  std::size_t needed = 1;
  if (n > 0) {
    if (method == Method::SmallN) {
      needed = Small::layout(n, m).total;
    } else if (method == Method::SortBased) {
      MULTISPLIT_RETURN_IF_ERROR(Sort::plan(sort_temp, n, m, d_offsets, end_bit));
      needed = sort_temp.total;
    } else {
      MULTISPLIT_RETURN_IF_ERROR(Three::plan(plan, method, n, m, fn, limits));
      needed = plan.temp.total;
    }
  }
  // A size queried for n must serve every smaller n, some of which run SmallN.
  if (small_limit > 0) needed = std::max(needed, Small::layout(std::min(n, small_limit), m).total);
  if (d_temp == nullptr) {
    temp_bytes = needed;
    return cudaSuccess;
  }
  if (temp_bytes < needed || d_offsets == nullptr) return cudaErrorInvalidValue;
  if (n == 0) return cudaMemsetAsync(d_offsets, 0, (static_cast<std::size_t>(m) + 1) * sizeof(std::uint32_t), stream);
  if (keys_in == nullptr || keys_out == nullptr) return cudaErrorInvalidValue;
  if constexpr (has_values<Value>()) {
    if (values_in == nullptr || values_out == nullptr) return cudaErrorInvalidValue;
  }
  if (method == Method::SmallN)
    return Small::run(d_temp, keys_in, keys_out, values_in, values_out, n, nullptr, m, fn, d_offsets, stream);
  if (method == Method::SortBased)
    return Sort::run(d_temp, sort_temp, keys_in, keys_out, values_in, values_out, n, m, fn, d_offsets, stream,
                     limits.sm_count, end_bit);
  return Three::run(plan, d_temp, keys_in, keys_out, values_in, values_out, m, fn, d_offsets, stream);
}

// ------------------------------------------------ device-side item count
// split() with the item count in device memory: min(*d_num_items, max_items)
// items are split, read by the kernels themselves. Planned (temporary
// storage, chunks, grids) for max_items; stream-ordered, no host
// synchronisation, capturable (the count may change between graph replays).
template <class Key, class Value, class BucketFn>
cudaError_t split_device_count(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                               const Value* values_in, Value* values_out, const std::uint32_t* d_num_items,
                               std::uint32_t max_items, std::uint32_t m, BucketFn fn, std::uint32_t* d_offsets,
                               cudaStream_t stream, Method requested, Method* method_used) {
  if (m == 0 || max_items > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max()))
    return cudaErrorInvalidValue;
  DeviceLimits limits;
  MULTISPLIT_RETURN_IF_ERROR(query_device(limits));
  Method method = Method::Block;
  std::uint32_t small_limit = 0;
  MULTISPLIT_RETURN_IF_ERROR(
      (resolve_sized<Key, Value>(requested, max_items, m, fn, limits, true, method, small_limit)));
  if (method_used != nullptr) *method_used = method;

  using Three = ThreePhase<Key, Value, BucketFn>;
  using Small = SmallN<Key, Value, BucketFn>;
  typename Three::Plan plan;
  std::size_t needed = 1;
  if (max_items > 0) {
    if (method == Method::SmallN) {
      needed = Small::layout(max_items, m).total;
    } else {
      MULTISPLIT_RETURN_IF_ERROR(Three::plan(plan, method, max_items, m, fn, limits));
      needed = plan.temp.total;
    }
  }
  if (small_limit > 0) needed = std::max(needed, Small::layout(std::min(max_items, small_limit), m).total);
  if (d_temp == nullptr) {
    temp_bytes = needed;
    return cudaSuccess;
  }
  if (temp_bytes < needed || d_offsets == nullptr || d_num_items == nullptr) return cudaErrorInvalidValue;
  // No item can be split: every offset is 0 (the count is clamped to 0).
  if (max_items == 0)
    return cudaMemsetAsync(d_offsets, 0, (static_cast<std::size_t>(m) + 1) * sizeof(std::uint32_t), stream);
  if (keys_in == nullptr || keys_out == nullptr) return cudaErrorInvalidValue;
  if constexpr (has_values<Value>()) {
    if (values_in == nullptr || values_out == nullptr) return cudaErrorInvalidValue;
  }
  if (method == Method::SmallN)
    return Small::run(d_temp, keys_in, keys_out, values_in, values_out, max_items, d_num_items, m, fn, d_offsets,
                      stream);
  plan.layout.device_n = d_num_items;
  return Three::run(plan, d_temp, keys_in, keys_out, values_in, values_out, m, fn, d_offsets, stream);
}

}  // namespace detail
}  // namespace multisplit
