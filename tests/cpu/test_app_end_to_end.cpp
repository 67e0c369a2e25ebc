// The sssp command end to end on the CPU path, in-process through
// app::run_sssp: exit codes 0/1/2, distance files equal to Dijkstra, no files
// after a failing run, JSON contents, id bases of each format; plus the built
// binary run once as a subprocess.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/app.hpp"
#include "app_test_support.hpp"
#include "app/options.hpp"
#include "graph/distance_io.hpp"
#include "graph/generators.hpp"
#include "graph/reference.hpp"
#include "sssp/solver.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

using Result = test_support::SsspRun;
Result run(const std::vector<std::string>& args) { return test_support::run_sssp(args); }

using test_support::contains;

// An error is one line "sssp: ..." on stderr.
void expect_one_error_line(const Result& r) {
  EXPECT_EQ(r.err.rfind("sssp: ", 0), 0u) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

// Distances as a .dist file holds them: -1 for unreachable.
template <class Dist>
std::vector<double> as_file_values(const std::vector<Dist>& dist, Dist infinity) {
  std::vector<double> values;
  for (const Dist d : dist) values.push_back(d == infinity ? -1.0 : static_cast<double>(d));
  return values;
}

class AppEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_support::scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

// 1 -> 2 (7), 2 -> 3 (1), 1 -> 3 (10), 3 -> 4 (2), 5 -> 1 (1): vertex 5 is
// unreachable from 1.
const char* kSmallMtx =
    "%%MatrixMarket matrix coordinate integer general\n"
    "% a comment\n"
    "5 5 5\n"
    "1 2 7\n"
    "2 3 1\n"
    "1 3 10\n"
    "3 4 2\n"
    "5 1 1\n";

}  // namespace

TEST_F(AppEndToEnd, GeneratedGraphOutputEqualsDijkstra) {
  const std::string dist_file = path("grid.dist");
  const Result r = run({"--generate", "grid:12:9", "--weights", "random:1:50", "--seed", "3", "--device", "cpu",
                        "--validate", "--output", dist_file});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_TRUE(contains(r.out, "graph         grid:12:9")) << r.out;
  EXPECT_TRUE(contains(r.out, "vertices      108")) << r.out;
  EXPECT_TRUE(contains(r.out, "random:1:50 seed=3")) << r.out;
  EXPECT_TRUE(contains(r.out, "validation    passed")) << r.out;
  EXPECT_TRUE(contains(r.out, "delta-stepping")) << r.out;

  graph::GeneratorSpec spec = graph::GeneratorSpec::parse("grid:12:9");
  const graph::IntCsr g = graph::generate(spec, graph::WeightRule::parse("random:1:50", 3), 3);
  const auto expected = graph::dijkstra(g, 0);
  EXPECT_EQ(graph::read_distances(dist_file, 0), as_file_values(expected, graph::infinite_distance<std::uint32_t>()));
}

