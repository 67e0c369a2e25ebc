// The sssp command line: option parsing, every rejection, device and strategy
// resolution, byte sizes, delta sweeps, and user id <-> vertex mapping.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "app/options.hpp"
#include "app/sources.hpp"

using app::Algorithm;
using app::AppOptions;
using app::DeviceKind;
using app::DeviceRequest;
using app::UsageError;

namespace {

AppOptions parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"sssp"};
  argv.insert(argv.end(), args.begin(), args.end());
  return app::parse_options(static_cast<int>(argv.size()), argv.data());
}

// The message of the UsageError that parsing `args` throws ("" if none).
std::string rejection(const std::vector<const char*>& args) {
  try {
    std::vector<const char*> argv{"sssp"};
    argv.insert(argv.end(), args.begin(), args.end());
    app::parse_options(static_cast<int>(argv.size()), argv.data());
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

// CSR offsets of a graph whose vertex v has degrees[v] out-arcs.
std::vector<graph::edge_offset> offsets_for(const std::vector<int>& degrees) {
  std::vector<graph::edge_offset> offsets{0};
  for (const int d : degrees) offsets.push_back(offsets.back() + static_cast<graph::edge_offset>(d));
  return offsets;
}

}  // namespace

TEST(AppOptions, DefaultsGenerateRmat16AndRunOnce) {
  const AppOptions o = parse({});
  EXPECT_TRUE(o.generated());
  EXPECT_EQ(o.generate_spec, "rmat:16:16");
  EXPECT_TRUE(o.generate_defaulted);
  EXPECT_EQ(o.device, DeviceRequest::Auto);
  EXPECT_EQ(o.strategies, std::vector<Algorithm>{Algorithm::Auto});  // --strategy auto is the default
  EXPECT_FALSE(o.strategy_all);
  EXPECT_TRUE(o.delta_auto);
  EXPECT_FALSE(o.delta_sweep);
  EXPECT_EQ(o.buckets, 10u);
  EXPECT_EQ(o.runs, 1u);
  EXPECT_EQ(o.threads, 0);
  EXPECT_EQ(o.seed, 1u);
  EXPECT_EQ(o.weights, "file");
  EXPECT_EQ(o.format, "auto");
  EXPECT_FALSE(o.validate || o.predecessors || o.quiet || o.use_cache || o.undirected || o.help);
  EXPECT_TRUE(o.sources.empty());
  EXPECT_EQ(o.random_sources, 0u);
  EXPECT_FALSE(o.path_to.has_value());
  EXPECT_EQ(o.gpu_memory_limit_bytes, 0u);
  EXPECT_EQ(o.load_balance, sssp::LoadBalance::Auto);
  EXPECT_EQ(o.vertex_ordering, sssp::VertexOrdering::Auto);
  EXPECT_EQ(o.command_line, (std::vector<std::string>{"sssp"}));
}

TEST(AppOptions, ParsesEveryOption) {
  const AppOptions o = parse({"--graph", "g.mtx", "--format", "mtx", "--undirected", "--weights", "random:5:9",
                              "--seed", "42", "--cache=/tmp/g.cache", "--source", "1,5", "--source", "7",
                              "--strategy", "near-far,bellman-ford", "--device", "gpu", "--delta", "12.5",
                              "--buckets", "32", "--threads", "3", "--runs", "5", "--validate", "--predecessors",
                              "--path-to", "9", "-o", "d.txt", "--json", "r.json", "--gpu-memory-limit", "2G",
                              "--load-balance", "binned", "-q"});
  EXPECT_FALSE(o.generated());
  EXPECT_EQ(o.graph_path, "g.mtx");
  EXPECT_EQ(o.format, "mtx");
  EXPECT_TRUE(o.undirected);
  EXPECT_EQ(o.weights, "random:5:9");
  EXPECT_EQ(o.seed, 42u);
  EXPECT_TRUE(o.use_cache);
  EXPECT_EQ(o.cache_path, "/tmp/g.cache");
  EXPECT_EQ(o.sources, (std::vector<std::uint64_t>{1, 5, 7}));
  EXPECT_EQ(o.strategies, (std::vector<Algorithm>{Algorithm::NearFar, Algorithm::BellmanFord}));
  EXPECT_EQ(o.device, DeviceRequest::Gpu);
  EXPECT_FALSE(o.delta_auto);
  EXPECT_DOUBLE_EQ(o.delta, 12.5);
  EXPECT_EQ(o.buckets, 32u);
  EXPECT_EQ(o.threads, 3);
  EXPECT_EQ(o.runs, 5u);
  EXPECT_TRUE(o.validate && o.predecessors && o.quiet);
  EXPECT_EQ(o.path_to, std::optional<std::uint64_t>(9));
  EXPECT_EQ(o.output_path, "d.txt");
  EXPECT_EQ(o.json_path, "r.json");
  EXPECT_EQ(o.gpu_memory_limit_bytes, 2ull << 30);
  EXPECT_EQ(o.load_balance, sssp::LoadBalance::Binned);
  EXPECT_EQ(parse({"--load-balance", "three-stage"}).load_balance, sssp::LoadBalance::ThreeStage);
  EXPECT_EQ(parse({"--load-balance", "merge-path"}).load_balance, sssp::LoadBalance::MergePath);
  EXPECT_EQ(parse({"--vertex-order", "input"}).vertex_ordering, sssp::VertexOrdering::Input);
  EXPECT_EQ(parse({"--vertex-order", "degree"}).vertex_ordering, sssp::VertexOrdering::Degree);
  EXPECT_EQ(parse({"--vertex-order", "rcm"}).vertex_ordering, sssp::VertexOrdering::Rcm);
  EXPECT_EQ(parse({"--vertex-order", "auto"}).vertex_ordering, sssp::VertexOrdering::Auto);
  EXPECT_EQ(o.command_line.size(), 40u);  // argv kept whole for the JSON record
  EXPECT_EQ(o.command_line.back(), "-q");
}

TEST(AppOptions, CachePathIsOptional) {
  AppOptions o = parse({"--graph", "g.gr", "--cache", "--validate"});
  EXPECT_TRUE(o.use_cache);
  EXPECT_TRUE(o.cache_path.empty());  // beside the input
  EXPECT_TRUE(o.validate);
  o = parse({"--graph", "g.gr", "--cache", "g.bin"});
  EXPECT_EQ(o.cache_path, "g.bin");
  o = parse({"--graph", "g.gr", "--cache=g.bin"});
  EXPECT_EQ(o.cache_path, "g.bin");
}

TEST(AppOptions, HelpListsEveryOptionAndExamples) {
  EXPECT_TRUE(parse({"--help"}).help);
  EXPECT_TRUE(parse({"-h", "--runs", "0"}).help);  // help wins over later checks
  EXPECT_TRUE(parse({"--help-all"}).help_all);
  EXPECT_TRUE(parse({"--version"}).version);
  // --help: one screen of what a newcomer needs; --help-all: every option.
  const std::string help = app::help_text();
  EXPECT_LE(std::count(help.begin(), help.end(), '\n'), 40) << help;
  for (const char* name : {"--graph", "--generate", "--format", "--source", "--sources", "--strategy", "--validate",
                           "--output", "--predecessors", "--path-to", "--json", "--runs", "--verbose", "--quiet",
                           "--help-all", "--version"})
    EXPECT_NE(help.find(name), std::string::npos) << name;
  EXPECT_NE(help.find("Examples:"), std::string::npos);
  EXPECT_NE(help.find("Exit status"), std::string::npos);
  const std::string all = app::help_all_text();
  for (const char* name : {"--graph", "--generate", "--format", "--undirected", "--weights", "--seed", "--cache",
                           "--source", "--random-sources", "--strategy", "--device", "--delta", "--delta-sweep",
                           "--buckets", "--threads", "--runs", "--validate", "--predecessors", "--path-to",
                           "--output", "--json", "--gpu-memory-limit", "--load-balance", "--vertex-order",
                           "--quiet", "--verbose", "--json-distances", "--targets", "--batch", "--contract"})
    EXPECT_NE(all.find(name), std::string::npos) << name;
  for (const char* group : {"\nInput:\n", "\nQuery:\n", "\nOutput:\n", "\nGPU tuning:\n"})
    EXPECT_NE(all.find(group), std::string::npos) << group;
  EXPECT_EQ(all.find("\nOther:\n"), std::string::npos) << "an option without a group:\n" << all;
}

TEST(AppOptions, GeneratorSpecIsKeptForTheGenerator) {
  const AppOptions o = parse({"--generate", "grid:4:5"});
  EXPECT_TRUE(o.generated());
  EXPECT_FALSE(o.generate_defaulted);
  EXPECT_EQ(o.generate_spec, "grid:4:5");
}

TEST(AppOptions, RejectsUnknownMalformedAndConflictingOptions) {
  struct Case {
    std::vector<const char*> args;
    const char* expected;  // a piece of the message
  };
  const std::vector<Case> cases = {
      {{"--bogus"}, "bogus"},
      {{"stray"}, "positional"},
      {{"--val"}, "val"},  // no abbreviations
      {{"--runs"}, "runs"},  // missing value
      {{"--graph", "a.mtx", "--generate", "rmat:4:4"}, "conflict"},
      {{"--graph", ""}, "empty"},
      {{"--generate", ""}, "empty"},
      {{"--format", "xls", "--graph", "a.xls"}, "unknown format"},
      {{"--format", "mtx"}, "--format applies to --graph"},
      {{"--cache"}, "--cache applies to --graph"},
      {{"--weights", "heavy"}, "heavy"},
      {{"--weights", "random:9:1"}, "random:9:1"},
      {{"--seed", "x"}, "--seed"},
      {{"--seed", "-1"}, "--seed"},
      {{"--source", "1,x"}, "--source"},
      {{"--source", "1,,2"}, "--source"},
      {{"--source", "-3"}, "--source"},
      {{"--source", "99999999999999999999999"}, "too large"},
      {{"--source", "1", "--random-sources", "2"}, "conflict"},
      {{"--random-sources", "0"}, "out of range"},
      {{"--strategy", "fastest"}, "unknown strategy 'fastest'"},
      {{"--strategy", "all,dijkstra"}, "'all' cannot be combined"},
      {{"--strategy", "dijkstra,dijkstra"}, "listed twice"},
      {{"--strategy", "near-far", "--device", "cpu"}, "needs a GPU"},
      {{"--device", "tpu"}, "unknown device"},
      {{"--delta", "0"}, "--delta"},
      {{"--delta", "-2"}, "--delta"},
      {{"--delta", "abc"}, "--delta"},
      {{"--delta", "nan"}, "--delta"},
      {{"--delta", "inf"}, "--delta"},
      {{"--delta", "5m"}, "--delta"},
      {{"--delta", "3", "--delta-sweep"}, "conflict"},
      {{"--delta", "auto", "--delta-sweep=2x"}, "conflict"},
      {{"--delta-sweep=0x"}, "--delta-sweep"},
      {{"--delta-sweep=1x,,2x"}, "--delta-sweep"},
      {{"--delta-sweep=fast"}, "--delta-sweep"},
      {{"--buckets", "0"}, "out of range"},
      {{"--buckets", "1"}, "out of range"},
      {{"--buckets", "4097"}, "out of range"},
      {{"--runs", "0"}, "out of range"},
      {{"--runs", "-1"}, "--runs"},
      {{"--runs", "1.5"}, "--runs"},
      {{"--threads", "-1"}, "--threads"},
      {{"--threads", "100000"}, "out of range"},
      {{"--path-to", "v7"}, "--path-to"},
      {{"--output", "same.txt", "--json", "same.txt"}, "same file"},
      {{"--output", ""}, "empty"},
      {{"--gpu-memory-limit", "2G", "--device", "cpu"}, "conflicts"},
      {{"--gpu-memory-limit", "lots"}, "gpu-memory-limit"},
      {{"--gpu-memory-limit", "0"}, "at least 1 byte"},
      {{"--gpu-memory-limit", "-1G"}, "gpu-memory-limit"},
      {{"--load-balance", "round-robin"}, "--load-balance: unknown load balance 'round-robin'"},
      {{"--load-balance", "binned", "--device", "cpu"}, "conflicts"},
      {{"--vertex-order", "random"}, "--vertex-order: unknown vertex order 'random'"},
      {{"--vertex-order", "rcm", "--device", "cpu"}, "conflicts"},
  };
  for (const Case& c : cases) {
    std::string args;
    for (const char* a : c.args) args += std::string(a) + " ";
    const std::string message = rejection(c.args);
    EXPECT_FALSE(message.empty()) << "accepted: " << args;
    EXPECT_NE(message.find(c.expected), std::string::npos) << args << "-> " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
  }
}

TEST(AppOptions, ByteSizesUseBinaryUnits) {
  EXPECT_EQ(app::parse_byte_size("1048576", "x"), 1048576u);
  EXPECT_EQ(app::parse_byte_size("64K", "x"), 65536u);
  EXPECT_EQ(app::parse_byte_size("512M", "x"), 512ull << 20);
  EXPECT_EQ(app::parse_byte_size("2G", "x"), 2ull << 30);
  EXPECT_EQ(app::parse_byte_size("2g", "x"), 2ull << 30);
  EXPECT_EQ(app::parse_byte_size("2GB", "x"), 2ull << 30);
  EXPECT_EQ(app::parse_byte_size("2GiB", "x"), 2ull << 30);
  EXPECT_EQ(app::parse_byte_size("1.5G", "x"), 3ull << 29);
  EXPECT_EQ(app::parse_byte_size("1T", "x"), 1ull << 40);
  EXPECT_THROW(app::parse_byte_size("", "x"), UsageError);
  EXPECT_THROW(app::parse_byte_size("G", "x"), UsageError);
  EXPECT_THROW(app::parse_byte_size("2X", "x"), UsageError);
  EXPECT_THROW(app::parse_byte_size("0.5", "x"), UsageError);
  EXPECT_THROW(app::parse_byte_size("99999999T", "x"), UsageError);
}

TEST(AppOptions, DeltaSweepDefaultsAndLists) {
  const AppOptions plain = parse({"--delta-sweep"});
  ASSERT_TRUE(plain.delta_sweep);
  ASSERT_EQ(plain.sweep.size(), 7u);
  EXPECT_DOUBLE_EQ(plain.sweep.front().value, 0.125);
  EXPECT_DOUBLE_EQ(plain.sweep.back().value, 8.0);
  for (const auto& e : plain.sweep) EXPECT_TRUE(e.times_auto);

  const AppOptions listed = parse({"--delta-sweep=0.5x,250,2X"});
  ASSERT_EQ(listed.sweep.size(), 3u);
  EXPECT_TRUE(listed.sweep[0].times_auto);
  EXPECT_DOUBLE_EQ(listed.sweep[0].value, 0.5);
  EXPECT_FALSE(listed.sweep[1].times_auto);
  EXPECT_DOUBLE_EQ(listed.sweep[1].value, 250);
  EXPECT_TRUE(listed.sweep[2].times_auto);
  EXPECT_DOUBLE_EQ(listed.sweep[2].value, 2);

  const AppOptions spaced = parse({"--delta-sweep", "1x,3x", "--validate"});
  ASSERT_EQ(spaced.sweep.size(), 2u);
  EXPECT_DOUBLE_EQ(spaced.sweep[1].value, 3);
  EXPECT_TRUE(spaced.validate);
}

TEST(AppOptions, DeltaAutoOrValue) {
  EXPECT_TRUE(parse({"--delta", "auto"}).delta_auto);
  const AppOptions o = parse({"--delta", "1e3"});
  EXPECT_FALSE(o.delta_auto);
  EXPECT_DOUBLE_EQ(o.delta, 1000.0);
  EXPECT_DOUBLE_EQ(parse({"--delta", "0.25"}).delta, 0.25);
}

TEST(AppOptions, AlgorithmNamesRoundTrip) {
  for (const Algorithm a : {Algorithm::NearFar, Algorithm::BucketSort, Algorithm::BucketMultisplit,
                            Algorithm::BellmanFord, Algorithm::DeltaStepping, Algorithm::Dijkstra, Algorithm::Auto})
    EXPECT_EQ(app::parse_algorithm(app::to_string(a)), a);
  EXPECT_STREQ(app::to_string(Algorithm::Auto), "auto");
  // Auto may stand for the CPU solver, and under a sweep picks a delta strategy.
  EXPECT_FALSE(app::runs_on_gpu(Algorithm::Auto));
  EXPECT_TRUE(app::uses_delta(Algorithm::Auto));
  EXPECT_STREQ(app::to_string(Algorithm::BucketMultisplit), "bucket-multisplit");
  EXPECT_THROW(app::parse_algorithm("Near-Far"), UsageError);
  EXPECT_TRUE(app::runs_on_gpu(Algorithm::BellmanFord));
  EXPECT_FALSE(app::runs_on_gpu(Algorithm::DeltaStepping));
  EXPECT_TRUE(app::uses_delta(Algorithm::DeltaStepping));
  EXPECT_FALSE(app::uses_delta(Algorithm::BellmanFord));
  EXPECT_FALSE(app::uses_delta(Algorithm::Dijkstra));
}

TEST(AppOptions, StrategyAutoExplicitAndInLists) {
  using V = std::vector<Algorithm>;
  EXPECT_EQ(parse({"--strategy", "auto"}).strategies, V{Algorithm::Auto});
  EXPECT_FALSE(parse({"--strategy", "auto"}).strategy_all);
  EXPECT_EQ(parse({"--strategy", "auto,delta-stepping"}).strategies,
            (V{Algorithm::Auto, Algorithm::DeltaStepping}));
  EXPECT_EQ(parse({"--strategy", "dijkstra,auto"}).strategies, (V{Algorithm::Dijkstra, Algorithm::Auto}));
  // Naming strategies replaces the default: no auto left over.
  EXPECT_EQ(parse({"--strategy", "near-far"}).strategies, V{Algorithm::NearFar});
  EXPECT_TRUE(parse({"--strategy", "all"}).strategies.empty());
  // Auto is fine on the cpu device (it runs the CPU default there).
  EXPECT_EQ(parse({"--strategy", "auto", "--device", "cpu"}).strategies, V{Algorithm::Auto});
  EXPECT_EQ(app::resolve_algorithms(parse({"--strategy", "auto,dijkstra"}), DeviceKind::Cpu),
            (V{Algorithm::Auto, Algorithm::Dijkstra}));
  EXPECT_NE(rejection({"--strategy", "auto,auto"}).find("listed twice"), std::string::npos);
  EXPECT_NE(rejection({"--strategy", "all,auto"}).find("'all' cannot be combined"), std::string::npos);
  EXPECT_NE(rejection({"--strategy", "fastest"}).find("(expected auto, near-far,"), std::string::npos);
  EXPECT_NE(app::help_all_text().find("auto (default)"), std::string::npos);
}

TEST(AppOptions, SubstituteAutoReplacesItOnce) {
  using V = std::vector<Algorithm>;
  EXPECT_EQ(app::substitute_auto(V{Algorithm::Auto}, Algorithm::NearFar), V{Algorithm::NearFar});
  EXPECT_EQ(app::substitute_auto(V{Algorithm::Auto, Algorithm::DeltaStepping}, Algorithm::BellmanFord),
            (V{Algorithm::BellmanFord, Algorithm::DeltaStepping}));
  // Already listed: auto's slot goes, the strategy runs once where the user put it.
  EXPECT_EQ(app::substitute_auto(V{Algorithm::Auto, Algorithm::NearFar}, Algorithm::NearFar), V{Algorithm::NearFar});
  EXPECT_EQ(app::substitute_auto(V{Algorithm::Dijkstra, Algorithm::DeltaStepping}, Algorithm::NearFar),
            (V{Algorithm::Dijkstra, Algorithm::DeltaStepping}));
}

TEST(AppOptions, DeviceResolution) {
  auto c = app::resolve_device(DeviceRequest::Auto, true, "");
  EXPECT_EQ(c.kind, DeviceKind::Gpu);
  EXPECT_TRUE(c.note.empty());
  c = app::resolve_device(DeviceRequest::Auto, false, "no CUDA driver");
  EXPECT_EQ(c.kind, DeviceKind::Cpu);
  EXPECT_NE(c.note.find("no CUDA driver"), std::string::npos);  // says so
  EXPECT_EQ(app::resolve_device(DeviceRequest::Cpu, true, "").kind, DeviceKind::Cpu);
  EXPECT_EQ(app::resolve_device(DeviceRequest::Gpu, true, "").kind, DeviceKind::Gpu);
  EXPECT_THROW(app::resolve_device(DeviceRequest::Gpu, false, "none"), std::runtime_error);
}

TEST(AppOptions, StrategyResolutionPerDevice) {
  using V = std::vector<Algorithm>;
  // The default is auto on both devices; the run replaces it once the graph is loaded.
  EXPECT_EQ(app::resolve_algorithms(parse({}), DeviceKind::Gpu), V{Algorithm::Auto});
  EXPECT_EQ(app::resolve_algorithms(parse({}), DeviceKind::Cpu), V{Algorithm::Auto});
  EXPECT_EQ(app::resolve_algorithms(parse({"--delta-sweep"}), DeviceKind::Gpu), V{Algorithm::Auto});
  EXPECT_EQ(app::resolve_algorithms(parse({"--strategy", "all"}), DeviceKind::Gpu),
            (V{Algorithm::NearFar, Algorithm::BucketSort, Algorithm::BucketMultisplit, Algorithm::BellmanFord,
               Algorithm::DeltaStepping}));
  EXPECT_EQ(app::resolve_algorithms(parse({"--strategy", "all"}), DeviceKind::Cpu),
            (V{Algorithm::DeltaStepping, Algorithm::Dijkstra}));
  // A sweep keeps every strategy; those that ignore delta run once (app.cpp).
  EXPECT_EQ(app::resolve_algorithms(parse({"--strategy", "all", "--delta-sweep"}), DeviceKind::Gpu),
            (V{Algorithm::NearFar, Algorithm::BucketSort, Algorithm::BucketMultisplit, Algorithm::BellmanFord,
               Algorithm::DeltaStepping}));
  EXPECT_EQ(app::resolve_algorithms(parse({"--strategy", "all", "--delta-sweep"}), DeviceKind::Cpu),
            (V{Algorithm::DeltaStepping, Algorithm::Dijkstra}));
  EXPECT_EQ(app::resolve_algorithms(parse({"--strategy", "bellman-ford,near-far", "--delta-sweep"}), DeviceKind::Gpu),
            (V{Algorithm::BellmanFord, Algorithm::NearFar}));
  EXPECT_EQ(app::resolve_algorithms(parse({"--strategy", "dijkstra"}), DeviceKind::Gpu), V{Algorithm::Dijkstra});
  // A GPU strategy when auto fell back to the CPU, and a sweep of nothing
  // but delta-free strategies.
  EXPECT_THROW(app::resolve_algorithms(parse({"--strategy", "near-far"}), DeviceKind::Cpu), UsageError);
  EXPECT_THROW(app::resolve_algorithms(parse({"--strategy", "dijkstra", "--delta-sweep"}), DeviceKind::Cpu),
               UsageError);
  EXPECT_THROW(app::resolve_algorithms(parse({"--strategy", "bellman-ford", "--delta-sweep"}), DeviceKind::Gpu),
               UsageError);
}

TEST(AppSources, UserIdsMapByIdBase) {
  EXPECT_EQ(app::to_internal_id(1, 1, 10, "--source"), 0u);
  EXPECT_EQ(app::to_internal_id(10, 1, 10, "--source"), 9u);
  EXPECT_EQ(app::to_internal_id(0, 0, 10, "--source"), 0u);
  EXPECT_EQ(app::to_internal_id(9, 0, 10, "--source"), 9u);
  EXPECT_EQ(app::to_user_id(0, 1), 1u);
  EXPECT_EQ(app::to_user_id(9, 0), 9u);
  try {
    app::to_internal_id(0, 1, 10, "--source");
    FAIL() << "id 0 accepted in a 1-based file";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("1 to 10"), std::string::npos) << e.what();
  }
  EXPECT_THROW(app::to_internal_id(11, 1, 10, "--source"), UsageError);
  EXPECT_THROW(app::to_internal_id(10, 0, 10, "--path-to"), UsageError);
  EXPECT_THROW(app::to_internal_id(0, 0, 0, "--source"), UsageError);
  EXPECT_THROW(app::to_internal_id(1ull << 40, 0, 10, "--source"), UsageError);
}

