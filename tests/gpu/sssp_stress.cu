// sssp_stress: randomized stress of the GPU SSSP solver against the CPU
// Dijkstra. Each graph comes from one 64-bit seed (derived from --seed and the
// graph's index), which fixes everything about it: shape, size, weights,
// sources, delta and bucket count. A failing graph is therefore replayed
// alone with --only-seed SEED.
//
// Every graph is solved by every strategy, under every explicit load balance
// (three-stage, binned, merge-path) with the single-block loop on and off,
// and, for a random subset of those configurations, also with predecessors
// (checked to form a shortest-path tree); integer-weighted graphs also
// through a chain contraction (ContractedGpuSolver) and, where the core is
// small and sparse, PHAST over its hierarchy. Distances must equal Dijkstra's
// exactly for integer weights and within the existing tests' tolerance for
// float weights.
//
// A plain executable rather than a GoogleTest suite, so that it works as a
// command (scripts/stress.sh) with its own options and exit status:
//   0  every graph passed       1  some graph failed
//   2  bad arguments, or no GPU (with --ctest, no GPU exits 0 after printing
//      "no GPU: skipped", which CTest's SKIP_REGULAR_EXPRESSION counts as a skip)
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "graph/build_csr.hpp"
#include "graph/contraction.hpp"
#include "graph/hierarchy.hpp"
#include "graph/csr.hpp"
#include "graph/generators.hpp"
#include "graph/reference.hpp"
#include "graph/types.hpp"
#include "graph/verify.hpp"
#include "graph/weights.hpp"
#include "sssp/contracted_solver.hpp"
#include "sssp/hierarchy_solver.hpp"
#include "sssp/solver.hpp"
#include "sssp/tree_check.hpp"

namespace {

using graph::vertex_id;

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;  // also "no GPU" outside --ctest

// ---- command line -----------------------------------------------------------

struct Options {
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::uint32_t graphs = 100;
  std::uint32_t max_vertices = 20000;
  std::optional<std::uint64_t> only_seed;
  bool ctest = false;    // running under CTest: a missing GPU is a skip, not an error
  bool verbose = false;  // one line per graph, passing ones included
};

const char* const kUsage =
    "usage: sssp_stress [--graphs N] [--seed S] [--max-vertices V] [--only-seed S] [--verbose] [--ctest]\n"
    "  --graphs N        random graphs to solve (default 100)\n"
    "  --seed S          base seed (default: a fresh random one, printed)\n"
    "  --max-vertices V  largest graph, in vertices (default 20000)\n"
    "  --only-seed S     replay the one graph whose seed a mismatch line printed\n"
    "                    (with the --max-vertices of the run that printed it)\n"
    "  --verbose         print every graph, not only the failing ones\n"
    "  --ctest           without a GPU, print \"no GPU: skipped\" and exit 0 (default: exit 2)\n";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Decimal or 0x-hex, the whole token, no sign.
std::uint64_t parse_u64(const std::string& flag, const char* text) {
  const std::string s = text;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(s.c_str(), &end, 0);
  if (s.empty() || s[0] == '-' || s[0] == '+' || *end != '\0' || errno == ERANGE)
    throw UsageError(flag + " needs a non-negative integer, got '" + s + "'");
  return value;
}

std::uint32_t parse_count(const std::string& flag, const char* text, std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t value = parse_u64(flag, text);
  if (value < lo || value > hi)
    throw UsageError(flag + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + text);
  return static_cast<std::uint32_t>(value);
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) throw UsageError(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--seed") {
      o.seed = parse_u64(arg, value());
      o.seed_given = true;
    } else if (arg == "--graphs") {
      o.graphs = parse_count(arg, value(), 1, 100000000);
    } else if (arg == "--max-vertices") {
      // The solver takes graphs below 2^30 vertices; a stress graph should be far smaller.
      o.max_vertices = parse_count(arg, value(), 1, 1u << 24);
    } else if (arg == "--only-seed") {
      o.only_seed = parse_u64(arg, value());
    } else if (arg == "--ctest") {
      o.ctest = true;
    } else if (arg == "--verbose") {
      o.verbose = true;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else {
      throw UsageError("unknown argument '" + arg + "'");
    }
  }
  return o;
}

// ---- random numbers -----------------------------------------------------------

// SplitMix64 stream with our own range reduction: std:: distributions differ
// between standard libraries, and a seed must replay the same graph anywhere.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    return graph::splitmix64(state_);
  }
  // Uniform in [0, n); n > 0. The modulo bias is irrelevant for a stress test.
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return lo + below(hi - lo + 1); }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  bool chance(double p) { return unit() < p; }

 private:
  std::uint64_t state_;
};

// The seed of graph `index` of a run: independent streams for neighbouring
// indices and neighbouring base seeds.
std::uint64_t graph_seed(std::uint64_t base, std::uint64_t index) {
  return graph::splitmix64(graph::splitmix64(base) ^ (index * 0xD1B54A32D192ED03ull));
}

// ---- topologies ---------------------------------------------------------------

// Arcs without weights; weights are added afterwards from the weight profile.
struct Topology {
  vertex_id n = 0;
  std::vector<std::pair<vertex_id, vertex_id>> arcs;
  std::string name;  // "rmat:12:8", "grid:30x40", ...: printed with every failure
};

