// The solver's vertex orders (SolverOptions::vertex_ordering): every order,
// every strategy, exact against Dijkstra in the input's ids, trees included,
// on skewed, grid, road-like, random, star, disconnected and float-weight
// graphs; Auto's rule; batches and the contracted solver (whose entry arcs
// are rewritten by input position); the arcs' placement in small chunks
// against graph::relabel; bad input (and a partial vertex's rewrite) still
// refused after renumbering; and auto falling back to the input order where
// the staging memory does not fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_test_support.cuh"
#include "graph/build_csr.hpp"
#include "graph/contraction.hpp"
#include "graph/generators.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "graph/vertex_order.hpp"
#include "graph/weights.hpp"
#include "road_like_graph.hpp"
#include "sssp/contracted_solver.hpp"
#include "sssp/solver.hpp"
#include "sssp/vertex_order.cuh"

namespace {

using sssp::VertexOrdering;
constexpr VertexOrdering kOrderings[] = {VertexOrdering::Input, VertexOrdering::Degree, VertexOrdering::Rcm,
                                         VertexOrdering::Auto};

template <class Weight>
void expect_exact(const graph::Csr<Weight>& g, const std::string& what, std::vector<graph::vertex_id> sources) {
  for (const VertexOrdering ordering : kOrderings) {
    for (const bool with_pred : {false, true}) {
      sssp::SolverOptions opts;
      opts.vertex_ordering = ordering;
      opts.predecessors = with_pred;
      opts.delta = std::max(1e-3, graph::auto_delta(g, 32));
      sssp::GpuSolver<Weight> solver(g, opts);
      for (const graph::vertex_id s : sources) {
        const auto want = graph::dijkstra(g, s);
        for (const auto strategy : sssp::all_strategies()) {
          const std::string tag = what + ", " + sssp::to_string(ordering) + " -> " +
                                  sssp::to_string(solver.vertex_ordering()) + ", source " + std::to_string(s) + ", " +
                                  sssp::to_string(strategy) + (with_pred ? " +pred" : "");
          const auto got = solver.solve(s, strategy);
          const graph::DistanceMismatches m = graph::find_distance_mismatches<Weight>(want, got.distances, 1);
          ASSERT_TRUE(m.none()) << tag << ": " << m.count << " differ, first vertex " << m.first.front();
          if (with_pred) {
            const graph::TreeCheck tree = graph::check_shortest_path_tree(g, s, got.distances, got.predecessors);
            ASSERT_EQ(tree.errors, 0u) << tag << ": " << (tree.examples.empty() ? "" : tree.examples.front());
          }
        }
      }
    }
  }
}

graph::IntCsr generated(const std::string& spec, const std::string& weights, std::uint64_t seed) {
  return graph::generate(graph::GeneratorSpec::parse(spec), graph::WeightRule::parse(weights, seed), seed);
}

graph::IntCsr star_with_tail(graph::vertex_id leaves) {
  graph::Coo<std::uint32_t> coo;
  coo.num_vertices = leaves + 3;
  for (graph::vertex_id v = 1; v <= leaves; ++v) {
    coo.add(0, v, v % 17 + 1);
    coo.add(v, 0, 3);
  }
  coo.add(leaves, leaves + 1, 0);  // then a vertex only reached through a zero-weight arc
  // vertex leaves + 2 is isolated
  return graph::build_csr(std::move(coo), graph::BuildOptions{});
}

}  // namespace

TEST(SsspVertexOrder, SkewedGridRoadRandomAndStarGraphs) {
  SKIP_IF_NO_GPU();
  expect_exact(generated("rmat:12:8", "random:0:100", 3), "rmat 2^12 (zero weights)", {0, 77, 4000});
  expect_exact(generated("grid:30:40", "random:1:1000", 4), "grid 30x40", {0, 611});
  expect_exact(test_support::road_like(test_support::RoadSpec{}, 5), "road-like", {0, 40, 200});
  expect_exact(test_support::random_sparse(2000, 5000, 9, 6), "random sparse, disconnected", {0, 1999});
  expect_exact(star_with_tail(3000), "star", {0, 5, 3001});
}

