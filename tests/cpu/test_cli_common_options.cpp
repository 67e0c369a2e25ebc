// The options every front end shares (src/cli/common_options.hpp): each
// option's parsing, defaults and limits, every rejection's message, the old
// names, strict parsing, and cpu_sssp_bench's parser on top of them.
// tests/cpu/test_app_common_options.cpp holds sssp and sssp bench to the
// same results (it needs the CUDA build).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/common_options.hpp"
#include "cpu_sssp_bench_options.hpp"

using cli::Common;
using cli::CommonOptions;
using cli::FrontEnd;

namespace {

// A front end that takes every common option without limits.
FrontEnd every_option() {
  FrontEnd fe;
  fe.options = {Common::Graph,   Common::Generate, Common::Undirected, Common::Weights, Common::Seed,
                Common::Source,  Common::RandomSources, Common::SourcesFile, Common::Threads, Common::Runs, Common::Delta,
                Common::DeltaC,  Common::Buckets, Common::Predecessors, Common::Json};
  fe.default_delta_c = "32";
  return fe;
}

std::vector<const char*> argv_of(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"prog"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

CommonOptions parse(const FrontEnd& fe, std::initializer_list<const char*> args) {
  const std::vector<const char*> argv = argv_of(args);
  const auto vm = cli::parse_command_line(static_cast<int>(argv.size()), argv.data(),
                                          cli::common_options_description(fe).add(cli::alias_options_description(fe)));
  return cli::read_common_options(vm, fe);
}

// The UsageError message parsing `args` gives ("" if it parses).
std::string rejection(const FrontEnd& fe, std::initializer_list<const char*> args) {
  try {
    parse(fe, args);
  } catch (const cli::UsageError& e) {
    return e.what();
  }
  return "";
}

std::string cpu_bench_rejection(std::initializer_list<const char*> args) {
  const std::vector<const char*> argv = argv_of(args);
  try {
    cpu_bench::parse_cpu_bench_options(static_cast<int>(argv.size()), argv.data(), 8);
  } catch (const cli::UsageError& e) {
    return e.what();
  }
  return "";
}

cpu_bench::CpuBenchOptions cpu_bench_parse(std::initializer_list<const char*> args, int max_threads = 8) {
  const std::vector<const char*> argv = argv_of(args);
  return cpu_bench::parse_cpu_bench_options(static_cast<int>(argv.size()), argv.data(), max_threads);
}

}  // namespace

TEST(CommonOptions, ParsesEveryOption) {
  const CommonOptions o =
      parse(every_option(), {"--graph", "a.mtx,b.gr@unit", "-g", "dir@x/c.el", "--generate", "grid:4:5",
                             "--generate", "rmat:6:4,urand:100:3", "--undirected", "--weights", "random:5:9",
                             "--seed", "42", "--source", "1,5", "-s", "7", "--threads", "1,3", "--runs", "4",
                             "--delta", "2.5,10", "--delta-c", "0.5,8", "--buckets", "32", "--predecessors",
                             "--json", "r.json"});
  ASSERT_EQ(o.graphs.size(), 3u);
  EXPECT_EQ(o.graphs[0].path, "a.mtx");
  EXPECT_EQ(o.graphs[0].weights, "random:5:9");  // --weights applies to files
  EXPECT_FALSE(o.graphs[0].own_weights);
  EXPECT_EQ(o.graphs[1].path, "b.gr");
  EXPECT_EQ(o.graphs[1].weights, "unit");  // FILE@RULE: its own rule
  EXPECT_TRUE(o.graphs[1].own_weights);
  EXPECT_EQ(o.graphs[2].path, "dir@x/c.el");  // an '@' in a directory name is not a rule
  EXPECT_EQ(o.generate, (std::vector<std::string>{"grid:4:5", "rmat:6:4", "urand:100:3"}));
  EXPECT_FALSE(o.generate_defaulted);
  EXPECT_TRUE(o.undirected);
  EXPECT_EQ(o.weights, "random:5:9");
  EXPECT_EQ(o.seed, 42u);
  EXPECT_EQ(o.sources, (std::vector<std::uint64_t>{1, 5, 7}));
  EXPECT_EQ(o.threads, (std::vector<int>{1, 3}));
  EXPECT_EQ(o.runs, 4u);
  EXPECT_TRUE(o.delta_given);
  EXPECT_EQ(o.deltas, (std::vector<double>{2.5, 10}));
  EXPECT_EQ(o.delta_cs, (std::vector<double>{0.5, 8}));
  EXPECT_EQ(o.buckets, 32u);
  EXPECT_TRUE(o.predecessors);
  EXPECT_EQ(o.json_path, "r.json");
}

TEST(CommonOptions, DefaultsComeFromTheFrontEnd) {
  FrontEnd fe = every_option();
  fe.default_generate = "rmat:8:4,grid:3:3";
  fe.default_runs = 5;
  fe.default_threads = "1,2";
  fe.default_delta_c = "0.5,2";
  const CommonOptions o = parse(fe, {});
  EXPECT_EQ(o.generate, (std::vector<std::string>{"rmat:8:4", "grid:3:3"}));
  EXPECT_TRUE(o.generate_defaulted);
  EXPECT_TRUE(o.graphs.empty());
  EXPECT_EQ(o.runs, 5u);
  EXPECT_EQ(o.threads, (std::vector<int>{1, 2}));
  EXPECT_EQ(o.delta_cs, (std::vector<double>{0.5, 2}));
  EXPECT_EQ(o.weights, "file");
  EXPECT_EQ(o.seed, 1u);
  EXPECT_EQ(o.buckets, 10u);
  EXPECT_FALSE(o.delta_given);
  EXPECT_TRUE(o.deltas.empty());
  EXPECT_FALSE(o.undirected || o.predecessors);
  EXPECT_TRUE(o.sources.empty());
  EXPECT_EQ(o.random_sources, 0u);
  EXPECT_TRUE(o.json_path.empty());

  // A graph given: no default graph; "--delta auto" counts as given.
  const CommonOptions g = parse(fe, {"--graph", "x.mtx", "--delta", "auto"});
  EXPECT_TRUE(g.generate.empty());
  EXPECT_FALSE(g.generate_defaulted);
  EXPECT_TRUE(g.delta_given);
  EXPECT_TRUE(g.deltas.empty());
}

TEST(CommonOptions, BadValuesAreRefusedNamingTheOption) {
  const FrontEnd fe = every_option();
  const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
      {{"--seed", "-1"}, "--seed: '-1' is not a non-negative integer"},
      {{"--seed", "99999999999999999999"}, "--seed: '99999999999999999999' is too large"},
      {{"--runs", "0"}, "--runs: 0 is out of range (1 to 100000)"},
      {{"--runs", "2x"}, "--runs: '2x' is not a non-negative integer"},
      {{"--threads", "1,,2"}, "--threads: '' is not a non-negative integer"},
      {{"--threads", "5000"}, "--threads: 5000 is out of range (0 to 4096)"},
      {{"--buckets", "1"}, "--buckets: 1 is out of range (2 to 4096)"},
      {{"--delta", "0"}, "--delta: '0' is not 'auto' or a positive number"},
      {{"--delta", "nan"}, "--delta: 'nan' is not 'auto' or a positive number"},
      {{"--delta", "auto,5"}, "--delta: 'auto' cannot be combined with values ('auto,5')"},
      {{"--delta-c", "1,-2"}, "--delta-c: '-2' is not a positive number"},
      {{"--source", "x"}, "--source: 'x' is not a non-negative integer"},
      {{"--random-sources", "0"}, "--random-sources: 0 is out of range (1 to 1048576)"},
      {{"--source", "1", "--random-sources", "2"}, "--source and --random-sources conflict: give one of them"},
      {{"--json", ""}, "--json: empty file name"},
      {{"--graph", ""}, "--graph: empty file name"},
      {{"--graph", "g.mtx@heavy"},
       "--graph g.mtx@heavy: 'heavy' after '@' is not a weight rule (expected file, unit, random or random:LO:HI)"},
      {{"--generate", ""}, "--generate: empty generator spec"},
      {{"-g", "rmat:8:4"}, "--graph rmat:8:4: no such file; a generator spec goes with --generate"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<const char*> argv{"prog"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::string got;
    try {
      const auto vm = cli::parse_command_line(static_cast<int>(argv.size()), argv.data(),
                                              cli::common_options_description(fe));
      cli::read_common_options(vm, fe);
    } catch (const cli::UsageError& e) {
      got = e.what();
    }
    EXPECT_EQ(got, message) << args.front() << " " << args.back();
  }
  // Messages that come from the graph library's own checks.
  EXPECT_EQ(rejection(fe, {"--weights", "heavy"}).rfind("--weights: bad weight rule 'heavy'", 0), 0u);
  EXPECT_EQ(rejection(fe, {"--generate", "rmat:x:16"}).rfind("--generate: bad generator spec 'rmat:x:16'", 0), 0u);
}

TEST(CommonOptions, FrontEndLimits) {
  FrontEnd one = every_option();
  one.max_graphs = 1;
  one.max_sources = 1;
  one.max_thread_counts = 1;
  one.max_deltas = 1;
  EXPECT_EQ(rejection(one, {"--graph", "a.mtx", "--generate", "grid:3:3"}),
            "--graph and --generate conflict: give one of them");
  EXPECT_EQ(rejection(one, {"--graph", "a.mtx,b.mtx"}), "--graph: this command takes one graph, got 2");
  EXPECT_EQ(rejection(one, {"--generate", "grid:3:3", "--generate", "grid:4:4"}),
            "--generate: this command takes one graph, got 2");
  EXPECT_EQ(rejection(one, {"--source", "1,2"}), "--source: this command takes one source, got 2");
  EXPECT_EQ(rejection(one, {"--threads", "1,2"}), "--threads: this command takes one thread count, got 2");
  EXPECT_EQ(rejection(one, {"--delta", "1,2"}), "--delta: this command takes one delta, got 2");
  // Without limits the same lines parse.
  const FrontEnd many = every_option();
  EXPECT_EQ(rejection(many, {"--graph", "a.mtx", "--generate", "grid:3:3"}), "");
  EXPECT_EQ(rejection(many, {"--delta", "1,2", "--threads", "1,2", "--source", "1,2"}), "");
}

TEST(CommonOptions, OptionsAFrontEndDoesNotTakeAreUnknownToIt) {
  FrontEnd fe;
  fe.options = {Common::Seed, Common::Runs};
  EXPECT_EQ(rejection(fe, {"--seed", "3", "--runs", "2"}), "");
  EXPECT_NE(rejection(fe, {"--buckets", "4"}).find("unrecognised option '--buckets'"), std::string::npos)
      << rejection(fe, {"--buckets", "4"});
  std::ostringstream help;
  help << cli::common_options_description(fe);
  EXPECT_NE(help.str().find("--seed"), std::string::npos);
  EXPECT_EQ(help.str().find("--buckets"), std::string::npos);
}

TEST(CommonOptions, ParsingIsStrict) {
  const FrontEnd fe = every_option();
  EXPECT_NE(rejection(fe, {"--see", "3"}).find("unrecognised option '--see'"), std::string::npos);  // no abbreviations
  EXPECT_NE(rejection(fe, {"stray"}), "");                                                       // no positionals
  EXPECT_NE(rejection(fe, {"--seed", "1", "--seed", "2"}).find("cannot be specified more than once"), std::string::npos);
}

TEST(CommonOptions, OldNamesStillWorkButNotTogetherWithTheNewOnes) {
  FrontEnd fe = every_option();
  // "--sources" is sssp bench's old name of --random-sources, so a front end
  // that keeps it cannot also take --sources FILE.
  fe.options.erase(std::find(fe.options.begin(), fe.options.end(), Common::SourcesFile));
  fe.aliases = {{Common::RandomSources, "sources"}, {Common::Threads, "cpu-threads"}};
  const CommonOptions o = parse(fe, {"--sources", "4", "--cpu-threads", "6"});
  EXPECT_EQ(o.random_sources, 4u);
  EXPECT_EQ(o.threads, std::vector<int>{6});
  EXPECT_EQ(rejection(fe, {"--sources", "4", "--random-sources", "4"}),
            "--sources is the old name of --random-sources: give one of them");
  EXPECT_EQ(rejection(fe, {"--cpu-threads", "0x"}), "--threads: '0x' is not a non-negative integer");
  std::ostringstream help;
  help << cli::common_options_description(fe);
  EXPECT_EQ(help.str().find("--cpu-threads"), std::string::npos);  // hidden from --help
}

TEST(CommonOptions, HelpStatesTheFrontEndsDefaults) {
  FrontEnd fe = every_option();
  fe.default_runs = 7;
  fe.default_threads = "1,2,16";
  fe.default_delta_c = "0.25,4";
  std::ostringstream help;
  help << cli::common_options_description(fe);
  const std::string text = help.str();
  EXPECT_NE(text.find("(default 7)"), std::string::npos) << text;
  EXPECT_NE(text.find("(default 1,2,16)"), std::string::npos) << text;
  EXPECT_NE(text.find("(default 0.25,4)"), std::string::npos) << text;
}

// cpu_sssp_bench parses the common options through the shared code: the
// same argv gives the same values as the generic front end above.
TEST(CpuBenchOptions, CommonOptionsAsTheSharedParserReadsThem) {
  const auto bench = cpu_bench_parse({"--graph", "a.mtx@unit", "--generate", "grid:4:4", "--undirected", "--weights",
                                      "random:2:3", "--seed", "9", "--source", "3", "--threads", "2,4", "--runs",
                                      "3", "--delta", "5,7", "--delta-c", "1,2", "--json", "o.json"});
  const CommonOptions shared = parse(every_option(), {"--graph", "a.mtx@unit", "--generate", "grid:4:4",
                                                      "--undirected", "--weights", "random:2:3", "--seed", "9",
                                                      "--source", "3", "--threads", "2,4", "--runs", "3", "--delta",
                                                      "5,7", "--delta-c", "1,2", "--json", "o.json"});
  const CommonOptions& c = bench.common;
  ASSERT_EQ(c.graphs.size(), 1u);
  EXPECT_EQ(c.graphs[0].path, shared.graphs[0].path);
  EXPECT_EQ(c.graphs[0].weights, shared.graphs[0].weights);
  EXPECT_EQ(c.generate, shared.generate);
  EXPECT_EQ(c.undirected, shared.undirected);
  EXPECT_EQ(c.weights, shared.weights);
  EXPECT_EQ(c.seed, shared.seed);
  EXPECT_EQ(c.sources, shared.sources);
  EXPECT_EQ(c.threads, shared.threads);
  EXPECT_EQ(c.runs, shared.runs);
  EXPECT_EQ(c.deltas, shared.deltas);
  EXPECT_EQ(c.delta_cs, shared.delta_cs);
  EXPECT_EQ(c.json_path, shared.json_path);
  EXPECT_EQ(bench.threads, (std::vector<int>{2, 4}));
}

TEST(CpuBenchOptions, ItsDefaultsSweepAndLimits) {
  const auto d = cpu_bench_parse({}, 16);
  EXPECT_EQ(d.common.generate, (std::vector<std::string>{"rmat:16:16", "grid:256:256"}));
  EXPECT_EQ(d.common.runs, 5u);
  EXPECT_EQ(d.threads, (std::vector<int>{1, 2, 16}));
  EXPECT_EQ(d.common.delta_cs, (std::vector<double>{0.125, 0.5, 2, 8, 32}));
  EXPECT_TRUE(d.common.sources.empty());  // a seeded random source

  // 0 is all cores, and a count listed twice is measured once.
  EXPECT_EQ(cpu_bench_parse({"--threads", "0,2,16"}, 16).threads, (std::vector<int>{16, 2}));

  const auto sweep = cpu_bench_parse({"--sweep"});
  ASSERT_EQ(sweep.common.delta_cs.size(), 14u);
  EXPECT_EQ(sweep.common.delta_cs.front(), 1.0 / 32);
  EXPECT_EQ(sweep.common.delta_cs.back(), 256.0);

  EXPECT_EQ(cpu_bench_rejection({"--sweep", "--delta", "4"}), "--sweep needs --delta auto");
  EXPECT_EQ(cpu_bench_rejection({"--sweep", "--delta-c", "4"}),
            "--sweep and --delta-c conflict: the sweep chooses the c values");
  EXPECT_EQ(cpu_bench_rejection({"--source", "1,2"}), "--source: this command takes one source, got 2");
  EXPECT_EQ(cpu_bench_rejection({"--runs", "0"}), "--runs: 0 is out of range (1 to 100000)");
  EXPECT_NE(cpu_bench_rejection({"--buckets", "4"}), "");  // a GPU option it does not take
  EXPECT_TRUE(cpu_bench_parse({"--help"}).help);
}

TEST(CommonOptions, SourcesFromAFile) {
  const FrontEnd fe = every_option();
  // Named by process: the suite may run in several checkouts at once.
  const std::string tag = "_" + std::to_string(::getpid()) + ".txt";
  const std::string path = ::testing::TempDir() + "cli_sources" + tag;
  std::ofstream(path) << "# depots\n3\n\n  17\t\n# customers\n5\n3\n";
  const CommonOptions o = parse(fe, {"--sources", path.c_str()});
  EXPECT_EQ(o.sources, (std::vector<std::uint64_t>{3, 17, 5, 3}));  // in file order, repeats kept
  EXPECT_EQ(o.sources_file, path);

  const std::string bad = ::testing::TempDir() + "cli_sources_bad" + tag;
  std::ofstream(bad) << "3\n4 5\n";
  EXPECT_EQ(rejection(fe, {"--sources", bad.c_str()}), bad + ":2: '4 5' is not a vertex id (--sources)");
  const std::string negative = ::testing::TempDir() + "cli_sources_negative" + tag;
  std::ofstream(negative) << "# fine\n-1\n";
  EXPECT_EQ(rejection(fe, {"--sources", negative.c_str()}), negative + ":2: '-1' is not a vertex id (--sources)");
  const std::string empty = ::testing::TempDir() + "cli_sources_empty" + tag;
  std::ofstream(empty) << "# nothing\n\n";
  EXPECT_EQ(rejection(fe, {"--sources", empty.c_str()}), "--sources: " + empty + " names no source");
  EXPECT_EQ(rejection(fe, {"--sources", "/nonexistent/cli_sources.txt"}),
            "--sources: cannot open /nonexistent/cli_sources.txt");
  EXPECT_EQ(rejection(fe, {"--sources", path.c_str(), "--source", "1"}),
            "--source and --sources conflict: give one of them");
  EXPECT_EQ(rejection(fe, {"--sources", path.c_str(), "--random-sources", "2"}),
            "--sources and --random-sources conflict: give one of them");
  FrontEnd one = fe;
  one.max_sources = 1;
  EXPECT_NE(rejection(one, {"--sources", path.c_str()}), "");  // four ids where one is allowed
}

TEST(CommonOptions, AnOldNameCannotShadowAnOption) {
  FrontEnd fe = every_option();  // takes --sources FILE
  fe.aliases = {{Common::RandomSources, "sources"}};
  EXPECT_THROW(cli::alias_options_description(fe), std::logic_error);
}
