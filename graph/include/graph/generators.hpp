// Synthetic graphs, deterministic from a seed: R-MAT / Kronecker (power law),
// 2D grids (road-like, high diameter) and uniform random graphs.
#pragma once

#include <cstdint>
#include <string>

#include "graph/build_csr.hpp"
#include "graph/csr.hpp"
#include "graph/weights.hpp"

namespace graph {

struct GeneratorSpec {
  enum class Kind { Rmat, Grid, Uniform };
  Kind kind = Kind::Rmat;
  // rmat: 2^scale vertices, edge_factor * 2^scale generated edges
  std::uint32_t scale = 0, edge_factor = 16;
  double a = 0.57, b = 0.19, c = 0.19, d = 0.05;  // Graph500 defaults
  // grid: rows x cols, 4-neighbour, both directions
  std::uint32_t rows = 0, cols = 0;
  // urand: n vertices, n * degree generated edges, mirrored (GAP -u style),
  // so the mean out-degree is about 2 * degree
  std::uint32_t n = 0, degree = 0;
  bool undirected = true;  // rmat and urand edges are mirrored (Graph500/GAP convention)

  // "rmat:SCALE:EF", "rmat:SCALE:EF:A:B:C:D", "grid:ROWS:COLS", "urand:N:DEG";
  // throws InputError(BadArgument) naming the spec otherwise.
  static GeneratorSpec parse(const std::string& spec);
  std::string describe() const;  // canonical spec string, parameters included
};

// Weights: WeightRule::Kind::File means the generator's default, random:1:1000.
IntCsr generate(const GeneratorSpec& spec, const WeightRule& weights, std::uint64_t seed,
                BuildStats* stats = nullptr);

}  // namespace graph
