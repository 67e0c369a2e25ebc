// Device histogram on the multisplit pre-scan: counts how many of n keys
// fall into each of m buckets given by a bucket functor. CUB conventions:
//
//   size_t temp_bytes = 0;
//   multisplit::histogram(nullptr, temp_bytes, d_keys, n, m, fn, d_counts);   // size query
//   cudaMalloc(&d_temp, temp_bytes);
//   multisplit::histogram(d_temp, temp_bytes, d_keys, n, m, fn, d_counts, stream);
//
// * "Even" and "range" histograms are functor choices: even_buckets<float>
//   (lower, upper, m; cub::DeviceHistogram::HistogramEven's formula),
//   delta_buckets (integer keys), range_buckets (m - 1 sorted splitters,
//   copied to shared memory), identity_buckets, bit_buckets, or your own
//   `uint32_t(Key)` functor. Bucket ids >= m are clamped to m - 1, as in
//   split_keys (CUB's histograms drop out-of-range samples instead).
// * d_counts: m 32-bit counters on the device, overwritten (not added to).
// * Any m >= 1, 0 <= n <= 2^31 - 1. Per-warp tables up to m = 1536, then
//   one table per block while shared memory holds it (about 58000 buckets
//   on an H100/H200), past that warp-aggregated global atomics. Measured
//   rates: docs/BENCHMARKS.md and docs/TUNING.md, "Histogram".
// * One pass: each warp counts into its own table in shared memory (one
//   shared atomic per key; the multisplit pre-scan's ballot counting is
//   kept as detail::HistogramTuning::Ballots, slower on an H200), each block
//   adds its totals to d_counts with one global atomic per bucket.
// * Stream-ordered: a memset and one kernel, no host synchronisation, no
//   allocation. Counts are exact and deterministic (integer atomics).
// * Device-side item count: the overload taking `const uint32_t*
//   d_num_items, uint32_t max_items` counts keys[0, min(*d_num_items,
//   max_items)), the count read by the kernel on the device (stream order);
//   the grid is sized for max_items. Capturable into a CUDA graph and
//   replayable with a different count each time.
// Errors come back as cudaError_t: cudaErrorInvalidValue for m == 0, n too
// large, missing pointers (d_num_items included) or a too-small temporary
// buffer.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "buckets.hpp"
#include "detail/device/histogram_dispatch.cuh"
#include "detail/histogram_buckets.cuh"

namespace multisplit {

template <class Key, class BucketFn>
cudaError_t histogram(void* d_temp, std::size_t& temp_bytes, const Key* d_keys, std::uint32_t n,
                      std::uint32_t num_buckets, BucketFn bucket_of, std::uint32_t* d_counts, cudaStream_t stream = 0) {
  return detail::histogram(d_temp, temp_bytes, d_keys, n, num_buckets, bucket_of, d_counts, stream,
                           detail::HistogramTuning::Auto);
}

template <class Key, class BucketFn>
cudaError_t histogram(void* d_temp, std::size_t& temp_bytes, const Key* d_keys, const std::uint32_t* d_num_items,
                      std::uint32_t max_items, std::uint32_t num_buckets, BucketFn bucket_of, std::uint32_t* d_counts,
                      cudaStream_t stream = 0) {
  if (d_temp != nullptr && d_num_items == nullptr) return cudaErrorInvalidValue;
  return detail::histogram(d_temp, temp_bytes, d_keys, max_items, d_num_items, num_buckets, bucket_of, d_counts,
                           stream, detail::HistogramTuning::Auto);
}

}  // namespace multisplit
