// Bucketed delta-stepping (Meyer and Sanders, "Delta-stepping: a
// parallelizable shortest path algorithm", J. Algorithms 2003) on top of the
// near-far device loop (near_far.cuh, bucketed mode): phases are delta-wide
// windows, bucket(dist) = floor(dist / delta).
//
// Near-far re-scans its whole far pile at every phase. Here a "full split"
// cuts the far pile into B buckets at once, relative to the smallest live
// window `base`:
//
//   bucket r = window - base for r = 0 .. B-2 ("ready" buckets, one phase
//   each), bucket B-1 = everything further (overflow), bucket B = discarded
//   entries (duplicates, and stale ones whose window was already processed).
//
// and the next B-1 phases take their near sets from the ready buckets; only
// entries pushed to the far pile since the split are scanned per phase. The
// full split is the strategy's reorganisation primitive:
//
//   bucket-sort        label each entry with its bucket and reorder with a
//                      CUB radix sort over the few bits of the bucket id (the
//                      original bucketing design);
//   bucket-multisplit  one multisplit::split_keys call with a functor that
//                      computes the bucket from the distance array: Ashkiani
//                      et al., "GPU Multisplit" (PPoPP 2016), section 7.2.
//
// A full split happens when the next window lies past the ready buckets and
// the overflow bucket is not empty, or when no ready bucket is left and the
// far pile holds more than kFullSplitMinFar entries (below that a scan is
// cheaper than the host round trip). The sort and the multisplit take their
// item count from the host, so each full split costs one synchronisation;
// rounds in between stay on the device.
#pragma once

#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sssp/cuda_check.cuh"
#include "sssp/near_far.cuh"
#include "sssp/relax.cuh"
#include "sssp/workspace.cuh"

#include <multisplit/multisplit.cuh>

namespace sssp::detail {

constexpr std::uint32_t kFullSplitMinFar = 4096;

// Bucket of a far-pile entry relative to *base_bucket; kNoItem and entries
// whose window is at most *window (already processed: stale) go to bucket
// `windows` (B), past the overflow bucket B - 1.
template <class Codec>
struct DistanceBuckets {
  const label_t* labels = nullptr;
  const unsigned long long* base_bucket = nullptr;  // device
  const unsigned long long* window = nullptr;       // device
  typename Codec::Delta delta{};
  std::uint32_t windows = 0;  // B

  __host__ __device__ std::uint32_t operator()(std::uint32_t v) const {
#ifdef __CUDA_ARCH__
    if (v == kNoItem) return windows;
    const std::uint64_t b = bucket_of(Codec::dist(load_label(labels + v)), delta);
    if (b <= *window) return windows;
    const std::uint64_t base = *base_bucket;
    const std::uint64_t rel = b > base ? b - base : 0;
    return rel < windows - 1 ? static_cast<std::uint32_t>(rel) : windows - 1;
#else
    (void)v;
    return 0;  // only ever called on the device
#endif
  }
};

// Keeps the first occurrence of each vertex, marks the others kNoItem.
template <int kUnused = 0>  // a template: header kernels need vague linkage
__global__ void mark_duplicates(std::uint32_t* items, std::uint32_t n, std::uint32_t* stamps, std::uint32_t stamp) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t v = items[i];
    if (v != kNoItem && atomicExch(stamps + v, stamp) == stamp) items[i] = kNoItem;
  }
}

// Smallest live distance key (window past the current one) into st->min_key.
template <class Codec>
__global__ void min_live_key(const std::uint32_t* items, std::uint32_t n, const label_t* labels,
                             NearFarState<Codec>* st) {
  const unsigned long long window = st->window;
  const auto delta = st->delta;
  unsigned long long best = Codec::inf_key();
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t v = items[i];
    if (v == kNoItem) continue;
    const auto d = Codec::dist(load_label(labels + v));
    if (bucket_of(d, delta) <= window) continue;
    const unsigned long long k = Codec::key(d);
    best = k < best ? k : best;
  }
  for (int off = 16; off > 0; off >>= 1) {
    const unsigned long long other = __shfl_down_sync(0xFFFFFFFFu, best, off);
    best = other < best ? other : best;
  }
  if ((threadIdx.x & 31u) == 0 && best != Codec::inf_key()) atomicMin(&st->min_key, best);
}

