// The options that `sssp`, `sssp_bench` and `cpu_sssp_bench` share: one
// name, one help text, one validation and one parsed form for each, so that
// `--seed 7` or `--delta 0,5` means the same thing, and is refused with the
// same message, in every front end. Each front end registers the subset it
// takes (FrontEnd::options) next to its own options, and reads them back with
// read_common_options.
//
// Where the jobs differ, the front end states its own default or limit
// (FrontEnd): a solve runs once while a benchmark takes a median of five;
// `sssp` solves one graph at one delta while the benches compare several.
// The help text prints the front end's default.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/id_file.hpp"
#include "cli/usage_error.hpp"

namespace cli {

// In --help order.
enum class Common {
  Graph,          // --graph,-g FILE[@RULE][,FILE...]  (repeatable)
  Generate,       // --generate SPEC[,SPEC...]          (repeatable)
  Undirected,     // --undirected
  Weights,        // --weights,-w RULE
  Seed,           // --seed S
  Source,         // --source,-s ID[,ID...]             (repeatable)
  RandomSources,  // --random-sources K
  SourcesFile,    // --sources FILE                     (ids one per line)
  Threads,        // --threads,-t T[,T...]
  Runs,           // --runs,-r N
  Delta,          // --delta,-d auto|VALUE[,VALUE...]
  DeltaC,         // --delta-c C[,C...]
  Buckets,        // --buckets B
  Predecessors,   // --predecessors
  Json,           // --json FILE
};

// The option's name as typed, without dashes: "random-sources".
const char* option_name(Common option);

constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();

// What one front end takes of the common options.
struct FrontEnd {
  std::vector<Common> options;  // the ones it takes; help lists them in enum order
  // How many values it takes: graphs (files and generated together),
  // explicit sources, thread counts, deltas. 1 also means the help shows no list.
  std::size_t max_graphs = kUnlimited;
  std::size_t max_sources = kUnlimited;
  std::size_t max_thread_counts = kUnlimited;
  std::size_t max_deltas = kUnlimited;
  // Its defaults where the job decides them. Thread and delta-c lists in
  // option syntax; default_generate may be empty (no graph: nothing to do).
  std::string default_generate;
  std::uint32_t default_runs = 1;
  std::string default_threads = "0";
  std::string default_delta_c;  // empty: none (delta_cs stays empty; the front end applies its own rule)
  std::string default_source = "the first id";  // what happens without --source, for the help
  // Older names kept working for existing command lines, hidden from --help:
  // {Common::RandomSources, "sources"}.
  std::vector<std::pair<Common, std::string>> aliases;

  bool takes(Common option) const;
};

// A graph file and the weight rule that applies to it: --weights, or the
// file's own FILE@RULE.
struct GraphFile {
  std::string path;
  std::string weights;
  bool own_weights = false;  // FILE@RULE: `weights` is the file's own rule
};

// The parsed common options. Fields of options a front end does not take
// keep these defaults (the front end's own defaults where FrontEnd has one).
struct CommonOptions {
  std::vector<GraphFile> graphs;
  std::vector<std::string> generate;  // generator specs, each checked by graph::GeneratorSpec::parse
  bool generate_defaulted = false;    // neither --graph nor --generate: FrontEnd::default_generate
  bool undirected = false;
  std::string weights = "file";  // checked by graph::WeightRule::parse
  std::uint64_t seed = 1;
  std::vector<std::uint64_t> sources;  // ids as in the file (from --source or --sources FILE)
  std::string sources_file;            // --sources FILE, when given
  IdFile sources_from_file;            // its ids and their lines (for messages naming the line)
  std::uint32_t random_sources = 0;
  std::vector<int> threads{0};  // 0: all cores
  std::uint32_t runs = 1;
  bool delta_given = false;    // --delta was given, "auto" included
  std::vector<double> deltas;  // empty: auto
  std::vector<double> delta_cs;
  std::uint32_t buckets = 10;
  bool predecessors = false;
  std::string json_path;
};

namespace po = boost::program_options;

// The front end's common options with their help texts, for --help and parsing.
po::options_description common_options_description(const FrontEnd& front_end,
                                                   const std::string& caption = "Common options");

// The front end's aliases (old option names); parse with them, do not print them.
// Throws std::logic_error when an old name is also an option the front end takes.
po::options_description alias_options_description(const FrontEnd& front_end);

// Parses argv against `all` strictly: no abbreviations ("--val" must not
// silently mean "--validate"), no stray words, every Boost error as UsageError.
po::variables_map parse_command_line(int argc, const char* const* argv, const po::options_description& all);

// Reads and validates the front end's common options from `vm`. Throws
// UsageError with a one-line message naming the option.
CommonOptions read_common_options(const po::variables_map& vm, const FrontEnd& front_end);

}  // namespace cli
