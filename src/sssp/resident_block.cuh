// The resident regime: a whole near-far solve in one thread block, with every
// vertex's distance in shared memory (docs/ARCHITECTURE.md, "Resident
// block"). Where the distances fit one SM (about 52,000 vertices on sm_90)
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

#include "sssp/engine.cuh"
#include "sssp/labels.cuh"
#include "sssp/relax.cuh"

namespace sssp::detail {

constexpr unsigned kResidentBlock = 1024;
// Arcs each thread loads before it issues their atomics (a warp loops while
// any of its entries has more).
constexpr unsigned kResidentArcsPerPass = 4;
// Entries of each of the two step queues.
constexpr std::uint32_t kResidentQueue = 2048;

// What a resident solve reports back.
struct ResidentStats {
  unsigned long long steps;        // steps with a non-empty queue
  unsigned long long phases;       // windows begun (the first included)
  unsigned long long relaxations;  // arcs relaxed
  unsigned long long overflows;    // steps that re-appended vertices from the overflow bitmap
  std::uint32_t error;             // LoopError
};

// Dynamic shared memory of a resident solve of n vertices: distances,
// overflow bitmap, two queues, and the offsets when `offsets_shared`.
__host__ __device__ inline std::uint64_t resident_shared_bytes(std::uint64_t n, bool offsets_shared) {
  return 4 * (n + (n + 31) / 32 + 2ull * kResidentQueue + (offsets_shared ? n + 1 : 0));
}

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
  std::uint32_t warp_min[kResidentBlock / 32];
  std::uint32_t min_bits;
};

