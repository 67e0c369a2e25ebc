// The GPU SSSP solver's public interface: what the `sssp` command, the tests
// and the benchmarks call. Strategies differ only in how they keep the
// frontier; they share the device graph, the relax kernels and the stats.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"
#include "sssp/regime_overrides.hpp"

namespace sssp {

enum class Strategy { NearFar, BucketSort, BucketMultisplit, BellmanFord };

// "near-far", "bucket-sort", "bucket-multisplit", "bellman-ford".
const char* to_string(Strategy s);
// Throws std::invalid_argument naming the value on anything unknown.
Strategy parse_strategy(const std::string& name);
std::vector<Strategy> all_strategies();

// How a relax round spreads the frontier's arcs over the GPU's threads.
//   three-stage  Merrill, Garland and Grimshaw's CTA / warp / scan stages
//                inside each tile of the frontier (relax.cuh);
//   binned       a multisplit of the frontier into thread / warp / block bins
//                by out-degree, then each bin with its own mapping
//                (binned_relax.cuh): one more pass and barrier per round;
//   merge-path   the round's arcs cut into equal chunks, one per block, each
//                arc finding its vertex by binary search over the vertices'
//                first arcs (merge_path_relax.cuh): one more pass and
//                barrier per round, like binned;
//   auto         merge-path: the fastest balancer, or as fast, for near-far
//                and the bucketing strategies on every graph class of
//                bench_sssp.sh's balance part (R-MAT, grids, uniform random,
//                roads, social); bellman-ford, whose frontiers are larger,
//                does somewhat better with the others on grids, roads and
//                small R-MAT (numbers: docs/TUNING.md). Where the merge-path
//                word cannot hold the graph's sizes (merge_path_relax.cuh),
//                binned when at least kBinnedMinHeavyArcShare of the arcs
//                leave vertices of out-degree >= 32, three-stage otherwise.
// Rounds of the single-block loop (small frontiers) use their own scan
// (narrow_relax.cuh).
enum class LoadBalance { Auto, ThreeStage, Binned, MergePath };
inline constexpr double kBinnedMinHeavyArcShare = 0.5;

// "auto", "three-stage", "binned", "merge-path".
const char* to_string(LoadBalance b);
// Throws std::invalid_argument naming the value on anything unknown.
LoadBalance parse_load_balance(const std::string& name);

// How the solver numbers the vertices of its copy of the graph on the device
// (docs/ARCHITECTURE.md, "Vertex order"). Sources, distances and
// predecessors are always in the input's ids; only memory locality changes.
//   input   the input's numbering;
//   degree  by decreasing out-degree (ties by id), computed and applied on
//           the device as the graph is uploaded: the hubs that most arcs of a
//           power-law graph point at share cache lines;
//   rcm     reverse Cuthill-McKee (graph/vertex_order.hpp), computed on the
//           host (seconds on millions of vertices): a wave of a
//           high-diameter graph occupies a range of ids;
//   auto    degree where the out-degrees are skewed (the largest at least
//           kDegreeOrderMinSkew times the mean, on at least
//           kDegreeOrderMinVertices vertices), input otherwise.
// Renumbering stages the arcs in chunks (up to 2^24 arcs, 16 bytes each, plus
// sort space) beyond the memory estimate, released once the graph is placed;
// where they do not fit, auto keeps the input order and degree or rcm throw.
// Measurements: docs/TUNING.md, "Vertex order".
enum class VertexOrdering { Auto, Input, Degree, Rcm };
inline constexpr double kDegreeOrderMinSkew = 32;
inline constexpr std::uint32_t kDegreeOrderMinVertices = 1u << 17;
// SolverOptions::cluster_any_shape's bound.
inline constexpr double kClusterMaxSkew = 16;
inline constexpr std::uint32_t kClusterSkewMaxVertices = 1u << 17;
// SolverOptions::cluster_local_steps: the default (where the graph is not
// skewed) and the largest value.
inline constexpr int kClusterLocalSteps = 128;
inline constexpr int kClusterMaxLocalSteps = 1024;
// SolverOptions::resident_local_steps: the default and the largest value.
inline constexpr int kResidentLocalSteps = 16;
inline constexpr int kResidentMaxLocalSteps = 1024;
// SolverOptions::narrow_max_arcs's default where the cluster takes local
// steps: the single block hands a round of more arcs to the cluster, and
// the cluster hands back below an eighth of it (docs/TUNING.md, "Cluster
// regime: local steps").
inline constexpr std::uint32_t kNarrowMaxArcsBeforeCluster = 1024;

// "auto", "input", "degree", "rcm".
const char* to_string(VertexOrdering o);
// Throws std::invalid_argument naming the value on anything unknown.
VertexOrdering parse_vertex_ordering(const std::string& name);

struct SolverOptions {
  double delta = 0;            // bucket width for solve(source, strategy): > 0 there (the caller resolves "auto")
  std::uint32_t buckets = 10;  // bucketing strategies: number of buckets B
  bool predecessors = false;   // also compute a shortest-path tree
  int device = 0;              // CUDA device ordinal
  std::uint64_t memory_limit_bytes = 0;  // 0: the device's free memory; else pretend only this much exists
  LoadBalance load_balance = LoadBalance::Auto;
  VertexOrdering vertex_ordering = VertexOrdering::Auto;
  // Tests and measurements only (regime_bench): regimes forced off or on and
  // their sizes. The defaults are the plan's; users leave them.
  RegimeOverrides overrides;
};

// What a solve counted on the device, from the engine's loops to the
// report: one struct all the way (the engine's loops fill it, SolveResult
// carries it, the command line's report and JSON read it).
struct SolveCounters {
  std::uint64_t relaxations = 0;      // arcs actually relaxed (for the work ratio)
  std::uint64_t iterations = 0;       // relax rounds (rounds_narrow + rounds_cluster + rounds_wide)
  std::uint64_t rounds_narrow = 0;    // rounds run by the single-block loop (narrow regime)
  std::uint64_t rounds_cluster = 0;   // rounds run by the thread-block cluster (cluster regime)
  std::uint64_t rounds_wide = 0;      // rounds run by the multi-block grid (wide regime)
  // Hops taken between barriers (local steps): the cluster's blocks' (per
  // cluster round, the most any block took, summed) or, in the resident
  // block, its warps' (per step, the most any warp took, summed). A round
  // advances the wave by 1 + its local steps, so iterations +
  // cluster_local_steps is the solve's chain of dependent relax steps.
  std::uint64_t cluster_local_steps = 0;
  std::uint64_t buckets_processed = 0;  // bucketing / near-far phases
  std::uint64_t full_splits = 0;        // bucketing: full splits of the far pile into buckets
  std::uint64_t full_splits_in_block = 0;  // of those, split in one block on the device (no host round trip)
  std::uint64_t full_splits_in_grid = 0;   // of those, split by a cooperative grid on the device (no host round trip)
};

template <class Weight>
struct SolveResult : SolveCounters {
  std::vector<graph::distance_t<Weight>> distances;  // infinite_distance<Weight>() = unreachable
  std::vector<graph::vertex_id> predecessors;        // kNoVertex for the source and unreachable; empty unless asked
  double solve_ms = 0;                // CUDA events around the solve only
  // The whole solve ran in the resident block (the plan's resident regime):
  // its steps are rounds_narrow, its windows buckets_processed.
  bool resident = false;
  // ... with the arcs in shared memory too (ResidentLayout::Arcs).
  bool resident_shared_arcs = false;
  double delta = 0;                   // the delta used
};

// Many sources solved together (GpuSolver::solve_batch).
template <class Weight>
struct BatchSolveResult {
  // One per source, in the order given. Their solve_ms are 0: the sources
  // share their launches, so only the batch has a time (solve_ms below).
  std::vector<SolveResult<Weight>> per_source;
  double solve_ms = 0;                  // CUDA events around every launch of the batch (read-back excluded)
  std::uint32_t sources_per_launch = 0; // sources solved by one launch (fits free memory); the rest follow in more
  std::uint32_t finished_alone = 0;     // sources whose frontier outgrew a block and finished on their own
  // Sources whose frontier outgrew a block and were then solved together,
  // as one multi-source solve over copies of the graph (one per source).
  // They share that solve's rounds (each reports them) and each is charged
  // an equal share of its relaxations.
  std::uint32_t solved_together = 0;
  // Sources solved in the resident block, one block each
  // (SolverOptions::resident_block): where the single solves run there.
  std::uint32_t resident = 0;
};

// True when a CUDA device can be used; otherwise *why says what is missing.
bool gpu_available(std::string* why = nullptr);
// "NVIDIA H200, driver 13.0, runtime 13.0" or similar, for reports.
std::string gpu_description(int device = 0);

// The same facts as separate fields, for machine-readable records.
struct GpuIdentity {
  std::string name;                 // "NVIDIA H200"
  int cc_major = 0, cc_minor = 0;   // compute capability
  int multiprocessors = 0;
  std::uint64_t memory_bytes = 0;
  std::string driver;               // NVIDIA driver release ("580.159.04"); empty if the kernel module does not say
  std::string cuda_driver;          // CUDA version the driver supports ("13.0")
  std::string cuda_runtime;         // CUDA runtime this build links ("13.0")
};
// Empty optional when the device cannot be queried.
std::optional<GpuIdentity> gpu_identity(int device = 0);

// The most vertices whose distances fit the resident block on `device`
// (SolverOptions::resident_block: about 50,000 on sm_90); 0 when the device
// cannot be queried. --strategy auto reads it (auto_strategy.hpp).
std::uint32_t resident_max_vertices(int device = 0);

// A contracted solve's read-off (graph/contraction.hpp, ContractionQuery::
// expand) done on the device right after the core solve: arrays on the
// solver's device, owned by the caller.
struct DeviceReadOff {
  std::uint32_t vertices = 0;                   // of the original graph
  const std::uint32_t* core_of = nullptr;       // per vertex: core id, or kNoVertex in a piece
  const std::uint32_t* anchor_core = nullptr;   // two per vertex (ContractionAnchor::core)
  const std::uint64_t* anchor_offset = nullptr;  // two per vertex (ContractionAnchor::offset)
  // The source's piece vertices and their distances inside the piece, in
  // host memory that stays valid through the solve; copied on the solver's
  // stream into the device arrays (pieces entries each) before it starts.
  std::uint32_t pieces = 0;
  const std::uint64_t* host_piece_index = nullptr;
  const std::uint64_t* host_piece_dist = nullptr;
  std::uint64_t* piece_index = nullptr;
  std::uint64_t* piece_dist = nullptr;
  std::uint64_t* distances = nullptr;  // written: one per vertex, ~0 unreachable
  // With SolverOptions::predecessors: what the predecessors are read off
  // with (read_off.cuh, PredecessorReadOff), the source piece's
  // predecessors (host, then device, pieces entries), the source (original
  // id; it gets none), and where they are written (one per vertex).
  const std::uint32_t* anchor_pred = nullptr;
  const std::uint32_t* piece = nullptr;
  const std::uint64_t* core_offsets = nullptr;
  const std::uint32_t* core_targets = nullptr;
  const std::uint32_t* via = nullptr;
  std::uint32_t entry = 0;
  std::uint32_t entry_targets[2] = {0, 0}, entry_preds[2] = {0, 0};
  const std::uint32_t* host_piece_pred = nullptr;
  std::uint32_t* piece_pred = nullptr;
  std::uint32_t source = 0;
  std::uint32_t* predecessors = nullptr;
};

// A batch's read-off through a chain contraction (ContractedGpuSolver::
// solve_batch): the core is solved once for every junction the batch's
// sources enter it at (the rows: GpuSolver::solve_batch_and_read_off's
// sources), and each original source's distances are read off the rows it
// enters by, on the device, within the batch's timed region. A source's
// core distance at v is min over its seeds (row r, distance d) of
// d + row r's distance at v: the entry vertex's arcs of the single-source
// solve, one per seed.
struct BatchReadOff {
  std::uint32_t vertices = 0;                    // of the original graph
  std::uint32_t sources = 0;                     // original sources, two seeds each
  const std::uint32_t* core_of = nullptr;        // as DeviceReadOff's, on the device
  const std::uint32_t* anchor_core = nullptr;
  const std::uint64_t* anchor_offset = nullptr;
  // Seeds 2b and 2b + 1 of source b: a row (kNoVertex: no seed) and its
  // distance. Host copies, valid through the call, go up before it is timed.
  const std::uint32_t* host_seed_rows = nullptr;
  const std::uint64_t* host_seed_dist = nullptr;
  std::uint32_t* seed_rows = nullptr;            // device, 2 x sources
  std::uint64_t* seed_dist = nullptr;
  // The sources' own pieces: entry i lowers source b's vertex v, at
  // b x vertices + v, to its distance inside the piece (host, then device).
  std::uint64_t pieces = 0;
  const std::uint64_t* host_piece_index = nullptr;
  const std::uint64_t* host_piece_dist = nullptr;
  std::uint64_t* piece_index = nullptr;
  std::uint64_t* piece_dist = nullptr;
  std::uint64_t* distances = nullptr;            // written: sources x vertices, ~0 unreachable
};

// A CSR that is already in device memory (another library's arrays, handed
// over through DLPack by the Python package): what GpuSolver's second
// constructor copies from, device to device. The pointers are on the
// solver's device and need stay valid through the constructor only, which
// synchronises the device before reading them.
template <class Weight>
struct DeviceCsrView {
  const std::uint64_t* offsets = nullptr;  // num_vertices + 1
  const std::uint32_t* targets = nullptr;  // num_arcs
  const Weight* weights = nullptr;         // num_arcs
  std::uint32_t num_vertices = 0;
  std::uint64_t num_arcs = 0;
};

// What summarize_device_csr measures on the device, exactly (every vertex
// and arc, one pass): the degree statistics the solver's construction reads
// (as the host path reads them off the host CSR) and the weight statistics
// the auto delta reads (graph::auto_delta's mean weight and smallest
// positive weight).
struct DeviceCsrSummary {
  std::uint64_t max_degree = 0;
  std::uint64_t heavy_arcs = 0;         // arcs leaving vertices of out-degree >= 32 (the binned warp bin)
  std::uint64_t isolated = 0;           // vertices with no out-arcs
  double degree_squares = 0;            // sum of out-degree^2, for the coefficient of variation
  double weight_sum = 0;
  double min_positive_weight = 0;       // 0 when every weight is 0 (or there are no arcs)
};

// Validates a device CSR as the host path validates a host one (offsets
// start at 0, end at num_arcs and never decrease; every target below
// num_vertices; weights non-negative and finite) and measures it. Throws
// std::invalid_argument naming the first failed check, std::runtime_error
// on a CUDA error (a pointer that is not device memory among them).
template <class Weight>
DeviceCsrSummary summarize_device_csr(const DeviceCsrView<Weight>& graph, int device = 0);

// What a GpuSolver runs for its graph (plan.hpp, make_plan).
struct ExecutionPlan;

// Holds the graph on the device; solve() may be called many times (several
// sources, several strategies, repeated runs) without re-uploading.
// Throws std::runtime_error with a clear message (bytes needed vs free) when
// the graph does not fit, and on any CUDA error.
template <class Weight>
class GpuSolver {
 public:
  GpuSolver(const graph::Csr<Weight>& graph, const SolverOptions& options);
  // From a CSR in device memory, copied device to device (no host copy),
  // validated by summarize_device_csr first (std::invalid_argument). The
  // vertex order stays the input's (Auto resolves to Input; Degree and Rcm
  // throw std::invalid_argument: their orders are computed from a host
  // copy), and the resident regime runs only with resident_any_shape (its
  // shape test reads a host copy).
  GpuSolver(const DeviceCsrView<Weight>& graph, const SolverOptions& options);
  ~GpuSolver();
  GpuSolver(const GpuSolver&) = delete;
  GpuSolver& operator=(const GpuSolver&) = delete;

