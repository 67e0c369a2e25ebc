// PHAST on the GPU (Delling, Goldberg, Nowatzyk and Werneck, IPDPS 2011) over
// a chain contraction's core (graph/contraction.hpp, graph/hierarchy.hpp):
// the host searches the source's piece and then upward in the hierarchy (a
// few hundred vertices on roads); one kernel sweeps the core level by level,
// each level's vertices relaxing their downward in-arcs in parallel, with a
// barrier between levels (tens of levels on roads, not thousands of rounds;
// one block with the distances in shared memory for cores up to 26k
// vertices, every resident block above); a second kernel reads every
// vertex's distance off the core's, and
// a third lowers the source's own piece's vertices to their distances inside
// the piece. Many sources share those launches (solve_batch), a block each.
// Integer weights. Predecessors, when asked for, come from the finished
// distances on the device (tight arcs of the input graph,
// sssp/predecessors.cuh), which then also holds the input graph. The
// hierarchy is built once per graph on the host (graph::build_hierarchy),
// which costs hundreds of queries: it pays off over many sources.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "graph/contraction.hpp"
#include "graph/csr.hpp"
#include "graph/hierarchy.hpp"
#include "sssp/solver.hpp"

namespace sssp {

// Where a query's time goes (host wall clock, ms).
struct HierarchySolveTimes {
  double piece_ms = 0;   // the source's piece search (graph::ContractionQuery::start)
  double upward_ms = 0;  // the upward search in the hierarchy
  double sweep_ms = 0;   // upload of its result, the sweep, the read-off and the source's piece (kernels)
  bool fell_back = false;  // the entry did not fit an arc: Dijkstra on the host instead
};

struct HierarchySolverOptions {
  int device = 0;
  bool predecessors = false;  // a shortest-path tree with every solve
  // false: the grid-wide sweep with its distances in device memory even
  // where one block's shared memory would hold them (what larger cores get;
  // for tests and measurements).
  bool shared_memory_sweep = true;
  // false: the grid-wide sweep as one launch per level instead of one
  // cooperative launch with grid barriers (also what devices without
  // cooperative launch get).
  bool persistent_grid = true;
};

class HierarchyGpuSolver {
 public:
  // g, c (contract_chains(g)) and h (build_hierarchy(c.core)) must outlive
  // the solver.
  HierarchyGpuSolver(const graph::IntCsr& g, const graph::ChainContraction& c, const graph::Hierarchy& h,
                     const HierarchySolverOptions& options = {});
  ~HierarchyGpuSolver();
  HierarchyGpuSolver(const HierarchyGpuSolver&) = delete;
  HierarchyGpuSolver& operator=(const HierarchyGpuSolver&) = delete;

  double upload_ms() const;             // the hierarchy's arrays, host to device
  std::uint64_t device_bytes() const;   // what the solver holds on the device
  // Distances from `source` (original id) to every vertex. solve_ms is the
  // query's host wall clock, the parts in `times`, without the copy-back of
  // the distances (as every GPU solve's time); relaxations counts
  // the piece search's arcs and the sweep's downward arcs; iterations is the
  // sweep's level count. With predecessors, the tree's derivation is part of
  // the solve (and of sweep_ms).
  SolveResult<std::uint32_t> solve(graph::vertex_id source, HierarchySolveTimes* times = nullptr);
  // Many sources at once: the host searches on every OpenMP thread, then
  // one sweep launch with a block per source (as many per launch as half
  // the free memory holds) and one read-off. solve_ms is the whole batch's
  // (host searches included, copy-backs not); each source's relaxations and
  // levels as in solve(). Not with predecessors (std::logic_error).
  BatchSolveResult<std::uint32_t> solve_batch(const std::vector<graph::vertex_id>& sources);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sssp