enum class Shape { Rmat, Grid, Chain, Uniform, Star, Tree, Parts, Isolated };
constexpr Shape kShapes[] = {Shape::Rmat, Shape::Grid, Shape::Chain, Shape::Uniform,
                             Shape::Star, Shape::Tree, Shape::Parts, Shape::Isolated};

const char* to_string(Shape s) {
  switch (s) {
    case Shape::Rmat: return "rmat";
    case Shape::Grid: return "grid";
    case Shape::Chain: return "chain";
    case Shape::Uniform: return "uniform";
    case Shape::Star: return "star";
    case Shape::Tree: return "tree";
    case Shape::Parts: return "parts";
    case Shape::Isolated: return "isolated";
  }
  return "?";
}

void add_edge(Topology& t, vertex_id u, vertex_id v, bool both_directions) {
  t.arcs.emplace_back(u, v);
  if (both_directions) t.arcs.emplace_back(v, u);
}

// The arcs of a generated CSR (the generators already mirror their edges).
Topology from_generator(const graph::GeneratorSpec& spec, std::uint64_t seed) {
  graph::WeightRule unit;
  unit.kind = graph::WeightRule::Kind::Unit;
  const graph::IntCsr g = graph::generate(spec, unit, seed);
  Topology t;
  t.n = g.num_vertices;
  t.name = spec.describe();
  t.arcs.reserve(g.num_arcs());
  for (vertex_id u = 0; u < g.num_vertices; ++u)
    for (auto e = g.offsets[u]; e < g.offsets[u + 1]; ++e) t.arcs.emplace_back(u, g.targets[e]);
  return t;
}

// Power-law degrees: hubs with thousands of arcs exercise the block stage of
// the relax and the binned relax's heavy bins.
Topology make_rmat(vertex_id target, Rng& rng) {
  graph::GeneratorSpec spec;
  spec.kind = graph::GeneratorSpec::Kind::Rmat;
  spec.scale = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::floor(std::log2(target))));
  spec.edge_factor = 1u << rng.below(5);  // 1 .. 16
  if (rng.chance(0.5)) {                   // more skew than Graph500: bigger hubs
    spec.a = 0.70, spec.b = 0.12, spec.c = 0.12, spec.d = 0.06;
  }
  return from_generator(spec, rng.next());
}

// High diameter, many dependent rounds; rows == 1 gives an undirected path.
Topology make_grid(vertex_id target, Rng& rng) {
  graph::GeneratorSpec spec;
  spec.kind = graph::GeneratorSpec::Kind::Grid;
  const auto root = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(target)));
  spec.rows = static_cast<std::uint32_t>(std::min<std::uint64_t>(target, rng.between(1, 2 * root)));
  spec.cols = std::max<std::uint32_t>(1, target / spec.rows);
  return from_generator(spec, rng.next());
}

// A path (directed or not) with a few shortcuts that may or may not pay off:
// one vertex per round, the worst case for round latency.
Topology make_chain(vertex_id n, Rng& rng) {
  Topology t;
  t.n = n;
  const bool undirected = rng.chance(0.5);
  for (vertex_id v = 0; v + 1 < n; ++v) add_edge(t, v, v + 1, undirected);
  const std::uint64_t shortcuts = rng.chance(0.5) ? n / 20 : 0;
  for (std::uint64_t k = 0; k < shortcuts; ++k) {
    const vertex_id u = static_cast<vertex_id>(rng.below(n));
    const vertex_id v = static_cast<vertex_id>(std::min<std::uint64_t>(n - 1, u + rng.between(2, 100)));
    add_edge(t, u, v, undirected);
  }
  t.name = std::string(undirected ? "chain" : "directed-chain") + (shortcuts ? "+shortcuts" : "");
  return t;
}

// Directed uniform random arcs (not mirrored, unlike urand): vertices without
// out-arcs and one-way reachability.
Topology make_uniform(vertex_id n, Rng& rng) {
  Topology t;
  t.n = n;
  const std::uint64_t degree = 1ull << rng.below(4);  // 1 .. 8
  t.arcs.reserve(n * degree);
  for (std::uint64_t k = 0; k < n * degree; ++k)
    t.arcs.emplace_back(static_cast<vertex_id>(rng.below(n)), static_cast<vertex_id>(rng.below(n)));
  t.name = "uniform-directed:deg" + std::to_string(degree);
  return t;
}

// One to three hubs over all or part of the leaves, arcs back or not, and
// some leaf-to-leaf arcs: a frontier of one huge vertex, then many small ones.
Topology make_star(vertex_id n, Rng& rng) {
  Topology t;
  t.n = n;
  // At least one leaf where n >= 2, so a star has arcs.
  const vertex_id hubs = static_cast<vertex_id>(std::min<std::uint64_t>(std::max<vertex_id>(n - 1, 1), rng.between(1, 3)));
  const bool back = rng.chance(0.5);
  const double density = rng.chance(0.5) ? 1.0 : 0.5;
  for (vertex_id h = 0; h < hubs; ++h)
    for (vertex_id v = hubs; v < n; ++v)
      if (rng.chance(density)) add_edge(t, h, v, back);
  const vertex_id leaves = n - hubs;
  for (vertex_id k = 0; leaves > 1 && k < leaves / 4; ++k)
    t.arcs.emplace_back(static_cast<vertex_id>(hubs + rng.below(leaves)), static_cast<vertex_id>(hubs + rng.below(leaves)));
  t.name = "star:" + std::to_string(hubs) + "hubs" + (back ? "+back" : "");
  return t;
}

