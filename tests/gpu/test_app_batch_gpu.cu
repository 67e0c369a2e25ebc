// sssp --batch on the GPU, end to end in-process: batched sources (auto, and
// more sources than one call takes) write the same distance file as sources
// solved one after another and as the CPU, validate per source, and a GPU
// without memory for one batched source gives one clear line, exit 1 and no
// files. Skips visibly without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app_test_support.hpp"
#include "gpu_test_support.cuh"
#include "graph/generators.hpp"
#include "sssp/solver.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

using test_support::contains;

using test_support::read_text;

std::size_t count_lines(const std::string& text) {
  std::size_t lines = 0;
  for (const char c : text) lines += c == '\n';
  return lines;
}

class AppBatchGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_support::scratch_dir(std::string("app_batch_gpu_") +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // One run of `graph` from `sources` random sources; returns the distance file's text.
  std::string distances(const std::string& spec, const std::string& device, const std::string& strategy,
                        const std::string& batch, const std::string& sources, const std::string& name,
                        std::string* out = nullptr) const {
    const std::string file = path(name);
    std::vector<std::string> args{"--generate", spec, "--device", device, "--random-sources", sources, "--batch", batch,
                                  "--validate", "--output", file, "--json", file + ".json"};
    if (!strategy.empty()) args.insert(args.end(), {"--strategy", strategy});
    const auto r = test_support::run_sssp(args);
    EXPECT_EQ(r.code, 0) << spec << " " << strategy << " --batch " << batch << ": " << r.err;
    if (out) *out = r.out;
    return read_text(file);
  }

  nlohmann::json json_of(const std::string& name) const {
    std::ifstream in(path(name) + ".json");
    return nlohmann::json::parse(in);
  }

  fs::path dir_;
};

TEST_F(AppBatchGpu, BatchAutoWritesWhatOneSourceAtATimeWrites) {
  SKIP_IF_NO_GPU();
  // A grid (every source stays in its block) and an R-MAT graph (sources
  // outgrow their block and are solved together), both batchable strategies.
  for (const std::string spec : {"grid:40:50", "rmat:12:8"}) {
    for (const std::string strategy : {"near-far", "bellman-ford"}) {
      SCOPED_TRACE(spec + " " + strategy);
      std::string report;
      const std::string batched = distances(spec, "gpu", strategy, "auto", "24", "auto.dist", &report);
      EXPECT_TRUE(contains(report, "batch         auto: " + strategy + " solves the 24 sources in one call")) << report;
      EXPECT_TRUE(contains(report, "passed (24)")) << report;
      const nlohmann::json j = json_of("auto.dist");
      ASSERT_EQ(j["batches"].size(), 1u);
      EXPECT_EQ(j["batches"][0]["calls"], 1);
      EXPECT_GE(j["batches"][0]["sources_per_launch"].get<int>(), 1);
      EXPECT_TRUE(j["batches"][0]["finished_alone"].is_number());
      EXPECT_TRUE(j["batches"][0]["solved_together"].is_number());
      if (spec == "rmat:12:8") EXPECT_GE(j["batches"][0]["solved_together"].get<int>(), 2);
      const std::string one_by_one = distances(spec, "gpu", strategy, "1", "24", "one.dist");
      EXPECT_EQ(batched, one_by_one);
      EXPECT_EQ(count_lines(batched), 1u + (spec == "grid:40:50" ? 2000u : 4096u));
      EXPECT_EQ(batched, distances(spec, "cpu", "", "auto", "24", "cpu.dist"));
    }
  }
}

TEST_F(AppBatchGpu, AutoStrategyIsBatchedToo) {
  SKIP_IF_NO_GPU();
  std::string report;
  const std::string batched = distances("grid:30:30", "gpu", "", "auto", "9", "auto.dist", &report);
  EXPECT_TRUE(contains(report, "solves the 9 sources in one call")) << report;
  EXPECT_EQ(batched, distances("grid:30:30", "gpu", "", "1", "9", "one.dist"));
}

TEST_F(AppBatchGpu, MoreSourcesThanTheBatchTakeSeveralCalls) {
  SKIP_IF_NO_GPU();
  std::string report;
  const std::string batched = distances("grid:35:35", "gpu", "near-far", "7", "20", "seven.dist", &report);
  EXPECT_TRUE(contains(report, "near-far solves the 20 sources 7 per call")) << report;
  const nlohmann::json j = json_of("seven.dist");
  EXPECT_EQ(j["batches"][0]["calls"], 3);
  EXPECT_EQ(j["batches"][0]["batch_size"], 7);
  EXPECT_EQ(j["batches"][0]["validation"]["failed"], 0);
  EXPECT_EQ(batched, distances("grid:35:35", "gpu", "near-far", "1", "20", "one.dist"));
}

TEST_F(AppBatchGpu, ExplicitBatchOfAStrategyThatCannotBeBatchedIsRefused) {
  SKIP_IF_NO_GPU();
  const auto r = test_support::run_sssp({"--generate", "grid:10:10", "--device", "gpu", "--random-sources", "4",
                                         "--strategy", "bucket-sort", "--batch", "4", "--output", path("x.dist")});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "--batch 4: bucket-sort cannot be batched")) << r.err;
  EXPECT_FALSE(fs::exists(path("x.dist")));
}

// Room for the graph but not for one batched source (which also keeps 64 MiB
// of headroom): one line naming bytes needed and free, exit 1, no files; the
// same limit solves the sources one after another.
TEST_F(AppBatchGpu, NoMemoryForABatchedSourceGivesOneClearLine) {
  SKIP_IF_NO_GPU();
  const std::string spec = "grid:200:200";
  const graph::IntCsr g =
      graph::generate(graph::GeneratorSpec::parse(spec), graph::WeightRule::parse("random:1:1000", 1), 1);
  std::uint64_t held = 0;
  {
    sssp::GpuSolver<std::uint32_t> probe(g, sssp::SolverOptions{});
    held = probe.device_bytes();
  }
  const std::string limit = std::to_string(held + (16ull << 20));
  const std::string dist = path("x.dist"), json = path("x.json");
  auto r = test_support::run_sssp({"--generate", spec, "--device", "gpu", "--strategy", "near-far", "--random-sources",
                                   "8", "--gpu-memory-limit", limit, "--output", dist, "--json", json});
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("sssp: a batched source needs ", 0), 0u) << r.err;
  EXPECT_TRUE(contains(r.err, "are free")) << r.err;
  EXPECT_FALSE(fs::exists(dist));
  EXPECT_FALSE(fs::exists(json));
  r = test_support::run_sssp({"--generate", spec, "--device", "gpu", "--strategy", "near-far", "--random-sources", "8",
                              "--gpu-memory-limit", limit, "--batch", "1", "--output", dist});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dist));
}

}  // namespace
