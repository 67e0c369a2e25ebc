// COO -> CSR: the one place where self-loops, duplicates and symmetrisation
// are handled, so every reader and generator behaves the same.
#pragma once

#include <cstdint>

#include "graph/csr.hpp"

namespace graph {

struct BuildOptions {
  bool symmetrize = false;        // add (v, u) for every (u, v): undirected graph
  bool drop_self_loops = true;    // a self-loop never shortens a path
};

struct BuildStats {
  std::uint64_t input_entries = 0;       // entries in the COO
  std::uint64_t self_loops_dropped = 0;  // entries with u == v (counted before mirroring)
  std::uint64_t duplicates_dropped = 0;  // arcs removed because a cheaper or equal (u, v) arc exists
  std::uint64_t arcs = 0;                // arcs in the CSR
};

// Builds the CSR; duplicate (u, v) arcs keep the minimum weight.
// Consumes the COO (its memory is released). Deterministic and parallel (OpenMP).
template <class Weight>
Csr<Weight> build_csr(Coo<Weight>&& coo, const BuildOptions& options, BuildStats* stats = nullptr);

extern template Csr<std::uint32_t> build_csr(Coo<std::uint32_t>&&, const BuildOptions&, BuildStats*);
extern template Csr<float> build_csr(Coo<float>&&, const BuildOptions&, BuildStats*);

}  // namespace graph