  double upload_ms() const;  // host-to-device transfer of the graph
  // The vertex order the graph is kept in on the device (Auto resolved), and
  // what making it cost at construction: the host's order computation plus
  // the device's kernels (the transfers are in upload_ms); 0 for input.
  VertexOrdering vertex_ordering() const;
  double reorder_ms() const;
  // The load balancing the multi-block rounds use (Auto resolved).
  LoadBalance load_balance() const;
  // Share of the arcs that leave vertices of out-degree >= 32: the statistic
  // LoadBalance::Auto decides by.
  double heavy_arc_share() const;
  // Every host decision this solver follows for its graph on its device:
  // vertex order, balancer, regimes, local steps, arc limits, the resident
  // block, and notes on options it could not honour (include sssp/plan.hpp
  // to read it). Valid while the solver lives.
  const ExecutionPlan& plan() const;
  // Device memory this solver holds (graph + work arrays), as estimated and
  // checked before allocation; graph_device_bytes() is the CSR's share.
  std::uint64_t device_bytes() const;
  std::uint64_t graph_device_bytes() const;
  // The graph as this solver holds it on its device (valid while the solver
  // lives; a negative-zero float weight reads +0): in the input's ids only
  // where vertex_ordering() is Input, as it always is for a solver built
  // from a DeviceCsrView. Another solver can be built from it.
  DeviceCsrView<Weight> device_graph() const;
  // Overwrites the arcs [first, first + targets.size()) of the graph on the
  // device (targets and weights) for the solves that follow: how a
  // contracted graph's entry vertex gets each query's arcs
  // (graph/contraction.hpp, ContractedGpuSolver). Throws
  // std::invalid_argument on a range past the arcs, a target that is not a
  // vertex, or a weight above the largest the graph had when this solver was
  // made (its distance encoding was chosen for that weight). Arcs are named
  // by their position in the input graph; with a vertex order other than
  // input the range must cover whole vertices' arcs (a vertex's arcs are
  // stored in another order there), else std::invalid_argument.
  void rewrite_arcs(graph::edge_offset first, const std::vector<graph::vertex_id>& targets,
                    const std::vector<Weight>& weights);
  // Solves with SolverOptions::delta.
  SolveResult<Weight> solve(graph::vertex_id source, Strategy strategy);
  // Solves with this delta (> 0 and finite): one upload serves a delta sweep.
  SolveResult<Weight> solve(graph::vertex_id source, Strategy strategy, double delta);
  // Solves the contracted core from `source` and reads every original
  // vertex's distance off on the device (read_off): result.distances has
  // read_off.vertices entries (and predecessors, with them), and solve_ms
  // (CUDA events) covers the solve and the read-off, so the timed region
  // holds no host work. Integer weights (std::invalid_argument otherwise).
  SolveResult<Weight> solve_and_read_off(graph::vertex_id source, Strategy strategy, double delta,
                                         const DeviceReadOff& read_off);
  // Solves every source with this delta in shared launches: one block per
  // source runs its narrow loop (one launch for as many sources as fit free
  // memory). The sources whose frontier outgrows their block are then solved
  // together from the start, each in its own copy of the graph (built on the
  // device and kept between calls, about this solver's memory per copy), or
  // one at a time with the single-source loop where fewer than two copies
  // fit. Near-far and bellman-ford; no predecessors.
  // Throws std::invalid_argument on another strategy, on predecessors asked
  // for, and on a delta that is not positive and finite; std::out_of_range on
  // a source that is not a vertex; std::runtime_error naming bytes needed vs
  // free when one source does not fit.
  BatchSolveResult<Weight> solve_batch(const std::vector<graph::vertex_id>& sources, Strategy strategy,
                                       double delta);
  // How many sources one batched launch takes now (free memory, the
  // device's size); solve_batch_and_read_off takes at most this many.
  std::uint32_t batch_capacity();
  // solve_batch over `rows` (at most batch_capacity() of them), then the
  // read-off of read_off.sources original sources from them on the device
  // (BatchReadOff), inside the timed region: solve_ms covers both. The
  // result's per_source are the rows' counts, without distances (they are
  // in read_off.distances). Integer weights (std::invalid_argument
  // otherwise); throws as solve_batch, and std::invalid_argument on more
  // rows than one launch takes.
  BatchSolveResult<Weight> solve_batch_and_read_off(const std::vector<graph::vertex_id>& rows, Strategy strategy,
                                                    double delta, const BatchReadOff& read_off);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class GpuSolver<std::uint32_t>;
extern template class GpuSolver<float>;
extern template DeviceCsrSummary summarize_device_csr(const DeviceCsrView<std::uint32_t>&, int);
extern template DeviceCsrSummary summarize_device_csr(const DeviceCsrView<float>&, int);

}  // namespace sssp