// Shared words that other threads update atomically meanwhile are read and
// flagged with relaxed atomics (block scope).
__device__ __forceinline__ std::uint32_t load_relaxed(std::uint32_t* p) {
  return cuda::atomic_ref<std::uint32_t, cuda::thread_scope_block>(*p).load(cuda::memory_order_relaxed);
}
__device__ __forceinline__ void store_relaxed(std::uint32_t* p, std::uint32_t v) {
  cuda::atomic_ref<std::uint32_t, cuda::thread_scope_block>(*p).store(v, cuda::memory_order_relaxed);
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

// One block of kResidentBlock threads solves from `source`, writing every
// vertex's label; kOffsetsShared copies the offsets into shared memory
// first (where they fit, resident_shared_bytes).
template <class Codec, bool kOffsetsShared>
__global__ void __launch_bounds__(kResidentBlock, 1)
    resident_near_far(GraphView<typename Codec::Weight> g, label_t* labels, std::uint32_t source,
                      typename Codec::Delta delta, ResidentStats* stats) {
  using Traits = typename Codec::Traits;
  using Dist = typename Codec::Dist;
  using resident::Control;
  extern __shared__ std::uint32_t resident_smem[];
  __shared__ Control c;
  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const std::uint32_t n = g.num_vertices;
  const std::uint32_t words = (n + 31) / 32;
  std::uint32_t* dist = resident_smem;  // Traits' 32-bit distances
  std::uint32_t* bits = dist + n;       // overflow bitmap
  std::uint32_t* queue[2] = {bits + words, bits + words + kResidentQueue};
  std::uint32_t* shared_offsets = queue[1] + kResidentQueue;

  // Distance 0 has the bit pattern 0 in both codecs.
  for (std::uint32_t v = tid; v < n; v += kResidentBlock) dist[v] = v == source ? 0u : Traits::kInfBits;
  for (std::uint32_t w = tid; w < words; w += kResidentBlock) bits[w] = 0;
  if constexpr (kOffsetsShared) {
    for (std::uint32_t v = tid; v <= n; v += kResidentBlock) shared_offsets[v] = static_cast<std::uint32_t>(g.offsets[v]);
  }
  if (tid == 0) {
    for (int i = 0; i < 3; ++i) c.count[i] = c.overflow[i] = c.progress[i] = 0;
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
  unsigned long long steps = 0, phases = 1, relaxations = 0, overflows = 0;
  std::uint32_t stalled = 0, error = 0;
  bool marked = false;  // vertices wait in the overflow bitmap
  for (unsigned long long it = 0;; ++it) {
    const unsigned slot = static_cast<unsigned>(it % 3), prev = static_cast<unsigned>((it + 2) % 3);
    marked = marked || c.overflow[prev] != 0;
    const std::uint32_t queued = min(c.count[prev], kResidentQueue);
    if (tid == 0) {
      const unsigned ahead = (slot + 1) % 3;
      c.count[ahead] = c.overflow[ahead] = c.progress[ahead] = 0;
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
      m = __reduce_min_sync(0xFFFFFFFFu, m);
      if (lane == 0) c.warp_min[warp] = m;
      __syncthreads();
      if (warp == 0) {
        const std::uint32_t x = __reduce_min_sync(0xFFFFFFFFu, c.warp_min[lane]);
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
        while (__any_sync(0xFFFFFFFFu, word != 0)) {
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
    for (std::uint32_t base = 0; base < queued; base += kResidentBlock) {
      const std::uint32_t i = base + tid;
      Dist d = 0;
      std::uint64_t first = 0;
      std::uint32_t degree = 0;
      if (i < queued) {
        const std::uint32_t v = queue[cur][i];
        d = Traits::from_bits(resident::load_relaxed(&dist[v]));
        if (d < threshold) {
          first = first_arc(v);
          degree = static_cast<std::uint32_t>(first_arc(v + 1) - first);
        }
      }
      relaxations += degree;
      const std::uint32_t warp_degree = __reduce_max_sync(0xFFFFFFFFu, degree);
      for (std::uint32_t k0 = 0; k0 < warp_degree; k0 += kResidentArcsPerPass) {
        std::uint32_t t[kResidentArcsPerPass];
        typename Codec::Weight w[kResidentArcsPerPass];
#pragma unroll
        for (unsigned k = 0; k < kResidentArcsPerPass; ++k)
          if (k0 + k < degree) {
            t[k] = __ldg(g.targets + first + k0 + k);
            w[k] = __ldg(g.weights + first + k0 + k);
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
        // One atomic per warp for all of its lanes' appends.
        std::uint32_t masks[kResidentArcsPerPass], total = 0;
#pragma unroll
        for (unsigned k = 0; k < kResidentArcsPerPass; ++k) {
          masks[k] = __ballot_sync(0xFFFFFFFFu, (improved >> k) & 1u);
          total += __popc(masks[k]);
        }
        if (total == 0) continue;
        std::uint32_t at = 0;
        if (lane == 0) at = atomicAdd(count, total);
        at = __shfl_sync(0xFFFFFFFFu, at, 0);
        const unsigned below = (1u << lane) - 1;
#pragma unroll
        for (unsigned k = 0; k < kResidentArcsPerPass; ++k) {
          if ((improved >> k) & 1u) {
            const std::uint32_t s = at + __popc(masks[k] & below);
            if (s < kResidentQueue) {
              queue[next][s] = t[k];
            } else {
              atomicOr(&bits[t[k] / 32], 1u << (t[k] % 32));
              resident::store_relaxed(overflow, 1);
            }
          }
          at += __popc(masks[k]);
        }
      }
      if (degree) resident::store_relaxed(&c.progress[slot], 1);
    }
    __syncthreads();
    // Every thread reads the same flag after the barrier: the watchdog's
    // decision is the block's.
    stalled = c.progress[slot] != 0 ? 0 : stalled + 1;
    ++steps;
    if (stalled > kMaxStalledSteps) {
      error = static_cast<std::uint32_t>(LoopError::Watchdog);
      break;
    }
    cur = next;
  }
  __syncthreads();
  for (std::uint32_t v = tid; v < n; v += kResidentBlock)
    labels[v] = (static_cast<label_t>(dist[v]) << 32) | Codec::kNoPred;
  atomicAdd(&stats->relaxations, relaxations);
  if (tid == 0) {
    stats->steps = steps;
    stats->phases = phases;
    stats->overflows = overflows;
    stats->error = error;
  }
}

}  // namespace sssp::detail
