// Reverse Cuthill-McKee, the degree order and relabelling: the order is a permutation, the
// relabelled graph has the same shortest-path distances (mapped through the
// order), keeps Csr's sorted-arc invariant, and the order narrows the
// bandwidth of shuffled paths and grids the way RCM must.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "graph/build_csr.hpp"
#include "graph/generators.hpp"
#include "graph/reference.hpp"
#include "graph/vertex_order.hpp"
#include "graph/weights.hpp"
#include "road_like_graph.hpp"

using namespace graph;

namespace {

void expect_permutation(const VertexOrder& o, vertex_id n) {
  ASSERT_EQ(o.new_id.size(), n);
  ASSERT_EQ(o.old_id.size(), n);
  std::vector<bool> seen(n, false);
  for (vertex_id v = 0; v < n; ++v) {
    ASSERT_LT(o.new_id[v], n);
    EXPECT_FALSE(seen[o.new_id[v]]) << "new id " << o.new_id[v] << " given twice";
    seen[o.new_id[v]] = true;
    EXPECT_EQ(o.old_id[o.new_id[v]], v);
  }
}

template <class Weight>
void expect_same_distances(const Csr<Weight>& g, const VertexOrder& o, vertex_id source) {
  const Csr<Weight> r = relabel(g, o);
  ASSERT_EQ(r.num_vertices, g.num_vertices);
  ASSERT_EQ(r.num_arcs(), g.num_arcs());
  for (vertex_id v = 0; v < r.num_vertices; ++v) {
    EXPECT_EQ(r.out_degree(v), g.out_degree(o.old_id[v]));
    EXPECT_TRUE(std::is_sorted(r.targets.begin() + static_cast<std::ptrdiff_t>(r.offsets[v]),
                               r.targets.begin() + static_cast<std::ptrdiff_t>(r.offsets[v + 1])));
  }
  const auto want = dijkstra(g, source);
  const auto got = dijkstra(r, o.new_id[source]);
  for (vertex_id v = 0; v < g.num_vertices; ++v) ASSERT_EQ(got[o.new_id[v]], want[v]) << "vertex " << v;
}

// A path 0 - 1 - ... - n-1 (arcs both ways) under a random naming.
IntCsr shuffled_path(vertex_id n, std::uint64_t seed) {
  std::vector<vertex_id> name(n);
  std::iota(name.begin(), name.end(), vertex_id{0});
  std::mt19937_64 rng(seed);
  std::shuffle(name.begin(), name.end(), rng);
  Coo<std::uint32_t> coo;
  coo.num_vertices = n;
  for (vertex_id i = 0; i + 1 < n; ++i) {
    coo.add(name[i], name[i + 1], i + 1);
    coo.add(name[i + 1], name[i], i + 1);
  }
  return build_csr(std::move(coo), BuildOptions{});
}

}  // namespace

TEST(VertexOrder, IdentityIsItsOwnInverse) {
  const VertexOrder o = identity_order(5);
  expect_permutation(o, 5);
  EXPECT_EQ(o.new_id[3], 3u);
}

TEST(VertexOrder, ShuffledPathGetsBandwidthOne) {
  const IntCsr g = shuffled_path(1000, 7);
  EXPECT_GT(order_bandwidth(g, identity_order(g.num_vertices)), 100u);
  const VertexOrder o = reverse_cuthill_mckee(g);
  expect_permutation(o, g.num_vertices);
  EXPECT_EQ(order_bandwidth(g, o), 1u);
  expect_same_distances(g, o, 17);
}

