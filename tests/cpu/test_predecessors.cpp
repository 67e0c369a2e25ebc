// Predecessors from exact distances (graph/predecessors.hpp): on random
// graphs with many zero-weight arcs, on a zero-weight cycle where every
// vertex ties with its neighbours, and on unreachable parts, the tree must
// pass the checker that --validate uses, on one thread and on several.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "graph/build_csr.hpp"
#include "graph/predecessors.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "road_like_graph.hpp"

using namespace graph;

namespace {

void expect_tree(const IntCsr& g, vertex_id source, int threads, const std::string& what) {
  const std::vector<std::uint64_t> dist = dijkstra(g, source);
  std::vector<vertex_id> pred(g.num_vertices, 7);
  predecessors_from_distances(g, source, dist.data(), pred.data(), threads);
  const TreeCheck tree = check_shortest_path_tree(g, source, dist, pred);
  ASSERT_TRUE(tree.valid()) << what << ", source " << source << ", " << threads << " threads: "
                            << (tree.examples.empty() ? "" : tree.examples.front());
  EXPECT_EQ(pred[source], kNoVertex) << what;
}

IntCsr from_arcs(vertex_id n, const std::vector<std::tuple<vertex_id, vertex_id, std::uint32_t>>& arcs) {
  Coo<std::uint32_t> coo;
  coo.num_vertices = n;
  for (const auto& [u, v, w] : arcs) coo.add(u, v, w);
  return build_csr(std::move(coo), BuildOptions{false, true});
}

}  // namespace

TEST(Predecessors, RandomGraphsWithManyZeroWeights) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    // Weights 0..2: a third of the arcs weigh nothing; large enough
    // (2^16 vertices) for step 1 to run on several threads.
    const vertex_id n = seed <= 3 ? 2000 : (1u << 16);
    const IntCsr g = test_support::random_sparse(n, 3ull * n, 2, seed);
    for (const int threads : {1, 4})
      for (const vertex_id s : {vertex_id{0}, static_cast<vertex_id>(n / 3), static_cast<vertex_id>(n - 1)}) {
        expect_tree(g, s, threads, "random seed " + std::to_string(seed));
        if (HasFatalFailure()) return;
      }
  }
}

TEST(Predecessors, RoadLikeGraphs) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    test_support::RoadSpec spec;
    spec.max_weight = seed % 2 ? 1 : 20;  // 0..1: half the arcs weigh nothing
    const IntCsr g = test_support::road_like(spec, seed);
    for (vertex_id s = 0; s < g.num_vertices; s += 37) {
      expect_tree(g, s, 2, "road-like seed " + std::to_string(seed));
      if (HasFatalFailure()) return;
    }
  }
}

// 0 -> 1 (weight 3), then 1, 2, 3 on a zero-weight cycle in both
// directions, and 4 unreachable: 2 and 3 tie with 1, and a tree that
// followed any tight arc could close 1 -> 2 -> 3 -> 1.
TEST(Predecessors, ZeroWeightCycleAndUnreachable) {
  const IntCsr g = from_arcs(5, {{0, 1, 3}, {1, 2, 0}, {2, 3, 0}, {3, 1, 0}, {2, 1, 0}, {3, 2, 0}, {1, 3, 0}, {4, 0, 1}});
  std::vector<vertex_id> pred(5);
  const std::vector<std::uint64_t> dist = dijkstra(g, 0);
  predecessors_from_distances(g, 0, dist.data(), pred.data(), 1);
  EXPECT_EQ(pred[0], kNoVertex);
  EXPECT_EQ(pred[1], 0u);
  EXPECT_EQ(pred[2], 1u);
  EXPECT_EQ(pred[3], 1u);
  EXPECT_EQ(pred[4], kNoVertex);
  EXPECT_TRUE(check_shortest_path_tree(g, 0, dist, pred).valid());
  EXPECT_THROW(predecessors_from_distances(g, 5, dist.data(), pred.data()), std::out_of_range);
}
