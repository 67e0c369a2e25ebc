// The resident regime: a whole near-far solve in one thread block, with every
// vertex's distance in shared memory (docs/ARCHITECTURE.md, "Resident
// block"). Where the distances fit one SM (about 50,000 vertices on sm_90)
// and the graph is a chain-like road network, a solve is a long chain of
// small dependent steps; the engine's narrow loop pays a global-memory label
// load, a global atomic and its bookkeeping on every step, where here the
// distances, the atomics and the queues are all in shared memory and only the
// arcs (and, past about 26,000 vertices, the offsets) come from L2
// (measurements: docs/TUNING.md, "Resident block").
//
// The loop is near-far's (Davidson et al., IPDPS 2014), label-correcting: the near set is the
// vertices below the threshold T, relaxed step by step until none is left;
// then T moves past the smallest distance at or above it and a scan of the
// distances collects the new near set (no far pile: a vertex improved to T
// or beyond is found by that scan). One block barrier per step: entries are
// read and their arcs relaxed in the same phase, improved vertices appended
// to the other queue with one shared-memory atomic per warp. The queues are
// not de-duplicated (a vertex improved twice in a step is relaxed twice, with
// its final distance); an append that finds its queue full marks the vertex
// in an overflow bitmap, and the next step that has room appends the marked
// vertices (nothing is lost, only delayed within its window).
//
// Warp-local steps (bucket fusion, Zhang et al., CGO 2020, as GAP's
// delta-stepping runs it per thread, here per warp; the cluster loop's local
// steps one level down): a step's entries are dealt across the 32 warps,
// and each warp appends what it improves to a queue of its own, relaxes
// that queue again and again (up to `local_steps` times, with warp barriers
// only) and hands what is left to the block's queue before the block
// barrier. A road's wave runs on in the warp that holds it instead of
// waiting at a block barrier per hop (docs/TUNING.md, "Resident block:
// warp-local steps"); within a window the order of relaxations does not
// matter for correctness, and every improved vertex is still queued once per
// improvement.
//
// Distances are the packed codecs' 32-bit halves (labels.cuh), written back
// as labels without predecessors at the end: the regime serves solves that
// need no shortest-path tree. A watchdog ends the loop with an error when
// kMaxStalledSteps steps in a row relax no arc and begin no window. Every
// window costs two scans of all n distances, so a delta far below the
// rule's (many windows of few vertices) makes this regime slower than the
// engine, whose far pile costs by its own size.
#pragma once

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "sssp/engine/engine.cuh"
#include "sssp/common/labels.cuh"
#include "sssp/plan.hpp"
#include "sssp/balance/relax.cuh"

