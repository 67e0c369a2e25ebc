// The `sssp` command line: parsing and validation of every option, with no
// dependence on the graph or the GPU, so it can be tested on its own.
//
// Everything that can be checked without the graph is checked here; what
// needs the graph (source ids in range, --path-to in range, random sources)
// is checked in sources.hpp once the graph is loaded, still before any
// output. Every rejection throws UsageError (the command exits with 2).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/program_options/options_description.hpp>

#include "cli/common_options.hpp"
#include "sssp/solver.hpp"

namespace app {

// A bad or conflicting command-line option: one line, exit code 2 (the one
// kind every front end throws, src/cli/usage_error.hpp).
using UsageError = cli::UsageError;

// What solves a problem. GPU strategies map one to one onto sssp::Strategy
// (solver.hpp); the CPU ones call graph/reference.hpp. Auto never runs: once
// the graph is loaded it is replaced (substitute_auto) by what
// app/auto_choice.hpp picks for it.
// Phast is the GPU's PHAST query over a contraction hierarchy of the chain
// contraction's core (sssp/hierarchy_solver.hpp), PhastCpu the same query on
// the host (graph/hierarchy.hpp); neither is an sssp::Strategy, and neither
// is in --strategy all (the hierarchy costs far more to build than a query).
enum class Algorithm {
  NearFar,
  BucketSort,
  BucketMultisplit,
  BellmanFord,
  DeltaStepping,
  Dijkstra,
  Phast,
  PhastCpu,
  Auto
};

// "near-far", "bucket-sort", "bucket-multisplit", "bellman-ford" (the names
// sssp::to_string gives), "delta-stepping", "dijkstra", "phast", "phast-cpu", "auto".
const char* to_string(Algorithm a);
// Throws UsageError naming the value and listing the valid names.
Algorithm parse_algorithm(const std::string& name);
// False for Auto, which may stand for a CPU solver.
bool runs_on_gpu(Algorithm a);
// phast or phast-cpu: needs the contraction hierarchy (and integer weights).
bool uses_hierarchy(Algorithm a);
// Whether the algorithm's work depends on delta (for --delta-sweep). True
// for Auto: under a sweep it picks only strategies that use delta.
bool uses_delta(Algorithm a);

enum class DeviceRequest { Auto, Gpu, Cpu };
// --contract: solve through a chain contraction (graph/contraction.hpp).
enum class ContractRequest { Auto, On, Off };
const char* to_string(DeviceRequest d);

// One entry of --delta-sweep: an absolute delta ("250") or a multiple of the
// auto delta ("0.5x").
struct SweepEntry {
  double value = 0;
  bool times_auto = false;
};

struct AppOptions {
  // Graph: exactly one of graph_path / generate_spec is set after parsing
  // (generate_spec = "rmat:16:16" when neither was given).
  std::string graph_path;
  std::string generate_spec;
  bool generate_defaulted = false;  // neither --graph nor --generate given
  std::string format = "auto";
  bool undirected = false;
  std::string weights = "file";
  std::uint64_t seed = 1;
  bool use_cache = false;
  std::string cache_path;  // empty: beside the input

  // Sources as the user wrote them (ids as in the file); empty with
  // random_sources == 0 means "the first id".
  std::vector<std::uint64_t> sources;
  cli::IdFile sources_file;  // --sources FILE: the path and each id's line; empty path otherwise
  std::uint32_t random_sources = 0;

  // --batch: sources per batched solve (app/batch.hpp); 0 is auto (all of a
  // run's sources in one call; the GPU solver splits them by free memory).
  std::uint32_t batch = 0;
  bool batch_given = false;  // the user wrote --batch (a refusal is only for an explicit size)
  // --targets: --output holds only these vertices' distances from each
  // source (ids as in the file); empty: every vertex.
  std::vector<std::uint64_t> targets;
  cli::IdFile targets_file;  // --targets FILE: the path and each id's line; empty path otherwise

  // Strategies as requested, in order; {Auto} when --strategy is not given.
  std::vector<Algorithm> strategies{Algorithm::Auto};
  bool strategy_all = false;
  DeviceRequest device = DeviceRequest::Auto;

