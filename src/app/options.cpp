#include "app/options.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include <boost/program_options.hpp>

#include "app/labels.hpp"
#include "cli/values.hpp"

namespace po = boost::program_options;

using cli::parse_finite_double;
using cli::parse_u64;
using cli::parse_u64_in;
using cli::split_commas;

namespace app {

namespace {

struct AlgorithmName {
  Algorithm algorithm;
  const char* name;
};

// Report order of --strategy all: GPU strategies first, then the CPU ones.
constexpr std::array<AlgorithmName, 8> kAlgorithmNames{{
    {Algorithm::NearFar, "near-far"},
    {Algorithm::BucketSort, "bucket-sort"},
    {Algorithm::BucketMultisplit, "bucket-multisplit"},
    {Algorithm::BellmanFord, "bellman-ford"},
    {Algorithm::DeltaStepping, "delta-stepping"},
    {Algorithm::Dijkstra, "dijkstra"},
    {Algorithm::Phast, "phast"},
    {Algorithm::PhastCpu, "phast-cpu"},
}};

std::string valid_algorithm_names() {
  std::string names = "auto, ";
  for (const auto& entry : kAlgorithmNames) names += std::string(entry.name) + ", ";
  return names + "all";
}

// The options only `sssp` takes; the common ones come from src/cli.
po::options_description sssp_description() {
  po::options_description desc("sssp options");
  // Every value is taken as a string and parsed strictly here: Boost's
  // lexical_cast would accept "-1" for an unsigned option and wrap it.
  desc.add_options()
      ("help,h", "print the common options and examples, and exit")
      ("help-all", "print every option, grouped, and exit")
      ("version", "print the version, git commit and CUDA version, and exit")
      ("format", po::value<std::string>()->value_name("F"),
       "auto|mtx|gr|el|wel|csv|bin (default auto: by extension; --graph - needs it)")
      ("labels", po::bool_switch(),
       "edge lists (.el, .wel, .csv): vertices are labels (any string without blanks), numbered in order of "
       "first appearance; --source, --sources, --targets and --path-to name labels, --output prints them")
      ("cache", po::value<std::string>()->implicit_value("")->value_name("[PATH]"),
       "read/write a binary cache of the loaded graph (default PATH: beside the input, <input>.bin.cache), "
       "and beside it the contraction and phast's hierarchy (sealed with a key of yours, docs/USAGE.md)")
      ("strategy", po::value<std::string>()->value_name("NAME"),
       "auto (default), near-far, bucket-sort, bucket-multisplit, bellman-ford, phast (GPU); "
       "delta-stepping, dijkstra, phast-cpu (CPU); a comma list, or all (every one but the phasts). "
       "auto picks from the graph and says why (docs/USAGE.md)")
      ("device", po::value<std::string>()->value_name("D"),
       "gpu|cpu|auto (default auto: gpu when one is usable, else cpu, and says so)")
      ("delta-sweep", po::value<std::string>()->implicit_value("")->value_name("[LIST]"),
       "run the delta-dependent strategies at several deltas: values (250) or multiples of auto (0.5x); "
       "default 0.125x..8x")
      ("validate", po::bool_switch(),
       "check every result against CPU Dijkstra (and --predecessors trees); exit 1 on a mismatch")
      ("path-to", po::value<std::string>()->value_name("ID"),
       "print the distance from the (first) source to ID, and the path with --predecessors")
      ("output,o", po::value<std::string>()->value_name("FILE|-"),
       "write distances, - for stdout: 'id distance' lines (-1: unreachable), 'id distance predecessor' "
       "with --predecessors; several sources: one column each; with --targets: 'source target distance'")
      ("targets", po::value<std::string>()->value_name("IDS|FILE"),
       "with --output: only these vertices' distances, ids comma separated or a FILE of ids")
      ("batch", po::value<std::string>()->value_name("B|auto"),
       "several sources: B per batched call (GPU: one block per source; CPU: one Dijkstra per thread); "
       "auto (default): all in one call; 1: one after another")
      ("load-balance", po::value<std::string>()->value_name("LB"),
       "GPU relax rounds: merge-path, binned, three-stage, or auto (default: merge-path)")
      ("vertex-order", po::value<std::string>()->value_name("ORDER"),
       "the GPU copy's numbering (results stay in the file's ids): input, degree, rcm, or auto "
       "(default: degree on large skewed graphs)")
      ("contract", po::value<std::string>()->value_name("auto|on|off"),
       "solve through a chain contraction (road networks; exact, integer weights); auto (default): "
       "where it pays, and the report says so")
      ("gpu-memory-limit", po::value<std::string>()->value_name("BYTES"),
       "pretend the GPU has only this much memory, e.g. 2G or 512M")
      ("json-distances", po::bool_switch(),
       "with --json: the record holds every source's distances too (and predecessors with --predecessors); "
       "up to 2^22 distances in all, beyond that use --output")
      ("verbose,v", po::bool_switch(),
       "the full report: every header line, one row per source with the solver's counters, the comparison")
      ("quiet,q", po::bool_switch(),
       "stdout carries only the data asked for (--output -, --json -, --path-to); no report, progress or warnings");
  return desc;
}

}  // namespace

po::options_description sssp_options_description() {
  po::options_description all;
  all.add(cli::common_options_description(sssp_front_end())).add(sssp_description());
  return all;
}

namespace {

po::options_description make_description() {
  po::options_description all;
  all.add(cli::common_options_description(sssp_front_end())).add(sssp_description());
  return all;
}

const std::string* find_string(const po::variables_map& vm, const char* name) {
  const auto it = vm.find(name);
  if (it == vm.end() || it->second.empty()) return nullptr;
  return &it->second.as<std::string>();
}

}  // namespace

const char* to_string(Algorithm a) {
  if (a == Algorithm::Auto) return "auto";
  for (const auto& entry : kAlgorithmNames)
    if (entry.algorithm == a) return entry.name;
  return "?";
}

Algorithm parse_algorithm(const std::string& name) {
  if (name == "auto") return Algorithm::Auto;
  for (const auto& entry : kAlgorithmNames)
    if (name == entry.name) return entry.algorithm;
  throw UsageError("--strategy: unknown strategy '" + name + "' (expected " + valid_algorithm_names() + ")");
}

bool runs_on_gpu(Algorithm a) {
  return a == Algorithm::NearFar || a == Algorithm::BucketSort || a == Algorithm::BucketMultisplit ||
         a == Algorithm::BellmanFord || a == Algorithm::Phast;
}

bool uses_hierarchy(Algorithm a) { return a == Algorithm::Phast || a == Algorithm::PhastCpu; }

bool uses_delta(Algorithm a) {
  return a == Algorithm::NearFar || a == Algorithm::BucketSort || a == Algorithm::BucketMultisplit ||
         a == Algorithm::DeltaStepping || a == Algorithm::Auto;
}

const char* to_string(DeviceRequest d) {
  switch (d) {
    case DeviceRequest::Auto: return "auto";
    case DeviceRequest::Gpu: return "gpu";
    case DeviceRequest::Cpu: return "cpu";
  }
  return "?";
}

const char* to_string(DeviceKind d) { return d == DeviceKind::Gpu ? "gpu" : "cpu"; }

std::uint64_t parse_byte_size(const std::string& text, const std::string& option) {
  const auto bad = [&](const std::string& why) {
    return UsageError("--" + option + ": '" + text + "' " + why + " (expected e.g. 2G, 512M, 1048576)");
  };
  std::string number = text;
  double unit = 1;
  // Strip an optional "B" / "iB", then an optional K/M/G/T (binary units).
  if (number.size() >= 2 && (number.compare(number.size() - 2, 2, "iB") == 0)) number.resize(number.size() - 2);
  else if (!number.empty() && (number.back() == 'B' || number.back() == 'b')) number.pop_back();
  if (!number.empty()) {
    const char suffix = static_cast<char>(std::toupper(static_cast<unsigned char>(number.back())));
    const char* units = "KMGT";
    if (const char* pos = std::char_traits<char>::find(units, 4, suffix)) {
      unit = std::ldexp(1.0, 10 * static_cast<int>(pos - units + 1));
      number.pop_back();
    }
  }
  double value = 0;
  if (!parse_finite_double(number, value)) throw bad("is not a size");
  const double bytes = std::floor(value * unit);
  if (bytes < 1) throw bad("must be at least 1 byte");
  if (bytes >= 18446744073709551616.0) throw bad("is too large");
  return static_cast<std::uint64_t>(bytes);
}

std::vector<SweepEntry> parse_sweep(const std::string& text) {
  if (text.empty()) {
    std::vector<SweepEntry> entries;
    for (double factor = 0.125; factor <= 8.0; factor *= 2) entries.push_back({factor, true});
    return entries;
  }
  std::vector<SweepEntry> entries;
  for (const std::string& item : split_commas(text)) {
    SweepEntry entry;
    std::string number = item;
    if (!number.empty() && (number.back() == 'x' || number.back() == 'X')) {
      entry.times_auto = true;
      number.pop_back();
    }
    if (!parse_finite_double(number, entry.value) || !(entry.value > 0))
      throw UsageError("--delta-sweep: '" + item + "' is not a positive delta (VALUE) or multiple of the auto "
                       "delta (FACTORx) in '" + text + "'");
    entries.push_back(entry);
  }
  return entries;
}

cli::FrontEnd sssp_front_end() {
  using cli::Common;
  cli::FrontEnd fe;
  fe.options = {Common::Graph, Common::Generate, Common::Undirected, Common::Weights, Common::Seed,
                Common::Source, Common::RandomSources, Common::SourcesFile, Common::Threads, Common::Runs, Common::Delta,
                Common::Buckets, Common::Predecessors, Common::Json};
  fe.max_graphs = 1;
  fe.max_thread_counts = 1;
  fe.max_deltas = 1;
  fe.default_generate = "rmat:16:16";
  fe.default_runs = 1;
  fe.default_threads = "0";
  return fe;
}

AppOptions parse_options(int argc, const char* const* argv) {
  AppOptions options;
  for (int i = 0; i < argc; ++i) options.command_line.emplace_back(argv[i]);

  // GAP's spellings (-f FILE, -n TRIALS), where ours do not use the letter.
  std::vector<std::string> words(argv, argv + argc);
  for (std::size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "--") break;
    if (words[i] == "-f") words[i] = "--graph";
    else if (words[i] == "-n") words[i] = "--runs";
  }
  std::vector<const char*> args;
  for (const std::string& w : words) args.push_back(w.c_str());
  po::variables_map vm = cli::parse_command_line(argc, args.data(), make_description());
  if (vm.count("help") || vm.count("help-all") || vm.count("version")) {
    options.help = vm.count("help") > 0;
    options.help_all = vm.count("help-all") > 0;
    options.version = vm.count("version") > 0;
    return options;
  }

