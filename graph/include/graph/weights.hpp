// How arcs get weights when the file has none (pattern files, unweighted edge
// lists, generators) or when the user overrides the file's weights.
//
// The rule is documented and seeded so every result can be reproduced:
//   file          keep the file's weights; a file without weights falls back
//                 to random:1:1000 with the given seed
//   unit          every arc weighs 1 (hop counts)
//   random:LO:HI  weight of the arc between u and v = LO + h mod (HI - LO + 1),
//                 h = splitmix64(seed, min(u, v), max(u, v)) on 0-based ids,
//                 so both directions of an undirected edge weigh the same and
//                 the weight never depends on the order of the file's lines.
#pragma once

#include <cstdint>
#include <string>

#include "graph/types.hpp"

namespace graph {

struct WeightRule {
  enum class Kind { File, Unit, Random };
  Kind kind = Kind::File;
  std::uint32_t lo = 1;
  std::uint32_t hi = 1000;
  std::uint64_t seed = 1;

  // "file", "unit", "random" (= random:1:1000) or "random:LO:HI".
  // Throws InputError(BadArgument) naming the spec on anything else.
  static WeightRule parse(const std::string& spec, std::uint64_t seed = 1);

  // The rule as printed with every result, e.g. "random:1:1000 seed=1".
  std::string describe() const;

  // The rule actually applied to a file that has no weights of its own.
  WeightRule for_pattern_file() const;

  std::uint32_t random_weight(vertex_id u, vertex_id v) const;
};

// 64-bit mixing function (Steele, Lea, Flood: SplitMix64 finaliser).
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace graph
