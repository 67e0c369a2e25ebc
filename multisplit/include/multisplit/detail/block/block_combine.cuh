// Block-level step of block multisplit (BMS; Ashkiani et al., GPU Multisplit,
// section 4.3): each warp has ranked its own sub-tile and left per-bucket
// counts in warp_counts[w * m + b]. This turns them into the start position,
// inside the block's reordered tile, of warp w's keys of bucket b
// (tile_start[b] + counts of bucket b in warps before w), and fills
// tile_start[0..m] (tile_start[m] = keys in the tile).
//
// Each thread owns a contiguous run of buckets so that one block-wide scan of
// per-thread sums orders buckets correctly.
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "../common.cuh"

namespace multisplit {
namespace detail {

template <int BlockThreads>
struct BlockCombine {
  using Scan = cub::BlockScan<std::uint32_t, BlockThreads>;
  using TempStorage = typename Scan::TempStorage;

  // All threads call it; starts after a barrier that published warp_counts,
  // ends with a barrier after which warp_counts/tile_start can be read.
  __device__ static void run(TempStorage& scan_storage, std::uint32_t* warp_counts, std::uint32_t* tile_start,
                             std::uint32_t m, std::uint32_t num_warps) {
    const std::uint32_t per_thread = div_up(m, BlockThreads);
    const std::uint32_t b_begin = threadIdx.x * per_thread < m ? threadIdx.x * per_thread : m;
    const std::uint32_t b_end = b_begin + per_thread < m ? b_begin + per_thread : m;
    std::uint32_t thread_total = 0;
    for (std::uint32_t b = b_begin; b < b_end; ++b) {
      std::uint32_t sum = 0;
      for (std::uint32_t w = 0; w < num_warps; ++w) {
        const std::uint32_t c = warp_counts[w * m + b];
        warp_counts[w * m + b] = sum;
        sum += c;
      }
      tile_start[b] = sum;  // bucket total for now
      thread_total += sum;
    }
    std::uint32_t prefix = 0;
    Scan(scan_storage).ExclusiveSum(thread_total, prefix);
    for (std::uint32_t b = b_begin; b < b_end; ++b) {
      const std::uint32_t total = tile_start[b];
      tile_start[b] = prefix;
      for (std::uint32_t w = 0; w < num_warps; ++w) warp_counts[w * m + b] += prefix;
      prefix += total;
    }
    if (threadIdx.x == BlockThreads - 1) tile_start[m] = prefix;
    __syncthreads();
  }
};

}  // namespace detail
}  // namespace multisplit
