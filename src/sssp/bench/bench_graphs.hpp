// The graphs the device-loop benchmarks (regime_bench,
// concurrent_sources_bench) name on their command lines: FILE (.mtx, .gr,
// .el; its own weights, random:1:1000 where it has none), gen:SPEC
// (graph::GeneratorSpec, weights random:1:1000), or core:FILE, the core of
// FILE's chain contraction (graph/contraction.hpp; integer weights), which
// is what a contracted solve runs on; all seeded with `seed`.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "graph/contraction.hpp"
#include "graph/error.hpp"
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
    const bool core = spec.rfind("core:", 0) == 0;
    const std::string file = core ? spec.substr(5) : spec;
    graph::LoadOptions lo;
    lo.weights = graph::WeightRule::parse("file", seed);
    lo.progress = false;
    const auto g = graph::load_graph(file, lo);
    const std::string name = file.substr(file.find_last_of('/') + 1);
    if (!core) {
      std::visit([&](const auto& csr) { f(name, csr); }, g);
      continue;
    }
    const auto* ints = std::get_if<graph::IntCsr>(&g);
    if (!ints)
      throw graph::InputError(graph::InputErrorKind::BadArgument, file, 0,
                              "core: needs integer weights (the contraction is exact only there)");
    f(name + " core", graph::contract_chains(*ints).core);
  }
}

}  // namespace sssp_bench