  // ---- The common options (src/cli), in AppOptions' terms.
  // --labels: the options that name vertices hold labels, read here; the
  // common options' numeric parsing never sees them.
  options.labels = vm["labels"].as<bool>();
  if (options.labels) {
    if (const auto it = vm.find("source"); it != vm.end()) {
      for (const std::string& occurrence : it->second.as<std::vector<std::string>>())
        for (std::string& label : split_commas(occurrence)) {
          if (label.empty()) throw UsageError("--source: an empty label in '" + occurrence + "'");
          options.source_labels.push_back(std::move(label));
        }
      if (vm.count("sources")) throw UsageError("--source and --sources conflict: give one of them");
      vm.erase("source");
    }
    if (const auto it = vm.find("sources"); it != vm.end()) {
      const LabelFile file = read_label_file(it->second.as<std::string>(), "sources");
      options.sources_file.path = file.path;
      options.sources_file.lines = file.lines;
      options.source_labels = file.labels;
      vm.erase("sources");
    }
  }
  const cli::CommonOptions common = cli::read_common_options(vm, sssp_front_end());
  if (options.labels && common.graphs.empty())
    throw UsageError("--labels names the vertices of an edge list file: give --graph FILE (.el, .wel, .csv)");
  if (options.labels && !options.source_labels.empty() && common.random_sources > 0)
    throw UsageError("--source and --random-sources conflict: give one of them");
  options.seed = common.seed;
  options.weights = common.weights;
  if (!common.graphs.empty()) {
    options.graph_path = common.graphs.front().path;
    options.weights = common.graphs.front().weights;  // --weights, or FILE@RULE's rule
  } else {
    options.generate_spec = common.generate.front();
    options.generate_defaulted = common.generate_defaulted;
  }
  options.undirected = common.undirected;
  if (!options.labels) {
    options.sources = common.sources;
    options.sources_file = common.sources_from_file;
  }
  options.random_sources = common.random_sources;
  options.threads = common.threads.front();
  options.runs = common.runs;
  options.delta_auto = common.deltas.empty();
  if (!options.delta_auto) options.delta = common.deltas.front();
  options.buckets = common.buckets;
  options.predecessors = common.predecessors;
  options.json_path = common.json_path;