  bool delta_auto = true;
  double delta = 0;  // when !delta_auto: > 0 and finite
  bool delta_sweep = false;
  std::vector<SweepEntry> sweep;  // filled (defaults) when delta_sweep
  std::uint32_t buckets = 10;
  int threads = 0;  // 0: all cores
  std::uint32_t runs = 1;
  bool validate = false;
  bool predecessors = false;
  std::optional<std::uint64_t> path_to;  // an id as in the file
  std::string output_path;
  std::string json_path;
  std::uint64_t gpu_memory_limit_bytes = 0;  // 0: no limit
  sssp::LoadBalance load_balance = sssp::LoadBalance::Auto;  // GPU relax rounds (sssp/solver.hpp)
  sssp::VertexOrdering vertex_ordering = sssp::VertexOrdering::Auto;  // the GPU copy's numbering (sssp/solver.hpp)
  ContractRequest contract = ContractRequest::Auto;
  bool quiet = false;    // stdout: only the data asked for (--output -, --json -, --path-to)
  bool verbose = false;  // the full report (every header line and table)
  bool json_distances = false;  // --json-distances: the record holds the distances too
  // --labels (app/labels.hpp): vertices named by labels; these hold what the
  // options named until resolve_labels turns them into ids.
  bool labels = false;
  std::vector<std::string> source_labels;
  std::vector<std::string> target_labels;
  std::optional<std::string> path_to_label;

  bool help = false;      // --help: the short screen
  bool help_all = false;  // --help-all: every option, grouped
  bool version = false;
  std::vector<std::string> command_line;  // argv, for the JSON record

  bool generated() const { return graph_path.empty(); }
  // `-`: standard input (--graph) or standard output (--output, --json).
  bool graph_from_stdin() const { return graph_path == "-"; }
  bool output_to_stdout() const { return output_path == "-"; }
  bool json_to_stdout() const { return json_path == "-"; }
  bool data_to_stdout() const { return output_to_stdout() || json_to_stdout(); }
};

// The common options `sssp` takes (src/cli/common_options.hpp): one graph,
// one thread count, one delta, one run by default.
cli::FrontEnd sssp_front_end();

// Parses and validates argv (argv[0] is the program name). Throws UsageError
// with a one-line message on any bad, unknown or conflicting option.
AppOptions parse_options(int argc, const char* const* argv);

// Every option `sssp` takes, common and its own (for --help-all's groups).
boost::program_options::options_description sssp_options_description();

// --help: the common options and examples, one screen (app/help.cpp).
std::string help_text();
// --help-all: every option, grouped (input, query, output, GPU tuning).
std::string help_all_text();
// --version: version, git commit and CUDA version (app/help.cpp).
std::string version_text();

// --batch's value: "auto" (0) or a number of sources from 1 to 2^20.
// Throws UsageError naming the value.
std::uint32_t parse_batch(const std::string& text);

// --targets's value: ids "ID,ID,..." when every comma item is a number, else
// the name of a file of ids (one per line, like --sources FILE). Throws
// UsageError on an empty value or a bad file.
void parse_targets(const std::string& text, AppOptions& options);

// One --load-balance name (sssp::parse_load_balance), or UsageError
// "--load-balance: ..." naming it; `sssp` and `sssp bench` both use it.
sssp::LoadBalance parse_load_balance_option(const std::string& name);

enum class DeviceKind { Gpu, Cpu };
const char* to_string(DeviceKind d);

struct DeviceChoice {
  DeviceKind kind = DeviceKind::Cpu;
  std::string note;  // why auto chose cpu ("auto: no GPU: ..."), else empty
};

// --device auto: gpu when a GPU is usable, else cpu with a note saying why.
// --device gpu without a usable GPU throws std::runtime_error (exit 1: the
// machine, not the command line, is at fault).
DeviceChoice resolve_device(DeviceRequest request, bool gpu_usable, const std::string& why_not);

// The algorithms to run on `device`, in report order: the requested list
// (default {Auto}, resolved later by substitute_auto). --strategy all: the
// four GPU strategies plus CPU delta-stepping (the baseline row) on gpu;
// dijkstra and delta-stepping on cpu. With --delta-sweep, only the strategies
// whose work depends on delta. Throws UsageError when a GPU strategy is asked
// for on the cpu device or the sweep has no delta-dependent strategy.
std::vector<Algorithm> resolve_algorithms(const AppOptions& options, DeviceKind device);

// What to run instead of GPU strategy `a` on the CPU, for refusals.
std::string cpu_alternative(Algorithm a);
// What --strategy all leaves out on `device`, and why.
std::string skipped_by_all(DeviceKind device);

// `algorithms` with Auto replaced by `chosen`, or dropped where `chosen` is
// listed already ("auto,near-far" that picks near-far runs near-far once).
std::vector<Algorithm> substitute_auto(const std::vector<Algorithm>& algorithms, Algorithm chosen);

// "2G", "512M", "1.5G", "1048576", "64K", "1T" (binary units; a trailing "B"
// or "iB" is allowed). Throws UsageError naming the value.
std::uint64_t parse_byte_size(const std::string& text, const std::string& option);

// --delta-sweep list, e.g. "0.25x,0.5x,1x,2x" or "100,200,400". Empty text
// gives the default sweep, 1/8x to 8x of the auto delta in powers of two.
std::vector<SweepEntry> parse_sweep(const std::string& text);

}  // namespace app
