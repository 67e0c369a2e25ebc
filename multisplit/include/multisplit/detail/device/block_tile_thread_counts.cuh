// A BMS block tile for up to a few hundred buckets ranked with
// thread-private counters instead of warp ballots. Same interface as BlockTileSplit
// (block_postscan.cuh), which the BMS post-scan kernel is generic over.
//
// Why: with ballots, ranking a 32-key window costs ceil(log2 m) ballots
// plus masking, shuffles and pop-counts for every lane, and a block-wide
// combine of the warps' counts follows; at m = 32 that made the post-scan
// compute bound (several times a copy's time: docs/TUNING.md, "BMS
// thread-counter tiles").
// Here the tile is blocked instead of warp-striped: thread t owns items
// [t * Items, (t + 1) * Items) and
//   1. counts them in order into its own 16-bit counter of each bucket
//      (column t of counters[b][t]), so a key's rank among the thread's
//      keys of its bucket is the counter before the increment: a load, an
//      add and a store per key, no atomics, no bank conflicts (keys in up
//      to 8 buckets: the row is counted in one register, then its m
//      counts are stored; count_in_register);
//   2. one scan of the counters in bucket-major order (b, then t) gives,
//      for every (bucket, thread), the tile slot of that thread's first key
//      of that bucket: the keys of earlier buckets, plus this bucket's keys
//      in earlier threads. Warps scan rows (one bucket, 256 counters: one
//      16-byte load per lane), then the m row totals are scanned (up to
//      32 buckets by every warp, so each key's start is a shuffle away;
//      above, by one warp into shared memory);
//   3. slot = that + the rank from step 1, which is input order, so the
//      reorder is stable.
// Rows are read from the shared stage as 16-byte vectors. Each row is
// padded by 16 bytes so that the eight lanes of a vector-load phase hit
// distinct banks (row stride / 16 is odd for every supported row).
// Pairs: only the keys come through the shared stages; each thread reads
// its row of values from global memory into registers as the tile is
// ranked, and the values are reordered through one shared buffer. A value
// stage less is what lets three blocks share an SM (two with staged values).
//
// This is the counter layout of CUB's BlockRadixRank (per-thread digit
// counters scanned in digit-major order), without packing two counters
// per scanned word: m * 512 bytes of 16-bit counters (16 KiB at m = 32),
// scanned once per tile. The counters' shared memory and the row scans
// grow with m, so past Policies::kThreadCountsMaxBuckets the warp-ranked
// BlockTileSplit takes over.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../common.cuh"
#include "../warp/warp_match.cuh"
#include "policies.cuh"
#include "tile_io.cuh"

namespace multisplit {
namespace detail {

// Up to this many buckets the m row totals are scanned by every warp.
constexpr std::uint32_t kThreadCountsShuffleBuckets = 32;

template <int BlockThreads, int Items, class Key, class Value, class BucketFn>
struct BlockTileThreadCounts : BlockTileShape<BlockThreads, Items, Value, BucketFn> {
  using Shape = BlockTileShape<BlockThreads, Items, Value, BucketFn>;
  using Shape::kPairs;
  using Shape::kStoreIds;
  using Shape::kTile;
  using Shape::kWarps;
  // A row scan gives each lane 8 counters: one 16-byte load.
  static_assert(BlockThreads == 256, "row scans assume 256 threads (8 16-bit counters per lane)");
  static_assert(kTile <= 0xFFFFu, "tile slots are stored in 16 bits");

