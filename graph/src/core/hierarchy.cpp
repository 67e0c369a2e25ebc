// Contraction hierarchy construction and the PHAST query (graph/hierarchy.hpp).
#include "graph/hierarchy.hpp"

#include <omp.h>

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
// priorities' simulated contractions search far less than the real ones
// (they are most of the build's time), and a vertex's depth in the
// hierarchy so far weighs on its priority, which keeps PHAST's levels few.
// Both measured in docs/TUNING.md ("PHAST over a contraction hierarchy").
constexpr std::uint32_t kWitnessSettleLimit = 400;
constexpr std::uint32_t kSimulatedSettleLimit = 8;
constexpr std::int64_t kDepthWeight = 4;

struct Arc {
  vertex_id other;
  std::uint64_t weight;
};

// A witness search's scratch, one per thread: distances sized to the graph
// (infinite between searches but the touched ones), the heap, and the
// targets still open.
struct WitnessScratch {
  std::vector<std::uint64_t> dist;
  std::vector<std::uint32_t> target;  // = search id: an open target of the current search
  std::vector<vertex_id> touched;
  std::vector<std::pair<std::uint64_t, vertex_id>> heap;
  std::uint32_t search_id = 0;
  std::uint32_t targets_left = 0;
};

// Ties between equal priorities: a mixed id, so the vertices a round takes
// are spread over the graph rather than clustered by id.
std::uint32_t tie_hash(vertex_id v) {
  std::uint32_t x = v * 0x9E3779B9u;
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  return x;
}

// The contraction runs in rounds, each taking every remaining vertex whose
// priority is smaller than all its neighbours' (an independent set, so no
// two of them share an arc), as parallel CH builders do (Vetter, "Parallel
// Time-Dependent Contraction Hierarchies", 2009). A round's witness searches
// run in parallel, read-only, and avoid every vertex of the round, so each
// vertex's shortcuts stay valid while the others are removed: a shortest
// path through round vertices a -> w -> b (a, b outside the round, since no
// two round vertices are adjacent) keeps either the shortcut a -> b or a
// witness that avoids the whole round. The round's shortcuts and removals
// are then applied in vertex order on one thread, and the neighbours'
// priorities recomputed in parallel: the result does not depend on the
// thread count.
class Builder {
 public:
  explicit Builder(const IntCsr& g)
      : n_(g.num_vertices), out_(n_), in_(n_), state_(n_, kRemaining), deleted_(n_, 0), priority_(n_, 0) {
    for (vertex_id u = 0; u < n_; ++u)
      for (edge_offset e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const vertex_id v = g.targets[e];
        if (v == u) continue;
        add_arc(u, v, g.weights[e]);  // the lightest of parallel arcs only
      }
    scratch_.resize(static_cast<std::size_t>(omp_get_max_threads()));
  }