TEST_F(AppEndToEnd, MatrixMarketIdsAreOneBasedAndPathsPrint) {
  const std::string mtx = path("small.mtx");
  write_text(mtx, kSmallMtx);
  const std::string dist_file = path("small.dist");
  Result r = run({"--graph", mtx, "--source", "1", "--device", "cpu", "--strategy", "dijkstra", "--predecessors",
                  "--path-to", "4", "--validate", "--output", dist_file});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "distance 1 -> 4: 10\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "path (3 arcs): 1 -> 2 -> 3 -> 4\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "predecessor trees valid")) << r.out;
  // With --predecessors, --output adds each vertex's predecessor (-1: none).
  EXPECT_EQ(test_support::read_text(dist_file), "1 0 -1\n2 7 1\n3 8 2\n4 10 3\n5 -1 -1\n");

  // From vertex 5 every vertex is reachable; delta-stepping's tree comes
  // from its distances (integer weights).
  r = run({"--graph", mtx, "--source", "5", "--device", "cpu", "--predecessors", "--path-to", "4", "--validate",
           "--output", dist_file});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "distance 5 -> 4: 11\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "path (4 arcs): 5 -> 1 -> 2 -> 3 -> 4\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "(path from the delta-stepping tree)")) << r.out;
  EXPECT_TRUE(contains(r.out, "predecessor trees valid")) << r.out;
  EXPECT_EQ(test_support::read_text(dist_file), "1 1 5\n2 8 1\n3 9 2\n4 11 3\n5 0 -1\n");
  // Float weights: delta-stepping gives no tree, so the path comes from
  // Dijkstra's, and says so.
  const std::string real = path("real.mtx");
  write_text(real, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.5\n2 3 1.5\n");
  r = run({"--graph", real, "--device", "cpu", "--predecessors", "--path-to", "3", "--validate"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "path (2 arcs): 1 -> 2 -> 3\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "CPU Dijkstra tree")) << r.out;

  // Unreachable target; and without --predecessors only the distance.
  r = run({"--graph", mtx, "--device", "cpu", "--path-to", "5"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "distance 1 -> 5: unreachable\n")) << r.out;
  r = run({"--graph", mtx, "--device", "cpu", "--path-to", "3"});
  EXPECT_TRUE(contains(r.out, "distance 1 -> 3: 8\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "add --predecessors")) << r.out;
}

TEST_F(AppEndToEnd, SecondLoadComesFromTheCache) {
  const std::string mtx = path("small.mtx");
  write_text(mtx, kSmallMtx);
  const std::string cache = path("small.cache");
  const std::string first = path("first.dist"), second = path("second.dist");
  Result r = run({"--graph", mtx, "--cache", cache, "--device", "cpu", "--output", first});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "not from cache, cache written")) << r.out;
  EXPECT_TRUE(fs::exists(cache));
  r = run({"--graph", mtx, "--cache=" + cache, "--device", "cpu", "--output", second});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, ", from cache (saved ")) << r.out;
  EXPECT_EQ(graph::read_distances(first, 1), graph::read_distances(second, 1));
}

TEST_F(AppEndToEnd, EdgeListIdsAreZeroBased) {
  const std::string el = path("g.el");
  write_text(el, "# u v\n0 1\n1 2\n3 2\n");
  const std::string dist_file = path("g.dist");
  Result r = run({"--graph", el, "--weights", "unit", "--device", "cpu", "--validate", "--output", dist_file});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "ids 0-based")) << r.out;
  EXPECT_EQ(graph::read_distances(dist_file, 0), (std::vector<double>{0, 1, 2, -1}));
  r = run({"--graph", el, "--weights", "unit", "--device", "cpu", "--undirected", "--source", "3", "--output",
           dist_file});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(graph::read_distances(dist_file, 0), (std::vector<double>{3, 2, 1, 0}));
  r = run({"--graph", el, "--device", "cpu", "--source", "4"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "0 to 3")) << r.err;
}

TEST_F(AppEndToEnd, FloatWeightsStayFloat) {
  const std::string mtx = path("real.mtx");
  write_text(mtx,
             "%%MatrixMarket matrix coordinate real general\n"
             "3 3 3\n"
             "1 2 0.5\n"
             "2 3 0.25\n"
             "1 3 1.5\n");
  const std::string dist_file = path("real.dist");
  const std::string json_file = path("real.json");
  const Result r = run({"--graph", mtx, "--device", "cpu", "--strategy", "all", "--validate", "--output", dist_file,
                        "--json", json_file});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "weights       float")) << r.out;
  EXPECT_TRUE(contains(r.out, "relative 1e-6")) << r.out;
  EXPECT_EQ(graph::read_distances(dist_file, 1), (std::vector<double>{0, 0.5, 0.75}));
  EXPECT_EQ(read_json(json_file).at("graph").at("weight_type"), "float");
}

