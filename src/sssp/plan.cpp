// make_plan: every host rule of "which path runs for this input" (plan.hpp).
#include "sssp/plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sssp/auto_strategy.hpp"

namespace sssp {

const char* to_string(ResidentLayout layout) {
  switch (layout) {
    case ResidentLayout::Distances: return "distances";
    case ResidentLayout::Offsets: return "offsets";
    case ResidentLayout::Arcs: return "arcs";
  }
  return "unknown";
}

const char* to_string(Regime regime) {
  switch (regime) {
    case Regime::Resident: return "resident";
    case Regime::Narrow: return "narrow";
    case Regime::Cluster: return "cluster";
    case Regime::Medium: return "medium";
    case Regime::Full: return "full";
  }
  return "unknown";
}

std::vector<Regime> all_regimes() {
  return {Regime::Resident, Regime::Narrow, Regime::Cluster, Regime::Medium, Regime::Full};
}

bool honours_load_balance(Regime regime) { return regime == Regime::Medium || regime == Regime::Full; }

namespace {

// The cluster loop runs (engine.cuh, cluster_blocks_for): allowed, beside
// the single-block loop, on a device with clusters.
bool clusters_run(const ExecutionPlan& plan, const DeviceFacts& device) {
  return plan.single_block_loop && plan.cluster_loop && device.cc_major >= 9;
}

}  // namespace

std::vector<Regime> plan_regimes(const ExecutionPlan& plan, const DeviceFacts& device) {
  std::vector<Regime> regimes;
  if (plan.resident) regimes.push_back(Regime::Resident);
  if (plan.single_block_loop) regimes.push_back(Regime::Narrow);
  const bool cluster = clusters_run(plan, device);
  if (cluster) regimes.push_back(Regime::Cluster);
  // small_frontier.cuh, wide_plan: only on a cooperative grid.
  if (plan.persistent_grid && plan.medium_grid && !cluster) regimes.push_back(Regime::Medium);
  regimes.push_back(Regime::Full);
  return regimes;
}

namespace {

// VertexOrdering::Auto's rule (solver.hpp): the degree order where the
// out-degrees are skewed.
VertexOrdering resolve_ordering(const GraphFacts& g, VertexOrdering asked) {
  if (g.vertices == 0) return VertexOrdering::Input;
  if (asked != VertexOrdering::Auto) return asked;
  const double mean = static_cast<double>(g.arcs) / static_cast<double>(g.vertices);
  return g.vertices >= kDegreeOrderMinVertices && static_cast<double>(g.max_degree) >= kDegreeOrderMinSkew * mean
             ? VertexOrdering::Degree
             : VertexOrdering::Input;
}

// LoadBalance::Auto's rule (solver.hpp): merge-path where its word holds the
// graph's sizes, else binned where most arcs leave heavy vertices.
void resolve_load_balance(const GraphFacts& g, LoadBalance asked, ExecutionPlan& plan) {
  const std::uint64_t n = g.vertices, m = g.arcs;
  const std::uint64_t nn = std::max<std::uint64_t>(n, 1);
  // Hub bin of the binned relax: at most one slot per vertex of degree >= kHubDegree.
  const std::uint64_t hub_cap = std::min<std::uint64_t>(nn + 1, m / detail::kHubDegree + 1);
  plan.heavy_arc_share = m > 0 ? static_cast<double>(g.heavy_arcs) / static_cast<double>(m) : 0.0;
  LoadBalance lb = asked;
  // The hub counter packs count << kHubCountShift | arcs into 64 bits.
  const bool binned_fits = hub_cap < (1ull << (64 - detail::kHubCountShift)) && m <= detail::kHubArcMask;
  const int merge_arc_bits = detail::merge_path_arc_bits(nn, m);
  if (lb == LoadBalance::Auto) {
    if (merge_arc_bits != 0) {
      lb = LoadBalance::MergePath;
    } else {
      lb = binned_fits && plan.heavy_arc_share >= kBinnedMinHeavyArcShare ? LoadBalance::Binned
                                                                          : LoadBalance::ThreeStage;
    }
  }
  if (lb == LoadBalance::MergePath && merge_arc_bits == 0)
    throw std::invalid_argument("sssp: the merge-path load balancing needs the vertex and arc counts to fit one "
                                "64-bit word together; this graph has " + std::to_string(n) + " vertices and " +
                                std::to_string(m) + " arcs (use three-stage or binned)");
  if (lb == LoadBalance::Binned && !binned_fits)
    throw std::invalid_argument("sssp: the binned load balancing handles fewer than 2^24 vertices of out-degree >= " +
                                std::to_string(detail::kHubDegree) + " and 2^40 arcs; this graph has " +
                                std::to_string(m) + " arcs (use three-stage)");
  plan.load_balance = lb;
  plan.merge_path_arc_bits = merge_arc_bits;
}

bool resident_fits(const GraphFacts& g, const DeviceFacts& d, ResidentLayout layout) {
  return detail::resident_fits(g.vertices, g.arcs, layout, d.shared_optin_bytes);
}

// SolverOptions::resident_block's rule: the single-block loop is allowed,
// the distances fit one block's shared memory, the labels are packed, and
// the graph is chain-like (a BFS from its first vertex with arcs finds at
// least kMinHopsForWideDelta hops and the mean out-degree is below
// kMaxMeanDegreeForChainDelta: road networks and their contracted cores),
// or resident_any_shape (measurements: docs/TUNING.md, "Resident block").
void resolve_resident(const GraphFacts& g, const DeviceFacts& d, const SolverOptions& o, ExecutionPlan& plan) {
  plan.resident = false;
  if (!resident_reads_graph(g, d, o)) return;
  if (!g.labels_pack) throw std::logic_error("sssp: make_plan: the resident rule needs GraphFacts::labels_pack");
  if (!*g.labels_pack) return;
  const ResidentLayout layout = o.overrides.resident_shared_arcs && resident_fits(g, d, ResidentLayout::Arcs)
                                    ? ResidentLayout::Arcs
                                : resident_fits(g, d, ResidentLayout::Offsets) ? ResidentLayout::Offsets
                                                                               : ResidentLayout::Distances;
  if (o.overrides.resident_any_shape) {
    plan.resident = true;
  } else {
    if (g.arcs == 0) return;  // no vertex with arcs to measure the shape from
    if (!g.shape) throw std::logic_error("sssp: make_plan: the resident rule needs GraphFacts::shape");
    plan.resident = chain_like(*g.shape);
  }
  if (plan.resident) plan.resident_layout = layout;
}

// Why the resident block does not run, for a note where an option asked
// for it; empty where it runs.
std::string why_not_resident(const GraphFacts& g, const DeviceFacts& d, const SolverOptions& o,
                             const ExecutionPlan& plan) {
  if (plan.resident) return "";
  if (!o.overrides.resident_block) return "resident_block is off";
  if (!o.overrides.single_block_loop) return "it needs the single-block loop, which is off";
  if (g.vertices == 0) return "the graph has no vertices";
  if (!resident_fits(g, d, ResidentLayout::Distances))
    return "the distances of " + std::to_string(g.vertices) + " vertices do not fit one block's " +
           std::to_string(d.shared_optin_bytes) + " bytes of shared memory";
  if (g.labels_pack && !*g.labels_pack) return "the distances do not fit the packed label";
  return "the graph is not chain-like";
}

}  // namespace

bool resident_reads_graph(const GraphFacts& g, const DeviceFacts& d, const SolverOptions& o) {
  return o.overrides.resident_block && o.overrides.single_block_loop && g.vertices != 0 && resident_fits(g, d, ResidentLayout::Distances);
}

ExecutionPlan make_plan(const GraphFacts& g, const DeviceFacts& d, const SolverOptions& o) {
  ExecutionPlan plan;
  const std::uint64_t n = g.vertices, m = g.arcs;
  plan.vertex_ordering = resolve_ordering(g, o.vertex_ordering);
  resolve_load_balance(g, o.load_balance, plan);
  plan.single_block_loop = o.overrides.single_block_loop;
  plan.persistent_grid = o.overrides.persistent_grid;
  plan.medium_grid = o.overrides.medium_grid;

  // The cluster loop, but not on small skewed graphs, and its local steps
  // not on skewed graphs of any size (solver.hpp; docs/TUNING.md, "Cluster
  // regime on small skewed graphs" and "Cluster regime: local steps").
  plan.skewed = n > 0 && static_cast<double>(g.max_degree) >=
                             kClusterMaxSkew * static_cast<double>(m) / static_cast<double>(n);
  const bool small_skewed = plan.skewed && n < kClusterSkewMaxVertices;
  plan.cluster_loop = o.overrides.cluster_loop && (o.overrides.cluster_any_shape || !small_skewed);
  if (o.overrides.cluster_local_steps < -1 || o.overrides.cluster_local_steps > kClusterMaxLocalSteps)
    throw std::invalid_argument("sssp: cluster_local_steps must be -1 (the default) or 0 .. " +
                                std::to_string(kClusterMaxLocalSteps) + ", got " +
                                std::to_string(o.overrides.cluster_local_steps));
  plan.cluster_local_steps = static_cast<std::uint32_t>(
      o.overrides.cluster_local_steps >= 0 ? o.overrides.cluster_local_steps : (plan.skewed ? 0 : kClusterLocalSteps));
  if (o.overrides.resident_local_steps < -1 || o.overrides.resident_local_steps > kResidentMaxLocalSteps)
    throw std::invalid_argument("sssp: resident_local_steps must be -1 (the default) or 0 .. " +
                                std::to_string(kResidentMaxLocalSteps) + ", got " +
                                std::to_string(o.overrides.resident_local_steps));
  // docs/TUNING.md, "Resident block: warp-local steps".
  plan.resident_local_steps =
      static_cast<std::uint32_t>(o.overrides.resident_local_steps >= 0 ? o.overrides.resident_local_steps : kResidentLocalSteps);
  if (o.overrides.block_split_max_items > detail::kBlockSplitMaxItems)
    throw std::invalid_argument("sssp: block_split_max_items must be at most " +
                                std::to_string(detail::kBlockSplitMaxItems) + ", got " +
                                std::to_string(o.overrides.block_split_max_items));
  if (o.overrides.narrow_max_arcs > detail::kNarrowMaxArcs)
    throw std::invalid_argument("sssp: narrow_max_arcs must be at most " + std::to_string(detail::kNarrowMaxArcs) +
                                ", got " + std::to_string(o.overrides.narrow_max_arcs));
  // Where the cluster takes local steps its cascades carry a wave further
  // per step than the single block's rounds, so the block hands over
  // sooner (solver.hpp, kNarrowMaxArcsBeforeCluster). Clusters need sm_90
  // (engine.cuh, cluster_blocks_for).
  const bool cascading_cluster =
      plan.single_block_loop && plan.cluster_loop && plan.cluster_local_steps > 0 && d.cc_major >= 9;
  plan.narrow_max_arcs = o.overrides.narrow_max_arcs != 0 ? o.overrides.narrow_max_arcs
                         : cascading_cluster    ? kNarrowMaxArcsBeforeCluster
                                                : detail::kNarrowMaxArcs;
  // Each batched source's block keeps the full arc limit (a source leaving
  // its block is finished on copies of the graph, which costs more than its
  // block's rounds; the single-source loop's lower default does not apply).
  plan.batch_narrow_max_arcs = o.overrides.narrow_max_arcs != 0 ? o.overrides.narrow_max_arcs : detail::kNarrowMaxArcs;
  if (o.overrides.wide_blocks_per_sm < 0)
    throw std::invalid_argument("sssp: wide_blocks_per_sm must be >= 0, got " + std::to_string(o.overrides.wide_blocks_per_sm));
  plan.wide_blocks_per_sm = o.overrides.wide_blocks_per_sm;
  plan.block_split = o.overrides.block_split;
  plan.grid_split = o.overrides.grid_split;
  plan.block_split_max_items = o.overrides.block_split_max_items;
  resolve_resident(g, d, o, plan);
  plan.regimes = plan_regimes(plan, d);

  // ---- What was asked and is not done (or only on some paths).
  const bool clusters = clusters_run(plan, d);
  if (o.load_balance != LoadBalance::Auto) {
    const std::string lb = to_string(o.load_balance);
    // The regimes that ignore it: the single-block and cluster loops, and
    // the resident block (honours_load_balance).
    if (plan.single_block_loop)
      plan.notes.push_back("load balance " + lb + " applies to the multi-block rounds only: rounds of the " +
                           (clusters ? "single-block and cluster loops" : "single-block loop") +
                           " use their own scan");
    if (plan.resident)
      plan.notes.push_back("load balance " + lb +
                           " is not used by near-far solves without predecessors: they run whole in the resident "
                           "block");
  }
  if (o.overrides.cluster_any_shape && o.overrides.cluster_loop && d.cc_major < 9)
    plan.notes.push_back("cluster_any_shape: no cluster loop on this device (thread-block clusters need sm_90)");
  if (o.overrides.cluster_local_steps >= 0 && !clusters)
    plan.notes.push_back("cluster_local_steps " + std::to_string(o.overrides.cluster_local_steps) +
                         " is not used: no cluster loop runs here");
  if (o.overrides.resident_any_shape && !plan.resident)
    plan.notes.push_back("resident_any_shape: no resident block: " + why_not_resident(g, d, o, plan));
  if (o.overrides.resident_local_steps >= 0 && !plan.resident)
    plan.notes.push_back("resident_local_steps " + std::to_string(o.overrides.resident_local_steps) +
                         " is not used: no resident block (" + why_not_resident(g, d, o, plan) + ")");
  if (o.overrides.narrow_max_arcs != 0 && !plan.single_block_loop)
    plan.notes.push_back("narrow_max_arcs " + std::to_string(o.overrides.narrow_max_arcs) +
                         " is not used: the single-block loop is off");
  return plan;
}

}  // namespace sssp
