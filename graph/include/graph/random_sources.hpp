// Random source vertices, the one picker of every front end (sssp, sssp
// bench, cpu_sssp_bench, concurrent_sources_bench), so one seed means the same
// sources everywhere and on every machine.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/types.hpp"

namespace graph {

// How many vertices have out-arcs (offsets: CSR offsets, n + 1 entries).
std::uint64_t vertices_with_out_arcs(const std::vector<edge_offset>& offsets);

// K distinct vertices with out-degree > 0 (a source without out-arcs makes
// an empty run), from a seeded counter-based SplitMix64 stream. Throws
// std::invalid_argument "only N vertices have out-edges" when fewer than K
// qualify.
std::vector<vertex_id> choose_random_sources(const std::vector<edge_offset>& offsets, std::uint32_t k,
                                             std::uint64_t seed);

}  // namespace graph
