#include "app/app.hpp"
#include "app/bench.hpp"

#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <new>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <variant>

#include "app/auto_choice.hpp"
#include "app/harness.hpp"
#include "app/json_report.hpp"
#include "app/options.hpp"
#include "app/report.hpp"
#include "app/sources.hpp"
#include "app/validate.hpp"
#include "graph/distance_io.hpp"
#include "graph/error.hpp"
#include "graph/generators.hpp"
#include "graph/load.hpp"
#include "graph/reference.hpp"
#include "sssp/auto_strategy.hpp"
#include "sssp/solver.hpp"

namespace app {

namespace {

// Peak resident set of this process (getrusage's ru_maxrss is in KiB on Linux).
std::uint64_t peak_resident_bytes() {
  struct rusage usage {};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Error messages go out as one line, whatever the thrower put in them, and
// with one "sssp: " prefix (the solver library starts its messages with one).
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  while (!text.empty() && text.back() == ' ') text.pop_back();
  const std::string prefix = "sssp: ";
  while (text.compare(0, prefix.size(), prefix) == 0) text.erase(0, prefix.size());
  return text;
}

sssp::Strategy to_gpu_strategy(Algorithm a) {
  switch (a) {
    case Algorithm::NearFar: return sssp::Strategy::NearFar;
    case Algorithm::BucketSort: return sssp::Strategy::BucketSort;
    case Algorithm::BucketMultisplit: return sssp::Strategy::BucketMultisplit;
    case Algorithm::BellmanFord: return sssp::Strategy::BellmanFord;
    default: break;
  }
  throw std::logic_error(std::string("not a GPU strategy: ") + to_string(a));
}

// An output file's directory must exist before the run starts: a typo in a
// path must not cost a long run its results.
void check_output_path(const std::string& path, const std::string& option) {
  if (path.empty()) return;
  const fs::path file(path);
  const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw UsageError(option + " " + path + ": directory '" + dir.string() + "' does not exist");
  if (fs::is_directory(file, ec)) throw UsageError(option + " " + path + ": is a directory");
}

struct LoadedGraph {
  graph::AnyCsr csr;
  GraphInfo info;
};

LoadedGraph load_or_generate(const AppOptions& o) {
  const graph::WeightRule rule = graph::WeightRule::parse(o.weights, o.seed);
  LoadedGraph loaded;
  GraphInfo& info = loaded.info;
  if (o.generated()) {
    const graph::GeneratorSpec spec = graph::GeneratorSpec::parse(o.generate_spec);
    graph::BuildStats stats;
    const auto start = Clock::now();
    loaded.csr = graph::generate(spec, rule, o.seed, &stats);
    info.total_ms = ms_since(start);
    info.source = spec.describe();
    info.generated = true;
    info.format = "generated";
    info.weight_type = "uint32";
    // Generators treat "file" as their default rule (generators.hpp).
    info.weight_rule = (rule.kind == graph::WeightRule::Kind::File ? rule.for_pattern_file() : rule).describe();
    info.id_base = 0;
    info.undirected = spec.undirected || spec.kind == graph::GeneratorSpec::Kind::Grid;
    info.input_entries = stats.input_entries;
    info.self_loops_dropped = stats.self_loops_dropped;
    info.duplicates_dropped = stats.duplicates_dropped;
  } else {
    graph::LoadOptions lo;
    lo.format = graph::parse_format(o.format);
    lo.undirected = o.undirected;
    lo.weights = rule;
    lo.use_cache = o.use_cache;
    lo.cache_path = o.cache_path;
    lo.progress = !o.quiet;
    lo.threads = o.threads;
    graph::LoadReport report;
    loaded.csr = graph::load_graph(o.graph_path, lo, &report);
    info.source = report.path.empty() ? o.graph_path : report.path;
    info.format = graph::to_string(report.format);
    info.file_bytes = report.file_bytes;
    info.parse_ms = report.parse_seconds * 1e3;
    info.build_ms = report.build_seconds * 1e3;
    info.total_ms = report.total_seconds * 1e3;
    info.from_cache = report.from_cache;
    info.cache_written = report.cache_written;
    info.cache_saved_ms = report.cache_saved_seconds * 1e3;
    info.file_has_weights = report.file_has_weights;
    info.undirected = report.symmetric;
    info.id_base = report.id_base;
    info.weight_rule = report.weight_rule;
    info.input_entries = report.build.input_entries;
    info.self_loops_dropped = report.build.self_loops_dropped;
    info.duplicates_dropped = report.build.duplicates_dropped;
    info.weight_type = graph::has_float_weights(loaded.csr) ? "float" : "uint32";
  }
  info.vertices = graph::num_vertices(loaded.csr);
  info.arcs = graph::num_arcs(loaded.csr);
  return loaded;
}

std::string describe_sources(const AppOptions& o, const std::vector<graph::vertex_id>& sources,
                             std::uint32_t id_base) {
  std::ostringstream text;
  const std::size_t shown = std::min<std::size_t>(sources.size(), 16);
  for (std::size_t i = 0; i < shown; ++i) text << (i ? ", " : "") << to_user_id(sources[i], id_base);
  if (shown < sources.size()) text << ", ... (" << sources.size() << " in all)";
  if (o.random_sources > 0)
    text << " (random among vertices with out-edges, seed " << o.seed << ")";
  else if (o.sources.empty())
    text << " (the first vertex)";
  text << ", ids " << id_base << "-based";
  return text.str();
}

// Runs every (delta, source, strategy) of one invocation on a loaded graph.
template <class Weight>
class Runner {
 public:
  using Dist = graph::distance_t<Weight>;

