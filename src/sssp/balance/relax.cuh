// The relax (advance) operator every strategy shares: each frontier vertex u
// relaxes all its out-arcs (u, v, w) with an atomic update of v's label, and
// every v whose label strictly decreased is handed to the strategy's sink.
//
// Load balancing: Merrill, Garland and Grimshaw, "Scalable GPU Graph
// Traversal" (PPoPP 2012), section 4: a tile of blockDim frontier vertices is
// expanded in three stages. Vertices with at least blockDim arcs are expanded
// by the whole block, one at a time (CTA stage); vertices with at least 32
// arcs by their warp (warp stage); the rest are packed by a block-wide prefix
// sum over their degrees, so each thread takes one arc (scan stage). Road
// graphs (degree 2-4) run in the scan stage at one arc per thread; R-MAT hubs
// with 10^5 arcs run in the CTA stage without stalling a warp.
//
// The operator is a __device__ function: each strategy wraps it in its own
// kernel, which reads the frontier size and queues from device memory, so
// that rounds can be launched back to back without the host knowing sizes.
#pragma once

#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "sssp/common/labels.cuh"

namespace sssp::detail {

namespace cg = cooperative_groups;

constexpr int kRelaxBlock = 256;
constexpr std::uint32_t kNoItem = 0xFFFFFFFFu;  // a discarded queue slot

template <class Weight>
struct GraphView {
  const std::uint64_t* offsets = nullptr;  // n + 1
  const std::uint32_t* targets = nullptr;  // m
  const Weight* weights = nullptr;         // m
  std::uint32_t num_vertices = 0;
  std::uint64_t max_degree = 0;            // largest out-degree (small_frontier.cuh's size test)
};

// Appends with one atomicAdd per group of converged threads (any subset of a
// warp may call it). Returns this thread's slot.
__device__ __forceinline__ std::uint32_t append_slot(std::uint32_t* counter) {
  const cg::coalesced_group g = cg::coalesced_threads();
  std::uint32_t base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(counter, g.num_threads());
  return g.shfl(base, 0) + g.thread_rank();
}

// atomicExch on an address in global memory, said so explicitly. nvcc 13.0
// compiled the far pile's stamp exchange in the narrow loop (its address a
// kernel parameter plus an index) into a shared-memory atomic (cvta.to.shared,
// atom.shared.exch in the PTX; compute-sanitizer: "invalid __shared__
// atomic"), which faults; this form cannot be re-targeted.
__device__ __forceinline__ std::uint32_t global_atomic_exch(std::uint32_t* p, std::uint32_t v) {
  std::uint32_t old;
  asm volatile("{\n\t.reg .u64 g;\n\tcvta.to.global.u64 g, %1;\n\tatom.global.exch.b32 %0, [g], %2;\n\t}"
               : "=r"(old)
               : "l"(p), "r"(v)
               : "memory");
  return old;
}

// A queue in device memory with per-vertex de-duplication: a vertex is
// appended only if its stamp differs from this round's stamp value.
struct QueueAppender {
  std::uint32_t* items = nullptr;
  std::uint32_t* count = nullptr;  // in device memory
  std::uint32_t capacity = 0;
  std::uint32_t* stamps = nullptr;  // one per vertex
  std::uint32_t stamp = 0;
  std::uint32_t* overflow = nullptr;  // set to 1 when capacity is exceeded (never, by construction)

  // True when v was queued this round (its stamp is this round's).
  __device__ __forceinline__ bool queued(std::uint32_t v) const { return __ldcg(stamps + v) == stamp; }