namespace sssp::detail {

// The block's threads (kResidentBlock), its queues' entries (kResidentQueue,
// kResidentWarpQueue) and the shared memory a layout takes
// (resident_shared_bytes, resident_fits): plan.hpp, where the plan's rule
// reads them.
// Arcs each thread loads before it issues their atomics (a warp loops while
// any of its entries has more).
constexpr unsigned kResidentArcsPerPass = 4;

// What a resident solve reports back.
struct ResidentStats {
  unsigned long long steps;        // steps with a non-empty queue (block barriers)
  unsigned long long local_steps;  // per step, the most local steps a warp took, summed
  unsigned long long phases;       // windows begun (the first included)
  unsigned long long relaxations;  // arcs relaxed
  unsigned long long overflows;    // steps that re-appended vertices from the overflow bitmap
  std::uint32_t error;             // LoopError
};

// ResidentLayout: what a resident solve keeps in shared memory beside the
// distances (plan.hpp).

namespace resident {

struct Control {
  // Words of loop iteration i in slot i % 3: written during iteration i, read
  // by every thread after its closing barrier, cleared by thread 0 during
  // iteration i - 1 (after the barrier that follows the slot's last read).
  // Each thread reads the same values, so every branch on them is the
  // block's, and no reset races with the next iteration's atomics.
  std::uint32_t count[3];     // entries appended for the next iteration (may pass the queue's capacity)
  std::uint32_t overflow[3];  // an append found its queue full and marked the vertex in the bitmap
  std::uint32_t progress[3];  // a step relaxed an arc
  std::uint32_t local[3];     // the most local steps a warp took in the step
  std::uint32_t warp_min[kResidentBlock / 32];
  std::uint32_t min_bits;
  unsigned long long warp_relaxations[kResidentBlock / 32];
};

}  // namespace resident

static_assert(sizeof(resident::Control) == kResidentControlBytes, "plan.hpp's resident_fits counts the Control");

namespace resident {

// Shared words that other threads update atomically meanwhile are read and
// flagged with relaxed atomics (block scope).
__device__ __forceinline__ std::uint32_t load_relaxed(std::uint32_t* p) {
  return cuda::atomic_ref<std::uint32_t, cuda::thread_scope_block>(*p).load(cuda::memory_order_relaxed);
}
__device__ __forceinline__ void store_relaxed(std::uint32_t* p, std::uint32_t v) {
  cuda::atomic_ref<std::uint32_t, cuda::thread_scope_block>(*p).store(v, cuda::memory_order_relaxed);
}

// A 32-bit weight as the bits an arc in shared memory holds, and back.
__device__ __forceinline__ std::uint32_t weight_bits(std::uint32_t w) { return w; }
__device__ __forceinline__ std::uint32_t weight_bits(float w) { return __float_as_uint(w); }
template <class Weight>
__device__ __forceinline__ Weight weight_from_bits(std::uint32_t b) {
  if constexpr (std::is_same_v<Weight, float>) return __uint_as_float(b);
  else return b;
}

// Appends v (where `want`) to queue q through its counter with one atomic per
// warp; every lane of the warp calls it. Past the queue's capacity v is
// marked in the overflow bitmap and the iteration's overflow flag raised.
__device__ __forceinline__ void append(bool want, std::uint32_t v, std::uint32_t* q, std::uint32_t* count,
                                       std::uint32_t* bits, std::uint32_t* overflow) {
  const unsigned lane = threadIdx.x & 31;
  const unsigned mask = __ballot_sync(0xFFFFFFFFu, want);
  if (!mask) return;
  const unsigned leader = __ffs(mask) - 1;
  std::uint32_t base = 0;
  if (lane == leader) base = atomicAdd(count, static_cast<std::uint32_t>(__popc(mask)));
  base = __shfl_sync(0xFFFFFFFFu, base, leader);
  if (!want) return;
  const std::uint32_t slot = base + __popc(mask & ((1u << lane) - 1));
  if (slot < kResidentQueue) {
    q[slot] = v;
  } else {
    atomicOr(&bits[v / 32], 1u << (v % 32));
    store_relaxed(overflow, 1);
  }
}

}  // namespace resident

// Where a launch's blocks start from: one block from `source` (sources
// null), or block b from sources[b], writing its labels `stride` labels
// after block b - 1's and its counts to stats[b] (a batch: independent
// solves side by side, one per SM while the SMs last, each with its own
// shared memory).
struct ResidentSources {
  const std::uint32_t* sources;
  std::uint32_t source;
  std::uint64_t stride;
};

// Each block of kResidentBlock threads solves from its source (ResidentSources),
// writing every vertex's label; kLayout says what it copies into shared memory first
// beside the distances (ResidentLayout). With `local_steps` > 0 each
// warp, after relaxing its share of a step's entries, relaxes what it
// improved itself, up to `local_steps` times, with warp barriers only, before
// the step's block barrier; 0: one hop per block barrier.
template <class Codec, ResidentLayout kLayout>
__global__ void __launch_bounds__(kResidentBlock, 1)
    resident_near_far(GraphView<typename Codec::Weight> g, label_t* labels, ResidentSources from,
                      typename Codec::Delta delta, std::uint32_t local_steps, ResidentStats* stats) {
  const std::uint32_t source = from.sources ? from.sources[blockIdx.x] : from.source;
  labels += blockIdx.x * from.stride;
  stats += blockIdx.x;
  using Traits = typename Codec::Traits;
  using Dist = typename Codec::Dist;
  using resident::Control;
  constexpr unsigned kFull = 0xFFFFFFFFu;
  extern __shared__ std::uint32_t resident_smem[];
  __shared__ Control c;
  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned below = (1u << lane) - 1;
  const std::uint32_t n = g.num_vertices;
  const std::uint32_t words = (n + 31) / 32;
  static_assert(sizeof(typename Codec::Weight) == 4, "an arc in shared memory is two 32-bit words");
  constexpr bool kArcsShared = kLayout == ResidentLayout::Arcs;
  constexpr bool kOffsetsShared = kLayout != ResidentLayout::Distances;
  uint2* shared_arcs = reinterpret_cast<uint2*>(resident_smem);  // (target, weight bits) where kArcsShared
  std::uint32_t* dist = resident_smem + (kArcsShared ? 2 * g.offsets[n] : 0);  // Traits' 32-bit distances
  std::uint32_t* bits = dist + n;       // overflow bitmap
  std::uint32_t* queue[2] = {bits + words, bits + words + kResidentQueue};
  std::uint32_t* warp_queue = queue[1] + kResidentQueue + warp * kResidentWarpQueue;  // this warp's
  std::uint32_t* shared_offsets = queue[1] + kResidentQueue + kResidentWarps * kResidentWarpQueue;

  // Distance 0 has the bit pattern 0 in both codecs.
  for (std::uint32_t v = tid; v < n; v += kResidentBlock) dist[v] = v == source ? 0u : Traits::kInfBits;
  for (std::uint32_t w = tid; w < words; w += kResidentBlock) bits[w] = 0;
  if constexpr (kOffsetsShared) {
    for (std::uint32_t v = tid; v <= n; v += kResidentBlock) shared_offsets[v] = static_cast<std::uint32_t>(g.offsets[v]);
  }
  if constexpr (kArcsShared) {
    const std::uint32_t m = static_cast<std::uint32_t>(g.offsets[n]);
    for (std::uint32_t e = tid; e < m; e += kResidentBlock)
      shared_arcs[e] = make_uint2(__ldg(g.targets + e), resident::weight_bits(__ldg(g.weights + e)));
  }
  if (tid == 0) {
    for (int i = 0; i < 3; ++i) c.count[i] = c.overflow[i] = c.progress[i] = c.local[i] = 0;
    c.count[2] = 1;  // iteration 0 reads the slot of iteration -1
    queue[0][0] = source;
  }
  __syncthreads();
  const auto first_arc = [&](std::uint32_t v) -> std::uint64_t {
    if constexpr (kOffsetsShared) return shared_offsets[v];
    else return g.offsets[v];
  };

  unsigned cur = 0;
  Dist threshold = static_cast<Dist>(delta);  // near: distance < threshold
  unsigned long long steps = 0, local_total = 0, phases = 1, relaxations = 0, overflows = 0;
  std::uint32_t stalled = 0, error = 0;
  bool marked = false;  // vertices wait in the overflow bitmap
  for (unsigned long long it = 0;; ++it) {
    const unsigned slot = static_cast<unsigned>(it % 3), prev = static_cast<unsigned>((it + 2) % 3);
    marked = marked || c.overflow[prev] != 0;
    const std::uint32_t queued = min(c.count[prev], kResidentQueue);
    if (tid == 0) {
      const unsigned ahead = (slot + 1) % 3;
      c.count[ahead] = c.overflow[ahead] = c.progress[ahead] = c.local[ahead] = 0;
    }
    std::uint32_t* count = &c.count[slot];
    std::uint32_t* overflow = &c.overflow[slot];
    if (queued == 0 && !marked) {
      // ---- The window is done: T moves past the smallest distance at or
      // above it, and the distances in the new window are the near set.
      std::uint32_t m = Traits::kInfBits;
      for (std::uint32_t v = tid; v < n; v += kResidentBlock) {
        const std::uint32_t b = dist[v];
        if (b < m && !(Traits::from_bits(b) < threshold)) m = b;
      }
      m = __reduce_min_sync(kFull, m);
      if (lane == 0) c.warp_min[warp] = m;
      __syncthreads();
      if (warp == 0) {
        const std::uint32_t x = __reduce_min_sync(kFull, c.warp_min[lane]);
        if (lane == 0) c.min_bits = x;
      }
      __syncthreads();
      const std::uint32_t min_bits = c.min_bits;
      if (min_bits == Traits::kInfBits) break;  // nothing reachable is left
      const Dist low = threshold;
      threshold = next_threshold(threshold, Codec::dist_from_key(min_bits), delta);
      ++phases;
      stalled = 0;
      for (std::uint32_t base = 0; base < n; base += kResidentBlock) {
        const std::uint32_t v = base + tid;
        bool want = false;
        if (v < n) {
          const Dist d = Traits::from_bits(dist[v]);
          want = !(d < low) && d < threshold;
        }
        resident::append(want, v, queue[cur], count, bits, overflow);
      }
      __syncthreads();
      continue;
    }
    if (marked && queued < kResidentQueue) {
      // ---- Re-append the vertices whose appends found the queue full, after
      // the `queued` entries still waiting (those that still do not fit are
      // marked again, and raise this iteration's flag).
      if (tid == 0) *count = queued;
      __syncthreads();
      marked = false;
      ++overflows;
      for (std::uint32_t base = 0; base < words; base += kResidentBlock) {
        const std::uint32_t w = base + tid;
        std::uint32_t word = w < words && resident::load_relaxed(&bits[w]) != 0 ? atomicExch(&bits[w], 0u) : 0u;
        while (__any_sync(kFull, word != 0)) {
          const bool want = word != 0;
          const std::uint32_t v = want ? w * 32 + __ffs(word) - 1 : 0;
          if (want) word &= word - 1;
          resident::append(want, v, queue[cur], count, bits, overflow);
        }
      }
      __syncthreads();
      continue;
    }
    // ---- One step: relax queue[cur] into queue[next].
    const unsigned next = cur ^ 1;
    bool relaxed_any = false;
    // Writes the vertex of block-queue slot s, or marks it past the queue's end.
    const auto to_slot = [&](std::uint32_t s, std::uint32_t v) {
      if (s < kResidentQueue) {
        queue[next][s] = v;
      } else {
        atomicOr(&bits[v / 32], 1u << (v % 32));
        resident::store_relaxed(overflow, 1);
      }
    };
    // Relaxes the arcs of v (where `has` and v is still in the window),
    // kResidentArcsPerPass per pass, and hands each pass's improved targets
    // still in the window to emit(masks, improved, t, total): masks[k] is the
    // warp's ballot of its lanes' arc k, improved this lane's bits, total the
    // warp's count. Every lane of the warp calls it.
    const auto relax_entry = [&](bool has, std::uint32_t v, auto&& emit) {
      Dist d = 0;
      std::uint64_t first = 0;
      std::uint32_t degree = 0;
      if (has) {
        d = Traits::from_bits(resident::load_relaxed(&dist[v]));
        if (d < threshold) {
          first = first_arc(v);
          degree = static_cast<std::uint32_t>(first_arc(v + 1) - first);
        }
      }
      relaxations += degree;
      relaxed_any = relaxed_any || degree != 0;
      const std::uint32_t warp_degree = __reduce_max_sync(kFull, degree);
      for (std::uint32_t k0 = 0; k0 < warp_degree; k0 += kResidentArcsPerPass) {
        std::uint32_t t[kResidentArcsPerPass];
        typename Codec::Weight w[kResidentArcsPerPass];
#pragma unroll
        for (unsigned k = 0; k < kResidentArcsPerPass; ++k)
          if (k0 + k < degree) {
            if constexpr (kArcsShared) {
              const uint2 arc = shared_arcs[first + k0 + k];
              t[k] = arc.x;
              w[k] = resident::weight_from_bits<typename Codec::Weight>(arc.y);
            } else {
              t[k] = __ldg(g.targets + first + k0 + k);
              w[k] = __ldg(g.weights + first + k0 + k);
            }
          }
        unsigned improved = 0;
#pragma unroll
        for (unsigned k = 0; k < kResidentArcsPerPass; ++k) {
          std::uint32_t nbits;
          if (k0 + k < degree && Traits::to_bits(Codec::add(d, w[k]), &nbits)) {
            const std::uint32_t old = atomicMin(&dist[t[k]], nbits);
            if (nbits < old && Traits::from_bits(nbits) < threshold) improved |= 1u << k;
          }
        }
        std::uint32_t masks[kResidentArcsPerPass], total = 0;
#pragma unroll
        for (unsigned k = 0; k < kResidentArcsPerPass; ++k) {
          masks[k] = __ballot_sync(kFull, (improved >> k) & 1u);
          total += __popc(masks[k]);
        }
        if (total != 0) emit(masks, improved, t, total);
      }
    };
    // Improved vertices into the block's next queue, one atomic per warp.
    const auto to_block = [&](const std::uint32_t* masks, unsigned improved, const std::uint32_t* t,
                              std::uint32_t total) {
      std::uint32_t at = 0;
      if (lane == 0) at = atomicAdd(count, total);
      at = __shfl_sync(kFull, at, 0);
#pragma unroll
      for (unsigned k = 0; k < kResidentArcsPerPass; ++k) {
        if ((improved >> k) & 1u) to_slot(at + __popc(masks[k] & below), t[k]);
        at += __popc(masks[k]);
      }
    };
    if (local_steps == 0) {
      for (std::uint32_t base = 0; base < queued; base += kResidentBlock) {
        const std::uint32_t i = base + tid;
        relax_entry(i < queued, i < queued ? queue[cur][i] : 0u, to_block);
      }
    } else {
      // Improved vertices into this warp's queue (warp-uniform count); past
      // its end into the block's next queue.
      std::uint32_t held = 0;
      const auto to_warp = [&](const std::uint32_t* masks, unsigned improved, const std::uint32_t* t,
                               std::uint32_t total) {
        const std::uint32_t end = held + total;
        std::uint32_t spill = 0;  // block slot of warp-queue position kResidentWarpQueue
        if (end > kResidentWarpQueue) {
          if (lane == 0) spill = atomicAdd(count, end - kResidentWarpQueue);
          spill = __shfl_sync(kFull, spill, 0);
        }
        std::uint32_t at = held;
#pragma unroll
        for (unsigned k = 0; k < kResidentArcsPerPass; ++k) {
          if ((improved >> k) & 1u) {
            const std::uint32_t pos = at + __popc(masks[k] & below);
            if (pos < kResidentWarpQueue) warp_queue[pos] = t[k];
            else to_slot(spill + pos - kResidentWarpQueue, t[k]);
          }
          at += __popc(masks[k]);
        }
        held = min(end, kResidentWarpQueue);
      };
      // The step's entries are dealt across the warps (entry base + 32 * lane
      // + warp), so that a step of a few dozen entries starts a cascade in
      // every warp rather than in one or two.
      for (std::uint32_t base = 0; base < queued; base += kResidentBlock) {
        const std::uint32_t i = base + lane * kResidentWarps + warp;
        relax_entry(i < queued, i < queued ? queue[cur][i] : 0u, to_warp);
      }
      std::uint32_t taken = 0;
      while (held != 0 && taken < local_steps) {
        __syncwarp();  // the warp queue's writes before its reads
        const std::uint32_t m = held;
        const std::uint32_t v0 = lane < m ? warp_queue[lane] : 0u;
        const std::uint32_t v1 = lane + 32 < m ? warp_queue[lane + 32] : 0u;
        __syncwarp();  // its reads before the step's writes
        held = 0;
        relax_entry(lane < m, v0, to_warp);
        if (m > 32) relax_entry(lane + 32 < m, v1, to_warp);
        ++taken;
      }
      if (held != 0) {
        // Left for the next step: into the block's queue.
        __syncwarp();
        std::uint32_t at = 0;
        if (lane == 0) at = atomicAdd(count, held);
        at = __shfl_sync(kFull, at, 0);
        for (std::uint32_t j = lane; j < held; j += 32) to_slot(at + j, warp_queue[j]);
      }
      if (lane == 0 && taken != 0) atomicMax(&c.local[slot], taken);
    }
    if (relaxed_any) resident::store_relaxed(&c.progress[slot], 1);
    __syncthreads();
    // Every thread reads the same flag after the barrier: the watchdog's
    // decision is the block's.
    stalled = c.progress[slot] != 0 ? 0 : stalled + 1;
    ++steps;
    local_total += c.local[slot];
    if (stalled > kMaxStalledSteps) {
      error = static_cast<std::uint32_t>(LoopError::Watchdog);
      break;
    }
    cur = next;
  }
  __syncthreads();
  for (std::uint32_t v = tid; v < n; v += kResidentBlock)
    labels[v] = (static_cast<label_t>(dist[v]) << 32) | Codec::kNoPred;
  // Every field is written (the caller does not clear them first).
  for (unsigned offset = 16; offset > 0; offset /= 2) relaxations += __shfl_down_sync(kFull, relaxations, offset);
  if (lane == 0) c.warp_relaxations[warp] = relaxations;
  __syncthreads();
  if (tid == 0) {
    unsigned long long total = 0;
    for (unsigned w = 0; w < kResidentWarps; ++w) total += c.warp_relaxations[w];
    stats->relaxations = total;
    stats->steps = steps;
    stats->local_steps = local_total;
    stats->phases = phases;
    stats->overflows = overflows;
    stats->error = error;
  }
}

}  // namespace sssp::detail
