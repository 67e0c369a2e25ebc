// The graph a Python gpu_sssp.Graph holds: the CSR in its weight type, how
// it was made, and the solvers kept alive between calls (py_solve.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "graph/csr.hpp"
#include "graph/load.hpp"
#include "sssp/solver.hpp"

namespace pysssp {

struct PyGraph {
  graph::AnyCsr csr;
  bool symmetric = false;       // built undirected (every arc has its reverse)
  std::uint32_t id_base = 0;    // the file's user-facing id base (1 for .mtx/.gr); Python ids are 0-based
  std::string description;      // where it came from, for reports
  std::string weight_rule;      // the weight rule applied (files)
  // Solvers and auto choices, built on first use and kept (py_solve.cpp);
  // type-erased so this header needs no CUDA types.
  std::shared_ptr<void> session;
  std::mutex mutex;             // one solve at a time per graph (the GIL is released while solving)
  // Built from device arrays (from_device_csr): csr is an empty host CSR of
  // the weight type, the GPU solver (in session) holds the only copy, and
  // these are its facts, measured on the device.
  bool on_device = false;
  int device = 0;                          // CUDA device ordinal
  std::uint32_t device_vertices = 0;
  std::uint64_t device_arcs = 0;
  sssp::DeviceCsrSummary device_summary;

  std::uint32_t vertices() const { return on_device ? device_vertices : graph::num_vertices(csr); }
  std::uint64_t arcs() const { return on_device ? device_arcs : graph::num_arcs(csr); }
};

// load_graph with the command line's options; InputError passes through.
std::shared_ptr<PyGraph> load_file(const std::string& path, const graph::LoadOptions& options);

// From 0-based arc arrays (Python checked lengths, ids and weights): through
// build_csr, so duplicates keep their minimum weight and self-loops drop, as
// every reader does; directed == false symmetrises.
template <class Weight>
std::shared_ptr<PyGraph> from_arcs(graph::vertex_id n, const std::uint32_t* src, const std::uint32_t* dst,
                                   const Weight* weights, std::size_t arcs, bool directed);

}  // namespace pysssp