  __device__ __forceinline__ void push(std::uint32_t v) const {
    if (global_atomic_exch(stamps + v, stamp) == stamp) return;  // already queued this round
    const std::uint32_t slot = append_slot(count);
    if (slot < capacity) {
      items[slot] = v;
    } else {
      atomicExch(overflow, 1u);
    }
  }
};

template <class Codec, int kBlock = kRelaxBlock>
struct RelaxShared {
  using Dist = typename Codec::Dist;
  typename cub::BlockScan<std::uint32_t, kBlock>::TempStorage scan;
  std::uint64_t first_arc[kBlock];
  std::uint32_t rank[kBlock];
  std::uint32_t vertex[kBlock];
  Dist dist[kBlock];
  std::uint64_t cta_first, cta_end;
  std::uint32_t cta_vertex;
  Dist cta_dist;
  int cta_owner;
};

// kPrecheck: see Codec::try_lower (false in the latency-bound single-block loop).
template <class Codec, bool kPrecheck = true, class Sink>
__device__ __forceinline__ void relax_arc(const GraphView<typename Codec::Weight>& g, label_t* labels,
                                          std::uint64_t arc, std::uint32_t u, typename Codec::Dist du,
                                          bool track_pred, const Sink& sink) {
  const std::uint32_t v = __ldg(g.targets + arc);
  const auto nd = Codec::add(du, __ldg(g.weights + arc));
  if (Codec::try_lower(labels + v, nd, u, track_pred, kPrecheck)) sink.improved(v, nd);
}

// Adds each thread's count of arcs examined to *arcs_examined, one atomic per
// warp. Whole warps call it (a shuffle reduction).
__device__ __forceinline__ void add_arcs_examined(unsigned long long my_arcs, unsigned long long* arcs_examined) {
  for (int off = 16; off > 0; off >>= 1) my_arcs += __shfl_down_sync(0xFFFFFFFFu, my_arcs, off);
  if ((threadIdx.x & 31u) == 0 && my_arcs != 0) atomicAdd(arcs_examined, my_arcs);
}

// Relaxes the out-arcs of frontier[0 .. count). Every thread of the block must
// call it with the same arguments (it synchronises the block); blockDim.x must
// be kBlock. Adds the number of arcs examined to *arcs_examined (one atomic per
// warp). A frontier vertex for which sink.queued(u) holds is skipped: it was
// improved again since it was queued and sits in the output queue already, so
// it will be relaxed next round with its newer distance (label-correcting).
template <class Codec, int kBlock = kRelaxBlock, bool kPrecheck = true, class Sink>
__device__ void relax_frontier(const GraphView<typename Codec::Weight>& g, label_t* labels,
                               const std::uint32_t* frontier, std::uint32_t count, bool track_pred,
                               const Sink& sink, RelaxShared<Codec, kBlock>& sh,
                               unsigned long long* arcs_examined) {
  using Dist = typename Codec::Dist;
  const unsigned lane = threadIdx.x & 31u;
  unsigned long long my_arcs = 0;

  for (std::uint64_t tile = static_cast<std::uint64_t>(blockIdx.x) * kBlock; tile < count;
       tile += static_cast<std::uint64_t>(gridDim.x) * kBlock) {
    const std::uint64_t idx = tile + threadIdx.x;
    std::uint32_t u = 0;
    std::uint64_t first = 0, end = 0;
    Dist du = Dist();
    if (idx < count) {
      u = frontier[idx];
      if (u != kNoItem && !sink.queued(u)) {
        du = Codec::dist(load_label(labels + u));
        if (!Codec::is_inf(du)) {
          first = __ldg(g.offsets + u);
          end = __ldg(g.offsets + u + 1);
        }
      }
    }
    std::uint64_t degree = end - first;
    my_arcs += degree;

    // CTA stage: whole block on one vertex with >= blockDim arcs.
    while (__syncthreads_or(degree >= kBlock)) {
      // Any one claimant wins; atomicExch makes the competing writes
      // well-defined (plain stores here are a write-write race that
      // compute-sanitizer's racecheck reports).
      if (degree >= kBlock) atomicExch(&sh.cta_owner, static_cast<int>(threadIdx.x));
      __syncthreads();
      if (sh.cta_owner == static_cast<int>(threadIdx.x)) {
        sh.cta_first = first;
        sh.cta_end = end;
        sh.cta_vertex = u;
        sh.cta_dist = du;
        degree = 0;
      }
      __syncthreads();
      const std::uint64_t e_end = sh.cta_end;
      const std::uint32_t cu = sh.cta_vertex;
      const Dist cd = sh.cta_dist;
      for (std::uint64_t e = sh.cta_first + threadIdx.x; e < e_end; e += kBlock)
        relax_arc<Codec, kPrecheck>(g, labels, e, cu, cd, track_pred, sink);
    }

    // Warp stage: the warp on one vertex with >= 32 arcs.
    for (;;) {
      const unsigned want = __ballot_sync(0xFFFFFFFFu, degree >= 32);
      if (want == 0) break;
      const int leader = __ffs(want) - 1;
      const std::uint64_t w_first = __shfl_sync(0xFFFFFFFFu, first, leader);
      const std::uint64_t w_end = __shfl_sync(0xFFFFFFFFu, end, leader);
      const std::uint32_t wu = __shfl_sync(0xFFFFFFFFu, u, leader);
      const Dist wd = __shfl_sync(0xFFFFFFFFu, du, leader);
      if (static_cast<int>(lane) == leader) degree = 0;
      for (std::uint64_t e = w_first + lane; e < w_end; e += 32)
        relax_arc<Codec, kPrecheck>(g, labels, e, wu, wd, track_pred, sink);
    }

    // Scan stage: the remaining (< 32 arcs each) packed one arc per thread.
    std::uint32_t rank, total;
    cub::BlockScan<std::uint32_t, kBlock>(sh.scan).ExclusiveSum(static_cast<std::uint32_t>(degree), rank, total);
    sh.first_arc[threadIdx.x] = first;
    sh.rank[threadIdx.x] = rank;
    sh.vertex[threadIdx.x] = u;
    sh.dist[threadIdx.x] = du;
    __syncthreads();
    for (std::uint32_t base = 0; base < total; base += kBlock) {
      const std::uint32_t k = base + threadIdx.x;
      if (k < total) {
        // Owner = last thread whose rank <= k; it has a non-zero degree covering k.
        int lo = 0, hi = kBlock;
        while (lo < hi) {
          const int mid = (lo + hi) >> 1;
          if (sh.rank[mid] <= k) lo = mid + 1; else hi = mid;
        }
        const int owner = lo - 1;
        relax_arc<Codec, kPrecheck>(g, labels, sh.first_arc[owner] + (k - sh.rank[owner]), sh.vertex[owner],
                         sh.dist[owner], track_pred, sink);
      }
    }
    __syncthreads();  // shared arrays and scan storage are reused by the next tile
  }

  add_arcs_examined(my_arcs, arcs_examined);
}

// Grid-wide "last block out" (the threadFenceReduction pattern): true in
// exactly one block, after every block's writes are visible. The caller's
// thread 0 then does the round's bookkeeping and must reset *blocks_done.
__device__ __forceinline__ bool last_block_done(unsigned* blocks_done) {
  __shared__ bool is_last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned ticket = atomicAdd(blocks_done, 1u);
    is_last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (is_last) __threadfence();
  return is_last;
}

template <class T>
__device__ __forceinline__ T volatile_load(const T* p) {
  return *static_cast<const volatile T*>(p);
}

}  // namespace sssp::detail
