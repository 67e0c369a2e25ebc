// Many sources on the CPU, one source per OpenMP thread (reference.hpp says
// why): each thread runs the sequential binary-heap Dijkstra, which allocates
// its own heap and distance row, so the threads share nothing but the graph.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/memory_budget.hpp"
#include "graph/reference.hpp"

namespace graph {

int batch_threads(std::size_t sources, int threads) {
  const int wanted = threads > 0 ? threads : omp_get_max_threads();
  const std::size_t capped = std::min<std::size_t>(static_cast<std::size_t>(std::max(wanted, 1)), std::max<std::size_t>(sources, 1));
  return static_cast<int>(capped);
}

template <class Weight>
std::vector<std::vector<distance_t<Weight>>> dijkstra_batch(const Csr<Weight>& g,
                                                            const std::vector<vertex_id>& sources, int threads,
                                                            std::vector<CpuSolveStats>* stats) {
  // Checked before the parallel region: an exception must not leave it.
  for (const vertex_id s : sources)
    if (s >= g.num_vertices)
      throw std::invalid_argument("dijkstra_batch: source " + std::to_string(s) + " is not a vertex (the graph has " +
                                  std::to_string(g.num_vertices) + " vertices)");
  // Every row is kept, and each thread holds a heap and a settled flag per
  // vertex besides: refused up front when that cannot fit.
  const int team = batch_threads(sources.size(), threads);
  detail::check_host_bytes(
      "--sources", 0,
      detail::mul_add_sat(sources.size(), std::uint64_t{g.num_vertices} * sizeof(distance_t<Weight>),
                          detail::mul_add_sat(static_cast<std::uint64_t>(team), std::uint64_t{g.num_vertices} * 24, 0)),
      std::to_string(sources.size()) + " distance rows of " + std::to_string(g.num_vertices) + " vertices");
  std::vector<std::vector<distance_t<Weight>>> rows(sources.size());
  std::vector<CpuSolveStats> per_source(sources.size());
  const auto count = static_cast<std::int64_t>(sources.size());
  // An exception must not leave the parallel region (that terminates the
  // process): the first one is kept and thrown after it.
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  // Dynamic, one source at a time: solve times differ by source (reach,
  // depth), and a static split would leave threads idle behind a slow one.
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
  for (std::int64_t i = 0; i < count; ++i) {
    if (failed.load(std::memory_order_relaxed)) continue;
    try {
      rows[static_cast<std::size_t>(i)] =
          dijkstra(g, sources[static_cast<std::size_t>(i)], nullptr, &per_source[static_cast<std::size_t>(i)]);
    } catch (...) {
#pragma omp critical(dijkstra_batch_failure)
      if (!failure) failure = std::current_exception();
      failed.store(true, std::memory_order_relaxed);
    }
  }
  if (failure) std::rethrow_exception(failure);
  if (stats) *stats = std::move(per_source);
  return rows;
}

template std::vector<std::vector<distance_t<std::uint32_t>>> dijkstra_batch(const Csr<std::uint32_t>&,
                                                                            const std::vector<vertex_id>&, int,
                                                                            std::vector<CpuSolveStats>*);
template std::vector<std::vector<distance_t<float>>> dijkstra_batch(const Csr<float>&, const std::vector<vertex_id>&,
                                                                    int, std::vector<CpuSolveStats>*);

}  // namespace graph
