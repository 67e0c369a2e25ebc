// LSD radix sort built from bit-digit multisplits (Ashkiani, Davidson, Meyer,
// Owens, "GPU Multisplit", PPoPP 2016, section 6.3 "multisplit-sort"): each
// pass is a stable multisplit of the keys into m = 2^r buckets by one r-bit
// digit (bit_buckets), lowest digit first, so after the last pass the keys
// are ordered by all digits and equal keys keep their input order.
//
// A pass is the library's three-phase multisplit (pre-scan, one
// cub::DeviceScan over the bucket x chunk count matrix, post-scan; see
// three_phase_kernels.cuh), driven from here instead of through split_keys
// so that
//   * the device is queried and each digit width planned once per sort, not
//     once per pass, and one temporary block serves every pass;
//   * the digit shift goes to the kernels as a plain functor argument;
//   * no bucket-offset array is written (a sort does not need it).
// The pre-scan (counting_prescan.cuh) and the post-scans (DMS, WMS, or the
// cp.async-prefetching BMS of block_postscan.cuh) are the library's own;
// a tuning run may swap the library's BMS tiles for one fixed tile
// (BlockItems).
#pragma once

#include <cub/device/device_scan.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "../../buckets.hpp"
#include "../../method.hpp"
#include "../common.cuh"
#include "chunk_layout.cuh"
#include "dispatch.cuh"
#include "block_postscan.cuh"
#include "counting_prescan.cuh"

namespace multisplit {
namespace detail {

// How a sort runs its passes. Public entry points use default_sort_tuning(n);
// sort_bench sweeps the rest.
struct SortTuning {
  int max_radix_bits = 8;          // r: digit bits per pass (1..8); the passes share the bits evenly
  Method method = Method::Block;   // post-scan: Direct, Warp or Block (others are refused)
};

// Digit widths of an LSD sort over `bits` bits with at most r bits a pass:
// passes = ceil(bits / r), widths as equal as possible, the wider ones first
// (32 bits at r = 7: 7 7 6 6 6). At most two widths, so at most two plans.
struct DigitPlan {
  int passes = 0;
  int wide_passes = 0;  // the first wide_passes passes take narrow_bits + 1 bits
  int narrow_bits = 0;

  static DigitPlan make(int bits, int max_radix_bits) {
    DigitPlan plan;
    if (bits <= 0) return plan;
    plan.passes = (bits + max_radix_bits - 1) / max_radix_bits;
    plan.narrow_bits = bits / plan.passes;
    plan.wide_passes = bits % plan.passes;
    return plan;
  }
  int bits_of(int pass) const { return pass < wide_passes ? narrow_bits + 1 : narrow_bits; }
};

// BlockItems of the library's own BMS tiles: whichever split_keys and
// split_pairs take for the pass's bucket count (thread counters up to 32
// buckets, the warp-ranked tile of Policies::kBlockSplitItems above,
// interleaved where Policies::interleave_tiles says so).
constexpr int kLibraryBlockItems = 0;

// ------------------------------------------------------------- one pass
// BlockItems: kLibraryBlockItems reuses the library's plan as is; N > 0
// runs every BMS pass with the warp-ranked tile of N keys per thread (256
// threads), chunks of consecutive tiles re-cut for it (a tuning run: the
// library's BMS kernel is a template on the tile).
template <class Key, class Value, int BlockItems>
struct RadixPass {
  using Fn = bit_buckets<Key>;
  using Three = ThreePhase<Key, Value, Fn>;
  using Plan = typename Three::Plan;
  using P = Policies<Key, Value>;
  static constexpr int kBlockThreads = P::kBlockThreads;
  static constexpr bool kLibraryTile = BlockItems == kLibraryBlockItems;
  // The fixed tile's size (unused, and its kernel never instantiated, when
  // the library's tiles run).
  static constexpr int kFixedItems = kLibraryTile ? P::kBlockSplitItems : BlockItems;

  // (Chunks of consecutive tiles only: plan_fixed_tile never interleaves.)
  using FixedPost = BlockPostscan<BlockTileSplit<kBlockThreads, kFixedItems, Key, Value, Fn>, Key, Value, Fn,
                                  PostscanLayouts::kChunked>;

  static cudaError_t plan(Plan& plan, Method method, std::uint32_t n, int digit_bits, const DeviceLimits& limits) {
    const std::uint32_t m = 1u << digit_bits;
    const Fn fn(0, static_cast<std::uint32_t>(digit_bits));
    MULTISPLIT_RETURN_IF_ERROR(Three::plan(plan, method, n, m, fn, limits));
    if constexpr (!kLibraryTile) {
      if (method == Method::Block) return plan_fixed_tile(plan, n, m, limits);
    }
    return cudaSuccess;
  }

