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
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <variant>

#include "app/auto_choice.hpp"
#include "app/batch.hpp"
#include "app/contract_rule.hpp"
#include "app/contraction_forecast.hpp"
#include "app/distance_output.hpp"
#include "graph/memory_budget.hpp"
#include "app/harness.hpp"
#include "app/json_report.hpp"
#include "app/options.hpp"
#include "app/brief_report.hpp"
#include "app/labels.hpp"
#include "app/preflight.hpp"
#include "app/progress.hpp"
#include "app/report.hpp"
#include "app/sources.hpp"
#include "app/validate.hpp"
#include "graph/contraction.hpp"
#include "graph/predecessors.hpp"
#include "graph/distance_io.hpp"
#include "graph/hierarchy.hpp"
#include "graph/io/contraction_cache.hpp"
#include "graph/error.hpp"
#include "graph/generators.hpp"
#include "graph/load.hpp"
#include "graph/reference.hpp"
#include "sssp/auto_strategy.hpp"
#include "sssp/contracted_solver.hpp"
#include "sssp/hierarchy_solver.hpp"
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

// A GPU result in the harness's terms. The narrow / wide split only where it
// adds up: an engine that does not count it leaves both at 0.
template <class Weight>
SolveOutcome<Weight> gpu_outcome(sssp::SolveResult<Weight>&& r, Algorithm a, double delta) {
  SolveOutcome<Weight> outcome;
  outcome.distances = std::move(r.distances);
  outcome.predecessors = std::move(r.predecessors);
  outcome.solve_ms = r.solve_ms;
  outcome.relaxations = r.relaxations;
  outcome.rounds = r.iterations;
  if (r.rounds_narrow + r.rounds_cluster + r.rounds_wide == r.iterations) {
    outcome.rounds_narrow = r.rounds_narrow;
    outcome.rounds_wide = r.rounds_cluster + r.rounds_wide;  // every multi-block round: cluster and grids
  }
  outcome.local_steps = r.cluster_local_steps;
  outcome.resident = r.resident;
  if (a != Algorithm::BellmanFord) {
    outcome.buckets_processed = r.buckets_processed;
    outcome.delta = r.delta > 0 ? r.delta : delta;
  }
  if (a == Algorithm::BucketSort || a == Algorithm::BucketMultisplit) {
    outcome.full_splits = r.full_splits;
    outcome.full_splits_in_block = r.full_splits_in_block;
    outcome.full_splits_in_grid = r.full_splits_in_grid;
  }
  return outcome;
}

// An output file's directory must exist before the run starts: a typo in a
// path must not cost a long run its results.
void check_output_path(const std::string& path, const std::string& option) {
  if (path.empty() || path == "-") return;  // "-": stdout
  const fs::path file(path);
  const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw UsageError(option + " " + path + ": directory '" + dir.string() + "' does not exist");
  if (fs::is_directory(file, ec)) throw UsageError(option + " " + path + ": is a directory");
  if (fs::is_block_file(file, ec)) throw UsageError(option + " " + path + ": is a block device");
}

// True when `a` and `b` name one file that a write to one would replace: the
// same inode where both exist (symlinks, hard links, "./a" and "a"), else the
// same path once symlinks and ".." are resolved. A character device (a
// terminal, /dev/null) takes any number of writers.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec_a, ec_b;
  const bool a_exists = fs::exists(a, ec_a), b_exists = fs::exists(b, ec_b);
  if (a_exists != b_exists) return false;
  if (a_exists) {
    std::error_code ec;
    return fs::equivalent(a, b, ec) && !fs::is_character_file(a, ec);
  }
  const fs::path canonical_a = fs::weakly_canonical(a, ec_a), canonical_b = fs::weakly_canonical(b, ec_b);
  return !ec_a && !ec_b && canonical_a == canonical_b;
}

// An output that names an input or the other output would overwrite it
// (--output over --graph leaves distances where the graph was): refused
// before anything is loaded.
void check_outputs_distinct(const AppOptions& o) {
  // The binary cache is read and written: no output may land on it.
  const std::string cache = o.use_cache ? graph::cache_path_for(o.graph_path, o.cache_path) : std::string();
  // So are the contraction's and the hierarchy's caches beside it.
  const std::string contraction_cache = cache.empty() ? cache : graph::io::contraction_cache_path(cache);
  const std::string hierarchy_cache = cache.empty() ? cache : graph::io::hierarchy_cache_path(cache);
  const std::pair<const char*, const std::string*> inputs[] = {{"--graph", &o.graph_path},
                                                               {"--sources", &o.sources_file.path},
                                                               {"--targets", &o.targets_file.path},
                                                               {"--cache", &cache},
                                                               {"--cache (the contraction's)", &contraction_cache},
                                                               {"--cache (the hierarchy's)", &hierarchy_cache}};
  const std::pair<const char*, const std::string*> outputs[] = {{"--output", &o.output_path},
                                                                {"--json", &o.json_path}};
  // "-" is a standard stream (stdin in, stdout out), never a file.
  for (const auto& [option, path] : outputs) {
    if (path->empty() || *path == "-") continue;
    for (const auto& [input, input_path] : inputs)
      if (!input_path->empty() && *input_path != "-" && same_file(*path, *input_path))
        throw UsageError(std::string(option) + " " + *path + " and " + input + " " + *input_path +
                         " name the same file: the run would overwrite its input");
  }
  if (!o.output_path.empty() && !o.json_path.empty() && o.output_path != "-" && o.json_path != "-" &&
      same_file(o.output_path, o.json_path))
    throw UsageError("--output " + o.output_path + " and --json " + o.json_path +
                     " name the same file: one would overwrite the other");
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
    GenerationProgress progress(spec, !o.quiet);
    loaded.csr = graph::generate(spec, rule, o.seed, &stats);
    info.total_ms = ms_since(start);
    progress.done(info.total_ms);
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
    lo.labels = o.labels;
    graph::LoadReport report;
    loaded.csr = graph::load_graph(o.graph_path, lo, &report);
    info.source = o.graph_from_stdin() ? "stdin" : report.path.empty() ? o.graph_path : report.path;
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
    if (o.labels) info.labels = std::make_shared<const std::vector<std::string>>(std::move(report.labels));
  }
  info.vertices = graph::num_vertices(loaded.csr);
  info.arcs = graph::num_arcs(loaded.csr);
  return loaded;
}

