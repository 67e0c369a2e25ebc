// Every GPU strategy on the shared real graphs (../shared/datasets, or
// $SSSP_DATASETS): against the published .dist files where there is one
// (computed by an independent Dijkstra), else against our CPU Dijkstra;
// predecessor trees checked; eight sources at once (solve_batch); and, for
// integer weights, through a chain contraction (ContractedGpuSolver).
// Skips, visibly, when a file is absent.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "gpu_test_support.cuh"
#include "graph/distance_io.hpp"
#include "graph/load.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "graph/contraction.hpp"
#include "sssp/contracted_solver.hpp"
#include "sssp/solver.hpp"
#include "sssp/tree_check.hpp"

namespace {

struct Dataset {
  const char* graph;
  const char* dist;     // nullptr: compare with the CPU Dijkstra
  const char* weights;  // WeightRule spec
};

graph::AnyCsr load(const Dataset& d) {
  graph::LoadOptions opts;
  opts.weights = graph::WeightRule::parse(d.weights, 1);
  opts.progress = false;
  return graph::load_graph((test_support::datasets_dir() / d.graph).string(), opts);
}

// Vertices whose distance differs from `want` (-1: unreachable), the first
// five reported.
template <class Weight>
std::size_t count_wrong(const std::vector<double>& want, const std::vector<graph::distance_t<Weight>>& got,
                        const std::string& what) {
  std::size_t bad = 0;
  for (std::size_t v = 0; v < want.size(); ++v) {
    const bool unreached = got[v] == graph::infinite_distance<Weight>();
    bool ok;
    if (want[v] < 0) {
      ok = unreached;
    } else if (unreached) {
      ok = false;
    } else if constexpr (std::is_floating_point_v<Weight>) {
      ok = std::fabs(static_cast<double>(got[v]) - want[v]) <=
           graph::kFloatDistanceTolerance * std::max(1.0, want[v]);  // as graph::distances_match
    } else {
      ok = static_cast<double>(got[v]) == want[v];
    }
    if (!ok && bad++ < 5)
      ADD_FAILURE() << what << ": vertex " << v + 1 << " (file id) expected " << want[v] << " got "
                    << (unreached ? -1.0 : static_cast<double>(got[v]));
  }
  return bad;
}

template <class Weight>
std::vector<double> dijkstra_distances(const graph::Csr<Weight>& g, graph::vertex_id source) {
  std::vector<double> want;
  for (const auto x : graph::dijkstra(g, source))
    want.push_back(x == graph::infinite_distance<Weight>() ? -1.0 : static_cast<double>(x));
  return want;
}

// Many sources in one solve_batch: vertex 0 (checked against `want`), six
// more spread over the ids, vertex 0 again; road sources stay in their
// blocks, the others outgrow them and are solved together.
template <class Weight>
void check_batch(const Dataset& d, const graph::Csr<Weight>& g, const std::vector<double>& want) {
  std::vector<graph::vertex_id> sources{0};
  for (std::uint32_t i = 1; i <= 6; ++i) sources.push_back(static_cast<graph::vertex_id>(g.num_vertices * i / 7ull));
  sources.push_back(0);
  std::vector<std::vector<double>> wants;
  for (const graph::vertex_id s : sources) wants.push_back(s == 0 ? want : dijkstra_distances(g, s));
  sssp::GpuSolver<Weight> solver(g, sssp::SolverOptions{});
  for (const auto strategy : {sssp::Strategy::NearFar, sssp::Strategy::BellmanFord}) {
    const auto r = solver.solve_batch(sources, strategy, graph::auto_delta(g));
    ASSERT_EQ(r.per_source.size(), sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const std::string what = std::string(d.graph) + " batched " + sssp::to_string(strategy) + ", source " +
                               std::to_string(sources[i] + 1) + " (file id)";
      EXPECT_EQ(count_wrong<Weight>(wants[i], r.per_source[i].distances, what), 0u) << what;
    }
  }
}

template <class Weight>
void check_dataset(const Dataset& d, const graph::Csr<Weight>& g) {
  // Reference: the .dist file (source = file id 1 = vertex 0) or Dijkstra.
  std::vector<double> want;
  if (d.dist != nullptr) {
    want = graph::read_distances((test_support::datasets_dir() / d.dist).string(), 1);
  } else {
    want = dijkstra_distances(g, 0u);
  }
  ASSERT_EQ(want.size(), g.num_vertices) << d.graph;

  for (const bool with_pred : {false, true}) {
    sssp::SolverOptions opts;
    opts.delta = graph::auto_delta(g);
    opts.predecessors = with_pred;
    sssp::GpuSolver<Weight> solver(g, opts);
    for (const auto strategy : sssp::all_strategies()) {
      const std::string what = std::string(d.graph) + " " + sssp::to_string(strategy) + (with_pred ? " +pred" : "");
      const auto got = solver.solve(0, strategy);
      EXPECT_EQ(count_wrong<Weight>(want, got.distances, what), 0u) << what;
      if (with_pred)
        for (const auto& problem : sssp::check_shortest_path_tree(g, 0u, got.distances, got.predecessors))
          ADD_FAILURE() << what << ": " << problem;
    }
  }
  check_batch(d, g, want);
  if constexpr (std::is_same_v<Weight, std::uint32_t>) {
    // Through a chain contraction: the same answers, from source 0.
    const graph::ChainContraction c = graph::contract_chains(g);
    for (const bool with_pred : {false, true}) {
      sssp::SolverOptions opts;
      opts.predecessors = with_pred;
      sssp::ContractedGpuSolver solver(g, c, opts);
      for (const auto strategy : sssp::all_strategies()) {
        const std::string what =
            std::string(d.graph) + " contracted " + sssp::to_string(strategy) + (with_pred ? " +pred" : "");
        const auto got = solver.solve(0, strategy, graph::auto_delta(c.core));
        EXPECT_EQ(count_wrong<Weight>(want, got.distances, what), 0u) << what;
        if (with_pred)
          for (const auto& problem : sssp::check_shortest_path_tree(g, 0u, got.distances, got.predecessors))
            ADD_FAILURE() << what << ": " << problem;
      }
    }
  }
}

class SsspDatasets : public ::testing::TestWithParam<Dataset> {};

TEST_P(SsspDatasets, MatchesReference) {
  SKIP_IF_NO_GPU();
  const Dataset d = GetParam();
  SKIP_IF_NO_DATASET(d.graph);
  if (d.dist != nullptr) SKIP_IF_NO_DATASET(d.dist);
  const graph::AnyCsr g = load(d);
  std::visit([&](const auto& csr) { check_dataset(d, csr); }, g);
}

INSTANTIATE_TEST_SUITE_P(
    Shared, SsspDatasets,
    ::testing::Values(Dataset{"road/DE.gr", "road/DE.dist", "file"},  // zero-weight arcs
                      Dataset{"road/rome99.gr", "road/rome99.dist", "file"},  // duplicate arcs
                      Dataset{"road/andorra_osm.mtx", "road/andorra_osm.dist", "file"},  // unreachable parts
                      Dataset{"road/amsterdam-roads.mtx", "road/amsterdam-roads.dist", "file"},
                      Dataset{"road/luxembourg_osm.mtx", "road/luxembourg_osm.unit.dist", "unit"},
                      Dataset{"road/chain.gr", nullptr, "file"},
                      Dataset{"small/knuth_miles.mtx", "small/knuth_miles.dist", "file"},
                      Dataset{"small/DRT_osm.traveltime_ms.mtx", nullptr, "file"},
                      Dataset{"social/cond-mat-2005.mtx", nullptr, "random:1:1000"},  // its file weights include inf
                      Dataset{"social/email-Enron.mtx", nullptr, "random:1:1000"},
                      Dataset{"social/pgp-strong-2009.mtx", nullptr, "random:0:1000"},
                      Dataset{"mesh/copter2.mtx", nullptr, "random:1:1000"}),
    [](const ::testing::TestParamInfo<Dataset>& info) {
      std::string name = info.param.graph;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

}  // namespace