// Random recursive tree, bushy (parent anywhere before) or deep (parent among
// the last few): exactly one path to every vertex, so ties cannot hide errors.
Topology make_tree(vertex_id n, Rng& rng) {
  Topology t;
  t.n = n;
  const bool deep = rng.chance(0.5);
  const bool undirected = rng.chance(0.5);
  for (vertex_id v = 1; v < n; ++v) {
    const vertex_id parent = deep ? static_cast<vertex_id>(v - 1 - rng.below(std::min<vertex_id>(v, 3)))
                                  : static_cast<vertex_id>(rng.below(v));
    add_edge(t, parent, v, undirected);
  }
  t.name = std::string(deep ? "deep-tree" : "bushy-tree") + (undirected ? "" : "-directed");
  return t;
}

// Several connected pieces (a tree plus random extra edges each) with no arc
// between them: whole pieces stay unreachable.
Topology make_parts(vertex_id n, Rng& rng) {
  Topology t;
  t.n = n;
  const vertex_id parts = static_cast<vertex_id>(std::min<std::uint64_t>(n, rng.between(2, 6)));
  vertex_id first = 0;
  for (vertex_id p = 0; p < parts; ++p) {
    const vertex_id left = n - first, parts_left = parts - p;
    const vertex_id size = p + 1 == parts ? left : static_cast<vertex_id>(rng.between(1, left - (parts_left - 1)));
    for (vertex_id v = 1; v < size; ++v) add_edge(t, first + static_cast<vertex_id>(rng.below(v)), first + v, true);
    for (vertex_id k = 0; size > 1 && k < size; ++k)
      add_edge(t, first + static_cast<vertex_id>(rng.below(size)), first + static_cast<vertex_id>(rng.below(size)), true);
    first += size;
  }
  t.name = "parts:" + std::to_string(parts);
  return t;
}

// An undirected random graph over part of the vertices; the rest have no arc
// at all (the relabelling spreads them among the others).
Topology make_isolated(vertex_id n, Rng& rng) {
  Topology t;
  t.n = n;
  const auto active = static_cast<vertex_id>(std::max(1.0, std::floor(n * (0.5 + 0.4 * rng.unit()))));
  for (std::uint64_t k = 0; active > 1 && k < 2ull * active; ++k)
    add_edge(t, static_cast<vertex_id>(rng.below(active)), static_cast<vertex_id>(rng.below(active)), true);
  t.name = "isolated:" + std::to_string(n - active) + "-of-" + std::to_string(n);
  return t;
}

// A random permutation of the ids, so that structure (a chain, the hubs, the
// isolated vertices) does not follow vertex order.
void relabel(Topology& t, Rng& rng) {
  std::vector<vertex_id> perm(t.n);
  for (vertex_id v = 0; v < t.n; ++v) perm[v] = v;
  for (vertex_id v = t.n; v > 1; --v) std::swap(perm[v - 1], perm[rng.below(v)]);
  for (auto& [u, v] : t.arcs) u = perm[u], v = perm[v];
  t.name += "+relabelled";
}

// Vertex count: log-uniform in 1..max, so small graphs (1, 2, 3 vertices)
// come up as often as large ones.
vertex_id draw_size(std::uint32_t max_vertices, Rng& rng) {
  if (rng.chance(0.08)) return static_cast<vertex_id>(std::min<std::uint64_t>(max_vertices, rng.between(1, 3)));
  const double size = std::exp(rng.unit() * std::log(static_cast<double>(max_vertices) + 1.0));
  return static_cast<vertex_id>(std::clamp<double>(std::floor(size), 1.0, max_vertices));
}

Topology make_topology(Shape shape, vertex_id n, Rng& rng) {
  Topology t;
  switch (shape) {
    case Shape::Rmat:
      if (n >= 2) return make_rmat(n, rng);  // the generator permutes ids already
      t = make_chain(n, rng);                // R-MAT has at least 2 vertices
      break;
    case Shape::Grid: return make_grid(n, rng);
    case Shape::Chain: t = make_chain(n, rng); break;
    case Shape::Uniform: t = make_uniform(n, rng); break;
    case Shape::Star: t = make_star(n, rng); break;
    case Shape::Tree: t = make_tree(n, rng); break;
    case Shape::Parts: t = make_parts(n, rng); break;
    case Shape::Isolated: t = make_isolated(n, rng); relabel(t, rng); return t;
  }
  if (rng.chance(0.5)) relabel(t, rng);
  return t;
}

// ---- weights ------------------------------------------------------------------

enum class WeightProfile {
  Unit,        // 1
  Small,       // 1..10: many ties
  Medium,      // 1..1000
  ZeroFew,     // 0..3: zero-weight arcs, zero-weight cycles (edges both ways)
  ZeroBinary,  // 0..1: half the arcs zero
  AllZero,     // 0: every reachable distance is 0
  Wide,        // 0 or 2^31..2^32-1: (n-1) * max >= 2^32, 64-bit labels
  WideMixed,   // mostly 1..100, a few near 2^32: 64-bit labels, small distances
  FloatUnit,   // float only: [0, 1), an eighth of them 0
};
constexpr WeightProfile kIntProfiles[] = {WeightProfile::Unit,       WeightProfile::Small,   WeightProfile::Medium,
                                          WeightProfile::ZeroFew,    WeightProfile::ZeroBinary, WeightProfile::AllZero,
                                          WeightProfile::Wide,       WeightProfile::WideMixed};