TEST_F(AppEndToEnd, StrategyAllOnCpuComparesDijkstraWithDeltaStepping) {
  const std::string json_file = path("all.json");
  const Result r = run({"--generate", "rmat:8:8", "--device", "cpu", "--strategy", "all", "--runs", "2",
                        "--source", "0,1", "--validate", "--json", json_file});
  ASSERT_EQ(r.code, 0) << r.err;
  // The default report compares in a column; -v adds the comparison table.
  EXPECT_TRUE(contains(r.out, "speedup: the CPU delta-stepping's time per source over the row's")) << r.out;
  EXPECT_TRUE(contains(r.out, "  speedup  ")) << r.out;
  EXPECT_FALSE(contains(r.out, "comparison")) << r.out;
  const Result verbose = run({"--generate", "rmat:8:8", "--device", "cpu", "--strategy", "all", "--runs", "2",
                              "--source", "0,1", "--validate", "-v"});
  ASSERT_EQ(verbose.code, 0) << verbose.err;
  EXPECT_TRUE(contains(verbose.out, "comparison")) << verbose.out;
  EXPECT_TRUE(contains(verbose.out, "speedup vs cpu delta-stepping")) << verbose.out;
  const nlohmann::json j = read_json(json_file);
  EXPECT_EQ(j.at("options").at("strategies"), nlohmann::json({"delta-stepping", "dijkstra"}));
  ASSERT_EQ(j.at("results").size(), 4u);  // 2 strategies x 2 sources
  for (const auto& result : j.at("results")) {
    EXPECT_EQ(result.at("solve_ms").at("runs").size(), 2u);
    EXPECT_EQ(result.at("validation"), "passed");
    EXPECT_EQ(result.at("device"), "cpu");
    EXPECT_GT(result.at("reached_vertices").get<std::uint64_t>(), 0u);
  }
  ASSERT_EQ(j.at("summary").size(), 2u);
  EXPECT_DOUBLE_EQ(j.at("summary")[0].at("speedup_vs_cpu_delta_stepping").get<double>(), 1.0);
  EXPECT_TRUE(j.at("summary")[1].at("speedup_vs_cpu_delta_stepping").is_number());
  EXPECT_TRUE(j.at("validation").at("passed").get<bool>());
  EXPECT_EQ(j.at("device").at("kind"), "cpu");
  EXPECT_EQ(j.at("graph").at("id_base"), 0);
}

TEST_F(AppEndToEnd, DeltaAutoIsTheLibraryChoiceAndValuesOverride) {
  const std::string json_file = path("delta.json");
  ASSERT_EQ(run({"--generate", "urand:500:4", "--device", "cpu", "--json", json_file}).code, 0);
  const graph::IntCsr g = graph::generate(graph::GeneratorSpec::parse("urand:500:4"), graph::WeightRule{}, 1);
  // On the CPU, auto is the CPU's own rule (the GPU's c = 16 or 128 suits the GPU).
  const double auto_delta = graph::auto_delta_cpu(g);
  ASSERT_NE(auto_delta, graph::auto_delta(g));
  nlohmann::json j = read_json(json_file);
  EXPECT_NE(j.at("options").at("delta_auto_rule").get<std::string>().find("CPU"), std::string::npos);
  EXPECT_DOUBLE_EQ(j.at("options").at("delta_used").get<double>(), auto_delta);
  EXPECT_DOUBLE_EQ(j.at("options").at("delta_auto_value").get<double>(), auto_delta);
  EXPECT_EQ(j.at("options").at("delta"), "auto");

  const Result r = run({"--generate", "urand:500:4", "--device", "cpu", "--delta", "7.5", "--json", json_file});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "delta         7.5 (given")) << r.out;
  j = read_json(json_file);
  EXPECT_DOUBLE_EQ(j.at("options").at("delta_used").get<double>(), 7.5);
  EXPECT_DOUBLE_EQ(j.at("results")[0].at("delta").get<double>(), 7.5);
}

// A sweep that mixes strategies: delta-stepping runs at every delta,
// Dijkstra (which ignores delta) once.
TEST_F(AppEndToEnd, DeltaSweepRunsDeltaFreeStrategiesOnce) {
  const std::string json_file = path("mixed.json");
  const Result r = run({"--generate", "grid:8:9", "--device", "cpu", "--strategy", "dijkstra,delta-stepping",
                        "--delta-sweep=0.5x,2x,9", "--validate", "--json", json_file});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = read_json(json_file);
  ASSERT_EQ(j.at("results").size(), 4u);
  int dijkstra = 0, delta_stepping = 0;
  for (const auto& res : j.at("results")) {
    const std::string s = res.at("strategy").get<std::string>();
    if (s == "dijkstra") ++dijkstra;
    if (s == "delta-stepping") ++delta_stepping;
  }
  EXPECT_EQ(dijkstra, 1);
  EXPECT_EQ(delta_stepping, 3);
  EXPECT_TRUE(contains(r.out, "delta sweep")) << r.out;
}

