// Chain contraction (graph/contraction.hpp): peel the hanging trees, walk the
// chains between junctions, keep the junctions with one shortcut per chain
// direction, and give every piece vertex its anchors.
#include "graph/contraction.hpp"

#include <omp.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace graph {
namespace {

constexpr std::uint64_t kNoArc = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kInf = std::numeric_limits<std::uint64_t>::max();
// A shortcut is an arc: its weight must fit one.
constexpr std::uint64_t kMaxArcWeight = std::numeric_limits<std::uint32_t>::max();

// The weight of arc u -> v, or kNoArc (a CSR's arcs are sorted by target).
std::uint64_t arc_weight(const IntCsr& g, vertex_id u, vertex_id v) {
  const auto first = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[u]);
  const auto last = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[u + 1]);
  const auto it = std::lower_bound(first, last, v);
  if (it == last || *it != v) return kNoArc;
  return g.weights[static_cast<std::size_t>(it - g.targets.begin())];
}

// Neighbours ignoring direction: the union of out- and in-arcs, each once.
struct Undirected {
  std::vector<edge_offset> offsets;
  std::vector<vertex_id> neighbours;
};

Undirected undirected_neighbours(const IntCsr& g) {
  const vertex_id n = g.num_vertices;
  // In-arcs by counting sort; filling tails in increasing order keeps each
  // vertex's in-list sorted.
  std::vector<edge_offset> in_offsets(static_cast<std::size_t>(n) + 1, 0);
  for (const vertex_id t : g.targets) ++in_offsets[t + 1];
  for (vertex_id v = 0; v < n; ++v) in_offsets[v + 1] += in_offsets[v];
  std::vector<vertex_id> in_tails(g.num_arcs());
  {
    std::vector<edge_offset> fill(in_offsets.begin(), in_offsets.end() - 1);
    for (vertex_id u = 0; u < n; ++u)
      for (edge_offset e = g.offsets[u]; e < g.offsets[u + 1]; ++e) in_tails[fill[g.targets[e]]++] = u;
  }
  Undirected u;
  u.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  u.neighbours.reserve(2 * g.num_arcs());
  for (vertex_id v = 0; v < n; ++v) {
    auto a = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[v]);
    const auto a_end = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[v + 1]);
    auto b = in_tails.begin() + static_cast<std::ptrdiff_t>(in_offsets[v]);
    const auto b_end = in_tails.begin() + static_cast<std::ptrdiff_t>(in_offsets[v + 1]);
    while (a != a_end || b != b_end) {
      vertex_id next;
      if (b == b_end || (a != a_end && *a < *b)) {
        next = *a++;
      } else if (a == a_end || *b < *a) {
        next = *b++;
      } else {
        next = *a++;
        ++b;
      }
      if (next != v) u.neighbours.push_back(next);
    }
    u.offsets[v + 1] = u.neighbours.size();
  }
  return u;
}

struct CoreArc {
  vertex_id from, to;
  std::uint64_t weight;
  vertex_id via;
};

}  // namespace

