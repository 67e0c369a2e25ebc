// The differential oracle: random graphs x every input format x every CPU
// shortest-path solver of the library, against an independent Dijkstra
// (tests/common/reference_dijkstra.hpp) run over the arcs exactly as they
// were generated, so a bug in a reader, in build_csr or in the binary cache
// shows up as a wrong distance even when every solver agrees with the
// library's own Dijkstra.
//
// Graphs (fixed seed): 1 to 300 vertices; random, road-like (junctions
// joined by chains of degree-2 vertices with trees hanging off, so chain
// contraction removes most vertices), trees and paths, dense, and unions of
// these with the ids shuffled (disconnected parts); directed and undirected;
// duplicate arcs with other weights and self-loops in the input; integer
// weights from 0 to 2^32 - 1 and float weights from 0 through subnormals to
// the largest the readers accept.
//
// Each graph is written as Matrix Market general and symmetric, DIMACS .gr
// (integers only), an edge list and a gzip file of one of them, in several
// spellings of the same numbers; each file is loaded with graph::load_graph
// twice, the second time from the binary cache the first load wrote, and
// some with --undirected or --weights unit. Every loaded CSR is checked
// with Dijkstra, and each distinct one (most loads return a CSR equal to an
// earlier one) with every solver: Dijkstra (with its predecessor tree), the
// batch Dijkstra, delta-stepping at several deltas on one and two threads
// and, for integer weights, the chain contraction's query (core solved by
// Dijkstra, delta-stepping and PHAST over a hierarchy of the core, the
// read-off with and without predecessors) and PHAST over a hierarchy of the
// whole graph. A second test writes CSRs of its own making
// straight to the cache, well formed or not (unsorted rows, duplicates,
// self-loops, float sums beyond FLT_MAX): read_cache must refuse them or
// hand back a graph every solver gets right.
//
// Float distances are compared exactly: see reference_dijkstra.hpp for why
// every correct solver computes the same float value whatever its order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <omp.h>
#include <zlib.h>

#include "graph/contraction.hpp"
#include "graph/error.hpp"
#include "graph/hierarchy.hpp"
#include "graph/io/binary_cache.hpp"
#include "graph/load.hpp"
#include "graph/predecessors.hpp"
#include "graph/reference.hpp"
#include "graph_test_support.hpp"
#include "reference_dijkstra.hpp"

using namespace graph;
using test_support::ReferenceGraph;
using test_support::RefArc;

