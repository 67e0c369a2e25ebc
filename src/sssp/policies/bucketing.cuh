// Bucketed delta-stepping (Meyer and Sanders, "Delta-stepping: a
// parallelizable shortest path algorithm", J. Algorithms 2003) as a frontier
// policy of the engine (engine.cuh), with near-far's far pile (far_pile.cuh):
// phases are delta-wide windows, bucket(dist) = floor(dist / delta).
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
// cheaper than a split). A full split pauses the device loop (loop.paused).
// bucket-multisplit resolves the pause on the device (bucket_split_block.cuh):
// in one block when the pile is small enough, else in a cooperative grid,
// and the next step goes on with no host round trip. Where neither can
// (more than 63 buckets, no cooperative launch, or the options say so), and
// always for bucket-sort, the host launches the device-wide sort or
// multisplit, which take their item count from the host: one
// synchronisation per full split.
#pragma once

#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sssp/policies/bucket_split_block.cuh"
#include "sssp/common/cuda_check.cuh"
#include "sssp/common/grid.cuh"
#include "sssp/engine/engine.cuh"
#include "sssp/policies/far_pile.cuh"
#include "sssp/balance/relax.cuh"
#include "sssp/engine/workspace.cuh"

#include <multisplit/multisplit.cuh>

namespace sssp::detail {

constexpr std::uint32_t kFullSplitMinFar = 4096;
// A full split that fills fewer than kMinFilledReadyBuckets of its ready
// buckets served one or two phases, where a scan of the pile per phase (as
// near-far does, inside the round's kernel) costs less than the pause: on
// graphs whose improved distances land within a window or two of the current
// one (delta far above the weights: grids, meshes) every full split is such a
// split. Each one doubles the far-pile size that asks for the next full split
// (full_split_at); a split that fills more brings it back to
// kFullSplitMinFar. docs/TUNING.md, "Full splits that pay".
constexpr std::uint32_t kMinFilledReadyBuckets = 3;
static_assert(kBlockSplitMaxBuckets <= kPauseGridScratch, "a grid split's per-block counts fit the pause scratch");
constexpr unsigned long long kNoWindow = ~0ull;

template <class CodecT>
struct BucketingPolicy {
  using Codec = CodecT;
  using Weight = typename Codec::Weight;
  using Dist = typename Codec::Dist;

  struct State {
    LoopState loop;
    FarPile far;
    typename Codec::Delta delta;
    unsigned long long phases;
    unsigned long long window;       // the current window (near: bucket <= window)
    typename Codec::Delta window_begin, window_end;  // its distances: [begin, end) (labels.cuh, bucket_end)
    std::uint32_t have_ready;        // ready buckets exist
    std::uint32_t num_buckets;       // B: ready buckets 0 .. B-2, overflow B-1
    std::uint32_t ready_next;        // first ready bucket not taken yet
    std::uint32_t take_begin, take_count;  // ready segment the current split folds into the near set
    std::uint32_t full_split_at;     // far-pile size that asks for a full split when no ready bucket is left
    std::uint32_t full_splits;
    std::uint32_t overflow_begin, overflow_end;  // the overflow bucket in `ready`
    const std::uint32_t* ready;          // the ready buckets (output of the last full split): piles[cur]
    const std::uint32_t* ready_offsets;  // B + 2 entries
    unsigned long long base_bucket;  // window of ready bucket 0
    unsigned long long min_key;      // full-split scratch
    std::uint32_t* piles[2];         // a full split reads piles[cur] (its overflow bucket) and writes the other
    std::uint32_t* offsets;          // where a full split writes its B + 2 bucket offsets
    std::uint32_t cur;
    std::uint32_t block_split_max;   // full splits of at most this many entries run in one block (0: none)
    std::uint32_t block_splits;      // of full_splits, those
    std::uint32_t grid_split;        // larger ones run in a cooperative grid (0: the host's)
    std::uint32_t grid_splits;       // of full_splits, those
  };

  struct IsNear {
    typename Codec::Delta window_end;
    __device__ __forceinline__ bool operator()(Dist d) const { return d < window_end; }  // bucket <= window
  };
  template <class Out>
  using Sink = FarPileSink<Codec, Out, IsNear>;