constexpr WeightProfile kFloatProfiles[] = {WeightProfile::FloatUnit, WeightProfile::Medium, WeightProfile::ZeroFew,
                                            WeightProfile::ZeroBinary, WeightProfile::Small, WeightProfile::Wide};

const char* to_string(WeightProfile p) {
  switch (p) {
    case WeightProfile::Unit: return "1";
    case WeightProfile::Small: return "1..10";
    case WeightProfile::Medium: return "1..1000";
    case WeightProfile::ZeroFew: return "0..3";
    case WeightProfile::ZeroBinary: return "0..1";
    case WeightProfile::AllZero: return "0";
    case WeightProfile::Wide: return "0|2^31..2^32-1";
    case WeightProfile::WideMixed: return "1..100|~2^32";
    case WeightProfile::FloatUnit: return "[0,1)";
  }
  return "?";
}

std::uint32_t integer_weight(WeightProfile p, std::uint64_t h) {
  switch (p) {
    case WeightProfile::Unit: return 1;
    case WeightProfile::Small: return static_cast<std::uint32_t>(1 + h % 10);
    case WeightProfile::Medium: return static_cast<std::uint32_t>(1 + h % 1000);
    case WeightProfile::ZeroFew: return static_cast<std::uint32_t>(h % 4);
    case WeightProfile::ZeroBinary: return static_cast<std::uint32_t>(h % 2);
    case WeightProfile::AllZero: return 0;
    case WeightProfile::Wide:
      return h % 4 == 0 ? 0u : static_cast<std::uint32_t>(0x80000000ull + (h >> 2) % 0x80000000ull);
    case WeightProfile::WideMixed:
      return h % 64 == 0 ? static_cast<std::uint32_t>(0xFFFFFFFFull - (h >> 6) % 1000)
                         : static_cast<std::uint32_t>(1 + (h >> 6) % 100);
    case WeightProfile::FloatUnit: break;
  }
  throw std::logic_error("integer_weight: not an integer profile");
}

// Integer profiles become w / 7 as in test_sssp_random_graphs.cu (inexact in
// binary, so differently rounded sums would show).
float float_weight(WeightProfile p, std::uint64_t h) {
  if (p == WeightProfile::FloatUnit) return h % 8 == 0 ? 0.0f : static_cast<float>(h >> 40) * 0x1.0p-24f;
  return static_cast<float>(integer_weight(p, h)) / 7.0f;
}

// The weight of an arc depends only on its unordered end points, so the two
// directions of an edge weigh the same (zero-weight edges are zero cycles).
template <class Weight>
graph::Csr<Weight> add_weights(const Topology& t, WeightProfile profile, std::uint64_t seed) {
  graph::Coo<Weight> coo;
  coo.num_vertices = t.n;
  coo.reserve(t.arcs.size());
  for (const auto& [u, v] : t.arcs) {
    const std::uint64_t key = (std::uint64_t{std::min(u, v)} << 32) | std::max(u, v);
    const std::uint64_t h = graph::splitmix64(seed ^ graph::splitmix64(key));
    if constexpr (std::is_same_v<Weight, float>) {
      coo.add(u, v, float_weight(profile, h));
    } else {
      coo.add(u, v, integer_weight(profile, h));
    }
  }
  return graph::build_csr(std::move(coo), graph::BuildOptions{});
}

// ---- one graph's parameters -----------------------------------------------------

enum class DeltaKind { Tiny, AutoLike, Huge };

const char* to_string(DeltaKind k) {
  switch (k) {
    case DeltaKind::Tiny: return "tiny";
    case DeltaKind::AutoLike: return "auto-like";
    case DeltaKind::Huge: return "huge";
  }
  return "?";
}

// The relax configurations every graph runs under.
struct RelaxConfig {
  sssp::LoadBalance balance;
  bool single_block_loop;
};
constexpr RelaxConfig kConfigs[] = {{sssp::LoadBalance::ThreeStage, true}, {sssp::LoadBalance::Binned, true},
                                    {sssp::LoadBalance::MergePath, true},  {sssp::LoadBalance::ThreeStage, false},
                                    {sssp::LoadBalance::Binned, false},    {sssp::LoadBalance::MergePath, false}};
constexpr std::size_t kNumConfigs = sizeof kConfigs / sizeof kConfigs[0];

