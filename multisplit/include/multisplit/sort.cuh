// Multisplit radix sort: LSD passes of r-bit bit-digit multisplit (Ashkiani,
// Davidson, Meyer, Owens, "GPU Multisplit", PPoPP 2016, section 6.3), with
// CUB's conventions (cub::DeviceRadixSort::SortKeys / SortPairs):
//
//   size_t temp_bytes = 0;
//   multisplit::sort_pairs(nullptr, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n);  // size
//   cudaMalloc(&d_temp, temp_bytes);
//   multisplit::sort_pairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
//                          begin_bit, end_bit, stream);
//
// * Sorts by the key bits [begin_bit, end_bit) (default: all of them),
//   ascending; the whole key (and its value) moves. Stable: keys whose bits
//   in that range are equal keep their input order.
// * Keys: 32- or 64-bit unsigned integers; values: any trivially copyable
//   type (tested: 32-bit values with 32-bit keys, 64-bit with 64-bit).
//   0 <= n <= 2^31 - 1.
// * The result lands in d_keys_out / d_values_out; the inputs are not
//   written. In place (d_*_in == d_*_out) is allowed; partly overlapping
//   input and output ranges are refused.
// * Two-phase temporary storage: the first call, with d_temp == nullptr,
//   sets temp_bytes (about n * (sizeof(Key) + sizeof(Value)) for the double
//   buffer, plus the count matrices). A size queried for one bit range and
//   n serves every smaller n with the same bit range, key, value and device.
// * Stream-ordered: no host synchronisation, no allocation (checked by
//   capturing a call into a CUDA graph in tests/gpu/test_multisplit_sort.cu).
// * Errors come back as cudaError_t: cudaErrorInvalidValue for bad bit
//   ranges, n >= 2^31, missing pointers, overlapping ranges or a too-small
//   temporary buffer; launch errors as CUDA reports them.
//
// How it runs (detail/device/sort_passes.cuh): ceil(bits / r) passes of a
// three-phase multisplit by one r-bit digit (bit counts shared evenly, 32
// bits at r = 7: 7 7 6 6 6); per pass the library's counting pre-scan
// (detail/device/counting_prescan.cuh, at full occupancy), one
// cub::DeviceScan over the digit x chunk count matrix, and the BMS
// post-scan, which prefetches the next tile with cp.async
// (detail/device/block_postscan.cuh).
//
// The defaults (default_sort_tuning, default_block_items) were chosen with
// sort_bench over the digit width r, n and the keys per thread: 32-bit keys
// and pairs take r = 7 (32 bits as 7 7 6 6 6) with the library's BMS tiles,
// r = 8 (four passes) up to wide_digit_max_items, and pairs from
// large_tile_min_items a fixed 24-item tile; where the device runs 32-bit
// pairs' 256-bucket passes in the 512-thread pair tile (wide_pair_passes:
// its shared memory fits, as on sm_90), pairs take r = 8 and the library's
// tiles at every n. Wide digits win
// because every pass re-reads and rewrites all keys and the per-pass cost
// grows slowly with the digit count (past 32 buckets the tile ranks through
// shared peer masks); at 256 buckets the post-scan's shared memory grows
// enough to cost more than a fifth pass saves, except at moderate n, where
// each pass's fixed cost (three launches, a count-matrix scan) weighs
// more. cub::DeviceRadixSort is faster: its onesweep
// sort (Adinets & Merrill 2022) reads the keys once per pass, ordering tiles
// by decoupled look-back (Merrill & Garland 2016), while a multisplit pass
// reads them twice (pre-scan and post-scan) and orders its chunks through a
// global scan. The sweep and the comparison with CUB: docs/TUNING.md, "Radix sort".
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "detail/common.cuh"
#include "detail/device/sort_passes.cuh"

