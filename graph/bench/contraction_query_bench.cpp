// contraction_query_bench: the host's part of a contracted solve, alone.
//
//   contraction_query_bench [--sources 20] [--runs 5] [--threads 1,2] [--seed 1] GRAPH...
//
// For each graph (integer weights): its chain contraction (graph/contraction.hpp)
// once, then for --sources random sources: ContractionQuery::start (the
// Dijkstra over the source's piece), a Dijkstra over the core (not timed),
// and ContractionQuery::expand, which maps the core's distances to every
// vertex, with distances only and with predecessors too; --runs timed calls
// each, median per source, mean over the sources, ms. Every contracted
// solve's host part is these (the GPU's and the CPU's), so a change to them
// shows here without a GPU.
#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "graph/contraction.hpp"
#include "graph/load.hpp"
#include "graph/metrics.hpp"
#include "graph/reference.hpp"
#include "graph/timing.hpp"

namespace po = boost::program_options;

namespace {

std::vector<int> parse_threads(const std::string& list) {
  std::vector<int> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoi(item));
  if (out.empty()) throw std::invalid_argument("contraction_query_bench: --threads takes a comma list, e.g. 1,2");
  return out;
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (const double x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

void bench(const std::string& path, const graph::IntCsr& g, int sources, int runs, const std::vector<int>& threads,
           std::uint64_t seed) {
  double contract_ms = 0;
  graph::ChainContraction c;
  contract_ms = graph::wall_ms([&] { c = graph::contract_chains(g); });
  std::cout << "\n## " << path << ": " << g.num_vertices << " vertices, core " << c.core_vertices()
            << " vertices; contraction " << std::fixed << std::setprecision(2) << contract_ms << " ms\n\n"
            << "| threads | start ms | expand ms (distances) | expand ms (with predecessors) |\n"
            << "|---:|---:|---:|---:|\n";
  graph::ContractionQuery q(c, g);
  graph::IntCsr core = c.core;
  std::vector<std::uint64_t> dist(g.num_vertices);
  std::vector<graph::vertex_id> pred(g.num_vertices);
  for (const int t : threads) {
    std::mt19937_64 rng(seed);
    std::vector<double> start_ms, dist_ms, pred_ms;
    for (int s = 0; s < sources; ++s) {
      const auto source = static_cast<graph::vertex_id>(rng() % g.num_vertices);
      start_ms.push_back(graph::wall_ms([&] { q.start(source); }));
      if (!q.fits()) continue;  // solved uncontracted by the solvers; nothing to expand
      q.apply_entry(core);
      std::vector<graph::vertex_id> core_pred;
      const auto core_dist = graph::dijkstra(core, q.core_source(), &core_pred);
      std::vector<double> a, b;
      for (int r = 0; r < runs; ++r) {
        a.push_back(graph::wall_ms([&] { q.expand(core_dist.data(), nullptr, dist.data(), nullptr, t); }));
        b.push_back(
            graph::wall_ms([&] { q.expand(core_dist.data(), core_pred.data(), dist.data(), pred.data(), t); }));
      }
      dist_ms.push_back(graph::median(a));
      pred_ms.push_back(graph::median(b));
    }
    std::cout << "| " << t << " | " << std::setprecision(4) << mean(start_ms) << " | " << mean(dist_ms) << " | "
              << mean(pred_ms) << " |\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  int sources = 20, runs = 5;
  std::uint64_t seed = 1;
  std::string threads_list = "1,2";
  std::vector<std::string> graphs;
  po::options_description opts("contraction_query_bench options");
  opts.add_options()("help,h", "show this help")("sources", po::value(&sources)->default_value(20),
                                                  "random sources per graph")(
      "runs", po::value(&runs)->default_value(5), "timed expand calls per source (median)")(
      "threads", po::value(&threads_list)->default_value("1,2"), "expand's OpenMP threads, a comma list")(
      "seed", po::value(&seed)->default_value(1), "the sources' seed")("graph", po::value(&graphs), "graph files");
  po::positional_options_description positional;
  positional.add("graph", -1);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(opts).positional(positional).run(), vm);
    po::notify(vm);
    if (vm.count("help") || graphs.empty()) {
      std::cout << "usage: contraction_query_bench [options] GRAPH...\n" << opts;
      return vm.count("help") ? 0 : 2;
    }
    if (sources < 1 || runs < 1) throw std::invalid_argument("contraction_query_bench: --sources and --runs take >= 1");
    const std::vector<int> threads = parse_threads(threads_list);
    for (const std::string& path : graphs) {
      const graph::AnyCsr loaded = graph::load_graph(path, graph::LoadOptions{});
      const auto* g = std::get_if<graph::IntCsr>(&loaded);
      if (!g) throw std::invalid_argument("contraction_query_bench: " + path + " has float weights (integers only)");
      bench(path, *g, sources, runs, threads, seed);
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