// With --labels the sources are named as the user named them: the ids are
// only the loader's numbering.
std::string describe_sources(const AppOptions& o, const std::vector<graph::vertex_id>& sources,
                             std::uint32_t id_base, const std::vector<std::string>* labels) {
  std::ostringstream text;
  const std::size_t shown = std::min<std::size_t>(sources.size(), 16);
  for (std::size_t i = 0; i < shown; ++i)
    text << (i ? ", " : "") << vertex_name(labels, to_user_id(sources[i], id_base));
  if (shown < sources.size()) text << ", ... (" << sources.size() << " in all)";
  if (o.random_sources > 0)
    text << " (random among vertices with out-edges, seed " << o.seed << ")";
  else if (o.sources.empty())
    text << " (the first vertex)";
  if (labels)
    text << ", by label";
  else
    text << ", ids " << id_base << "-based";
  return text.str();
}

// Runs every (delta, source, strategy) of one invocation on a loaded graph.
template <class Weight>
class Runner {
 public:
  using Dist = graph::distance_t<Weight>;

  // The report goes to `out`, warnings and errors to `err`, and what --output
  // - and --json - ask for to `data` (stdout).
  Runner(const graph::Csr<Weight>& g, const AppOptions& o, GraphInfo info, DeviceChoice device,
         std::vector<Algorithm> algorithms, std::ostream& out, std::ostream& err, std::ostream& data)
      : g_(g), o_(o), device_choice_(device), algorithms_(std::move(algorithms)), out_(out), err_(err), data_(data) {
    run_.graph = std::move(info);
  }

  int run();

 private:
  using ReferenceCache = std::map<graph::vertex_id, std::vector<Dist>>;

  SolveFunction<Weight> make_solver(Algorithm a, graph::vertex_id source, double delta,
                                    sssp::GpuSolver<Weight>* gpu) const;
  BatchSolveFunction<Weight> make_batch_solver(Algorithm a, double delta, sssp::GpuSolver<Weight>* gpu) const;
  // Every batched strategy of the plan over all sources, plan_.size at a time.
  void run_batches(double delta, sssp::GpuSolver<Weight>* gpu, ReferenceCache& cache, bool keep_references);
  // Dijkstra's distances for `sources` (from the cache where kept), computed
  // one source per thread.
  std::vector<std::vector<Dist>> references(const std::vector<graph::vertex_id>& sources, ReferenceCache& cache,
                                            bool keep);
  void validate(Algorithm a, graph::vertex_id source, const SolveOutcome<Weight>& outcome,
                const std::vector<Dist>& reference, RunRecord& record);
  // Hands a solved source's distances to --output and --path-to.
  void keep_distances(std::size_t source_index, std::vector<Dist>&& distances, const std::string& strategy);
  std::optional<PathInfo> path_info(std::optional<graph::vertex_id> target);
  void write_outputs();
  void check_result_memory() const;
  // --contract: contracts the graph where asked and where it pays, and sets
  // run_.contraction either way.
  void decide_contraction();
  // --cache on a graph file: the sealed contraction cache's path beside the
  // graph's cache, else empty.
  std::string contraction_cache_file() const;
  std::string graph_cache_file() const;
  // The solves this run would send through the contraction.
  ContractionWorkload contraction_workload() const;
  // What --strategy auto may count on the resident block to hold
  // (sssp::choose_strategy): near-far runs in it on a GPU, one source at a
  // time and without predecessors; 0 otherwise.
  std::uint64_t resident_limit() const;
  // The graph a strategy's rules (auto, delta) read: the core with the first
  // source's entry arcs when contracted, else the graph; and that source in it.
  std::pair<const graph::Csr<Weight>*, graph::vertex_id> rule_graph(graph::Csr<Weight>& scratch) const;

  const graph::Csr<Weight>& g_;
  const AppOptions& o_;
  DeviceChoice device_choice_;
  std::vector<Algorithm> algorithms_;
  std::ostream& out_;
  std::ostream& err_;
  std::ostream& data_;

  RunSummary run_;
  std::vector<graph::vertex_id> sources_;
  BatchPlan plan_;
  std::optional<DistanceOutput<Weight>> output_;  // --output and --json-distances, once the sources are known
  std::vector<Dist> first_distances_;             // first source, first strategy, first delta
  std::vector<graph::vertex_id> path_predecessors_;  // first source, first strategy that gives a tree
  std::string path_predecessors_from_;
  std::string failures_;  // validation problems, as printed

  // --contract (integer weights only): the contraction, the GPU solver over
  // its core, and the CPU path's copy of the core and query workspace.
  std::optional<graph::ChainContraction> contraction_;
  std::unique_ptr<sssp::ContractedGpuSolver> contracted_gpu_;
  std::unique_ptr<graph::IntCsr> cpu_core_;
  std::unique_ptr<graph::ContractionQuery> cpu_query_;
  // --strategy phast: the hierarchy over the core and its GPU solver.
  std::optional<graph::Hierarchy> hierarchy_;
  std::unique_ptr<sssp::HierarchyGpuSolver> phast_gpu_;
};

