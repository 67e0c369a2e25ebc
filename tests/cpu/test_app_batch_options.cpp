// --batch and --targets on the sssp command line: values, refusals and
// conflicts, and the batch plan (what is batched, and why not).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/batch.hpp"
#include "app/options.hpp"
#include "app/sources.hpp"
#include "test_support.hpp"

using app::Algorithm;
using app::AppOptions;
using app::DeviceKind;
using app::UsageError;

namespace {

AppOptions parse(std::vector<std::string> args) {
  std::vector<const char*> argv{"sssp"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  return app::parse_options(static_cast<int>(argv.size()), argv.data());
}

std::string rejection(std::vector<std::string> args) {
  try {
    (void)parse(std::move(args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

using test_support::contains;

class BatchOptions : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_support::scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path dir_;
};

}  // namespace

TEST_F(BatchOptions, BatchIsAutoByDefaultAndTakesCountsOrAuto) {
  AppOptions o = parse({});
  EXPECT_EQ(o.batch, 0u);
  EXPECT_FALSE(o.batch_given);
  o = parse({"--batch", "auto"});
  EXPECT_EQ(o.batch, 0u);
  EXPECT_TRUE(o.batch_given);
  EXPECT_EQ(parse({"--batch", "1"}).batch, 1u);
  EXPECT_EQ(parse({"--batch", "64"}).batch, 64u);
  EXPECT_EQ(parse({"--batch", "1048576"}).batch, 1048576u);
}

TEST_F(BatchOptions, BadBatchValuesAreRefused) {
  EXPECT_TRUE(contains(rejection({"--batch", "0"}), "--batch: 0 is out of range")) << rejection({"--batch", "0"});
  EXPECT_TRUE(contains(rejection({"--batch", "1048577"}), "out of range"));
  EXPECT_TRUE(contains(rejection({"--batch", "-4"}), "--batch: '-4' is not 'auto' or a number"));
  EXPECT_TRUE(contains(rejection({"--batch", "many"}), "'many'"));
  EXPECT_TRUE(contains(rejection({"--batch", ""}), "--batch"));
  EXPECT_TRUE(contains(rejection({"--batch"}), "batch"));  // missing value
}

TEST_F(BatchOptions, TargetsAreIdsOrAFile) {
  AppOptions o = parse({"--targets", "3,1,3", "--output", "x.dist"});
  EXPECT_EQ(o.targets, (std::vector<std::uint64_t>{3, 1, 3}));  // in order, repeats kept
  EXPECT_TRUE(o.targets_file.path.empty());
  const std::string path = file("targets.txt", "# targets\n 7\n\n2\r\n");
  o = parse({"--targets", path, "--output", "x.dist"});
  EXPECT_EQ(o.targets, (std::vector<std::uint64_t>{7, 2}));
  EXPECT_EQ(o.targets_file.path, path);
  EXPECT_EQ(o.targets_file.lines, (std::vector<std::uint64_t>{2, 4}));
}

TEST_F(BatchOptions, BadTargetsAreRefusedWithFileAndLine) {
  EXPECT_EQ(rejection({"--targets", "1,2"}), "--targets chooses what --output writes: give --output FILE too");
  EXPECT_TRUE(contains(rejection({"--targets", "", "-o", "x"}), "--targets: empty value"));
  EXPECT_TRUE(contains(rejection({"--targets", "1,,2", "-o", "x"}), "neither a list of vertex ids"));
  EXPECT_TRUE(contains(rejection({"--targets", "4,x", "-o", "x"}), "neither a list of vertex ids"));
  EXPECT_EQ(rejection({"--targets", (dir_ / "none.txt").string(), "-o", "x"}),
            "--targets: cannot open " + (dir_ / "none.txt").string());
  const std::string bad = file("bad.txt", "1\n# fine\nseven\n");
  EXPECT_EQ(rejection({"--targets", bad, "-o", "x"}), bad + ":3: 'seven' is not a vertex id (--targets)");
  const std::string empty = file("empty.txt", "# nothing\n\n");
  EXPECT_EQ(rejection({"--targets", empty, "-o", "x"}), "--targets: " + empty + " names no vertex");
}

TEST_F(BatchOptions, TargetIdsOutOfRangeNameTheFileLine) {
  const std::string path = file("t.txt", "1\n\n9\n");
  const AppOptions o = parse({"--targets", path, "--output", "x.dist"});
  EXPECT_EQ(app::resolve_targets(o.targets, 1, 10, o.targets_file).size(), 2u);
  try {
    (void)app::resolve_targets(o.targets, 0, 5, o.targets_file);  // 0-based: 9 is past vertex 4
    ADD_FAILURE() << "target 9 of 5 vertices accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":3: --targets 9 is out of range", 0), 0u) << e.what();
  }
  try {
    (void)app::resolve_targets({0}, 1, 5);  // from the command line: no file to name
    ADD_FAILURE() << "target 0 of a 1-based graph accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--targets 0 is out of range", 0), 0u) << e.what();
  }
}

TEST_F(BatchOptions, SourceFileIdsOutOfRangeNameTheLine) {
  const std::string path = file("s.txt", "2\n12\n");
  const AppOptions o = parse({"--sources", path});
  const std::vector<graph::edge_offset> offsets{0, 1, 2, 3};  // 3 vertices
  try {
    (void)app::resolve_sources(o.sources, 0, 1, 1, offsets, o.sources_file);
    ADD_FAILURE() << "source 12 of 3 vertices accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":2: --sources 12 is out of range", 0), 0u) << e.what();
  }
}

TEST_F(BatchOptions, ExplicitBatchWithAStrategyThatCannotBeBatchedIsRefused) {
  const auto check = [](std::vector<std::string> args, DeviceKind device) -> std::string {
    const AppOptions o = parse(std::move(args));
    try {
      app::check_batch_request(o, device, app::resolve_algorithms(o, device));
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_TRUE(contains(check({"--strategy", "bucket-sort", "--batch", "4"}, DeviceKind::Gpu),
                       "--batch 4: bucket-sort cannot be batched"));
  EXPECT_TRUE(contains(check({"--strategy", "all", "--batch", "8"}, DeviceKind::Gpu), "cannot be batched"));
  // Not refused: auto or 1, batchable strategies, the CPU baseline beside GPU ones, the CPU device.
  EXPECT_EQ(check({"--strategy", "bucket-sort", "--batch", "auto"}, DeviceKind::Gpu), "");
  EXPECT_EQ(check({"--strategy", "bucket-multisplit", "--batch", "1"}, DeviceKind::Gpu), "");
  EXPECT_EQ(check({"--strategy", "bucket-sort"}, DeviceKind::Gpu), "");
  EXPECT_EQ(check({"--strategy", "near-far,bellman-ford,delta-stepping", "--batch", "4"}, DeviceKind::Gpu), "");
  EXPECT_EQ(check({"--strategy", "all", "--batch", "4"}, DeviceKind::Cpu), "");
  EXPECT_EQ(check({"--batch", "4"}, DeviceKind::Gpu), "");  // auto: checked once chosen
}

TEST(BatchPlan, BatchesWhatItCanAndSaysWhyNot) {
  const auto plan = [](std::vector<std::string> args, DeviceKind device, std::vector<Algorithm> algorithms,
                       std::size_t sources) { return app::plan_batches(parse(std::move(args)), device, algorithms, sources); };
  const std::vector<Algorithm> nf{Algorithm::NearFar};

  app::BatchPlan p = plan({}, DeviceKind::Gpu, nf, 64);
  EXPECT_TRUE(p.has(Algorithm::NearFar));
  EXPECT_EQ(p.size, 64u);  // auto: every source in one call
  EXPECT_TRUE(contains(p.reason, "auto: near-far solves the 64 sources in one call")) << p.reason;

  p = plan({"--batch", "16"}, DeviceKind::Gpu, {Algorithm::NearFar, Algorithm::BucketSort, Algorithm::DeltaStepping}, 40);
  EXPECT_EQ(p.batched, nf);
  EXPECT_EQ(p.size, 16u);
  EXPECT_TRUE(contains(p.reason, "16 per call")) << p.reason;
  EXPECT_TRUE(contains(p.reason, "bucket-sort, delta-stepping one source after another")) << p.reason;

  p = plan({"--batch", "100"}, DeviceKind::Gpu, nf, 10);
  EXPECT_EQ(p.size, 10u);  // never more than the sources

  // phast batches on the GPU; phast-cpu does not.
  p = plan({}, DeviceKind::Gpu, {Algorithm::Phast, Algorithm::PhastCpu}, 12);
  EXPECT_EQ(p.batched, std::vector<Algorithm>{Algorithm::Phast});
  EXPECT_TRUE(contains(p.reason, "auto: phast solves the 12 sources in one call")) << p.reason;
  EXPECT_TRUE(contains(p.reason, "phast-cpu one source after another")) << p.reason;
  EXPECT_FALSE(plan({}, DeviceKind::Cpu, {Algorithm::PhastCpu}, 12).any());

  p = plan({}, DeviceKind::Cpu, {Algorithm::DeltaStepping}, 8);
  EXPECT_TRUE(p.has(Algorithm::DeltaStepping));
  EXPECT_TRUE(contains(p.reason, "dijkstra, one source per thread (for delta-stepping)")) << p.reason;

  struct Sequential {
    std::vector<std::string> args;
    std::size_t sources;
    const char* why;
  };
  for (const Sequential& s : std::vector<Sequential>{{{}, 1, "one source"},
                                                     {{"--batch", "1"}, 8, "--batch 1"},
                                                     {{"--predecessors"}, 8, "--predecessors"},
                                                     {{"--path-to", "3"}, 8, "--path-to"},
                                                     {{"--delta-sweep"}, 8, "--delta-sweep"}}) {
    p = plan(s.args, DeviceKind::Gpu, nf, s.sources);
    EXPECT_FALSE(p.any()) << s.why;
    EXPECT_TRUE(contains(p.reason, "one source after another (" + std::string(s.why))) << p.reason;
  }
  const std::vector<Algorithm> both{Algorithm::DeltaStepping, Algorithm::Dijkstra};
  p = plan({}, DeviceKind::Cpu, both, 8);  // a comparison of the two: kept
  EXPECT_FALSE(p.any());
  EXPECT_TRUE(contains(p.reason, "several CPU strategies are compared")) << p.reason;
  p = plan({"--batch", "auto"}, DeviceKind::Cpu, both, 8);  // asked for: one batched dijkstra for both
  EXPECT_EQ(p.batched, both);
  p = plan({}, DeviceKind::Gpu, {Algorithm::BucketMultisplit}, 8);
  EXPECT_FALSE(p.any());
  EXPECT_TRUE(contains(p.reason, "bucket-multisplit cannot be batched")) << p.reason;
  EXPECT_EQ(app::cpu_batch_description(16), "dijkstra, one source per thread, 16 threads");
  EXPECT_EQ(app::cpu_batch_description(1), "dijkstra, one source per thread, 1 thread");
}
