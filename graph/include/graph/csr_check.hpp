// The invariants every solver relies on, checked on a CSR that did not come
// from build_csr (a binary cache, a caller's arrays).
#pragma once

#include <cstdint>
#include <string>

#include "graph/csr.hpp"

namespace graph {

// An upper bound on any computed float path length (rounding included) in a
// graph of `vertices` whose heaviest arc weighs max_weight and whose weights
// sum to weight_sum. A shortest path is simple: at most n - 1 arcs, each used
// once. Its first arc is added to 0 exactly; adding a further non-negative
// float w to a running sum s with rounding to nearest errs by at most 2w (a
// w below half an ulp of s is absorbed, rounding down; otherwise the error,
// half an ulp of s + w, is at most 2w). So a computed length is at most
// max_w + 3 * min(sum of all weights, (n - 2) * max_w). Where that exceeds
// FLT_MAX a reachable vertex could get an infinite ("unreachable") distance:
// such graphs are refused.
double float_path_bound(double max_weight, double weight_sum, std::uint64_t vertices);

// The first broken invariant of g, in words, or "" when it holds them all:
// offsets start at 0, never decrease and end at the arc count; targets are
// vertices; each row is sorted by target with no duplicate and no self-loop;
// float weights are finite and non-negative with float_path_bound within
// float range; with `symmetric`, every arc u -> v has v -> u of the same
// weight (a keyed hash sum over the arcs: see csr_check.cpp). Parallel
// (OpenMP), linear in the arcs.
template <class Weight>
std::string csr_problem(const Csr<Weight>& g, bool symmetric);

extern template std::string csr_problem(const Csr<std::uint32_t>&, bool);
extern template std::string csr_problem(const Csr<float>&, bool);

}  // namespace graph
