// Contraction hierarchy construction and the PHAST query (graph/hierarchy.hpp).
#include "graph/hierarchy.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>

namespace graph {
namespace {

constexpr std::uint64_t kInf = std::numeric_limits<std::uint64_t>::max();
// Witness searches stop after settling this many vertices: a longer search
// would rarely find a witness, and a missed one costs only a shortcut. The
// ordering's simulated contractions search less than the real ones.
constexpr std::uint32_t kWitnessSettleLimit = 400;
constexpr std::uint32_t kSimulatedSettleLimit = 50;

struct Arc {
  vertex_id other;
  std::uint64_t weight;
};

class Builder {
 public:
  explicit Builder(const IntCsr& g)
      : n_(g.num_vertices), out_(n_), in_(n_), contracted_(n_, 0), deleted_(n_, 0), dist_(n_, kInf) {
    for (vertex_id u = 0; u < n_; ++u)
      for (edge_offset e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const vertex_id v = g.targets[e];
        if (v == u) continue;
        out_[u].push_back({v, g.weights[e]});
        in_[v].push_back({u, g.weights[e]});
      }
  }

  Hierarchy build() {
    Hierarchy h;
    h.num_vertices = n_;
    h.rank.assign(n_, 0);
    // Per vertex, its arcs once it is contracted: up (to later ranks) and
    // down-in (from later ranks).
    std::vector<std::vector<Arc>> up(n_), down_in(n_);
    using Item = std::pair<std::int64_t, vertex_id>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
    for (vertex_id v = 0; v < n_; ++v) queue.push({priority(v), v});
    vertex_id next_rank = 0;
    while (!queue.empty()) {
      const vertex_id v = queue.top().second;
      queue.pop();
      if (contracted_[v]) continue;
      const std::int64_t p = priority(v);
      if (!queue.empty() && p > queue.top().first) {
        queue.push({p, v});  // lazy update: it became less attractive
        continue;
      }
      h.shortcuts += shortcuts_for(v, true);
      contracted_[v] = 1;
      h.rank[v] = next_rank++;
      up[v] = out_[v];
      down_in[v] = in_[v];
      for (const Arc& a : in_[v]) {
        erase(out_[a.other], v);
        ++deleted_[a.other];
      }
      for (const Arc& a : out_[v]) {
        erase(in_[a.other], v);
        ++deleted_[a.other];
      }
      out_[v].clear();
      in_[v].clear();
    }

    // Upward CSR by vertex.
    for (vertex_id v = 0; v < n_; ++v) {
      std::sort(up[v].begin(), up[v].end(), [](const Arc& a, const Arc& b) { return a.other < b.other; });
      for (const Arc& a : up[v]) {
        h.up_targets.push_back(a.other);
        h.up_weights.push_back(a.weight);
      }
      h.up_offsets.push_back(h.up_targets.size());
    }
    // Levels, from the top rank down: one more than the highest level among
    // a vertex's downward in-neighbours (all ranked higher, so done).
    std::vector<vertex_id> by_rank(n_);
    for (vertex_id v = 0; v < n_; ++v) by_rank[h.rank[v]] = v;
    std::vector<std::uint32_t> level(n_, 0);
    std::uint32_t levels = 0;
    for (vertex_id r = n_; r-- > 0;) {
      const vertex_id v = by_rank[r];
      std::uint32_t l = 0;
      for (const Arc& a : down_in[v]) l = std::max(l, level[a.other] + 1);
      level[v] = l;
      levels = std::max(levels, l + 1);
    }
    // Positions: by level, then by decreasing rank.
    h.order.resize(n_);
    for (vertex_id i = 0; i < n_; ++i) h.order[i] = by_rank[n_ - 1 - i];
    std::stable_sort(h.order.begin(), h.order.end(), [&](vertex_id a, vertex_id b) { return level[a] < level[b]; });
    h.position.assign(n_, 0);
    for (vertex_id i = 0; i < n_; ++i) h.position[h.order[i]] = i;
    h.level_offsets.assign(static_cast<std::size_t>(levels) + 1, 0);
    for (vertex_id v = 0; v < n_; ++v) ++h.level_offsets[level[v] + 1];
    for (std::uint32_t l = 0; l < levels; ++l) h.level_offsets[l + 1] += h.level_offsets[l];
    for (vertex_id i = 0; i < n_; ++i) {
      for (const Arc& a : down_in[h.order[i]]) {
        h.down_tails.push_back(h.position[a.other]);
        h.down_weights.push_back(a.weight);
      }
      h.down_offsets.push_back(h.down_tails.size());
    }
    return h;
  }

 private:
  static void erase(std::vector<Arc>& arcs, vertex_id v) {
    arcs.erase(std::remove_if(arcs.begin(), arcs.end(), [v](const Arc& a) { return a.other == v; }), arcs.end());
  }

  // The lightest arc u -> x only.
  void add_arc(vertex_id u, vertex_id x, std::uint64_t w) {
    for (Arc& a : out_[u])
      if (a.other == x) {
        if (w < a.weight) {
          a.weight = w;
          for (Arc& b : in_[x])
            if (b.other == u) b.weight = w;
        }
        return;
      }
    out_[u].push_back({x, w});
    in_[x].push_back({u, w});
  }