// Everything drawn from a graph's seed apart from the graph itself.
struct Plan {
  std::uint64_t seed = 0;
  std::string description;  // "seed=... shape=... n=... m=... weights=... delta=... B=..."
  double delta = 0;
  std::uint32_t buckets = 10;
  std::vector<vertex_id> sources;
  std::uint32_t predecessor_configs = 0;  // bit i: kConfigs[i] also runs with predecessors
  // Regime settings (solver.hpp): the single-block loop's arc limit (0: the
  // default; small values force many hand-overs between the regimes) and the
  // persistent grid on or off.
  std::uint32_t narrow_max_arcs = 0;
  bool persistent_grid = true;
  bool medium_grid = true;  // the one-block-per-SM grid for medium frontiers
  bool block_split = true;  // bucket-multisplit's small full splits inside the single block
  bool cluster_loop = true;  // the cluster regime (off: the medium grid takes its frontiers)
  bool grid_split = true;    // bucket-multisplit's larger full splits in a cooperative grid
  std::uint32_t block_split_max_items = 0;  // small values send small piles to the grid
  sssp::VertexOrdering vertex_ordering = sssp::VertexOrdering::Auto;  // the device copy's numbering
  bool cluster_any_shape = false;  // the cluster loop on small skewed graphs too
  int cluster_local_steps = -1;    // the cluster loop's block-local steps per round (-1: the default)
  // The resident block (near-far without predecessors, where the distances
  // fit shared memory): by its rule, on every graph it fits, or never.
  bool resident_block = true;
  bool resident_any_shape = false;
  int resident_local_steps = -1;   // the resident block's warp-local steps per step (-1: the default)
};

template <class Weight>
double max_weight(const graph::Csr<Weight>& g) {
  double m = 0;
  for (const Weight w : g.weights) m = std::max(m, static_cast<double>(w));
  return m;
}

// tiny: far below auto (up to one bucket per distinct distance; integer
// deltas below 1 also test the solver's rounding up to 1); auto-like: around
// auto_delta; huge: above every distance (one bucket: Bellman-Ford-like).
template <class Weight>
double draw_delta(const graph::Csr<Weight>& g, DeltaKind kind, Rng& rng) {
  constexpr bool is_float = std::is_same_v<Weight, float>;
  const double automatic = graph::auto_delta(g);
  switch (kind) {
    case DeltaKind::Tiny: {
      if (!is_float && rng.chance(0.3)) return rng.chance(0.5) ? 1.0 : 0.25;
      const double d = automatic / std::ldexp(1.0, static_cast<int>(rng.between(3, 12)));
      return is_float ? std::max(d, 1e-6) : d;
    }
    case DeltaKind::AutoLike: return automatic * (0.5 + 1.5 * rng.unit());
    case DeltaKind::Huge: {
      const double bound = std::max(1.0, static_cast<double>(g.num_vertices) * max_weight(g));
      // Float deltas stay finite as floats; integer ones below the solver's cap.
      return std::min(bound * static_cast<double>(rng.between(2, 1000)), is_float ? 1e30 : 4e18);
    }
  }
  return automatic;
}

// The first source has out-arcs where any vertex does (so there is work);
// the second, half the time, is a vertex without out-arcs where one exists.
template <class Weight>
std::vector<vertex_id> draw_sources(const graph::Csr<Weight>& g, Rng& rng) {
  std::vector<vertex_id> with_arcs, sinks;
  for (vertex_id v = 0; v < g.num_vertices; ++v) (g.out_degree(v) > 0 ? with_arcs : sinks).push_back(v);
  std::vector<vertex_id> sources;
  sources.push_back(with_arcs.empty() ? static_cast<vertex_id>(rng.below(g.num_vertices))
                                      : with_arcs[rng.below(with_arcs.size())]);
  const vertex_id second = !sinks.empty() && rng.chance(0.5) ? sinks[rng.below(sinks.size())]
                                                             : static_cast<vertex_id>(rng.below(g.num_vertices));
  if (second != sources[0]) sources.push_back(second);
  return sources;
}

template <class Weight>
Plan make_plan(std::uint64_t seed, Shape shape, const Topology& t, WeightProfile profile, const graph::Csr<Weight>& g,
               Rng& rng) {
  Plan plan;
  plan.seed = seed;
  const auto delta_kind = static_cast<DeltaKind>(rng.below(3));
  plan.delta = draw_delta(g, delta_kind, rng);
  plan.buckets = static_cast<std::uint32_t>(rng.between(2, 64));
  constexpr std::uint32_t kNarrowLimits[] = {0, 0, 1, 7, 64, 700, 8192};
  plan.narrow_max_arcs = kNarrowLimits[rng.between(0, 6)];
  plan.persistent_grid = rng.between(0, 3) != 0;
  plan.medium_grid = rng.between(0, 2) != 0;
  plan.sources = draw_sources(g, rng);
  plan.predecessor_configs = static_cast<std::uint32_t>(rng.below(1u << kNumConfigs));
  plan.block_split = rng.between(0, 3) != 0;  // drawn last: earlier seeds keep the rest of their plan
  plan.cluster_loop = rng.between(0, 2) != 0;
  plan.grid_split = rng.between(0, 3) != 0;
  constexpr std::uint32_t kBlockSplitLimits[] = {0, 0, 1, 64, 2000};
  plan.block_split_max_items = kBlockSplitLimits[rng.between(0, 4)];
  constexpr sssp::VertexOrdering kOrderings[] = {sssp::VertexOrdering::Auto, sssp::VertexOrdering::Input,
                                                 sssp::VertexOrdering::Degree, sssp::VertexOrdering::Rcm};
  plan.vertex_ordering = kOrderings[rng.between(0, 3)];
  plan.cluster_any_shape = rng.chance(0.5);
  plan.cluster_local_steps = static_cast<int>(rng.between(0, 4)) - 1;
  plan.resident_block = rng.between(0, 3) != 0;
  plan.resident_any_shape = rng.chance(0.5);
  plan.resident_local_steps = static_cast<int>(rng.between(0, 4)) - 1;

  const bool wide_labels = !std::is_same_v<Weight, float> &&
                           (g.num_vertices > 0 ? g.num_vertices - 1.0 : 0.0) * max_weight(g) >= 0xFFFFFFFFp0;
  std::ostringstream s;
  s.precision(10);
  s << "seed=" << seed << " shape=" << to_string(shape) << "(" << t.name << ") n=" << g.num_vertices
    << " m=" << g.num_arcs() << " weights=" << (std::is_same_v<Weight, float> ? "float:" : "int:")
    << to_string(profile) << (std::is_same_v<Weight, float> && profile != WeightProfile::FloatUnit ? "/7" : "")
    << (wide_labels ? " (64-bit labels)" : "") << " delta=" << to_string(delta_kind) << ":" << plan.delta
    << " B=" << plan.buckets << " narrow_max_arcs=" << plan.narrow_max_arcs
    << " persistent=" << (plan.persistent_grid ? "on" : "off") << " medium=" << (plan.medium_grid ? "on" : "off")
    << " block_split=" << (plan.block_split ? "on" : "off") << " cluster=" << (plan.cluster_loop ? "on" : "off")
    << " grid_split=" << (plan.grid_split ? "on" : "off") << " block_split_max=" << plan.block_split_max_items
    << " order=" << sssp::to_string(plan.vertex_ordering)
    << " cluster_any_shape=" << (plan.cluster_any_shape ? "on" : "off")
    << " cluster_local_steps=" << plan.cluster_local_steps
    << " resident=" << (!plan.resident_block ? "off" : plan.resident_any_shape ? "any-shape" : "rule")
    << " resident_local_steps=" << plan.resident_local_steps;
  plan.description = s.str();
  return plan;
}

