#include "graph/csr_check.hpp"

#include "graph/weights.hpp"  // splitmix64

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

namespace graph {

double float_path_bound(double max_weight, double weight_sum, std::uint64_t vertices) {
  if (vertices < 2) return 0;
  return max_weight + 3 * std::min(weight_sum, static_cast<double>(vertices - 2) * max_weight);
}

namespace {

// The first k in [0, n) where bad(k), or n: parallel, so a long array is
// scanned at memory speed, and the answer is the same for any thread count.
template <class Bad>
std::int64_t first_bad(std::int64_t n, Bad&& bad) {
  std::int64_t first = n;
#pragma omp parallel for schedule(static) reduction(min : first)
  for (std::int64_t k = 0; k < n; ++k)
    if (k < first && bad(k)) first = k;
  return first;
}

// Whether every arc u -> v of weight w has v -> u of weight w, in one
// parallel pass: each arc adds a keyed hash of (min, max, w) when u < v and
// subtracts it when u > v, so the sum is zero exactly when the arcs pair up
// (rows are already known to hold no duplicate and no self-loop). The key is
// drawn per process, so a file cannot be crafted to cancel out; a false
// "yes" has probability about 2^-64.
template <class Weight>
bool reverse_arcs_match(const Csr<Weight>& g) {
  static const std::uint64_t key = [] {
    std::random_device device;
    return (std::uint64_t{device()} << 32) ^ device() ^ 0x9E3779B97F4A7C15ull;
  }();
  const auto rows = static_cast<std::int64_t>(g.num_vertices);
  std::uint64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::int64_t u = 0; u < rows; ++u) {
    for (edge_offset k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const std::uint64_t a = static_cast<std::uint64_t>(u), b = g.targets[k];
      std::uint32_t bits = 0;
      std::memcpy(&bits, &g.weights[k], sizeof bits);
      const std::uint64_t pair = std::min(a, b) << 32 | std::max(a, b);
      const std::uint64_t h = splitmix64(splitmix64(key ^ pair) ^ bits);
      sum += a < b ? h : ~h + 1;  // wraps: modulo 2^64
    }
  }
  return sum == 0;
}

std::string at_vertex(const char* what, std::int64_t v) { return std::string(what) + " (vertex " + std::to_string(v) + ")"; }

}  // namespace

template <class Weight>
std::string csr_problem(const Csr<Weight>& g, bool symmetric) {
  const std::uint64_t n = g.num_vertices;
  const edge_offset m = g.targets.size();
  if (g.offsets.size() != n + 1) return "the offsets array does not have vertices + 1 entries";
  if (g.weights.size() != m) return "the weights array does not have one entry per arc";
  if (g.offsets.front() != 0 || g.offsets.back() != m) return "offsets do not span the arcs";
  const auto rows = static_cast<std::int64_t>(n);
  const auto* off = g.offsets.data();
  const auto* tgt = g.targets.data();
  std::int64_t v = first_bad(rows, [&](std::int64_t u) { return off[u] > off[u + 1]; });
  if (v < rows) return at_vertex("offsets decrease", v);
  v = first_bad(rows, [&](std::int64_t u) {
    for (edge_offset k = off[u]; k < off[u + 1]; ++k) {
      if (tgt[k] >= n || tgt[k] == static_cast<vertex_id>(u)) return true;
      if (k > off[u] && tgt[k - 1] >= tgt[k]) return true;
    }
    return false;
  });
  if (v < rows) {
    for (edge_offset k = off[v]; k < off[v + 1]; ++k) {
      if (tgt[k] >= n) return at_vertex("an arc target is not a vertex", v);
      if (tgt[k] == static_cast<vertex_id>(v)) return at_vertex("a self-loop", v);
    }
    return at_vertex("a row is not sorted by target or holds a duplicate arc", v);
  }
  if constexpr (std::is_same_v<Weight, float>) {
    const auto arcs = static_cast<std::int64_t>(m);
    const float* w = g.weights.data();
    const std::int64_t bad = first_bad(arcs, [&](std::int64_t k) { return !std::isfinite(w[k]) || std::signbit(w[k]); });
    if (bad < arcs) return "arc " + std::to_string(bad) + " has a weight that is negative or not finite";
    double sum = 0, heaviest = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum) reduction(max : heaviest)
    for (std::int64_t k = 0; k < arcs; ++k) {
      sum += w[k];
      heaviest = std::max(heaviest, static_cast<double>(w[k]));
    }
    const double bound = float_path_bound(heaviest, sum, n);
    if (bound > static_cast<double>(std::numeric_limits<float>::max())) {
      char text[200];
      std::snprintf(text, sizeof(text),
                    "weights up to %g: a computed path length could reach %g, beyond float range (3.4e38)", heaviest,
                    bound);
      return text;
    }
  }
  if (symmetric && !reverse_arcs_match(g)) {
    // Only on failure: name the first vertex with an unmatched arc (a binary
    // search per arc, too slow to be the check itself on large graphs).
    v = first_bad(rows, [&](std::int64_t u) {
      for (edge_offset k = off[u]; k < off[u + 1]; ++k) {
        const vertex_id t = tgt[k];
        const auto* first = tgt + off[t];
        const auto* last = tgt + off[t + 1];
        const auto* it = std::lower_bound(first, last, static_cast<vertex_id>(u));
        if (it == last || *it != static_cast<vertex_id>(u) || !(g.weights[static_cast<std::size_t>(it - tgt)] == g.weights[k]))
          return true;
      }
      return false;
    });
    return at_vertex("marked undirected, but an arc has no reverse arc of the same weight", v < rows ? v : 0);
  }
  return "";
}

template std::string csr_problem(const Csr<std::uint32_t>&, bool);
template std::string csr_problem(const Csr<float>&, bool);

}  // namespace graph
