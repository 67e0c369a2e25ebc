// --strategy auto resolved for one run (auto_choice.hpp).
#include "app/auto_choice.hpp"

#include "app/sources.hpp"
#include "graph/timing.hpp"
#include "sssp/auto_strategy.hpp"

namespace app {

namespace {

Algorithm from_gpu_strategy(sssp::Strategy s) {
  switch (s) {
    case sssp::Strategy::NearFar: return Algorithm::NearFar;
    case sssp::Strategy::BucketSort: return Algorithm::BucketSort;
    case sssp::Strategy::BucketMultisplit: return Algorithm::BucketMultisplit;
    case sssp::Strategy::BellmanFord: return Algorithm::BellmanFord;
  }
  return Algorithm::NearFar;
}

}  // namespace

template <class Weight>
AutoResolution resolve_auto_strategy(const graph::Csr<Weight>& g, graph::vertex_id source,
                                     std::uint32_t id_base, DeviceKind device, bool delta_sweep,
                                     std::uint64_t resident_max_vertices) {
  AutoResolution r;
  r.info.source = to_user_id(source, id_base);
  if (device == DeviceKind::Cpu) {
    r.algorithm = Algorithm::DeltaStepping;
    r.info.chosen = to_string(r.algorithm);
    r.info.reason = "cpu device: auto chooses among GPU strategies only; the CPU runs its default";
    return r;
  }
  sssp::StrategyChoice choice;
  r.info.measure_ms = graph::wall_ms([&] { choice = sssp::choose_strategy(g, source, resident_max_vertices); });
  r.info.shape = choice.shape;
  r.info.reason = choice.reason;
  r.algorithm = from_gpu_strategy(choice.strategy);
  if (delta_sweep && !uses_delta(r.algorithm)) {
    r.algorithm = Algorithm::NearFar;
    r.info.reason += "; bellman-ford ignores delta, so near-far for --delta-sweep";
  }
  r.info.chosen = to_string(r.algorithm);
  return r;
}

template AutoResolution resolve_auto_strategy(const graph::Csr<std::uint32_t>&, graph::vertex_id, std::uint32_t,
                                              DeviceKind, bool, std::uint64_t);
template AutoResolution resolve_auto_strategy(const graph::Csr<float>&, graph::vertex_id, std::uint32_t,
                                              DeviceKind, bool, std::uint64_t);

}  // namespace app
