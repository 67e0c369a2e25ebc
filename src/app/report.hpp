// What a run reports, and the text tables that show it. The numbers are
// computed once (graph/metrics.hpp definitions) into these records; the text
// printer here and the JSON writer (json_report.hpp) only format them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/options.hpp"
#include "graph/metrics.hpp"
#include "sssp/graph_shape.hpp"
#include "sssp/plan.hpp"
#include "sssp/solver.hpp"

namespace app {

// A plain-text table: columns sized to their widest cell, two spaces apart,
// numbers right-aligned, a dashed rule under the header, no trailing blanks.
// The report's tables leave out columns that hold only "-".
class Table {
 public:
  enum class Align { Left, Right };
  struct Column {
    std::string header;
    Align align = Align::Right;
  };
  explicit Table(std::vector<Column> columns);
  // Throws std::logic_error when the row's size differs from the columns'.
  void add_row(std::vector<std::string> cells);
  // Leaves out the columns whose every cell is "-" (what does not apply).
  Table& omit_empty_columns();
  std::string render() const;

 private:
  std::vector<Column> columns_;
  bool omit_empty_ = false;
  std::vector<std::vector<std::string>> rows_;
};

// Number formatting shared by every table and header line.
std::string format_fixed(double value, int decimals);
std::string format_delta(double delta);  // 6 significant digits, no trailing zeros

// graph::summarize_times (median: mean of the two middle runs for an even
// count), but throws std::invalid_argument on an empty list.
using graph::TimingSummary;
TimingSummary summarize_times(const std::vector<double>& solve_ms);

enum class Check { NotRun, Passed, Failed };
const char* to_string(Check c);

// One strategy on one source with one delta, after its timed runs.
struct RunRecord {
  std::string strategy;           // "near-far", ..., "delta-stepping", "dijkstra"
  std::string device;             // "gpu" or "cpu": where it ran
  std::uint64_t source = 0;       // as the user sees it (file ids)
  std::optional<double> delta;    // as requested; none for strategies that do not use one
  std::optional<double> delta_used;  // as the solver reports it (the GPU rounds down to whole
                                     // numbers for integer weights)
  std::vector<double> solve_ms;   // every timed run, in order
  TimingSummary time;
  std::uint64_t reached_vertices = 0;
  std::uint64_t reached_arcs = 0;  // out-arcs of reached vertices (MTEPS numerator)
  std::uint64_t relaxations = 0;   // of the last timed run
  // Relax rounds of the last timed run (GPU strategies; none for the CPU
  // solvers), and their split between the single-block loop (narrow) and
  // the multi-block grid (wide): the split only where the solver reports one
  // that adds up to `rounds` (an engine that does not count it reports 0 / 0).
  std::optional<std::uint64_t> rounds;
  std::optional<std::uint64_t> rounds_narrow;
  std::optional<std::uint64_t> rounds_wide;
  // GPU strategies: hops the cluster's blocks (or the resident block's warps)
  // took on their own between barriers
  // (sssp::SolveResult::cluster_local_steps); rounds + local_steps
  // is the chain of dependent relax steps, us_per_step its cost per step.
  std::optional<std::uint64_t> local_steps;
  std::optional<double> us_per_step;
  // GPU strategies: the whole solve ran in the resident block (one block,
  // every distance in shared memory; sssp::SolveResult::resident): its
  // steps are the narrow rounds.
  std::optional<bool> resident;
  std::optional<std::uint64_t> buckets_processed;  // bucketing / near-far phases, delta-stepping buckets
  // Bucketing strategies: full splits of the far pile in the last timed run,
  // and how many of them one block, and a cooperative grid, did on the
  // device (no host round trip).
  std::optional<std::uint64_t> full_splits;
  std::optional<std::uint64_t> full_splits_in_block;
  std::optional<std::uint64_t> full_splits_in_grid;
  double mteps = 0;       // graph::mteps(reached_arcs, time.median_ms)
  double work_ratio = 0;  // graph::work_ratio(relaxations, reached_arcs)
  // time.median_ms in microseconds / rounds: what one dependent round costs,
  // the number that decides road and grid times. None without rounds (or 0).
  std::optional<double> us_per_round;
  bool has_predecessors = false;
  Check validation = Check::NotRun;
  std::uint64_t mismatches = 0;  // distance and tree errors found by --validate
  // Solved in a batch (BatchRecord): solve_ms are the call's time / its
  // sources, since the sources of a call share it.
  bool batched = false;
};

// Fills time, mteps, work_ratio and us_per_round from the raw fields (the
// one place the metric definitions are applied to a record).
void finish_record(RunRecord& record);

// One strategy's sources solved in batches (--batch): the totals of the
// calls; each source also has its RunRecord (batched = true).
struct BatchRecord {
  std::string strategy;          // as in the RunRecords ("near-far", "dijkstra")
  std::string device;            // "gpu" or "cpu"
  std::string solver;            // how the batch runs, e.g. "dijkstra, one source per thread, 16 threads"
  std::optional<double> delta;   // as requested; none for strategies without one
  std::uint32_t sources = 0;     // K
  std::uint32_t batch_size = 0;  // sources per call (--batch B, or K)
  std::uint32_t calls = 0;       // ceil(K / batch_size)
  std::vector<double> solve_ms;  // every timed run: all calls of the batch together
  TimingSummary time;
  std::uint64_t reached_arcs = 0;  // summed over the sources (MTEPS numerator)
  double per_source_ms = 0;        // time.median_ms / sources
  double sources_per_second = 0;   // sources / median batch time
  double mteps = 0;                // graph::mteps(reached_arcs, time.median_ms): all sources together
  // GPU: the most sources one launch took (free memory decides), and how
  // many sources outgrew their block and were then solved together (copies
  // of the graph) or finished alone (last timed run).
  std::optional<std::uint32_t> sources_per_launch;
  std::optional<std::uint32_t> solved_together;
  std::optional<std::uint32_t> finished_alone;
  std::optional<std::uint32_t> resident;  // GPU: sources solved in the resident block, one block each
  std::optional<int> threads;      // CPU: threads the batch ran on
  std::uint32_t validated = 0;     // sources checked by --validate
  std::uint32_t failed = 0;        // of them, sources with a mismatch
};

// Fills time, per_source_ms, sources_per_second and mteps from the raw fields.
void finish_batch_record(BatchRecord& record);

// One strategy (and delta) over all sources of the run.
struct SummaryRow {
  std::string strategy;
  std::string device;
  std::optional<double> delta;
  std::uint32_t sources = 0;
  double solve_ms = 0;    // mean over sources of the per-source median
  double mteps = 0;       // total reached arcs / total of the per-source medians
  double work_ratio = 0;  // total relaxations / total reached arcs
  std::optional<double> rounds;             // mean over sources (GPU strategies)
  std::optional<double> rounds_narrow;      // mean over sources, when every source has the split
  std::optional<double> rounds_wide;
  std::optional<double> us_per_round;       // total of the per-source medians (us) / total rounds
  std::optional<double> buckets_processed;  // mean over sources
  std::optional<double> speedup;  // baseline solve_ms / this solve_ms; none without a baseline row
};

// Rows in order of first appearance of (strategy, delta). The baseline is the
// row of `baseline_strategy` with the same delta, or any row of it when the
// baseline uses one delta only.
std::vector<SummaryRow> summarize(const std::vector<RunRecord>& records,
                                  const std::string& baseline_strategy = "delta-stepping");

// The graph as loaded or generated (text header and JSON "graph").
struct GraphInfo {
  std::string source;           // file path or canonical generator spec
  bool generated = false;
  std::string format;           // "mtx", "gr", "el", "bin" or "generated"
  std::uint64_t vertices = 0;
  std::uint64_t arcs = 0;
  std::string weight_type;      // "uint32" or "float"
  std::string weight_rule;      // WeightRule::describe() as applied
  bool file_has_weights = false;
  std::uint32_t id_base = 0;    // ids as the user sees them
  bool undirected = false;
  std::uint64_t input_entries = 0;
  std::uint64_t self_loops_dropped = 0;
  std::uint64_t duplicates_dropped = 0;
  std::uint64_t file_bytes = 0;
  double parse_ms = 0;          // 0 for generated graphs and cache hits
  double build_ms = 0;
  double total_ms = 0;          // load or generate, all included
  bool from_cache = false;
  bool cache_written = false;
  double cache_saved_ms = 0;    // from cache: the original parse + build time minus this load
  // --labels: the label of each vertex id (shared: the outputs print them).
  std::shared_ptr<const std::vector<std::string>> labels;
};

struct DeviceInfo {
  std::string requested;        // "auto", "gpu", "cpu"
  std::string kind;             // "gpu" or "cpu": what runs the GPU strategies' slot
  std::string description;      // sssp::gpu_description() or "CPU, N threads"
  std::optional<sssp::GpuIdentity> gpu;  // the GPU's name, driver and CUDA versions as fields; empty: no GPU
  std::string note;             // why auto fell back to the CPU, else empty
  int cpu_threads = 0;          // threads for CPU solvers
  std::optional<double> upload_ms;  // host-to-device copy of the graph (first upload)
  std::optional<std::uint64_t> gpu_bytes;        // device memory the GPU solver holds (graph + work arrays)
  std::optional<std::uint64_t> gpu_graph_bytes;  // the CSR's share of gpu_bytes
  std::uint64_t host_peak_bytes = 0;             // peak resident set of this process at the end of the run
  std::string load_balance;                      // GPU relax rounds as resolved ("three-stage", "binned"); empty: no GPU
  double heavy_arc_share = 0;                    // share of arcs leaving vertices of out-degree >= 32 (auto's statistic)
  std::string vertex_order;                      // the GPU copy's numbering as resolved ("input", "degree", "rcm"); empty: no GPU
  double reorder_ms = 0;                         // what making that numbering cost (host order + device kernels)
  std::optional<sssp::ExecutionPlan> plan;       // what the GPU solver runs (GpuSolver::plan()); empty: no GPU solver
};

struct DeltaInfo {
  bool automatic = true;     // --delta auto
  double value = 0;          // the delta used (first of a sweep)
  double auto_value = 0;     // the auto rule's delta for the graph (auto_rule)
  // The rule behind auto_value: the GPU's (sssp::choose_delta_c: c by the
  // hop diameter estimate) or, when the solvers run on the CPU, the CPU's own
  // (graph::auto_delta_cpu).
  std::string auto_rule = "c x mean weight / mean out-degree";
  std::vector<double> sweep; // the deltas of --delta-sweep, else empty
  // A GPU run with --delta auto (no sweep) that also runs a CPU strategy
  // (delta-stepping): the CPU rule's delta, which that strategy uses. The
  // GPU's wide buckets would slow the CPU solver and flatter the GPU.
  std::optional<double> cpu_auto_value;
};

// The delta strategy `a` runs at when the run's delta is d: a CPU strategy
// of a GPU run takes delta.cpu_auto_value where it is set, every other one d.
double delta_for_strategy(Algorithm a, double d, const DeltaInfo& delta);

// --path-to: distance from the first source, and the path when known.
struct PathInfo {
  std::uint64_t source = 0;  // user ids
  std::uint64_t target = 0;
  bool reachable = false;
  std::string distance;      // as printed: integer, or float with 9 digits
  double distance_value = 0;
  std::vector<std::uint64_t> vertices;  // source .. target (user ids); empty when not known
  std::string note;          // where the path came from or why there is none
  std::shared_ptr<const std::vector<std::string>> labels;  // --labels: vertices named by them
};

// --strategy auto: what it chose and why (sssp/auto_strategy.hpp on a GPU).
struct AutoStrategyInfo {
  std::string chosen;        // "near-far", "bellman-ford"; "delta-stepping" on the cpu device
  std::string reason;        // one line: the statistics read and the comparison that decided
  std::uint64_t source = 0;  // the source measured from (user id): the run's first
  double measure_ms = 0;     // host time the measurement took
  std::optional<sssp::GraphShape> shape;  // empty where nothing was measured (cpu device)
};

// --contract: what the chain contraction did (graph/contraction.hpp).
struct ContractionInfo {
  bool used = false;
  std::string reason;  // why it is used or not
  std::uint64_t core_vertices = 0, core_arcs = 0, shortcuts = 0;
  std::uint64_t tree_vertices = 0, chain_vertices = 0;
  double ms = 0;  // host time to contract (once per graph, not in any solve time)
  // The GPU strategies solve a core this small (sssp::kHostCoreMaxVertices)
  // by Dijkstra on the host.
  bool core_on_host = false;
  // --strategy phast: the contraction hierarchy over the core (graph/hierarchy.hpp).
  bool hierarchy = false;
  double hierarchy_ms = 0;  // host time to build it (once per graph, not in any solve time)
  std::uint64_t hierarchy_shortcuts = 0, hierarchy_levels = 0;
  // --cache: the contraction and the hierarchy read from sealed files beside
  // the graph (ms is then the read), or written there; `cache` says which,
  // or why a file there was refused (then rebuilt and written anew).
  bool from_cache = false, hierarchy_from_cache = false;
  std::string cache;
};

// Text blocks of the report. Each ends with a newline.
std::string format_graph_header(const GraphInfo& graph);
std::string format_device_header(const DeviceInfo& device);
// "gpu memory    X GB held by the solver (graph Y GB)", empty without a GPU solver.
std::string format_gpu_memory_line(const DeviceInfo& device);
// "load balance  binned (87.0% of arcs leave vertices of out-degree >= 32)", empty without a GPU solver.
std::string format_load_balance_line(const DeviceInfo& device);
// "vertex order  degree (0.412 ms to renumber; results in the file's ids)", or "" without a GPU solver.
std::string format_vertex_order_line(const DeviceInfo& device);
// The GPU solver's plan (-v): its regimes and limits on one line, then one
// line per note ("plan note ..."); empty without a GPU solver.
std::string format_plan_lines(const DeviceInfo& device);
std::string format_delta_line(const DeltaInfo& delta);
// "buckets       B = 10 (...)": the --buckets value, printed when a bucketing
// strategy runs (the tables' "buckets done" column is a count, not B).
std::string format_buckets_line(std::uint32_t buckets);
// "strategy      auto -> near-far (hop diameter estimate ~2100, ...; 0.9 ms from source 0)".
std::string format_auto_strategy_line(const AutoStrategyInfo& choice);
// "contract      core 17429 of 49109 vertices (35.5%), ..." or "contract      off (...)".
std::string format_contraction_line(const ContractionInfo& c, std::uint64_t vertices, std::uint64_t arcs);
// "hierarchy     over the core for phast: ..." when phast runs, else empty.
std::string format_hierarchy_line(const ContractionInfo& c);
// `labels` (--labels): the source column names each source by its label.
std::string format_results_table(const std::vector<RunRecord>& records,
                                 const std::vector<std::string>* labels = nullptr);
std::string format_comparison_table(const std::vector<SummaryRow>& rows, const std::string& baseline_label);
std::string format_sweep_table(const std::vector<SummaryRow>& rows);
std::string format_path(const PathInfo& path);
// A vertex as the user names it: its label with --labels, else its id.
std::string vertex_name(const std::vector<std::string>* labels, std::uint64_t id);
std::string vertex_name(const PathInfo& path, std::uint64_t id);
// The batches of a run: batch time, per-source time, sources/s, MTEPS over
// all sources, launches and sources that finished alone, validation.
std::string format_batch_table(const std::vector<BatchRecord>& batches);

}  // namespace app
