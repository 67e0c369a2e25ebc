// Wall-clock timing of host code, shared by the CPU benchmarks: one call, or
// one warm-up call and N timed ones (the GPU paths time with CUDA events
// inside the solver instead). Summaries: graph/metrics.hpp summarize_times.
#pragma once

#include <chrono>
#include <vector>

namespace graph {

// Milliseconds that one call of f() takes.
template <class F>
double wall_ms(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// One untimed warm-up call, then `runs` timed calls; their times in ms.
template <class F>
std::vector<double> time_runs(int runs, F&& f) {
  f();
  std::vector<double> times_ms;
  for (int r = 0; r < runs; ++r) times_ms.push_back(wall_ms(f));
  return times_ms;
}

}  // namespace graph
