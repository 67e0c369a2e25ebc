// sssp --strategy phast on the GPU, end to end in-process: on a road-like
// graph it reports the contraction and the hierarchy, validates distances
// and trees against Dijkstra beside near-far (one source after another) and
// writes the hierarchy into the JSON record; it batches many sources; a
// float-weighted graph and --contract off are refused with one line; a
// grid, with nothing to contract, still runs.
// Skips visibly without a GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app_test_support.hpp"
#include "gpu_test_support.cuh"
#include "graph/matrix_market_writer.hpp"
#include "road_like_graph.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

TEST(AppPhastGpu, ValidatesAndReportsTheHierarchy) {
  SKIP_IF_NO_GPU();
  const fs::path dir = test_support::scratch_dir("app_phast_gpu");
  test_support::RoadSpec spec;
  spec.junctions = 300;
  spec.roads = 700;
  spec.trees = 150;
  const graph::IntCsr g = test_support::road_like(spec, 4);
  const std::string mtx = (dir / "roads.mtx").string(), json = (dir / "roads.json").string();
  graph::write_matrix_market(mtx, g);
  auto r = test_support::run_sssp({"--graph", mtx, "--strategy", "phast,near-far", "--random-sources", "6",
                                   "--batch", "1", "--validate", "--predecessors", "--runs", "2", "--json", json});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(test_support::contains(r.out, "hierarchy     over the core for phast:")) << r.out;
  EXPECT_TRUE(test_support::contains(r.out, "validation    passed: 12 result(s)")) << r.out;
  EXPECT_TRUE(test_support::contains(r.out, "predecessor trees valid")) << r.out;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_TRUE(j["contraction"]["used"].get<bool>());
  EXPECT_GT(j["contraction"]["hierarchy"]["levels"].get<std::uint64_t>(), 0u);
  // Many sources in one call by default; not beside a batched near-far,
  // which solves the whole graph.
  r = test_support::run_sssp({"--graph", mtx, "--strategy", "phast", "--random-sources", "7", "--validate", "--json", json});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(test_support::contains(r.out, "batch         auto: phast solves the 7 sources in one call")) << r.out;
  EXPECT_TRUE(test_support::contains(r.out, "validation    passed: 7 result(s)")) << r.out;
  r = test_support::run_sssp({"--graph", mtx, "--strategy", "phast,near-far", "--random-sources", "3"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(test_support::contains(r.err, "--strategy phast solves the contraction's core")) << r.err;
  // Needs the core, and integer weights.
  r = test_support::run_sssp({"--graph", mtx, "--strategy", "phast", "--contract", "off"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(test_support::contains(r.err, "--strategy phast and phast-cpu work on the chain contraction's core"))
      << r.err;
  const std::string real = (dir / "real.mtx").string();
  std::ofstream(real) << "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.5\n2 3 1.5\n";
  r = test_support::run_sssp({"--graph", real, "--strategy", "phast"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(test_support::contains(r.err, "--strategy phast and phast-cpu need integer weights")) << r.err;
  r = test_support::run_sssp({"--generate", "grid:10:10", "--weights", "random:1:9", "--strategy", "phast",
                              "--random-sources", "2", "--batch", "1", "--validate"});
  EXPECT_EQ(r.code, 0) << r.err;  // a grid contracts to nearly nothing, and phast still runs
  fs::remove_all(dir);
}
