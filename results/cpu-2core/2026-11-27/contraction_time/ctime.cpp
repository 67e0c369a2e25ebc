#include <cstdio>
#include <chrono>
#include <vector>
#include <algorithm>
#include "graph/load.hpp"
#include "graph/contraction.hpp"
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    graph::LoadOptions lo; lo.weights = graph::WeightRule::parse("file", 1); lo.progress = false;
    auto any = graph::load_graph(argv[i], lo);
    auto& g = std::get<graph::IntCsr>(any);
    std::vector<double> ms;
    std::uint64_t check = 0;
    for (int r = 0; r < 15; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      auto c = graph::contract_chains(g);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      check = c.core.num_arcs() * 1000003ull + c.shortcuts + c.pieces;
      for (auto a : c.anchors) check = check * 31 + a.core + a.offset;
      for (auto v : c.core.targets) check = check * 7 + v;
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%s: contract median %.2f ms (min %.2f), check %016llx\n", argv[i], ms[7], ms[0], (unsigned long long)check);
  }
}