  // ---- Graph options of sssp alone.
  if (const std::string* format = find_string(vm, "format")) {
    static const std::array<const char*, 7> kFormats{"auto", "mtx", "gr", "el", "wel", "csv", "bin"};
    if (std::find(kFormats.begin(), kFormats.end(), *format) == kFormats.end())
      throw UsageError("--format: unknown format '" + *format + "' (expected auto, mtx, gr, el, wel, csv or bin)");
    if (options.generated()) throw UsageError("--format applies to --graph files, not to generated graphs");
    // GAP's .wel is an edge list whose lines all carry a weight.
    options.format = *format == "wel" ? "el" : *format;
  }
  if (options.graph_path == "-") {
    if (options.format == "auto")
      throw UsageError("--graph - reads standard input, which has no file name to tell its format: "
                       "add --format mtx|gr|el|wel|csv");
    if (options.format == "bin") throw UsageError("--graph -: a binary cache is read from a file, not from stdin");
  }
  if (const auto it = vm.find("cache"); it != vm.end()) {
    if (options.generated()) throw UsageError("--cache applies to --graph files, not to generated graphs");
    if (options.graph_path == "-") throw UsageError("--cache needs a graph file: standard input cannot be cached");
    if (options.labels) throw UsageError("--cache and --labels conflict: the cache keeps no labels");
    options.use_cache = true;
    options.cache_path = it->second.as<std::string>();
  }