  // Replans a BMS pass for the fixed tile of kFixedItems keys per thread.
  static cudaError_t plan_fixed_tile(Plan& plan, std::uint32_t n, std::uint32_t m, const DeviceLimits& limits) {
    // Same rules as ThreePhase::plan (one chunk per resident block, the
    // count matrix kept small next to n), for this tile and kernel (always
    // the warp-ranked BlockTileSplit).
    plan.thread_counts = false;
    plan.interleaved = false;  // chunks of consecutive tiles, as the layout below
    plan.wide_threads = 0;
    plan.post_smem = block_postscan_bytes<kBlockThreads, kFixedItems, Key, Value>(m, block_postscan_stores_ids<Fn>());
    if (plan.post_smem > limits.max_shared_bytes) return cudaErrorInvalidConfiguration;
    int blocks_per_sm = 0;
    MULTISPLIT_RETURN_IF_ERROR(FixedPost::blocks_per_sm(false, m, plan.post_smem, blocks_per_sm));
    if (blocks_per_sm < 1) return cudaErrorInvalidConfiguration;
    const std::uint32_t sms = static_cast<std::uint32_t>(limits.sm_count);
    const std::uint32_t chunks =
        std::min(static_cast<std::uint32_t>(blocks_per_sm) * sms, std::max(sms, div_up(n, m)));
    plan.layout = ChunkLayout::make(n, static_cast<std::uint32_t>(kBlockThreads) * kFixedItems, chunks);
    plan.post_grid = plan.layout.num_chunks;
    MULTISPLIT_RETURN_IF_ERROR(Three::plan_prescan(plan, m, limits));
    const std::size_t cells = static_cast<std::size_t>(m) * plan.layout.num_chunks;
    plan.temp = TempLayout<Three::kParts>();
    plan.temp.bytes[Three::kCounts] = cells * sizeof(std::uint32_t);
    std::size_t scan_bytes = 0;
    MULTISPLIT_RETURN_IF_ERROR(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<std::uint32_t*>(nullptr),
                                                             static_cast<std::uint32_t*>(nullptr),
                                                             static_cast<std::uint32_t>(cells)));
    plan.temp.bytes[Three::kScanTemp] = scan_bytes;
    plan.temp.finish();
    return cudaSuccess;
  }

  // Stable multisplit of keys_in[0, n) by the digit at `shift` (n = the plan's n > 0).
  static cudaError_t run(const Plan& plan, void* d_temp, const Key* keys_in, Key* keys_out, const Value* values_in,
                         Value* values_out, std::uint32_t shift, int digit_bits, cudaStream_t stream) {
    const std::uint32_t m = 1u << digit_bits;
    const Fn fn(shift, static_cast<std::uint32_t>(digit_bits));
    std::uint32_t* counts = plan.temp.template get<std::uint32_t>(d_temp, Three::kCounts);
    void* scan_temp = plan.temp.template get<void>(d_temp, Three::kScanTemp);
    std::size_t scan_bytes = plan.temp.bytes[Three::kScanTemp];
    const std::uint32_t num_chunks = plan.layout.num_chunks;
    const std::uint32_t cells = m * num_chunks;

    MULTISPLIT_RETURN_IF_ERROR(Three::launch_prescan(plan, keys_in, m, fn, counts, stream));
    MULTISPLIT_RETURN_IF_ERROR(cudaGetLastError());
    MULTISPLIT_RETURN_IF_ERROR(cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, counts, counts, cells, stream));
    if constexpr (!kLibraryTile) {
      if (plan.method == Method::Block) {
        return FixedPost::launch(false, plan.post_grid, plan.post_smem, plan.layout, keys_in, keys_out, values_in,
                                 values_out, m, digit_bits, fn, plan.functor_bytes, counts, nullptr, stream);
      }
    }
    return Three::launch_postscan(plan, keys_in, keys_out, values_in, values_out, m, fn, counts, stream);
  }
};

// Do [a, a + n) and [b, b + n) share memory without being the same range?
template <class T>
bool partially_overlap(const T* a, const T* b, std::uint32_t n) {
  if (a == b) return false;
  const auto pa = reinterpret_cast<std::uintptr_t>(a), pb = reinterpret_cast<std::uintptr_t>(b);
  const std::uintptr_t bytes = static_cast<std::uintptr_t>(n) * sizeof(T);
  return pa < pb + bytes && pb < pa + bytes;
}