// ---- comparing results ------------------------------------------------------------

template <class Weight>
std::string distance_text(graph::distance_t<Weight> d) {
  if (d == graph::infinite_distance<Weight>()) return "inf";
  std::ostringstream s;
  s.precision(9);
  s << d;
  return s.str();
}

// "" when equal, else the first differing vertex and how many differ.
template <class Weight>
std::string distance_mismatch(const std::vector<graph::distance_t<Weight>>& want,
                              const std::vector<graph::distance_t<Weight>>& got) {
  if (got.size() != want.size())
    return "returned " + std::to_string(got.size()) + " distances for " + std::to_string(want.size()) + " vertices";
  std::size_t first = want.size(), differing = 0;
  for (std::size_t v = 0; v < want.size(); ++v) {
    if (graph::distances_match<Weight>(want[v], got[v])) continue;  // graph/verify.hpp
    if (differing++ == 0) first = v;
  }
  if (differing == 0) return "";
  return "vertex " + std::to_string(first) + " expected " + distance_text<Weight>(want[first]) + " got " +
         distance_text<Weight>(got[first]) + " (" + std::to_string(differing) + " of " + std::to_string(want.size()) +
         " vertices differ)";
}

// ---- running one graph ----------------------------------------------------------

std::string run_label(const Plan& plan, const RelaxConfig& config, bool predecessors, const char* strategy,
                      vertex_id source) {
  std::ostringstream s;
  s << plan.description << " source=" << source << " strategy=" << strategy
    << " balance=" << sssp::to_string(config.balance)
    << " single-block=" << (config.single_block_loop ? "on" : "off") << " pred=" << (predecessors ? "on" : "off");
  return s.str();
}

// The plan's delta, buckets and regimes; the default relax configuration.
sssp::SolverOptions plan_options(const Plan& plan, bool predecessors) {
  sssp::SolverOptions options;
  options.delta = plan.delta;
  options.buckets = plan.buckets;
  options.predecessors = predecessors;
  options.overrides.narrow_max_arcs = plan.narrow_max_arcs;
  options.overrides.persistent_grid = plan.persistent_grid;
  options.overrides.medium_grid = plan.medium_grid;
  options.overrides.block_split = plan.block_split;
  options.overrides.cluster_loop = plan.cluster_loop;
  options.overrides.grid_split = plan.grid_split;
  options.overrides.block_split_max_items = plan.block_split_max_items;
  options.vertex_ordering = plan.vertex_ordering;
  options.overrides.cluster_any_shape = plan.cluster_any_shape;
  options.overrides.cluster_local_steps = plan.cluster_local_steps;
  options.overrides.resident_local_steps = plan.resident_local_steps;
  options.overrides.resident_block = plan.resident_block;
  options.overrides.resident_any_shape = plan.resident_any_shape;
  return options;
}

// What is wrong with one result ("" when nothing): its distances against
// Dijkstra's, and its predecessors (a shortest-path tree when asked for,
// none otherwise).
template <class Weight>
std::string result_problem(const graph::Csr<Weight>& g, vertex_id source,
                           const std::vector<graph::distance_t<Weight>>& reference,
                           const sssp::SolveResult<Weight>& got, bool predecessors) {
  std::string problem = distance_mismatch<Weight>(reference, got.distances);
  if (!problem.empty()) return problem;
  if (predecessors) {
    const auto tree = sssp::check_shortest_path_tree(g, source, got.distances, got.predecessors);
    if (!tree.empty())
      return "predecessor tree: " + tree.front() + " (" + std::to_string(tree.size()) + " problems)";
  } else if (!got.predecessors.empty()) {
    return "predecessors returned though not asked for";
  }
  return "";
}

