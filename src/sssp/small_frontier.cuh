// Small frontiers (road networks, grids, the first and last rounds of any
// graph): a single block of kSmallBlock threads runs round after round inside
// one kernel, with __syncthreads() between rounds instead of kernel launches
// and grid-wide bookkeeping. Road graphs need hundreds to thousands of
// dependent rounds with frontiers of a few hundred vertices (DESIGN.md, "What
// the peers do"); there a launch per round costs more than the round's work.
// The block hands back to the multi-block kernels (by returning) as soon as a
// frontier exceeds kSmallFrontier vertices or kSmallArcs arcs.
//
// Memory visibility inside the block: labels, stamps and counters are only
// touched through atomics or L2 loads (__ldcg / volatile), queue items are
// written and read by threads of the same block across __syncthreads().
#pragma once

#include <cub/block/block_reduce.cuh>

#include <cstdint>

#include "sssp/relax.cuh"

namespace sssp::detail {

constexpr int kSmallBlock = 1024;
constexpr std::uint32_t kSmallFrontier = 4096;   // vertices
constexpr std::uint64_t kSmallArcs = 1u << 15;   // arcs leaving the frontier
constexpr std::uint32_t kSmallSplit = 1u << 15;  // far-pile entries a block splits itself

template <class Codec>
struct SmallShared {
  RelaxShared<Codec, kSmallBlock> relax;
  typename cub::BlockReduce<unsigned long long, kSmallBlock>::TempStorage reduce;
  int mode;
  int small;
};

// Whether the single block should relax frontier[0 .. count) itself. All
// threads of the block call it; the result is the same in all of them.
template <class Codec>
__device__ bool frontier_is_small(const GraphView<typename Codec::Weight>& g, const std::uint32_t* frontier,
                                  std::uint32_t count, SmallShared<Codec>& sh) {
  if (count > kSmallFrontier) return false;
  unsigned long long arcs = 0;
  for (std::uint32_t i = threadIdx.x; i < count; i += kSmallBlock) {
    const std::uint32_t u = frontier[i];
    if (u != kNoItem) arcs += __ldg(g.offsets + u + 1) - __ldg(g.offsets + u);
  }
  const unsigned long long total = cub::BlockReduce<unsigned long long, kSmallBlock>(sh.reduce).Sum(arcs);
  if (threadIdx.x == 0) sh.small = total <= kSmallArcs ? 1 : 0;
  __syncthreads();
  const bool small = sh.small != 0;
  __syncthreads();  // sh.small and the reduce storage are reused
  return small;
}

}  // namespace sssp::detail
