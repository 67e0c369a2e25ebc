#include "graph/io/contraction_cache.hpp"

#include <string>
#include <vector>

#include "graph/csr_check.hpp"
#include "graph/io/sealed_file.hpp"

#include "content_hash.hpp"

namespace graph::io {

namespace {

constexpr char kContractionMagic[8] = {'S', 'S', 'S', 'P', 'C', 'T', 'R', '\0'};
constexpr char kHierarchyMagic[8] = {'S', 'S', 'S', 'P', 'H', 'I', 'E', '\0'};

std::string replace_suffix(const std::string& path, const std::string& suffix) {
  const std::string bin = ".bin.cache";
  if (path.size() > bin.size() && path.compare(path.size() - bin.size(), bin.size(), bin) == 0)
    return path.substr(0, path.size() - bin.size()) + suffix;
  return path + suffix;
}

void put_csr(SealedWriter& w, const IntCsr& g) {
  w.put(g.num_vertices);
  w.put_vector(g.offsets);
  w.put_vector(g.targets);
  w.put_vector(g.weights);
}

IntCsr get_csr(SealedReader& r, std::uint64_t max_vertices, std::uint64_t max_arcs) {
  IntCsr g;
  g.num_vertices = r.get<vertex_id>();
  g.offsets = r.get_vector<edge_offset>(max_vertices + 1);
  g.targets = r.get_vector<vertex_id>(max_arcs);
  g.weights = r.get_vector<std::uint32_t>(max_arcs);
  if (g.num_vertices > max_vertices) r.refuse("its core has more vertices than the graph");
  const std::string problem = csr_problem(g, false);
  if (!problem.empty()) r.refuse("its core graph is malformed: " + problem);
  return g;
}

// Offsets from 0 to `end`, never decreasing, `count` + 1 of them.
bool offsets_ok(const std::vector<edge_offset>& o, std::uint64_t count, std::uint64_t end) {
  if (o.size() != count + 1 || o.front() != 0 || o.back() != end) return false;
  for (std::size_t i = 1; i < o.size(); ++i)
    if (o[i] < o[i - 1]) return false;
  return true;
}

template <class T>
bool all_below(const std::vector<T>& v, std::uint64_t bound) {
  for (const T x : v)
    if (static_cast<std::uint64_t>(x) >= bound) return false;
  return true;
}

// Opens `path` and proves it was built from `g`.
SealedReader open_for(const std::string& path, const char (&magic)[8], const IntCsr& g, std::uint64_t max_bytes) {
  SealedReader r(path, magic, kContractionCacheVersion, max_bytes);
  const auto identity = r.get<std::uint64_t>();
  const auto vertices = r.get<std::uint64_t>();
  const auto arcs = r.get<std::uint64_t>();
  if (vertices != g.num_vertices || arcs != g.num_arcs() || identity != graph_identity(g))
    r.refuse("built from another graph (" + std::to_string(vertices) + " vertices, " + std::to_string(arcs) +
             " arcs) or another version of this one");
  return r;
}

void put_identity(SealedWriter& w, const IntCsr& g) {
  w.put(graph_identity(g));
  w.put(std::uint64_t{g.num_vertices});
  w.put(std::uint64_t{g.num_arcs()});
}

}  // namespace

std::uint64_t graph_identity(const IntCsr& g) {
  detail::Checksum sum;
  const std::uint64_t header[3] = {g.num_vertices, g.num_arcs(), kContractionCacheVersion};
  sum.update(header, sizeof header);
  const std::uint64_t digests[3] = {
      detail::hash_array(g.offsets.data(), g.offsets.size() * sizeof(edge_offset)),
      detail::hash_array(g.targets.data(), g.targets.size() * sizeof(vertex_id)),
      detail::hash_array(g.weights.data(), g.weights.size() * sizeof(std::uint32_t))};
  sum.update(digests, sizeof digests);
  return sum.digest();
}

std::string contraction_cache_path(const std::string& graph_cache_path) {
  return replace_suffix(graph_cache_path, ".contraction.cache");
}
std::string hierarchy_cache_path(const std::string& graph_cache_path) {
  return replace_suffix(graph_cache_path, ".hierarchy.cache");
}

void write_contraction_cache(const std::string& path, const IntCsr& g, const ChainContraction& c) {
  SealedWriter w(kContractionMagic, kContractionCacheVersion);
  put_identity(w, g);
  put_csr(w, c.core);
  w.put(c.entry);
  w.put(c.entry_weight_bound);
  w.put_vector(c.core_of);
  w.put_vector(c.original_of);
  w.put_vector(c.via);
  w.put_vector(c.anchors);
  w.put_vector(c.piece);
  w.put(c.peeled);
  w.put(c.chain_vertices);
  w.put(c.shortcuts);
  w.put(c.pieces);
  w.write(path);
}

ChainContraction read_contraction_cache(const std::string& path, const IntCsr& g) {
  const std::uint64_t n = g.num_vertices, m = g.num_arcs();
  const std::uint64_t core_arcs = m + ChainContraction::kEntryArcs;
  // Every field's largest size for this graph, with room for the headers.
  const std::uint64_t max_bytes = 8 * (n + 4) + 8 * core_arcs + 32 * n + 16 * n + 4096;
  SealedReader r = open_for(path, kContractionMagic, g, max_bytes);
  ChainContraction c;
  c.core = get_csr(r, n + 1 + ChainContraction::kEntryArcs, core_arcs);
  c.entry = r.get<vertex_id>();
  c.entry_weight_bound = r.get<std::uint32_t>();
  c.core_of = r.get_vector<vertex_id>(n);
  c.original_of = r.get_vector<vertex_id>(n);
  c.via = r.get_vector<vertex_id>(m);
  c.anchors = r.get_vector<ContractionAnchor>(2 * n);
  c.piece = r.get_vector<vertex_id>(n);
  c.peeled = r.get<vertex_id>();
  c.chain_vertices = r.get<vertex_id>();
  c.shortcuts = r.get<std::uint64_t>();
  c.pieces = r.get<std::uint32_t>();
  r.expect_end();

  // Every index a solver or a query follows lies in range, and the maps agree.
  const vertex_id k = c.entry;
  const IntCsr& core = c.core;
  if (k == kNoVertex || std::uint64_t{core.num_vertices} != std::uint64_t{k} + 1 + ChainContraction::kEntryArcs)
    r.refuse("its entry vertex does not match its core's size");
  if (core.out_degree(k) != ChainContraction::kEntryArcs) r.refuse("its entry vertex has the wrong number of arcs");
  for (vertex_id s = k + 1; s < core.num_vertices; ++s)
    if (core.out_degree(s) != 0) r.refuse("a sink of its core has arcs");
  if (c.core_of.size() != n || c.original_of.size() != k || c.anchors.size() != 2 * n || c.piece.size() != n ||
      c.via.size() != core.offsets[k])
    r.refuse("its arrays do not match the graph's size");
  for (vertex_id i = 0; i < k; ++i)
    if (c.original_of[i] >= n || c.core_of[c.original_of[i]] != i) r.refuse("its core ids and vertex ids disagree");
  std::uint64_t in_core = 0;
  for (std::uint64_t v = 0; v < n; ++v) {
    const bool is_core = c.core_of[v] != kNoVertex;
    in_core += is_core;
    if (is_core != (c.piece[v] == kNoVertex)) r.refuse("a vertex is both in the core and in a piece, or in neither");
    if (!is_core && c.piece[v] >= c.pieces) r.refuse("a piece id is out of range");
  }
  if (in_core != k) r.refuse("its core ids and vertex ids disagree");
  if (!all_below(c.via, n)) r.refuse("a core arc names a vertex out of range");
  for (const ContractionAnchor& a : c.anchors)
    if ((a.core != kNoVertex && a.core >= k) || (a.pred != kNoVertex && a.pred >= n))
      r.refuse("an anchor names a vertex out of range");
  return c;
}

void write_hierarchy_cache(const std::string& path, const IntCsr& g, const Hierarchy& h) {
  SealedWriter w(kHierarchyMagic, kContractionCacheVersion);
  put_identity(w, g);
  w.put(h.num_vertices);
  w.put_vector(h.rank);
  w.put_vector(h.up_offsets);
  w.put_vector(h.up_targets);
  w.put_vector(h.up_weights);
  w.put_vector(h.order);
  w.put_vector(h.position);
  w.put_vector(h.level_offsets);
  w.put_vector(h.down_offsets);
  w.put_vector(h.down_tails);
  w.put_vector(h.down_weights);
  w.put(h.shortcuts);
  w.write(path);
}

Hierarchy read_hierarchy_cache(const std::string& path, const IntCsr& g, const ChainContraction& c) {
  const std::uint64_t nv = c.core.num_vertices;
  // Shortcuts have no bound from the graph alone; a sealed file is ours, so
  // the bound only guards against a damaged size.
  const std::uint64_t max_bytes = std::uint64_t{1} << 40;
  SealedReader r = open_for(path, kHierarchyMagic, g, max_bytes);
  const std::uint64_t any = max_bytes;
  Hierarchy h;
  h.num_vertices = r.get<vertex_id>();
  h.rank = r.get_vector<vertex_id>(nv);
  h.up_offsets = r.get_vector<edge_offset>(nv + 1);
  h.up_targets = r.get_vector<vertex_id>(any);
  h.up_weights = r.get_vector<std::uint64_t>(any);
  h.order = r.get_vector<vertex_id>(nv);
  h.position = r.get_vector<vertex_id>(nv);
  h.level_offsets = r.get_vector<std::uint32_t>(nv + 1);
  h.down_offsets = r.get_vector<edge_offset>(nv + 1);
  h.down_tails = r.get_vector<vertex_id>(any);
  h.down_weights = r.get_vector<std::uint64_t>(any);
  h.shortcuts = r.get<std::uint64_t>();
  r.expect_end();

  if (h.num_vertices != nv || h.rank.size() != nv || h.order.size() != nv || h.position.size() != nv)
    r.refuse("it was built over another core");
  if (!offsets_ok(h.up_offsets, nv, h.up_targets.size()) || h.up_weights.size() != h.up_targets.size() ||
      !all_below(h.up_targets, nv))
    r.refuse("its upward arcs are malformed");
  if (!offsets_ok(h.down_offsets, nv, h.down_tails.size()) || h.down_weights.size() != h.down_tails.size() ||
      !all_below(h.down_tails, nv))
    r.refuse("its downward arcs are malformed");
  for (std::uint64_t i = 0; i < nv; ++i)
    if (h.order[i] >= nv || h.position[h.order[i]] != i) r.refuse("its sweep order is not a permutation");
  const auto& lv = h.level_offsets;
  if (lv.empty() || lv.front() != 0 || lv.back() != nv) r.refuse("its levels do not cover the core");
  for (std::size_t i = 1; i < lv.size(); ++i)
    if (lv[i] < lv[i - 1]) r.refuse("its levels do not cover the core");
  return h;
}

}  // namespace graph::io