  template <class T>
  static constexpr bool row_vectors() {
    return cp_async_element<T>() && (Items * sizeof(T)) % 16 == 0;
  }
  // rank/scatter have an unchecked path for whole tiles, taken for keys at
  // every bucket count this tile serves; pairs measured no faster with it
  // (docs/TUNING.md, "BMS whole-tile path"). Always in the post-scan's kAll
  // kernel (kernels of their own measured no faster: "BMS post-scan: whole
  // tiles in a kernel of their own").
  static constexpr bool kFullTilePath = !kPairs;
  static constexpr std::uint32_t kWholeKernelMinBuckets = 0;
  static constexpr PostscanLayouts kLayouts = PostscanLayouts::kChunked;
  __host__ __device__ static constexpr bool full_tile_path(bool /*interleaved: never*/) { return kFullTilePath; }
  static constexpr bool kSplitInterleavedFullPath = false;  // never interleaved
  static constexpr std::uint32_t kFullTileMaxBuckets = 0xFFFFFFFFu;
  // Whether this tile can serve the key (and value) type at all.
  static constexpr bool supported() {
    if constexpr (kPairs) return row_vectors<Key>() && row_vectors<Value>();
    else return row_vectors<Key>();
  }
  // Padded row strides in elements (16 bytes of padding per row).
  template <class T>
  static constexpr std::uint32_t row_stride() {
    return static_cast<std::uint32_t>((Items * sizeof(T) + 16) / sizeof(T));
  }
  static constexpr std::uint32_t kKeyRow = row_stride<Key>();
  static constexpr std::uint32_t kValueRow = kPairs ? row_stride<Value>() : 0u;
  static constexpr std::uint32_t kKeyStage = BlockThreads * kKeyRow;
  static constexpr std::uint32_t kValueStage = BlockThreads * kValueRow;
  // Step 1 of rank() counts in one register up to this many buckets
  // (count_in_register: byte fields up to 4 buckets, nibbles up to 8, and
  // nibbles hold ranks up to 15 only), else in shared memory. Keys only:
  // the pair tile ran 3-9% slower with it, at every bucket count
  // (docs/TUNING.md, "BMS thread-counter tiles: counting in a register").
  static constexpr std::uint32_t kByteFieldBuckets = Items <= 255 ? 4u : 0u;
  static constexpr std::uint32_t kRegisterBuckets =
      kPairs                                                          ? 0u
      : MULTISPLIT_THREAD_COUNTS_REGISTER_BUCKETS > 4 && Items <= 16 ? MULTISPLIT_THREAD_COUNTS_REGISTER_BUCKETS
      : MULTISPLIT_THREAD_COUNTS_REGISTER_BUCKETS > 0                ? kByteFieldBuckets
                                                                     : 0u;
  // Pairs: values read from global memory straight into registers when a
  // tile is ranked, then reordered through one buffer, instead of coming
  // through two cp.async stages: the shared memory of one stage less lets
  // three blocks share an SM instead of two (policies.cuh:
  // MULTISPLIT_THREAD_COUNTS_DIRECT_PAIR_VALUES; docs/TUNING.md, "BMS
  // thread-counter tiles: pair values from global memory").
  static constexpr bool kDirectValues = kPairs && MULTISPLIT_THREAD_COUNTS_DIRECT_PAIR_VALUES != 0;
  __host__ __device__ static constexpr std::size_t value_bytes(int stages) {
    if constexpr (!kPairs) return 0;
    else if constexpr (kDirectValues) return align_up(kTile * sizeof(Value), 16);
    else return stages * static_cast<std::size_t>(kValueStage) * sizeof(Value);
  }

  struct ScanStorage {};  // the scans here need no storage beyond the counters

  __host__ __device__ static constexpr std::size_t bytes(std::uint32_t m, bool store_ids, int stages) {
    std::size_t total = stages * static_cast<std::size_t>(kKeyStage) * sizeof(Key);
    total += value_bytes(stages);
    if (store_ids) total += align_up(kTile * sizeof(std::uint16_t), 16);
    total += align_up(static_cast<std::size_t>(m) * BlockThreads * sizeof(std::uint16_t), 16);
    const std::size_t mm = m > 32 ? m : 32;
    total += align_up((mm + mm + mm + 1 + mm) * sizeof(std::uint32_t), 16);
    return total;
  }

  Key* key_stages;
  Value* value_stages;
  std::uint16_t* tile_ids;
  std::uint16_t* counters;   // [b * BlockThreads + t]: thread t's keys of bucket b, then their first slot - start
  std::uint32_t* running;    // next output slot of each bucket (three-phase)
  std::uint32_t* row_total;  // [m]: keys of bucket b in the tile
  std::uint32_t* tile_start; // [m + 1]
  std::uint32_t* out_shift;  // slot -> output position
  std::uint32_t m;
  // kDirectValues: where each stage's values are in global memory.
  const Value* direct_values = nullptr;
  std::uint32_t direct_base[2] = {0, 0};
  bool direct_aligned = false;

