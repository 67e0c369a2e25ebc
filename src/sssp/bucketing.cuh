// Bucketed delta-stepping (Meyer and Sanders, "Delta-stepping: a
// parallelizable shortest path algorithm", J. Algorithms 2003) with B buckets
// kept as one "pile" array reorganised every round:
//
//   relative bucket r = floor(dist / delta) - base, for r = 0 .. B-2,
//   bucket B-1 = everything further (overflow), bucket B = discarded entries.
//
// Each round relaxes the lowest non-empty bucket (the frontier); the vertices
// it improves are appended behind the rest of the pile; duplicates are marked
// (a vertex can sit in the pile and be improved again); then the pile minus
// the frontier is split into buckets by the vertices' current distances:
//
//   bucket-sort        label each entry with its bucket and reorder with a
//                      CUB radix sort over the few bits of the bucket id (the
//                      original bucketing design);
//   bucket-multisplit  one multisplit::split_keys call with a functor that
//                      computes the bucket from the distance array: Ashkiani
//                      et al., "GPU Multisplit" (PPoPP 2016), section 7.2.
//
// The pile is re-split every round, so a stale entry costs one pass, never a
// wrong answer: whatever order vertices are relaxed in, every improved vertex
// is relaxed again later (label-correcting), and buckets only decide when.
// When buckets 0 .. B-2 are all empty the base jumps to the bucket of the
// smallest distance left in the overflow bucket.
//
// Host round trips: the sort and the multisplit take their item count from
// the host, so each round reads one small status block back (one
// synchronisation per round; frontier bounds stay on the device).
#pragma once

#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sssp/cuda_check.cuh"
#include "sssp/relax.cuh"
#include "sssp/workspace.cuh"

#if __has_include(<multisplit/multisplit.cuh>)
#include <multisplit/multisplit.cuh>
#define SSSP_HAVE_MULTISPLIT 1
#else
#define SSSP_HAVE_MULTISPLIT 0
#endif

namespace sssp::detail {

struct BucketState {
  std::uint32_t frontier_begin;  // the frontier is pile[frontier_begin, + frontier_count)
  std::uint32_t frontier_count;
  std::uint32_t pile_end;        // live entries end here (discarded ones follow)
  std::uint32_t append_pos;      // the relax appends improved vertices here
  std::uint32_t rebase;          // only the overflow bucket is non-empty
  std::uint32_t overflow;
  unsigned long long base_bucket;  // absolute bucket of relative bucket 0
  unsigned long long min_key;
  unsigned long long relaxations;
  unsigned long long buckets_processed;
};

// Relative bucket of a pile entry; kNoItem (a discarded duplicate) goes to
// bucket `windows` (B), past the overflow bucket B - 1.
template <class Codec>
struct DistanceBuckets {
  const label_t* labels = nullptr;
  const unsigned long long* base_bucket = nullptr;  // device
  typename Codec::Delta delta{};
  std::uint32_t windows = 0;  // B

  __host__ __device__ std::uint32_t operator()(std::uint32_t v) const {
#ifdef __CUDA_ARCH__
    if (v == kNoItem) return windows;
    const std::uint64_t b = bucket_of(Codec::dist(load_label(labels + v)), delta);
    const std::uint64_t base = *base_bucket;
    const std::uint64_t rel = b > base ? b - base : 0;
    return rel < windows - 1 ? static_cast<std::uint32_t>(rel) : windows - 1;
#else
    (void)v;
    return 0;  // only ever called on the device
#endif
  }
};

template <class Codec>
struct BucketSink {
  QueueAppender out;
  __device__ __forceinline__ bool queued(std::uint32_t u) const { return out.queued(u); }
  __device__ __forceinline__ void improved(std::uint32_t v, typename Codec::Dist) const { out.push(v); }
};

template <class Codec>
__global__ void __launch_bounds__(kRelaxBlock) bucket_relax(GraphView<typename Codec::Weight> g, label_t* labels,
                                                            std::uint32_t* stamps, std::uint32_t* pile,
                                                            std::uint32_t capacity, std::uint32_t stamp,
                                                            BucketState* st, bool track_pred) {
  __shared__ RelaxShared<Codec> sh;
  const std::uint32_t count = st->frontier_count;
  const BucketSink<Codec> sink{QueueAppender{pile, &st->append_pos, capacity, stamps, stamp, &st->overflow}};
  relax_frontier<Codec>(g, labels, pile + st->frontier_begin, count, track_pred, sink, sh, &st->relaxations);
}

// Keeps the first occurrence of each vertex, marks the others kNoItem.
template <int kUnused = 0>  // a template: header kernels need vague linkage
__global__ void mark_duplicates(std::uint32_t* items, std::uint32_t n, std::uint32_t* stamps, std::uint32_t stamp) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t v = items[i];
    if (v != kNoItem && atomicExch(stamps + v, stamp) == stamp) items[i] = kNoItem;
  }
}

