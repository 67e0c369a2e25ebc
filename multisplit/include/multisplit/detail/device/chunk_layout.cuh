// How the input is cut into subproblems ("chunks") for the three-phase
// methods: every chunk is a run of consecutive tiles, handed out as evenly as
// possible (the first `extra_tiles` chunks take one tile more). The pre-scan
// counts each chunk's buckets, the global scan turns the bucket-major count
// matrix into starting offsets, and the post-scan walks each chunk's tiles in
// order, carrying per-bucket running offsets, so stability follows from the
// chunk order (Ashkiani et al., GPU Multisplit, section 3: prescan / scan /
// postscan; a chunk plays the role of the paper's subproblem).
//
// Device-side item counts (split_keys / split_pairs with d_num_items): the
// host plans the layout for max_items and sets `device_n`; every kernel
// calls on_device() first, which reads the real count and re-cuts the same
// num_chunks chunks over it (chunks past the last tile become empty, so the
// count matrix keeps its shape and their columns stay zero).
#pragma once

#include <cstdint>

#include "../common.cuh"

namespace multisplit {
namespace detail {

// Count-matrix cells per 32-byte sector: the interleaved layout pads every
// row of its matrix to whole sectors (ChunkLayout::one_per_tile), so that
// the tile-counting pre-scan's runs of a bucket's cells never share a
// sector with another block's (counting_prescan.cuh: tile_counting_kernel).
constexpr std::uint32_t kCountRowCells = 8;

struct ChunkLayout {
  std::uint32_t n = 0;
  std::uint32_t tile_items = 1;       // items per tile; chunk boundaries are tile aligned
  std::uint32_t num_chunks = 1;
  std::uint32_t tiles_per_chunk = 0;  // q
  std::uint32_t extra_tiles = 0;      // r: chunks below r take q + 1 tiles
  // Device-count splits: the real item count, read by on_device() (counts
  // above n, the planned maximum, are clamped to n). nullptr: n is exact.
  const std::uint32_t* device_n = nullptr;

  // num_chunks chunks (at most one per tile, at least one).
  static ChunkLayout make(std::uint32_t n, std::uint32_t tile_items, std::uint32_t num_chunks) {
    const std::uint32_t tiles = div_up(n, tile_items);
    return cut(n, tile_items, num_chunks < 1 ? 1 : (num_chunks > tiles && tiles > 0 ? tiles : num_chunks));
  }

  // One chunk per tile (the interleaved BMS), num_chunks rounded up to a
  // multiple of `columns`: the chunks past the last tile are empty (as
  // planned chunks past a device count are), so that every row of the
  // bucket-major count matrix starts on a multiple of `columns` cells.
  static ChunkLayout one_per_tile(std::uint32_t n, std::uint32_t tile_items, std::uint32_t columns) {
    const std::uint32_t tiles = div_up(n, tile_items);
    return cut(n, tile_items, div_up(tiles > 0 ? tiles : 1u, columns) * columns);
  }

  // The tiles of n items dealt to exactly num_chunks (>= 1) chunks, the
  // first extra_tiles of them one tile more.
  static ChunkLayout cut(std::uint32_t n, std::uint32_t tile_items, std::uint32_t num_chunks) {
    ChunkLayout layout;
    layout.n = n;
    layout.tile_items = tile_items;
    layout.num_chunks = num_chunks;
    const std::uint32_t tiles = div_up(n, tile_items);
    layout.tiles_per_chunk = tiles / num_chunks;
    layout.extra_tiles = tiles % num_chunks;
    return layout;
  }

  // The same num_chunks chunks re-cut over `count` <= n items.
  __host__ __device__ ChunkLayout with_count(std::uint32_t count) const {
    ChunkLayout layout = *this;
    layout.n = count;
    const std::uint32_t tiles = div_up(count, tile_items);
    layout.tiles_per_chunk = tiles / num_chunks;
    layout.extra_tiles = tiles % num_chunks;
    layout.device_n = nullptr;
    return layout;
  }

#if defined(__CUDACC__)
  // What a kernel works with: this layout, or with a device count, the
  // layout re-cut over min(*device_n, n) items. Every thread may call it.
  __device__ ChunkLayout on_device() const {
    if (device_n == nullptr) return *this;
    const std::uint32_t count = *device_n;
    return with_count(count < n ? count : n);
  }
#endif

  __host__ __device__ std::uint32_t begin(std::uint32_t chunk) const {
    const std::uint64_t tile = static_cast<std::uint64_t>(chunk) * tiles_per_chunk +
                               (chunk < extra_tiles ? chunk : extra_tiles);
    const std::uint64_t item = tile * tile_items;
    return item < n ? static_cast<std::uint32_t>(item) : n;
  }
  __host__ __device__ std::uint32_t end(std::uint32_t chunk) const { return begin(chunk + 1); }
};

}  // namespace detail
}  // namespace multisplit