  __device__ BlockTileThreadCounts(unsigned char* smem, std::uint32_t functor_bytes, std::uint32_t m_, int /*bits*/,
                                   int stages)
      : m(m_) {
    unsigned char* cursor = smem + functor_bytes;
    key_stages = reinterpret_cast<Key*>(cursor);
    cursor += stages * static_cast<std::size_t>(kKeyStage) * sizeof(Key);
    value_stages = reinterpret_cast<Value*>(cursor);
    cursor += value_bytes(stages);
    tile_ids = reinterpret_cast<std::uint16_t*>(cursor);
    if constexpr (kStoreIds) cursor += align_up(kTile * sizeof(std::uint16_t), 16);
    counters = reinterpret_cast<std::uint16_t*>(cursor);
    cursor += align_up(static_cast<std::size_t>(m) * BlockThreads * sizeof(std::uint16_t), 16);
    const std::uint32_t mm = m > 32 ? m : 32;
    running = reinterpret_cast<std::uint32_t*>(cursor);
    row_total = running + mm;
    tile_start = row_total + mm;
    out_shift = tile_start + mm + 1;
  }

  __device__ Key* key_stage(std::uint32_t s) const { return key_stages + s * kKeyStage; }
  __device__ Value* value_stage(std::uint32_t s) const {
    if constexpr (kDirectValues) return value_stages;  // one reorder buffer
    else return value_stages + s * kValueStage;
  }

  // Starts the copy of items [base, base + count) into `stage`, as rows
  // (kDirectValues: keys only; the values' place is noted for rank()).
  __device__ void prefetch(std::uint32_t stage, const Key* keys_in, const Value* values_in, std::uint32_t base,
                           std::uint32_t count, bool keys_aligned, bool values_aligned) {
    prefetch_tile_rows<BlockThreads, Items, kKeyRow>(key_stage(stage), keys_in, base, count, keys_aligned);
    if constexpr (kDirectValues) {
      direct_values = values_in;
      direct_aligned = values_aligned;
      if (stage == 0) direct_base[0] = base;
      else direct_base[1] = base;
    } else if constexpr (kPairs) {
      prefetch_tile_rows<BlockThreads, Items, kValueRow>(value_stage(stage), values_in, base, count, values_aligned);
    }
  }

  // Each thread zeroes only its own column (it alone counts into it).
  // Counted in a register, the column is written whole every tile.
  __device__ void zero_counts() {
    if (kRegisterBuckets > 0 && m <= kRegisterBuckets) return;
    for (std::uint32_t b = 0; b < m; ++b) counters[b * BlockThreads + threadIdx.x] = 0;
  }

  // Ranks the tile in `stage` (tile_count items): leaves bucket | slot << 16
  // in bucket_rank (slot: the key's place in the reordered tile) and the
  // tile's bucket starts in tile_start[0..m]. Ends with a barrier.
  // Full: tile_count == kTile (no per-item checks).
  template <bool Full = false>
  __device__ void rank(const BucketFn& fn, std::uint32_t tile_count, std::uint32_t stage, Key (&key)[Items],
                       Value (&value)[kPairs ? Items : 1], std::uint32_t (&bucket_rank)[Items], ScanStorage&) {
    const std::uint32_t warp = threadIdx.x / kWarpThreads;
    const std::uint32_t lane = lane_id();
    const std::uint32_t first = threadIdx.x * Items;
    load_row(key_stage(stage) + threadIdx.x * kKeyRow, key);
    if constexpr (kDirectValues) {
      load_direct<Full>(direct_values + (stage == 0 ? direct_base[0] : direct_base[1]) + first, tile_count, value);
    } else if constexpr (kPairs) {
      load_row(value_stage(stage) + threadIdx.x * kValueRow, value);
    }

    // 1. Rank among my own keys of the same bucket (a block-uniform choice
    // of where the counters live while the row is counted).
    if constexpr (kRegisterBuckets > kByteFieldBuckets) {
      if (m <= kByteFieldBuckets) count_in_register<8, Full>(fn, tile_count, key, bucket_rank);
      else if (m <= kRegisterBuckets) count_in_register<4, Full>(fn, tile_count, key, bucket_rank);
      else count_in_shared<Full>(fn, tile_count, key, bucket_rank);
    } else if constexpr (kRegisterBuckets > 0) {
      if (m <= kRegisterBuckets) count_in_register<8, Full>(fn, tile_count, key, bucket_rank);
      else count_in_shared<Full>(fn, tile_count, key, bucket_rank);
    } else {
      count_in_shared<Full>(fn, tile_count, key, bucket_rank);
    }
    __syncthreads();

    // 2a. Each bucket's row: exclusive prefix over threads, in place.
    for (std::uint32_t b = warp; b < m; b += kWarps) {
      uint4* const row = reinterpret_cast<uint4*>(counters + b * BlockThreads);
      uint4 packed = row[lane];
      std::uint32_t words[4] = {packed.x, packed.y, packed.z, packed.w};
      std::uint32_t sum = 0;
#pragma unroll
      for (int i = 0; i < 4; ++i) sum += (words[i] & 0xFFFFu) + (words[i] >> 16);
      std::uint32_t row_keys = 0;
      std::uint32_t run = warp_exclusive_sum(sum, &row_keys);
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const std::uint32_t lo = words[i] & 0xFFFFu, hi = words[i] >> 16;
        words[i] = run | ((run + lo) << 16);
        run += lo + hi;
      }
      row[lane] = make_uint4(words[0], words[1], words[2], words[3]);
      if (lane == 0) row_total[b] = row_keys;
    }
    __syncthreads();