namespace {

using Rng = std::mt19937_64;

std::uint64_t below(Rng& rng, std::uint64_t n) { return n == 0 ? 0 : rng() % n; }
bool one_in(Rng& rng, std::uint64_t n) { return below(rng, n) == 0; }

// ------------------------------------------------------------------ graphs

// Undirected links between vertices, before directions and weights.
struct Shape {
  std::uint32_t n = 0;
  std::vector<std::pair<vertex_id, vertex_id>> links;
  std::string name;
  bool chains = false;  // road-like or a tree: most vertices have two neighbours or fewer
};

Shape random_shape(Rng& rng, std::uint32_t max_n) {
  Shape s{static_cast<std::uint32_t>(1 + below(rng, max_n)), {}, "random", false};
  const std::uint64_t m = below(rng, 3ull * s.n + 1);
  for (std::uint64_t i = 0; i < m; ++i)
    s.links.push_back({static_cast<vertex_id>(below(rng, s.n)), static_cast<vertex_id>(below(rng, s.n))});
  return s;
}

Shape dense_shape(Rng& rng, std::uint32_t max_n) {
  Shape s{static_cast<std::uint32_t>(1 + below(rng, std::min<std::uint32_t>(max_n, 16))), {}, "dense", false};
  for (vertex_id u = 0; u < s.n; ++u)
    for (vertex_id v = 0; v < s.n; ++v)
      if (one_in(rng, 2)) s.links.push_back({u, v});
  return s;
}

// A tree, a path (each vertex's parent the one before it) or a cycle.
Shape tree_shape(Rng& rng, std::uint32_t max_n) {
  Shape s{static_cast<std::uint32_t>(1 + below(rng, max_n)), {}, "tree", true};
  const std::uint64_t kind = below(rng, 3);
  for (vertex_id v = 1; v < s.n; ++v)
    s.links.push_back({kind == 0 ? static_cast<vertex_id>(below(rng, v)) : v - 1, v});
  if (kind == 2 && s.n > 2) s.links.push_back({s.n - 1, 0});
  s.name = kind == 0 ? "tree" : kind == 1 ? "path" : "cycle";
  return s;
}

// Junctions joined by chains of shape points, trees hanging off anywhere.
Shape road_shape(Rng& rng, std::uint32_t max_n) {
  Shape s{static_cast<std::uint32_t>(std::min<std::uint64_t>(max_n, 2 + below(rng, 25))), {}, "road", true};
  const std::uint32_t junctions = s.n;
  const std::uint64_t roads = 1 + below(rng, 3ull * junctions);
  for (std::uint64_t r = 0; r < roads; ++r) {
    const auto length = static_cast<std::uint32_t>(below(rng, 14));
    if (s.n + length > max_n) break;
    vertex_id prev = static_cast<vertex_id>(below(rng, junctions));
    for (std::uint32_t i = 0; i < length; ++i) {
      s.links.push_back({prev, s.n});
      prev = s.n++;
    }
    s.links.push_back({prev, static_cast<vertex_id>(below(rng, junctions))});
  }
  const std::uint64_t trees = below(rng, 8);
  for (std::uint64_t t = 0; t < trees; ++t) {
    const auto size = static_cast<std::uint32_t>(1 + below(rng, 6));
    if (s.n + size > max_n) break;
    const vertex_id first = s.n;
    for (std::uint32_t i = 0; i < size; ++i) {
      const vertex_id parent =
          i == 0 ? static_cast<vertex_id>(below(rng, first)) : first + static_cast<vertex_id>(below(rng, i));
      s.links.push_back({parent, s.n++});
    }
  }
  return s;
}

Shape one_shape(Rng& rng, std::uint32_t max_n) {
  switch (below(rng, 8)) {
    case 0: case 1: return random_shape(rng, max_n);
    case 2: return dense_shape(rng, max_n);
    case 3: case 4: return tree_shape(rng, max_n);
    default: return road_shape(rng, max_n);
  }
}

// One shape, or a union of two to four (and some isolated vertices), with
// the ids shuffled so that the parts interleave.
Shape make_shape(Rng& rng) {
  constexpr std::uint32_t kMaxVertices = 300;
  Shape s;
  if (!one_in(rng, 4)) {
    s = one_shape(rng, kMaxVertices);
  } else {
    const std::uint64_t parts = 2 + below(rng, 3);
    s.name = "union";
    s.chains = true;
    for (std::uint64_t p = 0; p < parts; ++p) {
      const Shape part = one_shape(rng, kMaxVertices / 5);
      for (const auto& [u, v] : part.links) s.links.push_back({s.n + u, s.n + v});
      s.n += part.n;
      s.name += "+" + part.name;
      s.chains = s.chains && part.chains;
    }
    s.n += static_cast<std::uint32_t>(below(rng, 5));
  }
  if (!one_in(rng, 4)) {
    std::vector<vertex_id> perm(s.n);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    for (auto& [u, v] : s.links) u = perm[u], v = perm[v];
  }
  return s;
}

// The graph as generated: for an undirected one each edge once, in the
// direction it is stored in (readers mirror it).
template <class W>
struct TestGraph {
  std::string what;
  std::uint32_t n = 0;
  bool undirected = false;
  std::vector<RefArc<W>> edges;
};

std::uint32_t int_weight(Rng& rng, int mode) {
  switch (mode) {
    case 0: return static_cast<std::uint32_t>(below(rng, 4));  // zeros and ties
    case 1: return static_cast<std::uint32_t>(1 + below(rng, 1000));
    case 2: return static_cast<std::uint32_t>(rng());           // sums beyond 2^32
    default: {
      const std::uint32_t extremes[] = {0, 1, 0xFFFFFFFFu, 0x80000000u, 0xFFFFFFFEu};
      return one_in(rng, 2) ? extremes[below(rng, 5)] : static_cast<std::uint32_t>(rng());
    }
  }
}

float float_weight(Rng& rng, int mode) {
  const double unit = std::uniform_real_distribution<double>(0, 1)(rng);
  if (one_in(rng, 10)) return 0.0f;
  switch (mode) {
    case 0: return static_cast<float>(below(rng, 10000)) / 100.0f;  // "12.34": inexact in binary
    case 1: {                                                         // subnormals and the smallest normals
      const float tiny[] = {std::numeric_limits<float>::denorm_min(), 1e-40f, FLT_MIN, 1.5f * FLT_MIN,
                            static_cast<float>(below(rng, 1000)) * std::numeric_limits<float>::denorm_min(), 1.0f};
      return one_in(rng, 4) ? static_cast<float>(unit) : tiny[below(rng, 6)];
    }
    case 2: return static_cast<float>(unit * FLT_MAX);  // scaled down to what the readers accept
    default:  // any exponent from the subnormals up
      return std::ldexp(static_cast<float>(1 + unit), static_cast<int>(below(rng, 260)) - 149);
  }
}

// The readers refuse a float graph when a computed path length could pass
// FLT_MAX (graph/src/io/text_scan.hpp, check_float_paths: largest weight w
// plus 3 x min(sum of all entries, (n - 2) w)). Halving every weight (exact
// but for subnormals) until the largest file's entries pass with a factor
// of 2 to spare keeps the graph loadable and its sums finite.
void fit_float_range(TestGraph<float>& g) {
  if (g.n < 2) return;
  while (true) {
    double sum = 0, heaviest = 0;
    for (const auto& e : g.edges) {
      sum += e.weight;
      heaviest = std::max(heaviest, static_cast<double>(e.weight));
    }
    if (g.undirected) sum *= 2;  // the general file stores both directions
    const double bound = heaviest + 3 * std::min(sum, (g.n - 2.0) * heaviest);
    if (bound <= 0.5 * FLT_MAX) return;
    for (auto& e : g.edges) e.weight = std::ldexp(e.weight, -1);
  }
}

template <class W>
TestGraph<W> make_graph(Rng& rng, int index, bool fit_floats = true) {
  const Shape s = make_shape(rng);
  TestGraph<W> g;
  g.n = s.n;
  g.undirected = one_in(rng, 2);
  const int mode = static_cast<int>(below(rng, 4));
  const auto weight = [&] {
    if constexpr (std::is_same_v<W, float>)
      return float_weight(rng, mode);
    else
      return int_weight(rng, mode);
  };
  const auto add = [&](vertex_id u, vertex_id v) { g.edges.push_back({u, v, weight()}); };
  for (const auto& [u, v] : s.links) {
    if (!g.undirected && s.chains && !one_in(rng, 5)) {
      add(u, v);  // a two-way road, each direction its own weight
      add(v, u);
    } else {
      one_in(rng, 2) ? add(u, v) : add(v, u);  // an undirected edge, or a one-way arc
    }
  }
  // Duplicates with other weights (build_csr keeps the lightest) and self-loops.
  const std::size_t arcs = g.edges.size();
  for (std::uint64_t d = below(rng, arcs / 6 + 2); d > 0 && arcs > 0; --d) {
    const RefArc<W> e = g.edges[below(rng, arcs)];
    one_in(rng, 2) || !g.undirected ? add(e.from, e.to) : add(e.to, e.from);
  }
  for (std::uint64_t l = below(rng, 3); l > 0; --l) {
    const auto v = static_cast<vertex_id>(below(rng, g.n));
    add(v, v);
  }
  // An edge list has max id + 1 vertices: a self-loop on the last vertex
  // keeps that count n in every format without changing any distance.
  add(g.n - 1, g.n - 1);
  std::shuffle(g.edges.begin(), g.edges.end(), rng);
  if constexpr (std::is_same_v<W, float>)
    if (fit_floats) fit_float_range(g);
  g.what = "graph " + std::to_string(index) + " (" + s.name + ", n " + std::to_string(g.n) + ", " +
           std::to_string(g.edges.size()) + (g.undirected ? " undirected edges" : " arcs") + ", weights " +
           (std::is_same_v<W, float> ? "float" : "integer") + " mode " + std::to_string(mode) + ")";
  return g;
}

// ------------------------------------------------------------------ files

std::string spell(std::uint32_t w, Rng&) { return std::to_string(w); }

// A float in one of several spellings that all read back as exactly w:
// shortest-ish %.9g (nine digits round-trip every float), exponent form,
// plain digits for integral values (up to 39 of them), fixed point with 60
// decimals for small values, a leading '+', and zero as 0, 0.0, 0e0, -0.0.
std::string spell(float w, Rng& rng) {
  char buf[512];
  const auto reads_back = [&] { return static_cast<float>(std::strtod(buf, nullptr)) == w; };
  if (w == 0.0f) {
    const char* zeros[] = {"0", "0.0", "0e0", "0.000", "-0.0"};
    return zeros[below(rng, 5)];
  }
  switch (below(rng, 6)) {
    case 1: std::snprintf(buf, sizeof buf, "%.9e", static_cast<double>(w)); break;
    case 2:
      if (w >= 1.0f && w == std::floor(w)) {
        std::snprintf(buf, sizeof buf, "%.0f", static_cast<double>(w));
        break;
      }
      [[fallthrough]];
    case 3:
      if (w < 1.0f) {
        std::snprintf(buf, sizeof buf, "%.60f", static_cast<double>(w));
        if (reads_back()) break;
      }
      [[fallthrough]];
    case 4: std::snprintf(buf, sizeof buf, "+%.9g", static_cast<double>(w)); break;
    default: std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(w)); break;
  }
  if (!reads_back()) std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(w));
  return buf;
}

