// The narrow regime's relax round: one block of kSmallBlock threads relaxes a
// frontier of at most kNarrowTile vertices and kNarrowMaxArcs arcs, with the
// frontier and the next round's near queue in shared memory.
//
// Road networks, grids and meshes spend thousands of dependent rounds on
// frontiers of tens to a few thousand vertices (docs/ARCHITECTURE.md, "The
// device loop"), so a round's cost is its longest chain of dependent memory
// accesses, not its bandwidth. The three-stage relax (relax.cuh) chains seven
// of them per round: frontier item, its queued stamp, its label, its offsets,
// the arc, the atomic, the output stamp. This round chains three L2 accesses:
//
//   1. the frontier vertex's label and offsets, loaded together (the vertex
//      comes from shared memory);
//   2. a block-wide scan of the degrees spreads the arcs over the threads
//      (every thread takes arcs k, k + kSmallBlock, ...; owner[k] names the
//      frontier entry, written in shared memory), and each thread loads all
//      its arcs' targets and weights before it uses any of them;
//   3. the atomics on the targets' labels, all issued before any result is
//      looked at; improved vertices are appended to a shared-memory queue
//      without de-duplication.
//
// Without de-duplication a vertex improved twice in one round sits twice in
// the next frontier; both copies relax it with its label as read then, so the
// second finds nothing to improve: duplicates cost work, never correctness,
// and never multiply. The queue holds at most one entry per arc relaxed, and
// a round relaxes at most kNarrowMaxArcs, which bounds it. When the narrow
// loop hands its frontier to the wide regime (global queues, de-duplicated by
// stamps), copy_out_queue removes the duplicates.
//
// A frontier whose arcs exceed the limit is detected after step 1, before
// anything is written, and the round is left to the wide regime.
#pragma once

#include <cstdint>

#include "sssp/common/cuda_check.cuh"
#include "sssp/common/labels.cuh"
#include "sssp/plan.hpp"
#include "sssp/balance/relax.cuh"

namespace sssp::detail {

constexpr int kSmallBlock = 1024;  // threads of the narrow loop's block (512 and 256 measured slower: docs/TUNING.md)
constexpr int kNarrowItemsPerThread = 2048 / kSmallBlock;
constexpr std::uint32_t kNarrowTile = kSmallBlock * kNarrowItemsPerThread;  // frontier vertices per round
// kNarrowMaxArcs (plan.hpp): arcs per round, at most (the owner map's size).
constexpr std::uint32_t kNarrowQueue = kNarrowMaxArcs;  // near-queue entries (>= arcs per round and >= kSmallSplit)
constexpr int kNarrowArcBatch = 4096 / kSmallBlock;  // arcs a thread loads before it issues their atomics
static_assert(kNarrowTile < 65536, "owner entries are 16-bit");

// A queue in shared memory (the narrow loop's near queue): no stamps.
struct SharedQueueAppender {
  std::uint32_t* items = nullptr;
  std::uint32_t* count = nullptr;  // in shared memory
  std::uint32_t* overflow = nullptr;

  __device__ __forceinline__ bool queued(std::uint32_t) const { return false; }
  __device__ __forceinline__ void push(std::uint32_t v) const {
    const std::uint32_t slot = append_slot(count);
    if (slot < kNarrowQueue) {
      items[slot] = v;
    } else {
      atomicExch(overflow, 1u);
    }
  }
};

// The narrow loop's shared memory (dynamic: past the 48 KB static limit).
template <class Codec>
struct NarrowShared {
  std::uint64_t warp_sum[kSmallBlock / 32];  // the degree scan's per-warp totals
  std::uint64_t arc_base[kNarrowTile];  // first arc of the entry minus its rank in the round's arcs
  typename Codec::Dist dist[kNarrowTile];
  std::uint32_t vertex[kNarrowTile];
  std::uint16_t owner[kNarrowMaxArcs];  // arc k of the round belongs to entry owner[k]
  std::uint32_t queue[2][kNarrowQueue];  // near queues, by parity
};

// Lets `kernel` (a single-block loop) have NarrowShared<Codec> as dynamic
// shared memory, past the 48 KB default.
template <class Codec, class Kernel>
void allow_narrow_shared(Kernel kernel) {
  SSSP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(sizeof(NarrowShared<Codec>))));
}