    // 2b. Bucket starts. Up to 32 buckets every warp scans the m row
    // totals (lane b holds bucket b), so each key's start is one shuffle
    // away; above, warp 0 scans them into tile_start.
    const bool shuffle_starts = m <= kThreadCountsShuffleBuckets;  // block-uniform
    std::uint32_t start = 0;
    if (shuffle_starts) {
      std::uint32_t keys_in_tile = 0;
      start = warp_exclusive_sum(lane < m ? row_total[lane] : 0u, &keys_in_tile);
      if (warp == 0) {
        if (lane < m) tile_start[lane] = start;
        if (lane == 0) tile_start[m] = keys_in_tile;
      }
    } else {
      if (warp == 0) warp_exclusive_scan_array(row_total, tile_start, m);
      __syncthreads();
    }

    // 3. Slot = bucket start + my first slot in the bucket + my rank. One
    // loop per way of finding the start (a block-uniform choice), so the
    // loop body has no branch per key.
    auto place = [&](auto shuffle_tag) {
      constexpr bool kShuffle = decltype(shuffle_tag)::value;
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const std::uint32_t b = bucket_rank[j] & 0xFFFFu;
        std::uint32_t bucket_start;
        if constexpr (kShuffle) bucket_start = __shfl_sync(kFullMask, start, static_cast<int>(b));
        else bucket_start = tile_start[b];
        if (Full || first + j < tile_count) {
          const std::uint32_t slot = bucket_start + load_counter(counter_address(b)) + (bucket_rank[j] >> 16);
          bucket_rank[j] = pack(b, slot);
        }
      }
    };
    if (shuffle_starts) place(std::true_type{});
    else place(std::false_type{});
    __syncthreads();
  }

