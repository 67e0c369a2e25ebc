// Chain contraction: an exact, source-independent reduction of graphs whose
// vertices mostly lie on paths (road networks: a road between two junctions
// is a chain of shape points; dead-end streets hang off as trees).
//
// Seen as undirected, every vertex of a hanging tree (peeled off by repeated
// removal of vertices with one neighbour, the 2-core's complement) and every
// vertex with exactly two neighbours in the 2-core lies in a *piece*: a chain
// between two junctions with the trees that hang off it, or a tree that hangs
// off a junction. Everything else is the *core*. A shortest path can cross a
// piece only along its chain, so the core graph keeps the junctions and, per
// chain, one shortcut arc per direction whose weight is the chain's length.
// A piece vertex's distance is then the smaller of at most two *anchors*
// (core vertex, path length from it), read after the core is solved: one
// parallel pass, no rounds. What a single-source query from inside a piece
// needs (the piece's own paths, and the distances at which the core is
// entered) comes from a walk over that piece alone (ContractionQuery).
//
// Why: a shortest-path solver's rounds grow with the hop diameter, and on
// road graphs most hops are chain hops: the core keeps a fraction of the
// vertices and the rounds drop with it (measurements: docs/TUNING.md, "Chain
// contraction").
//
// Integer weights only: a shortcut's weight is the exact sum of its chain's,
// and each piece distance is computed exactly. Float sums would round in a
// different order than a solver's sequential relaxations do.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace graph {

// A piece vertex's distance from one core vertex: `offset` more than the core
// vertex's, reached from `pred` (its neighbour on that path).
// 16 bytes, no padding: the read-off (ContractionQuery::expand) streams two
// per vertex.
struct ContractionAnchor {
  vertex_id core = kNoVertex;  // id in the core graph; kNoVertex: no such path
  vertex_id pred = kNoVertex;  // original id
  std::uint64_t offset = 0;
};
static_assert(sizeof(ContractionAnchor) == 16, "an anchor packs into 16 bytes");

struct ChainContraction {
  // The core graph: vertices 0 .. k-1 are the junctions (original ids in
  // original_of), vertex k = entry is the query's way in, and k+1, k+2 are
  // sinks with no arcs. A piece meets the core at one or two junctions, so
  // the entry has two arcs; a query from a piece vertex points them at those
  // junctions (apply_entry, or the same on a device copy) and any it does
  // not need at the sinks, so no offset ever moves. Built with weights of
  // entry_weight_bound, so a solver that inspects the weights once sees the
  // largest any query writes.
  static constexpr std::uint32_t kEntryArcs = 2;
  IntCsr core;
  vertex_id entry = kNoVertex;
  std::uint32_t entry_weight_bound = 0;
  std::vector<vertex_id> core_of;      // per original vertex: core id, or kNoVertex in a piece
  std::vector<vertex_id> original_of;  // per core id below entry
  // Per core arc (entry's excluded): the original vertex its target follows
  // on it (the tail for an arc of the input, the chain's last vertex for a
  // shortcut): how a core predecessor maps back.
  std::vector<vertex_id> via;
  std::vector<ContractionAnchor> anchors;  // 2 per original vertex; unused for core vertices
  std::vector<vertex_id> piece;            // per original vertex: its piece, kNoVertex for the core
  // What the contraction did, for reports.
  vertex_id peeled = 0;          // tree vertices
  vertex_id chain_vertices = 0;  // chain vertices (with no tree below)
  std::uint64_t shortcuts = 0;   // shortcut arcs added
  std::uint32_t pieces = 0;

  vertex_id core_vertices() const { return entry; }
  std::uint64_t core_arcs() const { return core.num_arcs() - kEntryArcs; }
};

// O(n + m) time and memory, plus a sort of the core's arcs.
ChainContraction contract_chains(const IntCsr& g);

// True when contracting `g` is worth it: at least `min_removed` of its
// vertices leave the core. Reads a finished contraction.
bool contraction_pays(const ChainContraction& c, double min_removed = 0.25);

// One query's part outside the core solve. start() walks the source's piece
// (a tree without its junctions, so a walk finds Dijkstra's distances); the core is then solved from core_source() (the
// entry vertex, whose arcs carry the distances at which the piece reaches the
// core, when the source lies in a piece); expand() maps the core's distances
// back to every vertex. A workspace: keep one per thread and reuse it.
class ContractionQuery {
 public:
  using Dist = std::uint64_t;
  ContractionQuery(const ChainContraction& c, const IntCsr& g);

  void start(vertex_id source);
  vertex_id source() const { return source_; }
  vertex_id core_source() const { return core_source_; }
  // false: a distance at which the piece reaches the core does not fit an
  // entry arc (more than 2^32 - 1, or more than entry_weight_bound); the
  // caller must solve this source uncontracted.
  bool fits() const { return fits_; }
  // The entry vertex's arcs for this query, kEntryArcs of them, sorted by
  // target: the junctions its piece reaches the core at, then sinks (all
  // sinks when the source is a core vertex).
  const std::vector<vertex_id>& entry_targets() const { return entry_targets_; }
  const std::vector<std::uint32_t>& entry_weights() const { return entry_weights_; }
  // Per entry arc: the piece vertex the core is entered from (kNoVertex for a sink).
  const std::vector<vertex_id>& entry_preds() const { return entry_preds_; }
  // Writes this query's entry arcs into `core` (a copy of the contraction's).
  void apply_entry(IntCsr& core) const;
  std::uint64_t local_relaxations() const { return local_relaxations_; }

  // dist (and pred, when both core_pred and pred are given) for every
  // original vertex from the core solve's distances (core_dist: one entry
  // per vertex of the core graph, the entry and sinks included, so at least
  // three; infinite_distance<uint32_t>() for unreachable) and predecessors.
  // Uses up to `threads` OpenMP threads (0: all).
  void expand(const Dist* core_dist, const vertex_id* core_pred, Dist* dist, vertex_id* pred, int threads = 0) const;
  // expand's last step's data, for a read-off done elsewhere (on a GPU):
  // the source's piece vertices and their distances inside the piece.
  const std::vector<vertex_id>& piece_vertices() const { return touched_; }
  Dist piece_distance(vertex_id v) const { return local_dist_[v]; }
  vertex_id piece_predecessor(vertex_id v) const { return local_pred_[v]; }

 private:
  const ChainContraction& c_;
  const IntCsr& g_;
  vertex_id source_ = kNoVertex;
  vertex_id core_source_ = kNoVertex;
  bool fits_ = true;
  std::vector<vertex_id> entry_targets_;
  std::vector<std::uint32_t> entry_weights_;
  std::vector<vertex_id> entry_preds_;  // per entry arc: the piece vertex the core is entered from
  std::uint64_t local_relaxations_ = 0;
  void fill_sinks();  // the entry arcs a query does not use point at the sinks
  // The piece search's labels: all infinite between queries but the touched ones.
  std::vector<Dist> local_dist_;
  std::vector<vertex_id> local_pred_;
  std::vector<vertex_id> touched_;
  std::vector<vertex_id> stack_;  // the piece walk's, kept between queries
};

}  // namespace graph