TEST_F(AppEndToEnd, DeltaSweepRunsEachDelta) {
  const std::string json_file = path("sweep.json");
  const Result r = run({"--generate", "grid:6:6", "--device", "cpu", "--delta-sweep=0.5x,2x,100", "--validate",
                        "--json", json_file});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "delta sweep")) << r.out;
  const nlohmann::json j = read_json(json_file);
  const double auto_delta = j.at("options").at("delta_auto_value").get<double>();
  ASSERT_EQ(j.at("results").size(), 3u);
  EXPECT_DOUBLE_EQ(j.at("results")[0].at("delta").get<double>(), 0.5 * auto_delta);
  EXPECT_DOUBLE_EQ(j.at("results")[1].at("delta").get<double>(), 2 * auto_delta);
  EXPECT_DOUBLE_EQ(j.at("results")[2].at("delta").get<double>(), 100);
  EXPECT_EQ(j.at("options").at("delta_sweep").size(), 3u);
  EXPECT_EQ(run({"--device", "cpu", "--strategy", "dijkstra", "--delta-sweep"}).code, 2);
}

TEST_F(AppEndToEnd, RandomSourcesAreSeededAndHaveOutEdges) {
  const std::string a = path("a.json"), b = path("b.json");
  const std::vector<std::string> args = {"--generate", "rmat:9:4", "--device", "cpu", "--random-sources", "3",
                                         "--seed", "9"};
  std::vector<std::string> args_a = args, args_b = args;
  args_a.insert(args_a.end(), {"--json", a});
  args_b.insert(args_b.end(), {"--json", b});
  ASSERT_EQ(run(args_a).code, 0);
  ASSERT_EQ(run(args_b).code, 0);
  const auto sources = read_json(a).at("options").at("sources").get<std::vector<std::uint32_t>>();
  EXPECT_EQ(sources, read_json(b).at("options").at("sources").get<std::vector<std::uint32_t>>());
  ASSERT_EQ(sources.size(), 3u);
  EXPECT_EQ(std::set<std::uint32_t>(sources.begin(), sources.end()).size(), 3u);
  const graph::IntCsr g =
      graph::generate(graph::GeneratorSpec::parse("rmat:9:4"), graph::WeightRule::parse("file", 9), 9);
  for (const auto s : sources) EXPECT_GT(g.out_degree(s), 0u) << s;
  EXPECT_EQ(read_json(a).at("results").size(), 3u);
}

TEST_F(AppEndToEnd, BadInputExitsTwoWithOneLineAndNoFiles) {
  const std::string dist_file = path("never.dist");
  const std::string json_file = path("never.json");
  const std::vector<std::vector<std::string>> cases = {
      {"--graph", path("missing.mtx")},                   // InputError: cannot open
      {"--generate", "rmat:x:16"},                        // InputError: bad spec
      {"--generate", "grid:3:3", "--source", "9"},        // source out of range (0-based, 9 vertices)
      {"--generate", "grid:3:3", "--path-to", "100"},     // target out of range
      {"--strategy", "quickest"},                         // unknown strategy
      {"--generate", "grid:3:3", "--runs", "0"},          // bad value
      {"--graph", "a.mtx", "--generate", "grid:3:3"},     // conflicting flags
      {"--generate", "grid:3:3", "--weights", "heavy"},   // bad weight rule
  };
  for (std::vector<std::string> args : cases) {
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    args.insert(args.end(), {"--device", "cpu", "--output", dist_file, "--json", json_file});
    const Result r = run(args);
    EXPECT_EQ(r.code, 2) << joined << r.err;
    expect_one_error_line(r);
    EXPECT_TRUE(r.out.empty()) << joined << "printed: " << r.out;
    EXPECT_FALSE(fs::exists(dist_file)) << joined;
    EXPECT_FALSE(fs::exists(json_file)) << joined;
  }
  // A malformed file names file and line.
  const std::string bad = path("bad.mtx");
  write_text(bad, "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 x 4\n");
  const Result r = run({"--graph", bad, "--device", "cpu", "--output", dist_file});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, bad + ":3")) << r.err;
  EXPECT_FALSE(fs::exists(dist_file));
  // An output path in a missing directory fails before the run, not after it.
  const Result missing_dir = run({"--generate", "grid:3:3", "--device", "cpu", "--output", path("no/such.dist")});
  EXPECT_EQ(missing_dir.code, 2);
  expect_one_error_line(missing_dir);
  EXPECT_TRUE(missing_dir.out.empty());
}

