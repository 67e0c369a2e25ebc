#include "graph/build_csr.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <utility>

#include "prefault.hpp"

namespace graph {

namespace {

// Exclusive prefix sum of counts into offsets (size n + 1).
void exclusive_scan(const std::vector<edge_offset>& counts, std::vector<edge_offset>& offsets) {
  offsets.assign(counts.size() + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), offsets.begin() + 1);
}

}  // namespace

template <class Weight>
Csr<Weight> build_csr(Coo<Weight>&& coo, const BuildOptions& options, BuildStats* stats) {
  const vertex_id n = coo.num_vertices;
  const std::uint64_t entries = coo.num_entries();
  const std::int64_t entries_signed = static_cast<std::int64_t>(entries);
  // Parallel regions cost milliseconds on a loaded machine: small graphs
  // (tests, tiny files) are built serially.
  const bool parallel = entries > (1u << 16);
  const int threads = omp_get_max_threads();

  // 1. Out-degree of each vertex in the (possibly mirrored) arc multiset.
  std::vector<std::atomic<edge_offset>> degree(n);
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(n); ++v) degree[v].store(0, std::memory_order_relaxed);
  std::uint64_t self_loops = 0;
#pragma omp parallel for reduction(+ : self_loops) schedule(static) if (parallel)
  for (std::int64_t i = 0; i < entries_signed; ++i) {
    const vertex_id u = coo.sources[i], v = coo.targets[i];
    if (u == v) {
      ++self_loops;
      if (options.drop_self_loops) continue;
      degree[u].fetch_add(1, std::memory_order_relaxed);
      continue;  // a mirrored self-loop is the same arc
    }
    degree[u].fetch_add(1, std::memory_order_relaxed);
    if (options.symmetrize) degree[v].fetch_add(1, std::memory_order_relaxed);
  }

  std::vector<edge_offset> counts(n);
  for (vertex_id v = 0; v < n; ++v) counts[v] = degree[v].load(std::memory_order_relaxed);
  std::vector<edge_offset> raw_offsets;
  exclusive_scan(counts, raw_offsets);
  const edge_offset raw_arcs = raw_offsets[n];

  // 2. Scatter arcs into their rows; order inside a row is fixed by step 3.
  //    Each thread owns a range of rows holding about 1/T of the arcs and
  //    scans every entry, writing only into its own rows: the cursors need
  //    no atomics. A locked increment per arc, interleaved with the arcs'
  //    scattered stores, waited for each store's cache miss in turn and cost
  //    twice this whole build (docs/TUNING.md, "CSR build without atomics");
  //    reading the entries T times over is cheaper than that up to many
  //    threads, since the reads are sequential.
  std::vector<std::pair<vertex_id, Weight>> slots;
  detail::resize_prefaulted(slots, raw_arcs, threads);
  std::vector<edge_offset> cursor(raw_offsets.begin(), raw_offsets.end() - 1);
#pragma omp parallel if (parallel)
  {
    const auto team = static_cast<edge_offset>(omp_get_num_threads());
    const auto me = static_cast<edge_offset>(omp_get_thread_num());
    // Rows [first, last): the first row whose arcs start at or past me/team
    // of them, up to the next thread's.
    const auto row_at = [&](edge_offset part) {
      const edge_offset arc = raw_arcs / team * part + std::min(part, raw_arcs % team);
      return static_cast<vertex_id>(std::lower_bound(raw_offsets.begin(), raw_offsets.end() - 1, arc) -
                                    raw_offsets.begin());
    };
    const vertex_id first = row_at(me), last = me + 1 == team ? n : row_at(me + 1);
    const auto mine = [&](vertex_id x) { return x >= first && x < last; };
    for (std::int64_t i = 0; i < entries_signed; ++i) {
      const vertex_id u = coo.sources[i], v = coo.targets[i];
      if (u == v && options.drop_self_loops) continue;
      if (mine(u)) slots[cursor[u]++] = {v, coo.weights[i]};
      if (options.symmetrize && u != v && mine(v)) slots[cursor[v]++] = {u, coo.weights[i]};
    }
  }
  coo = Coo<Weight>{};  // release the input early: large graphs need the memory

  // 3. Sort each row by (target, weight) and keep the first of each target:
  //    the minimum weight. The result no longer depends on scatter order.
  std::uint64_t duplicates = 0;
#pragma omp parallel for reduction(+ : duplicates) schedule(dynamic, 1024) if (parallel)
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(n); ++v) {
    auto first = slots.begin() + static_cast<std::ptrdiff_t>(raw_offsets[v]);
    auto last = slots.begin() + static_cast<std::ptrdiff_t>(raw_offsets[v + 1]);
    std::sort(first, last);
    auto end = std::unique(first, last, [](const auto& a, const auto& b) { return a.first == b.first; });
    counts[v] = static_cast<edge_offset>(end - first);
    duplicates += static_cast<std::uint64_t>(last - end);
  }

  // 4. Compact into the final arrays.
  Csr<Weight> csr;
  csr.num_vertices = n;
  exclusive_scan(counts, csr.offsets);
  const edge_offset arcs = csr.offsets[n];
  detail::resize_prefaulted(csr.targets, arcs, threads);
  detail::resize_prefaulted(csr.weights, arcs, threads);
#pragma omp parallel for schedule(dynamic, 1024) if (parallel)
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(n); ++v) {
    const edge_offset from = raw_offsets[v];
    const edge_offset to = csr.offsets[v];
    for (edge_offset k = 0; k < counts[v]; ++k) {
      csr.targets[to + k] = slots[from + k].first;
      csr.weights[to + k] = slots[from + k].second;
    }
  }

  if (stats) {
    stats->input_entries = entries;
    stats->self_loops_dropped = options.drop_self_loops ? self_loops : 0;
    stats->duplicates_dropped = duplicates;
    stats->arcs = arcs;
  }
  return csr;
}

template Csr<std::uint32_t> build_csr(Coo<std::uint32_t>&&, const BuildOptions&, BuildStats*);
template Csr<float> build_csr(Coo<float>&&, const BuildOptions&, BuildStats*);

}  // namespace graph
