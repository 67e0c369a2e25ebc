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
// them. They come from results/nvidia-h200/2026-11-24/sssp.json and
// sssp_large.json (bench_sssp.sh full mode at 6dbf163; per graph the median
// ms of each strategy from the bench's seeded source), set against what
// measure_shape reports for the same graphs and sources at the default
// budgets ("hops" = hop_estimate, "cv" = degree_cv):
//
//   bellman-ford won (its ms / near-far's):
//     R-MAT Graph500 2^20, 2^21, 2^23 (0.83, 0.89, 0.96; 2^22 lost at 1.09,
//       2^24 a tie): hops 3-4, cv 8.3-13.2;
//     social: email-Enron, pgp-strong-2009, cond-mat-2005, as-22july06
//       (0.66-0.74): hops 3-6, cv 1.46-7.81;
//   near-far won:
//     uniform random 2^20-2^23 (bellman-ford at 1.51-2.69): hops 4-5, cv 0.18;
//     grids 2048^2, 4096^2 (1.45, 4.22): hops ~1400, ~2800, cv 0.02;
//     roads DE, amsterdam, luxembourg (1.63-2.50): hops 200-650, cv 0.20-0.40;
//     paper R-MAT (a, b, c, d = 0.5, 0.1, 0.1, 0.3) 2^21, 2^22 (bellman-ford
//       1.08, 1.12; 2^20 0.97): hops 4-5, cv 1.08-1.17.
//
// So: low diameter is at most kMaxHopsForBellmanFord (the winners of
// bellman-ford reach 6, the high-diameter graphs start at 200), and skewed
// is a cv of at least kMinDegreeCvForBellmanFord (between the paper's R-MAT,
// 1.17, and cond-mat, 1.46; the thinnest margin of the rule).
//
// What the rule gets wrong today, for lack of a cheap statistic that tells
// them apart from the graphs above: bellman-ford also won on the 1024^2
// grid (0.84; hops ~700), rome99 (0.92; 45 exact), andorra_osm (0.55; ~1700)
// and copter2 (0.74; hops ~20, cv 0.33): small or mid-sized graphs whose
// every round is narrow, where fewer rounds beat less work.
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
