// The engine's reliability checks (engine.cuh): a device loop that stops
// making progress must end with a clear error, in every regime and with every
// load balancer, instead of spinning. A deliberately broken policy (its
// frontier runs empty, and it arms a split that yields nothing, forever)
// stands in for a bug in a real one.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpu_test_support.cuh"
#include "graph/generators.hpp"
#include "sssp/single_solve.cuh"

namespace {

using namespace sssp::detail;
using TestCodec = PackedCodec<std::uint32_t>;

struct EndlessPolicy {
  using Codec = TestCodec;
  using Weight = std::uint32_t;
  struct State {
    LoopState loop;
  };
  template <class Out>
  using Sink = typename BellmanFordPolicy<Codec>::template Sink<Out>;
  static constexpr bool kHasSplits = true;
  static constexpr bool kClusterLoop = true;
  static constexpr bool kPauseOnDevice = false;

  template <class Out>
  __device__ static Sink<Out> sink(const EngineContext<Weight>&, const State&, State*, const Out& out) {
    return Sink<Out>{out};
  }
  __device__ static void frontier_empty(State* st) {
    st->loop.split_stamp = next_stamp(st->loop);
    st->loop.split_active = 1;
  }
  __host__ __device__ static unsigned long long phase_count(const State*) { return 0; }
  __device__ static std::uint32_t split_items(const State&) { return 0; }
  template <class NearOut>
  __device__ static void split(const EngineContext<Weight>&, const State&, State*, std::uint32_t, std::uint32_t,
                               const NearOut&) {}
};

// Runs EndlessPolicy on a small grid; returns the error message (empty when
// the loop ended without one, which it must not).
std::string run_endless(const sssp::SolverOptions& options) {
  const graph::IntCsr g = graph::generate(graph::GeneratorSpec::parse("grid:16:16"),
                                          graph::WeightRule::parse("random:1:10", 7), 7);
  DeviceGraph<std::uint32_t> impl(g, options);
  Workspace<std::uint32_t>& ws = impl.ws;
  ws.track_pred = false;
  init_labels<TestCodec><<<4, 256, 0, ws.stream>>>(ws.labels, ws.num_vertices, 0);
  if (cudaMemsetAsync(ws.stamps_a, 0, ws.num_vertices * 4, ws.stream) != cudaSuccess ||
      cudaMemsetAsync(ws.stamps_b, 0, ws.num_vertices * 4, ws.stream) != cudaSuccess ||
      cudaMemsetAsync(ws.balance.bins.counters, 0, sizeof(BinCounters), ws.stream) != cudaSuccess)
    return "setup failed";
  EndlessPolicy::State init{};
  init.loop = initial_loop(ws);
  try {
    with_balance(impl.plan.load_balance, [&](auto balance) {
      return run_engine<EndlessPolicy, decltype(balance)>(ws, 0, init, [](const EndlessPolicy::State&) {});
    });
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(EngineWatchdog, StopsALoopWithoutProgressInEveryRegimeAndBalancer) {
  SKIP_IF_NO_GPU();
  struct Regime {
    const char* name;
    bool single_block_loop, persistent_grid;
  };
  for (const Regime regime : {Regime{"narrow loop", true, true}, Regime{"persistent grid", false, true},
                              Regime{"one launch per step", false, false}}) {
    for (const auto balance :
         {sssp::LoadBalance::ThreeStage, sssp::LoadBalance::Binned, sssp::LoadBalance::MergePath}) {
      sssp::SolverOptions options;
      options.overrides.single_block_loop = regime.single_block_loop;
      options.overrides.persistent_grid = regime.persistent_grid;
      options.load_balance = balance;
      const std::string error = run_endless(options);
      EXPECT_NE(error.find("watchdog"), std::string::npos)
          << regime.name << ", " << sssp::to_string(balance) << ": got \"" << error << "\"";
    }
  }
}

}  // namespace