  Hierarchy build() {
    Hierarchy h;
    h.num_vertices = n_;
    h.rank.assign(n_, 0);
    // Per vertex, its arcs once it is contracted: up (to later ranks) and
    // down-in (from later ranks).
    std::vector<std::vector<Arc>> up(n_), down_in(n_);
    std::vector<vertex_id> remaining(n_);
    std::iota(remaining.begin(), remaining.end(), vertex_id{0});
    update_priorities(remaining);
    std::vector<vertex_id> round, touched_neighbours;
    std::vector<std::vector<Shortcut>> needed;
    std::vector<char> is_neighbour(n_, 0);
    vertex_id next_rank = 0;
    while (!remaining.empty()) {
      round.clear();
      for (const vertex_id v : remaining)
        if (locally_least(v)) round.push_back(v);
      for (const vertex_id v : round) state_[v] = kInRound;
      needed.assign(round.size(), {});
#pragma omp parallel for schedule(dynamic, 1)
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(round.size()); ++i)
        shortcuts_for(round[static_cast<std::size_t>(i)], kWitnessSettleLimit, &needed[static_cast<std::size_t>(i)]);
      touched_neighbours.clear();
      for (std::size_t i = 0; i < round.size(); ++i) {
        const vertex_id v = round[i];
        state_[v] = kContracted;
        h.rank[v] = next_rank++;
        // v leaves each neighbour's list on the other side.
        const auto detach = [&](const std::vector<Arc>& arcs, std::vector<std::vector<Arc>>& other_side) {
          for (const Arc& a : arcs) {
            erase(other_side[a.other], v);
            ++deleted_[a.other];
            depth_[a.other] = std::max(depth_[a.other], depth_[v] + 1);
            if (!is_neighbour[a.other]) touched_neighbours.push_back(a.other);
            is_neighbour[a.other] = 1;
          }
        };
        detach(in_[v], out_);
        detach(out_[v], in_);
        up[v] = std::move(out_[v]);
        down_in[v] = std::move(in_[v]);
        out_[v].clear();
        in_[v].clear();
        for (const Shortcut& sc : needed[i]) add_arc(sc.from, sc.to, sc.weight);
        h.shortcuts += needed[i].size();
      }
      for (const vertex_id u : touched_neighbours) is_neighbour[u] = 0;
      update_priorities(touched_neighbours);
      remaining.erase(std::remove_if(remaining.begin(), remaining.end(),
                                     [&](vertex_id v) { return state_[v] == kContracted; }),
                      remaining.end());
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
  enum : char { kRemaining = 0, kInRound = 1, kContracted = 2 };
  struct Shortcut {
    vertex_id from, to;
    std::uint64_t weight;
  };

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

  // True when v's priority is below every neighbour's (ties by tie_hash,
  // then id): at most one of two adjacent vertices is.
  bool locally_least(vertex_id v) const {
    const auto key = [&](vertex_id x) { return std::make_tuple(priority_[x], tie_hash(x), x); };
    const auto mine = key(v);
    for (const Arc& a : out_[v])
      if (key(a.other) < mine) return false;
    for (const Arc& a : in_[v])
      if (key(a.other) < mine) return false;
    return true;
  }

  // Dijkstra from u over the remaining graph, around v and the round's other
  // vertices, up to distance `bound` and `settle_limit` settled vertices, or
  // until every open target is settled; w.dist holds the result until the
  // caller resets it.
  void witness_search(WitnessScratch& w, vertex_id u, vertex_id v, std::uint64_t bound,
                      std::uint32_t settle_limit) const {
    const auto later = std::greater<std::pair<std::uint64_t, vertex_id>>();
    w.heap.clear();
    w.dist[u] = 0;
    w.touched.push_back(u);
    w.heap.push_back({0, u});
    std::uint32_t settled = 0;
    while (!w.heap.empty()) {
      std::pop_heap(w.heap.begin(), w.heap.end(), later);
      const auto [d, x] = w.heap.back();
      w.heap.pop_back();
      if (d > w.dist[x]) continue;
      if (d > bound || ++settled > settle_limit) break;
      if (w.target[x] == w.search_id && --w.targets_left == 0) break;  // every pair decided
      for (const Arc& a : out_[x]) {
        if (a.other == v || state_[a.other] != kRemaining) continue;
        const std::uint64_t nd = d + a.weight;
        if (nd <= bound && nd < w.dist[a.other]) {  // past the bound it witnesses nothing
          if (w.dist[a.other] == kInf) w.touched.push_back(a.other);
          w.dist[a.other] = nd;
          w.heap.push_back({nd, a.other});
          std::push_heap(w.heap.begin(), w.heap.end(), later);
        }
      }
    }
  }

  // The shortcuts contracting v needs now: counted, and appended to `out`
  // when given. Thread-safe while the graph does not change.
  std::uint64_t shortcuts_for(vertex_id v, std::uint32_t settle_limit, std::vector<Shortcut>* out) const {
    WitnessScratch& w = scratch();
    std::uint64_t count = 0;
    for (const Arc& in : in_[v]) {
      const vertex_id u = in.other;
      std::uint64_t bound = 0;
      ++w.search_id;
      w.targets_left = 0;
      for (const Arc& o : out_[v])
        if (o.other != u && w.target[o.other] != w.search_id) {
          bound = std::max(bound, in.weight + o.weight);
          w.target[o.other] = w.search_id;
          ++w.targets_left;
        }
      if (w.targets_left == 0) continue;
      witness_search(w, u, v, bound, settle_limit);
      for (const Arc& o : out_[v]) {
        if (o.other == u) continue;
        const std::uint64_t via = in.weight + o.weight;
        if (w.dist[o.other] <= via) continue;
        ++count;
        if (out) out->push_back({u, o.other, via});
      }
      for (const vertex_id x : w.touched) w.dist[x] = kInf;
      w.touched.clear();
    }
    return count;
  }

  // Edge difference plus contracted neighbours (Geisberger et al.), from a
  // simulated contraction with a shorter witness search, plus the depth
  // term (kDepthWeight).
  void update_priorities(const std::vector<vertex_id>& vertices) {
#pragma omp parallel for schedule(dynamic, 64)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(vertices.size()); ++i) {
      const vertex_id v = vertices[static_cast<std::size_t>(i)];
      const auto added = static_cast<std::int64_t>(shortcuts_for(v, kSimulatedSettleLimit, nullptr));
      const auto removed = static_cast<std::int64_t>(in_[v].size() + out_[v].size());
      priority_[v] = added - removed + static_cast<std::int64_t>(deleted_[v]) + kDepthWeight * depth_[v];
    }
  }

  WitnessScratch& scratch() const {
    WitnessScratch& w = scratch_[static_cast<std::size_t>(omp_get_thread_num())];
    if (w.dist.size() < n_) {
      w.dist.assign(n_, kInf);
      w.target.assign(n_, 0);
    }
    return w;
  }

  vertex_id n_;
  std::vector<std::vector<Arc>> out_, in_;
  std::vector<char> state_;
  std::vector<std::uint32_t> deleted_;
  std::vector<std::int64_t> priority_;
  std::vector<std::int64_t> depth_ = std::vector<std::int64_t>(n_, 0);  // 1 + the deepest contracted neighbour's
  mutable std::vector<WitnessScratch> scratch_;
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
