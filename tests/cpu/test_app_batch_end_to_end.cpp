// sssp with several sources on the CPU, end to end in-process: the distance
// table and the sources x targets file (exact contents on a tiny graph), the
// same files whether the sources are batched or not, the batch's report and
// JSON, and refusals that leave no file behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app_test_support.hpp"
#include "graph/generators.hpp"
#include "graph/reference.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

using test_support::contains;

using test_support::read_text;

// 1 -> 2 (7), 2 -> 3 (1), 1 -> 3 (10), 3 -> 4 (2), 5 -> 1 (1): ids 1-based;
// from 1 vertex 5 is unreachable, from 3 only 3 and 4 are reached.
const char* kSmallMtx =
    "%%MatrixMarket matrix coordinate integer general\n"
    "5 5 5\n"
    "1 2 7\n"
    "2 3 1\n"
    "1 3 10\n"
    "3 4 2\n"
    "5 1 1\n";

class AppBatchEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_support::scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    mtx_ = path("small.mtx");
    std::ofstream(mtx_) << kSmallMtx;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  test_support::SsspRun run(std::vector<std::string> args) const {
    std::vector<std::string> all{"--graph", mtx_, "--device", "cpu"};
    all.insert(all.end(), args.begin(), args.end());
    return test_support::run_sssp(all);
  }
  fs::path dir_;
  std::string mtx_;
};

TEST_F(AppBatchEndToEnd, SeveralSourcesWriteOneColumnEach) {
  const std::string out = path("table.dist");
  const auto r = run({"--source", "1,5,3", "--validate", "--output", out});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_text(out),
            "# id d(1) d(5) d(3)\n"
            "1 0 1 -1\n"
            "2 7 8 -1\n"
            "3 8 9 0\n"
            "4 10 11 2\n"
            "5 -1 0 -1\n");
  EXPECT_TRUE(contains(test_support::unwrapped(r.out),
                       "batch         auto: dijkstra, one source per thread (for delta-stepping), solves the 3 "
                              "sources in one call"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "passed (3)")) << r.out;
  EXPECT_TRUE(contains(r.out, "distances     " + out + " (3 sources, from dijkstra)")) << r.out;
}

TEST_F(AppBatchEndToEnd, BatchedAndSequentialRunsWriteTheSameFile) {
  const std::string batched = path("batched.dist"), sequential = path("sequential.dist"), pairs = path("two.dist");
  ASSERT_EQ(run({"--source", "1,5,3,1", "--output", batched}).code, 0);
  const auto r = run({"--source", "1,5,3,1", "--batch", "1", "--output", sequential});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "batch         one source after another (--batch 1)")) << r.out;
  EXPECT_EQ(read_text(batched), read_text(sequential));
  ASSERT_EQ(run({"--source", "1,5,3,1", "--batch", "3", "--strategy", "dijkstra", "--output", pairs}).code, 0);
  EXPECT_EQ(read_text(batched), read_text(pairs));
  EXPECT_EQ(read_text(batched).substr(0, 29), "# id d(1) d(5) d(3) d(1)\n1 0 ");  // a repeated source keeps its column
}

TEST_F(AppBatchEndToEnd, OneSourceKeepsTheSingleSourceFormat) {
  const std::string out = path("one.dist");
  ASSERT_EQ(run({"--source", "1", "--output", out}).code, 0);
  EXPECT_EQ(read_text(out), "1 0\n2 7\n3 8\n4 10\n5 -1\n");
}

TEST_F(AppBatchEndToEnd, TargetsWriteSourcesByTargets) {
  const std::string targets = path("targets.txt"), out = path("pairs.dist");
  std::ofstream(targets) << "# depots\n4\n\n5\n";
  auto r = run({"--source", "1,3", "--targets", targets, "--output", out});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_text(out), "# source target distance\n1 4 10\n1 5 -1\n3 4 2\n3 5 -1\n");
  EXPECT_TRUE(contains(r.out, "(2 sources x 2 targets, from dijkstra)")) << r.out;
  r = run({"--source", "5", "--targets", "2,1", "--output", out});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_text(out), "# source target distance\n5 2 8\n5 1 1\n");
  r = run({"--source", "1,3", "--batch", "1", "--targets", targets, "--output", out});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_text(out), "# source target distance\n1 4 10\n1 5 -1\n3 4 2\n3 5 -1\n");
}