// bucket-sort: marks duplicates, writes each entry's bucket as its sort key
// and counts entries per bucket (shared-memory histogram, B + 1 bins).
template <class Codec>
__global__ void label_buckets(std::uint32_t* items, std::uint32_t* keys, std::uint32_t n, std::uint32_t* stamps,
                              std::uint32_t stamp, DistanceBuckets<Codec> bucket, std::uint32_t* counts) {
  extern __shared__ std::uint32_t hist[];
  const std::uint32_t bins = bucket.windows + 1;
  for (std::uint32_t b = threadIdx.x; b < bins; b += blockDim.x) hist[b] = 0;
  __syncthreads();
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    std::uint32_t v = items[i];
    if (v != kNoItem && atomicExch(stamps + v, stamp) == stamp) {
      v = kNoItem;
      items[i] = kNoItem;
    }
    const std::uint32_t k = bucket(v);
    keys[i] = k;
    atomicAdd(hist + k, 1u);
  }
  __syncthreads();
  for (std::uint32_t b = threadIdx.x; b < bins; b += blockDim.x)
    if (hist[b] != 0) atomicAdd(counts + b, hist[b]);
}

// Picks the next frontier: the lowest non-empty bucket among 0 .. B-2.
// offsets[b] .. offsets[b+1] is bucket b (B + 2 entries). With
// from_counts, offsets holds per-bucket counts and is scanned first.
template <int kUnused = 0>
__global__ void select_frontier(std::uint32_t* offsets, std::uint32_t windows, bool from_counts, BucketState* st) {
  if (from_counts) {
    std::uint32_t sum = 0;
    for (std::uint32_t b = 0; b <= windows; ++b) {
      const std::uint32_t c = offsets[b];
      offsets[b] = sum;
      sum += c;
    }
    offsets[windows + 1] = sum;
  }
  const std::uint32_t live_end = offsets[windows];
  st->pile_end = live_end;
  st->append_pos = live_end;
  st->rebase = 0;
  for (std::uint32_t b = 0; b + 1 < windows; ++b) {
    if (offsets[b + 1] > offsets[b]) {
      st->frontier_begin = offsets[b];
      st->frontier_count = offsets[b + 1] - offsets[b];
      if (b > 0) {
        st->base_bucket += b;
        ++st->buckets_processed;
      }
      return;
    }
  }
  st->frontier_begin = offsets[windows - 1];  // the overflow bucket (maybe empty) is all that is left
  st->frontier_count = 0;
  st->rebase = live_end > offsets[windows - 1] ? 1u : 0u;
}

template <class Codec>
__global__ void min_distance_key(const std::uint32_t* items, std::uint32_t n, const label_t* labels,
                                 BucketState* st) {
  unsigned long long best = Codec::inf_key();
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t v = items[i];
    if (v == kNoItem) continue;
    const unsigned long long k = Codec::key(Codec::dist(load_label(labels + v)));
    best = k < best ? k : best;
  }
  for (int off = 16; off > 0; off >>= 1) {
    const unsigned long long other = __shfl_down_sync(0xFFFFFFFFu, best, off);
    best = other < best ? other : best;
  }
  if ((threadIdx.x & 31u) == 0 && best != Codec::inf_key()) atomicMin(&st->min_key, best);
}

template <class Codec>
__global__ void rebase_buckets(BucketState* st, typename Codec::Delta delta) {
  st->base_bucket = bucket_of(Codec::dist_from_key(st->min_key), delta);
  st->min_key = Codec::inf_key();
  st->rebase = 0;
  ++st->buckets_processed;
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

// Temporary bytes the reorganisation needs for up to `max_items` entries.
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
#if SSSP_HAVE_MULTISPLIT
  SSSP_CUDA_CHECK(multisplit::split_keys(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                         static_cast<std::uint32_t*>(nullptr), static_cast<std::uint32_t>(max_items),
                                         windows + 1, DistanceBuckets<Codec>{}, static_cast<std::uint32_t*>(nullptr)));
#else
  (void)windows;
#endif
  return bytes;
}

