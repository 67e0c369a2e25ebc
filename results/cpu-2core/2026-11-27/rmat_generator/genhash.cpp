#include <cstdio>
#include <cstdint>
#include <chrono>
#include "graph/generators.hpp"
int main(int argc, char** argv) {
  auto spec = graph::GeneratorSpec::parse(argv[1]);
  auto t0 = std::chrono::steady_clock::now();
  auto g = graph::generate(spec, graph::WeightRule::parse("random:1:1000", 1), 1);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::uint64_t x = 1469598103934665603ull;
  auto mix = [&](std::uint64_t v) { x = (x ^ v) * 1099511628211ull; };
  for (auto o : g.offsets) mix(o);
  for (auto t : g.targets) mix(t);
  for (auto w : g.weights) mix(w);
  std::printf("%s n=%u arcs=%zu hash=%016llx %.3f s\n", argv[1], g.num_vertices, g.targets.size(), (unsigned long long)x, s);
}