  // Dijkstra from u over the remaining graph without v, up to distance
  // `bound` and kWitnessSettleLimit settled vertices; dist_ holds the result
  // until reset_witness().
  void witness_search(vertex_id u, vertex_id v, std::uint64_t bound, std::uint32_t settle_limit) {
    const auto later = std::greater<std::pair<std::uint64_t, vertex_id>>();
    heap_.clear();
    dist_[u] = 0;
    touched_.push_back(u);
    heap_.push_back({0, u});
    std::uint32_t settled = 0;
    while (!heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      const auto [d, x] = heap_.back();
      heap_.pop_back();
      if (d > dist_[x]) continue;
      if (d > bound || ++settled > settle_limit) break;
      for (const Arc& a : out_[x]) {
        if (a.other == v) continue;
        const std::uint64_t nd = d + a.weight;
        if (nd < dist_[a.other]) {
          if (dist_[a.other] == kInf) touched_.push_back(a.other);
          dist_[a.other] = nd;
          heap_.push_back({nd, a.other});
          std::push_heap(heap_.begin(), heap_.end(), later);
        }
      }
    }
  }
  void reset_witness() {
    for (const vertex_id x : touched_) dist_[x] = kInf;
    touched_.clear();
  }

  // The shortcuts contracting v needs now; added when `apply`.
  std::uint64_t shortcuts_for(vertex_id v, bool apply) {
    std::uint64_t count = 0;
    // Copies: add_arc may grow the lists of v's neighbours, not v's own.
    for (const Arc& in : in_[v]) {
      const vertex_id u = in.other;
      std::uint64_t bound = 0;
      bool any = false;
      for (const Arc& out : out_[v])
        if (out.other != u) {
          bound = std::max(bound, in.weight + out.weight);
          any = true;
        }
      if (!any) continue;
      witness_search(u, v, bound, apply ? kWitnessSettleLimit : kSimulatedSettleLimit);
      for (const Arc& out : out_[v]) {
        if (out.other == u) continue;
        const std::uint64_t via = in.weight + out.weight;
        if (dist_[out.other] <= via) continue;
        ++count;
        if (apply) add_arc(u, out.other, via);
      }
      reset_witness();
    }
    return count;
  }

  // Edge difference plus contracted neighbours (Geisberger et al.).
  std::int64_t priority(vertex_id v) {
    const auto added = static_cast<std::int64_t>(shortcuts_for(v, false));
    const auto removed = static_cast<std::int64_t>(in_[v].size() + out_[v].size());
    return added - removed + static_cast<std::int64_t>(deleted_[v]);
  }

  vertex_id n_;
  std::vector<std::vector<Arc>> out_, in_;
  std::vector<char> contracted_;
  std::vector<std::uint32_t> deleted_;
  std::vector<std::uint64_t> dist_;
  std::vector<vertex_id> touched_;
  std::vector<std::pair<std::uint64_t, vertex_id>> heap_;  // the witness search's, reused
};

}  // namespace

Hierarchy build_hierarchy(const IntCsr& g) { return Builder(g).build(); }

Seeds core_seeds(const ChainContraction& c, const ContractionQuery& q) {
  if (q.core_source() != c.entry) return {{q.core_source(), 0}};
  Seeds seeds;
  for (std::size_t i = 0; i < q.entry_targets().size(); ++i)
    if (q.entry_targets()[i] < c.entry) seeds.push_back({q.entry_targets()[i], q.entry_weights()[i]});
  return seeds;
}

std::vector<std::pair<vertex_id, std::uint64_t>> upward_search(const Hierarchy& h, const Seeds& seeds) {
  // Labels in per-thread arrays sized to the graph, cleared through the
  // touched list: the upward search space is small next to the graph.
  std::vector<std::pair<vertex_id, std::uint64_t>> settled;
  using Item = std::pair<std::uint64_t, vertex_id>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  static thread_local std::vector<std::uint64_t> label;
  static thread_local std::vector<char> done;
  if (label.size() < h.num_vertices) {
    label.assign(h.num_vertices, kInf);
    done.assign(h.num_vertices, 0);
  }
  std::vector<vertex_id> touched;
  for (const auto& [v, d] : seeds) {
    if (v >= h.num_vertices) throw std::out_of_range("graph: seed " + std::to_string(v) + " is not a vertex");
    if (d < label[v]) {
      if (label[v] == kInf) touched.push_back(v);
      label[v] = d;
      heap.push({d, v});
    }
  }
  while (!heap.empty()) {
    const auto [d, v] = heap.top();
    heap.pop();
    if (done[v] || d > label[v]) continue;
    done[v] = 1;
    settled.push_back({h.position[v], d});
    for (edge_offset e = h.up_offsets[v]; e < h.up_offsets[v + 1]; ++e) {
      const vertex_id x = h.up_targets[e];
      const std::uint64_t nd = d + h.up_weights[e];
      if (nd < label[x]) {
        if (label[x] == kInf) touched.push_back(x);
        label[x] = nd;
        heap.push({nd, x});
      }
    }
  }
  for (const vertex_id v : touched) {
    label[v] = kInf;
    done[v] = 0;
  }
  return settled;
}

void phast(const Hierarchy& h, const Seeds& seeds, std::uint64_t* dist) {
  std::vector<std::uint64_t> by_position(h.num_vertices, kInf);
  for (const auto& [p, d] : upward_search(h, seeds)) by_position[p] = d;
  for (vertex_id i = 0; i < h.num_vertices; ++i) {
    std::uint64_t d = by_position[i];
    for (edge_offset e = h.down_offsets[i]; e < h.down_offsets[i + 1]; ++e) {
      const std::uint64_t du = by_position[h.down_tails[e]];
      if (du != kInf) d = std::min(d, du + h.down_weights[e]);
    }
    by_position[i] = d;
  }
  for (vertex_id i = 0; i < h.num_vertices; ++i) dist[h.order[i]] = by_position[i];
}

}  // namespace graph
