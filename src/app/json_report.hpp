// --json FILE: one record of everything a run printed, for scripts and plots.
//
// Schema "sssp-run/1" (checked by tests/cpu/test_app_report.cpp; add keys
// freely, but rename or retype one only with a new schema version):
// {
//   "schema": "sssp-run/1",
//   "tool": {"name": "sssp", "version": string, "git_commit": string ("unknown" when not built from git)},
//   "command_line": [string, ...],
//   "device": {"requested": "auto"|"gpu"|"cpu", "kind": "gpu"|"cpu", "description": string
//              (GPU name, driver and CUDA version, or the CPU thread count),
//              "gpu": {"name": string, "compute_capability": "9.0", "multiprocessors": int,
//                      "memory_bytes": int, "driver": string|null (NVIDIA driver release),
//                      "cuda_driver": string, "cuda_runtime": string}|null, "note": string|null
//              (why auto fell back to the CPU), "cpu_threads": int, "upload_ms": number|null,
//              "plan": null (no GPU solver) | {"vertex_order": string, "load_balance": string,
//                      "heavy_arc_share": number, "merge_path_arc_bits": int, "single_block_loop": bool,
//                      "skewed": bool, "cluster_loop": bool (allowed: it runs on sm_90 and later),
//                      "cluster_local_steps": int, "narrow_max_arcs": int, "batch_narrow_max_arcs": int,
//                      "resident": bool, "resident_layout": "distances"|"offsets"|"arcs"|null (null:
//                      not resident), "resident_local_steps": int, "persistent_grid": bool,
//                      "medium_grid": bool, "regimes": [string] (those it may run: "resident",
//                      "narrow", "cluster", "medium", "full"), "notes": [string] (options asked
//                      for and not honoured, or only on some paths)} (the GPU solver's
//                      ExecutionPlan, sssp/plan.hpp)},
//   "graph": {"source": string (path or generator spec), "generated": bool, "format": string,
//             "vertices": int, "arcs": int, "weight_type": "uint32"|"float", "weight_rule": string,
//             "file_has_weights": bool, "id_base": 0|1, "undirected": bool, "input_entries": int,
//             "self_loops_dropped": int, "duplicates_dropped": int, "file_bytes": int,
//             "load_ms": {"parse": number, "build": number, "total": number},
//             "from_cache": bool, "cache_written": bool, "cache_saved_ms": number},
//   "options": {"strategies": [string] (as run: auto replaced by its choice), "strategy_all": bool,
//               "strategy_auto": bool (auto was asked for, alone or in a list), "delta": "auto"|number,
//               "delta_used": number, "delta_auto_value": number, "delta_auto_rule": string,
//               "delta_sweep": [number]|null,
//               "buckets": int, "runs": int, "warmup_runs": 1, "seed": int, "weights": string,
//               "sources": [int] (ids as in the file), "random_sources": int|null,
//               "validate": bool, "predecessors": bool, "path_to": int|null,
//               "output": string|null, "threads": int, "gpu_memory_limit_bytes": int|null,
//               "batch": "auto"|int (--batch), "targets": [int]|null (--targets, ids as in the file),
//               "targets_file": string|null, "sources_file": string|null},
//   "batch": {"batched": bool, "strategies": [string] (batched, as run), "size": int|null
//             (sources per call), "reason": string (the report's line)},
//   "batches": [{"strategy": string, "device": string, "solver": string, "delta": number|null,
//                "sources": int, "batch_size": int, "calls": int,
//                "solve_ms": {"median": number, "min": number, "max": number, "runs": [number]}
//                (all calls together), "per_source_ms": number, "sources_per_second": number,
//                "mteps": number (all sources), "reached_arcs": int, "sources_per_launch": int|null,
//                "solved_together": int|null (GPU), "finished_alone": int|null (GPU),
//                "resident": int|null (GPU, sources solved in the resident block),
//                "threads": int|null (CPU),
//                "validation": {"checked": int, "failed": int}}],
//   "contraction": null | {"used": bool, "reason": string, "core_vertices", "core_arcs",
//               "shortcuts", "tree_vertices", "chain_vertices": integers, "ms": number (host,
//               once per graph, or the cache's read; solve times include each query's piece
//               search and read-off), "core_on_host": bool, "from_cache": bool (--cache),
//               "cache": string|null (read, written, or why a cached file was refused),
//               "hierarchy": null | {"ms": number, "from_cache": bool, "shortcuts", "levels":
//               integers} (phast's)}
//   "auto_strategy": null (auto not asked for) | {"chosen": string, "reason": string (the
//               report's line), "source": int (measured from), "measure_ms": number|null,
//               "statistics": null (cpu device: nothing measured) | {"mean_degree": number,
//               "max_degree": int, "degree_cv": number, "isolated_share": number,
//               "degree_sampled": bool, "hop_estimate": int, "hop_exact": bool,
//               "bfs_levels": int, "bfs_arcs_scanned": int} (sssp/graph_shape.hpp),
//               "thresholds": {"max_hops_for_bellman_ford": int,
//               "min_degree_cv_for_bellman_ford": number} (sssp/auto_strategy.hpp)},
//   "results": [{"strategy": string, "device": "gpu"|"cpu", "source": int, "delta": number|null
//                (as requested), "delta_used": number|null (as the solver reports it),
//                "solve_ms": {"median": number, "min": number, "max": number, "runs": [number]},
//                "mteps": number, "work_ratio": number, "relaxations": int,
//                "reached_vertices": int, "reached_arcs": int,
//                "rounds": int|null (relax rounds; null for CPU solvers),
//                "rounds_narrow": int|null, "rounds_wide": int|null (rounds of the single-block
//                loop / several blocks: cluster and grids; null for CPU solvers and where the engine gave
//                no split that adds up to rounds), "us_per_round": number|null (median solve
//                time in us / rounds), "local_steps": int|null (GPU: hops the cluster's blocks
//                took between its barriers), "us_per_step": number|null (median solve time in us /
//                (rounds + local_steps)), "resident": bool|null (GPU: the whole solve ran in the
//                resident block, its steps the narrow rounds), "iterations": int|null (= rounds: the key's name
//                before "rounds", kept so older scripts still read it),
//                "buckets_processed": int|null, "full_splits": int|null,
//                "full_splits_in_block": int|null, "full_splits_in_grid": int|null
//                (bucketing strategies: full splits of the far pile in the last timed run, and
//                those done in one block and by a cooperative grid on the device),
//                "predecessors": bool,
//                "validation": "passed"|"failed"|"not run", "mismatches": int,
//                "batched": bool (solved in a batch: solve_ms are the call's time / its sources)}],
//   "summary": [{"strategy": string, "device": string, "delta": number|null, "sources": int,
//                "solve_ms": number (mean over sources of the per-source median), "mteps": number,
//                "work_ratio": number, "rounds": number|null (mean over sources),
//                "rounds_narrow": number|null, "rounds_wide": number|null (means),
//                "us_per_round": number|null (total solve us / total rounds),
//                "iterations": number|null (= rounds, the old name), "buckets_processed": number|null,
//                "speedup_vs_cpu_delta_stepping": number|null}],
//   "path": null | {"source": int, "target": int, "reachable": bool, "distance": number|null,
//                   "vertices": [int]|null, "note": string|null},
//   "validation": {"performed": bool, "passed": bool|null, "problems": int},
//   "distances": (only with --json-distances) {"strategy": string, "id_base": int,
//                "targets": [int]|null, "labels": [string]|null, "rows": [{"source": int, "distance": [number|null],
//                "predecessor": [int|null]|null}]} (app/distance_output.hpp; docs/USAGE.md)
// }
// Times are milliseconds; MTEPS and work ratio follow graph/metrics.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/options.hpp"
#include "graph/atomic_file.hpp"
#include "app/report.hpp"

