// --batch: whether the sources of a run are solved together or one after
// another, decided once per run from the options, the device and the
// strategies, with the reason the report prints. The batched solves
// themselves run in app.cpp (GpuSolver::solve_batch, graph::dijkstra_batch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/options.hpp"

namespace app {

// What can be batched: near-far and bellman-ford on the GPU (solve_batch),
// phast (HierarchyGpuSolver::solve_batch);
// on the cpu device, dijkstra and delta-stepping, both as the batched
// Dijkstra (one source per thread). On the gpu device the CPU strategies
// are the per-source baseline and stay sequential.
bool batchable(Algorithm a, DeviceKind device);

// Refuses, before the graph is loaded, an explicit --batch B > 1 with a
// listed strategy (or --strategy all's) that cannot be batched on `device`:
// UsageError naming it. Auto is checked later (it picks a batchable one).
void check_batch_request(const AppOptions& options, DeviceKind device, const std::vector<Algorithm>& algorithms);

struct BatchPlan {
  // Algorithms (auto resolved) whose sources are solved in batches; the
  // others run one source after another.
  std::vector<Algorithm> batched;
  std::uint32_t size = 0;  // sources per call: --batch B, or all of them (auto)
  std::string reason;      // the report's line: what is batched, or why nothing is
  bool any() const { return !batched.empty(); }
  bool has(Algorithm a) const;
};

// The plan for `sources` sources. Nothing is batched with one source,
// --batch 1, --predecessors (batched solves compute none), --path-to (it
// reads a predecessor tree) or --delta-sweep (a sweep times each delta per
// source), nor several CPU strategies on the cpu device unless --batch was
// given (they would all run as the one batched Dijkstra: no comparison left).
BatchPlan plan_batches(const AppOptions& options, DeviceKind device, const std::vector<Algorithm>& algorithms,
                       std::size_t sources);

// "dijkstra, one source per thread, 16 threads": how the CPU batch runs.
std::string cpu_batch_description(int threads);

}  // namespace app