TEST(SsspVertexOrder, FloatWeights) {
  SKIP_IF_NO_GPU();
  graph::Coo<float> coo;
  const graph::vertex_id n = 3000;
  coo.num_vertices = n;
  for (graph::vertex_id v = 0; v + 1 < n; ++v) {
    coo.add(v, v + 1, 0.25f + static_cast<float>(v % 7));
    if (v % 5 == 0) coo.add(v, (v * 37) % n, 1.5f);
    if (v % 11 == 0) coo.add(0, v, 100.0f);  // a hub
  }
  const graph::FloatCsr g = graph::build_csr(std::move(coo), graph::BuildOptions{});
  expect_exact(g, "float", {0, 1500});
}

TEST(SsspVertexOrder, AutoRenumbersSkewedGraphsOnly) {
  SKIP_IF_NO_GPU();
  const auto resolved = [](const graph::IntCsr& g) {
    sssp::GpuSolver<std::uint32_t> solver(g, sssp::SolverOptions{});
    if (solver.vertex_ordering() == VertexOrdering::Input) EXPECT_EQ(solver.reorder_ms(), 0.0);
    return solver.vertex_ordering();
  };
  EXPECT_EQ(resolved(generated("rmat:17:4", "random:1:1000", 1)), VertexOrdering::Degree);
  EXPECT_EQ(resolved(generated("rmat:16:4", "random:1:1000", 1)), VertexOrdering::Input);  // too small to pay
  EXPECT_EQ(resolved(generated("grid:400:400", "random:1:1000", 1)), VertexOrdering::Input);
  EXPECT_EQ(resolved(generated("urand:140000:4", "random:1:1000", 1)), VertexOrdering::Input);
  const graph::IntCsr empty;
  sssp::SolverOptions degree;
  degree.vertex_ordering = VertexOrdering::Degree;
  EXPECT_EQ(sssp::GpuSolver<std::uint32_t>(empty, degree).vertex_ordering(), VertexOrdering::Input);
}

TEST(SsspVertexOrder, BatchesAndContractedSolves) {
  SKIP_IF_NO_GPU();
  const graph::IntCsr skewed = generated("rmat:13:8", "random:1:1000", 8);
  const std::vector<graph::vertex_id> sources = {0, 3, 100, 8000, 4096};
  for (const VertexOrdering ordering : {VertexOrdering::Degree, VertexOrdering::Rcm}) {
    sssp::SolverOptions opts;
    opts.vertex_ordering = ordering;
    sssp::GpuSolver<std::uint32_t> solver(skewed, opts);
    for (const auto strategy : {sssp::Strategy::NearFar, sssp::Strategy::BellmanFord}) {
      const auto batch = solver.solve_batch(sources, strategy, graph::auto_delta(skewed, 32));
      ASSERT_EQ(batch.per_source.size(), sources.size());
      for (std::size_t i = 0; i < sources.size(); ++i)
        ASSERT_TRUE(graph::find_distance_mismatches<std::uint32_t>(graph::dijkstra(skewed, sources[i]),
                                                                   batch.per_source[i].distances, 1)
                        .none())
            << sssp::to_string(ordering) << " batch, source " << sources[i];
    }
  }
  // The contracted solver rewrites its entry vertex's arcs by input position
  // before every query: consecutive queries from pieces and junctions.
  test_support::RoadSpec spec;
  spec.junctions = 300;
  spec.roads = 600;
  spec.trees = 150;
  const graph::IntCsr road = test_support::road_like(spec, 12);
  const graph::ChainContraction c = graph::contract_chains(road);
  for (const VertexOrdering ordering : {VertexOrdering::Degree, VertexOrdering::Rcm}) {
    for (const bool with_pred : {false, true}) {
      sssp::SolverOptions opts;
      opts.vertex_ordering = ordering;
      opts.predecessors = with_pred;
      sssp::ContractedGpuSolver solver(road, c, opts);
      ASSERT_EQ(solver.core_solver().vertex_ordering(), ordering);
      for (graph::vertex_id s = 0; s < road.num_vertices; s += road.num_vertices / 15) {
        const auto want = graph::dijkstra(road, s);
        const auto got = solver.solve(s, sssp::Strategy::NearFar, std::max(1.0, graph::auto_delta(c.core)));
        ASSERT_TRUE(graph::find_distance_mismatches<std::uint32_t>(want, got.distances, 1).none())
            << sssp::to_string(ordering) << " contracted, source " << s;
        if (with_pred) {
          const graph::TreeCheck tree = graph::check_shortest_path_tree(road, s, got.distances, got.predecessors);
          ASSERT_EQ(tree.errors, 0u) << sssp::to_string(ordering) << " contracted tree, source " << s;
        }
      }
    }
  }
}

