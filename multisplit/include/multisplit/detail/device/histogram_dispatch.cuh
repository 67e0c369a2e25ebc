// Dispatch of multisplit::histogram: argument checks, the counter-table
// choice, grid size (one resident wave, grid-stride over tiles), launch.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "../common.cuh"
#include "dispatch.cuh"
#include "histogram_kernels.cuh"

namespace multisplit {
namespace detail {

// How the table paths (m > 32, or all m with PlainAtomics) count a window.
enum class HistogramTuning {
  Auto,          // the measured default: PlainAtomics (see plan_histogram)
  Ballots,       // the pre-scan's counting: ballots (m <= 32: lane registers) or
                 // ballots / __match_any_sync and one shared atomic per group of equal buckets
  PlainAtomics,  // one shared atomic per key into per-warp tables (CUB privatises per block)
};

struct HistogramPlan {
  HistogramTable table = HistogramTable::LaneRegisters;
  bool aggregate = true;
  std::uint32_t grid = 0;
  std::size_t smem = 0;
  std::uint32_t functor_bytes = 0;
};

template <class Key, class BucketFn>
cudaError_t plan_histogram(HistogramPlan& plan, std::uint32_t n, std::uint32_t m, const BucketFn& fn,
                           HistogramTuning tuning) {
  using P = HistogramPolicy<Key>;
  constexpr std::uint32_t kWarps = P::kThreads / kWarpThreads;
  DeviceLimits limits;
  MULTISPLIT_RETURN_IF_ERROR(query_device(limits));
  plan.functor_bytes = static_cast<std::uint32_t>(functor_shared_bytes(fn));
  if (plan.functor_bytes > limits.max_shared_bytes) return cudaErrorInvalidValue;
  const std::size_t budget = limits.max_shared_bytes - plan.functor_bytes;
  // Auto = plain atomics into per-warp tables: on an H200 (histogram_bench,
  // m = 2..256, uniform, skewed and constant samples) they beat the ballot
  // counting everywhere, which is issue-bound (log2(m) ballots or
  // __match_any_sync per 32 keys, where an atomic is one instruction;
  // Hopper's shared atomics absorb even all-equal keys). Numbers:
  // docs/TUNING.md, "Histogram". The ballot path stays selectable for other
  // GPUs and for measurement.
  plan.aggregate = tuning == HistogramTuning::Ballots;
  const std::size_t warp_tables_bytes = static_cast<std::size_t>(kWarps) * m * sizeof(std::uint32_t);
  if (m <= 32 && plan.aggregate) {
    plan.table = HistogramTable::LaneRegisters;
    plan.smem = kWarps * kWarpThreads * sizeof(std::uint32_t);
  } else if (warp_tables_bytes <= std::min(P::kWarpTablesMaxBytes, budget)) {
    plan.table = HistogramTable::WarpShared;
    plan.smem = warp_tables_bytes;
  } else if (static_cast<std::size_t>(m) * sizeof(std::uint32_t) <= budget) {
    plan.table = HistogramTable::BlockShared;
    plan.smem = static_cast<std::size_t>(m) * sizeof(std::uint32_t);
  } else {
    plan.table = HistogramTable::Global;
    plan.smem = 0;
  }
  plan.smem += plan.functor_bytes;
  const auto kernel = histogram_kernel<P::kThreads, P::kItems, Key, BucketFn>;
  if (plan.smem > 48 * 1024)
    MULTISPLIT_RETURN_IF_ERROR(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(plan.smem)));
  int blocks_per_sm = 0;
  MULTISPLIT_RETURN_IF_ERROR(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, P::kThreads, plan.smem));
  if (blocks_per_sm < 1) return cudaErrorInvalidConfiguration;
  const std::uint32_t tiles = div_up(n, static_cast<std::uint32_t>(P::kThreads * P::kItems));
  plan.grid = std::max(1u, std::min(tiles, static_cast<std::uint32_t>(blocks_per_sm * limits.sm_count)));
  return cudaSuccess;
}

// device_n: nullptr, or a device-side count (then n is its maximum and the
// kernel counts min(*device_n, n) keys).
template <class Key, class BucketFn>
cudaError_t histogram(void* d_temp, std::size_t& temp_bytes, const Key* keys, std::uint32_t n,
                      const std::uint32_t* device_n, std::uint32_t m, BucketFn fn, std::uint32_t* counts,
                      cudaStream_t stream, HistogramTuning tuning) {
  if (m == 0 || n > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max())) return cudaErrorInvalidValue;
  // No temporary storage is needed (block totals go to the output with
  // atomics); the CUB-style size query is kept so that callers need not
  // change if a later version needs some. Never 0 bytes: d_temp stays non-null.
  constexpr std::size_t kNeeded = 1;
  if (d_temp == nullptr) {
    temp_bytes = kNeeded;
    return cudaSuccess;
  }
  if (temp_bytes < kNeeded || counts == nullptr || (n > 0 && keys == nullptr)) return cudaErrorInvalidValue;
  MULTISPLIT_RETURN_IF_ERROR(cudaMemsetAsync(counts, 0, static_cast<std::size_t>(m) * sizeof(std::uint32_t), stream));
  if (n == 0) return cudaSuccess;
  HistogramPlan plan;
  MULTISPLIT_RETURN_IF_ERROR(plan_histogram<Key>(plan, n, m, fn, tuning));
  using P = HistogramPolicy<Key>;
  histogram_kernel<P::kThreads, P::kItems, Key, BucketFn><<<plan.grid, P::kThreads, plan.smem, stream>>>(
      keys, n, device_n, vector_loadable(keys), m, ceil_log2(m), fn, plan.functor_bytes, plan.table, plan.aggregate,
      counts);
  return cudaGetLastError();
}

template <class Key, class BucketFn>
cudaError_t histogram(void* d_temp, std::size_t& temp_bytes, const Key* keys, std::uint32_t n, std::uint32_t m,
                      BucketFn fn, std::uint32_t* counts, cudaStream_t stream, HistogramTuning tuning) {
  return histogram(d_temp, temp_bytes, keys, n, static_cast<const std::uint32_t*>(nullptr), m, fn, counts, stream,
                   tuning);
}

}  // namespace detail
}  // namespace multisplit
