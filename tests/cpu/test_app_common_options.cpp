// One option, one meaning: every common option (src/cli/common_options.hpp)
// given to `sssp`, `sssp bench` (= sssp_bench) and `cpu_sssp_bench` parses to
// the same value in each front end that takes it, and a bad value is refused
// by each with the same message. Also the bench mode's dispatch from `sssp`.
// Needs the CUDA build (sssp_app); runs without a GPU.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "app/app.hpp"
#include "app/bench_options.hpp"
#include "app/options.hpp"
#include "cpu_sssp_bench_options.hpp"

using cli::Common;
using cli::CommonOptions;

namespace {

enum class FrontEndId { Sssp, Bench, CpuBench };
const char* name_of(FrontEndId f) {
  return f == FrontEndId::Sssp ? "sssp" : f == FrontEndId::Bench ? "sssp bench" : "cpu_sssp_bench";
}
constexpr FrontEndId kFrontEnds[] = {FrontEndId::Sssp, FrontEndId::Bench, FrontEndId::CpuBench};

cli::FrontEnd front_end(FrontEndId f) {
  switch (f) {
    case FrontEndId::Sssp: return app::sssp_front_end();
    case FrontEndId::Bench: return app::bench_front_end();
    case FrontEndId::CpuBench: return cpu_bench::cpu_bench_front_end(8);
  }
  return {};
}

// sssp keeps its options in AppOptions' own fields; this is their common view.
CommonOptions common_of(const app::AppOptions& a) {
  CommonOptions c;
  if (!a.graph_path.empty()) c.graphs.push_back({a.graph_path, a.weights, false});
  if (a.generated()) c.generate = {a.generate_spec};
  c.undirected = a.undirected;
  c.weights = a.weights;
  c.seed = a.seed;
  c.sources = a.sources;
  c.random_sources = a.random_sources;
  c.threads = {a.threads};
  c.runs = a.runs;
  if (!a.delta_auto) c.deltas = {a.delta};
  c.buckets = a.buckets;
  c.predecessors = a.predecessors;
  c.json_path = a.json_path;
  return c;
}

// The common options as front end `f` parses `args`; throws its UsageError.
CommonOptions parse(FrontEndId f, const std::vector<const char*>& args) {
  std::vector<const char*> argv{name_of(f)};
  argv.insert(argv.end(), args.begin(), args.end());
  const int argc = static_cast<int>(argv.size());
  switch (f) {
    case FrontEndId::Sssp: return common_of(app::parse_options(argc, argv.data()));
    case FrontEndId::Bench: return app::parse_bench_options(argc, argv.data()).common;
    case FrontEndId::CpuBench: return cpu_bench::parse_cpu_bench_options(argc, argv.data(), 8).common;
  }
  return {};
}

std::string join(const std::vector<double>& values) {
  std::ostringstream s;
  for (const double v : values) s << v << ";";
  return s.str();
}

struct OptionCase {
  Common option;
  std::vector<const char*> good;  // parses in every front end that takes the option
  std::function<std::string(const CommonOptions&)> value;
  std::string expected;
  std::vector<const char*> bad;  // refused by every front end that takes it
};

// A file naming one source (vertex 7), for --sources.
const char* one_source_file() {
  static const std::string path = [] {
    // Named by process: the suite may run in several checkouts at once.
    const std::string p = ::testing::TempDir() + "common_options_sources_" + std::to_string(::getpid()) + ".txt";
    std::ofstream(p) << "# one source\n\n 7 \n";
    return p;
  }();
  return path.c_str();
}

std::vector<OptionCase> cases() {
  return {
      {Common::Graph, {"--graph", "g.mtx@unit"},
       [](const CommonOptions& c) { return c.graphs.at(0).path + " " + c.graphs.at(0).weights; }, "g.mtx unit",
       {"--graph", "g.mtx@heavy"}},
      {Common::Generate, {"--generate", "grid:4:5"}, [](const CommonOptions& c) { return c.generate.at(0); },
       "grid:4:5", {"--generate", "grid:4"}},
      {Common::Undirected, {"--graph", "g.mtx", "--undirected"},
       [](const CommonOptions& c) { return std::to_string(c.undirected); }, "1", {"--undirected=yes"}},
      {Common::Weights, {"--weights", "random:3:4"}, [](const CommonOptions& c) { return c.weights; }, "random:3:4",
       {"--weights", "random:4:3"}},
      {Common::Seed, {"--seed", "77"}, [](const CommonOptions& c) { return std::to_string(c.seed); }, "77",
       {"--seed", "-1"}},
      {Common::Source, {"--source", "3"}, [](const CommonOptions& c) { return std::to_string(c.sources.at(0)); },
       "3", {"--source", "3x"}},
      {Common::SourcesFile, {"--sources", one_source_file()},
       [](const CommonOptions& c) { return std::to_string(c.sources.at(0)); }, "7",
       {"--sources", "/nonexistent/common_options_sources.txt"}},
      {Common::RandomSources, {"--random-sources", "4"},
       [](const CommonOptions& c) { return std::to_string(c.random_sources); }, "4", {"--random-sources", "0"}},
      {Common::Threads, {"--threads", "3"}, [](const CommonOptions& c) { return std::to_string(c.threads.at(0)); },
       "3", {"--threads", "-2"}},
      {Common::Runs, {"--runs", "9"}, [](const CommonOptions& c) { return std::to_string(c.runs); }, "9",
       {"--runs", "0"}},
      {Common::Delta, {"--delta", "12.5"}, [](const CommonOptions& c) { return join(c.deltas); }, "12.5;",
       {"--delta", "-3"}},
      {Common::DeltaC, {"--delta-c", "2,8"}, [](const CommonOptions& c) { return join(c.delta_cs); }, "2;8;",
       {"--delta-c", "2,0"}},
      {Common::Buckets, {"--buckets", "64"}, [](const CommonOptions& c) { return std::to_string(c.buckets); }, "64",
       {"--buckets", "5000"}},
      {Common::Predecessors, {"--predecessors"},
       [](const CommonOptions& c) { return std::to_string(c.predecessors); }, "1", {"--predecessors=1"}},
      {Common::Json, {"--json", "r.json"}, [](const CommonOptions& c) { return c.json_path; }, "r.json",
       {"--json", ""}},
  };
}

}  // namespace

