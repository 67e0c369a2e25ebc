// The narrow regime without rounds: one block whose warps relax the near set
// asynchronously, each warp taking the next few vertices from a ring in
// shared memory and putting the vertices it improves back into it, with no
// barrier until the near set is exhausted (a near-far phase ends).
//
// Why: in the round-based narrow loop (narrow_relax.cuh) every round waits at
// a block barrier for its slowest chain of dependent memory accesses, and a
// vertex improved early in a round waits for the whole round before it is
// relaxed. Here a vertex is relaxed as soon as a warp is free, so chains of
// improvements along a path proceed at the speed of their own memory
// accesses (ADDS, Wang et al., "A Fast Work-Efficient SSSP Algorithm for
// GPUs", PPoPP 2021, relaxes asynchronously in the same spirit, across the
// whole GPU). The order within a phase is free: near-far is label-correcting
// inside a phase, and a vertex improved again is simply queued again.
//
// The ring: `tail` reserves slots, `head` hands them out; a slot holds
// kNoItem until its vertex is written, and the consumer puts kNoItem back
// after reading it. `pending` counts vertices queued and not yet fully
// relaxed (incremented before a slot is reserved, decremented after the
// relaxation and its pushes): pending == 0 with an empty ring means the phase
// is over, and nothing can be in flight. Each vertex carries its generation
// (its parent's plus one); the largest generation of a phase is its number
// of dependent steps, reported as rounds so that time per round compares
// with the round-based loops.
//
// Hand-over: when the ring holds more than kRingExit vertices the frontier is
// wide; warps then append what they improve to the global near queue
// (de-duplicated with stamps), stop taking work, and the ring's rest follows;
// the grid takes over from there. A warp that waits longer than kHangCycles
// marks the solve failed instead of spinning forever.
#pragma once

#include <cstdint>

#include "sssp/labels.cuh"
#include "sssp/narrow_relax.cuh"
#include "sssp/relax.cuh"

namespace sssp::detail {

constexpr std::uint32_t kRing = 16384;          // ring slots (a power of two)
constexpr std::uint32_t kRingExit = kRing / 2;  // occupancy that hands the frontier to the grid
constexpr std::uint64_t kAsyncMaxDegree = 64;   // a warp lane walks a vertex's arcs: only for small degrees
constexpr int kAsyncArcBatch = 4;               // arcs a lane loads before it issues their atomics
constexpr long long kHangCycles = 20ll * 1000 * 1000 * 1000;  // ~10 s at 2 GHz
static_assert((kRing & (kRing - 1)) == 0, "ring indices wrap by masking");

struct AsyncRing {
  std::uint32_t item[kRing];
  std::uint16_t gen[kRing];
  std::uint32_t head, tail;
  int pending;
  std::uint32_t drain;    // 1: hand over to the grid
  std::uint32_t hung;     // 1: a warp waited past kHangCycles
  std::uint32_t worked;   // a vertex was taken in this phase
  std::uint32_t max_gen;  // largest generation queued in this phase
  std::uint32_t kept;     // hand-over count scratch
};

__device__ __forceinline__ std::uint32_t vload(const std::uint32_t* p) { return volatile_load(p); }

// The near queue of the asynchronous loop: the ring, or the global near
// queue once the loop hands over.
struct RingAppender {
  AsyncRing* ring = nullptr;
  QueueAppender global;  // used while ring->drain is set
  std::uint32_t gen = 0;

