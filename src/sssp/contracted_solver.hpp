// The GPU solver over a chain contraction (graph/contraction.hpp): the core
// graph lives on the device, each query searches its source's piece on the
// host, writes the entry vertex's arcs, solves the core, and reads every
// vertex's distance (and predecessor) off the core's on the device, inside
// the core solve's timed region. Integer weights only (the contraction is
// exact there).
// Results are in the original graph's ids, like GpuSolver's.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "graph/contraction.hpp"
#include "graph/csr.hpp"
#include "sssp/solver.hpp"

namespace sssp {

// A core of at most this many vertices is solved on the host by Dijkstra:
// a GPU solve's fixed cost (its launches, copies and synchronisations, about
// 25-30 microseconds on an H100) exceeds a Dijkstra over a core that small
// (docs/TUNING.md, "Chain contraction: tiny cores on the host").
inline constexpr graph::vertex_id kHostCoreMaxVertices = 64;
// Whether ContractedGpuSolver solves c's core on the host (the app's report
// says so from the same rule).
inline bool solves_core_on_host(const graph::ChainContraction& c) {
  return c.core_vertices() <= kHostCoreMaxVertices;
}

// A contracted solve's host-side parts, beside SolveResult's fields.
struct ContractedSolveTimes {
  double core_ms = 0;    // the core solve (CUDA events, GpuSolver's solve_ms; host clock where core_on_host),
                         // the read-off on the device included
  double piece_ms = 0;   // host: the source's piece search and the entry arcs' and piece's upload
  double expand_ms = 0;  // host: core distances to every vertex (0 when read off on the device)
  bool read_off_on_device = false;  // the read-off ran on the device, within core_ms
  bool fell_back = false;  // the entry did not fit an arc: solved by Dijkstra on the host instead
  bool core_on_host = false;  // the core (kHostCoreMaxVertices or fewer vertices) was solved on the host
};

// A contracted batch's parts (ContractedGpuSolver::solve_batch).
struct ContractedBatchTimes {
  double host_ms = 0;  // host: every source's piece search and its seeds' and piece's staging
  double core_ms = 0;  // CUDA events: the core's batched solves and the read-offs on the device
  std::uint32_t rows = 0;       // core sources solved (the junctions the sources enter the core at)
  std::uint32_t launches = 0;   // batched core solves (groups of sources)
  std::uint32_t fell_back = 0;  // sources whose entry did not fit an arc: Dijkstra on the host
};

class ContractedGpuSolver {
 public:
  // g and c must outlive the solver (c made from g by graph::contract_chains).
  ContractedGpuSolver(const graph::IntCsr& g, const graph::ChainContraction& c, const SolverOptions& options);
  ~ContractedGpuSolver();
  ContractedGpuSolver(const ContractedGpuSolver&) = delete;
  ContractedGpuSolver& operator=(const ContractedGpuSolver&) = delete;

  GpuSolver<std::uint32_t>& core_solver();
  // The core is small enough (kHostCoreMaxVertices) to be solved on the host.
  bool core_on_host() const { return core_on_host_; }
  // solve_ms is core_ms + piece_ms + expand_ms; the counters are the core
  // solve's (relaxations plus the piece search's). times (optional) gets the
  // parts.
  SolveResult<std::uint32_t> solve(graph::vertex_id source, Strategy strategy, double delta,
                                   ContractedSolveTimes* times = nullptr);
  // Many sources at once, near-far or bellman-ford (as GpuSolver::
  // solve_batch): the host searches every source's piece, the core is
  // solved in shared launches from the junctions the pieces enter it at
  // (a source in the core: from itself), and every source's distances are
  // read off those rows on the device. solve_ms is the whole batch's (host
  // searches and device work; the copy-back of the distances excluded, as
  // GpuSolver::solve_batch's); each source's relaxations are its rows' plus
  // its piece search's. Not with predecessors (std::invalid_argument); a
  // core solved on the host runs the sources one by one.
  BatchSolveResult<std::uint32_t> solve_batch(const std::vector<graph::vertex_id>& sources, Strategy strategy,
                                              double delta, ContractedBatchTimes* times = nullptr);

 private:
  const graph::IntCsr& g_;
  const graph::ChainContraction& c_;
  bool predecessors_;
  std::unique_ptr<GpuSolver<std::uint32_t>> core_;
  graph::ContractionQuery query_;
  bool core_on_host_;
  graph::IntCsr host_core_;  // where core_on_host_: the core, its entry arcs rewritten per query
  // The device read-off's arrays (read_off.cuh), where the core is solved on
  // the device.
  struct DeviceArrays;
  std::unique_ptr<DeviceArrays> device_;
  DeviceReadOff stage_pieces();  // the source's piece, staged for the solve
  // solve_batch's sources [first, first + count), read off on the device.
  void solve_group(const std::vector<graph::vertex_id>& sources, std::size_t first, std::size_t count,
                   Strategy strategy, double delta, BatchSolveResult<std::uint32_t>& out, ContractedBatchTimes& t);
  // How many sources one group takes: two rows each within the core
  // solver's launch, their distances within half the free memory.
  std::size_t group_size(std::size_t sources);
  // The core solve where core_on_host_: Dijkstra on host_core_ (entry arcs
  // applied), timed by the host clock, as a core SolveResult.
  SolveResult<std::uint32_t> solve_host_core(double delta);
};

}  // namespace sssp