  // ---- Device and strategies.
  if (const std::string* device = find_string(vm, "device")) {
    if (*device == "auto") options.device = DeviceRequest::Auto;
    else if (*device == "gpu") options.device = DeviceRequest::Gpu;
    else if (*device == "cpu") options.device = DeviceRequest::Cpu;
    else throw UsageError("--device: unknown device '" + *device + "' (expected gpu, cpu or auto)");
  }
  if (const std::string* strategy = find_string(vm, "strategy")) {
    const std::vector<std::string> names = split_commas(*strategy);
    options.strategies.clear();
    if (names.size() == 1 && names.front() == "all") {
      options.strategy_all = true;
    } else {
      for (const std::string& name : names) {
        if (name == "all") throw UsageError("--strategy: 'all' cannot be combined with other strategies");
        const Algorithm a = parse_algorithm(name);
        if (std::find(options.strategies.begin(), options.strategies.end(), a) != options.strategies.end())
          throw UsageError("--strategy: '" + name + "' is listed twice");
        options.strategies.push_back(a);
      }
    }
    if (options.device == DeviceRequest::Cpu)
      for (const Algorithm a : options.strategies)
        if (runs_on_gpu(a))
          throw UsageError(std::string("--strategy ") + to_string(a) + " needs a GPU but --device cpu was given: " +
                           cpu_alternative(a));
  }

  // ---- Delta sweep.
  if (const auto it = vm.find("delta-sweep"); it != vm.end()) {
    if (common.delta_given) throw UsageError("--delta and --delta-sweep conflict: the sweep chooses the deltas");
    options.delta_sweep = true;
    options.sweep = parse_sweep(it->second.as<std::string>());
  }

