// The solver's host decisions in one place: which vertex order, load
// balancer, regimes and resident layout a GpuSolver uses for a graph on a
// device under the user's options. make_plan is plain C++ (no CUDA): it
// reads facts the solver measured and returns an ExecutionPlan, which the
// solver then follows (device_graph.cuh, single_solve.cuh, batch_solve.cuh) and reports (GpuSolver::plan()).
// What stays on the device side: the launch shapes that depend on a
// kernel's occupancy (engine.cuh's cluster_blocks_for and pause_grid_blocks,
// small_frontier.cuh's wide_plan) and the per-solve choices that read the
// strategy (the resident block runs near-far solves without predecessors).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sssp/graph_shape.hpp"
#include "sssp/solver.hpp"

namespace sssp {

namespace detail {

// Sizes the plan's rules read, shared with the kernels that they bound.
// The single-block loop's most arcs per round (narrow_relax.cuh: the owner
// map's size).
constexpr std::uint32_t kNarrowMaxArcs = 8192;
// Largest pile split in one block (bucket_split_block.cuh; larger ones: in
// the grid).
constexpr std::uint32_t kBlockSplitMaxItems = 16384;
// The binned relax's hub bin (binned_relax.cuh): vertices of out-degree >=
// kHubDegree; its counter packs count << kHubCountShift | arcs.
constexpr std::uint64_t kHubDegree = 256;
constexpr int kHubCountShift = 40;
constexpr unsigned long long kHubArcMask = (1ull << kHubCountShift) - 1;

// The resident block (resident_block.cuh): its threads, the entries of each
// of its two step queues, and of each warp's own queue (two per lane), which
// its local steps take from; a step that improves more vertices hands the
// rest to the block's queue.
constexpr unsigned kResidentBlock = 1024;
constexpr std::uint32_t kResidentQueue = 2048;
constexpr unsigned kResidentWarps = kResidentBlock / 32;
constexpr std::uint32_t kResidentWarpQueue = 64;
// sizeof(resident::Control), the kernel's static shared memory (checked
// there by a static_assert).
constexpr std::uint64_t kResidentControlBytes = 440;

// What a resident solve keeps in shared memory beside the distances, the
// queues and the overflow bitmap: nothing more, the offsets too, or the
// offsets and the arcs (each arc's target and weight bits side by side, one
// 8-byte load). The plan picks the richest that fits: every hop of a wave
// loads its vertex's offsets and arcs, from L2 where they are not in shared
// memory (docs/TUNING.md, "Resident block: arcs in shared memory").
enum class ResidentLayout : unsigned { Distances, Offsets, Arcs };

// Dynamic shared memory of a resident solve of n vertices and m arcs in
// `layout`: the arcs (first, 8-byte aligned), distances, overflow bitmap,
// two queues, the warps' queues, and the offsets.
inline std::uint64_t resident_shared_bytes(std::uint64_t n, std::uint64_t m, ResidentLayout layout) {
  return 4 * ((layout == ResidentLayout::Arcs ? 2 * m : 0) + n + (n + 31) / 32 + 2ull * kResidentQueue +
              std::uint64_t{kResidentWarps} * kResidentWarpQueue + (layout != ResidentLayout::Distances ? n + 1 : 0));
}

// Whether a resident solve of n vertices and m arcs in `layout` fits
// `optin_bytes` of dynamic shared memory per block (the device's opt-in
// limit), beside the kernel's static Control and some slack.
inline bool resident_fits(std::uint64_t n, std::uint64_t m, ResidentLayout layout, std::uint64_t optin_bytes) {
  return resident_shared_bytes(n, m, layout) + kResidentControlBytes + 1024 <= optin_bytes;
}

// Bits of the arc field of merge-path's reservation word (merge_path_relax.cuh)
// for a graph of m arcs, or 0 when the vertex count does not fit the rest of
// the word.
inline int merge_path_arc_bits(std::uint64_t num_vertices, std::uint64_t num_arcs) {
  int arc_bits = 1;
  while (arc_bits < 63 && (1ull << arc_bits) <= num_arcs) ++arc_bits;
  int slot_bits = 1;
  while (slot_bits < 63 && (1ull << slot_bits) <= num_vertices) ++slot_bits;
  return arc_bits + slot_bits <= 64 ? arc_bits : 0;
}

}  // namespace detail

using detail::ResidentLayout;

// "distances", "offsets", "arcs".
const char* to_string(ResidentLayout layout);

// The device loop's regimes (docs/ARCHITECTURE.md, "The device loop"; its
// table lists each one's kernel, file and balancers and is checked against
// these by test_sssp_plan), in the order a growing frontier meets them.
//   resident  a near-far solve without predecessors whole in one block;
//   narrow    the single-block loop (small frontiers);
//   cluster   a thread-block cluster (sm_90 and later; medium frontiers);
//   medium    a persistent grid of one block per SM (medium frontiers);
//   full      the whole grid: persistent, or one launch per step.
enum class Regime { Resident, Narrow, Cluster, Medium, Full };
// "resident", "narrow", "cluster", "medium", "full".
const char* to_string(Regime regime);
std::vector<Regime> all_regimes();
// Whether the regime's rounds spread their arcs with the plan's load
// balancer (the others use their own scans).
bool honours_load_balance(Regime regime);

// What the solver knows of the graph before it allocates anything.
struct GraphFacts {
  std::uint64_t vertices = 0;
  std::uint64_t arcs = 0;
  std::uint64_t max_degree = 0;  // the largest out-degree (exact)
  // Arcs leaving vertices of out-degree >= 32 (binned_relax.cuh's warp bin):
  // the load balancer's statistic, as a share of the arcs.
  std::uint64_t heavy_arcs = 0;
  // Read by the resident rule only after its other tests pass
  // (resident_reads_graph, below), and measured by the solver only then;
  // empty: not measured. make_plan throws std::logic_error where the rule
  // reaches an empty one.
  //   labels_pack  every distance fits the packed label: float weights, or
  //                (n - 1) x the largest integer weight below 2^32 - 1
  //                (labels.cuh);
  //   shape        sssp::measure_shape from the first vertex with arcs
  //                (absent too where no vertex has arcs).
  std::optional<bool> labels_pack;
  std::optional<GraphShape> shape;
};

// The device the solver runs on.
struct DeviceFacts {
  int cc_major = 0, cc_minor = 0;        // compute capability
  std::uint32_t multiprocessors = 0;
  std::uint64_t shared_optin_bytes = 0;  // the largest dynamic shared memory per block (opt-in)
};

struct ExecutionPlan {
  // The numbering of the device's copy (VertexOrdering::Auto resolved).
  VertexOrdering vertex_ordering = VertexOrdering::Input;
  // The multi-block rounds' load balancing (LoadBalance::Auto resolved), the
  // statistic auto read, and merge-path's arc field (0 where the word cannot
  // hold the graph's sizes).
  LoadBalance load_balance = LoadBalance::ThreeStage;
  double heavy_arc_share = 0;
  int merge_path_arc_bits = 0;
  // The single-block loop for small frontiers (SolverOptions::single_block_loop).
  bool single_block_loop = true;
  // The out-degrees are skewed (the largest at least kClusterMaxSkew times
  // the mean): no cluster local steps, and no cluster loop below
  // kClusterSkewMaxVertices vertices.
  bool skewed = false;
  // The cluster loop is allowed (it runs where the device has clusters,
  // sm_90 and later, and the single-block loop runs: engine.cuh) and its
  // blocks' local steps.
  bool cluster_loop = true;
  std::uint32_t cluster_local_steps = 0;
  // Most arcs a round of the single-block loop relaxes, in single solves
  // and in solve_batch's blocks.
  std::uint32_t narrow_max_arcs = detail::kNarrowMaxArcs;
  std::uint32_t batch_narrow_max_arcs = detail::kNarrowMaxArcs;
  // Wide rounds on persistent cooperative grids (else one launch per step),
  // and the medium grid of one block per SM where no cluster runs
  // (SolverOptions::persistent_grid, medium_grid).
  bool persistent_grid = true;
  bool medium_grid = true;
  // Blocks per SM of the persistent grid at most (0: as many as fit).
  int wide_blocks_per_sm = 0;
  // Bucket-multisplit's full splits on the device: piles of up to
  // block_split_max_items (0: kBlockSplitMaxItems) in one block, larger ones
  // in a cooperative grid (grid_split; it also needs the persistent grid);
  // without block_split every full split waits for the host.
  bool block_split = true;
  bool grid_split = true;
  std::uint32_t block_split_max_items = 0;
  // Near-far solves without predecessors run whole in the resident block,
  // with `resident_layout` in shared memory (meaningful where resident),
  // its warps taking up to resident_local_steps local steps.
  bool resident = false;
  ResidentLayout resident_layout = ResidentLayout::Distances;
  std::uint32_t resident_local_steps = 0;
  // The regimes this plan may run on its device (plan_regimes).
  std::vector<Regime> regimes;
  // Where an option asked for something this plan does not do, or does
  // only on some paths: one sentence each.
  std::vector<std::string> notes;
};


// The regimes this plan may run on this device: the cluster where the
// device has clusters (sm_90; engine.cuh also needs a cluster of 8 or 16
// blocks to be schedulable there), the medium grid only without it. The
// full grid is always among them; which one runs a round is decided on
// the device by the frontier's size.
std::vector<Regime> plan_regimes(const ExecutionPlan& plan, const DeviceFacts& device);

// Whether the resident rule reads GraphFacts::labels_pack and ::shape for
// these facts, device and options: its other tests pass (the option and the
// single-block loop allow it, the graph has vertices and its distances fit
// the block's shared memory). shape is read only where, besides,
// labels_pack holds, resident_any_shape is off and the graph has arcs.
bool resident_reads_graph(const GraphFacts& graph, const DeviceFacts& device, const SolverOptions& options);

// The plan for a graph on a device under `options`. Throws
// std::invalid_argument on an option out of its range and on a balancer
// asked for by name that cannot hold the graph's sizes (the messages name
// the value); std::logic_error where a fact the rules need was not measured.
ExecutionPlan make_plan(const GraphFacts& graph, const DeviceFacts& device, const SolverOptions& options);

}  // namespace sssp