  __device__ __forceinline__ bool queued(std::uint32_t) const { return false; }
  __device__ __forceinline__ void push(std::uint32_t v) const {
    AsyncRing& a = *ring;
    if (vload(&a.drain)) {
      global.push(v);
      return;
    }
    const cg::coalesced_group g = cg::coalesced_threads();
    std::uint32_t base = 0;
    if (g.thread_rank() == 0) {
      atomicAdd(&a.pending, static_cast<int>(g.num_threads()));  // before the slots exist
      base = atomicAdd(&a.tail, g.num_threads());
    }
    const std::uint32_t slot = g.shfl(base, 0) + g.thread_rank();
    if (slot - vload(&a.head) > kRingExit) atomicExch(&a.drain, 1u);
    // The slot's previous vertex was handed out (occupancy < kRing); its
    // consumer may not have cleared it yet.
    volatile std::uint32_t* cell = a.item + (slot & (kRing - 1));
    while (*cell != kNoItem) {
    }
    static_cast<volatile std::uint16_t*>(a.gen)[slot & (kRing - 1)] = static_cast<std::uint16_t>(gen);
    __threadfence_block();  // the generation before the vertex that publishes it
    *cell = v;
    if (gen > vload(&a.max_gen)) atomicMax(&a.max_gen, gen);
  }
};

// Relaxes the near set in the ring until it is exhausted (pending == 0), the
// loop hands over (drain) or a wait runs too long (hung). All threads of the
// block call it; every warp returns at its own time. `sink` is the phase's
// sink with the ring as near queue.
template <class Codec, class Sink>
__device__ void async_relax(const GraphView<typename Codec::Weight>& g, label_t* labels, bool track_pred,
                            const Sink& phase_sink, AsyncRing& a, unsigned long long* arcs_examined) {
  using Dist = typename Codec::Dist;
  using Weight = typename Codec::Weight;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warps = blockDim.x / 32;
  for (;;) {
    // Lane 0 takes up to 32 vertices: few per warp while the ring is short,
    // so that all warps get some.
    std::uint32_t h = 0, n = 0, status = 0;  // status 0: work, 1: phase over, 2: stop
    if (lane == 0) {
      const long long t0 = clock64();
      for (;;) {
        if (vload(&a.drain) || vload(&a.hung)) {
          status = 2;
          break;
        }
        h = vload(&a.head);
        const std::uint32_t avail = vload(&a.tail) - h;
        if (avail != 0) {
          std::uint32_t want = avail / warps;
          want = want < 4 ? 4 : (want > 32 ? 32 : want);
          n = avail < want ? avail : want;
          if (atomicCAS(&a.head, h, h + n) == h) break;
          continue;
        }
        if (volatile_load(&a.pending) == 0) {
          status = 1;
          break;
        }
        __nanosleep(32);
        if (clock64() - t0 > kHangCycles) {
          atomicExch(&a.hung, 1u);
          status = 2;
          break;
        }
      }
      if (status == 0 && !vload(&a.worked)) atomicExch(&a.worked, 1u);
    }
    status = __shfl_sync(0xFFFFFFFFu, status, 0);
    if (status != 0) return;
    h = __shfl_sync(0xFFFFFFFFu, h, 0);
    n = __shfl_sync(0xFFFFFFFFu, n, 0);

    std::uint32_t u = kNoItem, gen = 0;
    if (lane < n) {
      volatile std::uint32_t* cell = a.item + ((h + lane) & (kRing - 1));
      const long long t0 = clock64();
      while ((u = *cell) == kNoItem) {
        if (clock64() - t0 > kHangCycles) {
          atomicExch(&a.hung, 1u);
          break;
        }
      }
      __threadfence_block();  // the vertex, then its generation (written in that order's reverse)
      gen = static_cast<const volatile std::uint16_t*>(a.gen)[(h + lane) & (kRing - 1)];
      *cell = kNoItem;
    }
    std::uint64_t first = 0, end = 0;
    Dist du = Dist();
    if (u != kNoItem) {
      const label_t label = load_label(labels + u);
      first = __ldg(g.offsets + u);
      end = __ldg(g.offsets + u + 1);
      du = Codec::dist(label);
      if (Codec::is_inf(du)) end = first;
    }
    Sink sink = phase_sink;
    sink.near_out.gen = gen < 0xFFFFu ? gen + 1 : gen;
    for (std::uint64_t e = first; e < end; e += kAsyncArcBatch) {
      std::uint32_t v[kAsyncArcBatch];
      Weight w[kAsyncArcBatch];
#pragma unroll
      for (int i = 0; i < kAsyncArcBatch; ++i) {
        v[i] = kNoItem;
        if (e + i < end) {
          v[i] = __ldg(g.targets + e + i);
          w[i] = __ldg(g.weights + e + i);
        }
      }
      if (track_pred) {
#pragma unroll
        for (int i = 0; i < kAsyncArcBatch; ++i) {
          if (v[i] == kNoItem) continue;
          const Dist nd = Codec::add(du, w[i]);
          if (Codec::try_lower(labels + v[i], nd, u, true, false)) sink.improved(v[i], nd);
        }
      } else {
        label_t old[kAsyncArcBatch], want[kAsyncArcBatch];
#pragma unroll
        for (int i = 0; i < kAsyncArcBatch; ++i) {
          want[i] = Codec::no_label();
          if (v[i] != kNoItem) want[i] = Codec::label_of(Codec::add(du, w[i]));
          if (want[i] != Codec::no_label()) old[i] = atomicMin(labels + v[i], want[i]);
        }
#pragma unroll
        for (int i = 0; i < kAsyncArcBatch; ++i)
          if (want[i] != Codec::no_label() && Codec::lowers(want[i], old[i])) sink.improved(v[i], Codec::dist(want[i]));
      }
    }
    // This warp's vertices are relaxed and what they improved is queued.
    unsigned long long arcs = end - first;
    for (int off = 16; off > 0; off >>= 1) arcs += __shfl_down_sync(0xFFFFFFFFu, arcs, off);
    __syncwarp();
    if (lane == 0) {
      if (arcs) atomicAdd(arcs_examined, arcs);
      atomicSub(&a.pending, static_cast<int>(n));
    }
  }
}

}  // namespace sssp::detail