ChainContraction contract_chains(const IntCsr& g) {
  const vertex_id n = g.num_vertices;
  ChainContraction c;
  const Undirected und = undirected_neighbours(g);
  std::vector<std::uint32_t> degree(n);
  for (vertex_id v = 0; v < n; ++v) degree[v] = static_cast<std::uint32_t>(und.offsets[v + 1] - und.offsets[v]);

  // ---- Peel the hanging trees: remove vertices with one neighbour left
  // until none has. A vertex left with none (a tree component's last, or an
  // isolated vertex) stays, so every component keeps a core vertex.
  std::vector<char> alive(n, 1);
  std::vector<vertex_id> parent(n, kNoVertex);
  std::vector<vertex_id> peel_order;
  {
    std::vector<vertex_id> stack;
    for (vertex_id v = 0; v < n; ++v)
      if (degree[v] <= 1) stack.push_back(v);
    while (!stack.empty()) {
      const vertex_id v = stack.back();
      stack.pop_back();
      if (!alive[v] || degree[v] != 1) continue;
      vertex_id p = kNoVertex;
      for (edge_offset e = und.offsets[v]; e < und.offsets[v + 1]; ++e)
        if (alive[und.neighbours[e]]) {
          p = und.neighbours[e];
          break;
        }
      parent[v] = p;
      alive[v] = 0;
      peel_order.push_back(v);
      if (--degree[p] == 1) stack.push_back(p);
    }
  }
  c.peeled = static_cast<vertex_id>(peel_order.size());

  // ---- Junctions: what is left with other than two neighbours. The rest of
  // the 2-core lies on chains between junctions (or on cycles of its own).
  std::vector<char> is_core(n, 0);
  std::vector<vertex_id> junctions;
  for (vertex_id v = 0; v < n; ++v)
    if (alive[v] && degree[v] != 2) {
      is_core[v] = 1;
      junctions.push_back(v);
    }
  c.piece.assign(n, kNoVertex);
  c.anchors.assign(2 * static_cast<std::size_t>(n), ContractionAnchor{});
  std::vector<char> visited(n, 0);
  std::vector<CoreArc> shortcuts;  // original ids until the core is numbered
  std::vector<vertex_id> inner;
  std::vector<std::uint64_t> fw, bw;  // fw[i]: arc node_i -> node_i+1; bw[i]: node_i+1 -> node_i (node_0 = a)

  // The chain a, inner..., b with its arcs in fw / bw: a piece, anchors in
  // original ids for now, a shortcut per direction whose arcs all exist.
  const auto finish_chain = [&](vertex_id a, vertex_id b) {
    const std::size_t k = inner.size();
    if (k == 0) return;  // cut right after a: a direct arc between junctions
    const vertex_id piece = c.pieces++;
    c.chain_vertices += static_cast<vertex_id>(k);
    std::uint64_t sum = 0;
    bool whole = true;
    for (std::size_t j = 0; j < k; ++j) {
      if (fw[j] == kNoArc) whole = false;
      sum += whole ? fw[j] : 0;
      c.piece[inner[j]] = piece;
      if (whole) c.anchors[2 * std::size_t{inner[j]}] = {a, j ? inner[j - 1] : a, sum};
    }
    if (whole && fw[k] != kNoArc && a != b) shortcuts.push_back({a, b, sum + fw[k], inner[k - 1]});
    sum = 0;
    whole = true;
    for (std::size_t j = k; j-- > 0;) {
      if (bw[j + 1] == kNoArc) whole = false;
      sum += whole ? bw[j + 1] : 0;
      if (whole) c.anchors[2 * std::size_t{inner[j]} + 1] = {b, j + 1 < k ? inner[j + 1] : b, sum};
    }
    if (whole && bw[0] != kNoArc && a != b) shortcuts.push_back({b, a, sum + bw[0], inner[0]});
  };

  // Walks the chain that leaves junction a through x. A chain whose arcs
  // would add up past an arc's weight is cut: the vertex before the excess
  // becomes a junction, and the rest of the chain is walked from it later.
  const auto walk = [&](vertex_id a, vertex_id x) {
    inner.clear();
    fw.clear();
    bw.clear();
    std::uint64_t fsum = 0, bsum = 0;
    vertex_id prev = a, cur = x;
    for (;;) {
      const std::uint64_t f = arc_weight(g, prev, cur), b = arc_weight(g, cur, prev);
      const std::uint64_t nf = fsum + (f == kNoArc ? 0 : f), nb = bsum + (b == kNoArc ? 0 : b);
      if ((nf > kMaxArcWeight || nb > kMaxArcWeight) && prev != a) {
        inner.pop_back();  // prev: fw and bw already end with the arcs into it
        is_core[prev] = 1;
        junctions.push_back(prev);
        cur = prev;
        break;
      }
      fsum = nf;
      bsum = nb;
      fw.push_back(f);
      bw.push_back(b);
      if (is_core[cur]) break;
      visited[cur] = 1;
      inner.push_back(cur);
      vertex_id next = kNoVertex;
      for (edge_offset e = und.offsets[cur]; e < und.offsets[cur + 1]; ++e) {
        const vertex_id y = und.neighbours[e];
        if (alive[y] && y != prev) {
          next = y;
          break;
        }
      }
      prev = cur;
      cur = next;
    }
    finish_chain(a, cur);
  };

  const auto walk_from_junctions = [&](std::size_t first) {
    for (std::size_t i = first; i < junctions.size(); ++i) {  // walks may add junctions
      const vertex_id a = junctions[i];
      for (edge_offset e = und.offsets[a]; e < und.offsets[a + 1]; ++e) {
        const vertex_id y = und.neighbours[e];
        if (alive[y] && !is_core[y] && !visited[y]) walk(a, y);
      }
    }
  };
  walk_from_junctions(0);
  // Cycles with no junction: one of their vertices becomes one.
  for (vertex_id v = 0; v < n; ++v)
    if (alive[v] && !is_core[v] && !visited[v]) {
      is_core[v] = 1;
      junctions.push_back(v);
      walk_from_junctions(junctions.size() - 1);
    }

  // ---- Number the core; anchors to core ids.
  c.core_of.assign(n, kNoVertex);
  for (vertex_id v = 0; v < n; ++v)
    if (is_core[v]) {
      c.core_of[v] = static_cast<vertex_id>(c.original_of.size());
      c.original_of.push_back(v);
    }
  const vertex_id k = static_cast<vertex_id>(c.original_of.size());
  for (ContractionAnchor& anchor : c.anchors)
    if (anchor.core != kNoVertex) anchor.core = c.core_of[anchor.core];

  // ---- Trees, root side first: a tree vertex is its parent's anchors plus
  // the arc from the parent (if that arc exists: else only its own subtree
  // reaches it). A tree hanging off a junction is a piece of its own.
  for (auto it = peel_order.rbegin(); it != peel_order.rend(); ++it) {
    const vertex_id v = *it, p = parent[v];
    c.piece[v] = is_core[p] ? c.pieces++ : c.piece[p];
    const std::uint64_t w = arc_weight(g, p, v);
    if (w == kNoArc) continue;
    if (is_core[p]) {
      c.anchors[2 * std::size_t{v}] = {c.core_of[p], p, w};
    } else {
      for (std::size_t side = 0; side < 2; ++side) {
        const ContractionAnchor& up = c.anchors[2 * std::size_t{p} + side];
        if (up.core != kNoVertex) c.anchors[2 * std::size_t{v} + side] = {up.core, p, up.offset + w};
      }
    }
  }

  // ---- The core graph: arcs between junctions and shortcuts, the lightest
  // of each (from, to) pair kept with its via (the smallest via among equal
  // weights). Grouped by tail with a counting sort, then each row, a few
  // arcs long, sorted on its own: one sort of all the arcs took 40% of the
  // contraction (docs/TUNING.md, "Chain contraction").
  std::vector<edge_offset> row_end(static_cast<std::size_t>(k) + 1, 0);
  for (const vertex_id u : c.original_of)
    for (edge_offset e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      if (is_core[g.targets[e]]) ++row_end[c.core_of[u] + 1];
  for (const CoreArc& s : shortcuts) ++row_end[c.core_of[s.from] + 1];
  for (vertex_id v = 0; v < k; ++v) row_end[v + 1] += row_end[v];
  std::vector<CoreArc> arcs(row_end[k]);
  {
    std::vector<edge_offset> fill(row_end.begin(), row_end.end() - 1);
    for (const vertex_id u : c.original_of)
      for (edge_offset e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
        if (is_core[g.targets[e]]) arcs[fill[c.core_of[u]]++] = {c.core_of[u], c.core_of[g.targets[e]], g.weights[e], u};
    for (const CoreArc& s : shortcuts)
      arcs[fill[c.core_of[s.from]]++] = {c.core_of[s.from], c.core_of[s.to], s.weight, s.via};
  }
  c.shortcuts = shortcuts.size();
  std::size_t kept = 0;
  for (vertex_id v = 0; v < k; ++v) {
    const auto first = arcs.begin() + static_cast<std::ptrdiff_t>(row_end[v]);
    const auto last = arcs.begin() + static_cast<std::ptrdiff_t>(row_end[v + 1]);
    std::sort(first, last, [](const CoreArc& x, const CoreArc& y) {
      return std::tie(x.to, x.weight, x.via) < std::tie(y.to, y.weight, y.via);
    });
    const std::size_t row_kept = kept;
    for (auto it = first; it != last; ++it)
      if (kept == row_kept || it->to != arcs[kept - 1].to) arcs[kept++] = *it;
  }
  arcs.resize(kept);

  // The entry's placeholder weight: no piece path is longer than the sum of
  // the piece's arcs.
  {
    std::vector<std::uint64_t> piece_sum(c.pieces, 0);
    for (vertex_id v = 0; v < n; ++v) {
      if (c.piece[v] == kNoVertex) continue;
      std::uint64_t& s = piece_sum[c.piece[v]];
      for (edge_offset e = g.offsets[v]; e < g.offsets[v + 1]; ++e) s = std::min(kMaxArcWeight, s + g.weights[e]);
    }
    std::uint64_t bound = 0;
    for (const std::uint64_t s : piece_sum) bound = std::max(bound, s);
    c.entry_weight_bound = static_cast<std::uint32_t>(bound);
  }

  c.entry = k;
  IntCsr& core = c.core;
  core.num_vertices = k + 1 + ChainContraction::kEntryArcs;
  core.offsets.assign(static_cast<std::size_t>(core.num_vertices) + 1, 0);
  core.targets.reserve(arcs.size() + ChainContraction::kEntryArcs);
  core.weights.reserve(arcs.size() + ChainContraction::kEntryArcs);
  c.via.reserve(arcs.size());
  for (const CoreArc& a : arcs) {
    ++core.offsets[a.from + 1];
    core.targets.push_back(a.to);
    core.weights.push_back(static_cast<std::uint32_t>(a.weight));
    c.via.push_back(a.via);
  }
  for (vertex_id v = 0; v < k; ++v) core.offsets[v + 1] += core.offsets[v];
  for (std::uint32_t s = 0; s < ChainContraction::kEntryArcs; ++s) {
    core.targets.push_back(k + 1 + s);
    core.weights.push_back(c.entry_weight_bound);
  }
  core.offsets[k + 1] = core.targets.size();
  for (vertex_id v = k + 1; v < core.num_vertices; ++v) core.offsets[v + 1] = core.offsets[v];
  return c;
}

bool contraction_pays(const ChainContraction& c, double min_removed) {
  const std::size_t n = c.core_of.size();
  if (n == 0) return false;
  return static_cast<double>(n - c.core_vertices()) >= min_removed * static_cast<double>(n);
}

ContractionQuery::ContractionQuery(const ChainContraction& c, const IntCsr& g)
    : c_(c), g_(g), local_dist_(g.num_vertices, kInf), local_pred_(g.num_vertices, kNoVertex) {
  if (c.core_of.size() != g.num_vertices)
    throw std::invalid_argument("graph: a contraction used with a graph it was not made from");
}

void ContractionQuery::start(vertex_id source) {
  if (source >= g_.num_vertices)
    throw std::out_of_range("graph: source " + std::to_string(source) + " is not a vertex");
  for (const vertex_id v : touched_) {
    local_dist_[v] = kInf;
    local_pred_[v] = kNoVertex;
  }
  touched_.clear();
  entry_targets_.clear();
  entry_weights_.clear();
  entry_preds_.clear();
  fits_ = true;
  local_relaxations_ = 0;
  source_ = source;
  if (c_.core_of[source] != kNoVertex) {
    core_source_ = c_.core_of[source];
    fill_sinks();
    return;
  }
  core_source_ = c_.entry;
  // The source's piece, walked outward; the junctions it reaches are where
  // the core solve starts, at these distances. Seen without its junctions a
  // piece is a tree (a chain's inner vertices with the trees that hang off
  // them, or one hanging tree; a cycle without junctions got one), so each
  // of its vertices has exactly one path from the source inside the piece:
  // the first arc that reaches it is the only one, and a stack finds the
  // same distances a heap would, without the heap (paths that leave the piece
  // and come back are the anchors' part, taken in expand).
  struct Seed {
    vertex_id core;
    Dist dist;
    vertex_id pred;
  };
  std::vector<Seed> seeds;
  local_dist_[source] = 0;
  touched_.push_back(source);
  stack_.clear();
  stack_.push_back(source);
  while (!stack_.empty()) {
    const vertex_id u = stack_.back();
    stack_.pop_back();
    const Dist d = local_dist_[u];
    for (edge_offset e = g_.offsets[u]; e < g_.offsets[u + 1]; ++e) {
      ++local_relaxations_;
      const vertex_id x = g_.targets[e];
      const Dist nd = d + g_.weights[e];
      if (const vertex_id cx = c_.core_of[x]; cx != kNoVertex) {
        auto seed = std::find_if(seeds.begin(), seeds.end(), [cx](const Seed& s) { return s.core == cx; });
        if (seed == seeds.end())
          seeds.push_back({cx, nd, u});
        else if (nd < seed->dist)
          *seed = {cx, nd, u};
      } else if (local_dist_[x] == kInf) {
        touched_.push_back(x);
        local_dist_[x] = nd;
        local_pred_[x] = u;
        stack_.push_back(x);
      }
    }
  }
  if (seeds.size() > ChainContraction::kEntryArcs) throw std::logic_error("graph: a piece meets the core at more than two junctions");
  std::sort(seeds.begin(), seeds.end(), [](const Seed& a, const Seed& b) { return a.core < b.core; });
  for (const Seed& s : seeds) {
    if (s.dist > c_.entry_weight_bound) fits_ = false;
    entry_targets_.push_back(s.core);
    entry_weights_.push_back(static_cast<std::uint32_t>(std::min<Dist>(s.dist, kMaxArcWeight)));
    entry_preds_.push_back(s.pred);
  }
  fill_sinks();
}

void ContractionQuery::fill_sinks() {
  for (std::uint32_t s = static_cast<std::uint32_t>(entry_targets_.size()); s < ChainContraction::kEntryArcs; ++s) {
    entry_targets_.push_back(c_.entry + 1 + s);
    entry_weights_.push_back(0);
    entry_preds_.push_back(kNoVertex);
  }
}

void ContractionQuery::apply_entry(IntCsr& core) const {
  const std::size_t first = core.offsets[c_.entry];
  for (std::size_t i = 0; i < ChainContraction::kEntryArcs; ++i) {
    core.targets[first + i] = entry_targets_[i];
    core.weights[first + i] = entry_weights_[i];
  }
}

void ContractionQuery::expand(const Dist* core_dist, const vertex_id* core_pred, Dist* dist, vertex_id* pred,
                              int threads) const {
  const vertex_id n = g_.num_vertices;
  const bool want_pred = core_pred != nullptr && pred != nullptr;
  const IntCsr& core = c_.core;
  // A core vertex's predecessor in the core maps to the original vertex it
  // follows on that core arc (the lightest, and only, arc of the pair).
  const auto map_pred = [&](vertex_id cv) -> vertex_id {
    const vertex_id p = core_pred[cv];
    if (p == kNoVertex) return kNoVertex;
    if (p == c_.entry) {
      for (std::size_t i = 0; i < entry_targets_.size(); ++i)
        if (entry_targets_[i] == cv) return entry_preds_[i];
      return kNoVertex;
    }
    const auto first = core.targets.begin() + static_cast<std::ptrdiff_t>(core.offsets[p]);
    const auto last = core.targets.begin() + static_cast<std::ptrdiff_t>(core.offsets[p + 1]);
    const auto it = std::lower_bound(first, last, cv);
    return it != last && *it == cv ? c_.via[static_cast<std::size_t>(it - core.targets.begin())] : kNoVertex;
  };
  const int team = threads > 0 ? threads : omp_get_max_threads();
  // An anchor's distance, by selects: a missing anchor reads core-graph
  // vertex 0 (there is always one: the entry and sinks are core-graph
  // vertices) and is masked to infinity.
  const auto reach = [&](vertex_id core_vertex, Dist offset) -> Dist {
    const bool none = core_vertex == kNoVertex;
    const Dist base = core_dist[none ? 0 : core_vertex];
    return none || base == kInf ? kInf : base + offset;
  };
  if (!want_pred) {
    // Distances only, without a branch per vertex: whether v is a core
    // vertex, whether an anchor exists and which anchor is nearer are all
    // unpredictable in the input's order, and their mispredictions, not the
    // 40 bytes a vertex reads, had set this loop's speed. A core vertex is
    // its own anchor at offset 0.
#pragma omp parallel for schedule(static) num_threads(team) if (n >= (1u << 15))
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      const auto v = static_cast<vertex_id>(i);
      const vertex_id cv = c_.core_of[v];
      const ContractionAnchor* anchor = &c_.anchors[2 * std::size_t{v}];
      const bool in_core = cv != kNoVertex;
      const Dist d0 = reach(in_core ? cv : anchor[0].core, in_core ? 0 : anchor[0].offset);
      const Dist d1 = reach(in_core ? kNoVertex : anchor[1].core, anchor[1].offset);
      dist[v] = std::min(d0, d1);
    }
  } else {
    // With predecessors: ties need the rule below, so this loop branches.
#pragma omp parallel for schedule(static) num_threads(team) if (n >= (1u << 15))
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      const auto v = static_cast<vertex_id>(i);
      if (const vertex_id cv = c_.core_of[v]; cv != kNoVertex) {
        dist[v] = core_dist[cv];
        pred[v] = map_pred(cv);
        continue;
      }
      // Ties (zero-weight arcs) must not let a chain's vertices and its ends
      // point at each other: prefer an anchor whose junction was not reached
      // through this piece, then the one nearer the source, then the first.
      // Two vertices of one piece see the same anchors and so pick the same
      // direction, and a junction reached through the chain is never picked
      // on a tie.
      const ContractionAnchor* anchor = &c_.anchors[2 * std::size_t{v}];
      const Dist d[2] = {reach(anchor[0].core, anchor[0].offset), reach(anchor[1].core, anchor[1].offset)};
      int pick = d[1] < d[0] ? 1 : 0;
      if (d[0] == d[1] && d[0] != kInf) {  // only ties need the junctions' predecessors
        const auto through_piece = [&](vertex_id junction) {
          const vertex_id p = map_pred(junction);
          return p != kNoVertex && c_.piece[p] == c_.piece[v];
        };
        const bool through0 = through_piece(anchor[0].core), through1 = through_piece(anchor[1].core);
        if (through1 < through0 || (through1 == through0 && core_dist[anchor[1].core] < core_dist[anchor[0].core]))
          pick = 1;
      }
      const Dist best = d[pick];
      const vertex_id from = best == kInf ? kNoVertex : anchor[pick].pred;
      dist[v] = best;
      pred[v] = from;
    }
  }
  // The source's own piece: its paths inside the piece win ties.
  for (const vertex_id v : touched_)
    if (local_dist_[v] <= dist[v]) {
      dist[v] = local_dist_[v];
      if (want_pred) pred[v] = local_pred_[v];
    }
  if (want_pred) pred[source_] = kNoVertex;
}

}  // namespace graph