struct Style {
  std::string sep = " ";
  std::string eol = "\n";
};

Style pick_style(Rng& rng) {
  Style s;
  if (one_in(rng, 4)) s.sep = one_in(rng, 2) ? "\t" : "  ";
  if (one_in(rng, 6)) s.eol = "\r\n";
  return s;
}

// The first weight of a float file is always in exponent form, so that an
// edge list whose weights are all integral still reads as real.
template <class W>
std::string weight_text(W w, bool first, Rng& rng) {
  if constexpr (std::is_same_v<W, float>) {
    if (first && w != 0.0f) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.9e", static_cast<double>(w));
      return buf;
    }
    if (first) return "0e0";
  }
  return spell(w, rng);
}

enum class Text { MtxGeneral, MtxSymmetric, Dimacs, EdgeList };

const char* extension(Text t) {
  switch (t) {
    case Text::MtxGeneral: case Text::MtxSymmetric: return ".mtx";
    case Text::Dimacs: return ".gr";
    default: return ".el";
  }
}

// both: write each edge of an undirected graph in both directions (a
// directed file of the same graph); otherwise as stored, once.
template <class W>
std::string write_text(const TestGraph<W>& g, Text format, bool both, Rng& rng) {
  const Style st = pick_style(rng);
  std::vector<RefArc<W>> entries;
  for (const auto& e : g.edges) {
    if (format == Text::MtxSymmetric) {
      entries.push_back({std::max(e.from, e.to), std::min(e.from, e.to), e.weight});  // lower triangle
    } else {
      entries.push_back(e);
      if (both && e.from != e.to) entries.push_back({e.to, e.from, e.weight});
    }
  }
  std::string out;
  const bool is_float = std::is_same_v<W, float>;
  const std::uint32_t base = format == Text::EdgeList ? 0 : 1;
  switch (format) {
    case Text::MtxGeneral:
    case Text::MtxSymmetric:
      out = std::string("%%MatrixMarket matrix coordinate ") + (is_float ? "real" : "integer") +
            (format == Text::MtxSymmetric ? " symmetric" : " general") + st.eol;
      if (one_in(rng, 2)) out += "% differential oracle" + st.eol;
      out += std::to_string(g.n) + st.sep + std::to_string(g.n) + st.sep + std::to_string(entries.size()) + st.eol;
      break;
    case Text::Dimacs:
      out = "c differential oracle" + st.eol + "p sp " + std::to_string(g.n) + " " + std::to_string(entries.size()) +
            st.eol;
      break;
    case Text::EdgeList:
      if (one_in(rng, 2)) out = "# differential oracle" + st.eol;
      break;
  }
  bool first = true;
  for (const auto& e : entries) {
    if (format == Text::Dimacs) out += "a" + st.sep;
    out += std::to_string(e.from + base) + st.sep + std::to_string(e.to + base) + st.sep +
           weight_text(e.weight, first, rng) + st.eol;
    first = false;
  }
  return out;
}