  Runner(const graph::Csr<Weight>& g, const AppOptions& o, GraphInfo info, DeviceChoice device,
         std::vector<Algorithm> algorithms, std::ostream& out, std::ostream& err)
      : g_(g), o_(o), device_choice_(device), algorithms_(std::move(algorithms)), out_(out), err_(err) {
    run_.graph = std::move(info);
  }

  int run();

 private:
  SolveFunction<Weight> make_solver(Algorithm a, graph::vertex_id source, double delta,
                                    sssp::GpuSolver<Weight>* gpu) const;
  void validate(Algorithm a, graph::vertex_id source, const SolveOutcome<Weight>& outcome,
                const std::vector<Dist>& reference, RunRecord& record);
  std::optional<PathInfo> path_info(std::optional<graph::vertex_id> target);
  void write_outputs();

  const graph::Csr<Weight>& g_;
  const AppOptions& o_;
  DeviceChoice device_choice_;
  std::vector<Algorithm> algorithms_;
  std::ostream& out_;
  std::ostream& err_;

  RunSummary run_;
  std::vector<graph::vertex_id> sources_;
  std::vector<Dist> first_distances_;             // first source, first strategy, first delta
  std::vector<graph::vertex_id> path_predecessors_;  // first source, first strategy that gives a tree
  std::string path_predecessors_from_;
  std::string failures_;  // validation problems, as printed
};

template <class Weight>
SolveFunction<Weight> Runner<Weight>::make_solver(Algorithm a, graph::vertex_id source, double delta,
                                                  sssp::GpuSolver<Weight>* gpu) const {
  if (runs_on_gpu(a)) {
    const sssp::Strategy strategy = to_gpu_strategy(a);
    return [gpu, source, strategy, a, delta]() {
      sssp::SolveResult<Weight> r = gpu->solve(source, strategy, delta);
      SolveOutcome<Weight> outcome;
      outcome.distances = std::move(r.distances);
      outcome.predecessors = std::move(r.predecessors);
      outcome.solve_ms = r.solve_ms;
      outcome.relaxations = r.relaxations;
      outcome.rounds = r.iterations;
      // The narrow / wide split only where it adds up: an engine that does
      // not count it leaves both at 0.
      if (r.rounds_narrow + r.rounds_wide == r.iterations) {
        outcome.rounds_narrow = r.rounds_narrow;
        outcome.rounds_wide = r.rounds_wide;
      }
      if (a != Algorithm::BellmanFord) {
        outcome.buckets_processed = r.buckets_processed;
        outcome.delta = r.delta > 0 ? r.delta : delta;
      }
      return outcome;
    };
  }
  if (a == Algorithm::DeltaStepping) {
    const int threads = o_.threads;
    const graph::Csr<Weight>& g = g_;
    return [&g, source, delta, threads]() {
      graph::CpuSolveStats stats;
      SolveOutcome<Weight> outcome;
      const auto start = Clock::now();
      outcome.distances = graph::delta_stepping(g, source, delta, threads, &stats);
      outcome.solve_ms = ms_since(start);
      outcome.relaxations = stats.relaxations;
      outcome.buckets_processed = stats.phases;
      outcome.delta = stats.delta > 0 ? stats.delta : delta;
      return outcome;
    };
  }
  // Dijkstra: no rounds and no buckets, so both stay empty.
  const bool predecessors = o_.predecessors;
  const graph::Csr<Weight>& g = g_;
  return [&g, source, predecessors]() {
    graph::CpuSolveStats stats;
    SolveOutcome<Weight> outcome;
    const auto start = Clock::now();
    outcome.distances = graph::dijkstra(g, source, predecessors ? &outcome.predecessors : nullptr, &stats);
    outcome.solve_ms = ms_since(start);
    outcome.relaxations = stats.relaxations;
    return outcome;
  };
}

template <class Weight>
void Runner<Weight>::validate(Algorithm a, graph::vertex_id source, const SolveOutcome<Weight>& outcome,
                              const std::vector<Dist>& reference, RunRecord& record) {
  const std::uint32_t id_base = run_.graph.id_base;
  ValidationReport report;
  compare_distances<Weight>(reference, outcome.distances, id_base, report);
  if (!outcome.predecessors.empty()) {
    check_predecessor_tree<Weight>(g_, source, outcome.distances, outcome.predecessors, id_base, report);
  } else if (o_.predecessors && a != Algorithm::DeltaStepping) {
    // Every solver but CPU delta-stepping promises a tree when asked.
    report.tree_errors += 1;
    report.examples.push_back("predecessors were asked for, but none came back");
  }
  record.validation = report.passed() ? Check::Passed : Check::Failed;
  record.mismatches = report.problems();
  if (report.passed()) return;
  std::ostringstream text;
  text << "validation FAILED: " << record.strategy << " (" << record.device << "), source " << record.source;
  if (record.delta) text << ", delta " << format_delta(*record.delta);
  text << ": " << report.distance_mismatches << " distance mismatches, " << report.tree_errors
       << " tree errors; first " << report.examples.size() << ":\n";
  for (const std::string& line : report.examples) text << "  " << line << "\n";
  failures_ += text.str();
  run_.validation_problems += report.problems();
}

template <class Weight>
int Runner<Weight>::run() {
  const std::uint32_t id_base = run_.graph.id_base;
  const graph::vertex_id n = g_.num_vertices;

  // Everything the user can get wrong about ids is checked before any output.
  sources_ = resolve_sources(o_.sources, o_.random_sources, o_.seed, id_base, g_.offsets);
  std::optional<graph::vertex_id> path_target;
  if (o_.path_to) path_target = to_internal_id(*o_.path_to, id_base, n, "--path-to");
  for (const graph::vertex_id s : sources_) run_.sources.push_back(to_user_id(s, id_base));
  if (std::find(algorithms_.begin(), algorithms_.end(), Algorithm::Auto) != algorithms_.end()) {
    const AutoResolution chosen =
        resolve_auto_strategy(g_, sources_.front(), id_base, device_choice_.kind, o_.delta_sweep);
    algorithms_ = substitute_auto(algorithms_, chosen.algorithm);
    run_.auto_strategy = chosen.info;
  }
  for (const Algorithm a : algorithms_) run_.strategies.emplace_back(to_string(a));

  DeltaInfo& delta = run_.delta;
  delta.automatic = o_.delta_auto;
  // Each device has its own delta rule: the GPU's wide buckets (c = 16 or
  // 128) cost the CPU solver up to 4x (graph/include/graph/reference.hpp).
  if (device_choice_.kind == DeviceKind::Cpu) {
    delta.auto_value = graph::auto_delta_cpu(g_);
    delta.auto_rule = "the CPU rule, 0.85 f x mean weight / mean out-degree";
  } else {
    // The GPU's rule reads the hop diameter estimate (sssp/auto_strategy.hpp),
    // measured already when --strategy auto chose the strategy.
    const sssp::GraphShape shape = run_.auto_strategy && run_.auto_strategy->shape
                                       ? *run_.auto_strategy->shape
                                       : sssp::measure_shape(g_, sources_.front());
    const sssp::DeltaChoice rule = sssp::choose_delta_c(shape);
    delta.auto_value = graph::auto_delta(g_, rule.c);
    delta.auto_rule = rule.reason;
  }
  std::vector<double> deltas;
  if (o_.delta_sweep) {
    for (const SweepEntry& e : o_.sweep) deltas.push_back(e.times_auto ? e.value * delta.auto_value : e.value);
    delta.sweep = deltas;
  } else {
    deltas.push_back(o_.delta_auto ? delta.auto_value : o_.delta);
  }
  delta.value = deltas.front();

  DeviceInfo& device = run_.device;
  device.requested = to_string(o_.device);
  device.kind = to_string(device_choice_.kind);
  device.note = device_choice_.note;
  device.cpu_threads = o_.threads > 0 ? o_.threads : omp_get_max_threads();
  if (device_choice_.kind == DeviceKind::Gpu) {
    try {
      device.description = sssp::gpu_description(0);
      device.gpu = sssp::gpu_identity(0);
    } catch (const std::exception& e) {
      device.description = "GPU 0 (no description: " + one_line(e.what()) + ")";
    }
  } else {
    device.description = "CPU, " + std::to_string(device.cpu_threads) + " OpenMP threads";
  }

  if (!o_.quiet) {
    out_ << format_graph_header(run_.graph) << format_device_header(device) << format_delta_line(delta);
    if (run_.auto_strategy) out_ << format_auto_strategy_line(*run_.auto_strategy);
    if (std::any_of(algorithms_.begin(), algorithms_.end(),
                    [](Algorithm a) { return a == Algorithm::BucketSort || a == Algorithm::BucketMultisplit; }))
      out_ << format_buckets_line(o_.buckets);
    out_ << "sources       " << describe_sources(o_, sources_, id_base) << "\n";
    out_ << "runs          1 warm-up + " << o_.runs << " timed per source and strategy\n";
    out_.flush();
  }

  const bool any_gpu = std::any_of(algorithms_.begin(), algorithms_.end(), runs_on_gpu);
  // References are kept across deltas only when a sweep needs them again.
  std::map<graph::vertex_id, std::vector<Dist>> reference_cache;
  // One solver (one upload and inspection of the graph) for every delta.
  std::unique_ptr<sssp::GpuSolver<Weight>> gpu;
  for (const double d : deltas) {
    if (any_gpu && !gpu) {
      sssp::SolverOptions so;
      so.delta = d;
      so.buckets = o_.buckets;
      so.predecessors = o_.predecessors;
      so.memory_limit_bytes = o_.gpu_memory_limit_bytes;
      so.load_balance = o_.load_balance;
      gpu = std::make_unique<sssp::GpuSolver<Weight>>(g_, so);
      if (!device.upload_ms) {
        device.upload_ms = gpu->upload_ms();
        device.gpu_bytes = gpu->device_bytes();
        device.gpu_graph_bytes = gpu->graph_device_bytes();
        device.load_balance = sssp::to_string(gpu->load_balance());
        device.heavy_arc_share = gpu->heavy_arc_share();
        if (!o_.quiet)
          out_ << "upload        " << format_fixed(*device.upload_ms, 3) << " ms (graph, host to device)\n"
               << format_gpu_memory_line(device) << format_load_balance_line(device);
      }
    }
    for (std::size_t si = 0; si < sources_.size(); ++si) {
      const graph::vertex_id source = sources_[si];
      std::vector<Dist> reference;
      if (o_.validate) {
        if (auto it = reference_cache.find(source); it != reference_cache.end()) {
          reference = it->second;
        } else {
          reference = graph::dijkstra(g_, source);
          if (deltas.size() > 1) reference_cache[source] = reference;
        }
      }
      for (const Algorithm a : algorithms_) {
        // A sweep runs the strategies that ignore delta (bellman-ford,
        // dijkstra) once, with the first delta, beside the swept ones.
        if (!uses_delta(a) && d != deltas.front()) continue;
        RunRecord identity;
        identity.strategy = to_string(a);
        identity.device = runs_on_gpu(a) ? "gpu" : "cpu";
        identity.source = to_user_id(source, id_base);
        if (uses_delta(a)) identity.delta = d;
        SolveOutcome<Weight> last;
        RunRecord record = run_timed<Weight>(g_, make_solver(a, source, d, gpu.get()), o_.runs, identity, &last);
        if (o_.validate) validate(a, source, last, reference, record);
        if (si == 0 && path_target && path_predecessors_.empty() && !last.predecessors.empty()) {
          path_predecessors_ = last.predecessors;
          path_predecessors_from_ = record.strategy;
        }
        if (run_.records.empty()) first_distances_ = std::move(last.distances);
        run_.records.push_back(std::move(record));
      }
    }
  }

  run_.summary = summarize(run_.records);
  out_ << (o_.quiet ? "" : "\n") << format_results_table(run_.records);
  if (o_.delta_sweep) {
    out_ << "\ndelta sweep (solve ms: mean over " << sources_.size() << " source(s) of the per-source median)\n"
         << format_sweep_table(run_.summary);
  } else if (algorithms_.size() > 1) {
    out_ << "\ncomparison (solve ms: mean over " << sources_.size() << " source(s) of the per-source median)\n"
         << format_comparison_table(run_.summary, "cpu delta-stepping");
  }
  if (o_.validate) {
    if (run_.validation_problems == 0) {
      const bool trees = std::any_of(run_.records.begin(), run_.records.end(),
                                     [](const RunRecord& r) { return r.has_predecessors; });
      out_ << "\nvalidation    passed: " << run_.records.size() << " result(s) equal CPU Dijkstra ("
           << (graph::DistanceTraits<Weight>::is_integer ? "exact" : "relative 1e-6")
           << (trees ? "; predecessor trees valid" : "") << ")\n";
    } else {
      out_ << "\n" << failures_;
    }
  }
  run_.path = path_info(path_target);
  if (run_.path) out_ << "\n" << format_path(*run_.path);
  device.host_peak_bytes = peak_resident_bytes();
  if (!o_.quiet)
    out_ << "\nhost memory   peak resident " << format_fixed(static_cast<double>(device.host_peak_bytes) / 1e9, 3)
         << " GB\n";
  out_.flush();

  if (run_.validation_problems > 0) {
    err_ << "sssp: validation failed: " << run_.validation_problems << " problem(s); no output files written\n";
    return 1;
  }
  write_outputs();
  return 0;
}

template <class Weight>
std::optional<PathInfo> Runner<Weight>::path_info(std::optional<graph::vertex_id> target) {
  if (!target) return std::nullopt;
  const std::uint32_t id_base = run_.graph.id_base;
  const graph::vertex_id source = sources_.front();
  PathInfo path;
  path.source = to_user_id(source, id_base);
  path.target = to_user_id(*target, id_base);
  const Dist d = first_distances_[*target];
  path.reachable = d != graph::infinite_distance<Weight>();
  path.distance = format_distance<Weight>(d);
  path.distance_value = static_cast<double>(d);
  if (!path.reachable) return path;
  if (!o_.predecessors) {
    path.note = "add --predecessors for the path";
    return path;
  }
  std::vector<graph::vertex_id> tree = path_predecessors_;
  if (tree.empty()) {
    // CPU delta-stepping computes no tree; Dijkstra's path has the same length.
    (void)graph::dijkstra(g_, source, &tree);
    path.note = "path from the CPU Dijkstra tree: " + run_.strategies.front() + " computes no predecessors";
  } else {
    path.note = "path from the " + path_predecessors_from_ + " tree";
  }
  for (const graph::vertex_id v : path_from_predecessors(tree, source, *target))
    path.vertices.push_back(to_user_id(v, id_base));
  if (path.vertices.empty()) path.note = "the predecessor tree holds no path to the target";
  return path;
}

template <class Weight>
void Runner<Weight>::write_outputs() {
  if (!o_.output_path.empty()) {
    graph::write_distances<Dist>(o_.output_path, first_distances_, graph::infinite_distance<Weight>(),
                                 run_.graph.id_base);
    if (!o_.quiet) out_ << "distances     " << o_.output_path << " (source " << run_.sources.front() << ")\n";
  }
  if (!o_.json_path.empty()) {
    try {
      write_file_atomically(o_.json_path, to_json(o_, run_).dump(2) + "\n");
    } catch (...) {
      // No partial output: the run failed, so its distance file goes too.
      if (!o_.output_path.empty()) {
        std::error_code ignored;
        fs::remove(o_.output_path, ignored);
      }
      throw;
    }
    if (!o_.quiet) out_ << "json          " << o_.json_path << "\n";
  }
}

int run(const AppOptions& o, std::ostream& out, std::ostream& err) {
  check_output_path(o.output_path, "--output");
  check_output_path(o.json_path, "--json");

  // Probe the GPU only when it might be used.
  std::string why_not;
  const bool gpu_usable = o.device != DeviceRequest::Cpu && sssp::gpu_available(&why_not);
  const DeviceChoice device = resolve_device(o.device, gpu_usable, why_not);
  std::vector<Algorithm> algorithms = resolve_algorithms(o, device.kind);

  LoadedGraph loaded = load_or_generate(o);
  return std::visit(
      [&](const auto& g) {
        using Weight = typename std::decay_t<decltype(g)>::weight_type;
        Runner<Weight> runner(g, o, std::move(loaded.info), device, std::move(algorithms), out, err);
        return runner.run();
      },
      loaded.csr);
}

}  // namespace

int run_sssp(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  // `sssp bench ...`: the benchmark mode, argv[1] as its program name.
  if (argc > 1 && std::string(argv[1]) == "bench") return run_bench(argc - 1, argv + 1, out, err);
  try {
    const AppOptions options = parse_options(argc, argv);
    if (options.help) {
      out << help_text();
      return 0;
    }
    return run(options, out, err);
  } catch (const UsageError& e) {
    err << "sssp: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const graph::InputError& e) {
    err << "sssp: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    // The solver rejecting a parameter (bucket count, delta, graph size).
    err << "sssp: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    err << "sssp: out of host memory\n";
    return 1;
  } catch (const std::exception& e) {
    err << "sssp: " << one_line(e.what()) << "\n";
    return 1;
  } catch (...) {
    err << "sssp: unknown error\n";
    return 1;
  }
}

}  // namespace app