namespace multisplit {

namespace detail {
// The n-dependent rules below were measured for 32-bit keys, alone or with
// 32-bit values (docs/TUNING.md, "Radix sort"); other types keep r = 7 and
// the library's tiles at every n.
template <class Key, class Value>
constexpr bool sort_rules_by_n() {
  return sizeof(Key) == 4 && (!has_values<Value>() || sizeof(Value) == 4);
}

// Whether the current device runs the 256-bucket passes of a sort of
// 32-bit keys and values in the 512-thread pair tile (the split's own
// choice for a large pass: dispatch.cuh, policies.cuh; the rule below was
// measured with that tile, so a device that would take the 384-thread one
// keeps the rules for other devices). False for other types. Asked once per device:
// the answer depends only on the device, and the plan's queries (kernel
// attributes, occupancy, CUB's size query) would otherwise run on every
// sort call.
template <class Key, class Value>
cudaError_t wide_pair_passes(bool& wide) {
  wide = false;
  if constexpr (sort_rules_by_n<Key, Value>() && has_values<Value>()) {
    constexpr int kCachedDevices = 64;
    static std::atomic<signed char> known[kCachedDevices] = {};  // 0: not asked yet, 1: no, 2: yes
    DeviceLimits limits;
    MULTISPLIT_RETURN_IF_ERROR(cudaGetDevice(&limits.device));
    const bool cached = limits.device >= 0 && limits.device < kCachedDevices;
    if (cached && known[limits.device].load(std::memory_order_relaxed) != 0) {
      wide = known[limits.device].load(std::memory_order_relaxed) == 2;
      return cudaSuccess;
    }
    MULTISPLIT_RETURN_IF_ERROR(query_device(limits));
    typename ThreePhase<Key, Value, bit_buckets<Key>>::Plan plan;
    MULTISPLIT_RETURN_IF_ERROR((ThreePhase<Key, Value, bit_buckets<Key>>::plan(
        plan, Method::Block, 1u << 30, 256u, bit_buckets<Key>(0, 8), limits)));
    wide = plan.wide_threads == static_cast<std::uint32_t>(Policies<Key, Value>::kBlockWideThreads);
    if (cached) known[limits.device].store(wide ? 2 : 1, std::memory_order_relaxed);
  }
  return cudaSuccess;
}

// Largest n sorted with 8-bit digits; above it, 7 (0: never). r = 8 is
// faster up to 2^25 keys and 2^24 pairs, slower past them; with the wide
// pair passes (wide_pair_passes) pairs take it at every n measured (2^20 to
// 2^28).
template <class Key, class Value>
constexpr std::uint32_t wide_digit_max_items(bool wide_pairs) {
  if constexpr (!sort_rules_by_n<Key, Value>()) return 0;
  else if constexpr (has_values<Value>()) return wide_pairs ? 0xFFFFFFFFu : 1u << 24;
  else return 1u << 25;
}

// Smallest n from which pairs sort with one fixed BMS tile of
// kLargeSortTileItems in every pass instead of the library's tiles (0:
// never; keys alone never do): faster from 2^27 pairs, slower below; never
// with the wide pair passes (their library tile is faster).
constexpr int kLargeSortTileItems = 24;
template <class Key, class Value>
constexpr std::uint32_t large_tile_min_items(bool wide_pairs) {
  return sort_rules_by_n<Key, Value>() && has_values<Value>() && !wide_pairs ? 1u << 27 : 0;
}

// The measured choice (see above): digit bits per pass for n items, the
// block post-scan, and the library's own BMS tiles for each pass's bucket
// count (kLibraryBlockItems), or the fixed tile from large_tile_min_items.
template <class Key, class Value>
constexpr SortTuning default_sort_tuning(std::uint32_t n, bool wide_pairs) {
  SortTuning tuning;
  tuning.max_radix_bits = n <= wide_digit_max_items<Key, Value>(wide_pairs) ? 8 : 7;
  tuning.method = Method::Block;
  return tuning;
}
template <class Key, class Value>
constexpr int default_block_items(std::uint32_t n, bool wide_pairs) {
  const std::uint32_t large_min = large_tile_min_items<Key, Value>(wide_pairs);
  return large_min > 0 && n >= large_min ? kLargeSortTileItems : kLibraryBlockItems;
}

// radix_sort with the defaults for n (digit width and tile).
template <class Key, class Value>
cudaError_t default_sort_at(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                            const Value* values_in, Value* values_out, std::uint32_t n, int begin_bit, int end_bit,
                            cudaStream_t stream, bool wide_pairs) {
  const SortTuning tuning = default_sort_tuning<Key, Value>(n, wide_pairs);
  if constexpr (large_tile_min_items<Key, Value>(false) > 0) {
    if (default_block_items<Key, Value>(n, wide_pairs) == kLargeSortTileItems)
      return radix_sort<Key, Value, kLargeSortTileItems>(d_temp, temp_bytes, keys_in, keys_out, values_in,
                                                         values_out, n, begin_bit, end_bit, stream, tuning);
  }
  return radix_sort<Key, Value, kLibraryBlockItems>(d_temp, temp_bytes, keys_in, keys_out, values_in, values_out, n,
                                                    begin_bit, end_bit, stream, tuning);
}

// default_sort_at, where a size query (d_temp == nullptr) also covers the
// largest n of every smaller regime (wider digits, the library's tiles),
// so that, as documented, a size asked for n serves every smaller n.
template <class Key, class Value>
cudaError_t default_sort(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                         const Value* values_in, Value* values_out, std::uint32_t n, int begin_bit, int end_bit,
                         cudaStream_t stream) {
  bool wide_pairs = false;
  MULTISPLIT_RETURN_IF_ERROR((wide_pair_passes<Key, Value>(wide_pairs)));
  MULTISPLIT_RETURN_IF_ERROR((default_sort_at<Key, Value>(d_temp, temp_bytes, keys_in, keys_out, values_in,
                                                          values_out, n, begin_bit, end_bit, stream, wide_pairs)));
  if (d_temp != nullptr) return cudaSuccess;
  const std::uint32_t large_min = large_tile_min_items<Key, Value>(wide_pairs);
  const std::uint32_t regime_ends[] = {wide_digit_max_items<Key, Value>(wide_pairs),
                                       large_min > 0 ? large_min - 1 : 0u};
  for (const std::uint32_t end : regime_ends) {
    if (end == 0 || end >= n) continue;
    std::size_t bytes = 0;
    MULTISPLIT_RETURN_IF_ERROR((default_sort_at<Key, Value>(nullptr, bytes, keys_in, keys_out, values_in, values_out,
                                                            end, begin_bit, end_bit, stream, wide_pairs)));
    temp_bytes = temp_bytes > bytes ? temp_bytes : bytes;
  }
  return cudaSuccess;
}
}  // namespace detail

template <class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::uint32_t n,
                      int begin_bit = 0, int end_bit = static_cast<int>(sizeof(Key) * 8), cudaStream_t stream = 0) {
  using V = detail::NullValue;
  return detail::default_sort<Key, V>(d_temp, temp_bytes, d_keys_in, d_keys_out, nullptr, nullptr, n, begin_bit,
                                      end_bit, stream);
}

template <class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::uint32_t n, int begin_bit = 0,
                       int end_bit = static_cast<int>(sizeof(Key) * 8), cudaStream_t stream = 0) {
  return detail::default_sort<Key, Value>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                          begin_bit, end_bit, stream);
}

}  // namespace multisplit
