// The graphs the device-loop benchmarks (regime_bench,
// concurrent_sources_bench) name on their command lines: FILE (.mtx, .gr,
// .el; its own weights, random:1:1000 where it has none) or gen:SPEC
// (graph::GeneratorSpec, weights random:1:1000), all seeded with `seed`.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "graph/generators.hpp"
#include "graph/load.hpp"

namespace sssp_bench {

// Loads or generates each spec in order and calls f(name, csr) with the
// graph's CSR (integer or float weights) and its name in the tables.
template <class F>
void for_each_bench_graph(const std::vector<std::string>& specs, std::uint64_t seed, F&& f) {
  for (const std::string& spec : specs) {
    if (spec.rfind("gen:", 0) == 0) {
      const auto g = graph::generate(graph::GeneratorSpec::parse(spec.substr(4)),
                                     graph::WeightRule::parse("random:1:1000", seed), seed);
      f(spec.substr(4), g);
      continue;
    }
    graph::LoadOptions lo;
    lo.weights = graph::WeightRule::parse("file", seed);
    lo.progress = false;
    const auto g = graph::load_graph(spec, lo);
    const std::string name = spec.substr(spec.find_last_of('/') + 1);
    std::visit([&](const auto& csr) { f(name, csr); }, g);
  }
}

}  // namespace sssp_bench