// Solves the graph from every source with every strategy under one relax
// configuration; prints a MISMATCH line per wrong result and returns how many.
template <class Weight>
int check_config(const graph::Csr<Weight>& g, const Plan& plan, const RelaxConfig& config, bool predecessors,
                 const std::vector<std::vector<graph::distance_t<Weight>>>& reference) {
  sssp::SolverOptions options = plan_options(plan, predecessors);
  options.load_balance = config.balance;
  options.overrides.single_block_loop = config.single_block_loop;

  std::unique_ptr<sssp::GpuSolver<Weight>> solver;
  try {
    solver = std::make_unique<sssp::GpuSolver<Weight>>(g, options);
  } catch (const std::invalid_argument&) {
    // Merge-path refuses graphs whose vertex and arc counts do not share one
    // 64-bit word (solver.hpp); that is a documented limit, not a bug.
    if (config.balance == sssp::LoadBalance::MergePath) return 0;
    throw;
  }

  int failures = 0;
  for (std::size_t i = 0; i < plan.sources.size(); ++i) {
    const vertex_id source = plan.sources[i];
    for (const sssp::Strategy strategy : sssp::all_strategies()) {
      const std::string label = run_label(plan, config, predecessors, sssp::to_string(strategy), source);
      std::string problem;
      try {
        problem = result_problem(g, source, reference[i], solver->solve(source, strategy), predecessors);
      } catch (const std::exception& e) {
        problem = std::string("error: ") + e.what();
      }
      if (!problem.empty()) {
        std::cout << "MISMATCH " << label << ": " << problem << std::endl;
        ++failures;
      }
    }
  }
  return failures;
}

// Integer weights: the same sources through a chain contraction
// (ContractedGpuSolver, the default relax configuration and the plan's
// regimes), with predecessors where the plan gives the first configuration
// them; then PHAST (HierarchyGpuSolver) with and without predecessors.
// Returns the number of wrong results.
constexpr graph::vertex_id kPhastMaxCore = 4000;
std::uint32_t phast_graphs = 0;  // graphs that went through PHAST too, for the summary
int check_contracted(const graph::IntCsr& g, const Plan& plan,
                     const std::vector<std::vector<std::uint64_t>>& reference) {
  const graph::ChainContraction c = graph::contract_chains(g);
  int failures = 0;
  for (const bool predecessors : {false, true}) {
    if (predecessors && !(plan.predecessor_configs & 1u)) continue;
    sssp::ContractedGpuSolver solver(g, c, plan_options(plan, predecessors));
    for (std::size_t i = 0; i < plan.sources.size(); ++i) {
      const vertex_id source = plan.sources[i];
      for (const sssp::Strategy strategy : sssp::all_strategies()) {
        std::string problem;
        try {
          problem = result_problem(g, source, reference[i], solver.solve(source, strategy, plan.delta), predecessors);
        } catch (const std::exception& e) {
          problem = std::string("error: ") + e.what();
        }
        if (!problem.empty()) {
          std::cout << "MISMATCH " << plan.description << " contracted (core " << c.core_vertices() << ") "
                    << sssp::to_string(strategy) << " source=" << source << " pred=" << (predecessors ? "on" : "off")
                    << ": " << problem << std::endl;
          ++failures;
        }
      }
    }
  }
  // The plan's sources batched through the contraction, both batched strategies.
  {
    sssp::ContractedGpuSolver solver(g, c, plan_options(plan, false));
    for (const sssp::Strategy strategy : {sssp::Strategy::NearFar, sssp::Strategy::BellmanFord}) {
      try {
        const sssp::BatchSolveResult<std::uint32_t> got = solver.solve_batch(plan.sources, strategy, plan.delta);
        for (std::size_t i = 0; i < plan.sources.size(); ++i) {
          const std::string problem = result_problem(g, plan.sources[i], reference[i], got.per_source[i], false);
          if (problem.empty()) continue;
          std::cout << "MISMATCH " << plan.description << " contracted batch (core " << c.core_vertices() << ") "
                    << sssp::to_string(strategy) << " source=" << plan.sources[i] << ": " << problem << std::endl;
          ++failures;
        }
      } catch (const std::exception& e) {
        std::cout << "MISMATCH " << plan.description << " contracted batch " << sssp::to_string(strategy)
                  << ": error: " << e.what() << std::endl;
        ++failures;
      }
    }
  }
  // PHAST over a hierarchy of the core, where building one is quick (small,
  // sparse cores: a hierarchy of a skewed graph's hubs takes far longer).
  if (c.core_vertices() <= kPhastMaxCore && c.core_arcs() <= 4ull * c.core_vertices()) {
    const graph::Hierarchy h = graph::build_hierarchy(c.core);
    ++phast_graphs;
    for (const bool predecessors : {false, true}) {
      sssp::HierarchySolverOptions options;
      options.predecessors = predecessors;
      options.shared_memory_sweep = plan.seed % 2 == 0;
      sssp::HierarchyGpuSolver solver(g, c, h, options);
      for (std::size_t i = 0; i < plan.sources.size(); ++i) {
        std::string problem;
        try {
          problem = result_problem(g, plan.sources[i], reference[i], solver.solve(plan.sources[i]), predecessors);
        } catch (const std::exception& e) {
          problem = std::string("error: ") + e.what();
        }
        if (!problem.empty()) {
          std::cout << "MISMATCH " << plan.description << " phast (core " << c.core_vertices() << ") source="
                    << plan.sources[i] << " pred=" << (predecessors ? "on" : "off") << ": " << problem << std::endl;
          ++failures;
        }
      }
    }
  }
  return failures;
}

