// The `auto` strategy rule (auto_strategy.hpp) and the line that explains it.
#include "sssp/auto_strategy.hpp"

#include <algorithm>
#include <cstdio>

namespace sssp {

namespace {

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

}  // namespace

StrategyChoice choose_strategy(const GraphShape& shape, std::uint64_t resident_max_vertices) {
  StrategyChoice choice;
  choice.shape = shape;
  const bool low_diameter = shape.hop_estimate <= kMaxHopsForBellmanFord;
  const bool skewed = shape.degree_cv >= kMinDegreeCvForBellmanFord;
  const double vertices_per_hop =
      static_cast<double>(shape.vertices) / static_cast<double>(std::max<std::uint64_t>(shape.hop_estimate, 1));
  const bool thin = !low_diameter && vertices_per_hop < kMaxVerticesPerHopForBellmanFord;
  const bool thin_chains = thin && chain_like(shape);
  const bool resident = thin_chains && shape.vertices <= resident_max_vertices;
  choice.strategy = (low_diameter && skewed) || (thin && !resident) ? Strategy::BellmanFord : Strategy::NearFar;

  // Name every statistic read, and mark the comparisons that decided: the
  // diameter and the vertices per hop when it is high (skew is not looked at
  // then), else the skew.
  std::string& r = choice.reason;
  r = "hop diameter estimate " + std::string(shape.hop_exact ? "" : "~") + std::to_string(shape.hop_estimate);
  if (shape.hop_exact) r += " (exact)";
  if (!low_diameter) {
    r += " > " + std::to_string(kMaxHopsForBellmanFord);
    r += ", " + format("%.1f", vertices_per_hop) + " vertices per hop" + (thin ? " < " : " >= ") +
         format("%g", kMaxVerticesPerHopForBellmanFord);
  }
  r += ", degree cv " + format("%.2f", shape.degree_cv);
  if (low_diameter) r += (skewed ? " >= " : " < ") + format("%.1f", kMinDegreeCvForBellmanFord);
  r += ", max degree " + std::to_string(shape.max_degree) + (shape.degree_sampled ? " (sampled)" : "");
  r += ", mean degree " + format("%.1f", shape.mean_degree);
  if (thin_chains) {
    r += "; chain-like";
    if (resident_max_vertices == 0)
      r += ", but the resident block does not run here";
    else
      r += ", " + std::to_string(shape.vertices) + " vertices" + (resident ? " <= " : " > ") +
           std::to_string(resident_max_vertices) + (resident ? ": near-far runs whole in the resident block"
                                                              : ": more than the resident block holds");
  }
  return choice;
}

DeltaChoice choose_delta_c(const GraphShape& shape) {
  DeltaChoice choice;
  const bool wide = shape.hop_estimate >= kMinHopsForWideDelta;
  const bool chains = chain_like(shape);
  const bool even = !wide && shape.hop_estimate <= kMaxHopsForEvenNarrowDelta &&
                    shape.degree_cv < kMinDegreeCvForBellmanFord;
  const bool large = wide && !chains && shape.vertices >= kMinVerticesForLargeWideDelta;
  choice.c = wide ? (chains ? kChainDeltaC : (large ? kLargeWideDeltaC : kWideDeltaC))
                  : (even ? kEvenNarrowDeltaC : kNarrowDeltaC);
  choice.reason = format("%g", choice.c) + " x mean weight / mean out-degree (hop diameter estimate " +
                  (shape.hop_exact ? "" : "~") + std::to_string(shape.hop_estimate) + (wide ? " >= " : " < ") +
                  std::to_string(kMinHopsForWideDelta);
  if (wide) {
    choice.reason += ", mean degree " + format("%.1f", shape.mean_degree) + (chains ? " < " : " >= ") +
                     format("%g", kMaxMeanDegreeForChainDelta);
    if (!chains)
      choice.reason += ", " + std::to_string(shape.vertices) + " vertices" + (large ? " >= " : " < ") +
                       std::to_string(kMinVerticesForLargeWideDelta);
  } else if (shape.hop_estimate <= kMaxHopsForEvenNarrowDelta) {
    choice.reason += ", degree cv " + format("%.2f", shape.degree_cv) + (even ? " < " : " >= ") +
                     format("%g", kMinDegreeCvForBellmanFord);
  }
  choice.reason += ")";
  return choice;
}

template <class Weight>
StrategyChoice choose_strategy(const graph::Csr<Weight>& g, graph::vertex_id source,
                               std::uint64_t resident_max_vertices) {
  return choose_strategy(measure_shape(g, source), resident_max_vertices);
}

template StrategyChoice choose_strategy(const graph::Csr<std::uint32_t>&, graph::vertex_id, std::uint64_t);
template StrategyChoice choose_strategy(const graph::Csr<float>&, graph::vertex_id, std::uint64_t);

}  // namespace sssp