// ------------------------------------------------------------- the sort
// Temporary storage: [alternate keys n][alternate values n][pass temp: the
// larger of the (at most two) digit widths' three-phase temp]. Passes
// ping-pong between d_keys_out and the alternate buffer, arranged so that
// the last pass writes d_keys_out; with in-place input (in == out) the first
// pass must not write over its own input, so it goes to the alternate buffer
// and an odd pass count ends with one copy.
template <class Key, class Value, int BlockItems = kLibraryBlockItems>
cudaError_t radix_sort(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                       const Value* values_in, Value* values_out, std::uint32_t n, int begin_bit, int end_bit,
                       cudaStream_t stream, const SortTuning& tuning) {
  static_assert(std::is_integral<Key>::value && std::is_unsigned<Key>::value,
                "multisplit::sort_* sorts unsigned integer keys");
  static_assert(sizeof(Key) == 4 || sizeof(Key) == 8, "keys of 32 or 64 bits");
  constexpr int kKeyBits = static_cast<int>(sizeof(Key) * 8);
  constexpr bool kPairs = has_values<Value>();
  if (n > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max()) || begin_bit < 0 ||
      end_bit > kKeyBits || begin_bit > end_bit || tuning.max_radix_bits < 1 || tuning.max_radix_bits > 8 ||
      !(tuning.method == Method::Direct || tuning.method == Method::Warp || tuning.method == Method::Block))
    return cudaErrorInvalidValue;

  const DigitPlan digits = DigitPlan::make(end_bit - begin_bit, tuning.max_radix_bits);
  using Pass = RadixPass<Key, Value, BlockItems>;
  typename Pass::Plan narrow_plan, wide_plan;
  DeviceLimits limits;
  enum { kAltKeys, kAltValues, kPassTemp, kParts };
  TempLayout<kParts> layout;
  if (n > 0 && digits.passes > 0) {
    MULTISPLIT_RETURN_IF_ERROR(query_device(limits));
    const Method narrow_method = resolve<Key, Value>(tuning.method, 1u << digits.narrow_bits, 0, false, limits);
    if (narrow_method == Method::SortBased) return cudaErrorNotSupported;
    MULTISPLIT_RETURN_IF_ERROR(
        Pass::plan(narrow_plan, narrow_method, n, digits.narrow_bits, limits));
    std::size_t pass_bytes = narrow_plan.temp.total;
    if (digits.wide_passes > 0) {
      const Method wide_method = resolve<Key, Value>(tuning.method, 2u << digits.narrow_bits, 0, false, limits);
      if (wide_method == Method::SortBased) return cudaErrorNotSupported;
      MULTISPLIT_RETURN_IF_ERROR(
          Pass::plan(wide_plan, wide_method, n, digits.narrow_bits + 1, limits));
      pass_bytes = std::max(pass_bytes, wide_plan.temp.total);
    }
    layout.bytes[kAltKeys] = static_cast<std::size_t>(n) * sizeof(Key);
    if constexpr (kPairs) layout.bytes[kAltValues] = static_cast<std::size_t>(n) * sizeof(Value);
    layout.bytes[kPassTemp] = pass_bytes;
  }
  layout.finish();
  if (d_temp == nullptr) {
    temp_bytes = layout.total;
    return cudaSuccess;
  }
  if (temp_bytes < layout.total) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  if (keys_in == nullptr || keys_out == nullptr || partially_overlap(keys_in, keys_out, n))
    return cudaErrorInvalidValue;
  if constexpr (kPairs) {
    if (values_in == nullptr || values_out == nullptr || partially_overlap(values_in, values_out, n))
      return cudaErrorInvalidValue;
  }

  Key* alt_keys = layout.template get<Key>(d_temp, kAltKeys);
  Value* alt_values = kPairs ? layout.template get<Value>(d_temp, kAltValues) : nullptr;
  void* pass_temp = layout.template get<void>(d_temp, kPassTemp);
  const bool in_place = keys_in == keys_out || (kPairs && values_in == values_out);
  const Key* src_keys = keys_in;
  const Value* src_values = values_in;
  int shift = begin_bit;
  for (int pass = 0; pass < digits.passes; ++pass) {
    const bool to_out = in_place ? pass % 2 == 1 : (digits.passes - 1 - pass) % 2 == 0;
    Key* dst_keys = to_out ? keys_out : alt_keys;
    Value* dst_values = to_out ? values_out : alt_values;
    const int bits = digits.bits_of(pass);
    const auto& plan = bits == digits.narrow_bits ? narrow_plan : wide_plan;
    MULTISPLIT_RETURN_IF_ERROR(Pass::run(plan, pass_temp, src_keys, dst_keys, src_values, dst_values,
                                         static_cast<std::uint32_t>(shift), bits, stream));
    src_keys = dst_keys;
    src_values = dst_values;
    shift += bits;
  }
  // No passes (empty bit range: every key has the same digit) or an odd
  // pass count in place: the result still has to reach the output.
  if (src_keys != keys_out)
    MULTISPLIT_RETURN_IF_ERROR(cudaMemcpyAsync(keys_out, src_keys, static_cast<std::size_t>(n) * sizeof(Key),
                                               cudaMemcpyDeviceToDevice, stream));
  if constexpr (kPairs) {
    if (src_values != values_out)
      MULTISPLIT_RETURN_IF_ERROR(cudaMemcpyAsync(values_out, src_values, static_cast<std::size_t>(n) * sizeof(Value),
                                                 cudaMemcpyDeviceToDevice, stream));
  }
  return cudaSuccess;
}

}  // namespace detail
}  // namespace multisplit
