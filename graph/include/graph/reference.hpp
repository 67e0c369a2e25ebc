// CPU shortest-path solvers: Dijkstra (the reference every other solver is
// validated against) and a parallel delta-stepping (the CPU baseline and the
// fallback where no GPU exists).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace graph {

struct CpuSolveStats {
  std::uint64_t relaxations = 0;  // arcs relaxed (for the work ratio)
  std::uint64_t phases = 0;       // delta-stepping: buckets processed; Dijkstra: vertices settled
  double delta = 0;               // delta-stepping: the delta used
};

// Binary-heap Dijkstra. pred (optional) receives a shortest-path tree,
// kNoVertex for the source and unreachable vertices.
template <class Weight>
std::vector<distance_t<Weight>> dijkstra(const Csr<Weight>& g, vertex_id source,
                                         std::vector<vertex_id>* pred = nullptr,
                                         CpuSolveStats* stats = nullptr);

// Many sources at once on the CPU: the sources are shared out over OpenMP
// threads, one source per thread at a time (dynamic schedule), and each
// thread runs the sequential Dijkstra above with its own heap and distance
// row. Row i of the K x n result is source i's distances (sources may repeat;
// each row is computed). threads == 0: all cores; never more threads than
// sources (batch_threads). stats (optional) receives one entry per source.
// Throws std::invalid_argument, before any work, on a source that is not a
// vertex. Why not parallel delta-stepping per source: a batch has a source
// per core, so independent sequential solves use every core without a
// barrier, and Dijkstra does the least work of all.
template <class Weight>
std::vector<std::vector<distance_t<Weight>>> dijkstra_batch(const Csr<Weight>& g,
                                                            const std::vector<vertex_id>& sources, int threads = 0,
                                                            std::vector<CpuSolveStats>* stats = nullptr);

// The threads dijkstra_batch uses for `sources` sources: `threads` (0: all
// cores), at most one per source, at least 1.
int batch_threads(std::size_t sources, int threads);

// Parallel (OpenMP) delta-stepping (Meyer and Sanders 2003). delta > 0.
// threads == 0: all cores. Results equal Dijkstra's exactly for integer weights.
template <class Weight>
std::vector<distance_t<Weight>> delta_stepping(const Csr<Weight>& g, vertex_id source, double delta,
                                               int threads = 0, CpuSolveStats* stats = nullptr);

// The same, writing the n distances into `dist` (caller's memory, which need
// not be initialised: the solver's threads touch it first, each its own
// slice). std::vector value-initialises its elements on one thread, which
// for a large graph is a sizeable part of the solve (a 4M-vertex grid: 32 MB
// of page faults and zeroing); a buffer from `new Dist[n]` avoids it, as
// GAP's parallel-filled pvector does.
template <class Weight>
void delta_stepping(const Csr<Weight>& g, vertex_id source, double delta, int threads, distance_t<Weight>* dist,
                    CpuSolveStats* stats = nullptr);

// The same into a fresh, uninitialised array of n distances: what the
// benchmarks time as one CPU solve (cpu_sssp_bench, sssp bench's baseline),
// as GAP times its kernel with the distance array it allocates and fills.
template <class Weight>
std::unique_ptr<distance_t<Weight>[]> delta_stepping_new_array(const Csr<Weight>& g, vertex_id source, double delta,
                                                                int threads, CpuSolveStats* stats = nullptr);

// delta "auto": c * mean weight / mean out-degree (Davidson et al. use c = 32;
// the GPU solver picks c from the graph's shape, sssp::choose_delta_c), at
// least the smallest positive weight and never 0.
template <class Weight>
double auto_delta(const Csr<Weight>& g, double c = 32.0);

// delta for the CPU delta_stepping above (auto_delta's c = 32, Davidson et al.'s GPU rule;
// on a CPU it gave R-MAT 3.7x the best delta's time). With mean weight w,
// mean out-degree d over the vertices that have arcs, largest degree D and
// the out-degree's coefficient of variation cv (over all vertices):
//   delta = f * w / d, where
//   f = max(4, min(19, (8 / d)^4), (4 / d)^5) when D <= 4 d + 8 (no hubs:
//       meshes, roads, grids, uniform random graphs; f is 4 from d of about
//       5.7 up, 16 at d = 4, 19 from 3.8 down to 2.2, then 34 at d = 1.97),
//   f = 0.425 with hubs when cv > 4 and the graph has at least 2^21 arcs
//       (Graph500 R-MAT),
//   f = 1 otherwise (social graphs, milder R-MAT);
// never below the smallest positive weight; 1 when there are no arcs or
// every weight is 0. The measurements behind each term (16 threads on the
// GPU machine's host, 2 threads on the development machine) are in
// docs/TUNING.md, "CPU delta-stepping".
template <class Weight>
double auto_delta_cpu(const Csr<Weight>& g);

}  // namespace graph