TEST(SsspVertexOrder, ArcsPlacedInSmallChunksMatchTheHostRelabel) {
  SKIP_IF_NO_GPU();
  // Small stages put the road-like graph's vertices in chunks of one to a
  // few dozen; the star's hub (degree above the stage) gets its own.
  for (const graph::IntCsr& g : {test_support::road_like(test_support::RoadSpec{}, 9), star_with_tail(500)}) {
  const std::uint32_t n = g.num_vertices;
  const std::uint64_t m = g.num_arcs();
  std::uint64_t max_degree = 0;
  for (std::uint32_t v = 0; v < n; ++v) max_degree = std::max<std::uint64_t>(max_degree, g.out_degree(v));
  for (const VertexOrdering ordering : {VertexOrdering::Degree, VertexOrdering::Rcm}) {
    for (const std::uint64_t stage : {1ull, 7ull, 64ull}) {
      std::uint64_t* offsets = nullptr;
      std::uint32_t *targets = nullptr, *weights = nullptr, *new_id = nullptr, *old_id = nullptr;
      CUDA_ASSERT(cudaMalloc(&offsets, (n + 1) * 8));
      CUDA_ASSERT(cudaMalloc(&targets, m * 4));
      CUDA_ASSERT(cudaMalloc(&weights, m * 4));
      CUDA_ASSERT(cudaMalloc(&new_id, n * 4));
      CUDA_ASSERT(cudaMalloc(&old_id, n * 4));
      sssp::detail::HostVertexOrder host;
      sssp::detail::upload_in_order(g, ordering, max_degree, sssp::detail::DeviceCsr<std::uint32_t>{offsets, targets, weights},
                                    new_id, old_id, 64, nullptr, &host, stage);
      CUDA_ASSERT(cudaDeviceSynchronize());
      graph::IntCsr got;
      got.num_vertices = n;
      got.offsets.resize(n + 1);
      got.targets.resize(m);
      got.weights.resize(m);
      CUDA_ASSERT(cudaMemcpy(got.offsets.data(), offsets, (n + 1) * 8, cudaMemcpyDeviceToHost));
      CUDA_ASSERT(cudaMemcpy(got.targets.data(), targets, m * 4, cudaMemcpyDeviceToHost));
      CUDA_ASSERT(cudaMemcpy(got.weights.data(), weights, m * 4, cudaMemcpyDeviceToHost));
      for (void* p : {static_cast<void*>(offsets), static_cast<void*>(targets), static_cast<void*>(weights),
                      static_cast<void*>(new_id), static_cast<void*>(old_id)})
        CUDA_ASSERT(cudaFree(p));
      graph::VertexOrder order;
      order.new_id = host.new_id;
      order.old_id = host.old_id;
      const graph::IntCsr want = graph::relabel(g, order);
      ASSERT_EQ(got.offsets, want.offsets) << sssp::to_string(ordering) << ", stage " << stage;
      ASSERT_EQ(got.targets, want.targets) << sssp::to_string(ordering) << ", stage " << stage;
      ASSERT_EQ(got.weights, want.weights) << sssp::to_string(ordering) << ", stage " << stage;
      ASSERT_EQ(host.out_offsets, want.offsets);
      ASSERT_EQ(host.in_offsets, g.offsets);
      // The device's sort gives the host's degree order, ties by id included.
      if (ordering == VertexOrdering::Degree) ASSERT_EQ(host.old_id, graph::degree_order(g).old_id);
    }
  }
  }
}

