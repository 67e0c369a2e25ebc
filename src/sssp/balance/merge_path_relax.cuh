// Merge-path relax: the third load balancer (LoadBalance::MergePath), beside
// the three-stage expansion (relax.cuh) and the degree bins
// (binned_relax.cuh). The round's out-arcs form one index space that is cut
// into equal chunks of kMergePathChunk arcs, one block per chunk, whatever
// the degrees: a hub's arcs spread over as many blocks as it needs and a road
// graph's degree-3 vertices pack 170 to a chunk. Each arc finds its vertex by
// a binary search over the vertices' first arcs, the balanced partition of
// Green, McColl and Bader's merge path ("GPU merge path", ICS 2012) as
// Gunrock's load-balanced advance and ModernGPU's load-balancing search use it.
//
// A round is two passes with a grid-wide barrier (or a kernel boundary)
// between them, the same shape as the degree bins:
//
//  1. Prefix pass: every tile of kRelaxBlock frontier entries scans its
//     degrees with cub::BlockScan and reserves its slots and its arcs with one
//     64-bit atomicAdd on `reserved` = slots << arc_bits | arcs. Slots are in
//     reservation order, not frontier order: the prefix over the whole
//     frontier costs one atomic per tile instead of a device-wide scan (and
//     its extra barriers). Each slot records its vertex and its first arc in
//     the arc space; the slot holding arc c * kMergePathChunk is recorded for
//     every chunk c, so a chunk finds its slots with two loads instead of a
//     search through global memory.
//  2. Relax pass: a block loads the slots of its chunk (at most
//     kMergePathChunk + 1: every slot has at least one arc) into shared
//     memory, then each thread relaxes arcs kRelaxBlock apart, finding each
//     one's slot by binary search in shared memory.
//
// The one atomic word limits the sizes: arc_bits holds the graph's arc count
// (a de-duplicated frontier has at most m arcs) and the other 64 - arc_bits
// bits its vertex count; the solver checks that both fit before choosing
// this mode.
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "sssp/common/labels.cuh"
#include "sssp/plan.hpp"
#include "sssp/balance/relax.cuh"