// A gzip member at a random level (0: stored blocks), fed to zlib in pieces
// of random sizes with a full flush after some, so that block boundaries fall
// anywhere in a line.
std::string gzip_member(const std::string& data, Rng& rng) {
  z_stream zs{};
  const int level = static_cast<int>(below(rng, 10));
  EXPECT_EQ(deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 64 * (data.size() / 64 + 8), '\0');
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  std::size_t at = 0;
  int rc = Z_OK;
  do {
    const std::size_t len = std::min<std::size_t>(data.size() - at, 1 + below(rng, 3000));
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + at));
    zs.avail_in = static_cast<uInt>(len);
    at += len;
    rc = deflate(&zs, at == data.size() ? Z_FINISH : one_in(rng, 2) ? Z_FULL_FLUSH : Z_NO_FLUSH);
  } while (at < data.size() && rc == Z_OK);
  while (rc == Z_OK) rc = deflate(&zs, Z_FINISH);
  EXPECT_EQ(rc, Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// One member, or two (a concatenation is one gzip file).
std::string gzip(const std::string& data, Rng& rng) {
  if (data.size() < 2 || !one_in(rng, 3)) return gzip_member(data, rng);
  const std::size_t cut = 1 + below(rng, data.size() - 1);
  return gzip_member(data.substr(0, cut), rng) + gzip_member(data.substr(cut), rng);
}

void save_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// ------------------------------------------------------------------ expectations

template <class W>
struct Expected {
  using Dist = test_support::RefDistance<W>;
  ReferenceGraph<W> ref;
  std::vector<vertex_id> sources;
  std::vector<std::vector<Dist>> dist;  // per source
  bool overflows = false;               // a reachable vertex's float sum is infinite

  Expected(std::uint32_t n, const std::vector<RefArc<W>>& arcs, std::vector<vertex_id> s)
      : ref(n, arcs), sources(std::move(s)) {
    for (const vertex_id source : sources) {
      dist.push_back(ref.distances(source));
      const std::vector<bool> reach = ref.reachable(source);
      for (std::uint32_t v = 0; v < n; ++v)
        overflows = overflows || (reach[v] && dist.back()[v] == test_support::ref_infinity<W>());
    }
  }
};

// The graph's arcs as a loader should see them: mirrored when the graph is
// undirected or loaded with --undirected, every weight 1 under --weights unit.
template <class Out, class W>
std::vector<RefArc<Out>> reference_arcs(const TestGraph<W>& g, bool mirror, bool unit) {
  std::vector<RefArc<Out>> arcs;
  for (const auto& e : g.edges) {
    const Out w = unit ? Out{1} : static_cast<Out>(e.weight);
    arcs.push_back({e.from, e.to, w});
    if (mirror) arcs.push_back({e.to, e.from, w});
  }
  return arcs;
}

std::vector<vertex_id> pick_sources(Rng& rng, std::uint32_t n) {
  std::vector<vertex_id> s{0};
  for (const vertex_id v : {n - 1, static_cast<vertex_id>(below(rng, n))})
    if (std::find(s.begin(), s.end(), v) == s.end()) s.push_back(v);
  return s;
}

// ------------------------------------------------------------------ checks

// What the solvers did across a test, so that it can insist the interesting
// paths ran (a contraction that removed vertices, queries from inside a piece).
struct Coverage {
  std::uint64_t loads = 0, from_cache = 0, solves = 0;
  std::uint64_t contracted_vertices = 0, piece_sources = 0, unfit_sources = 0;
  std::uint64_t refused = 0;  // caches refused by read_cache
  std::uint64_t distinct = 0;  // loaded CSRs that got every solver
};

constexpr int kMaxReports = 12;  // failures reported in full; the rest are counted

void print_coverage(const char* test, int graphs, const Coverage& c) {
  std::printf("%s: %d graphs, %llu loads (%llu from the cache, %llu caches refused), %llu distinct CSRs through every "
              "solver, %llu solves checked; contraction removed %llu vertices, %llu queries from inside a piece, "
              "%llu too far for an entry arc\n",
              test, graphs, static_cast<unsigned long long>(c.loads), static_cast<unsigned long long>(c.from_cache),
              static_cast<unsigned long long>(c.refused), static_cast<unsigned long long>(c.distinct),
              static_cast<unsigned long long>(c.solves), static_cast<unsigned long long>(c.contracted_vertices),
              static_cast<unsigned long long>(c.piece_sources), static_cast<unsigned long long>(c.unfit_sources));
}

class Checker {
 public:
  Checker(Coverage& coverage, int& reports) : cov_(coverage), reports_(reports) {}

  template <class D>
  void distances(const std::string& what, const char* solver, vertex_id source, const D* got,
                 const std::vector<D>& want) {
    ++cov_.solves;
    std::size_t wrong = 0, first = 0;
    for (std::size_t v = 0; v < want.size(); ++v)
      if (!(got[v] == want[v]) && wrong++ == 0) first = v;
    if (wrong == 0) return;
    if (reports_++ < kMaxReports)
      ADD_FAILURE() << what << ": " << solver << " from source " << source << ": " << wrong << " of " << want.size()
                    << " distances wrong; vertex " << first << " got " << show(got[first]) << ", expected "
                    << show(want[first]);
  }

  // pred must form a tree of tight arcs rooted at the source, kNoVertex
  // exactly at the source and the unreachable vertices.
  template <class W>
  void tree(const std::string& what, const char* solver, vertex_id source, const std::vector<vertex_id>& pred,
            const ReferenceGraph<W>& ref, const std::vector<test_support::RefDistance<W>>& dist) {
    const std::uint32_t n = ref.num_vertices();
    std::string problem;
    std::vector<char> state(n, 0);  // 0 unknown, 1 on the current walk, 2 leads to the source
    state[source] = 2;
    if (pred.size() != n) problem = "wrong size";
    for (vertex_id v = 0; v < n && problem.empty(); ++v) {
      if (dist[v] == test_support::ref_infinity<W>() || v == source) {
        if (pred[v] != kNoVertex) problem = "vertex " + std::to_string(v) + " has a predecessor";
        continue;
      }
      std::vector<vertex_id> walk;
      for (vertex_id x = v; state[x] != 2;) {
        if (state[x] == 1) {
          problem = "cycle through vertex " + std::to_string(x);
          break;
        }
        if (!ref.tight(pred[x], x, dist)) {
          problem = "vertex " + std::to_string(x) + "'s predecessor " + std::to_string(pred[x]) + " is not tight";
          break;
        }
        state[x] = 1;
        walk.push_back(x);
        x = pred[x];
      }
      for (const vertex_id x : walk) state[x] = 2;
    }
    if (!problem.empty() && reports_++ < kMaxReports)
      ADD_FAILURE() << what << ": " << solver << " from source " << source << ": predecessors: " << problem;
  }

  void fail(const std::string& message) {
    if (reports_++ < kMaxReports) ADD_FAILURE() << message;
  }

 private:
  template <class D>
  static std::string show(D d) {
    if constexpr (std::is_same_v<D, float>) {
      if (std::isinf(d)) return "infinity";
    } else if (d == std::numeric_limits<D>::max()) {
      return "infinity";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, std::is_same_v<D, float> ? "%.9g" : "%.0f", static_cast<double>(d));
    return buf;
  }

  Coverage& cov_;
  int& reports_;
};

template <class W>
double smallest_positive_weight(const Csr<W>& g) {
  double best = 0;
  for (const W w : g.weights)
    if (w > 0 && (best == 0 || w < best)) best = static_cast<double>(w);
  return best > 0 ? best : 1.0;
}

// The OpenMP team size for code that takes no thread count (the hierarchy
// builder, the cache reader), for one scope.
class OmpThreads {
 public:
  explicit OmpThreads(int n) : old_(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~OmpThreads() { omp_set_num_threads(old_); }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;

 private:
  int old_;
};

// Every CPU solver of the library on g, from every expected source.
// Everything runs on one thread but one load in kParallelEvery, which runs
// delta-stepping, the batch Dijkstra and the hierarchy builder on two
// threads (and now and then delta-stepping on three): ctest runs this test
// beside others on a two-core machine, where a team whose mate is preempted
// waits at every barrier, and a solve of 300 vertices that takes
// microseconds alone took milliseconds (the whole test 20 times longer
// under ctest -j2 when every solve used two threads).
constexpr std::uint64_t kParallelEvery = 8;

template <class W>
void check_solvers(const Csr<W>& g, const Expected<W>& e, const std::string& what, std::uint64_t variety,
                   Checker& check, Coverage& cov) {
  using Dist = distance_t<W>;
  static_assert(std::is_same_v<Dist, test_support::RefDistance<W>>, "the reference uses the library's distance types");
  const std::uint32_t n = e.ref.num_vertices();
  if (g.num_vertices != n) {
    check.fail(what + ": " + std::to_string(g.num_vertices) + " vertices loaded, expected " + std::to_string(n));
    return;
  }
  for (std::size_t i = 0; i < e.sources.size(); ++i) {
    const vertex_id s = e.sources[i];
    std::vector<vertex_id> pred;
    check.distances(what, "dijkstra", s, dijkstra(g, s, &pred).data(), e.dist[i]);
    check.tree(what, "dijkstra", s, pred, e.ref, e.dist[i]);
  }
  const bool parallel = variety % kParallelEvery == 0;
  const int two = parallel ? 2 : 1;
  const auto batch = dijkstra_batch(g, e.sources, two);
  for (std::size_t i = 0; i < e.sources.size(); ++i)
    check.distances(what, "dijkstra_batch", e.sources[i], batch[i].data(), e.dist[i]);

  // Deltas from one bucket per arc weight (the smallest positive weight)
  // to one bucket for everything, and the two automatic rules.
  double heaviest = 1;
  for (const W w : g.weights) heaviest = std::max(heaviest, static_cast<double>(w));
  const double deltas[] = {auto_delta_cpu(g), auto_delta(g), smallest_positive_weight(g), heaviest * (n + 1.0)};
  for (std::size_t i = 0; i < e.sources.size(); ++i) {
    const vertex_id s = e.sources[i];
    for (std::size_t d = 0; d < std::size(deltas); ++d) {
      const int threads = i == 0 && d % 2 == 0 ? two : 1;
      const std::string solver =
          "delta_stepping delta " + std::to_string(deltas[d]) + " threads " + std::to_string(threads);
      check.distances(what, solver.c_str(), s, delta_stepping(g, s, deltas[d], threads).data(), e.dist[i]);
    }
  }
  const vertex_id s0 = e.sources[0];
  check.distances(what, "delta_stepping_new_array", s0, delta_stepping_new_array(g, s0, auto_delta_cpu(g), 1).get(),
                  e.dist[0]);
  if (variety % (3 * kParallelEvery) == 0)
    check.distances(what, "delta_stepping threads 3", s0, delta_stepping(g, s0, auto_delta_cpu(g), 3).data(),
                    e.dist[0]);

  if constexpr (std::is_same_v<W, std::uint32_t>) {
    // The chain contraction's query, as `sssp --contract on` and
    // `--strategy phast-cpu` run it: a piece search, the core solved from
    // core_source() (Dijkstra, delta-stepping) or from core_seeds() (PHAST
    // over a hierarchy of the core), then the read-off.
    const OmpThreads team(two);
    const ChainContraction c = contract_chains(g);
    cov.contracted_vertices += n - c.core_vertices();
    const Hierarchy core_hierarchy = build_hierarchy(c.core);
    ContractionQuery q(c, g);
    std::vector<Dist> core_dist(c.core.num_vertices), dist(n);
    std::vector<vertex_id> pred(n);
    for (std::size_t i = 0; i < e.sources.size(); ++i) {
      const vertex_id s = e.sources[i];
      const int threads = i == 0 ? two : 1;
      q.start(s);
      if (!q.fits()) {  // the caller solves uncontracted: nothing to check
        ++cov.unfit_sources;
        continue;
      }
      cov.piece_sources += c.core_of[s] == kNoVertex;
      IntCsr core = c.core;
      q.apply_entry(core);
      std::vector<vertex_id> core_pred;
      const std::vector<Dist> by_dijkstra = dijkstra(core, q.core_source(), &core_pred);
      q.expand(by_dijkstra.data(), core_pred.data(), dist.data(), pred.data(), threads);
      check.distances(what, "contraction + dijkstra", s, dist.data(), e.dist[i]);
      check.tree(what, "contraction + dijkstra", s, pred, e.ref, e.dist[i]);
      q.expand(by_dijkstra.data(), nullptr, dist.data(), nullptr, threads);
      check.distances(what, "contraction + dijkstra, distances only", s, dist.data(), e.dist[i]);
      const std::vector<Dist> by_delta = delta_stepping(core, q.core_source(), auto_delta_cpu(core), threads);
      q.expand(by_delta.data(), nullptr, dist.data(), nullptr, 1);
      check.distances(what, "contraction + delta_stepping", s, dist.data(), e.dist[i]);
      phast(core_hierarchy, core_seeds(c, q), core_dist.data());
      q.expand(core_dist.data(), nullptr, dist.data(), nullptr, 1);
      check.distances(what, "contraction + phast (phast-cpu)", s, dist.data(), e.dist[i]);
      predecessors_from_distances(g, s, dist.data(), pred.data(), 1);
      check.tree(what, "phast-cpu predecessors_from_distances", s, pred, e.ref, e.dist[i]);
    }
    // PHAST over a hierarchy of the whole graph.
    const Hierarchy h = build_hierarchy(g);
    for (std::size_t i = 0; i < e.sources.size(); ++i) {
      phast(h, {{e.sources[i], 0}}, dist.data());
      check.distances(what, "phast (whole graph)", e.sources[i], dist.data(), e.dist[i]);
    }
  }
}

template <class W>
bool same_csr(const Csr<W>& a, const Csr<W>& b) {
  return a.num_vertices == b.num_vertices && a.offsets == b.offsets && a.targets == b.targets && a.weights == b.weights;
}

// Checks a loaded graph: every solver when it is a CSR not seen before for
// these expectations, else only Dijkstra (the solvers already ran on this
// exact input; a load that returns the same CSR as another format needs no
// second run of each solver to be as well covered).
template <class W>
void check_loaded(const AnyCsr& loaded, const Expected<W>& e, const std::string& what, std::uint64_t variety,
                  Checker& check, Coverage& cov, std::vector<Csr<W>>* seen = nullptr) {
  if (!std::holds_alternative<Csr<W>>(loaded)) {
    check.fail(what + ": loaded with " + (has_float_weights(loaded) ? "float" : "integer") + " weights");
    return;
  }
  const Csr<W>& g = std::get<Csr<W>>(loaded);
  if (seen && std::any_of(seen->begin(), seen->end(), [&](const Csr<W>& s) { return same_csr(s, g); })) {
    if (g.num_vertices != e.ref.num_vertices()) return check.fail(what + ": vertex count");
    for (std::size_t i = 0; i < e.sources.size(); ++i)
      check.distances(what, "dijkstra", e.sources[i], dijkstra(g, e.sources[i]).data(), e.dist[i]);
    return;
  }
  ++cov.distinct;
  check_solvers(g, e, what, variety, check, cov);
  if (seen) seen->push_back(g);
}

// ------------------------------------------------------------------ the oracle over text files

class DifferentialOracle : public test_support::ScratchDirTest {
 protected:
  DifferentialOracle() : ScratchDirTest("differential_oracle") {}

  // Loads `path` twice through the binary cache (the first load writes it,
  // the second must read it) and checks both (check_loaded; `seen`: the
  // CSRs already checked against e).
  template <class W>
  void load_and_check(const std::filesystem::path& path, LoadOptions options, const Expected<W>& e,
                      const std::string& what, std::vector<Csr<W>>& seen) {
    Checker check(cov_, reports_);
    options.use_cache = true;
    for (int pass = 0; pass < 2; ++pass) {
      const std::string label = what + ", " + path.filename().string() + (options.undirected ? " --undirected" : "") +
                                (options.weights.kind == WeightRule::Kind::Unit ? " --weights unit" : "") +
                                (pass ? ", from the cache" : "");
      LoadReport report;
      AnyCsr loaded;
      try {
        loaded = load_graph(path.string(), options, &report);
      } catch (const InputError& err) {
        check.fail(label + ": refused: " + err.what());
        return;
      }
      ++cov_.loads;
      cov_.from_cache += report.from_cache;
      if (report.from_cache != (pass == 1) || (pass == 0 && !report.cache_written))
        check.fail(label + ": from_cache " + std::to_string(report.from_cache) + ", cache_written " +
                   std::to_string(report.cache_written));
      check_loaded(loaded, e, label, cov_.loads, check, cov_, &seen);
    }
  }

  template <class W>
  void run_graph(Rng& rng, int index) {
    const TestGraph<W> g = make_graph<W>(rng, index);
    const std::vector<vertex_id> sources = pick_sources(rng, g.n);
    const Expected<W> as_is(g.n, reference_arcs<W>(g, g.undirected, false), sources);
    ASSERT_FALSE(as_is.overflows) << g.what << ": the generator made a float sum overflow";
    const std::filesystem::path dir = dir_ / ("g" + std::to_string(index));
    std::filesystem::create_directories(dir);
    LoadOptions options = test_support::quiet_load(index % kParallelEvery == 0 ? 2 : 1);

    std::vector<std::pair<std::string, std::string>> files;  // name, contents
    const bool is_int = std::is_same_v<W, std::uint32_t>;
    files.push_back({"general.mtx", write_text(g, Text::MtxGeneral, g.undirected, rng)});
    if (g.undirected) files.push_back({"symmetric.mtx", write_text(g, Text::MtxSymmetric, false, rng)});
    if (is_int) files.push_back({"graph.gr", write_text(g, Text::Dimacs, g.undirected, rng)});
    files.push_back({"graph.el", write_text(g, Text::EdgeList, g.undirected, rng)});
    const auto zipped = files[below(rng, files.size())];
    files.push_back({zipped.first + ".gz", gzip(zipped.second, rng)});
    std::vector<Csr<W>> seen;
    for (const auto& [name, bytes] : files) {
      save_file(dir / name, bytes);
      load_and_check(dir / name, options, as_is, g.what, seen);
    }

    // The same graph stored once per edge (or, when directed, made
    // undirected) by --undirected, and with every weight replaced by 1.
    const Text once = one_in(rng, 2) ? Text::MtxGeneral : is_int && one_in(rng, 2) ? Text::Dimacs : Text::EdgeList;
    const std::filesystem::path single = dir / (std::string("once") + extension(once));
    save_file(single, write_text(g, once, false, rng));
    LoadOptions undirected = options;
    undirected.undirected = true;
    if (g.undirected) {
      load_and_check(single, undirected, as_is, g.what, seen);
    } else {
      std::vector<Csr<W>> seen_mirrored;
      load_and_check(single, undirected, Expected<W>(g.n, reference_arcs<W>(g, true, false), sources), g.what,
                     seen_mirrored);
    }
    LoadOptions unit = options;
    unit.weights = WeightRule::parse("unit");
    std::vector<IntCsr> seen_unit;
    load_and_check(dir / files.front().first, unit,
                   Expected<std::uint32_t>(g.n, reference_arcs<std::uint32_t>(g, g.undirected, true), sources),
                   g.what, seen_unit);
    std::filesystem::remove_all(dir);
  }

  Coverage cov_;
  int reports_ = 0;
};

TEST_F(DifferentialOracle, IntegerGraphsEveryFormatEveryStrategy) {
  const OmpThreads one(1);  // for the library's code without a thread count (check_solvers says why)
  Rng rng(0x0dd1ffe7e17a1u);
  constexpr int kGraphs = 160;
  for (int i = 0; i < kGraphs && reports_ < kMaxReports; ++i) run_graph<std::uint32_t>(rng, i);
  EXPECT_EQ(reports_, 0) << reports_ << " failures in all (the first " << kMaxReports << " reported)";
  // Every load was checked, half of them from the cache, and the
  // contraction did real work, from sources inside its pieces too.
  EXPECT_GT(cov_.loads, 10u * kGraphs);
  EXPECT_EQ(2 * cov_.from_cache, cov_.loads);
  EXPECT_GT(cov_.contracted_vertices, 50u * kGraphs);
  EXPECT_GT(cov_.piece_sources, 2u * kGraphs);
  print_coverage("integer graphs", kGraphs, cov_);
}

TEST_F(DifferentialOracle, FloatGraphsEveryFormatEveryStrategy) {
  const OmpThreads one(1);
  Rng rng(0xf10a7u);
  constexpr int kGraphs = 160;
  for (int i = 0; i < kGraphs && reports_ < kMaxReports; ++i) run_graph<float>(rng, i);
  EXPECT_EQ(reports_, 0) << reports_ << " failures in all (the first " << kMaxReports << " reported)";
  EXPECT_GT(cov_.loads, 8u * kGraphs);
  EXPECT_EQ(2 * cov_.from_cache, cov_.loads);
  print_coverage("float graphs", kGraphs, cov_);
}

// ------------------------------------------------------------------ CSRs written straight to the cache

// A CSR of the arcs in the order generated: rows unsorted, duplicates and
// self-loops kept (what a buggy or foreign writer could produce), or, when
// clean, rows sorted by target, the lightest of each duplicate kept and no
// self-loops (what build_csr promises). Built here, not by build_csr.
template <class W>
Csr<W> own_csr(std::uint32_t n, const std::vector<RefArc<W>>& arcs, bool clean) {
  std::vector<std::vector<std::pair<vertex_id, W>>> rows(n);
  for (const auto& a : arcs)
    if (!clean || a.from != a.to) rows[a.from].push_back({a.to, a.weight});
  Csr<W> g;
  g.num_vertices = n;
  for (auto& row : rows) {
    if (clean) {
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
                row.end());
    }
    for (const auto& [v, w] : row) {
      g.targets.push_back(v);
      g.weights.push_back(w);
    }
    g.offsets.push_back(g.targets.size());
  }
  return g;
}

// The readers' bound (fit_float_range) over a CSR's arcs, with a factor 2
// to spare; always true for integer weights.
template <class W>
bool within_float_bound(const Csr<W>& g) {
  if (std::is_same_v<W, std::uint32_t> || g.num_vertices < 2) return true;
  double sum = 0, heaviest = 0;
  for (const W w : g.weights) {
    sum += static_cast<double>(w);
    heaviest = std::max(heaviest, static_cast<double>(w));
  }
  return heaviest + 3 * std::min(sum, (g.num_vertices - 2.0) * heaviest) <= 0.5 * FLT_MAX;
}

template <class W>
bool has_messy_rows(const Csr<W>& g) {
  for (vertex_id v = 0; v < g.num_vertices; ++v)
    for (edge_offset k = g.offsets[v]; k < g.offsets[v + 1]; ++k)
      if (g.targets[k] == v || (k > g.offsets[v] && g.targets[k - 1] >= g.targets[k])) return true;
  return false;
}

class DifferentialOracleCache : public test_support::ScratchDirTest {
 protected:
  DifferentialOracleCache() : ScratchDirTest("differential_oracle_cache") {}

  // A clean CSR must be read back and solved right, unless its float
  // weights fail the readers' path-length bound (fit_float_range), which
  // the cache may apply too; any other must be refused (InputError
  // CorruptCache) or solved right. A float graph whose shortest path
  // lengths pass FLT_MAX has no right answer: it must be refused.
  template <class W>
  void write_and_check(const Csr<W>& csr, const Expected<W>& e, bool clean, const std::string& what, int index) {
    Checker check(cov_, reports_);
    const std::string path = (dir_ / ("g" + std::to_string(index) + (clean ? ".clean" : ".raw") + ".bin")).string();
    io::CacheInfo info;
    info.rule_key = "oracle";
    io::write_cache(path, AnyCsr(csr), info);
    const std::string label = what + (clean ? ", clean CSR" : ", CSR as generated") + " in " + path;
    AnyCsr loaded;
    try {
      loaded = io::read_cache(path);
    } catch (const InputError& err) {
      ++cov_.refused;
      if (clean && within_float_bound(csr)) check.fail(label + ": a well-formed cache was refused: " + err.what());
      if (err.kind() != InputErrorKind::CorruptCache)
        check.fail(label + ": refused with " + to_string(err.kind()) + ", not CorruptCache: " + err.what());
      std::filesystem::remove(path);
      return;
    }
    std::filesystem::remove(path);
    ++cov_.loads;
    if (e.overflows) {
      check.fail(label + ": accepted, but a reachable vertex's float distance overflows to infinity");
      return;
    }
    // A solver may crash on such a graph: name it first, since a crash
    // leaves no other trace of which input it was.
    if (std::visit([](const auto& c) { return has_messy_rows(c); }, loaded))
      std::fprintf(stderr, "%s: accepted with unsorted rows, duplicates or self-loops; solving it\n", label.c_str());
    check_loaded(loaded, e, label, index, check, cov_);
  }

  template <class W>
  void run_graph(Rng& rng, int index) {
    // Float graphs keep weights up to FLT_MAX half of the time: sums that
    // overflow, which the readers refuse and the cache must refuse too.
    const TestGraph<W> g = make_graph<W>(rng, index, /*fit_floats=*/one_in(rng, 2));
    const std::vector<RefArc<W>> arcs = reference_arcs<W>(g, g.undirected, false);
    const Expected<W> e(g.n, arcs, pick_sources(rng, g.n));
    write_and_check(own_csr(g.n, arcs, true), e, true, g.what, index);
    const Csr<W> raw = own_csr(g.n, arcs, false);
    messy_ += has_messy_rows(raw);
    write_and_check(raw, e, false, g.what, index);
  }

  Coverage cov_;
  int reports_ = 0;
  int messy_ = 0;
};

TEST_F(DifferentialOracleCache, CsrsOfAnyShapeAreRefusedOrSolvedRight) {
  const OmpThreads one(1);
  Rng rng(0xcac4e0u);
  constexpr int kGraphs = 120;
  for (int i = 0; i < kGraphs && reports_ < kMaxReports; ++i) {
    if (i % 2)
      run_graph<float>(rng, i);
    else
      run_graph<std::uint32_t>(rng, i);
  }
  EXPECT_EQ(reports_, 0) << reports_ << " failures in all (the first " << kMaxReports << " reported)";
  EXPECT_GT(messy_, kGraphs / 2);  // most CSRs as generated break the row invariants
  print_coverage("CSRs written to the cache", kGraphs, cov_);
}

// ------------------------------------------------------------------ weights beyond range, however spelled

// A weight beyond float's range is refused as Overflow whether it is
// written with an exponent or as plain digits (a "1" and 309 zeros is out
// of double's range too, and was once read as 0); one below float's
// smallest subnormal reads as 0.
TEST_F(DifferentialOracle, RealWeightsBeyondRangeAreRefusedHoweverSpelled) {
  const std::string huge[] = {"1" + std::string(309, '0'),        "1" + std::string(39, '0'),
                              "1" + std::string(400, '0') + ".5", "3.5e38",
                              "1e39",                             "1e309",
                              "0.001e312",                        "+" + std::string(39, '9'),
                              "0000" + std::string(50, '7')};
  int files = 0;
  for (const std::string& w : huge) {
    for (const bool mtx : {true, false}) {
      // The huge weight is on the second entry line (line 4 of the .mtx).
      const std::string text = mtx ? "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1.5\n2 1 " + w + "\n"
                                   : "0 1 1.5\n1 0 " + w + "\n";
      const std::string path = write_file("huge" + std::to_string(files++) + (mtx ? ".mtx" : ".el"), text);
      test_support::expect_load_error(path, test_support::quiet_load(1), InputErrorKind::Overflow, mtx ? 4 : 2,
                                      "weight " + w.substr(0, 12) + "... (" + std::to_string(w.size()) +
                                          " characters)");
    }
  }
  const std::string tiny[] = {"1e-50", "0." + std::string(60, '0') + "1", "1e-400", "0." + std::string(400, '0') + "9"};
  for (const std::string& w : tiny) {
    const std::string path = write_file("tiny.el", "0 1 1.5\n1 0 " + w + "\n");
    const AnyCsr g = load_graph(path, test_support::quiet_load(1));
    ASSERT_TRUE(has_float_weights(g)) << w;
    const FloatCsr& f = std::get<FloatCsr>(g);
    ASSERT_EQ(f.num_arcs(), 2u) << w;
    EXPECT_EQ(f.weights[1], 0.0f) << "weight " << w;
  }
}

}  // namespace