TEST_F(AppBatchEndToEnd, BadTargetsExitTwoWithOneLineAndNoFiles) {
  const std::string targets = path("targets.txt"), out = path("pairs.dist"), json = path("run.json");
  std::ofstream(targets) << "4\n# fine so far\n6\n";
  auto r = run({"--source", "1,3", "--targets", targets, "--output", out, "--json", json});
  EXPECT_EQ(r.code, 2);
  // The .mtx header declares 5 vertices: refused before the file is parsed.
  EXPECT_EQ(r.err, "sssp: " + targets + ":3: --targets 6 is not a vertex of " + mtx_ +
                       " (5 vertices declared on line 2, ids 1 to 5); checked before loading it\n");
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(json));
  r = run({"--source", "1", "--targets", "0", "--output", out});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--targets 0 is not a vertex of")) << r.err;
  EXPECT_FALSE(fs::exists(out));
  r = run({"--source", "1,3", "--batch", "2", "--strategy", "bucket-sort"});
  EXPECT_EQ(r.code, 2);  // a GPU strategy on the cpu device: refused before any batch question
}

TEST_F(AppBatchEndToEnd, JsonHoldsEachSourceAndTheBatch) {
  const std::string json = path("run.json");
  const auto r = run({"--source", "1,5,3", "--batch", "2", "--runs", "3", "--validate", "--json", json});
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["options"]["batch"], 2);
  EXPECT_EQ(j["options"]["strategies"], nlohmann::json::array({"dijkstra"}));
  EXPECT_EQ(j["batch"]["batched"], true);
  EXPECT_EQ(j["batch"]["size"], 2);
  ASSERT_EQ(j["batches"].size(), 1u);
  const nlohmann::json& b = j["batches"][0];
  EXPECT_EQ(b["strategy"], "dijkstra");
  EXPECT_EQ(b["device"], "cpu");
  EXPECT_EQ(b["sources"], 3);
  EXPECT_EQ(b["calls"], 2);
  EXPECT_EQ(b["solve_ms"]["runs"].size(), 3u);
  EXPECT_TRUE(contains(b["solver"].get<std::string>(), "dijkstra, one source per thread"));
  EXPECT_GT(b["sources_per_second"].get<double>(), 0);
  EXPECT_TRUE(b["sources_per_launch"].is_null());
  EXPECT_TRUE(b["solved_together"].is_null());
  EXPECT_TRUE(b["finished_alone"].is_null());
  EXPECT_EQ(b["validation"]["checked"], 3);
  EXPECT_EQ(b["validation"]["failed"], 0);
  // 1 reaches 4 vertices (arcs out of them: 4), 5 all 5 (5), 3 two (1).
  EXPECT_EQ(b["reached_arcs"], 10);
  ASSERT_EQ(j["results"].size(), 3u);
  const std::vector<int> sources{1, 5, 3}, reached{4, 5, 2};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(j["results"][i]["source"], sources[i]);
    EXPECT_EQ(j["results"][i]["reached_vertices"], reached[i]);
    EXPECT_EQ(j["results"][i]["batched"], true);
    EXPECT_EQ(j["results"][i]["validation"], "passed");
    EXPECT_EQ(j["results"][i]["solve_ms"]["runs"].size(), 3u);
  }
}

TEST_F(AppBatchEndToEnd, ManySourcesOnFewThreadsEqualDijkstra) {
  const std::string out = path("grid.dist");
  const auto r = test_support::run_sssp({"--generate", "grid:9:11", "--device", "cpu", "--threads", "2",
                                         "--random-sources", "13", "--validate", "--output", out, "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const graph::IntCsr g =
      graph::generate(graph::GeneratorSpec::parse("grid:9:11"), graph::WeightRule::parse("random:1:1000", 1), 1);
  std::ifstream in(out);
  std::string header;
  std::getline(in, header);
  std::istringstream names(header.substr(5));  // "# id d(S1) d(S2) ..."
  std::vector<graph::vertex_id> sources;
  for (std::string name; names >> name;) sources.push_back(static_cast<graph::vertex_id>(std::stoul(name.substr(2))));
  ASSERT_EQ(sources.size(), 13u) << header;
  std::vector<std::vector<std::uint64_t>> want;
  for (const graph::vertex_id s : sources) want.push_back(graph::dijkstra(g, s));
  std::uint64_t id = 0;
  for (graph::vertex_id v = 0; v < g.num_vertices; ++v) {
    ASSERT_TRUE(in >> id);
    ASSERT_EQ(id, v);
    for (std::size_t k = 0; k < sources.size(); ++k) {
      std::uint64_t d = 0;
      ASSERT_TRUE(in >> d);
      EXPECT_EQ(d, want[k][v]) << "vertex " << v << ", source " << sources[k];
    }
  }
}

}  // namespace

// A CPU batch runs as the batched Dijkstra, which takes no delta: the short
// report prints no delta line for it; one source at a time, delta-stepping
// runs and the line is there.
TEST_F(AppBatchEndToEnd, TheCpuBatchReportsNoDelta) {
  auto r = run({"--source", "1,2,5"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(test_support::contains(r.out, "\ndelta ")) << r.out;
  EXPECT_TRUE(test_support::contains(r.out, "dijkstra (batch)")) << r.out;
  r = run({"--source", "1,2,5", "--batch", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(test_support::contains(r.out, "\ndelta ")) << r.out;
}