namespace app {

inline constexpr const char* kJsonSchema = "sssp-run/1";

// The version of this tool, and the git commit it was built from (12 hex
// digits, "-dirty" when tracked files differed; "unknown" outside git),
// recorded at every build by cmake/GitCommit.cmake.
std::string tool_version();
std::string git_commit();

struct RunSummary {
  GraphInfo graph;
  DeviceInfo device;
  DeltaInfo delta;
  std::vector<std::string> strategies;     // as run, in order (auto replaced by its choice)
  std::optional<AutoStrategyInfo> auto_strategy;  // set when --strategy auto was asked for
  std::optional<ContractionInfo> contraction;     // set once the run decided (--contract)
  std::vector<std::uint64_t> sources;      // user ids
  std::vector<RunRecord> records;
  std::vector<SummaryRow> summary;
  std::optional<PathInfo> path;
  std::uint64_t validation_problems = 0;
  std::string batch_reason;            // the plan's line (app/batch.hpp)
  std::vector<BatchRecord> batches;    // one per batched strategy (and delta)
};

nlohmann::json to_json(const AppOptions& options, const RunSummary& run);

// Writes `content` to a temporary file beside `path`, then renames it over
// `path`: readers never see a half-written file (a FIFO or device is written
// in place, a symlink followed: graph/atomic_file.hpp). Throws
// std::runtime_error naming the file on failure (the temporary file is
// removed): a failed write is a runtime failure, not bad input.
void write_file_atomically(const std::string& path, const std::string& content);

// write_file_atomically in two steps, for files that must appear together or
// not at all: the constructor writes `content` and finishes the file (the
// step that may fail), commit() puts it in place. Destroyed uncommitted, it
// leaves `path` as it was. Errors as write_file_atomically's.
class StagedFile {
 public:
  StagedFile(const std::string& path, const std::string& content);
  void commit();
  bool in_place() const { return file_->in_place(); }

 private:
  std::string path_;
  std::optional<graph::detail::AtomicFile> file_;
};

}  // namespace app