TEST(SsspVertexOrder, BadTargetsAreStillRefused) {
  SKIP_IF_NO_GPU();
  graph::IntCsr g = star_with_tail(20000);
  g.targets[5] = g.num_vertices + 4;
  for (const VertexOrdering ordering : kOrderings) {
    sssp::SolverOptions opts;
    opts.vertex_ordering = ordering;
    EXPECT_THROW(sssp::GpuSolver<std::uint32_t>(g, opts), std::invalid_argument) << sssp::to_string(ordering);
  }
  // Renumbered, a rewrite must cover whole vertices: vertex 0 (the hub) has
  // 20000 arcs; rewriting its first two alone is refused, all of them taken.
  const graph::IntCsr star = star_with_tail(20000);
  sssp::SolverOptions opts;
  opts.vertex_ordering = VertexOrdering::Degree;
  sssp::GpuSolver<std::uint32_t> solver(star, opts);
  EXPECT_THROW(solver.rewrite_arcs(0, {1, 2}, {5, 5}), std::invalid_argument);
  std::vector<graph::vertex_id> targets(20000);
  std::vector<std::uint32_t> weights(20000, 1);
  for (graph::vertex_id i = 0; i < 20000; ++i) targets[i] = i + 1;
  solver.rewrite_arcs(0, targets, weights);
  const auto got = solver.solve(0, sssp::Strategy::NearFar, 10);
  EXPECT_EQ(got.distances[777], 1u);
  EXPECT_EQ(got.distances[20001], 1u);  // leaf 20000 -> the tail vertex over a zero-weight arc
}

TEST(SsspVertexOrder, AutoKeepsTheInputOrderWhereStagingDoesNotFit) {
  SKIP_IF_NO_GPU();
  // rmat:19:16 stages about 15M arcs (240 MB) to renumber. Leave the solver
  // its own table's memory and 96 MB more (the table's allocations round up),
  // not enough to stage: auto falls back, degree reports the failure.
  const graph::IntCsr g = generated("rmat:19:16", "random:1:1000", 2);
  std::uint64_t needed = 0;
  {
    sssp::SolverOptions input;
    input.vertex_ordering = VertexOrdering::Input;
    needed = sssp::GpuSolver<std::uint32_t>(g, input).device_bytes();
  }
  std::size_t free_bytes = 0, total = 0;
  CUDA_ASSERT(cudaMemGetInfo(&free_bytes, &total));
  const std::uint64_t keep = needed + (96ull << 20);
  ASSERT_GT(free_bytes, keep);
  void* blob = nullptr;
  CUDA_ASSERT(cudaMalloc(&blob, free_bytes - keep));
  {
    sssp::GpuSolver<std::uint32_t> solver(g, sssp::SolverOptions{});
    EXPECT_EQ(solver.vertex_ordering(), VertexOrdering::Input);
    EXPECT_EQ(solver.reorder_ms(), 0.0);
    const auto got = solver.solve(5, sssp::Strategy::BellmanFord, 300);
    EXPECT_TRUE(graph::find_distance_mismatches<std::uint32_t>(graph::dijkstra(g, 5), got.distances, 1).none());
  }
  sssp::SolverOptions degree;
  degree.vertex_ordering = VertexOrdering::Degree;
  EXPECT_THROW(sssp::GpuSolver<std::uint32_t>(g, degree), std::runtime_error);
  CUDA_ASSERT(cudaFree(blob));
  // With the memory back, auto renumbers it.
  EXPECT_EQ(sssp::GpuSolver<std::uint32_t>(g, sssp::SolverOptions{}).vertex_ordering(), VertexOrdering::Degree);
}
