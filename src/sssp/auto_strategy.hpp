// `--strategy auto`: the GPU frontier strategy picked from the graph's shape
// (graph_shape.hpp) by a rule fitted to measurements. Delta is not chosen
// here: it stays graph::auto_delta.
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
// at least kMinDegreeCvForBellmanFord), near-far otherwise. The measurements
// they were fitted to, and the graphs the rule still gets wrong, are in
// docs/TUNING.md, "Strategy auto".
inline constexpr std::uint64_t kMaxHopsForBellmanFord = 50;
inline constexpr double kMinDegreeCvForBellmanFord = 1.3;

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
// kMinDegreeCvForBellmanFord, near-far otherwise.
StrategyChoice choose_strategy(const GraphShape& shape);

// measure_shape(g, source), then the rule. Costs a bounded amount of host
// work (graph_shape.hpp). Throws std::invalid_argument when source is out of range.
template <class Weight>
StrategyChoice choose_strategy(const graph::Csr<Weight>& g, graph::vertex_id source);

extern template StrategyChoice choose_strategy(const graph::Csr<std::uint32_t>&, graph::vertex_id);
extern template StrategyChoice choose_strategy(const graph::Csr<float>&, graph::vertex_id);

}  // namespace sssp
