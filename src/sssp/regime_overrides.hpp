// Switches that force the device loop's regimes off (or on where the plan
// would not pick them) and set their sizes: they exist to test and measure
// each regime (docs/ARCHITECTURE.md, "The device loop"); the defaults are
// the fastest measured, the plan's own choice. make_plan (plan.hpp) reads
// them and checks their ranges; the solver follows the plan, and reads
// them only to skip measuring a fact the plan will not read.
#pragma once

#include <cstdint>

namespace sssp {

struct RegimeOverrides {
  // false: never use the single-block loop for small frontiers (every round
  // runs on the whole grid: slower; tests the multi-block relax on small
  // graphs).
  bool single_block_loop = true;
  // false: no thread-block-cluster loop for medium frontiers (only on
  // devices with clusters, sm_90 and later; it needs the single-block loop).
  bool cluster_loop = true;
  // false (default): no cluster loop on small skewed graphs (fewer than
  // kClusterSkewMaxVertices vertices, the largest out-degree at least
  // kClusterMaxSkew times the mean: social graphs), where the medium grid
  // measured faster (docs/TUNING.md, "Cluster regime on small skewed
  // graphs"); true: the cluster loop on every graph (tests).
  bool cluster_any_shape = false;
  // Block-local relax steps the cluster loop's blocks take after each
  // cluster round's own (each on what its block's last step improved, with
  // block barriers only), 0 .. kClusterMaxLocalSteps; -1: the default,
  // kClusterLocalSteps, or 0 on skewed graphs (the largest out-degree at
  // least kClusterMaxSkew times the mean), where a block's cascade runs
  // through hubs ahead of the rest and adds work (docs/TUNING.md, "Cluster
  // regime: local steps").
  int cluster_local_steps = -1;
  // false: bucket-multisplit waits for the host at every full split instead
  // of splitting small piles in one block on the device.
  bool block_split = true;
  // false: piles too large for one block wait for the host instead of being
  // split by a cooperative grid on the device (needs block_split and
  // persistent_grid).
  bool grid_split = true;
  // Largest pile split in one block, 1 .. 16384 (0: the default, 16384);
  // smaller values send smaller piles to the grid (tests).
  std::uint32_t block_split_max_items = 0;
  // false: one multi-block launch per wide round instead of the persistent
  // cooperative grid (also what devices without cooperative launch get).
  bool persistent_grid = true;
  // Most arcs a round of the single-block loop may relax, 1 .. 8192 (0: the
  // default: kNarrowMaxArcsBeforeCluster where the cluster loop runs with
  // local steps, else 8192; many sources in solve_batch: 8192); smaller
  // values hand rounds to the cluster or the grid sooner (more transitions
  // between the regimes).
  std::uint32_t narrow_max_arcs = 0;
  // Blocks per SM of the persistent grid, at most (0: as many as fit, 8 on
  // sm_90): fewer make each grid barrier cheaper and each round's bandwidth
  // lower.
  int wide_blocks_per_sm = 0;
  // Medium frontiers (up to 16384 vertices) on a persistent grid of one
  // block per SM, whose barriers cost less, where the cluster regime does
  // not run (it takes them there); false: the full grid only.
  bool medium_grid = true;
  // The resident regime (docs/ARCHITECTURE.md, "Resident block"): a near-far
  // solve without predecessors runs whole in one thread block, every
  // distance in shared memory, where the distances fit (about 50,000
  // vertices on sm_90), the labels are packed and the graph is chain-like (a
  // hop estimate of at least kMinHopsForWideDelta from its first vertex with
  // arcs and a mean out-degree below kMaxMeanDegreeForChainDelta: road
  // networks and their contracted cores; measurements: docs/TUNING.md,
  // "Resident block"). false: never; nor without single_block_loop.
  bool resident_block = true;
  // true: the resident regime on every graph it fits, whatever its shape (tests).
  bool resident_any_shape = false;
  // Warp-local relax steps in the resident block: after a step's share, each
  // warp relaxes what it improved itself, with warp barriers only, up to this
  // many times before the block's barrier, 0 .. kResidentMaxLocalSteps (0:
  // one hop per block barrier); -1: the default, kResidentLocalSteps
  // (docs/TUNING.md, "Resident block: warp-local steps").
  int resident_local_steps = -1;
  // The resident block copies the arcs into shared memory too where they
  // fit beside the distances (graphs of a few thousand vertices; every hop
  // then loads its arcs from shared memory, not L2); false: never (to
  // compare; docs/TUNING.md, "Resident block: arcs in shared memory").
  bool resident_shared_arcs = true;
};

}  // namespace sssp
