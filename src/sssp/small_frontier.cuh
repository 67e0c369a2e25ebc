// Small frontiers (road networks, grids, the first and last rounds of any
// graph): a single block of kSmallBlock threads runs round after round inside
// one kernel, with __syncthreads() between rounds instead of kernel launches
// and grid-wide bookkeeping. Road graphs need hundreds to thousands of
// dependent rounds with frontiers of a few hundred vertices (DESIGN.md, "What
// the peers do"); there a launch per round costs more than the round's work.
// The block hands back (by returning) as soon as a frontier exceeds
// kSmallFrontier vertices or kSmallArcs arcs; then a persistent cooperative
// grid runs the rounds, with grid barriers instead of kernel launches, until
// the frontier is tiny again (or, without cooperative launch, one multi-block
// launch per round).
//
// Memory visibility inside the block: labels, stamps and counters are only
// touched through atomics or L2 loads (__ldcg / volatile), queue items are
// written and read by threads of the same block across __syncthreads().
#pragma once

#include <cub/block/block_reduce.cuh>

#include <cstdint>

#include "sssp/cuda_check.cuh"
#include "sssp/relax.cuh"

namespace sssp::detail {

// One block relaxes about blockDim arcs per dependent chain of memory
// accesses (a few microseconds); a round of the persistent grid costs about
// that plus two grid barriers. Past a few thousand arcs the grid wins.
constexpr int kSmallBlock = 1024;
constexpr std::uint32_t kSmallFrontier = 2048;  // vertices
constexpr std::uint64_t kSmallArcs = 4096;      // arcs leaving the frontier
constexpr std::uint32_t kSmallSplit = 4096;     // far-pile entries a block splits itself
// The persistent grid hands back to the single block below this many
// frontier vertices (hysteresis against the limits above).
constexpr std::uint32_t kPersistentMinFrontier = 256;

// Launches a cooperative (grid-synchronising) kernel.
template <class... Args>
void launch_cooperative(void (*kernel)(Args...), int grid, int block, cudaStream_t stream, Args... args) {
  void* params[] = {static_cast<void*>(&args)...};
  SSSP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(grid), dim3(block), params,
                                              0, stream));
}

// Blocks of `kernel` that can all be resident at once (0: no cooperative launch).
template <class Kernel>
int cooperative_grid(Kernel kernel, int block, int device) {
  int supported = 0, sms = 0, per_sm = 0;
  SSSP_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device));
  if (!supported) return 0;
  SSSP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  SSSP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
  return sms * per_sm;
}

// The single-block loops own their strategy's state while they run (no other
// kernel runs in the stream meanwhile), so they work on a copy in shared
// memory, copied in at the start and back at the end: each round reads and
// updates the state several times (queue counts, parities, stamps, the
// append counters' atomics), and each access then costs shared-memory
// latency instead of an L2 round trip. All threads of the block call it.
template <class State>
__device__ void copy_state(State* dst, const State* src) {
  static_assert(sizeof(State) % sizeof(std::uint32_t) == 0, "state copied in 32-bit words");
  auto* d = reinterpret_cast<std::uint32_t*>(dst);
  const auto* s = reinterpret_cast<const std::uint32_t*>(src);
  for (unsigned i = threadIdx.x; i < sizeof(State) / sizeof(std::uint32_t); i += blockDim.x) d[i] = s[i];
}

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
  // Most rounds of road graphs and grids: small by the degree bound alone, so
  // no loads and no block-wide reduction (the same answer for every thread).
  if (static_cast<std::uint64_t>(count) * g.max_degree <= kSmallArcs) return true;
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
