#include "graph/vertex_order.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>

namespace graph {

namespace {

// Out-arcs and in-arcs of every vertex, unsorted; an arc present both ways
// appears twice (harmless: the searches skip what they have seen, and it
// doubles such vertices' degrees alike).
struct UndirectedView {
  std::vector<edge_offset> offsets;
  std::vector<vertex_id> adjacent;

  edge_offset degree(vertex_id v) const { return offsets[v + 1] - offsets[v]; }
};

template <class Weight>
UndirectedView undirected_view(const Csr<Weight>& g) {
  const vertex_id n = g.num_vertices;
  UndirectedView u;
  u.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (vertex_id v = 0; v < n; ++v) {
    u.offsets[v + 1] += g.out_degree(v);
    for (edge_offset a = g.offsets[v]; a < g.offsets[v + 1]; ++a) ++u.offsets[g.targets[a] + 1];
  }
  std::partial_sum(u.offsets.begin(), u.offsets.end(), u.offsets.begin());
  u.adjacent.resize(u.offsets[n]);
  std::vector<edge_offset> fill(u.offsets.begin(), u.offsets.end() - 1);
  for (vertex_id v = 0; v < n; ++v) {
    for (edge_offset a = g.offsets[v]; a < g.offsets[v + 1]; ++a) {
      const vertex_id t = g.targets[a];
      u.adjacent[fill[v]++] = t;
      u.adjacent[fill[t]++] = v;
    }
  }
  return u;
}

// Breadth-first searches that reuse one mark array (a search's marks are its
// number, so nothing is cleared between searches).
class Searcher {
 public:
  explicit Searcher(const UndirectedView& u) : u_(u), mark_(u.offsets.size() - 1, 0) {}

  // Searches from root; returns the number of levels (the eccentricity + 1)
  // and leaves the vertices reached in `order_`, level by level, with the
  // last level starting at last_level_begin().
  std::uint32_t search(vertex_id root) {
    ++stamp_;
    order_.clear();
    order_.push_back(root);
    mark_[root] = stamp_;
    std::uint32_t levels = 0;
    std::size_t begin = 0;
    while (begin < order_.size()) {
      const std::size_t end = order_.size();
      last_begin_ = begin;
      ++levels;
      for (std::size_t i = begin; i < end; ++i) {
        const vertex_id v = order_[i];
        for (edge_offset a = u_.offsets[v]; a < u_.offsets[v + 1]; ++a) {
          const vertex_id t = u_.adjacent[a];
          if (mark_[t] != stamp_) {
            mark_[t] = stamp_;
            order_.push_back(t);
          }
        }
      }
      begin = end;
    }
    return levels;
  }

  const std::vector<vertex_id>& reached() const { return order_; }
  std::size_t last_level_begin() const { return last_begin_; }

