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
// bits at r = 6: 6 6 5 5 5 5); per pass the library's counting pre-scan
// (detail/device/counting_prescan.cuh, at full occupancy), one
// cub::DeviceScan over the digit x chunk count matrix, and the BMS
// post-scan, which prefetches the next tile with cp.async
// (detail/device/block_postscan.cuh).
//
// The choice of r and of the pass variant was measured with sort_bench on an
// NVIDIA H200 (CUB 3.0.1, uniform 32-bit keys, 32 bits, median of 20 runs;
// results/nvidia-h200/2026-11-23/multisplit_sort.{txt,json}, commit
// a9ae56a). Gkeys/s (Gpairs/s) with the library's BMS post-scan, 16 keys
// per thread, by r, and cub::DeviceRadixSort:
//
//   n      kind   r=4   r=5   r=6   r=7   r=8   CUB    default / CUB
//   2^25   keys   22.5  24.3  25.8  25.5  26.3  39.5   r=8, 24 keys/thread: 26.8, 0.68x
//   2^28   keys   25.8  27.9  29.3  28.6  29.6  42.4   r=8, 24 keys/thread: 30.9, 0.73x
//   2^25   pairs  17.4  19.0  19.6  18.7  16.8  33.2   r=6: 19.6, 0.59x
//   2^28   pairs  19.8  21.6  22.1  20.3  17.5  36.2   r=6: 22.1, 0.61x
//
// (Pairs took r = 7 until the BMS tiles of up to 32 buckets ranked with
// thread-private counters; r = 6 splits 32 bits as 6 6 5 5 5 5, and the
// 5-bit passes gained most. Keys alone at r = 8 run best with 24 keys per
// thread (2-4% over 16); 32 was slower everywhere, and 24 much slower for
// pairs: 13.2-14.4 Gpairs/s at 2^28.)
// Fewer, wider digits win for keys because every pass re-reads and rewrites
// all keys and the per-pass cost grows slowly with the digit count up to
// 256 buckets; pairs move twice the bytes per pass in the post-scan, which
// then costs more at 256 buckets than a fifth pass of 7 bits saves. (The
// table was measured with the sort's own cp.async BMS post-scan and radix
// pre-scan; both have since become the library's block_postscan.cuh and
// counting_prescan.cuh, which every multisplit now uses.) CUB wins
// everywhere: its onesweep sort (Adinets & Merrill 2022) reads the keys
// once per pass, ordering tiles by decoupled look-back (Merrill & Garland
// 2016), while a multisplit pass reads them twice (pre-scan and post-scan)
// and orders its chunks through a global scan. The paper's 0.88x (keys)
// and 1.10x (pairs) predate onesweep: they were measured against CUB's
// older reduce-then-scan radix sort.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "detail/common.cuh"
#include "detail/device/sort_passes.cuh"

namespace multisplit {

namespace detail {
// The measured choice (table above): digit bits per pass, the block
// post-scan, and the tile's keys per thread (24 for 32-bit keys alone, else
// the library's BMS value).
template <class Key, class Value>
constexpr SortTuning default_sort_tuning() {
  SortTuning tuning;
  tuning.max_radix_bits = has_values<Value>() ? 6 : 8;
  tuning.method = Method::Block;
  return tuning;
}
template <class Key, class Value>
constexpr int default_block_items() {
  return sizeof(Key) == 4 && !has_values<Value>() ? 24 : Policies<Key, Value>::kBlockItems;
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