  static constexpr bool kHasSplits = true;
  // In the cluster regime too. Bucketing drops far-pile entries below its
  // window as stale, so unlike near-far it depends on the far pile's tracked
  // minimum being exact, also where the cluster's blocks lower it through
  // distributed shared memory (far_pile.cuh, atomic_min_by_cas).
  static constexpr bool kClusterLoop = true;
  // A pause (a full split) may be resolved on the device, by one block or a
  // cooperative grid (engine.cuh, engine_resolve_pause).
  static constexpr bool kPauseOnDevice = true;
  using PauseShared = BlockSplitShared;

  template <class Out>
  __device__ static Sink<Out> sink(const EngineContext<Weight>& ctx, const State& view, State* st, const Out& out) {
    return Sink<Out>{out, far_appender(view.far, &st->far, ctx.stamps_pile, &st->loop.overflow), &st->far,
                     IsNear{view.window_end}};
  }

  // The near set ran empty: the next window is the lower of the first
  // non-empty ready bucket and the far pile's smallest window; or end, or
  // pause for a full split (the host's). One thread.
  __device__ static void frontier_empty(State* st) {
    const std::uint32_t far = volatile_load(&st->far.count);
    const unsigned long long far_min = volatile_load(&st->far.min_key);
    const unsigned long long w_far =
        (far > 0 && far_min != Codec::inf_key()) ? bucket_of(Codec::dist_from_key(far_min), st->delta) : kNoWindow;
    unsigned long long w_ready = kNoWindow;
    std::uint32_t j = st->ready_next;
    bool overflow_left = false;
    if (st->have_ready) {
      const std::uint32_t last = st->num_buckets - 1;  // the overflow bucket
      for (; j < last; ++j)
        if (st->ready_offsets[j + 1] > st->ready_offsets[j]) {
          w_ready = st->base_bucket + j;
          break;
        }
      overflow_left = st->ready_offsets[last + 1] > st->ready_offsets[last];
    }
    const unsigned long long w = w_far < w_ready ? w_far : w_ready;
    const bool past_ready = !st->have_ready || w == kNoWindow || w > st->base_bucket + (st->num_buckets - 2);
    if (w == kNoWindow && !overflow_left) {
      if (far > 0) {  // entries but no finite far_min (cannot happen): let a full split sort it out
        st->loop.paused = 1;
        return;
      }
      st->loop.done = 1;
      return;
    }
    if ((past_ready && overflow_left) || (w_ready == kNoWindow && far > st->full_split_at)) {
      st->loop.paused = 1;
      return;
    }
    set_window(st, w);
    if (w == w_ready) {
      st->take_begin = st->ready_offsets[j];
      st->take_count = st->ready_offsets[j + 1] - st->ready_offsets[j];
      st->ready_next = j + 1;
    } else {
      st->take_count = 0;
    }
    arm_far_split(st->loop, st->far, far, Codec::inf_key());
    ++st->phases;
  }

  __host__ __device__ static void set_window(State* st, unsigned long long w) {
    st->window = w;
    st->window_begin = w == 0 ? typename Codec::Delta{0} : bucket_end(w - 1, st->delta);
    st->window_end = bucket_end(w, st->delta);
  }

  __host__ __device__ static unsigned long long phase_count(const State* st) { return st->phases; }
  __device__ static std::uint32_t split_items(const State& view) { return view.far.split_count + view.take_count; }

  // A full split's input: the overflow bucket of the last one (entries
  // overflow_first .. + overflow_items of piles[cur]), then the far pile.
  __host__ __device__ static std::uint32_t overflow_first(const State& s) {
    return s.have_ready ? s.overflow_begin : 0;
  }
  __host__ __device__ static std::uint32_t overflow_items(const State& s) {
    return s.have_ready ? s.overflow_end - s.overflow_begin : 0;
  }
  // Where the pause `view` holds can be resolved: one block, the grid (when
  // the kernel has one), or only the host.
  __device__ static PauseSite pause_site(const State& view, bool grid) {
    if (view.block_split_max == 0) return PauseSite::Host;
    if (overflow_items(view) + view.far.count <= view.block_split_max) return PauseSite::Block;
    return grid && view.grid_split ? PauseSite::Grid : PauseSite::Host;
  }