TEST(AppSources, ResolveDefaultListedAndEmpty) {
  const auto offsets = offsets_for({1, 0, 2, 0});
  EXPECT_EQ(app::resolve_sources({}, 0, 1, 1, offsets), (std::vector<graph::vertex_id>{0}));
  EXPECT_EQ(app::resolve_sources({4, 1}, 0, 1, 1, offsets), (std::vector<graph::vertex_id>{3, 0}));
  EXPECT_EQ(app::resolve_sources({3}, 0, 1, 0, offsets), (std::vector<graph::vertex_id>{3}));
  EXPECT_THROW(app::resolve_sources({5}, 0, 1, 1, offsets), UsageError);
  EXPECT_THROW(app::resolve_sources({}, 0, 1, 0, offsets_for({})), UsageError);
}

TEST(AppSources, RandomSourcesAreSeededDistinctAndHaveOutEdges) {
  // Dense case (rejection sampling): most vertices have out-edges.
  std::vector<int> degrees(1000, 3);
  for (int v = 0; v < 1000; v += 7) degrees[v] = 0;
  const auto offsets = offsets_for(degrees);
  const auto a = app::choose_random_sources(offsets, 50, 7);
  const auto b = app::choose_random_sources(offsets, 50, 7);
  const auto c = app::choose_random_sources(offsets, 50, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  ASSERT_EQ(a.size(), 50u);
  EXPECT_EQ(std::set<graph::vertex_id>(a.begin(), a.end()).size(), 50u);
  for (const auto v : a) EXPECT_GT(degrees[v], 0) << v;
  // Sparse case (list of candidates): only 5 of 1000 qualify, ask for all 5.
  std::vector<int> sparse(1000, 0);
  for (const int v : {3, 200, 201, 640, 999}) sparse[v] = 1;
  const auto all5 = app::choose_random_sources(offsets_for(sparse), 5, 1);
  EXPECT_EQ(std::set<graph::vertex_id>(all5.begin(), all5.end()),
            (std::set<graph::vertex_id>{3, 200, 201, 640, 999}));
  EXPECT_THROW(app::choose_random_sources(offsets_for(sparse), 6, 1), UsageError);
  EXPECT_THROW(app::choose_random_sources(offsets_for({0, 0}), 1, 1), UsageError);
  // Through resolve_sources, --random-sources wins over the default.
  EXPECT_EQ(app::resolve_sources({}, 50, 7, 1, offsets), a);
}

TEST(AppOptions, ContractTakesAutoOnOff) {
  EXPECT_EQ(parse({}).contract, app::ContractRequest::Auto);
  EXPECT_EQ(parse({"--contract", "on"}).contract, app::ContractRequest::On);
  EXPECT_EQ(parse({"--contract", "off"}).contract, app::ContractRequest::Off);
  EXPECT_EQ(parse({"--contract", "auto"}).contract, app::ContractRequest::Auto);
  EXPECT_EQ(rejection({"--contract", "yes"}), "--contract takes auto, on or off, not 'yes'");
}

TEST(AppOptions, PhastIsNamedOnlyAndGivesTrees) {
  EXPECT_EQ(parse({"--strategy", "phast"}).strategies, std::vector<app::Algorithm>{app::Algorithm::Phast});
  EXPECT_TRUE(app::runs_on_gpu(app::Algorithm::Phast));
  EXPECT_FALSE(app::uses_delta(app::Algorithm::Phast));
  EXPECT_TRUE(parse({"--strategy", "phast", "--predecessors"}).predecessors);
  // --strategy all leaves it out: its hierarchy costs far more than a query.
  const auto all = app::resolve_algorithms(parse({"--strategy", "all"}), app::DeviceKind::Gpu);
  EXPECT_EQ(std::count(all.begin(), all.end(), app::Algorithm::Phast), 0);
  const auto all_cpu = app::resolve_algorithms(parse({"--strategy", "all"}), app::DeviceKind::Cpu);
  EXPECT_EQ(std::count(all_cpu.begin(), all_cpu.end(), app::Algorithm::PhastCpu), 0);
  // phast-cpu is a CPU strategy, with the same limits.
  EXPECT_FALSE(app::runs_on_gpu(app::Algorithm::PhastCpu));
  EXPECT_TRUE(app::uses_hierarchy(app::Algorithm::PhastCpu));
  EXPECT_EQ(parse({"--strategy", "phast-cpu", "--device", "cpu"}).strategies,
            std::vector<app::Algorithm>{app::Algorithm::PhastCpu});
  EXPECT_TRUE(parse({"--strategy", "phast-cpu", "--device", "cpu", "--predecessors"}).predecessors);
}
