#include "app/batch.hpp"

#include <algorithm>

namespace app {

namespace {

std::string join_names(const std::vector<Algorithm>& algorithms) {
  std::string names;
  for (const Algorithm a : algorithms) names += (names.empty() ? "" : ", ") + std::string(to_string(a));
  return names;
}

}  // namespace

bool batchable(Algorithm a, DeviceKind device) {
  if (device == DeviceKind::Gpu) return a == Algorithm::NearFar || a == Algorithm::BellmanFord || a == Algorithm::Phast;
  return a == Algorithm::Dijkstra || a == Algorithm::DeltaStepping;
}

void check_batch_request(const AppOptions& options, DeviceKind device, const std::vector<Algorithm>& algorithms) {
  if (!options.batch_given || options.batch <= 1) return;
  for (const Algorithm a : algorithms) {
    if (a == Algorithm::Auto || batchable(a, device)) continue;
    // On the GPU the CPU strategies are the per-source baseline: not batched, not refused.
    if (device == DeviceKind::Gpu && !runs_on_gpu(a)) continue;
    throw UsageError("--batch " + std::to_string(options.batch) + ": " + to_string(a) +
                     " cannot be batched (batched: near-far, bellman-ford and phast on the GPU, dijkstra and "
                     "delta-stepping on the CPU); use --batch auto or --batch 1");
  }
}

bool BatchPlan::has(Algorithm a) const { return std::find(batched.begin(), batched.end(), a) != batched.end(); }

BatchPlan plan_batches(const AppOptions& options, DeviceKind device, const std::vector<Algorithm>& algorithms,
                       std::size_t sources) {
  BatchPlan plan;
  const auto sequential = [&](const std::string& why) {
    plan.reason = "one source after another (" + why + ")";
    return plan;
  };
  if (sources <= 1) return sequential("one source");
  if (options.batch_given && options.batch == 1) return sequential("--batch 1");
  if (options.predecessors) return sequential("--predecessors: batched solves compute no predecessors");
  if (options.path_to) return sequential("--path-to reads a predecessor tree");
  if (options.delta_sweep) return sequential("--delta-sweep times each delta per source");
  // Both CPU strategies run as the same batched Dijkstra, so batching them
  // by default would drop the comparison the user asked for.
  const auto cpu_strategies = std::count_if(algorithms.begin(), algorithms.end(), [](Algorithm a) { return !runs_on_gpu(a); });
  if (device == DeviceKind::Cpu && cpu_strategies > 1 && !options.batch_given)
    return sequential("several CPU strategies are compared; --batch auto runs them as one batched dijkstra");
  std::vector<Algorithm> alone;
  for (const Algorithm a : algorithms) (batchable(a, device) ? plan.batched : alone).push_back(a);
  if (!plan.any()) return sequential(join_names(alone) + " cannot be batched");
  plan.size = options.batch == 0 ? static_cast<std::uint32_t>(sources)
                                 : std::min<std::uint32_t>(options.batch, static_cast<std::uint32_t>(sources));
  const std::string calls = plan.size >= sources ? "in one call" : std::to_string(plan.size) + " per call";
  // On the CPU both strategies run as the batched Dijkstra: say so.
  const std::string who = device == DeviceKind::Gpu ? join_names(plan.batched)
                                                    : "dijkstra, one source per thread (for " + join_names(plan.batched) + "),";
  plan.reason = (options.batch == 0 ? "auto: " : "") + who + " solve" +
                (device == DeviceKind::Gpu && plan.batched.size() > 1 ? " " : "s ") + "the " + std::to_string(sources) +
                " sources " + calls;
  if (device == DeviceKind::Gpu) plan.reason += " (the GPU solver splits a call by free memory)";
  if (!alone.empty()) plan.reason += "; " + join_names(alone) + " one source after another";
  return plan;
}

std::string cpu_batch_description(int threads) {
  return "dijkstra, one source per thread, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

}  // namespace app
