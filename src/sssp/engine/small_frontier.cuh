// Small frontiers (road networks, grids, meshes, the first and last rounds of
// any graph): a single block of kSmallBlock threads runs round after round
// inside one kernel, with __syncthreads() between rounds instead of kernel
// launches and grid-wide bookkeeping, and the frontier in shared memory
// (narrow_relax.cuh). Road graphs need hundreds to thousands of dependent
// rounds with frontiers of a few hundred vertices; there a launch per round
// costs more than the round's work. The block hands back (by returning) as
// soon as a frontier is too large for it (below); then a persistent
// cooperative grid runs the rounds, with grid barriers instead of kernel
// launches, until the frontier is small again (or, without cooperative
// launch, one multi-block launch per round).
//
// Memory visibility inside the block: labels, stamps and far-pile items are
// touched through atomics or L2 loads (__ldcg / volatile); the strategy's
// state and the near queues live in shared memory and are read across
// __syncthreads().
#pragma once

#include <cstdint>

#include "sssp/common/cuda_check.cuh"
#include "sssp/engine/narrow_relax.cuh"
#include "sssp/balance/relax.cuh"

namespace sssp::detail {

// The narrow loop takes a round while its frontier has at most kNarrowTile
// vertices and its arcs at most the workspace's narrow_max_arcs (at most
// kNarrowMaxArcs, narrow_relax.cuh), and a split while it has at most
// kSmallSplit far-pile entries; past that the persistent grid takes over, and
// it hands back once the frontier is below narrow_max_arcs / kHandBackDivisor
// vertices (hysteresis: the grid's rounds cost more than the block's, but a
// hand-over costs two kernel launches).
constexpr std::uint32_t kSmallSplit = 4096;
constexpr std::uint32_t kHandBackDivisor = 8;
static_assert(kSmallSplit <= kNarrowQueue, "a split's near output fits the narrow queue");

__host__ __device__ inline std::uint32_t hand_back_frontier(std::uint32_t narrow_max_arcs) {
  const std::uint32_t v = narrow_max_arcs / kHandBackDivisor;
  return v < 1 ? 1 : v;
}

// The wide regime runs on two persistent grids: a medium one of one block
// per SM for frontiers of up to kMediumMaxFrontier vertices (grids, meshes,
// roads past the narrow limit: a grid barrier over 132 blocks costs about
// half of one over 1056, and such rounds have too little work for more
// blocks), and the full grid above (R-MAT, uniform random: bandwidth needs
// every resident block). The full grid hands back below half that.
// Measured on the H200 (docs/TUNING.md, "Wide-regime grid size"). Where the
// cluster regime runs (engine.cuh) it takes those frontiers, and the medium
// grid is left out: its rounds there were single rounds between hand-overs,
// dearer than the cluster's or the full grid's (docs/TUNING.md, "Medium grid
// beside the cluster").
constexpr std::uint32_t kMediumMaxFrontier = 16384;
constexpr int kMediumBlocksPerSm = 1;

// Frontier sizes a persistent grid takes rounds for: it returns before a
// round whose frontier exceeds max_frontier (a larger grid takes it), and
// after its first round once the frontier is below hand_back (a smaller
// grid or the single block takes it).
struct WideBand {
  std::uint32_t hand_back = 0;
  std::uint32_t max_frontier = ~0u;
};

// The wide regime's persistent grids for one strategy's persistent kernel:
// blocks of each (0: not launched) and the band each takes. Without the
// persistent grid both are 0 and the strategy launches per round.
struct WidePlan {
  int medium_blocks = 0, full_blocks = 0;
  WideBand medium, full;
};

// Launches a cooperative (grid-synchronising) kernel.
template <class... Args>
void launch_cooperative(void (*kernel)(Args...), int grid, int block, cudaStream_t stream, Args... args) {
  void* params[] = {static_cast<void*>(&args)...};
  SSSP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(grid), dim3(block), params,
                                              0, stream));
}

// Blocks of `kernel` that can all be resident at once, at most max_per_sm
// per SM when that is not 0 (0 returned: no cooperative launch). Fewer
// blocks make each grid barrier cheaper.
template <class Kernel>
int cooperative_grid(Kernel kernel, int block, int device, int max_per_sm = 0) {
  int supported = 0, sms = 0, per_sm = 0;
  SSSP_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device));
  if (!supported) return 0;
  SSSP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  SSSP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
  if (max_per_sm > 0 && per_sm > max_per_sm) per_sm = max_per_sm;
  return sms * per_sm;
}

// WidePlan for `persistent` under the workspace's regime options.
template <class Kernel, class Workspace>
WidePlan wide_plan(Kernel persistent, const Workspace& ws, bool medium_grid) {
  WidePlan plan;
  if (ws.cooperative) {
    plan.full_blocks = cooperative_grid(persistent, kRelaxBlock, ws.device, ws.wide_blocks_per_sm);
    if (medium_grid) plan.medium_blocks = cooperative_grid(persistent, kRelaxBlock, ws.device, kMediumBlocksPerSm);
  }
  plan.medium = WideBand{ws.single_block_loop ? hand_back_frontier(ws.narrow_max_arcs) : 0, kMediumMaxFrontier};
  plan.full = WideBand{plan.medium_blocks > 0 ? kMediumMaxFrontier / 2 : plan.medium.hand_back, ~0u};
  return plan;
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

}  // namespace sssp::detail
