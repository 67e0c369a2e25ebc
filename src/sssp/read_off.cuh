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
static __global__ void lower_pieces(std::uint32_t count, const std::uint64_t* __restrict__ index,
                             const std::uint64_t* __restrict__ piece_dist, std::uint64_t* __restrict__ dist) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    dist[index[i]] = min(dist[index[i]], piece_dist[i]);
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