TEST(VertexOrder, GridBandwidthIsAboutItsWidth) {
  // A 40 x 60 grid, its vertices shuffled: RCM numbers it by anti-diagonals
  // from a corner, so neighbours are at most about one diagonal apart.
  const IntCsr grid = generate(GeneratorSpec::parse("grid:40:60"), WeightRule::parse("random:1:100"), 3);
  const vertex_id n = grid.num_vertices;
  VertexOrder shuffle = identity_order(n);
  std::mt19937_64 rng(11);
  std::shuffle(shuffle.old_id.begin(), shuffle.old_id.end(), rng);
  for (vertex_id v = 0; v < n; ++v) shuffle.new_id[shuffle.old_id[v]] = v;
  const IntCsr g = relabel(grid, shuffle);
  EXPECT_GT(order_bandwidth(g, identity_order(n)), 1000u);
  const VertexOrder o = reverse_cuthill_mckee(g);
  expect_permutation(o, n);
  EXPECT_LE(order_bandwidth(g, o), 82u);
  expect_same_distances(g, o, 0);
  expect_same_distances(g, o, n / 2);
}

TEST(VertexOrder, EveryComponentAndIsolatedVertexIsNumbered) {
  // Two components, one-way arcs (weakly connected only), isolated vertices.
  Coo<std::uint32_t> coo;
  coo.num_vertices = 12;
  coo.add(0, 1, 3);
  coo.add(1, 2, 4);
  coo.add(3, 2, 1);  // 3 reaches the component only against the arcs' direction
  coo.add(5, 6, 2);
  coo.add(6, 7, 2);
  coo.add(7, 5, 2);
  coo.add(9, 11, 0);
  const IntCsr g = build_csr(std::move(coo), BuildOptions{});
  const VertexOrder o = reverse_cuthill_mckee(g);
  expect_permutation(o, g.num_vertices);
  for (const vertex_id s : {0u, 3u, 5u, 9u, 4u}) expect_same_distances(g, o, s);
  // A weakly connected component gets consecutive ids.
  const auto span = [&](std::initializer_list<vertex_id> vs) {
    vertex_id lo = g.num_vertices, hi = 0;
    for (const vertex_id v : vs) {
      lo = std::min(lo, o.new_id[v]);
      hi = std::max(hi, o.new_id[v]);
    }
    return hi - lo;
  };
  EXPECT_EQ(span({0, 1, 2, 3}), 3u);
  EXPECT_EQ(span({5, 6, 7}), 2u);
}

TEST(VertexOrder, RoadLikeAndRandomGraphsKeepTheirDistances) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const IntCsr road = test_support::road_like(test_support::RoadSpec{}, seed);
    expect_same_distances(road, reverse_cuthill_mckee(road), static_cast<vertex_id>(seed % road.num_vertices));
    const IntCsr sparse = test_support::random_sparse(300, 900, 50, seed);
    expect_same_distances(sparse, reverse_cuthill_mckee(sparse), 0);
  }
}

TEST(VertexOrder, DegreeOrderPutsHubsFirstTiesById) {
  Coo<std::uint32_t> coo;
  coo.num_vertices = 6;
  for (const vertex_id t : {0u, 2u, 3u, 4u}) coo.add(5, t, 1);  // degree 4
  coo.add(1, 0, 2);                                            // degree 2
  coo.add(1, 2, 2);
  coo.add(3, 1, 1);  // degree 1
  coo.add(0, 1, 1);  // degree 1
  const IntCsr g = build_csr(std::move(coo), BuildOptions{});
  const VertexOrder o = degree_order(g);
  expect_permutation(o, g.num_vertices);
  EXPECT_EQ(o.old_id, (std::vector<vertex_id>{5, 1, 0, 3, 2, 4}));
  expect_same_distances(g, o, 5);
}

TEST(VertexOrder, FloatWeightsAndEmptyGraph) {
  Coo<float> coo;
  coo.num_vertices = 4;
  coo.add(2, 0, 0.5f);
  coo.add(0, 3, 1.25f);
  coo.add(3, 1, 0.0f);
  const FloatCsr g = build_csr(std::move(coo), BuildOptions{});
  expect_same_distances(g, reverse_cuthill_mckee(g), 2);
  const IntCsr empty;
  const VertexOrder o = reverse_cuthill_mckee(empty);
  EXPECT_TRUE(o.empty());
  EXPECT_EQ(relabel(empty, o).num_vertices, 0u);
}
