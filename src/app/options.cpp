#include "app/options.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <utility>

#include <boost/program_options.hpp>

#include "graph/error.hpp"
#include "graph/weights.hpp"

namespace po = boost::program_options;

namespace app {

namespace {

struct AlgorithmName {
  Algorithm algorithm;
  const char* name;
};

// Report order of --strategy all: GPU strategies first, then the CPU ones.
constexpr std::array<AlgorithmName, 6> kAlgorithmNames{{
    {Algorithm::NearFar, "near-far"},
    {Algorithm::BucketSort, "bucket-sort"},
    {Algorithm::BucketMultisplit, "bucket-multisplit"},
    {Algorithm::BellmanFord, "bellman-ford"},
    {Algorithm::DeltaStepping, "delta-stepping"},
    {Algorithm::Dijkstra, "dijkstra"},
}};

std::string valid_algorithm_names() {
  std::string names = "auto, ";
  for (const auto& entry : kAlgorithmNames) names += std::string(entry.name) + ", ";
  return names + "all";
}

std::uint64_t parse_u64(const std::string& text, const std::string& option) {
  std::uint64_t value = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != last)
    throw UsageError("--" + option + ": '" + text + "' is not a non-negative integer");
  if (ec == std::errc::result_out_of_range)
    throw UsageError("--" + option + ": '" + text + "' is too large");
  return value;
}

std::uint64_t parse_u64_in(const std::string& text, const std::string& option, std::uint64_t lo,
                           std::uint64_t hi) {
  const std::uint64_t value = parse_u64(text, option);
  if (value < lo || value > hi)
    throw UsageError("--" + option + ": " + text + " is out of range (" + std::to_string(lo) + " to " +
                     std::to_string(hi) + ")");
  return value;
}

// A finite number, all of `text` consumed (strtod accepts "nan", "inf" and
// hex floats; finiteness is checked after).
bool parse_finite_double(const std::string& text, double& out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

po::options_description make_description() {
  po::options_description desc("Options");
  // Every value is taken as a string and parsed strictly here: Boost's
  // lexical_cast would accept "-1" for an unsigned option and wrap it.
  desc.add_options()
      ("help,h", "print this help and exit")
      ("graph,g", po::value<std::string>()->value_name("FILE"),
       "graph file: .mtx, .gr, .el/.txt/.edges (optionally .gz) or .bin cache")
      ("generate", po::value<std::string>()->value_name("SPEC"),
       "generate a graph instead: rmat:SCALE:EF[:A:B:C:D], grid:ROWS:COLS or urand:N:DEG "
       "(default when neither --graph nor --generate: rmat:16:16)")
      ("format", po::value<std::string>()->value_name("F"), "auto|mtx|gr|el|bin (default auto: by extension)")
      ("undirected", po::bool_switch(), "treat a directed file as undirected (mirror every arc)")
      ("weights", po::value<std::string>()->value_name("RULE"),
       "file|unit|random|random:LO:HI (default file; files without weights and generated graphs "
       "get random:1:1000)")
      ("seed", po::value<std::string>()->value_name("S"), "seed of weights, generators and random sources (default 1)")
      ("cache", po::value<std::string>()->implicit_value("")->value_name("[PATH]"),
       "read/write a binary cache of the loaded graph (default PATH: beside the input, <input>.bin.cache)")
      ("source,s", po::value<std::vector<std::string>>()->composing()->value_name("ID[,ID...]"),
       "source vertices, ids as in the file (1-based for .mtx/.gr, 0-based for .el and generated graphs); "
       "default: the first id")
      ("random-sources", po::value<std::string>()->value_name("K"),
       "K distinct sources chosen (seeded) among vertices with out-edges")
      ("strategy", po::value<std::string>()->value_name("NAME"),
       "auto|near-far|bucket-sort|bucket-multisplit|bellman-ford (GPU), delta-stepping|dijkstra (CPU), "
       "a comma list of these, or all (every strategy). Default auto: on gpu, bellman-ford for "
       "low-diameter graphs with skewed degrees, else near-far (the report says which and why, from "
       "the graph's degrees and a bounded BFS from the source); on cpu, delta-stepping")
      ("device", po::value<std::string>()->value_name("D"),
       "gpu|cpu|auto (default auto: gpu when one is usable, else cpu, and says so)")
      ("delta", po::value<std::string>()->value_name("auto|VALUE"),
       "bucket width; auto = 32 x mean weight / mean out-degree on the GPU, the CPU's own rule "
       "(graph::auto_delta_cpu) on the CPU (default auto)")
      ("delta-sweep", po::value<std::string>()->implicit_value("")->value_name("[LIST]"),
       "run the delta-dependent strategies for several deltas and print time and work per delta "
       "(strategies that ignore delta, bellman-ford and dijkstra, run once beside them); "
       "LIST holds values (250) or multiples of the auto delta (0.5x); "
       "default 0.125x,0.25x,0.5x,1x,2x,4x,8x")
      ("buckets", po::value<std::string>()->value_name("B"), "bucketing strategies: number of buckets, 2 to 4096 (default 10)")
      ("threads", po::value<std::string>()->value_name("T"), "CPU threads for loading and delta-stepping (default 0: all)")
      ("runs", po::value<std::string>()->value_name("N"),
       "timed runs per source and strategy, after one warm-up run (default 1)")
      ("validate", po::bool_switch(), "compare every result with CPU Dijkstra (exact for integer weights, "
                                      "relative 1e-6 for float); exit 1 on any mismatch")
      ("predecessors", po::bool_switch(), "also compute shortest-path trees (checked by --validate)")
      ("path-to", po::value<std::string>()->value_name("ID"),
       "print the distance from the (first) source to ID, and the path with --predecessors")
      ("output,o", po::value<std::string>()->value_name("FILE"),
       "write the distances of the (first) source as 'id distance' lines (-1: unreachable)")
      ("json", po::value<std::string>()->value_name("FILE"), "write everything as one JSON record")
      ("load-balance", po::value<std::string>()->value_name("LB"),
       "GPU relax rounds: three-stage (CTA/warp/scan per tile), binned (frontier binned by out-degree), "
       "merge-path (equal chunks of the round's arcs per block), or auto (merge-path where its 64-bit counter holds the graph's sizes; default)")
      ("gpu-memory-limit", po::value<std::string>()->value_name("BYTES"),
       "pretend the GPU has only this much memory, e.g. 2G or 512M")
      ("quiet,q", po::bool_switch(), "print only results (no graph/device header, no progress)");
  return desc;
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
         a == Algorithm::BellmanFord;
}

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

AppOptions parse_options(int argc, const char* const* argv) {
  AppOptions options;
  for (int i = 0; i < argc; ++i) options.command_line.emplace_back(argv[i]);

  const po::options_description desc = make_description();
  po::variables_map vm;
  try {
    // No abbreviations: "--val" must not silently mean "--validate".
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    // An empty positional description makes any stray word an error.
    const po::positional_options_description no_positionals;
    po::store(po::command_line_parser(argc, argv).options(desc).positional(no_positionals).style(style).run(),
              vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }

  if (vm.count("help")) {
    options.help = true;
    return options;
  }

  // ---- Graph.
  const std::string* graph = find_string(vm, "graph");
  const std::string* generate = find_string(vm, "generate");
  if (graph && generate) throw UsageError("--graph and --generate conflict: give one of them");
  if (graph) {
    if (graph->empty()) throw UsageError("--graph: empty file name");
    options.graph_path = *graph;
  } else {
    options.generate_spec = generate ? *generate : "rmat:16:16";
    options.generate_defaulted = generate == nullptr;
    if (options.generate_spec.empty()) throw UsageError("--generate: empty generator spec");
  }
  if (const std::string* format = find_string(vm, "format")) {
    static const std::array<const char*, 5> kFormats{"auto", "mtx", "gr", "el", "bin"};
    if (std::find(kFormats.begin(), kFormats.end(), *format) == kFormats.end())
      throw UsageError("--format: unknown format '" + *format + "' (expected auto, mtx, gr, el or bin)");
    if (options.generated()) throw UsageError("--format applies to --graph files, not to generated graphs");
    options.format = *format;
  }
  options.undirected = vm["undirected"].as<bool>();
  if (const std::string* seed = find_string(vm, "seed")) options.seed = parse_u64(*seed, "seed");
  if (const std::string* weights = find_string(vm, "weights")) {
    try {
      (void)graph::WeightRule::parse(*weights, options.seed);
    } catch (const graph::InputError& e) {
      throw UsageError(e.what());
    }
    options.weights = *weights;
  }
  if (const auto it = vm.find("cache"); it != vm.end()) {
    if (options.generated()) throw UsageError("--cache applies to --graph files, not to generated graphs");
    options.use_cache = true;
    options.cache_path = it->second.as<std::string>();
  }

  // ---- Sources.
  if (const auto it = vm.find("source"); it != vm.end()) {
    for (const std::string& list : it->second.as<std::vector<std::string>>())
      for (const std::string& id : split_commas(list)) options.sources.push_back(parse_u64(id, "source"));
  }
  if (const std::string* k = find_string(vm, "random-sources")) {
    if (!options.sources.empty()) throw UsageError("--source and --random-sources conflict: give one of them");
    options.random_sources = static_cast<std::uint32_t>(parse_u64_in(*k, "random-sources", 1, 1u << 20));
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
          throw UsageError(std::string("--strategy ") + to_string(a) +
                           " needs a GPU but --device cpu was given (CPU strategies: delta-stepping, dijkstra)");
  }

  // ---- Delta.
  const std::string* delta = find_string(vm, "delta");
  if (delta && *delta != "auto") {
    if (!parse_finite_double(*delta, options.delta) || !(options.delta > 0))
      throw UsageError("--delta: '" + *delta + "' is not 'auto' or a positive number");
    options.delta_auto = false;
  }
  if (const auto it = vm.find("delta-sweep"); it != vm.end()) {
    if (delta) throw UsageError("--delta and --delta-sweep conflict: the sweep chooses the deltas");
    options.delta_sweep = true;
    options.sweep = parse_sweep(it->second.as<std::string>());
  }
  // 2 to 4096: the GPU bucketing strategies' range (kMaxBuckets in
  // src/sssp/workspace.cuh); checked here so a bad value fails before the run.
  if (const std::string* buckets = find_string(vm, "buckets"))
    options.buckets = static_cast<std::uint32_t>(parse_u64_in(*buckets, "buckets", 2, 4096));
  if (const std::string* threads = find_string(vm, "threads"))
    options.threads = static_cast<int>(parse_u64_in(*threads, "threads", 0, 4096));
  if (const std::string* runs = find_string(vm, "runs"))
    options.runs = static_cast<std::uint32_t>(parse_u64_in(*runs, "runs", 1, 100000));

  // ---- Checks and outputs.
  options.validate = vm["validate"].as<bool>();
  options.predecessors = vm["predecessors"].as<bool>();
  if (const std::string* target = find_string(vm, "path-to")) options.path_to = parse_u64(*target, "path-to");
  if (const std::string* output = find_string(vm, "output")) {
    if (output->empty()) throw UsageError("--output: empty file name");
    options.output_path = *output;
  }
  if (const std::string* json = find_string(vm, "json")) {
    if (json->empty()) throw UsageError("--json: empty file name");
    options.json_path = *json;
  }
  if (!options.output_path.empty() && options.output_path == options.json_path)
    throw UsageError("--output and --json name the same file '" + options.output_path + "'");
  if (const std::string* lb = find_string(vm, "load-balance")) {
    if (options.device == DeviceRequest::Cpu) throw UsageError("--load-balance conflicts with --device cpu");
    try {
      options.load_balance = sssp::parse_load_balance(*lb);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--load-balance: ") + e.what());
    }
  }
  if (const std::string* limit = find_string(vm, "gpu-memory-limit")) {
    if (options.device == DeviceRequest::Cpu)
      throw UsageError("--gpu-memory-limit conflicts with --device cpu");
    options.gpu_memory_limit_bytes = parse_byte_size(*limit, "gpu-memory-limit");
  }
  options.quiet = vm["quiet"].as<bool>();
  return options;
}

DeviceChoice resolve_device(DeviceRequest request, bool gpu_usable, const std::string& why_not) {
  DeviceChoice choice;
  switch (request) {
    case DeviceRequest::Cpu: choice.kind = DeviceKind::Cpu; break;
    case DeviceRequest::Gpu:
      if (!gpu_usable) throw std::runtime_error("--device gpu: no usable GPU (" + why_not + ")");
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
      const bool wanted = device == DeviceKind::Gpu ? a != Algorithm::Dijkstra : !runs_on_gpu(a);
      if (wanted) algorithms.push_back(a);  // in a sweep, delta-free ones run once (app.cpp)
    }
    return algorithms;
  }
  algorithms = options.strategies;
  if (algorithms.empty()) algorithms.push_back(Algorithm::Auto);
  for (const Algorithm a : algorithms) {
    if (device == DeviceKind::Cpu && runs_on_gpu(a))
      throw UsageError(std::string("--strategy ") + to_string(a) +
                       " needs a GPU, and this run uses the CPU (CPU strategies: delta-stepping, dijkstra)");
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

std::vector<Algorithm> substitute_auto(const std::vector<Algorithm>& algorithms, Algorithm chosen) {
  const bool listed = std::find(algorithms.begin(), algorithms.end(), chosen) != algorithms.end();
  std::vector<Algorithm> out;
  for (const Algorithm a : algorithms) {
    if (a != Algorithm::Auto) out.push_back(a);
    else if (!listed) out.push_back(chosen);
  }
  return out;
}

std::string help_text() {
  std::ostringstream text;
  text << "sssp: single-source shortest paths on the GPU (Near-Far, bucketing by sort or multisplit,\n"
          "Bellman-Ford frontier) and on the CPU (delta-stepping, Dijkstra).\n\n"
          "Usage: sssp (--graph FILE | --generate SPEC) [options]\n\n"
       << make_description()
       << "\nExamples:\n"
          "  sssp                                     R-MAT scale 16, the strategy auto picks for it\n"
          "  sssp --graph road/DE.gr --source 1 --path-to 49109 --predecessors\n"
          "  sssp --graph web.mtx --random-sources 8 --strategy all --runs 5 --validate\n"
          "  sssp --generate grid:1024:1024 --weights random:1:1000 --delta-sweep 0.5x,1x,2x\n"
          "  sssp --generate urand:1000000:16 --device cpu --threads 16 --json result.json\n"
          "  sssp --graph g.mtx --cache --output g.dist   distances as 'id distance' lines\n\n"
          "Exit status: 0 success, 1 runtime failure or validation mismatch, 2 bad input or options.\n";
  return text.str();
}

}  // namespace app