  // ---- Checks and outputs.
  options.validate = vm["validate"].as<bool>();
  if (const std::string* target = find_string(vm, "path-to")) {
    if (options.labels) options.path_to_label = *target;
    else options.path_to = parse_u64(*target, "path-to");
  }
  if (const std::string* output = find_string(vm, "output")) {
    if (output->empty()) throw UsageError("--output: empty file name");
    options.output_path = *output;
  }
  if (const std::string* targets = find_string(vm, "targets")) {
    if (!options.labels) {
      parse_targets(*targets, options);
    } else if (std::ifstream(*targets)) {
      const LabelFile file = read_label_file(*targets, "targets");
      options.targets_file.path = file.path;
      options.targets_file.lines = file.lines;
      options.target_labels = file.labels;
    } else {
      for (std::string& label : split_commas(*targets)) {
        if (label.empty()) throw UsageError("--targets: an empty label in '" + *targets + "'");
        options.target_labels.push_back(std::move(label));
      }
    }
    if (options.output_path.empty())
      throw UsageError("--targets chooses what --output writes: give --output FILE too");
  }
  if (const std::string* batch = find_string(vm, "batch")) {
    options.batch = parse_batch(*batch);
    options.batch_given = true;
  }
  if (!options.output_path.empty() && options.output_path == options.json_path)
    throw UsageError(options.output_path == "-"
                         ? "--output - and --json - both name stdout: send one of them to a file"
                         : "--output and --json name the same file '" + options.output_path + "'");
  if (const std::string* lb = find_string(vm, "load-balance")) {
    if (options.device == DeviceRequest::Cpu) throw UsageError("--load-balance conflicts with --device cpu");
    options.load_balance = parse_load_balance_option(*lb);
  }
  if (const std::string* order = find_string(vm, "vertex-order")) {
    if (options.device == DeviceRequest::Cpu) throw UsageError("--vertex-order conflicts with --device cpu");
    try {
      options.vertex_ordering = sssp::parse_vertex_ordering(*order);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--vertex-order: ") + e.what());
    }
  }
  if (const std::string* limit = find_string(vm, "gpu-memory-limit")) {
    if (options.device == DeviceRequest::Cpu)
      throw UsageError("--gpu-memory-limit conflicts with --device cpu");
    options.gpu_memory_limit_bytes = parse_byte_size(*limit, "gpu-memory-limit");
  }
  if (const std::string* contract = find_string(vm, "contract")) {
    if (*contract == "auto") {
      options.contract = ContractRequest::Auto;
    } else if (*contract == "on") {
      options.contract = ContractRequest::On;
    } else if (*contract == "off") {
      options.contract = ContractRequest::Off;
    } else {
      throw UsageError("--contract takes auto, on or off, not '" + *contract + "'");
    }
  }
  options.quiet = vm["quiet"].as<bool>();
  options.verbose = vm["verbose"].as<bool>();
  if (options.quiet && options.verbose) throw UsageError("--quiet and --verbose conflict: give one of them");
  options.json_distances = vm["json-distances"].as<bool>();
  if (options.json_distances && options.json_path.empty())
    throw UsageError("--json-distances puts the distances into the --json record: give --json FILE (or -) too");
  return options;
}

std::uint32_t parse_batch(const std::string& text) {
  if (text == "auto") return 0;
  std::uint64_t value = 0;
  try {
    value = parse_u64(text, "batch");
  } catch (const UsageError&) {
    throw UsageError("--batch: '" + text + "' is not 'auto' or a number of sources (1 to 1048576)");
  }
  if (value < 1 || value > (1u << 20))
    throw UsageError("--batch: " + text + " is out of range (auto, or 1 to 1048576 sources per call)");
  return static_cast<std::uint32_t>(value);
}

void parse_targets(const std::string& text, AppOptions& options) {
  if (text.empty()) throw UsageError("--targets: empty value (expected ID,ID,... or a file of ids)");
  const std::vector<std::string> items = split_commas(text);
  const bool all_numbers = std::all_of(items.begin(), items.end(), [](const std::string& item) {
    return !item.empty() && std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
  });
  if (all_numbers) {
    for (const std::string& item : items) options.targets.push_back(parse_u64(item, "targets"));
    return;
  }
  // "1,,2" or "3,x" were meant as ids, unless such a file exists.
  const bool looks_like_ids = items.size() > 1 || std::isdigit(static_cast<unsigned char>(text.front()));
  if (looks_like_ids && !std::ifstream(text))
    throw UsageError("--targets: '" + text + "' is neither a list of vertex ids (ID,ID,...) nor a readable file");
  options.targets_file = cli::read_id_file(text, "targets");
  options.targets = options.targets_file.ids;
}