  // The full split the loop paused for, by one block (grid_scratch null) or
  // every block of the grid (all their threads; `st` each block's
  // shared-memory copy of the state, block 0's the one kept, `global_state`
  // the state itself); ends with a barrier.
  __device__ static void resolve_pause(const EngineContext<Weight>& ctx, State* st, BlockSplitShared* scratch,
                                       State* global_state, std::uint32_t* grid_scratch) {
    const SplitGroup group{grid_scratch, grid_scratch != nullptr ? &global_state->min_key : nullptr};
    const SplitInput in{st->piles[st->cur] + overflow_first(*st), overflow_items(*st),
                        st->far.items[st->far.parity], st->far.count};
    const std::uint32_t stamp = st->loop.stamp_seq + 1;
    __syncthreads();  // everyone has read the state
    const unsigned long long base =
        split_pile<Codec>(ctx.labels, ctx.stamps_out, stamp, in, st->piles[st->cur ^ 1], st->offsets,
                          st->num_buckets, st->window, st->delta, *scratch, group);
    if (threadIdx.x == 0 && blockIdx.x == 0) {
      st->base_bucket = base;
      ++(group.grid() ? st->grid_splits : st->block_splits);
      finish_full_split(st, stamp);
    }
    __syncthreads();
  }

  // After a full split into piles[cur ^ 1] and offsets: the far pile was
  // consumed; pick the next phase and resume the loop. One thread.
  __device__ static void finish_full_split(State* st, std::uint32_t stamp) {
    st->cur ^= 1;
    st->ready = st->piles[st->cur];
    st->ready_offsets = st->offsets;
    st->overflow_begin = st->offsets[st->num_buckets - 1];
    st->overflow_end = st->offsets[st->num_buckets];
    st->have_ready = 1;
    st->ready_next = 0;
    st->far.count = 0;
    st->far.min_key = Codec::inf_key();
    st->loop.stamp_seq = stamp;
    st->loop.paused = 0;
    ++st->full_splits;
    adapt_full_split_at(st);
    frontier_empty(st);
  }

  // After a full split: a split that filled few ready buckets saved at most
  // a scan or two, so the next one waits for a pile twice as large (never
  // past the pile's capacity, which a far pile cannot outgrow); one that
  // filled more resets the threshold. One thread.
  __device__ static void adapt_full_split_at(State* st) {
    std::uint32_t filled = 0;
    for (std::uint32_t j = 0; j + 1 < st->num_buckets; ++j) filled += st->offsets[j + 1] > st->offsets[j];
    if (filled >= kMinFilledReadyBuckets) {
      st->full_split_at = kFullSplitMinFar;
      return;
    }
    const std::uint32_t pile = st->offsets[st->num_buckets + 1];  // every entry split, discarded ones too
    const std::uint64_t next = 2ull * (pile > st->full_split_at ? pile : st->full_split_at);
    st->full_split_at = static_cast<std::uint32_t>(next < st->far.capacity ? next : st->far.capacity);
  }