  // Reorders into the given buffers, then writes each slot to slot +
  // out_shift[bucket] (out_shift published before the barrier here).
  // Zeroes my counters for the next tile.
  template <bool Full = false>
  __device__ void scatter(const BucketFn& fn, std::uint32_t tile_count, Key* tile_keys, Value* tile_values,
                          const Key (&key)[Items], const Value (&value)[kPairs ? Items : 1],
                          const std::uint32_t (&bucket_rank)[Items], Key* __restrict__ keys_out,
                          Value* __restrict__ values_out) {
    const std::uint32_t first = threadIdx.x * Items;
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      if (Full || first + j < tile_count) {
        const std::uint32_t slot = bucket_rank[j] >> 16;
        tile_keys[slot] = key[j];
        if constexpr (kPairs) tile_values[slot] = value[j];
        if constexpr (kStoreIds) tile_ids[slot] = static_cast<std::uint16_t>(bucket_rank[j] & 0xFFFFu);
      }
    }
    __syncthreads();
    write_out_tile<BlockThreads, Items, kStoreIds, Full>(fn, m, tile_count, tile_keys, tile_values, tile_ids,
                                                         out_shift, keys_out, values_out);
    // My column was last read in rank() (step 3), before the barrier above.
    zero_counts();
  }

 private:
  // Step 1 in shared memory: a load, an add and a store of my counter of
  // the key's bucket.
  template <bool Full>
  __device__ void count_in_shared(const BucketFn& fn, std::uint32_t tile_count, const Key (&key)[Items],
                                  std::uint32_t (&bucket_rank)[Items]) const {
    const std::uint32_t first = threadIdx.x * Items;
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      if (Full || first + j < tile_count) {
        const std::uint32_t b = bucket_of(fn, key[j], m);
        const std::uint32_t address = counter_address(b);
        const std::uint32_t before = load_counter(address);
        store_counter(address, before + 1);
        bucket_rank[j] = pack(b, before);
      } else {
        bucket_rank[j] = 0;
      }
    }
  }

  // Step 1 in one register, fields of FieldBits bits, bucket b's at bit
  // b * FieldBits: a key's rank is its field before the add, and nothing
  // waits on shared memory. (Counted in shared memory, each key's counter
  // load waits on the previous key's store: a chain of two shared-memory
  // latencies per key.) Then the column gets the m counts for the scan.
  // Bytes hold any count up to Items; a nibble holds every rank (at most
  // Items - 1 = 15) but not the count 16, which only a row of 16 keys of
  // one bucket reaches: that field wraps to 0 and carries 1 into the next,
  // and the register reads 16 << (4 * b0) with b0 the first key's bucket
  // (a value no other row can leave: it says one key, not 16).
  template <int FieldBits, bool Full>
  __device__ void count_in_register(const BucketFn& fn, std::uint32_t tile_count, const Key (&key)[Items],
                                    std::uint32_t (&bucket_rank)[Items]) const {
    static_assert((FieldBits == 8 && Items <= 255) || (FieldBits == 4 && Items <= 16),
                  "byte fields count up to 255 keys a row, nibbles rank up to 16");
    constexpr std::uint32_t kFieldMask = (1u << FieldBits) - 1;
    const std::uint32_t first = threadIdx.x * Items;
    std::uint32_t packed = 0;
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      if (Full || first + j < tile_count) {
        const std::uint32_t b = bucket_of(fn, key[j], m);
        const std::uint32_t shift = b * FieldBits;
        const std::uint32_t fields = packed >> shift;  // field b in the low bits
        packed += 1u << shift;
        // bytes: the PRMT that packs also drops the fields above b's
        bucket_rank[j] = FieldBits == 8 ? __byte_perm(b, fields, 0x3410) : pack(b, fields & kFieldMask);
      } else {
        bucket_rank[j] = 0;
      }
    }
    const std::uint32_t b0 = bucket_rank[0] & 0xFFFFu;
    const bool wrapped = FieldBits == 4 && Items == 16 && packed == (16u << (4 * b0));
    if (!wrapped) {
#pragma unroll
      for (std::uint32_t b = 0; b < kRegisterBuckets; ++b)
        if (b < m) store_counter(counter_address(b), (packed >> (b * FieldBits)) & kFieldMask);
    } else {
#pragma unroll
      for (std::uint32_t b = 0; b < kRegisterBuckets; ++b)
        if (b < m) store_counter(counter_address(b), b == b0 ? 16u : 0u);
    }
  }

  // This thread's counter of bucket b (common.cuh: one IMAD per access).
  __device__ std::uint32_t counter_address(std::uint32_t b) const {
    return detail::counter_address<BlockThreads * sizeof(std::uint16_t)>(shared_address(counters + threadIdx.x), b);
  }
  // bucket | slot << 16 (both below 2^16) as one PRMT; the compiler turned
  // the shift-and-or into a multiply-add and two masks.
  __device__ static std::uint32_t pack(std::uint32_t bucket, std::uint32_t slot) {
    return __byte_perm(bucket, slot, 0x5410);
  }
  // kDirectValues: thread t's Items values from global memory (src = its first).
  template <bool Full>
  __device__ void load_direct(const Value* src, std::uint32_t tile_count, Value (&value)[Items]) const {
    const std::uint32_t first = threadIdx.x * Items;
    if ((Full || first + Items <= tile_count) && direct_aligned) {
      load_row(src, value);
    } else {
#pragma unroll
      for (int j = 0; j < Items; ++j)
        if (Full || first + j < tile_count) value[j] = src[j];
    }
  }
  // Thread t's row of the stage into registers, as 16-byte vectors.
  template <class T>
  __device__ static void load_row(const T* row, T (&items)[Items]) {
    constexpr int kVectors = static_cast<int>(Items * sizeof(T) / 16);
    uint4 vectors[kVectors];
    const uint4* src = reinterpret_cast<const uint4*>(row);
#pragma unroll
    for (int q = 0; q < kVectors; ++q) vectors[q] = src[q];
    std::memcpy(items, vectors, sizeof(items));
  }
};

template <int BlockThreads, int Items, class Key, class Value>
__host__ __device__ constexpr std::size_t block_thread_counts_bytes(std::uint32_t m, bool store_ids) {
  return BlockTileThreadCounts<BlockThreads, Items, Key, Value, NoBucketFn>::bytes(m, store_ids, 2);
}

}  // namespace detail
}  // namespace multisplit
