// Test graphs for the contraction tests (graph/contraction.hpp,
// graph/hierarchy.hpp): a road-like graph (junctions joined by chains of
// shape points, with one-way and zero-weight arcs and trees hanging off,
// plus a cycle, a path and a tree as components of their own and an
// isolated vertex), and a random sparse multigraph.
#pragma once

#include <cstdint>
#include <random>

#include "graph/build_csr.hpp"
#include "graph/csr.hpp"

namespace test_support {

using graph::Coo;
using graph::IntCsr;
using graph::vertex_id;

struct RoadSpec {
  vertex_id junctions = 40;
  std::uint32_t roads = 70;       // chains between random junctions
  std::uint32_t max_chain = 12;   // interior vertices per chain, 0 .. max_chain
  std::uint32_t trees = 25;       // hanging trees, attached anywhere
  std::uint32_t max_tree = 8;
  std::uint32_t max_weight = 20;  // weights 0 .. max_weight
  double one_way = 0.15;          // share of chain arcs with one direction only
  std::uint64_t heavy_weight = 0; // > 0: some arcs get this weight (overflowing chains)
};

inline IntCsr road_like(const RoadSpec& spec, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Coo<std::uint32_t> coo;
  vertex_id next = spec.junctions;
  const auto weight = [&]() -> std::uint32_t {
    if (spec.heavy_weight > 0 && rng() % 4 == 0) return static_cast<std::uint32_t>(spec.heavy_weight);
    return static_cast<std::uint32_t>(rng() % (spec.max_weight + 1));
  };
  const auto link = [&](vertex_id u, vertex_id v) {
    const bool one_way = std::uniform_real_distribution<double>(0, 1)(rng) < spec.one_way;
    const bool forward = rng() % 2 == 0;
    if (!one_way || forward) coo.add(u, v, weight());
    if (!one_way || !forward) coo.add(v, u, weight());
  };
  const auto chain = [&](vertex_id a, vertex_id b, std::uint32_t length) {
    vertex_id prev = a;
    for (std::uint32_t i = 0; i < length; ++i) {
      link(prev, next);
      prev = next++;
    }
    link(prev, b);
  };
  for (std::uint32_t r = 0; r < spec.roads; ++r) {
    const auto a = static_cast<vertex_id>(rng() % spec.junctions);
    const auto b = static_cast<vertex_id>(rng() % spec.junctions);
    chain(a, b, static_cast<std::uint32_t>(rng() % (spec.max_chain + 1)));
  }
  for (std::uint32_t t = 0; t < spec.trees; ++t) {
    const auto root = static_cast<vertex_id>(rng() % next);
    const vertex_id first = next;
    const auto size = static_cast<std::uint32_t>(1 + rng() % spec.max_tree);
    for (std::uint32_t i = 0; i < size; ++i) {
      const vertex_id parent = i == 0 ? root : first + static_cast<vertex_id>(rng() % i);
      link(parent, next++);
    }
  }
  // A cycle, a path and a tree on their own, and an isolated vertex.
  const vertex_id cycle = next;
  for (vertex_id i = 0; i < 7; ++i) link(cycle + i, cycle + (i + 1) % 7);
  next += 7;
  const vertex_id path = next;
  for (vertex_id i = 0; i + 1 < 6; ++i) link(path + i, path + i + 1);
  next += 6;
  const vertex_id tree = next;
  for (vertex_id i = 1; i < 6; ++i) link(tree + static_cast<vertex_id>(rng() % i), tree + i);
  next += 6;
  coo.num_vertices = next + 1;
  return graph::build_csr(std::move(coo), graph::BuildOptions{false, true});
}

// n vertices, `arcs` random arcs (self-loops and duplicates dropped by
// build_csr), weights uniform in 0 .. max_weight.
inline IntCsr random_sparse(vertex_id n, std::uint64_t arcs, std::uint32_t max_weight, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Coo<std::uint32_t> coo;
  coo.num_vertices = n;
  for (std::uint64_t i = 0; i < arcs; ++i)
    coo.add(static_cast<vertex_id>(rng() % n), static_cast<vertex_id>(rng() % n),
            static_cast<std::uint32_t>(rng() % (max_weight + 1)));
  return graph::build_csr(std::move(coo), graph::BuildOptions{false, true});
}

}  // namespace test_support