TEST_F(AppEndToEnd, RuntimeFailureExitsOneWithNoFiles) {
  // Without a GPU, --device gpu fails at once; with one, a 1 KiB memory limit
  // cannot hold the graph. Either way: exit 1, one line, no files.
  const std::string dist_file = path("never.dist");
  const Result r = run({"--generate", "grid:4:4", "--device", "gpu", "--gpu-memory-limit", "1K", "--strategy",
                        "bellman-ford", "--output", dist_file});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  expect_one_error_line(r);
  EXPECT_FALSE(fs::exists(dist_file));
}

TEST_F(AppEndToEnd, DeviceAutoSaysWhatItChose) {
  const Result r = run({"--generate", "grid:3:3", "--strategy", "dijkstra"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string why;
  if (sssp::gpu_available(&why)) {
    EXPECT_TRUE(contains(r.out, "device        gpu: ")) << r.out;
  } else {
    EXPECT_TRUE(contains(r.out, "device        cpu: ")) << r.out;
    EXPECT_TRUE(contains(test_support::unwrapped(r.out), "auto: no usable GPU (" + why + ")")) << r.out;
  }
}

TEST_F(AppEndToEnd, StrategyAutoSaysWhatItChoseAndWhy) {
  const std::string json_file = path("auto.json");
  // On the cpu device auto is the CPU default, and says so.
  Result r = run({"--generate", "grid:6:6", "--device", "cpu", "--strategy", "auto,dijkstra", "--json", json_file});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "strategy      auto -> delta-stepping (cpu device: ")) << r.out;
  nlohmann::json j = read_json(json_file);
  EXPECT_EQ(j.at("options").at("strategies"), nlohmann::json({"delta-stepping", "dijkstra"}));
  EXPECT_TRUE(j.at("options").at("strategy_auto").get<bool>());
  EXPECT_EQ(j.at("auto_strategy").at("chosen"), "delta-stepping");
  EXPECT_TRUE(j.at("auto_strategy").at("statistics").is_null());
  // CPU solvers count no relax rounds.
  for (const auto& result : j.at("results"))
    for (const char* key : {"rounds", "rounds_narrow", "rounds_wide", "us_per_round", "iterations"})
      EXPECT_TRUE(result.at(key).is_null()) << key;

  // The default is auto; on a GPU it measures the graph (a small grid: high
  // diameter, 1600 vertices over 78 hops, thin: bellman-ford).
  r = run({"--generate", "grid:40:40", "--json", json_file});
  ASSERT_EQ(r.code, 0) << r.err;
  j = read_json(json_file);
  if (sssp::gpu_available()) {
    EXPECT_TRUE(contains(r.out, "strategy      auto -> bellman-ford (hop diameter estimate 78 (exact) > 50, "
                                "20.5 vertices per hop < 40")) << r.out;
    EXPECT_EQ(j.at("auto_strategy").at("statistics").at("hop_estimate"), 78);
    EXPECT_TRUE(j.at("results")[0].at("rounds").is_number_unsigned());
  } else {
    EXPECT_TRUE(contains(r.out, "strategy      auto -> delta-stepping")) << r.out;
  }
  // A path of 2000 vertices is thin too, but chain-like and small enough for
  // the resident block: near-far, one source at a time without predecessors;
  // bellman-ford where predecessors keep near-far out of the block.
  if (sssp::gpu_available()) {
    r = run({"--generate", "grid:1:2000", "--contract", "off"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "strategy      auto -> near-far (")) << r.out;
    EXPECT_TRUE(contains(r.out, "vertices <= ")) << r.out;
    EXPECT_TRUE(contains(r.out, ": near-far runs whole in the resident block")) << r.out;
    r = run({"--generate", "grid:1:2000", "--contract", "off", "--predecessors"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "strategy      auto -> bellman-ford (")) << r.out;
    EXPECT_TRUE(contains(r.out, "; chain-like, but the resident block does not run here")) << r.out;
  }
  // Naming strategies or all: no auto line, no auto record.
  r = run({"--generate", "grid:6:6", "--device", "cpu", "--strategy", "all", "--json", json_file});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "auto ->")) << r.out;
  EXPECT_TRUE(read_json(json_file).at("auto_strategy").is_null());
}