TEST(CommonOptionsAcrossFrontEnds, EachOptionMeansTheSameEverywhere) {
  for (const OptionCase& c : cases()) {
    int takers = 0;
    for (const FrontEndId f : kFrontEnds) {
      if (!front_end(f).takes(c.option)) continue;
      ++takers;
      try {
        EXPECT_EQ(c.value(parse(f, c.good)), c.expected) << name_of(f) << " --" << cli::option_name(c.option);
      } catch (const cli::UsageError& e) {
        ADD_FAILURE() << name_of(f) << " refused " << c.good.front() << ": " << e.what();
      }
    }
    // Common means shared: at least two front ends take it.
    EXPECT_GE(takers, 2) << "--" << cli::option_name(c.option);
  }
}

TEST(CommonOptionsAcrossFrontEnds, EachBadValueIsRefusedWithTheSameMessage) {
  for (const OptionCase& c : cases()) {
    std::string first_message;
    for (const FrontEndId f : kFrontEnds) {
      if (!front_end(f).takes(c.option)) continue;
      std::string message;
      try {
        parse(f, c.bad);
      } catch (const cli::UsageError& e) {
        message = e.what();
      }
      EXPECT_FALSE(message.empty()) << name_of(f) << " accepted " << c.bad.front();
      if (first_message.empty()) first_message = message;
      EXPECT_EQ(message, first_message) << name_of(f) << " --" << cli::option_name(c.option);
    }
  }
}

TEST(CommonOptionsAcrossFrontEnds, DefaultsDifferOnlyWhereTheFrontEndSaysSo) {
  const CommonOptions sssp = parse(FrontEndId::Sssp, {});
  const CommonOptions bench = parse(FrontEndId::Bench, {});
  const CommonOptions cpu = parse(FrontEndId::CpuBench, {});
  for (const CommonOptions* c : {&sssp, &bench, &cpu}) {
    EXPECT_EQ(c->seed, 1u);
    EXPECT_EQ(c->weights, "file");
    EXPECT_EQ(c->buckets, 10u);
    EXPECT_TRUE(c->deltas.empty());
  }
  EXPECT_EQ(sssp.runs, 1u);  // a solve runs once ...
  EXPECT_EQ(bench.runs, 5u);  // ... a benchmark takes a median
  EXPECT_EQ(cpu.runs, 5u);
}

TEST(BenchMode, OldNamesOfTheBenchStillParse) {
  const std::vector<const char*> argv{"sssp_bench", "--sources", "3", "--cpu-threads", "2", "--strategies",
                                      "near-far,bellman-ford"};
  const app::BenchOptions o = app::parse_bench_options(static_cast<int>(argv.size()), argv.data());
  EXPECT_EQ(o.sources, 3u);
  EXPECT_EQ(o.common.threads, std::vector<int>{2});
  EXPECT_EQ(o.strategies, (std::vector<sssp::Strategy>{sssp::Strategy::NearFar, sssp::Strategy::BellmanFord}));
}

TEST(BenchMode, SsspBenchRunsTheBenchmarkMode) {
  std::ostringstream out, err;
  const std::vector<const char*> help{"sssp", "bench", "--help"};
  EXPECT_EQ(app::run_sssp(static_cast<int>(help.size()), help.data(), out, err), 0);
  EXPECT_NE(out.str().find("sssp bench options"), std::string::npos) << out.str();

  std::ostringstream out2, err2;
  const std::vector<const char*> bad{"sssp", "bench", "--runs", "0"};
  EXPECT_EQ(app::run_sssp(static_cast<int>(bad.size()), bad.data(), out2, err2), 2);
  EXPECT_EQ(err2.str(), "sssp bench: --runs: 0 is out of range (1 to 100000)\n(try --help)\n");

  // `sssp` itself still refuses a stray word.
  std::ostringstream out3, err3;
  const std::vector<const char*> stray{"sssp", "--runs", "1", "bench"};
  EXPECT_EQ(app::run_sssp(static_cast<int>(stray.size()), stray.data(), out3, err3), 2);
}
