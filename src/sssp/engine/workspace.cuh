// What a strategy gets to work with: the device graph, the labels, scratch
// queues sized once per solver, a stream, and where to put its statistics.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "sssp/balance/balance.cuh"
#include "sssp/common/labels.cuh"
#include "sssp/engine/narrow_relax.cuh"
#include "sssp/balance/relax.cuh"
#include "sssp/solver.hpp"

namespace sssp::detail {

template <class Weight>
struct Workspace {
  GraphView<Weight> graph;
  label_t* labels = nullptr;
  std::uint32_t num_vertices = 0;

  // Per-vertex stamps for queue de-duplication; zeroed before each solve,
  // stamp values start at 1.
  std::uint32_t* stamps_a = nullptr;
  std::uint32_t* stamps_b = nullptr;

  // Queues: big[0..1] hold 2n + 1 items, small[0..1] and far[0..1] hold
  // n + 1 items, keys[0..1] hold 2n + 1 sort keys.
  std::uint32_t* big[2] = {nullptr, nullptr};
  std::uint32_t* small[2] = {nullptr, nullptr};
  std::uint32_t* far[2] = {nullptr, nullptr};
  std::uint32_t* keys[2] = {nullptr, nullptr};
  std::uint64_t big_capacity = 0;
  std::uint64_t small_capacity = 0;

  void* temp = nullptr;  // CUB / multisplit temporary storage
  std::size_t temp_bytes = 0;

  void* state = nullptr;  // device scratch for a strategy's control block
  std::size_t state_bytes = 0;
  void* host_state = nullptr;  // pinned mirror of it
  std::uint32_t* bucket_offsets = nullptr;  // device, kMaxBuckets + 2 entries

  cudaStream_t stream = nullptr;
  int relax_grid = 0;   // blocks for device-driven relax launches (fills the GPU)
  int stream_grid = 0;  // blocks for simple grid-stride kernels
  bool track_pred = false;
  int device = 0;
  bool cooperative = true;  // use the persistent grid (cooperative launch) where the device allows it
  bool single_block_loop = true;  // small frontiers in the single-block loop (small_frontier.cuh)
  bool cluster_loop = true;  // medium frontiers in the cluster loop where the device has clusters (engine.cuh)
  std::uint32_t cluster_local_steps = 0;  // the cluster loop's block-local steps per round (engine.cuh)
  bool block_split = true;   // small full splits in one block on the device (bucketing.cuh)
  bool grid_split = true;    // larger ones in a cooperative grid on the device (needs block_split, cooperative)
  std::uint32_t block_split_max_items = 0;  // 0: kBlockSplitMaxItems
  std::uint32_t* pause_scratch = nullptr;  // device, kPauseGridScratch words per block of that grid
  int pause_scratch_blocks = 0;
  std::uint32_t narrow_max_arcs = kNarrowMaxArcs;  // arcs a round of the single-block loop may have
  int wide_blocks_per_sm = 0;  // persistent grid: blocks per SM at most (0: as many as fit)
  bool medium_grid = true;     // a one-block-per-SM persistent grid for medium frontiers (small_frontier.cuh)
  BalancePlan balance;  // the two-pass balancers' device memory (balance.cuh); overflow set per solve
};

constexpr std::uint32_t kMaxBuckets = 4096;
constexpr std::size_t kStateBytes = 4096;

}  // namespace sssp::detail