TEST_F(AppEndToEnd, HelpAndQuiet) {
  Result r = run({"--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(contains(r.out, "Examples:"));
  EXPECT_TRUE(r.err.empty());
  // --quiet: stdout carries only the data asked for; nothing when none is.
  r = run({"--generate", "grid:3:3", "--device", "cpu", "--quiet"});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
  r = run({"--generate", "grid:1:3", "--weights", "unit", "--device", "cpu", "--quiet", "--output", "-"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "0 0\n1 1\n2 2\n");
  EXPECT_TRUE(r.err.empty()) << r.err;
  // Without -q the report moves to stderr, leaving stdout to the data.
  r = run({"--generate", "grid:1:3", "--weights", "unit", "--device", "cpu", "--output", "-"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "0 0\n1 1\n2 2\n");
  EXPECT_TRUE(contains(r.err, "vertices      3")) << r.err;
}

TEST(AppStrategyNames, MatchTheGpuSolverNames) {
  for (const sssp::Strategy s : sssp::all_strategies()) {
    const app::Algorithm a = app::parse_algorithm(sssp::to_string(s));
    EXPECT_TRUE(app::runs_on_gpu(a)) << sssp::to_string(s);
  }
  EXPECT_EQ(sssp::all_strategies().size(), 4u);
}

TEST_F(AppEndToEnd, SharedRoadGraphRome99) {
  SKIP_IF_NO_DATASET("road/rome99.gr");
  const std::string gr = (test_support::datasets_dir() / "road/rome99.gr").string();
  const Result r = run({"--graph", gr, "--source", "1", "--path-to", "3353", "--device", "cpu", "--strategy", "all",
                        "--predecessors", "--validate", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "distance 1 -> 3353: 30305\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "path (")) << r.out;
  EXPECT_TRUE(contains(r.out, " -> 3353\n")) << r.out;
}

TEST_F(AppEndToEnd, BuiltBinaryRunsAndExits) {
  const fs::path binary = fs::path(SSSP_BINARY_DIR) / "sssp";
  ASSERT_TRUE(fs::exists(binary)) << binary << " not built: build the sssp target before running this test";
  const std::string out = path("out.txt"), err = path("err.txt");
  const auto shell = [&](const std::string& args) {
    const int status = std::system((binary.string() + " " + args + " >" + out + " 2>" + err).c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  const auto slurp = [](const std::string& file) {
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  EXPECT_EQ(shell("--generate grid:5:5 --device cpu --strategy all --validate"), 0) << slurp(err);
  EXPECT_TRUE(contains(slurp(out), "validation    passed")) << slurp(out);
  EXPECT_EQ(shell("--strategy nonsense"), 2);
  EXPECT_EQ(slurp(err), "sssp: --strategy: unknown strategy 'nonsense' (expected auto, near-far, bucket-sort, "
                        "bucket-multisplit, bellman-ford, delta-stepping, dijkstra, phast, phast-cpu, all)\n");
}

// --contract: a road-like graph (a triangle of junctions with long chains and
// a dead end) contracts and validates; a grid does not pay, nor does a graph
// of few hops under auto, and the report says why.
TEST_F(AppEndToEnd, ContractionIsReportedAndExact) {
  std::string text = "%%MatrixMarket matrix coordinate integer symmetric\n60 60 62\n1 2 3\n2 3 4\n3 1 5\n";
  // Chains 1 -> 4..23 -> 2 and 3 -> 24..43, then a dead end 44..60 off vertex 30.
  int entries = 3;
  const auto edge = [&](int u, int v, int w) {
    text += std::to_string(u) + " " + std::to_string(v) + " " + std::to_string(w) + "\n";
    ++entries;
  };
  edge(1, 4, 2);
  for (int v = 4; v < 23; ++v) edge(v, v + 1, 1 + v % 5);
  edge(23, 2, 2);
  edge(3, 24, 1);
  for (int v = 24; v < 43; ++v) edge(v, v + 1, 1 + v % 3);
  edge(43, 1, 7);
  edge(30, 44, 1);
  for (int v = 44; v < 60; ++v) edge(v, v + 1, 2);
  ASSERT_EQ(entries, 62);
  const std::string mtx = path("roads.mtx"), json = path("roads.json");
  write_text(mtx, text);
  Result r = run({"--graph", mtx, "--source", "50", "--device", "cpu", "--strategy", "delta-stepping,dijkstra",
                  "--contract", "on", "--validate", "--json", json});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "contract      core 3 of 60 vertices")) << r.out;
  EXPECT_TRUE(contains(r.out, "validation    passed")) << r.out;
  const nlohmann::json j = read_json(json);
  EXPECT_TRUE(j["contraction"]["used"].get<bool>());
  EXPECT_EQ(j["contraction"]["core_vertices"].get<std::uint64_t>(), 3u);
  EXPECT_FALSE(j["contraction"]["core_on_host"].get<bool>()) << "no GPU strategy ran";
  EXPECT_FALSE(contains(r.out, "a core this small is solved on the host")) << r.out;
  // On a GPU, a core of 3 vertices is solved on the host, and the report says so.
  if (sssp::gpu_available()) {
    r = run({"--graph", mtx, "--source", "50", "--strategy", "near-far,bellman-ford", "--contract", "on",
             "--validate", "--predecessors", "--json", json});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "a core this small is solved on the host (Dijkstra)")) << r.out;
    EXPECT_TRUE(contains(r.out, "validation    passed")) << r.out;
    EXPECT_TRUE(read_json(json)["contraction"]["core_on_host"].get<bool>());
  }
  // PHAST on the host over the same core: exact, and the hierarchy reported.
  r = run({"--graph", mtx, "--random-sources", "5", "--device", "cpu", "--strategy", "phast-cpu,dijkstra", "--batch",
           "1", "--validate", "--json", json});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "hierarchy     over the core for phast:")) << r.out;
  EXPECT_TRUE(contains(r.out, "validation    passed: 10 result(s)")) << r.out;
  EXPECT_GT(read_json(json)["contraction"]["hierarchy"]["levels"].get<std::uint64_t>(), 0u);
  // Trees from the distances of both distance-only solvers, contracted and
  // not, checked by --validate, and a path from one of them.
  for (const char* contract : {"on", "off"}) {
    const std::string strategies = std::string("delta-stepping") + (contract[1] == 'n' ? ",phast-cpu" : "");
    r = run({"--graph", mtx, "--random-sources", "4", "--device", "cpu", "--strategy", strategies.c_str(), "--batch",
             "1", "--contract", contract, "--validate", "--predecessors", "--path-to", "60"});
    ASSERT_EQ(r.code, 0) << contract << ": " << r.err;
    EXPECT_TRUE(contains(r.out, "exact; predecessor trees valid")) << contract << ": " << r.out;
    EXPECT_TRUE(contains(r.out, "(path from the delta-stepping tree)")) << contract << ": " << r.out;
  }
  r = run({"--graph", mtx, "--device", "cpu", "--strategy", "phast-cpu", "--contract", "off"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "work on the chain contraction's core")) << r.err;
  r = run({"--graph", mtx, "--source", "50", "--device", "cpu", "--contract", "off", "--validate"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "contract      off (--contract off)")) << r.out;
  // Why auto left the graph whole is for -v; the default report says nothing.
  r = run({"--generate", "grid:12:9", "--device", "cpu", "--validate"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "contract ")) << r.out;
  r = run({"--generate", "grid:12:9", "--device", "cpu", "--validate", "-v"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "contract      off (auto: hop diameter estimate")) << r.out;
  // A 2 x 300 ladder whose rungs run one way: 300 hops, half the vertices
  // with two out-arcs, but every vertex has three neighbours, so the core
  // would keep them all.
  std::string ladder = "%%MatrixMarket matrix coordinate integer general\n600 600 1496\n";
  for (int i = 1; i < 300; ++i)
    for (const int row : {0, 300}) {
      ladder += std::to_string(row + i) + " " + std::to_string(row + i + 1) + " 1\n";
      ladder += std::to_string(row + i + 1) + " " + std::to_string(row + i) + " 1\n";
    }
  for (int i = 1; i <= 300; ++i) ladder += std::to_string(i) + " " + std::to_string(300 + i) + " 2\n";
  const std::string ladder_mtx = path("ladder.mtx");
  write_text(ladder_mtx, ladder);
  // One solve and its warm-up do not repay contracting it (the cost rule,
  // asked before contracting); ten runs would, and then the core's size decides.
  r = run({"--graph", ladder_mtx, "--device", "cpu", "--validate", "-v"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "2 solves would save ~0.02 ms but ~0.10 ms to contract")) << r.out;
  r = run({"--graph", ladder_mtx, "--device", "cpu", "--validate", "-v", "--runs", "10"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "contract      off (auto: the core would keep")) << r.out;
  // A grid long enough to pass the hop test has almost no low-degree vertices.
  r = run({"--generate", "grid:3:400", "--device", "cpu", "--validate", "-v"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "of the vertices have at most two out-arcs")) << r.out;
  // Few hops: auto leaves it whole (contraction saves rounds, and there are few).
  r = run({"--graph", mtx, "--source", "50", "--device", "cpu", "--validate", "-v"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "contract      off (auto: hop diameter estimate")) << r.out;
}

// --cache keeps the contraction and phast's hierarchy beside the graph's
// cache: written by the first run, read by the next, refused and rebuilt
// (and the report says why) when damaged or when the graph changed; an
// output may not land on them.
TEST_F(AppEndToEnd, ContractionAndHierarchyAreCachedBesideTheGraph) {
  const char* old_config = std::getenv("XDG_CONFIG_HOME");
  const std::string saved = old_config ? old_config : "";
  ::setenv("XDG_CONFIG_HOME", path("config").c_str(), 1);
  const auto chains = [](int heavy) {
    std::string text = "%%MatrixMarket matrix coordinate integer symmetric\n40 40 42\n1 2 3\n2 3 4\n3 1 5\n";
    text += "1 4 " + std::to_string(heavy) + "\n";
    for (int v = 4; v < 22; ++v) text += std::to_string(v) + " " + std::to_string(v + 1) + " " + std::to_string(1 + v % 5) + "\n";
    text += "22 2 2\n3 23 1\n";
    for (int v = 23; v < 40; ++v) text += std::to_string(v) + " " + std::to_string(v + 1) + " " + std::to_string(1 + v % 3) + "\n";
    text += "40 1 7\n";
    return text;
  };
  const std::string mtx = path("roads.mtx"), json = path("roads.json");
  const std::string contraction = path("roads.mtx.contraction.cache"), hierarchy = path("roads.mtx.hierarchy.cache");
  write_text(mtx, chains(2));
  const std::vector<std::string> contracted = {"--graph", mtx, "--cache", "--source", "30", "--device", "cpu",
                                               "--strategy", "delta-stepping", "--contract", "on", "--validate",
                                               "-v", "--json", json};
  Result r = run(contracted);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "cache: wrote " + contraction)) << r.out;
  EXPECT_FALSE(read_json(json)["contraction"]["from_cache"].get<bool>());
  ASSERT_TRUE(fs::exists(contraction));
  r = run(contracted);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "ms to read from the cache")) << r.out;
  EXPECT_TRUE(contains(r.out, "validation    passed")) << r.out;
  nlohmann::json j = read_json(json);
  EXPECT_TRUE(j["contraction"]["from_cache"].get<bool>());
  EXPECT_EQ(j["contraction"]["cache"].get<std::string>(), "read " + contraction);
  // phast's hierarchy: built and written, then read.
  const std::vector<std::string> phast = {"--graph", mtx, "--cache", "--random-sources", "4", "--device", "cpu",
                                          "--strategy", "phast-cpu", "--batch", "1", "--validate", "--json", json};
  r = run(phast);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(read_json(json)["contraction"]["hierarchy"]["from_cache"].get<bool>());
  EXPECT_TRUE(fs::exists(hierarchy));
  r = run(phast);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "validation    passed: 4 result(s)")) << r.out;
  EXPECT_TRUE(read_json(json)["contraction"]["hierarchy"]["from_cache"].get<bool>());
  // One byte changed: refused, rebuilt, rewritten, still exact.
  {
    std::fstream f(contraction, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x7f');
  }
  r = run(contracted);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "cache refused: its seal does not match")) << r.out;
  EXPECT_TRUE(contains(r.out, "validation    passed")) << r.out;
  EXPECT_FALSE(read_json(json)["contraction"]["from_cache"].get<bool>());
  r = run(contracted);
  EXPECT_TRUE(read_json(json)["contraction"]["from_cache"].get<bool>()) << r.out;
  // The graph changed (one weight): the graph's cache and the contraction's
  // are both rebuilt, and the answers follow the new weights.
  write_text(mtx, chains(9));
  r = run(contracted);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "cache refused: built from another graph")) << r.out;
  EXPECT_TRUE(contains(r.out, "validation    passed")) << r.out;
  // An output over the cache would destroy it.
  r = run({"--graph", mtx, "--cache", "--device", "cpu", "--output", contraction});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "the contraction's")) << r.err;
  if (old_config) ::setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
  else ::unsetenv("XDG_CONFIG_HOME");
}