// Every relax configuration, without predecessors and, where the plan says,
// with them; integer graphs also through a chain contraction. Returns the
// number of wrong results.
template <class Weight>
int check_graph(const graph::Csr<Weight>& g, const Plan& plan) {
  std::vector<std::vector<graph::distance_t<Weight>>> reference;
  for (const vertex_id s : plan.sources) reference.push_back(graph::dijkstra(g, s));
  int failures = 0;
  for (std::size_t c = 0; c < kNumConfigs; ++c) {
    for (const bool predecessors : {false, true}) {
      if (predecessors && !((plan.predecessor_configs >> c) & 1u)) continue;
      try {
        failures += check_config(g, plan, kConfigs[c], predecessors, reference);
      } catch (const std::exception& e) {
        std::cout << "MISMATCH " << run_label(plan, kConfigs[c], predecessors, "(all)", plan.sources.front())
                  << ": solver setup failed: " << e.what() << std::endl;
        ++failures;
      }
    }
  }
  if constexpr (std::is_same_v<Weight, std::uint32_t>) {
    try {
      failures += check_contracted(g, plan, reference);
    } catch (const std::exception& e) {
      std::cout << "MISMATCH " << plan.description << " contracted: setup failed: " << e.what() << std::endl;
      ++failures;
    }
  }
  return failures;
}

template <class Weight>
bool weigh_and_check(std::uint64_t seed, Shape shape, const Topology& t, Rng& rng, const Options& options) {
  constexpr bool is_float = std::is_same_v<Weight, float>;
  const WeightProfile profile =
      is_float ? kFloatProfiles[rng.below(std::size(kFloatProfiles))] : kIntProfiles[rng.below(std::size(kIntProfiles))];
  const graph::Csr<Weight> g = add_weights<Weight>(t, profile, rng.next());
  const Plan plan = make_plan(seed, shape, t, profile, g, rng);
  const auto start = std::chrono::steady_clock::now();
  const int failures = check_graph(g, plan);
  if (options.verbose || failures > 0) {
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::cout << (failures ? "FAILED " : "ok ") << plan.description << " sources=" << plan.sources.size() << ": "
              << failures << " wrong results, " << took.count() << " s";
    // The size drawn from a seed depends on --max-vertices, so the replay names it.
    if (failures) std::cout << "; replay: sssp_stress --only-seed " << seed << " --max-vertices " << options.max_vertices;
    std::cout << std::endl;
  }
  return failures == 0;
}

// Builds graph `seed` and checks it; true when every result was right.
bool run_graph(std::uint64_t seed, const Options& options) {
  Rng rng(seed);
  const Shape shape = kShapes[rng.below(std::size(kShapes))];
  const vertex_id n = draw_size(options.max_vertices, rng);
  const Topology t = make_topology(shape, n, rng);
  // A third of the graphs take float weights.
  return rng.chance(1.0 / 3) ? weigh_and_check<float>(seed, shape, t, rng, options)
                             : weigh_and_check<std::uint32_t>(seed, shape, t, rng, options);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "sssp_stress: " << e.what() << "\n" << kUsage;
    return kExitUsage;
  }

  std::string why;
  if (!sssp::gpu_available(&why)) {
    // CTest counts this line as a skip (SKIP_REGULAR_EXPRESSION); as a
    // command, a stress run that checked nothing must not look like a pass.
    (options.ctest ? std::cout : std::cerr) << "sssp_stress: no GPU: skipped (" << why << ")" << std::endl;
    return options.ctest ? 0 : kExitUsage;
  }
  if (!options.seed_given) {
    std::random_device entropy;
    options.seed = (std::uint64_t{entropy()} << 32) | entropy();
  }

  const std::uint32_t graphs = options.only_seed ? 1 : options.graphs;
  std::cout << "sssp_stress: ";
  if (options.only_seed)
    std::cout << "replaying graph seed " << *options.only_seed;
  else
    std::cout << graphs << " graphs, seed " << options.seed;
  std::cout << ", up to " << options.max_vertices << " vertices, on " << sssp::gpu_description(0) << std::endl;

  const auto start = std::chrono::steady_clock::now();
  std::uint32_t passed = 0, failed = 0;
  for (std::uint32_t i = 0; i < graphs; ++i) {
    const std::uint64_t seed = options.only_seed ? *options.only_seed : graph_seed(options.seed, i);
    bool ok = false;
    try {
      ok = run_graph(seed, options);
    } catch (const std::exception& e) {  // building the graph itself failed
      std::cout << "MISMATCH seed=" << seed << ": " << e.what() << std::endl;
    }
    ++(ok ? passed : failed);
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::cout << "sssp_stress: " << took.count() << " s";
  if (failed > 0)
    std::cout << "; replay a failing graph with: sssp_stress --only-seed SEED --max-vertices " << options.max_vertices;
  std::cout << "\n" << passed << " passed, " << failed << " failed (" << phast_graphs << " also through PHAST)"
            << std::endl;
  return failed == 0 ? 0 : kExitFailed;
}
