// Basic types shared by every part of the project: vertex ids, edge offsets,
// and the distance type that goes with each weight type.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace graph {

using vertex_id = std::uint32_t;    // vertices are numbered 0 .. n-1 inside the library
using edge_offset = std::uint64_t;  // CSR offsets: more than 2^32 arcs must work

// Distances are wide enough that no path length overflows silently:
// integer weights are at most 2^32 - 1 and a simple path has at most 2^32 - 1
// arcs, so every shortest-path length fits in 64 bits. Float weights keep
// float distances (the GPU relaxes them with a 32-bit atomicMin).
template <class Weight>
struct DistanceTraits;

template <>
struct DistanceTraits<std::uint32_t> {
  using type = std::uint64_t;
  static constexpr type infinity() { return std::numeric_limits<type>::max(); }
  static constexpr bool is_integer = true;
};

template <>
struct DistanceTraits<float> {
  using type = float;
  static constexpr type infinity() { return std::numeric_limits<float>::infinity(); }
  static constexpr bool is_integer = false;
};

template <class Weight>
using distance_t = typename DistanceTraits<Weight>::type;

template <class Weight>
constexpr distance_t<Weight> infinite_distance() {
  return DistanceTraits<Weight>::infinity();
}

inline constexpr vertex_id kNoVertex = std::numeric_limits<vertex_id>::max();

}  // namespace graph