 private:
  const UndirectedView& u_;
  std::vector<std::uint32_t> mark_;
  std::uint32_t stamp_ = 0;
  std::vector<vertex_id> order_;
  std::size_t last_begin_ = 0;
};

// A smallest-degree vertex of the last search's last level.
vertex_id narrowest_of_last_level(const UndirectedView& u, const Searcher& s) {
  const auto& r = s.reached();
  vertex_id best = r[s.last_level_begin()];
  for (std::size_t i = s.last_level_begin(); i < r.size(); ++i)
    if (u.degree(r[i]) < u.degree(best)) best = r[i];
  return best;
}

}  // namespace

VertexOrder identity_order(vertex_id n) {
  VertexOrder o;
  o.new_id.resize(n);
  std::iota(o.new_id.begin(), o.new_id.end(), vertex_id{0});
  o.old_id = o.new_id;
  return o;
}

template <class Weight>
VertexOrder reverse_cuthill_mckee(const Csr<Weight>& g) {
  const vertex_id n = g.num_vertices;
  const UndirectedView u = undirected_view(g);
  Searcher searcher(u);
  VertexOrder o;
  o.new_id.assign(n, kNoVertex);
  o.old_id.reserve(n);
  std::vector<vertex_id> neighbours;
  for (vertex_id start = 0; start < n; ++start) {
    if (o.new_id[start] != kNoVertex) continue;
    // George-Liu's search for a pseudo-peripheral vertex from the
    // component's first: it stops once the eccentricity stops growing, and is
    // capped, since each try is a pass over the component.
    vertex_id root = start;
    std::uint32_t levels = searcher.search(root);
    for (int tries = 0; tries < 3; ++tries) {
      const vertex_id far = narrowest_of_last_level(u, searcher);
      const std::uint32_t far_levels = searcher.search(far);
      if (far_levels <= levels) break;
      root = far;
      levels = far_levels;
    }
    // Cuthill-McKee from root: breadth first, neighbours by increasing degree.
    std::size_t head = o.old_id.size();
    o.new_id[root] = static_cast<vertex_id>(o.old_id.size());
    o.old_id.push_back(root);
    while (head < o.old_id.size()) {
      const vertex_id v = o.old_id[head++];
      neighbours.clear();
      for (edge_offset a = u.offsets[v]; a < u.offsets[v + 1]; ++a) {
        const vertex_id t = u.adjacent[a];
        if (o.new_id[t] == kNoVertex) {
          o.new_id[t] = 0;  // claimed; numbered below
          neighbours.push_back(t);
        }
      }
      std::stable_sort(neighbours.begin(), neighbours.end(),
                       [&](vertex_id a, vertex_id b) { return u.degree(a) < u.degree(b); });
      for (const vertex_id t : neighbours) {
        o.new_id[t] = static_cast<vertex_id>(o.old_id.size());
        o.old_id.push_back(t);
      }
    }
  }
  std::reverse(o.old_id.begin(), o.old_id.end());
  for (vertex_id i = 0; i < n; ++i) o.new_id[o.old_id[i]] = i;
  return o;
}

template <class Weight>
VertexOrder degree_order(const Csr<Weight>& g) {
  const vertex_id n = g.num_vertices;
  edge_offset widest = 0;
  for (vertex_id v = 0; v < n; ++v) widest = std::max(widest, g.out_degree(v));
  // Start of each degree's run, largest degree first.
  std::vector<vertex_id> start(static_cast<std::size_t>(widest) + 2, 0);
  for (vertex_id v = 0; v < n; ++v) ++start[widest - g.out_degree(v) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  VertexOrder o;
  o.new_id.resize(n);
  o.old_id.resize(n);
  for (vertex_id v = 0; v < n; ++v) {
    const vertex_id id = start[widest - g.out_degree(v)]++;
    o.new_id[v] = id;
    o.old_id[id] = v;
  }
  return o;
}

template <class Weight>
Csr<Weight> relabel(const Csr<Weight>& g, const VertexOrder& order) {
  const vertex_id n = g.num_vertices;
  Csr<Weight> r;
  r.num_vertices = n;
  r.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (vertex_id v = 0; v < n; ++v) r.offsets[v + 1] = r.offsets[v] + g.out_degree(order.old_id[v]);
  r.targets.resize(g.num_arcs());
  r.weights.resize(g.num_arcs());
#pragma omp parallel
  {
    std::vector<std::pair<vertex_id, Weight>> arcs;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      const auto v = static_cast<vertex_id>(i);
      const vertex_id old = order.old_id[v];
      arcs.clear();
      for (edge_offset a = g.offsets[old]; a < g.offsets[old + 1]; ++a)
        arcs.emplace_back(order.new_id[g.targets[a]], g.weights[a]);
      std::sort(arcs.begin(), arcs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      edge_offset out = r.offsets[v];
      for (const auto& [t, w] : arcs) {
        r.targets[out] = t;
        r.weights[out++] = w;
      }
    }
  }
  return r;
}

template <class Weight>
vertex_id order_bandwidth(const Csr<Weight>& g, const VertexOrder& order) {
  vertex_id widest = 0;
  for (vertex_id v = 0; v < g.num_vertices; ++v) {
    for (edge_offset a = g.offsets[v]; a < g.offsets[v + 1]; ++a) {
      const vertex_id x = order.new_id[v], y = order.new_id[g.targets[a]];
      widest = std::max(widest, x > y ? x - y : y - x);
    }
  }
  return widest;
}

template VertexOrder reverse_cuthill_mckee(const Csr<std::uint32_t>&);
template VertexOrder reverse_cuthill_mckee(const Csr<float>&);
template VertexOrder degree_order(const Csr<std::uint32_t>&);
template VertexOrder degree_order(const Csr<float>&);
template Csr<std::uint32_t> relabel(const Csr<std::uint32_t>&, const VertexOrder&);
template Csr<float> relabel(const Csr<float>&, const VertexOrder&);
template vertex_id order_bandwidth(const Csr<std::uint32_t>&, const VertexOrder&);
template vertex_id order_bandwidth(const Csr<float>&, const VertexOrder&);

}  // namespace graph