template <class Codec>
__global__ void set_base_bucket(NearFarState<Codec>* st) {
  const unsigned long long k = st->min_key;
  st->base_bucket = k == Codec::inf_key() ? st->window + 1 : bucket_of(Codec::dist_from_key(k), st->delta);
  st->min_key = Codec::inf_key();
}

// bucket-sort: each entry's bucket as its sort key, and per-bucket counts
// (shared-memory histogram of B + 1 bins).
template <class Codec>
__global__ void label_buckets(const std::uint32_t* items, std::uint32_t* keys, std::uint32_t n,
                              DistanceBuckets<Codec> bucket, std::uint32_t* counts) {
  extern __shared__ std::uint32_t hist[];
  const std::uint32_t bins = bucket.windows + 1;
  for (std::uint32_t b = threadIdx.x; b < bins; b += blockDim.x) hist[b] = 0;
  __syncthreads();
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t k = bucket(items[i]);
    keys[i] = k;
    atomicAdd(hist + k, 1u);
  }
  __syncthreads();
  for (std::uint32_t b = threadIdx.x; b < bins; b += blockDim.x)
    if (hist[b] != 0) atomicAdd(counts + b, hist[b]);
}

// counts[0 .. bins) -> offsets[0 .. bins] (exclusive scan, in place).
template <int kUnused = 0>
__global__ void counts_to_offsets(std::uint32_t* offsets, std::uint32_t bins) {
  std::uint32_t sum = 0;
  for (std::uint32_t b = 0; b < bins; ++b) {
    const std::uint32_t c = offsets[b];
    offsets[b] = sum;
    sum += c;
  }
  offsets[bins] = sum;
}

// After a full split into `ready` (offsets: B + 2 entries): the far pile was
// consumed; pick the next phase.
template <class Codec>
__global__ void after_full_split(NearFarState<Codec>* st, const std::uint32_t* ready, const std::uint32_t* offsets,
                                 std::uint32_t stamp_seq) {
  st->ready = ready;
  st->overflow_begin = offsets[st->num_buckets - 1];
  st->overflow_end = offsets[st->num_buckets];
  st->ready_offsets = offsets;
  st->have_ready = 1;
  st->ready_next = 0;
  st->far_count = 0;
  st->far_min_key = Codec::inf_key();
  st->stamp_seq = stamp_seq;
  st->need_full_split = 0;
  ++st->full_splits;
  start_phase(st);
}

inline std::uint32_t bits_for(std::uint32_t values) {  // bits to hold 0 .. values - 1
  std::uint32_t bits = 1;
  while ((1ull << bits) < values) ++bits;
  return bits;
}

inline int grid_for(std::uint64_t n, int block, int max_grid) {
  const std::uint64_t g = (n + static_cast<std::uint64_t>(block) - 1) / static_cast<std::uint64_t>(block);
  return static_cast<int>(g < 1 ? 1 : (g > static_cast<std::uint64_t>(max_grid) ? max_grid : g));
}

// Temporary bytes a full split needs for up to `max_items` entries.
template <class Codec>
std::size_t bucketing_temp_bytes(std::uint64_t max_items, std::uint32_t windows, bool multisplit) {
  std::size_t bytes = 0;
  const int n = static_cast<int>(max_items);
  if (!multisplit) {
    SSSP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                                    static_cast<std::uint32_t*>(nullptr),
                                                    static_cast<const std::uint32_t*>(nullptr),
                                                    static_cast<std::uint32_t*>(nullptr), n, 0,
                                                    static_cast<int>(bits_for(windows + 1))));
    return bytes;
  }
  SSSP_CUDA_CHECK(multisplit::split_keys(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                         static_cast<std::uint32_t*>(nullptr), static_cast<std::uint32_t>(max_items),
                                         windows + 1, DistanceBuckets<Codec>{}, static_cast<std::uint32_t*>(nullptr)));
  return bytes;
}

