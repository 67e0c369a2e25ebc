// What gpu_sssp.solve asks of the C++ side and gets back: the sources,
// strategy and delta in; every source's distances (and predecessors) and the
// report's facts out. The GPU solver (and the contraction, on road-like
// graphs) is built on first use and kept with the graph.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/types.hpp"
#include "py_graph.hpp"

namespace pysssp {

struct SolveRequest {
  std::vector<graph::vertex_id> sources;  // 0-based, checked by the caller
  std::string strategy = "auto";          // auto, near-far, bucket-sort, bucket-multisplit, bellman-ford, dijkstra, delta-stepping
  double delta = 0;                       // <= 0: the device's auto rule
  bool predecessors = false;
  std::string device = "auto";            // auto (GPU where usable), gpu (required), cpu
  std::string contract = "auto";          // auto (road-like integer graphs), on, off
};

struct SourceStats {
  double solve_ms = 0;
  std::uint64_t relaxations = 0;
  std::uint64_t iterations = 0;
};

struct SolveOutput {
  std::size_t rows = 0, vertices = 0;
  // One of the two, rows x vertices, by the graph's weight type:
  // uint64 (~0 unreachable) for integer weights, float (inf) for float ones.
  std::vector<std::uint64_t> int_distances;
  std::vector<float> float_distances;
  std::vector<graph::vertex_id> predecessors;  // rows x vertices, kNoVertex for none; empty unless asked
  std::vector<SourceStats> per_source;
  std::string strategy, strategy_reason;
  std::string device, device_description, fallback_reason;  // fallback_reason: why not the GPU ("" where it ran there)
  double delta = 0;
  std::string delta_rule;
  bool contracted = false;
  std::string contraction_reason;
  bool batched = false;
  double batch_ms = 0;   // the batch's own time (per-source times are 0 in a GPU batch)
  double setup_ms = 0;   // solver construction, contraction and auto choices made by this call
  double total_ms = 0;   // the whole call inside C++
};

// Throws std::invalid_argument on a bad strategy, delta or contract value,
// std::runtime_error when device == "gpu" and none is usable.
SolveOutput solve(PyGraph& g, const SolveRequest& request);

// A graph from a CSR in device memory: the GPU solver is built from it at
// once (validated on the device; std::invalid_argument on bad input), device
// to device, and kept as the graph's only copy. Such a graph solves on the
// GPU only, without contraction, and auto reads only the statistics measured
// on the device (no hop estimate): near-far, and delta = 16 x mean weight /
// mean out-degree (the narrow rule).
template <class Weight>
std::shared_ptr<PyGraph> from_device_csr(const sssp::DeviceCsrView<Weight>& csr, int device);

// gpu_sssp.compare: every strategy asked for, from one source, solved
// `runs` times after one untimed run through solve() (the same path and
// report as gpu_sssp.solve), timed and checked as `sssp --strategy all
// --validate` checks (graph/verify.hpp against Dijkstra; MTEPS and reach:
// graph/metrics.hpp). Host graphs only (std::invalid_argument for a device
// graph: Dijkstra needs a host copy).
struct CompareRequest {
  graph::vertex_id source = 0;
  std::vector<std::string> strategies;  // empty: all (the GPU's where usable, then delta-stepping, dijkstra)
  int runs = 5;
  double delta = 0;
  std::string contract = "auto";
};

struct StrategyRun {
  std::string strategy, device, strategy_reason;
  std::vector<double> solve_ms;         // one per timed run
  double median_ms = 0, min_ms = 0, max_ms = 0, mteps = 0;
  std::uint64_t rounds = 0, relaxations = 0, reached_vertices = 0, reached_arcs = 0;
  double delta = 0;
  std::string delta_rule;
  bool contracted = false;
  std::uint64_t mismatches = 0;         // vertices whose distance differs from Dijkstra's
  std::string validation;               // "ok" or the first mismatches
};

std::vector<StrategyRun> compare(PyGraph& g, const CompareRequest& request);

// Whether the GPU can be used (probed once per process) and why not.
bool gpu_usable(std::string* why);

}  // namespace pysssp