template <class Codec>
StrategyStats run_bucketing(const Workspace<typename Codec::Weight>& ws, std::uint32_t source,
                            typename Codec::Delta delta, std::uint32_t windows, bool use_multisplit) {
#if !SSSP_HAVE_MULTISPLIT
  if (use_multisplit)
    throw std::runtime_error("sssp: bucket-multisplit is not available: this build has no multisplit library");
#endif
  static_assert(sizeof(BucketState) <= kStateBytes);
  auto* d_state = static_cast<BucketState*>(ws.state);
  auto* h_state = static_cast<BucketState*>(ws.host_state);
  BucketState init{};
  init.frontier_count = 1;
  init.pile_end = 1;
  init.append_pos = 1;
  init.min_key = Codec::inf_key();
  init.buckets_processed = 1;
  *h_state = init;
  std::uint32_t* pile[2] = {ws.big[0], ws.big[1]};
  const auto capacity = static_cast<std::uint32_t>(ws.big_capacity);
  SSSP_CUDA_CHECK(cudaMemcpyAsync(pile[0], &source, sizeof source, cudaMemcpyHostToDevice, ws.stream));
  SSSP_CUDA_CHECK(cudaMemcpyAsync(d_state, h_state, sizeof init, cudaMemcpyHostToDevice, ws.stream));

  const DistanceBuckets<Codec> bucket{ws.labels, &d_state->base_bucket, delta, windows};
  StrategyStats stats;
  int cur = 0;
  for (std::uint32_t round = 1;; ++round) {
    bucket_relax<Codec><<<ws.relax_grid, kRelaxBlock, 0, ws.stream>>>(ws.graph, ws.labels, ws.stamps_a, pile[cur],
                                                                      capacity, 2 * round, d_state, ws.track_pred);
    SSSP_CHECK_LAUNCH("bucket_relax");
    SSSP_CUDA_CHECK(cudaMemcpyAsync(h_state, d_state, sizeof(BucketState), cudaMemcpyDeviceToHost, ws.stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(ws.stream));
    const BucketState h = *h_state;
    if (h.overflow || h.append_pos > capacity)
      throw std::runtime_error("sssp: internal error: the bucket pile overflowed");
    if (h.frontier_count > 0) ++stats.iterations;
    const std::uint32_t rest = h.frontier_begin + h.frontier_count;
    const std::uint32_t n = h.append_pos - rest;
    if (n == 0) {
      stats.relaxations = h.relaxations;
      stats.buckets_processed = h.buckets_processed;
      return stats;
    }
    std::uint32_t* in = pile[cur] + rest;
    const int grid = grid_for(n, 256, ws.stream_grid);
    if (h.rebase) {
      min_distance_key<Codec><<<grid, 256, 0, ws.stream>>>(in, n, ws.labels, d_state);
      SSSP_CHECK_LAUNCH("min_distance_key");
      rebase_buckets<Codec><<<1, 1, 0, ws.stream>>>(d_state, delta);
      SSSP_CHECK_LAUNCH("rebase_buckets");
    }
    const std::uint32_t dedup_stamp = 2 * round + 1;
    if (use_multisplit) {
#if SSSP_HAVE_MULTISPLIT
      mark_duplicates<><<<grid, 256, 0, ws.stream>>>(in, n, ws.stamps_a, dedup_stamp);
      SSSP_CHECK_LAUNCH("mark_duplicates");
      std::size_t temp_bytes = ws.temp_bytes;
      SSSP_CUDA_CHECK(multisplit::split_keys(ws.temp, temp_bytes, static_cast<const std::uint32_t*>(in), pile[cur ^ 1],
                                             n, windows + 1, bucket, ws.bucket_offsets, ws.stream));
#endif
    } else {
      SSSP_CUDA_CHECK(cudaMemsetAsync(ws.bucket_offsets, 0, (windows + 2) * sizeof(std::uint32_t), ws.stream));
      label_buckets<Codec><<<grid, 256, (windows + 1) * sizeof(std::uint32_t), ws.stream>>>(
          in, ws.keys[0], n, ws.stamps_a, dedup_stamp, bucket, ws.bucket_offsets);
      SSSP_CHECK_LAUNCH("label_buckets");
      std::size_t temp_bytes = ws.temp_bytes;
      SSSP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(ws.temp, temp_bytes, static_cast<const std::uint32_t*>(ws.keys[0]),
                                                      ws.keys[1], static_cast<const std::uint32_t*>(in), pile[cur ^ 1],
                                                      static_cast<int>(n), 0, static_cast<int>(bits_for(windows + 1)),
                                                      ws.stream));
    }
    select_frontier<><<<1, 1, 0, ws.stream>>>(ws.bucket_offsets, windows, !use_multisplit, d_state);
    SSSP_CHECK_LAUNCH("select_frontier");
    cur ^= 1;
  }
}

}  // namespace sssp::detail