  // The far pile and the ready segment being taken, by window.
  template <class NearOut>
  __device__ static void split(const EngineContext<Weight>& ctx, const State& view, State* st, std::uint32_t first,
                               std::uint32_t stride, const NearOut& near_out) {
    const auto begin = view.window_begin, end = view.window_end;
    split_far_pile<Codec>(ctx.labels, ctx.stamps_pile, view.far, &st->far, &st->loop.overflow,
                          view.ready + view.take_begin, view.take_count, first, stride, near_out,
                          [begin, end](Dist d) {
                            return d < begin ? Placement::Stale : (d < end ? Placement::Near : Placement::Far);
                          });
  }
};

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
    return bucket_slot(bucket_of(Codec::dist(load_label(labels + v)), delta), *window, *base_bucket, windows);
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
template <class Policy>
__global__ void min_live_key(const std::uint32_t* items, std::uint32_t n, const label_t* labels,
                             typename Policy::State* st) {
  using Codec = typename Policy::Codec;
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
  best = warp_min_to_lane0(best);
  if ((threadIdx.x & 31u) == 0 && best != Codec::inf_key()) atomicMin(&st->min_key, best);
}

template <class Policy>
__global__ void set_base_bucket(typename Policy::State* st) {
  using Codec = typename Policy::Codec;
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

template <class Policy>
__global__ void after_full_split(typename Policy::State* st, std::uint32_t stamp) {
  Policy::finish_full_split(st, stamp);
}

inline std::uint32_t bits_for(std::uint32_t values) {  // bits to hold 0 .. values - 1
  std::uint32_t bits = 1;
  while ((1ull << bits) < values) ++bits;
  return bits;
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

template <class Codec, class Balance>
SolveCounters run_bucketing(const Workspace<typename Codec::Weight>& ws, FirstFrontier first,
                            typename Codec::Delta delta, std::uint32_t windows, bool use_multisplit) {
  using Policy = BucketingPolicy<Codec>;
  using State = typename Policy::State;
  auto* d_state = static_cast<State*>(ws.state);
  State init{};
  init.loop = initial_loop(ws);
  init.far = initial_far_pile(ws, Codec::inf_key());
  init.delta = delta;
  init.phases = 1;
  Policy::set_window(&init, 0);  // the source (distance 0) is near
  init.num_buckets = windows;
  init.full_split_at = kFullSplitMinFar;
  init.min_key = Codec::inf_key();
  init.piles[0] = ws.big[0];
  init.piles[1] = ws.big[1];
  init.offsets = ws.bucket_offsets;
  // Full splits on the device: bucket-multisplit's only; small ones in one
  // block, larger ones in a cooperative grid where there is one.
  Workspace<typename Codec::Weight> w = ws;
  w.block_split = use_multisplit && ws.block_split && windows + 1 <= kBlockSplitMaxBuckets;
  w.grid_split = w.block_split && ws.grid_split;
  init.block_split_max =
      w.block_split ? (ws.block_split_max_items != 0 ? ws.block_split_max_items : kBlockSplitMaxItems) : 0;
  init.grid_split = w.grid_split ? 1 : 0;

  const DistanceBuckets<Codec> bucket{ws.labels, &d_state->base_bucket, &d_state->window, delta, windows};
  auto full_split = [&](const State& h) {
    // Input: the overflow bucket of the last full split, then the far pile.
    // Every ready bucket is used up when a full split is asked for.
    std::uint32_t* in = h.piles[h.cur] + Policy::overflow_first(h);
    const std::uint32_t n_overflow = Policy::overflow_items(h);
    const std::uint32_t n_far = h.far.count;
    if (n_far > 0)
      SSSP_CUDA_CHECK(cudaMemcpyAsync(in + n_overflow, h.far.items[h.far.parity], n_far * sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToDevice, ws.stream));
    const std::uint32_t n = n_overflow + n_far;
    if (n > ws.big_capacity) throw std::runtime_error("sssp: internal error: the bucket pile overflowed");
    const std::uint32_t stamp = h.loop.stamp_seq + 1;
    std::uint32_t* out = h.piles[h.cur ^ 1];
    if (n > 0) {
      const int grid = grid_for(n, 256, ws.stream_grid);
      mark_duplicates<><<<grid, 256, 0, ws.stream>>>(in, n, ws.stamps_a, stamp);
      SSSP_CHECK_LAUNCH("mark_duplicates");
      min_live_key<Policy><<<grid, 256, 0, ws.stream>>>(in, n, ws.labels, d_state);
      SSSP_CHECK_LAUNCH("min_live_key");
      set_base_bucket<Policy><<<1, 1, 0, ws.stream>>>(d_state);
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
    after_full_split<Policy><<<1, 1, 0, ws.stream>>>(d_state, stamp);
    SSSP_CHECK_LAUNCH("after_full_split");
  };
  SolveCounters stats = run_engine<Policy, Balance>(w, first, init, full_split);
  const auto* end = static_cast<const State*>(ws.host_state);  // the state as the loop ended
  stats.full_splits = end->full_splits;
  stats.full_splits_in_block = end->block_splits;
  stats.full_splits_in_grid = end->grid_splits;
  return stats;
}

}  // namespace sssp::detail
