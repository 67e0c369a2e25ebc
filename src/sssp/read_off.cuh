// The chain contraction's read-off on the device (graph/contraction.hpp,
// ContractionQuery::expand): every original vertex's distance from the core
// solve's, a junction's own and a piece vertex's nearer anchor, then the
// source's own piece lowered by its paths inside the piece. Shared by the
// contracted single-source solve (core distances read from the solver's
// labels) and PHAST (core distances in an array per source).
#pragma once

#include <cstdint>
#include <limits>

#include "graph/types.hpp"

namespace sssp::detail {

inline constexpr std::uint64_t kReadOffInf = std::numeric_limits<std::uint64_t>::max();

// core_distance(b, v): source b's distance at core vertex v, kReadOffInf
// when unreachable. Writes sources x n distances, n apart.
template <class CoreDistance>
__global__ void read_off_anchors(std::uint32_t n, std::uint32_t sources, const std::uint32_t* __restrict__ core_of,
                                 const std::uint32_t* __restrict__ anchor_core,
                                 const std::uint64_t* __restrict__ anchor_offset, CoreDistance core_distance,
                                 std::uint64_t* __restrict__ all_dist) {
  const std::uint64_t total = std::uint64_t{n} * sources;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint32_t b = static_cast<std::uint32_t>(i / n), v = static_cast<std::uint32_t>(i % n);
    std::uint64_t* dist = all_dist + std::uint64_t{b} * n;
    const std::uint32_t cv = core_of[v];
    if (cv != graph::kNoVertex) {
      dist[v] = core_distance(b, cv);
      continue;
    }
    std::uint64_t best = kReadOffInf;
#pragma unroll
    for (int side = 0; side < 2; ++side) {
      const std::uint32_t a = anchor_core[2 * std::uint64_t{v} + side];
      if (a == graph::kNoVertex) continue;
      const std::uint64_t d = core_distance(b, a);
      if (d != kReadOffInf) best = min(best, d + anchor_offset[2 * std::uint64_t{v} + side]);
    }
    dist[v] = best;
  }
}

// The sources' own pieces, which the anchors cannot see: entry i lowers
// dist[index[i]] (source b's vertex v at b x n + v) to piece_dist[i].
// static: one copy per translation unit that includes this header.
static __global__ void lower_pieces(std::uint64_t count, const std::uint64_t* __restrict__ index,
                                    const std::uint64_t* __restrict__ piece_dist, std::uint64_t* __restrict__ dist) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    dist[index[i]] = min(dist[index[i]], piece_dist[i]);
}

// What the read-off with predecessors reads besides the distances: how a
// core vertex's predecessor maps back to an original vertex, and the tie
// rule's pieces (ContractionQuery::expand, whose rules this follows).
struct PredecessorReadOff {
  const std::uint32_t* anchor_pred;   // two per vertex (ContractionAnchor::pred)
  const std::uint32_t* piece;         // per vertex: its piece, kNoVertex in the core
  const std::uint64_t* core_offsets;  // the core graph in its input order
  const std::uint32_t* core_targets;
  const std::uint32_t* via;           // per core arc below the entry's: the original vertex its target follows
  std::uint32_t entry;                // the core's entry vertex
  std::uint32_t entry_targets[2], entry_preds[2];
};

// A core vertex's predecessor as an original vertex: through the entry,
// the piece vertex it was entered from; else the via of the core arc from
// its core predecessor (rows sorted by target, one arc per pair).
template <class CorePred>
__device__ std::uint32_t original_predecessor(const PredecessorReadOff& r, CorePred core_pred, std::uint32_t cv) {
  const std::uint32_t p = core_pred(cv);
  if (p == graph::kNoVertex) return graph::kNoVertex;
  if (p == r.entry) {
    for (int i = 0; i < 2; ++i)
      if (r.entry_targets[i] == cv) return r.entry_preds[i];
    return graph::kNoVertex;
  }
  std::uint64_t lo = r.core_offsets[p], hi = r.core_offsets[p + 1];
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (r.core_targets[mid] < cv) lo = mid + 1; else hi = mid;
  }
  return lo < r.core_offsets[p + 1] && r.core_targets[lo] == cv ? r.via[lo] : graph::kNoVertex;
}

// read_off_anchors for one source with predecessors. Ties (zero-weight
// arcs) must not let a chain's vertices and its ends point at each other:
// prefer an anchor whose junction was not reached through this piece, then
// the one nearer the source, then the first.
template <class CoreDistance, class CorePred>
__global__ void read_off_anchors_with_predecessors(std::uint32_t n, const std::uint32_t* __restrict__ core_of,
                                                   const std::uint32_t* __restrict__ anchor_core,
                                                   const std::uint64_t* __restrict__ anchor_offset,
                                                   CoreDistance core_distance, CorePred core_pred,
                                                   PredecessorReadOff r, std::uint64_t* __restrict__ dist,
                                                   std::uint32_t* __restrict__ pred) {
  for (std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    const std::uint32_t cv = core_of[v];
    if (cv != graph::kNoVertex) {
      dist[v] = core_distance(0, cv);
      pred[v] = original_predecessor(r, core_pred, cv);
      continue;
    }
    std::uint64_t d[2];
    for (int side = 0; side < 2; ++side) {
      const std::uint32_t a = anchor_core[2 * std::uint64_t{v} + side];
      const std::uint64_t base = a == graph::kNoVertex ? kReadOffInf : core_distance(0, a);
      d[side] = base == kReadOffInf ? kReadOffInf : base + anchor_offset[2 * std::uint64_t{v} + side];
    }
    int pick = d[1] < d[0] ? 1 : 0;
    if (d[0] == d[1] && d[0] != kReadOffInf) {  // both anchors exist: only ties need the junctions' predecessors
      const auto through_piece = [&](std::uint32_t junction) {
        const std::uint32_t p = original_predecessor(r, core_pred, junction);
        return p != graph::kNoVertex && r.piece[p] == r.piece[v];
      };
      const std::uint32_t a0 = anchor_core[2 * std::uint64_t{v}], a1 = anchor_core[2 * std::uint64_t{v} + 1];
      const bool through0 = through_piece(a0), through1 = through_piece(a1);
      if (through1 < through0 || (through1 == through0 && core_distance(0, a1) < core_distance(0, a0))) pick = 1;
    }
    dist[v] = d[pick];
    pred[v] = d[pick] == kReadOffInf ? graph::kNoVertex : r.anchor_pred[2 * std::uint64_t{v} + pick];
  }
}

// The source's own piece with predecessors: its paths inside the piece win
// ties (<=, as ContractionQuery::expand).
static __global__ void lower_pieces_with_predecessors(std::uint32_t count, const std::uint64_t* __restrict__ index,
                                                      const std::uint64_t* __restrict__ piece_dist,
                                                      const std::uint32_t* __restrict__ piece_pred,
                                                      std::uint64_t* __restrict__ dist, std::uint32_t* __restrict__ pred) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const std::uint64_t v = index[i];
    if (piece_dist[i] <= dist[v]) {
      dist[v] = piece_dist[i];
      pred[v] = piece_pred[i];
    }
  }
}

// Core distances kept one array per source, core_n apart (PHAST's sweep).
struct CoreDistanceArray {
  const std::uint64_t* all_core_dist;
  std::uint32_t core_n;
  __device__ std::uint64_t operator()(std::uint32_t b, std::uint32_t v) const {
    return all_core_dist[std::uint64_t{b} * core_n + v];
  }
};

}  // namespace sssp::detail
