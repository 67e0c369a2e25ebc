// `--strategy auto`: the GPU frontier strategy picked from the graph's shape
// (graph_shape.hpp) by a rule fitted to measurements; and the GPU's auto
// delta, c x mean weight / mean out-degree (graph::auto_delta), with c picked
// from the same shape.
#pragma once

#include <cstdint>
#include <string>

#include "graph/csr.hpp"
#include "graph/types.hpp"
#include "sssp/graph_shape.hpp"
#include "sssp/solver.hpp"

namespace sssp {

// The rule's thresholds, all in one place so a new benchmark run can re-tune
// them: bellman-ford when the graph has a low hop diameter (at most
// kMaxHopsForBellmanFord) and skewed degrees (a coefficient of variation of
// at least kMinDegreeCvForBellmanFord), or when it has a high hop diameter
// and is thin (fewer than kMaxVerticesPerHopForBellmanFord vertices per hop
// level on average: rounds of a few dozen vertices, which cost the same with
// more work, so the strategy with the fewest rounds wins); near-far
// otherwise. The measurements they were fitted to, and the graphs the rule
// still gets wrong, are in docs/TUNING.md, "Strategy auto".
inline constexpr std::uint64_t kMaxHopsForBellmanFord = 50;
inline constexpr double kMinDegreeCvForBellmanFord = 1.3;
inline constexpr double kMaxVerticesPerHopForBellmanFord = 40;

// The GPU's delta rule: c = kWideDeltaC when the hop estimate is at least
// kMinHopsForWideDelta, kNarrowDeltaC below. High-diameter graphs (roads,
// grids, meshes) run hundreds to thousands of latency-bound rounds, and wider
// buckets remove rounds faster than they add work; low-diameter graphs
// (uniform random, the multisplit paper's R-MAT) are bandwidth-bound, and
// narrower buckets save work. Two refinements: kChainDeltaC for
// high-diameter graphs whose mean out-degree is below
// kMaxMeanDegreeForChainDelta (roads: mostly chains, rounds of a few dozen
// vertices), and kEvenNarrowDeltaC for graphs of at most
// kMaxHopsForEvenNarrowDelta hops whose degree cv is below
// kMinDegreeCvForBellmanFord (uniform random, the paper's R-MAT; not the
// skewed graphs bellman-ford takes). And kLargeWideDeltaC for the other
// high-diameter graphs of at least kMinVerticesForLargeWideDelta vertices
// (large grids): their rounds carry wavefronts of thousands of vertices and
// cost by their arcs, so the work that a wide window adds costs more than the
// rounds it removes. Fitted in docs/TUNING.md, "GPU delta rule", "Cluster
// regime: local steps" and "Full splits that pay".
inline constexpr std::uint64_t kMinHopsForWideDelta = 32;
inline constexpr double kWideDeltaC = 128;
inline constexpr double kNarrowDeltaC = 16;
inline constexpr double kMaxMeanDegreeForChainDelta = 3.5;
inline constexpr double kChainDeltaC = 256;
inline constexpr std::uint64_t kMaxHopsForEvenNarrowDelta = 10;
inline constexpr double kEvenNarrowDeltaC = 8;
inline constexpr std::uint64_t kMinVerticesForLargeWideDelta = std::uint64_t{1} << 21;
inline constexpr double kLargeWideDeltaC = 64;

// Chain-like: at least kMinHopsForWideDelta hops and a mean out-degree
// below kMaxMeanDegreeForChainDelta (road networks and their contracted
// cores). The chain delta's test, and the shape the resident block takes
// (SolverOptions::resident_block).
inline bool chain_like(const GraphShape& shape) {
  return shape.hop_estimate >= kMinHopsForWideDelta && shape.mean_degree < kMaxMeanDegreeForChainDelta;
}

struct DeltaChoice {
  double c = kNarrowDeltaC;
  std::string reason;  // "128 x mean weight / mean out-degree (hop diameter estimate ~1136 >= 32)"
};

DeltaChoice choose_delta_c(const GraphShape& shape);

struct StrategyChoice {
  Strategy strategy = Strategy::NearFar;
  // "hop diameter estimate ~1136 > 50, degree cv 0.02, max degree 4": the
  // statistics the rule read and the comparison that decided, one line.
  std::string reason;
  GraphShape shape;
};

// The rule on measured statistics (for tests and for callers that measured
// already): bellman-ford when the hop estimate is at most
// kMaxHopsForBellmanFord and the degree cv at least
// kMinDegreeCvForBellmanFord, or when the hop estimate is above
// kMaxHopsForBellmanFord and the vertices number fewer than
// kMaxVerticesPerHopForBellmanFord per hop, unless such a thin graph is
// chain-like and has at most `resident_max_vertices` vertices: near-far then
// runs whole in the resident block, which beat bellman-ford on every road
// graph measured (docs/TUNING.md, "Strategy auto"). The caller passes 0 where
// the resident block will not run (predecessors asked for, sources solved
// in batches) and sssp::resident_max_vertices() otherwise. Near-far in all
// other cases.
StrategyChoice choose_strategy(const GraphShape& shape, std::uint64_t resident_max_vertices = 0);

// measure_shape(g, source), then the rule. Costs a bounded amount of host
// work (graph_shape.hpp). Throws std::invalid_argument when source is out of range.
template <class Weight>
StrategyChoice choose_strategy(const graph::Csr<Weight>& g, graph::vertex_id source,
                               std::uint64_t resident_max_vertices = 0);

extern template StrategyChoice choose_strategy(const graph::Csr<std::uint32_t>&, graph::vertex_id, std::uint64_t);
extern template StrategyChoice choose_strategy(const graph::Csr<float>&, graph::vertex_id, std::uint64_t);

}  // namespace sssp