namespace sssp::detail {

// Arcs per chunk: 2 per thread. The chunk's slots live in shared memory
// (24 bytes each), 12 KB at this size, which keeps 8 blocks of the relax
// kernels resident per SM.
constexpr std::uint32_t kMergePathChunk = 2 * kRelaxBlock;

struct MergePathPlan {
  std::uint32_t* slot_vertex = nullptr;
  std::uint64_t* slot_first = nullptr;   // first index of the slot's arcs in the round's arc space
  std::uint64_t slot_capacity = 0;
  std::uint32_t* chunk_slot = nullptr;   // chunk c: the slot holding arc c * kMergePathChunk
  std::uint64_t chunk_capacity = 0;
  unsigned long long* reserved = nullptr;  // slots << arc_bits | arcs; zero between rounds
  int arc_bits = 0;
};

// Prefix pass over frontier[0 .. count); every thread of the grid calls it
// (block-wide scans), blockDim.x == kRelaxBlock. Entries that sink.queued()
// skips, kNoItem and vertices without out-arcs take no slot.
template <class Sink>
__device__ void merge_path_prefix(const std::uint64_t* offsets, const std::uint32_t* frontier, std::uint32_t count,
                                  const Sink& sink, const MergePathPlan& plan, std::uint32_t* overflow) {
  using Scan = cub::BlockScan<unsigned long long, kRelaxBlock>;
  __shared__ typename Scan::TempStorage scan;
  __shared__ unsigned long long tile_base;
  const unsigned long long arc_mask = (1ull << plan.arc_bits) - 1;
  for (std::uint64_t tile = static_cast<std::uint64_t>(blockIdx.x) * kRelaxBlock; tile < count;
       tile += static_cast<std::uint64_t>(gridDim.x) * kRelaxBlock) {
    const std::uint64_t i = tile + threadIdx.x;
    std::uint32_t u = kNoItem;
    std::uint64_t degree = 0;
    if (i < count) {
      u = frontier[i];
      if (u != kNoItem && !sink.queued(u)) degree = __ldg(offsets + u + 1) - __ldg(offsets + u);
    }
    const unsigned long long mine = degree != 0 ? (1ull << plan.arc_bits) | degree : 0;
    unsigned long long prefix = 0, total = 0;
    Scan(scan).ExclusiveSum(mine, prefix, total);
    if (threadIdx.x == 0 && total != 0) tile_base = atomicAdd(plan.reserved, total);
    __syncthreads();
    if (degree != 0) {
      // No carry from the arc field into the slot field: the round's arcs
      // stay below 2^arc_bits.
      const unsigned long long at = tile_base + prefix;
      const std::uint64_t slot = at >> plan.arc_bits;
      const std::uint64_t first = at & arc_mask;
      if (slot < plan.slot_capacity) {
        plan.slot_vertex[slot] = u;
        plan.slot_first[slot] = first;
      } else {
        atomicExch(overflow, 1u);
      }
      // Chunks whose first arc is one of this vertex's arcs.
      for (std::uint64_t c = (first + kMergePathChunk - 1) / kMergePathChunk; c * kMergePathChunk < first + degree;
           ++c) {
        if (c < plan.chunk_capacity) {
          plan.chunk_slot[c] = static_cast<std::uint32_t>(slot);
        } else {
          atomicExch(overflow, 1u);
        }
      }
    }
    __syncthreads();  // tile_base and the scan storage are reused by the next tile
  }
}

// Relax pass over the arc space the prefix pass laid out. Every thread of the
// grid calls it, blockDim.x == kRelaxBlock. Adds the arcs examined to
// *arcs_examined (one atomic per warp). As in relax_frontier, a vertex queued
// again since (sink.queued) is skipped.
template <class Codec, class Sink>
__device__ void merge_path_relax(const GraphView<typename Codec::Weight>& g, label_t* labels,
                                 const MergePathPlan& plan, bool track_pred, const Sink& sink,
                                 unsigned long long* arcs_examined) {
  using Dist = typename Codec::Dist;
  constexpr std::uint32_t kSlots = kMergePathChunk + 1;
  __shared__ std::uint32_t s_begin[kSlots];   // first arc of the slot, relative to the chunk (0 for the first slot)
  __shared__ std::uint64_t s_arc[kSlots];     // CSR index of arc k = s_arc + k (mod 2^64)
  __shared__ std::uint32_t s_vertex[kSlots];  // kNoItem: skip the slot
  __shared__ Dist s_dist[kSlots];
  const unsigned long long word = __ldcg(plan.reserved);  // written by atomics before the barrier
  const std::uint64_t n_slots = word >> plan.arc_bits;
  const std::uint64_t n_arcs = word & ((1ull << plan.arc_bits) - 1);
  const std::uint64_t n_chunks = (n_arcs + kMergePathChunk - 1) / kMergePathChunk;
  unsigned long long my_arcs = 0;
  for (std::uint64_t c = blockIdx.x; c < n_chunks; c += gridDim.x) {
    const std::uint64_t c0 = c * kMergePathChunk;
    const std::uint64_t left = n_arcs - c0;
    const auto c_len = static_cast<std::uint32_t>(left < kMergePathChunk ? left : kMergePathChunk);
    const std::uint64_t s0 = __ldcg(plan.chunk_slot + c);
    // One past the slot holding the next chunk's first arc (that slot may
    // start exactly at the boundary: harmless).
    const std::uint64_t s_end = c + 1 < n_chunks ? __ldcg(plan.chunk_slot + c + 1) + 1ull : n_slots;
    const auto n_here = static_cast<std::uint32_t>(s_end - s0);  // <= kSlots
    for (std::uint32_t j = threadIdx.x; j < n_here; j += kRelaxBlock) {
      const std::uint32_t u = __ldcg(plan.slot_vertex + s0 + j);
      const std::uint64_t first = __ldcg(plan.slot_first + s0 + j);
      std::uint32_t keep = kNoItem;
      Dist du = Dist();
      std::uint64_t arc0 = 0;
      if (!sink.queued(u)) {
        du = Codec::dist(load_label(labels + u));
        if (!Codec::is_inf(du)) {
          keep = u;
          arc0 = __ldg(g.offsets + u);
        }
      }
      s_begin[j] = first > c0 ? static_cast<std::uint32_t>(first - c0) : 0u;
      s_arc[j] = arc0 - first;
      s_vertex[j] = keep;
      s_dist[j] = du;
    }
    __syncthreads();
    std::uint32_t own = 0;  // the owner only moves forward: a thread's arcs ascend
    for (std::uint32_t k = threadIdx.x; k < c_len; k += kRelaxBlock) {
      std::uint32_t hi = n_here;
      while (hi - own > 1) {
        const std::uint32_t mid = (own + hi) >> 1;
        if (s_begin[mid] <= k) own = mid; else hi = mid;
      }
      const std::uint32_t u = s_vertex[own];
      if (u == kNoItem) continue;
      relax_arc<Codec>(g, labels, s_arc[own] + c0 + k, u, s_dist[own], track_pred, sink);
      ++my_arcs;
    }
    __syncthreads();  // the slot arrays are reused by the next chunk
  }
  add_arcs_examined(my_arcs, arcs_examined);
}

// The arc field's bits of `reserved` for a graph: merge_path_arc_bits (plan.hpp).

}  // namespace sssp::detail
