// Pre-scan of every three-phase multisplit (and of each radix sort pass):
// counts the buckets of every chunk into counts[b * num_chunks + chunk].
//
// It only counts, so the order in which a block meets its keys does not
// matter. That frees it from the post-scan's tile shape: each chunk is cut
// into `slices` (several blocks per chunk, so the grid fills every SM even
// when the post-scan has one chunk per resident block), keys arrive as
// 16-byte vectors, and every block adds its totals into the zeroed count
// matrix with one global atomic per (bucket, block).
//
// Counting per key:
//   m <= 32: a thread-private 16-bit counter per bucket in shared memory
//            (column per thread: hist[b * threads + thread], so a warp's
//            32 counters of one bucket sit in 16 words of distinct banks),
//            bumped by a plain load/add/store: no atomics, no conflicts,
//            about four instructions per key. The ballot counting of
//            Ashkiani et al. (section 4.1) costs ceil(log2 m) ballots plus
//            masking per 32 keys, which made this kernel compute bound
//            (slower at m = 2 than the atomic path below at m = 256:
//            docs/TUNING.md, "Pre-scan counting"); shared atomics
//            instead serialise on the few addresses of small m. Slices are
//            capped (counting_prescan_slices) so no thread counts more than
//            2^15 keys and the 16-bit counters cannot wrap;
//   m > 32 : a shared-memory add per key into one of `hist_copies`
//            histograms (warps share copies round-robin); a skewed input
//            does not serialise on one counter (ATOMS.POPC.INC: measured,
//            keys all in one bucket split no slower than uniform ones).
// All loops are block-uniform, so every lane reaches every warp collective.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../common.cuh"
#include "chunk_layout.cuh"