template <class Weight>
SolveFunction<Weight> Runner<Weight>::make_solver(Algorithm a, graph::vertex_id source, double delta,
                                                  sssp::GpuSolver<Weight>* gpu) const {
  if constexpr (std::is_same_v<Weight, std::uint32_t>) {
    if (a == Algorithm::PhastCpu) {
      // The same query on the host: piece and upward searches, the sweep on
      // one thread, the read-off on o_.threads.
      const graph::IntCsr& g = g_;
      const graph::ChainContraction& c = *contraction_;
      const graph::Hierarchy& h = *hierarchy_;
      graph::ContractionQuery* query = cpu_query_.get();
      const int threads = o_.threads;
      const bool predecessors = o_.predecessors;
      return [&g, &c, &h, query, source, threads, predecessors]() {
        SolveOutcome<Weight> outcome;
        outcome.distances.resize(g.num_vertices);
        if (predecessors) outcome.predecessors.resize(g.num_vertices);
        std::vector<std::uint64_t> core_dist(c.core.num_vertices);
        const auto start = Clock::now();
        query->start(source);
        if (!query->fits()) {
          outcome.distances = graph::dijkstra(g, source, predecessors ? &outcome.predecessors : nullptr);
        } else {
          graph::phast(h, graph::core_seeds(c, *query), core_dist.data());
          query->expand(core_dist.data(), nullptr, outcome.distances.data(), nullptr, threads);
          if (predecessors)
            graph::predecessors_from_distances(g, source, outcome.distances.data(), outcome.predecessors.data(),
                                               threads);
        }
        outcome.solve_ms = ms_since(start);
        outcome.relaxations = query->local_relaxations() + h.down_tails.size();
        outcome.rounds = h.levels();
        return outcome;
      };
    }
    if (a == Algorithm::Phast) {
      sssp::HierarchyGpuSolver* solver = phast_gpu_.get();
      return [solver, source]() {
        sssp::SolveResult<std::uint32_t> r = solver->solve(source);
        SolveOutcome<Weight> outcome;
        outcome.distances = std::move(r.distances);
        outcome.predecessors = std::move(r.predecessors);
        outcome.solve_ms = r.solve_ms;
        outcome.relaxations = r.relaxations;
        outcome.rounds = r.iterations;  // the sweep's levels
        return outcome;
      };
    }
  }
  if (runs_on_gpu(a)) {
    const sssp::Strategy strategy = to_gpu_strategy(a);
    if constexpr (std::is_same_v<Weight, std::uint32_t>) {
      if (contracted_gpu_) {
        sssp::ContractedGpuSolver* cg = contracted_gpu_.get();
        return [cg, source, strategy, a, delta]() { return gpu_outcome(cg->solve(source, strategy, delta), a, delta); };
      }
    }
    return [gpu, source, strategy, a, delta]() { return gpu_outcome(gpu->solve(source, strategy, delta), a, delta); };
  }
  if constexpr (std::is_same_v<Weight, std::uint32_t>) {
    if (a == Algorithm::DeltaStepping && contraction_) {
      // Delta-stepping on the core: the piece search, the core solve and the
      // read-off are all timed, as the GPU's contracted solve is.
      const int threads = o_.threads;
      const graph::IntCsr& g = g_;
      graph::ContractionQuery* query = cpu_query_.get();
      graph::IntCsr* core = cpu_core_.get();
      const bool predecessors = o_.predecessors;
      return [&g, query, core, source, delta, threads, predecessors]() {
        graph::CpuSolveStats stats;
        SolveOutcome<Weight> outcome;
        outcome.distances.resize(g.num_vertices);
        if (predecessors) outcome.predecessors.resize(g.num_vertices);
        const auto start = Clock::now();
        query->start(source);
        if (!query->fits()) {
          graph::delta_stepping(g, source, delta, threads, outcome.distances.data(), &stats);
        } else {
          query->apply_entry(*core);
          const auto core_dist = graph::delta_stepping_new_array(*core, query->core_source(), delta, threads, &stats);
          query->expand(core_dist.get(), nullptr, outcome.distances.data(), nullptr, threads);
        }
        if (predecessors)
          graph::predecessors_from_distances(g, source, outcome.distances.data(), outcome.predecessors.data(), threads);
        outcome.solve_ms = ms_since(start);
        outcome.relaxations = stats.relaxations + query->local_relaxations();
        outcome.buckets_processed = stats.phases;
        outcome.delta = stats.delta > 0 ? stats.delta : delta;
        return outcome;
      };
    }
  }
  if (a == Algorithm::DeltaStepping) {
    const int threads = o_.threads;
    const graph::Csr<Weight>& g = g_;
    // Integer weights get a tree from the finished distances; float weights
    // none (graph/predecessors.hpp says why).
    const bool predecessors = o_.predecessors && graph::DistanceTraits<Weight>::is_integer;
    return [&g, source, delta, threads, predecessors]() {
      graph::CpuSolveStats stats;
      SolveOutcome<Weight> outcome;
      // The result vector is allocated (and zeroed, on one thread) outside
      // the solve time, as the GPU's solve time leaves out its copy-back.
      outcome.distances.resize(g.num_vertices);
      if (predecessors) outcome.predecessors.resize(g.num_vertices);
      const auto start = Clock::now();
      graph::delta_stepping(g, source, delta, threads, outcome.distances.data(), &stats);
      if constexpr (std::is_same_v<Weight, std::uint32_t>) {
        if (predecessors)
          graph::predecessors_from_distances(g, source, outcome.distances.data(), outcome.predecessors.data(), threads);
      }
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
BatchSolveFunction<Weight> Runner<Weight>::make_batch_solver(Algorithm a, double delta,
                                                             sssp::GpuSolver<Weight>* gpu) const {
  if constexpr (std::is_same_v<Weight, std::uint32_t>) {
    if (a == Algorithm::Phast) {
      sssp::HierarchyGpuSolver* solver = phast_gpu_.get();
      return [solver](const std::vector<graph::vertex_id>& sources) {
        sssp::BatchSolveResult<std::uint32_t> r = solver->solve_batch(sources);
        BatchOutcome<Weight> outcome;
        outcome.solve_ms = r.solve_ms;
        outcome.sources_per_launch = r.sources_per_launch;
        for (sssp::SolveResult<std::uint32_t>& one : r.per_source) {
          SolveOutcome<Weight> o;
          o.distances = std::move(one.distances);
          o.relaxations = one.relaxations;
          o.rounds = one.iterations;  // the sweep's levels
          outcome.per_source.push_back(std::move(o));
        }
        return outcome;
      };
    }
  }
  if (runs_on_gpu(a)) {
    const sssp::Strategy strategy = to_gpu_strategy(a);
    if constexpr (std::is_same_v<Weight, std::uint32_t>) {
      if (contracted_gpu_) {
        sssp::ContractedGpuSolver* cg = contracted_gpu_.get();
        return [cg, strategy, a, delta](const std::vector<graph::vertex_id>& sources) {
          sssp::BatchSolveResult<std::uint32_t> r = cg->solve_batch(sources, strategy, delta);
          BatchOutcome<Weight> outcome;
          outcome.solve_ms = r.solve_ms;
          outcome.sources_per_launch = r.sources_per_launch;
          outcome.solved_together = r.solved_together;
          outcome.finished_alone = r.finished_alone;
          outcome.resident = r.resident;
          for (sssp::SolveResult<std::uint32_t>& one : r.per_source)
            outcome.per_source.push_back(gpu_outcome(std::move(one), a, delta));
          return outcome;
        };
      }
    }
    return [gpu, strategy, a, delta](const std::vector<graph::vertex_id>& sources) {
      sssp::BatchSolveResult<Weight> r = gpu->solve_batch(sources, strategy, delta);
      BatchOutcome<Weight> outcome;
      outcome.solve_ms = r.solve_ms;
      outcome.sources_per_launch = r.sources_per_launch;
      outcome.solved_together = r.solved_together;
      outcome.finished_alone = r.finished_alone;
      outcome.resident = r.resident;
      for (sssp::SolveResult<Weight>& one : r.per_source) outcome.per_source.push_back(gpu_outcome(std::move(one), a, delta));
      return outcome;
    };
  }
  // Dijkstra and delta-stepping on the cpu device: the batched Dijkstra.
  const int threads = o_.threads;
  const graph::Csr<Weight>& g = g_;
  return [&g, threads](const std::vector<graph::vertex_id>& sources) {
    std::vector<graph::CpuSolveStats> stats;
    BatchOutcome<Weight> outcome;
    const auto start = Clock::now();
    std::vector<std::vector<Dist>> rows = graph::dijkstra_batch(g, sources, threads, &stats);
    outcome.solve_ms = ms_since(start);
    outcome.per_source.resize(sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i) {
      outcome.per_source[i].distances = std::move(rows[i]);
      outcome.per_source[i].relaxations = stats[i].relaxations;
    }
    return outcome;
  };
}

template <class Weight>
std::vector<std::vector<typename Runner<Weight>::Dist>> Runner<Weight>::references(
    const std::vector<graph::vertex_id>& sources, ReferenceCache& cache, bool keep) {
  std::vector<graph::vertex_id> missing;
  for (const graph::vertex_id s : sources)
    if (cache.find(s) == cache.end() && std::find(missing.begin(), missing.end(), s) == missing.end())
      missing.push_back(s);
  std::vector<std::vector<Dist>> computed = graph::dijkstra_batch(g_, missing, o_.threads);
  ReferenceCache fresh;
  for (std::size_t i = 0; i < missing.size(); ++i) fresh[missing[i]] = std::move(computed[i]);
  std::vector<std::vector<Dist>> out;
  out.reserve(sources.size());
  for (const graph::vertex_id s : sources) out.push_back(cache.count(s) ? cache[s] : fresh[s]);
  if (keep) cache.merge(fresh);
  return out;
}

template <class Weight>
void Runner<Weight>::keep_distances(std::size_t source_index, std::vector<Dist>&& distances,
                                    const std::string& strategy) {
  if (output_) output_->keep(source_index, distances, strategy);
  if (run_.records.empty()) first_distances_ = std::move(distances);
}

template <class Weight>
void Runner<Weight>::run_batches(double delta, sssp::GpuSolver<Weight>* gpu, ReferenceCache& cache,
                                 bool keep_references) {
  const std::uint32_t id_base = run_.graph.id_base;
  const std::size_t k = sources_.size();
  bool cpu_done = false;
  for (const Algorithm a : plan_.batched) {
    const bool on_gpu = runs_on_gpu(a);
    // Dijkstra and delta-stepping are the same batched Dijkstra: run it once.
    if (!on_gpu && std::exchange(cpu_done, true)) continue;
    BatchRecord batch;
    batch.strategy = on_gpu ? to_string(a) : to_string(Algorithm::Dijkstra);
    batch.device = on_gpu ? "gpu" : "cpu";
    if (on_gpu && uses_delta(a)) batch.delta = delta;
    batch.sources = static_cast<std::uint32_t>(k);
    batch.batch_size = plan_.size;
    batch.calls = static_cast<std::uint32_t>((k + plan_.size - 1) / plan_.size);
    batch.solve_ms.assign(o_.runs, 0.0);
    if (a == Algorithm::Phast) {
      batch.solver = "phast, the piece and upward searches on " + std::to_string(omp_get_max_threads()) +
                     " host threads, then one sweep block per source in shared launches";
      batch.sources_per_launch = 0;
    } else if (on_gpu && contracted_gpu_) {
      batch.solver = std::string(to_string(a)) +
                     " on the contraction's core: one block per junction the sources enter it at (a resident "
                     "block where the core fits one), in shared launches, every source read off on the device";
      batch.solved_together = 0;
      batch.finished_alone = 0;
      batch.resident = 0;
      batch.sources_per_launch = 0;
    } else if (on_gpu) {
      batch.solver = std::string(to_string(a)) +
                     ", one block per source in shared launches (a resident block where the graph fits one), those "
                     "that outgrow a small block together on copies of the graph";
      batch.solved_together = 0;
      batch.finished_alone = 0;
      batch.resident = 0;
      batch.sources_per_launch = 0;
    } else {
      batch.threads = graph::batch_threads(plan_.size, o_.threads);
      batch.solver = cpu_batch_description(*batch.threads);
    }
    const BatchSolveFunction<Weight> solve = make_batch_solver(a, delta, gpu);
    for (std::size_t first = 0; first < k; first += plan_.size) {
      const std::size_t count = std::min<std::size_t>(plan_.size, k - first);
      const std::vector<graph::vertex_id> call(sources_.begin() + static_cast<std::ptrdiff_t>(first),
                                               sources_.begin() + static_cast<std::ptrdiff_t>(first + count));
      BatchOutcome<Weight> outcome = solve(call);  // warm-up, not timed
      std::vector<double> call_ms;
      for (std::uint32_t run = 0; run < o_.runs; ++run) {
        outcome = solve(call);
        call_ms.push_back(outcome.solve_ms);
        batch.solve_ms[run] += outcome.solve_ms;
      }
      if (outcome.per_source.size() != count)
        throw std::runtime_error(batch.strategy + " returned " + std::to_string(outcome.per_source.size()) +
                                 " results for " + std::to_string(count) + " sources");
      if (outcome.sources_per_launch)
        batch.sources_per_launch = std::max(*batch.sources_per_launch, *outcome.sources_per_launch);
      if (outcome.solved_together) *batch.solved_together += *outcome.solved_together;
      if (outcome.finished_alone) *batch.finished_alone += *outcome.finished_alone;
      if (outcome.resident) *batch.resident += *outcome.resident;
      const std::vector<std::vector<Dist>> reference =
          o_.validate ? references(call, cache, keep_references) : std::vector<std::vector<Dist>>{};
      for (std::size_t b = 0; b < count; ++b) {
        RunRecord record;
        record.strategy = batch.strategy;
        record.device = batch.device;
        record.source = to_user_id(call[b], id_base);
        record.delta = batch.delta;
        record.batched = true;
        // The sources of a call share its time: each is charged its share.
        for (const double ms : call_ms) record.solve_ms.push_back(ms / static_cast<double>(count));
        SolveOutcome<Weight>& one = outcome.per_source[b];
        fill_record(g_, one, record);
        if (o_.validate) {
          validate(a, call[b], one, reference[b], record);
          batch.validated += 1;
          batch.failed += record.validation == Check::Failed ? 1 : 0;
        }
        batch.reached_arcs += record.reached_arcs;
        keep_distances(first + b, std::move(one.distances), record.strategy);
        run_.records.push_back(std::move(record));
      }
    }
    finish_batch_record(batch);
    run_.batches.push_back(std::move(batch));
  }
}

template <class Weight>
void Runner<Weight>::validate(Algorithm a, graph::vertex_id source, const SolveOutcome<Weight>& outcome,
                              const std::vector<Dist>& reference, RunRecord& record) {
  const std::uint32_t id_base = run_.graph.id_base;
  ValidationReport report;
  compare_distances<Weight>(reference, outcome.distances, id_base, report);
  if (!outcome.predecessors.empty()) {
    check_predecessor_tree<Weight>(g_, source, outcome.distances, outcome.predecessors, id_base, report);
  } else if (o_.predecessors && (a != Algorithm::DeltaStepping || graph::DistanceTraits<Weight>::is_integer)) {
    // Every solver but CPU delta-stepping on float weights promises a tree
    // when asked.
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
std::uint64_t Runner<Weight>::resident_limit() const {
  if (device_choice_.kind != DeviceKind::Gpu || o_.predecessors) return 0;
  if (plan_batches(o_, device_choice_.kind, {Algorithm::NearFar}, sources_.size()).any()) return 0;
  return sssp::resident_max_vertices(0);
}

template <class Weight>
ContractionWorkload Runner<Weight>::contraction_workload() const {
  // Every solve runs once untimed (the warm-up) and o_.runs times timed; a
  // sweep repeats the strategies that take a delta for each of its deltas.
  const std::uint64_t per_source = std::uint64_t{o_.runs} + 1;
  const std::uint64_t sweep = o_.delta_sweep ? std::max<std::uint64_t>(o_.sweep.size(), 1) : 1;
  ContractionWorkload w;
  for (const Algorithm a : algorithms_) {
    if (a == Algorithm::Dijkstra || uses_hierarchy(a)) continue;
    if (plan_.has(a)) {
      if (runs_on_gpu(a)) w.batched_queries += sources_.size() * per_source;
      continue;
    }
    w.single_queries += sources_.size() * per_source * (uses_delta(a) ? sweep : 1);
  }
  return w;
}

// Writes one cache file through `write` and says so in info.cache; a cache
// that cannot be written costs the next run its rebuild, not this run.
template <class Write>
void write_cache(const std::string& path, Write write, ContractionInfo& info) {
  const std::string sep = info.cache.empty() ? "" : "; ";
  try {
    write();
    info.cache += sep + "wrote " + path;
  } catch (const std::exception& e) {
    info.cache += sep + "not written: " + graph::printable(e.what());
  }
}

// Reads one cache file through `read` where it exists and says so in
// info.cache; a refused file (InputError) is said and left to be rebuilt.
// Returns whether it was read.
template <class Read>
bool read_cache(const std::string& path, Read read, ContractionInfo& info) {
  if (path.empty() || !std::filesystem::exists(path)) return false;
  const std::string sep = info.cache.empty() ? "" : "; ";
  try {
    read();
    info.cache += sep + "read " + path;
    return true;
  } catch (const graph::InputError& e) {
    info.cache += sep + graph::printable(e.what()) + "; rebuilt";
    return false;
  }
}

template <class Weight>
std::string Runner<Weight>::graph_cache_file() const {
  return o_.use_cache && !o_.generated() && !o_.graph_from_stdin() ? graph::cache_path_for(o_.graph_path, o_.cache_path)
                                                                   : std::string();
}

template <class Weight>
std::string Runner<Weight>::contraction_cache_file() const {
  const std::string g = graph_cache_file();
  return g.empty() ? g : graph::io::contraction_cache_path(g);
}

template <class Weight>
void Runner<Weight>::decide_contraction() {
  ContractionInfo info;
  const bool phast = std::any_of(algorithms_.begin(), algorithms_.end(), uses_hierarchy);
  // Batched GPU strategies solve the core; a batched CPU run is the batched
  // Dijkstra over the whole graph.
  const bool any_solver = std::any_of(algorithms_.begin(), algorithms_.end(), [&](Algorithm a) {
    return a != Algorithm::Dijkstra && (runs_on_gpu(a) || !plan_.has(a));
  });
  if (phast && o_.contract == ContractRequest::Off)
    throw UsageError("--strategy phast and phast-cpu work on the chain contraction's core: drop --contract off");
  if (phast && !graph::DistanceTraits<Weight>::is_integer)
    throw UsageError("--strategy phast and phast-cpu need integer weights (this graph's are float)");
  // PHAST beside a batched near-far or bellman-ford is not yet combined in one run.
  const bool other_batches = std::any_of(plan_.batched.begin(), plan_.batched.end(),
                                         [](Algorithm a) { return a != Algorithm::Phast; });
  if (phast && other_batches)
    throw UsageError("--strategy phast solves the contraction's core, and " + plan_.reason +
                     ": add --batch 1 to solve every strategy's sources one by one");
  if (o_.contract == ContractRequest::Off) {
    info.reason = "--contract off";
  } else if (!graph::DistanceTraits<Weight>::is_integer) {
    info.reason = "float weights: a shortcut's sum would round unlike the solvers' step-by-step sums";
  } else if (!any_solver && !phast) {
    info.reason = plan_.any() ? "the batched dijkstra on the CPU solves the whole graph"
                              : "dijkstra, the reference, solves the whole graph";
  } else if constexpr (std::is_same_v<Weight, std::uint32_t>) {
    // Contraction saves rounds, and only graphs of many rounds (high hop
    // diameter: roads) repay its host-side part; social graphs lose
    // (docs/TUNING.md, "Chain contraction"). phast always needs it. auto
    // asks the cheap questions first, so a large graph that cannot pay
    // (R-MAT, a big grid) is not contracted only to be thrown away: a hop
    // estimate (a BFS bounded to 2^16 arcs), then the share of vertices
    // with at most two out-arcs, which chain and tree vertices mostly have.
    const bool automatic = o_.contract == ContractRequest::Auto && !phast;
    const std::uint64_t hops = automatic ? sssp::measure_shape(g_, sources_.front()).hop_estimate : 0;
    std::uint64_t low_degree = 0;
    if (automatic && hops >= kContractMinHops)
      for (graph::vertex_id v = 0; v < g_.num_vertices; ++v) low_degree += g_.out_degree(v) <= 2;
    const double low_share = g_.num_vertices ? static_cast<double>(low_degree) / g_.num_vertices : 0.0;
    if (automatic && hops < kContractMinHops) {
      info.reason = "auto: hop diameter estimate " + std::to_string(hops) + " < " + std::to_string(kContractMinHops) +
                    ": too few rounds to save";
      run_.contraction = info;
      return;
    }
    if (automatic && low_share < kContractMinLowDegreeShare) {
      info.reason = "auto: " + format_fixed(100.0 * low_share, 1) +
                    "% of the vertices have at most two out-arcs: too few chains to contract";
      run_.contraction = info;
      return;
    }
    // A contraction cached by an earlier run (--cache) costs only its read,
    // so the cost rule does not apply to it.
    const std::string cache_file = contraction_cache_file();
    const auto start = Clock::now();
    std::optional<graph::ChainContraction> cached;
    info.from_cache =
        read_cache(cache_file, [&] { cached = graph::io::read_contraction_cache(cache_file, g_); }, info);
    const ContractionWorkload workload = contraction_workload();
    const ContractionForecast forecast = forecast_contraction(g_.num_vertices, g_.num_arcs(), workload);
    if (automatic && !cached && !forecast.pays()) {
      info.reason = "auto: " + forecast.describe(workload) + "; --contract on forces it";
      run_.contraction = info;
      return;
    }
    graph::ChainContraction c = cached ? std::move(*cached) : graph::contract_chains(g_);
    info.ms = ms_since(start);
    if (!cache_file.empty() && !info.from_cache) write_cache(cache_file, [&] { graph::io::write_contraction_cache(cache_file, g_, c); }, info);
    info.core_vertices = c.core_vertices();
    info.core_arcs = c.core_arcs();
    info.shortcuts = c.shortcuts;
    info.tree_vertices = c.peeled;
    info.chain_vertices = c.chain_vertices;
    const double kept = g_.num_vertices ? 100.0 * c.core_vertices() / static_cast<double>(g_.num_vertices) : 100.0;
    if (automatic && !graph::contraction_pays(c)) {
      info.reason = "auto: the core would keep " + format_fixed(kept, 1) + "% of the vertices; it contracts at 75% or less";
    } else {
      info.used = true;
      info.reason = phast                                 ? "phast works on the core"
                    : o_.contract == ContractRequest::On ? "--contract on"
                                                         : "auto: hop diameter estimate " + std::to_string(hops) +
                                                               " >= " + std::to_string(kContractMinHops) +
                                                               ", the core keeps 75% of the vertices or less, " +
                                                               (info.from_cache ? std::string("and it was cached")
                                                                                : forecast.describe(workload));
      info.core_on_host = sssp::solves_core_on_host(c) &&
                          std::any_of(algorithms_.begin(), algorithms_.end(), [&](Algorithm a) {
                            return runs_on_gpu(a) && !uses_hierarchy(a) && !plan_.has(a);
                          });
      contraction_ = std::move(c);
      cpu_core_ = std::make_unique<graph::IntCsr>(contraction_->core);
      cpu_query_ = std::make_unique<graph::ContractionQuery>(*contraction_, g_);
      if (phast) {
        const auto built = Clock::now();
        const std::string hierarchy_file =
            cache_file.empty() ? std::string() : graph::io::hierarchy_cache_path(graph_cache_file());
        info.hierarchy_from_cache = read_cache(
            hierarchy_file, [&] { hierarchy_ = graph::io::read_hierarchy_cache(hierarchy_file, g_, *contraction_); },
            info);
        if (!hierarchy_) {
          hierarchy_ = graph::build_hierarchy(contraction_->core);
          if (!hierarchy_file.empty())
            write_cache(hierarchy_file, [&] { graph::io::write_hierarchy_cache(hierarchy_file, g_, *hierarchy_); }, info);
        }
        info.hierarchy = true;
        info.hierarchy_ms = ms_since(built);
        info.hierarchy_shortcuts = hierarchy_->shortcuts;
        info.hierarchy_levels = hierarchy_->levels();
      }
    }
  }
  run_.contraction = info;
}

template <class Weight>
std::pair<const graph::Csr<Weight>*, graph::vertex_id> Runner<Weight>::rule_graph(graph::Csr<Weight>& scratch) const {
  if constexpr (std::is_same_v<Weight, std::uint32_t>) {
    if (contraction_) {
      // The CPU path's query workspace: every solve restarts it anyway.
      cpu_query_->start(sources_.front());
      scratch = contraction_->core;
      cpu_query_->apply_entry(scratch);
      return {&scratch, cpu_query_->core_source()};
    }
  }
  return {&g_, sources_.front()};
}

template <class Weight>
int Runner<Weight>::run() {
  const std::uint32_t id_base = run_.graph.id_base;
  const graph::vertex_id n = g_.num_vertices;

  // Everything the user can get wrong about ids is checked before any output.
  sources_ = resolve_sources(o_.sources, o_.random_sources, o_.seed, id_base, g_.offsets, o_.sources_file);
  std::vector<graph::vertex_id> targets = resolve_targets(o_.targets, id_base, n, o_.targets_file);
  std::optional<graph::vertex_id> path_target;
  if (o_.path_to) path_target = to_internal_id(*o_.path_to, id_base, n, "--path-to");
  if (!o_.output_path.empty() || o_.json_distances) {
    const std::uint64_t per_source = targets.empty() ? std::uint64_t{n} : targets.size();
    if (o_.json_distances && per_source * sources_.size() > kMaxJsonDistances)
      throw UsageError("--json-distances: " + std::to_string(sources_.size()) + " source(s) x " +
                       std::to_string(per_source) + " distances is more than a JSON record should hold (" +
                       std::to_string(kMaxJsonDistances) + "): write them with --output FILE or --output -");
    output_.emplace(o_.output_path, sources_, std::move(targets), id_base, o_.predecessors, run_.graph.labels);
  }
  for (const graph::vertex_id s : sources_) run_.sources.push_back(to_user_id(s, id_base));
  const std::vector<Algorithm> requested = algorithms_;
  const bool wants_auto = std::find(requested.begin(), requested.end(), Algorithm::Auto) != requested.end();
  if (wants_auto) {
    const AutoResolution chosen =
        resolve_auto_strategy(g_, sources_.front(), id_base, device_choice_.kind, o_.delta_sweep, resident_limit());
    algorithms_ = substitute_auto(requested, chosen.algorithm);
    run_.auto_strategy = chosen.info;
  }
  plan_ = plan_batches(o_, device_choice_.kind, algorithms_, sources_.size());
  check_result_memory();
  decide_contraction();
  graph::Csr<Weight> rule_scratch;
  const auto [rule_g, rule_source] = rule_graph(rule_scratch);
  if (contraction_ && wants_auto) {
    // Auto reads the graph the strategies will solve: the core.
    AutoResolution chosen =
        resolve_auto_strategy(*rule_g, rule_source, id_base, device_choice_.kind, o_.delta_sweep, resident_limit());
    chosen.info.source = to_user_id(sources_.front(), id_base);
    algorithms_ = substitute_auto(requested, chosen.algorithm);
    run_.auto_strategy = chosen.info;
    plan_ = plan_batches(o_, device_choice_.kind, algorithms_, sources_.size());
  }
  run_.batch_reason = plan_.reason;
  for (const Algorithm a : algorithms_) {
    // A batched CPU strategy runs as the batched Dijkstra: name what ran, once.
    const std::string name = runs_on_gpu(a) || !plan_.has(a) ? to_string(a) : to_string(Algorithm::Dijkstra);
    if (std::find(run_.strategies.begin(), run_.strategies.end(), name) == run_.strategies.end())
      run_.strategies.push_back(name);
  }

  DeltaInfo& delta = run_.delta;
  delta.automatic = o_.delta_auto;
  // Each device has its own delta rule: the GPU's wide buckets (c = 16 or
  // 128) cost the CPU solver up to 4x (graph/include/graph/reference.hpp).
  // Both rules read the graph the strategies solve (the core, when contracted).
  if (device_choice_.kind == DeviceKind::Cpu) {
    delta.auto_value = graph::auto_delta_cpu(*rule_g);
    delta.auto_rule = "the CPU rule, f x mean weight / mean out-degree";
  } else {
    // The GPU's rule reads the hop diameter estimate (sssp/auto_strategy.hpp),
    // measured already when --strategy auto chose the strategy.
    const sssp::GraphShape shape = run_.auto_strategy && run_.auto_strategy->shape
                                       ? *run_.auto_strategy->shape
                                       : sssp::measure_shape(*rule_g, rule_source);
    const sssp::DeltaChoice rule = sssp::choose_delta_c(shape);
    delta.auto_value = graph::auto_delta(*rule_g, rule.c);
    delta.auto_rule = rule.reason;
    const bool cpu_strategy = std::any_of(algorithms_.begin(), algorithms_.end(),
                                          [](Algorithm a) { return !runs_on_gpu(a) && uses_delta(a); });
    if (o_.delta_auto && !o_.delta_sweep && cpu_strategy) delta.cpu_auto_value = graph::auto_delta_cpu(*rule_g);
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

  if (!o_.quiet && !o_.verbose) {
    BriefContext context;
    context.sources = describe_sources(o_, sources_, id_base, run_.graph.labels.get());
    // A batched CPU strategy runs as the batched Dijkstra, which takes no delta.
    context.uses_delta = std::any_of(algorithms_.begin(), algorithms_.end(), [&](Algorithm a) {
      return uses_delta(a) && (runs_on_gpu(a) || !plan_.has(a));
    });
    context.several_sources = sources_.size() > 1;
    out_ << format_brief_header(run_, o_, context);
    out_.flush();
  } else if (!o_.quiet) {
    out_ << format_graph_header(run_.graph) << format_device_header(device) << format_delta_line(delta);
    if (run_.contraction)
      out_ << format_contraction_line(*run_.contraction, g_.num_vertices, g_.num_arcs())
           << format_hierarchy_line(*run_.contraction);
    if (run_.auto_strategy) out_ << format_auto_strategy_line(*run_.auto_strategy);
    if (o_.strategy_all) out_ << format_strategy_all_line(run_, skipped_by_all(device_choice_.kind));
    if (std::any_of(algorithms_.begin(), algorithms_.end(),
                    [](Algorithm a) { return a == Algorithm::BucketSort || a == Algorithm::BucketMultisplit; }))
      out_ << format_buckets_line(o_.buckets);
    out_ << "sources       " << describe_sources(o_, sources_, id_base, run_.graph.labels.get()) << "\n";
    out_ << "batch         " << plan_.reason << "\n";
    out_ << "runs          1 warm-up + " << o_.runs << " timed per source and strategy"
         << (plan_.any() ? " (per call when batched)" : "") << "\n";
    out_.flush();
  }

  const bool any_gpu = std::any_of(algorithms_.begin(), algorithms_.end(), runs_on_gpu);
  // References are kept across deltas only when a sweep needs them again,
  // and across strategies when batches and per-source solves both use them.
  ReferenceCache reference_cache;
  const bool keep_references =
      deltas.size() > 1 || (plan_.any() && (plan_.batched.size() > 1 || plan_.batched.size() < algorithms_.size()));
  // One solver (one upload and inspection of the graph) for every delta.
  std::unique_ptr<sssp::GpuSolver<Weight>> gpu;
  for (const double d : deltas) {
    if (any_gpu && !gpu && !contracted_gpu_) {
      sssp::SolverOptions so;
      so.delta = d;
      so.buckets = o_.buckets;
      so.predecessors = o_.predecessors;
      so.memory_limit_bytes = o_.gpu_memory_limit_bytes;
      so.load_balance = o_.load_balance;
      so.vertex_ordering = o_.vertex_ordering;
      sssp::GpuSolver<Weight>* solver = nullptr;
      if constexpr (std::is_same_v<Weight, std::uint32_t>) {
        if (hierarchy_) {
          sssp::HierarchySolverOptions ho;
          ho.predecessors = o_.predecessors;
          phast_gpu_ = std::make_unique<sssp::HierarchyGpuSolver>(g_, *contraction_, *hierarchy_, ho);
        }
        if (contraction_) {
          contracted_gpu_ = std::make_unique<sssp::ContractedGpuSolver>(g_, *contraction_, so);
          solver = &contracted_gpu_->core_solver();
        }
      }
      if (!solver) {
        gpu = std::make_unique<sssp::GpuSolver<Weight>>(g_, so);
        solver = gpu.get();
      }
      if (!device.upload_ms) {
        device.upload_ms = solver->upload_ms();
        device.gpu_bytes = solver->device_bytes();
        device.gpu_graph_bytes = solver->graph_device_bytes();
        device.load_balance = sssp::to_string(solver->load_balance());
        device.heavy_arc_share = solver->heavy_arc_share();
        device.vertex_order = sssp::to_string(solver->vertex_ordering());
        device.reorder_ms = solver->reorder_ms();
        device.plan = solver->plan();
        if (!o_.quiet && o_.verbose)
          out_ << "upload        " << format_fixed(*device.upload_ms, 3) << " ms (graph, host to device)\n"
               << format_gpu_memory_line(device) << format_load_balance_line(device)
               << format_vertex_order_line(device) << format_plan_lines(device);
      }
    }
    if (plan_.any()) run_batches(d, gpu.get(), reference_cache, keep_references);
    const bool any_sequential = std::any_of(algorithms_.begin(), algorithms_.end(),
                                            [&](Algorithm a) { return !plan_.has(a); });
    for (std::size_t si = 0; any_sequential && si < sources_.size(); ++si) {
      const graph::vertex_id source = sources_[si];
      std::vector<Dist> reference;
      if (o_.validate) {
        if (auto it = reference_cache.find(source); it != reference_cache.end()) {
          reference = it->second;
        } else {
          reference = graph::dijkstra(g_, source);
          if (keep_references) reference_cache[source] = reference;
        }
      }
      for (const Algorithm a : algorithms_) {
        if (plan_.has(a)) continue;  // solved in its batches above
        // A sweep runs the strategies that ignore delta (bellman-ford,
        // dijkstra) once, with the first delta, beside the swept ones.
        if (!uses_delta(a) && d != deltas.front()) continue;
        RunRecord identity;
        identity.strategy = to_string(a);
        identity.device = runs_on_gpu(a) ? "gpu" : "cpu";
        identity.source = to_user_id(source, id_base);
        const double strategy_delta = delta_for_strategy(a, d, run_.delta);
        if (uses_delta(a)) identity.delta = strategy_delta;
        SolveOutcome<Weight> last;
        RunRecord record =
            run_timed<Weight>(g_, make_solver(a, source, strategy_delta, gpu.get()), o_.runs, identity, &last);
        if (o_.validate) validate(a, source, last, reference, record);
        if (si == 0 && path_target && path_predecessors_.empty() && !last.predecessors.empty()) {
          path_predecessors_ = last.predecessors;
          path_predecessors_from_ = record.strategy;
        }
        if (output_) output_->keep_predecessors(si, last.predecessors);
        keep_distances(si, std::move(last.distances), record.strategy);
        run_.records.push_back(std::move(record));
      }
    }
  }

  run_.summary = summarize(run_.records);
  if (!o_.verbose) out_ << "\n" << format_brief_results(run_, o_);
  if (o_.verbose) out_ << "\n" << format_results_table(run_.records, run_.graph.labels.get());
  if (o_.verbose && !run_.batches.empty()) {
    out_ << "\nbatches (batch ms: all calls of a strategy's " << sources_.size()
         << " sources, median of the runs; batched rows above show it divided among each call's sources)\n"
         << format_batch_table(run_.batches);
  }
  if (!o_.verbose) {
    // The brief results hold the sweep and the comparison.
  } else if (o_.delta_sweep) {
    out_ << "\ndelta sweep (solve ms: mean over " << sources_.size() << " source(s) of the per-source median)\n"
         << format_sweep_table(run_.summary);
  } else if (algorithms_.size() > 1) {
    out_ << "\ncomparison (solve ms: mean over " << sources_.size() << " source(s) of the per-source median"
         << (plan_.any() ? "; batched: batch time / sources" : "") << ")\n"
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
      (o_.quiet ? err_ : out_) << (o_.quiet ? "" : "\n") << failures_;
    }
  }
  run_.path = path_info(path_target);
  if (run_.path) run_.path->labels = run_.graph.labels;
  // -q keeps the path's answer, the one thing it asked for, on stdout.
  if (run_.path && o_.quiet && !o_.data_to_stdout()) data_ << format_path(*run_.path);
  else if (run_.path) out_ << "\n" << format_report_path(*run_.path, o_.verbose ? kVerbosePathEnds : kBriefPathEnds);
  if (!o_.quiet) err_ << reach_warnings(run_);
  device.host_peak_bytes = peak_resident_bytes();
  if (!o_.quiet && o_.verbose)
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
    // CPU delta-stepping on float weights computes no tree; Dijkstra's path has the same length.
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

// A batch call holds a distance row per source, and --output keeps a row
// per source (every vertex without --targets) until the run ends: refused
// before solving when that cannot fit, as a graph that cannot is.
template <class Weight>
void Runner<Weight>::check_result_memory() const {
  const std::uint64_t row_bytes = std::uint64_t{g_.num_vertices} * sizeof(Dist);
  const std::uint64_t batch_rows = plan_.any() ? plan_.size : 1;
  const std::uint64_t kept_rows = output_ && output_->keeps_whole_rows() ? sources_.size() : 0;
  graph::detail::check_host_bytes(
      o_.sources_file.path.empty() ? "--sources" : o_.sources_file.path, 0,
      graph::detail::mul_add_sat(batch_rows + kept_rows, row_bytes, 0),
      "keeping the distances of " + std::to_string(sources_.size()) + " sources (" +
          std::to_string(g_.num_vertices) + " vertices each)");
}

// Every file is written (to a temporary file beside it) before any is put in
// place, so a failure of either leaves the files already there as they were
// and writes nothing. A FIFO or device gets its bytes as they are written,
// which cannot be taken back: it is written last.
// Standard output ("-") gets its bytes after every file is staged and
// before any is put in place.
template <class Weight>
void Runner<Weight>::write_outputs() {
  const bool distances_to_file = !o_.output_path.empty() && !o_.output_to_stdout();
  // Trees the strategies did not give (CPU delta-stepping on float weights)
  // are CPU Dijkstra's, before anything is written.
  if (output_) output_->complete_predecessors(g_);
  std::optional<graph::detail::AtomicFile> distances;
  std::optional<StagedFile> json;
  if (distances_to_file) distances.emplace(o_.output_path);
  const bool distances_last = distances && distances->in_place();
  if (distances && !distances_last) output_->stage(*distances);
  std::string json_text;
  if (!o_.json_path.empty()) {
    nlohmann::json record = to_json(o_, run_);
    if (o_.json_distances) record["distances"] = output_->to_json();
    json_text = record.dump(2) + "\n";
  }
  if (!o_.json_path.empty() && !o_.json_to_stdout()) json.emplace(o_.json_path, json_text);
  if (distances_last) output_->stage(*distances);
  if (o_.output_to_stdout()) output_->write(data_);
  if (o_.json_to_stdout()) {
    data_ << json_text;
    data_.flush();
    if (!data_) throw std::runtime_error("write to stdout failed");
  }

  if (distances) distances->commit();
  if (json) json->commit();
  if (!o_.quiet && output_ && !o_.output_path.empty())
    out_ << "distances     " << (o_.output_to_stdout() ? "stdout" : o_.output_path) << " " << output_->describe()
         << "\n";
  if (!o_.quiet && !o_.json_path.empty()) out_ << "json          " << (o_.json_to_stdout() ? "stdout" : o_.json_path) << "\n";
}

int run(const AppOptions& o, std::ostream& out, std::ostream& err) {
  check_output_path(o.output_path, "--output");
  check_output_path(o.json_path, "--json");
  check_writable(o.output_path, "--output");
  check_writable(o.json_path, "--json");
  check_outputs_distinct(o);
  check_ids_against_spec(o);
  if (!o.quiet) preflight_warnings(o, err);
  // Data on stdout keeps stdout for itself: the report goes to stderr, and
  // -q sends it nowhere.
  std::ostream nowhere(nullptr);
  std::ostream& report = o.quiet ? nowhere : o.data_to_stdout() ? err : out;

  // Probe the GPU only when it might be used.
  std::string why_not;
  const bool gpu_usable = o.device != DeviceRequest::Cpu && sssp::gpu_available(&why_not);
  const DeviceChoice device = resolve_device(o.device, gpu_usable, why_not);
  std::vector<Algorithm> algorithms = resolve_algorithms(o, device.kind);
  check_batch_request(o, device.kind, algorithms);

  LoadedGraph loaded = load_or_generate(o);
  const AppOptions resolved = o.labels ? resolve_labels(o, *loaded.info.labels) : o;
  return std::visit(
      [&](const auto& g) {
        using Weight = typename std::decay_t<decltype(g)>::weight_type;
        Runner<Weight> runner(g, resolved, std::move(loaded.info), device, std::move(algorithms), report, err, out);
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
    if (options.help || options.help_all || options.version) {
      out << (options.version ? version_text() : options.help_all ? help_all_text() : help_text());
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
