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

#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "sssp/cuda_check.cuh"
#include "sssp/labels.cuh"
#include "sssp/relax.cuh"

namespace sssp::detail {

constexpr int kSmallBlock = 1024;  // threads of the narrow loop's block (512 measured within 2%: docs/TUNING.md)
constexpr int kNarrowItemsPerThread = 2048 / kSmallBlock;
constexpr std::uint32_t kNarrowTile = kSmallBlock * kNarrowItemsPerThread;  // frontier vertices per round
constexpr std::uint32_t kNarrowMaxArcs = 8192;    // arcs per round, at most (the owner map's size)
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
  using Scan = cub::BlockScan<std::uint32_t, kSmallBlock>;
  typename Scan::TempStorage scan;
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

// Relaxes frontier[0 .. count) (count <= kNarrowTile) when its arcs number at
// most max_arcs (<= kNarrowMaxArcs); returns false, having written nothing,
// otherwise. All threads of the block call it; the result is block-uniform.
// Improved vertices go to sink.improved(v, nd). The caller synchronises the
// block before it reads what the sink appended.
template <class Codec, class Sink>
__device__ bool narrow_relax(const GraphView<typename Codec::Weight>& g, label_t* labels,
                             const std::uint32_t* frontier, std::uint32_t count, std::uint32_t max_arcs,
                             bool track_pred, const Sink& sink, NarrowShared<Codec>& sh,
                             unsigned long long* arcs_examined) {
  using Dist = typename Codec::Dist;
  using Weight = typename Codec::Weight;
  constexpr int kItems = kNarrowItemsPerThread;
  // Step 1: label and offsets of this thread's entries (blocked: entries
  // threadIdx.x * kItems + i), all loads in flight together.
  std::uint32_t u[kItems], degree[kItems];
  label_t label[kItems];
  std::uint64_t first[kItems], end[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const std::uint32_t j = threadIdx.x * kItems + i;
    u[i] = j < count ? frontier[j] : kNoItem;
    if (u[i] != kNoItem) {
      label[i] = load_label(labels + u[i]);
      first[i] = __ldg(g.offsets + u[i]);
      end[i] = __ldg(g.offsets + u[i] + 1);
    }
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    degree[i] = 0;
    if (u[i] != kNoItem && !Codec::is_inf(Codec::dist(label[i]))) {
      const std::uint64_t d = end[i] - first[i];
      degree[i] = d > kNarrowMaxArcs ? kNarrowMaxArcs + 1 : static_cast<std::uint32_t>(d);
    }
  }
  std::uint32_t rank[kItems], total = 0;
  typename NarrowShared<Codec>::Scan(sh.scan).ExclusiveSum(degree, rank, total);
  if (total > max_arcs) {
    __syncthreads();  // the scan storage is reused by the caller's next use
    return false;
  }
  // Step 2: the owner map, then each thread's arcs.
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (degree[i] == 0) continue;
    const std::uint32_t j = threadIdx.x * kItems + i;
    sh.arc_base[j] = first[i] - rank[i];
    sh.dist[j] = Codec::dist(label[i]);
    sh.vertex[j] = u[i];
    for (std::uint32_t k = 0; k < degree[i]; ++k) sh.owner[rank[i] + k] = static_cast<std::uint16_t>(j);
  }
  __syncthreads();
  for (std::uint32_t base = 0; base < total; base += kNarrowArcBatch * kSmallBlock) {
    std::uint32_t v[kNarrowArcBatch], src[kNarrowArcBatch];
    Weight w[kNarrowArcBatch];
    Dist du[kNarrowArcBatch];
#pragma unroll
    for (int i = 0; i < kNarrowArcBatch; ++i) {
      const std::uint32_t k = base + i * kSmallBlock + threadIdx.x;
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
    // Step 3: every atomic before any result is used.
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
  if (threadIdx.x == 0) *arcs_examined += total;  // the caller's block owns this counter
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