template <class Codec>
StrategyStats run_bucketing(const Workspace<typename Codec::Weight>& ws, std::uint32_t source,
                            typename Codec::Delta delta, std::uint32_t windows, bool use_multisplit) {
  using State = NearFarState<Codec>;
  static_assert(sizeof(State) <= kStateBytes);
  auto* d_state = static_cast<State*>(ws.state);
  auto* h_state = static_cast<State*>(ws.host_state);
  *h_state = near_far_initial_state<Codec>(ws, delta);
  h_state->bucketed = 1;
  h_state->num_buckets = windows;
  h_state->full_split_at = kFullSplitMinFar;
  SSSP_CUDA_CHECK(cudaMemcpyAsync(ws.small[0], &source, sizeof source, cudaMemcpyHostToDevice, ws.stream));
  SSSP_CUDA_CHECK(cudaMemcpyAsync(d_state, h_state, sizeof(State), cudaMemcpyHostToDevice, ws.stream));

  const DistanceBuckets<Codec> bucket{ws.labels, &d_state->base_bucket, &d_state->window, delta, windows};
  std::uint32_t* piles[2] = {ws.big[0], ws.big[1]};
  int cur = 0;  // piles[cur] holds the ready buckets

  auto full_split = [&](const State& h) {
    // Input: the overflow bucket of the last full split, then the far pile.
    // Every ready bucket is used up when a full split is asked for.
    const std::uint32_t overflow_begin = h.have_ready ? h.overflow_begin : 0;
    const std::uint32_t overflow_end = h.have_ready ? h.overflow_end : 0;
    std::uint32_t* in = piles[cur] + overflow_begin;
    const std::uint32_t n_far = h.far_count;
    if (n_far > 0)
      SSSP_CUDA_CHECK(cudaMemcpyAsync(piles[cur] + overflow_end, h.far[h.far_parity], n_far * sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToDevice, ws.stream));
    const std::uint32_t n = overflow_end - overflow_begin + n_far;
    if (n > ws.big_capacity) throw std::runtime_error("sssp: internal error: the bucket pile overflowed");
    const std::uint32_t stamp = h.stamp_seq + 1;
    std::uint32_t* out = piles[cur ^ 1];
    if (n > 0) {
      const int grid = grid_for(n, 256, ws.stream_grid);
      mark_duplicates<><<<grid, 256, 0, ws.stream>>>(in, n, ws.stamps_a, stamp);
      SSSP_CHECK_LAUNCH("mark_duplicates");
      min_live_key<Codec><<<grid, 256, 0, ws.stream>>>(in, n, ws.labels, d_state);
      SSSP_CHECK_LAUNCH("min_live_key");
      set_base_bucket<Codec><<<1, 1, 0, ws.stream>>>(d_state);
      SSSP_CHECK_LAUNCH("set_base_bucket");
      if (use_multisplit) {
        std::size_t temp_bytes = ws.temp_bytes;
        SSSP_CUDA_CHECK(multisplit::split_keys(ws.temp, temp_bytes, static_cast<const std::uint32_t*>(in), out, n,
                                               windows + 1, bucket, ws.bucket_offsets, ws.stream));
      } else {
        SSSP_CUDA_CHECK(cudaMemsetAsync(ws.bucket_offsets, 0, (windows + 2) * sizeof(std::uint32_t), ws.stream));
        label_buckets<Codec><<<grid, 256, (windows + 1) * sizeof(std::uint32_t), ws.stream>>>(
            in, ws.keys[0], n, bucket, ws.bucket_offsets);
        SSSP_CHECK_LAUNCH("label_buckets");
        std::size_t temp_bytes = ws.temp_bytes;
        SSSP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
            ws.temp, temp_bytes, static_cast<const std::uint32_t*>(ws.keys[0]), ws.keys[1],
            static_cast<const std::uint32_t*>(in), out, static_cast<int>(n), 0, static_cast<int>(bits_for(windows + 1)),
            ws.stream));
        counts_to_offsets<><<<1, 1, 0, ws.stream>>>(ws.bucket_offsets, windows + 1);
        SSSP_CHECK_LAUNCH("counts_to_offsets");
      }
    } else {
      SSSP_CUDA_CHECK(cudaMemsetAsync(ws.bucket_offsets, 0, (windows + 2) * sizeof(std::uint32_t), ws.stream));
    }
    after_full_split<Codec><<<1, 1, 0, ws.stream>>>(d_state, out, ws.bucket_offsets, stamp);
    SSSP_CHECK_LAUNCH("after_full_split");
    cur ^= 1;
  };
  return near_far_loop<Codec>(ws, full_split);
}

}  // namespace sssp::detail