namespace multisplit {
namespace detail {

// 512-thread blocks rather than 256: the same threads and loads in flight,
// half the blocks to zero, flush and schedule. Three per SM (1536 threads),
// not the four that would fill an sm_90 SM: measured faster once the
// counting got cheaper, and for the tile-counting kernel too (docs/TUNING.md,
// "Pre-scan counting").
constexpr int kCountingPrescanThreads = 512;
constexpr int kCountingPrescanUnroll = 4;          // vector loads in flight per thread
constexpr int kCountingPrescanBlocksPerSm = 3;     // grid size; the tile-counting grid too
// Registers of the general pre-scan: room for four resident blocks (32 per
// thread). Its grid is chunks x slices, often more than three blocks per
// SM, and at 39 registers (the compiler's choice for one red per key) only
// three fit: the pre-scan of 64 pairs took 257-282 us against 241-245
// (docs/TUNING.md, "Pre-scan: one shared add per key").
constexpr int kCountingPrescanRegisterBlocks = 4;
constexpr std::uint32_t kCountingPrescanMinSlice = 4096;  // keys; small chunks get fewer, fuller blocks
constexpr std::size_t kCountingPrescanSmemTarget = 24 * 1024;  // per block (m > 32: histogram copies)
// Up to this many buckets every thread counts into its own 16-bit counters.
constexpr std::uint32_t kCountingPrescanThreadBuckets = 32;
// Keys one block may count: at most 2^15 per thread with 16-bit counters
// (plus the head and tail keys, fewer than a vector each).
constexpr std::uint32_t kCountingPrescanMaxSlice = (1u << 15) * kCountingPrescanThreads;

// Keys that pack into 16 bytes are loaded as uint4; others one at a time.
template <class Key>
struct PrescanVector {
  static constexpr bool kPacked = sizeof(Key) <= 16 && 16 % sizeof(Key) == 0 && std::is_trivially_copyable<Key>::value;
  static constexpr std::uint32_t kKeys = kPacked ? static_cast<std::uint32_t>(16 / sizeof(Key)) : 1u;
  using Type = std::conditional_t<kPacked, uint4, Key>;
};

// Adds kCount keys per lane to the shared histogram `hist` (m > 32): one
// shared `red.add` of 1 per key at an address computed once per call
// (volatile with a memory clobber: the histogram is zeroed and flushed as
// ordinary shared memory on the other side of barriers).
// Nothing else: ptxas makes it ATOMS.POPC.INC, and a warp's increments of
// one address did not serialise (keys all in one bucket split no slower
// without the warp vote that used to catch that case; the histogram's
// plain atomics count constant samples as fast as uniform ones). The vote,
// with its shuffle, cost a third of the kernel's instructions and kept the
// functor's constants out of uniform registers (docs/TUNING.md, "Pre-scan:
// one shared add per key").
template <std::uint32_t kCount, class Key, class BucketFn>
__device__ __forceinline__ void count_shared_atomic(const BucketFn& fn, const Key* key, std::uint32_t m,
                                                    std::uint32_t* hist, bool valid) {
  if (!valid) return;
  const std::uint32_t base = shared_address(hist);
#pragma unroll
  for (std::uint32_t k = 0; k < kCount; ++k) {
    const std::uint32_t address = base + bucket_of(fn, key[k], m) * static_cast<std::uint32_t>(sizeof(std::uint32_t));
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(address) : "memory");
  }
}

// Shared memory of one block: the functor's bytes, then the histograms.
inline std::size_t counting_prescan_smem(std::uint32_t m, std::uint32_t hist_copies, std::size_t functor_bytes) {
  if (m <= kCountingPrescanThreadBuckets)
    return functor_bytes + static_cast<std::size_t>(m) * kCountingPrescanThreads * sizeof(std::uint16_t);
  return functor_bytes + static_cast<std::size_t>(hist_copies) * m * sizeof(std::uint32_t);
}

// How many histogram copies (m > 32) fit the per-block target; at least one
// if one fits the device at all (0 = it does not).
inline std::uint32_t counting_prescan_copies(std::uint32_t m, std::size_t functor_bytes, std::size_t max_smem) {
  if (m <= kCountingPrescanThreadBuckets)
    return functor_bytes + static_cast<std::size_t>(m) * kCountingPrescanThreads * sizeof(std::uint16_t) <= max_smem
               ? 1u
               : 0u;
  const std::size_t one = static_cast<std::size_t>(m) * sizeof(std::uint32_t);
  if (functor_bytes + one > max_smem) return 0;
  const std::size_t target = kCountingPrescanSmemTarget > functor_bytes ? kCountingPrescanSmemTarget - functor_bytes : 0;
  std::size_t copies = target / one;
  const std::size_t warps = kCountingPrescanThreads / kWarpThreads;
  if (copies > warps) copies = warps;
  return copies < 1 ? 1u : static_cast<std::uint32_t>(copies);
}

// Slices per chunk: enough blocks for full occupancy, none under the minimum,
// none over the maximum.
inline std::uint32_t counting_prescan_slices(const ChunkLayout& layout, int sm_count) {
  const std::uint32_t target_blocks = static_cast<std::uint32_t>(sm_count) * kCountingPrescanBlocksPerSm;
  const std::uint32_t chunk_items = div_up(layout.n, layout.num_chunks);
  const std::uint32_t by_occupancy = div_up(target_blocks, layout.num_chunks);
  const std::uint32_t by_size = div_up(chunk_items, kCountingPrescanMinSlice);
  const std::uint32_t at_most = div_up(chunk_items, kCountingPrescanMaxSlice);
  std::uint32_t slices = by_occupancy < by_size ? by_occupancy : by_size;
  if (slices < at_most) slices = at_most;
  return slices < 1 ? 1u : slices;
}

// Block b counts slice b % slices of chunk b / slices; counts must be zero
// on entry. Shared memory: counting_prescan_smem(m, hist_copies, functor_bytes).
template <int BlockThreads, class Key, class BucketFn>
__global__ void __launch_bounds__(BlockThreads, kCountingPrescanRegisterBlocks)
    counting_prescan_kernel(const Key* __restrict__ keys, ChunkLayout planned_layout, std::uint32_t slices,
                            std::uint32_t m, BucketFn bucket_fn, std::uint32_t functor_bytes, std::uint32_t hist_copies,
                            std::uint32_t* __restrict__ counts) {
  using Vec = PrescanVector<Key>;
  constexpr std::uint32_t kVec = Vec::kKeys;
  constexpr std::uint32_t kWarps = BlockThreads / kWarpThreads;
  constexpr std::uint32_t kUnroll = kCountingPrescanUnroll;
  const ChunkLayout layout = planned_layout.on_device();  // device counts: the real n
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  std::uint32_t* hist = reinterpret_cast<std::uint32_t*>(smem + functor_bytes);
  std::uint16_t* thread_hist = reinterpret_cast<std::uint16_t*>(smem + functor_bytes) + threadIdx.x;
  const std::uint32_t thread_column = shared_address(thread_hist);
  const bool small = m <= kCountingPrescanThreadBuckets;
  const std::uint32_t lane = lane_id();
  const std::uint32_t warp = threadIdx.x / kWarpThreads;
  if (small) {
    // Each thread zeroes (and later bumps) only its own column.
    for (std::uint32_t b = 0; b < m; ++b) thread_hist[b * BlockThreads] = 0;
  } else {
    for (std::uint32_t i = threadIdx.x; i < hist_copies * m; i += BlockThreads) hist[i] = 0;
    __syncthreads();
  }
  std::uint32_t* my_hist = hist + (warp % hist_copies) * m;

  // Counts Count keys per lane; all lanes of the warp call it together
  // (block-uniform loops).
  auto count = [&](const Key* key, auto count_tag, bool valid) {
    constexpr std::uint32_t kCount = decltype(count_tag)::value;
    if (small) {
      if (valid) {
#pragma unroll
        for (std::uint32_t k = 0; k < kCount; ++k) {
          const std::uint32_t address =
              counter_address<BlockThreads * sizeof(std::uint16_t)>(thread_column, bucket_of(fn, key[k], m));
          store_counter(address, load_counter(address) + 1);
        }
      }
    } else {
      count_shared_atomic<kCount>(fn, key, m, my_hist, valid);
    }
  };
  using One = std::integral_constant<std::uint32_t, 1>;
  using Whole = std::integral_constant<std::uint32_t, kVec>;
  auto count_vector = [&](const typename Vec::Type& loaded, bool valid) {
    Key unpacked[kVec];
    std::memcpy(unpacked, &loaded, sizeof(unpacked));
    count(unpacked, Whole{}, valid);
  };

  const std::uint32_t chunk = blockIdx.x / slices;
  const std::uint32_t slice = blockIdx.x % slices;
  const std::uint32_t chunk_begin = layout.begin(chunk);
  const std::uint32_t chunk_end = layout.end(chunk);
  const std::uint32_t slice_items = div_up(div_up(chunk_end - chunk_begin, slices), kVec) * kVec;
  const std::uint64_t first_wide = chunk_begin + static_cast<std::uint64_t>(slice) * slice_items;
  const std::uint32_t begin = first_wide < chunk_end ? static_cast<std::uint32_t>(first_wide) : chunk_end;
  const std::uint32_t end = chunk_end - begin > slice_items ? begin + slice_items : chunk_end;

  // Head: keys before the first 16-byte boundary (fewer than kVec).
  const std::uint32_t misalign =
      kVec == 1 ? 0u
                : static_cast<std::uint32_t>((reinterpret_cast<std::uintptr_t>(keys + begin) % 16) / sizeof(Key));
  const std::uint32_t head = misalign == 0 ? 0u : kVec - misalign;
  const std::uint32_t vec_begin = end - begin > head ? begin + head : end;
  if (vec_begin > begin) {
    const std::uint32_t i = begin + threadIdx.x;
    const bool valid = i < vec_begin;
    const Key key = valid ? keys[i] : Key();
    count(&key, One{}, valid);
  }
  // Body: whole vectors, kUnroll loads issued before counting.
  const std::uint32_t num_vecs = (end - vec_begin) / kVec;
  const auto* vecs = reinterpret_cast<const typename Vec::Type*>(keys + vec_begin);
  std::uint32_t base = 0;
  for (; base + kUnroll * BlockThreads <= num_vecs; base += kUnroll * BlockThreads) {
    typename Vec::Type loaded[kUnroll];
#pragma unroll
    for (std::uint32_t u = 0; u < kUnroll; ++u) loaded[u] = vecs[base + u * BlockThreads + threadIdx.x];
#pragma unroll
    for (std::uint32_t u = 0; u < kUnroll; ++u) count_vector(loaded[u], true);
  }
  for (; base < num_vecs; base += BlockThreads) {
    const std::uint32_t v = base + threadIdx.x;
    const bool valid = v < num_vecs;
    typename Vec::Type loaded{};
    if (valid) loaded = vecs[v];
    count_vector(loaded, valid);
  }
  // Tail: keys after the last whole vector (fewer than kVec).
  const std::uint32_t tail_begin = vec_begin + num_vecs * kVec;
  if (tail_begin < end) {
    const std::uint32_t i = tail_begin + threadIdx.x;
    const bool valid = i < end;
    const Key key = valid ? keys[i] : Key();
    count(&key, One{}, valid);
  }

  __syncthreads();
  if (small) {
    // Warp w sums buckets w, w + kWarps, ...: each lane adds up a strip of
    // the BlockThreads columns, then the warp reduces.
    const std::uint16_t* columns = reinterpret_cast<const std::uint16_t*>(smem + functor_bytes);
    for (std::uint32_t b = warp; b < m; b += kWarps) {
      std::uint32_t sum = 0;
      for (std::uint32_t t = lane; t < BlockThreads; t += kWarpThreads) sum += columns[b * BlockThreads + t];
      sum = __reduce_add_sync(kFullMask, sum);
      if (lane == 0 && sum != 0) atomicAdd(counts + static_cast<std::size_t>(b) * layout.num_chunks + chunk, sum);
    }
    return;
  }
  for (std::uint32_t b = threadIdx.x; b < m; b += BlockThreads) {
    std::uint32_t sum = 0;
    for (std::uint32_t c = 0; c < hist_copies; ++c) sum += hist[c * m + b];
    if (sum != 0) atomicAdd(counts + static_cast<std::size_t>(b) * layout.num_chunks + chunk, sum);
  }
}

// Per-tile counts for the interleaved BMS (policies.cuh), where every
// chunk is one tile: counts[b * num_chunks + t] for every planned tile t,
// each cell stored once (zeros too: no memset). A block counts a group of
// Group consecutive tiles per pass, BlockThreads / Group threads per tile,
// each tile into its own shared histogram, so the zeroing, the barriers and
// the flush are paid once per group, and every thread has several 16-byte
// loads in flight. The general pre-scan above, cut to one-tile chunks, paid
// them per tile and issued several times the instructions (docs/TUNING.md,
// "BMS interleaved tiles"). m > 32 (shared atomics; thread-private counters
// would cost a flush of m x threads per tile).
//
// The flush stores each bucket's Group cells as one run: 4-byte cells give
// runs of 32 bytes at 8 tiles, one sector where the row is aligned. Shorter
// runs leave sectors partly written until another block writes the rest,
// and where the matrix is large next to the data (many buckets) L2 evicts
// them half written and fills them again (docs/TUNING.md, "BMS interleaved
// tiles: the tile-counting groups"). Rows start at b * num_chunks, and
// the interleaved layout pads num_chunks to a multiple of kCountRowCells
// (chunk_layout.cuh), so with groups of 8 or 16 every run is whole
// sectors. From kTileCountWideMinBuckets the groups are 16 tiles (one warp
// per tile; measured faster there before the rows were padded); below, 8,
// whose grid leaves fewer blocks idle in the last round at small n.
constexpr std::uint32_t kTileCountThreads = 512;
constexpr std::uint32_t kTileCountGroupNarrow = 8;
constexpr std::uint32_t kTileCountGroupWide = 16;
constexpr std::uint32_t kTileCountWideMinBuckets = 512;

inline std::uint32_t tile_counting_group(std::uint32_t m) {
  return m >= kTileCountWideMinBuckets ? kTileCountGroupWide : kTileCountGroupNarrow;
}

inline std::size_t tile_counting_smem(std::uint32_t m, std::size_t functor_bytes) {
  return functor_bytes + static_cast<std::size_t>(tile_counting_group(m)) * m * sizeof(std::uint32_t);
}

template <int BlockThreads, int Group, class Key, class BucketFn>
__global__ void __launch_bounds__(BlockThreads)
    tile_counting_kernel(const Key* __restrict__ keys, ChunkLayout planned_layout, std::uint32_t m,
                         BucketFn bucket_fn, std::uint32_t functor_bytes, std::uint32_t* __restrict__ counts) {
  using Vec = PrescanVector<Key>;
  constexpr std::uint32_t kVec = Vec::kKeys;
  constexpr std::uint32_t kUnroll = kCountingPrescanUnroll;
  constexpr std::uint32_t kTileCountGroup = Group;
  constexpr std::uint32_t kGroupThreads = BlockThreads / kTileCountGroup;  // threads per tile
  static_assert(kGroupThreads % kWarpThreads == 0, "whole warps per tile");
  const ChunkLayout layout = planned_layout.on_device();  // device counts: the real n
  extern __shared__ __align__(16) unsigned char smem[];
  const BucketFn fn = bind_functor(bucket_fn, smem);
  std::uint32_t* const hist = reinterpret_cast<std::uint32_t*>(smem + functor_bytes);
  const std::uint32_t member = threadIdx.x / kGroupThreads;  // which tile of the group (warp-uniform)
  const std::uint32_t t_in = threadIdx.x % kGroupThreads;
  std::uint32_t* const my_hist = hist + member * m;
  const std::uint32_t planned_tiles = layout.num_chunks;
  const std::uint32_t real_tiles = div_up(layout.n, layout.tile_items);
  // Tiles start at multiples of tile_items, a multiple of the vector width,
  // so with an aligned base every tile is whole vectors but the last's tail.
  const bool vectors = kVec > 1 && reinterpret_cast<std::uintptr_t>(keys) % 16 == 0 && layout.tile_items % kVec == 0;
  // The word past the matrix: the post-scan's tile counter (block_postscan.cuh).
  if (blockIdx.x == 0 && threadIdx.x == 0) counts[static_cast<std::size_t>(m) * planned_tiles] = 0;

  for (std::uint32_t group = blockIdx.x; group * kTileCountGroup < planned_tiles; group += gridDim.x) {
    for (std::uint32_t i = threadIdx.x; i < kTileCountGroup * m; i += BlockThreads) hist[i] = 0;
    __syncthreads();
    const std::uint32_t tile = group * kTileCountGroup + member;
    if (tile < real_tiles) {  // warp-uniform
      const std::uint32_t begin = tile * layout.tile_items;
      const std::uint32_t items = min(layout.tile_items, layout.n - begin);
      std::uint32_t scalar_from = 0;  // keys past the whole vectors, counted one at a time
      if (vectors) {
        const auto* vecs = reinterpret_cast<const typename Vec::Type*>(keys + begin);
        const std::uint32_t num_vecs = items / kVec;
        for (std::uint32_t base = 0; base < num_vecs; base += kUnroll * kGroupThreads) {
          typename Vec::Type loaded[kUnroll];
#pragma unroll
          for (std::uint32_t u = 0; u < kUnroll; ++u) {
            const std::uint32_t v = base + u * kGroupThreads + t_in;
            loaded[u] = v < num_vecs ? vecs[v] : typename Vec::Type{};
          }
#pragma unroll
          for (std::uint32_t u = 0; u < kUnroll; ++u) {
            if (base + u * kGroupThreads >= num_vecs) break;  // uniform over the group
            Key unpacked[kVec];
            std::memcpy(unpacked, &loaded[u], sizeof(unpacked));
            count_shared_atomic<kVec>(fn, unpacked, m, my_hist, base + u * kGroupThreads + t_in < num_vecs);
          }
        }
        scalar_from = num_vecs * kVec;
      }
      for (std::uint32_t i = scalar_from; i < items; i += kGroupThreads) {
        const bool valid = i + t_in < items;
        const Key key = valid ? keys[begin + i + t_in] : Key();
        count_shared_atomic<1>(fn, &key, m, my_hist, valid);
      }
    }
    __syncthreads();
    // Cell (b, first + j) for the group's tiles j: consecutive threads take
    // consecutive tiles of one bucket, so their stores share sectors.
    const std::uint32_t first = group * kTileCountGroup;
    for (std::uint32_t i = threadIdx.x; i < kTileCountGroup * m; i += BlockThreads) {
      const std::uint32_t j = i % kTileCountGroup, b = i / kTileCountGroup;
      if (first + j < planned_tiles) counts[static_cast<std::size_t>(b) * planned_tiles + first + j] = hist[j * m + b];
    }
    __syncthreads();  // the next group zeroes what was just stored
  }
}

}  // namespace detail
}  // namespace multisplit