// Inclusive sum over the warp's lanes.
__device__ __forceinline__ std::uint64_t warp_inclusive_sum(std::uint64_t x, unsigned lane) {
#pragma unroll
  for (unsigned d = 1; d < 32; d *= 2) {
    const std::uint64_t y = __shfl_up_sync(0xFFFFFFFFu, x, d);
    if (lane >= d) x += y;
  }
  return x;
}

// Relaxes frontier[0 .. count) (count <= kNarrowTile) when its arcs number at
// most max_arcs (<= kNarrowMaxArcs); returns false, having written nothing,
// otherwise. All threads of the block call it; the result is block-uniform.
// Improved vertices go to sink.improved(v, nd). The caller synchronises the
// block before it reads what the sink appended.
//
// A round of a road network has a hundred or so entries and a few hundred
// arcs, so most of the block's 32 warps have nothing to do, and the round's
// cost is the instructions every warp issues (the SM issues for all of them)
// as much as its memory latency. Entries and arcs are therefore striped over
// the threads (entry j on thread j mod kSmallBlock), so the work sits in the
// first warps, and a warp without work skips each step's body: it only takes
// part in the barriers and the second level of the scan.
template <class Codec, class Sink>
__device__ bool narrow_relax(const GraphView<typename Codec::Weight>& g, label_t* labels,
                             const std::uint32_t* frontier, std::uint32_t count, std::uint32_t max_arcs,
                             bool track_pred, const Sink& sink, NarrowShared<Codec>& sh,
                             unsigned long long* arcs_examined) {
  using Dist = typename Codec::Dist;
  using Weight = typename Codec::Weight;
  static_assert(kNarrowItemsPerThread == 2, "the degree scan packs a thread's two entries into one word");
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  constexpr unsigned kWarps = kSmallBlock / 32;
  // Warps holding an entry: entry j sits on thread j % kSmallBlock.
  const unsigned busy_warps = count >= kSmallBlock ? kWarps : (count + 31) / 32;
  // Step 1: label and offsets of this thread's entries, all loads in flight
  // together, then the degrees' scan: entry tid's degree in the low word,
  // entry tid + kSmallBlock's in the high word (each half's block total is
  // at most kSmallBlock * (kNarrowMaxArcs + 1) < 2^32: no carry between them).
  std::uint32_t u[2] = {kNoItem, kNoItem}, degree[2] = {0, 0};
  label_t label[2];
  std::uint64_t first[2], end[2], rank = 0;
  if (warp < busy_warps) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const std::uint32_t j = tid + i * kSmallBlock;
      if (j < count) {
        u[i] = frontier[j];
        if (u[i] != kNoItem) {
          label[i] = load_label(labels + u[i]);
          first[i] = __ldg(g.offsets + u[i]);
          end[i] = __ldg(g.offsets + u[i] + 1);
        }
      }
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      if (u[i] != kNoItem && !Codec::is_inf(Codec::dist(label[i]))) {
        const std::uint64_t d = end[i] - first[i];
        degree[i] = d > kNarrowMaxArcs ? kNarrowMaxArcs + 1 : static_cast<std::uint32_t>(d);
      }
    }
    const std::uint64_t packed = degree[0] | (static_cast<std::uint64_t>(degree[1]) << 32);
    rank = warp_inclusive_sum(packed, lane);
    if (lane == 31) sh.warp_sum[warp] = rank;
    rank -= packed;
  }
  __syncthreads();
  const std::uint64_t sums = warp_inclusive_sum(lane < busy_warps ? sh.warp_sum[lane] : 0, lane);
  const std::uint64_t block_sum = __shfl_sync(0xFFFFFFFFu, sums, 31);
  const std::uint64_t before = __shfl_sync(0xFFFFFFFFu, sums, warp > 0 ? warp - 1 : 0);
  const std::uint32_t total0 = static_cast<std::uint32_t>(block_sum);
  const std::uint32_t total = total0 + static_cast<std::uint32_t>(block_sum >> 32);
  if (total > max_arcs) {
    __syncthreads();  // warp_sum is rewritten by the caller's next round
    return false;
  }
  // Step 2: the owner map, then each thread's arcs (arc k on thread k %
  // kSmallBlock, up to kNarrowArcBatch of them loaded before any is used).
  if (warp < busy_warps) {
    if (warp > 0) rank += before;
    const std::uint32_t r[2] = {static_cast<std::uint32_t>(rank), total0 + static_cast<std::uint32_t>(rank >> 32)};
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      if (degree[i] == 0) continue;
      const std::uint32_t j = tid + i * kSmallBlock;
      sh.arc_base[j] = first[i] - r[i];
      sh.dist[j] = Codec::dist(label[i]);
      sh.vertex[j] = u[i];
      for (std::uint32_t k = 0; k < degree[i]; ++k) sh.owner[r[i] + k] = static_cast<std::uint16_t>(j);
    }
  }
  __syncthreads();
  for (std::uint32_t base = 0; base + tid < total; base += kNarrowArcBatch * kSmallBlock) {
    std::uint32_t v[kNarrowArcBatch], src[kNarrowArcBatch];
    Weight w[kNarrowArcBatch];
    Dist du[kNarrowArcBatch];
#pragma unroll
    for (int i = 0; i < kNarrowArcBatch; ++i) {
      const std::uint32_t k = base + i * kSmallBlock + tid;
      v[i] = kNoItem;
      if (k < total) {
        const std::uint32_t j = sh.owner[k];
        const std::uint64_t arc = sh.arc_base[j] + k;
        v[i] = __ldg(g.targets + arc);
        w[i] = __ldg(g.weights + arc);
        du[i] = sh.dist[j];
        src[i] = sh.vertex[j];
      }
    }
    // Step 3: the atomics, then their results.
    if (track_pred) {
#pragma unroll
      for (int i = 0; i < kNarrowArcBatch; ++i) {
        if (v[i] == kNoItem) continue;
        const Dist nd = Codec::add(du[i], w[i]);
        if (Codec::try_lower(labels + v[i], nd, src[i], true, false)) sink.improved(v[i], nd);
      }
    } else {
      label_t old[kNarrowArcBatch], want[kNarrowArcBatch];
#pragma unroll
      for (int i = 0; i < kNarrowArcBatch; ++i) {
        want[i] = Codec::no_label();
        if (v[i] != kNoItem) want[i] = Codec::label_of(Codec::add(du[i], w[i]));
        if (want[i] != Codec::no_label()) old[i] = atomicMin(labels + v[i], want[i]);
      }
#pragma unroll
      for (int i = 0; i < kNarrowArcBatch; ++i)
        if (want[i] != Codec::no_label() && Codec::lowers(want[i], old[i])) sink.improved(v[i], Codec::dist(want[i]));
    }
  }
  if (tid == 0) *arcs_examined += total;  // the caller's block owns this counter
  return true;
}

// Copies the narrow loop's queue (duplicates allowed) to a global queue
// without duplicates: keeps an entry whose stamp it is first to set to
// `stamp` (a value no round uses). Returns the new count in every thread.
// All threads of the block call it.
__device__ __forceinline__ std::uint32_t copy_out_queue(const std::uint32_t* from, std::uint32_t count,
                                                        std::uint32_t* to, std::uint32_t* stamps,
                                                        std::uint32_t stamp) {
  __shared__ std::uint32_t kept;
  if (threadIdx.x == 0) kept = 0;
  __syncthreads();
  for (std::uint32_t i = threadIdx.x; i < count; i += blockDim.x) {
    const std::uint32_t v = from[i];
    if (v != kNoItem && global_atomic_exch(stamps + v, stamp) != stamp) to[append_slot(&kept)] = v;
  }
  __syncthreads();
  const std::uint32_t n = kept;
  __syncthreads();
  return n;
}

}  // namespace sssp::detail