sssp::LoadBalance parse_load_balance_option(const std::string& name) {
  try {
    return sssp::parse_load_balance(name);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--load-balance: ") + e.what());
  }
}

DeviceChoice resolve_device(DeviceRequest request, bool gpu_usable, const std::string& why_not) {
  DeviceChoice choice;
  switch (request) {
    case DeviceRequest::Cpu: choice.kind = DeviceKind::Cpu; break;
    case DeviceRequest::Gpu:
      if (!gpu_usable)
        throw std::runtime_error("--device gpu: no usable GPU (" + why_not +
                                 "): --device cpu runs the CPU solvers (delta-stepping, dijkstra, phast-cpu)");
      choice.kind = DeviceKind::Gpu;
      break;
    case DeviceRequest::Auto:
      choice.kind = gpu_usable ? DeviceKind::Gpu : DeviceKind::Cpu;
      if (!gpu_usable) choice.note = "auto: no usable GPU (" + why_not + "), running on the CPU";
      break;
  }
  return choice;
}

std::vector<Algorithm> resolve_algorithms(const AppOptions& options, DeviceKind device) {
  std::vector<Algorithm> algorithms;
  if (options.strategy_all) {
    for (const auto& entry : kAlgorithmNames) {
      const Algorithm a = entry.algorithm;
      // On gpu, Dijkstra is only the validation reference; CPU delta-stepping
      // stays as the baseline every speedup is measured against.
      // phast only when named: its hierarchy takes far longer to build than a query.
      const bool wanted =
          !uses_hierarchy(a) && (device == DeviceKind::Gpu ? a != Algorithm::Dijkstra : !runs_on_gpu(a));
      if (wanted) algorithms.push_back(a);  // in a sweep, delta-free ones run once (app.cpp)
    }
    return algorithms;
  }
  algorithms = options.strategies;
  if (algorithms.empty()) algorithms.push_back(Algorithm::Auto);
  for (const Algorithm a : algorithms) {
    if (device == DeviceKind::Cpu && runs_on_gpu(a))
      throw UsageError(std::string("--strategy ") + to_string(a) + " needs a GPU, and this run uses the CPU: " +
                       cpu_alternative(a));
  }
  // Strategies that ignore delta run once in a sweep, but a sweep of
  // nothing but them would sweep nothing.
  if (options.delta_sweep && std::none_of(algorithms.begin(), algorithms.end(), [](Algorithm a) {
        return a == Algorithm::Auto || uses_delta(a);
      }))
    throw UsageError("--delta-sweep: none of the strategies uses delta (" + std::string(to_string(algorithms.front())) +
                     (algorithms.size() > 1 ? ", ..." : "") + ")");
  return algorithms;
}

std::string cpu_alternative(Algorithm a) {
  if (a == Algorithm::Phast) return "--strategy phast-cpu runs the same query on the CPU";
  return "on the CPU, --strategy delta-stepping (or dijkstra) solves the same problem";
}

std::string skipped_by_all(DeviceKind device) {
  std::string skipped = device == DeviceKind::Gpu
                            ? "dijkstra (the validation reference; name it to time it)"
                            : "near-far, bucket-sort, bucket-multisplit, bellman-ford (they need a GPU)";
  return skipped + "; phast, phast-cpu (their hierarchy costs hundreds of queries to build: name them)";
}

std::vector<Algorithm> substitute_auto(const std::vector<Algorithm>& algorithms, Algorithm chosen) {
  const bool listed = std::find(algorithms.begin(), algorithms.end(), chosen) != algorithms.end();
  std::vector<Algorithm> out;
  for (const Algorithm a : algorithms) {
    if (a != Algorithm::Auto) out.push_back(a);
    else if (!listed) out.push_back(chosen);
  }
  return out;
}

}  // namespace app
