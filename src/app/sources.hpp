// Source vertices and other user-visible ids: the command line speaks in the
// file's ids (1-based for .mtx/.gr, 0-based for edge lists and generated
// graphs); the library speaks 0-based. Every conversion happens here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/id_file.hpp"
#include "graph/types.hpp"

namespace app {

// A user's id to a 0-based vertex; throws UsageError naming `option` when the
// id is outside [id_base, id_base + num_vertices).
graph::vertex_id to_internal_id(std::uint64_t user_id, std::uint32_t id_base, graph::vertex_id num_vertices,
                                const std::string& option);

inline std::uint64_t to_user_id(graph::vertex_id v, std::uint32_t id_base) {
  return static_cast<std::uint64_t>(v) + id_base;
}

// graph::choose_random_sources (graph/random_sources.hpp: K distinct
// vertices with out-arcs, seeded, the same on every machine and in every
// front end), but UsageError "--random-sources K: ..." when fewer than K
// qualify.
std::vector<graph::vertex_id> choose_random_sources(const std::vector<graph::edge_offset>& offsets,
                                                    std::uint32_t k, std::uint64_t seed);

// The sources of a run, 0-based: --source ids mapped, or --random-sources K,
// or the first vertex. Throws UsageError on an empty graph or a bad id; for
// ids from --sources FILE (`file`) the message starts "FILE:LINE: ".
std::vector<graph::vertex_id> resolve_sources(const std::vector<std::uint64_t>& user_ids,
                                              std::uint32_t random_sources, std::uint64_t seed,
                                              std::uint32_t id_base,
                                              const std::vector<graph::edge_offset>& offsets,
                                              const cli::IdFile& file = {});

// --targets ids, 0-based, checked like sources (a file's bad id named by its
// file and line). Empty in, empty out.
std::vector<graph::vertex_id> resolve_targets(const std::vector<std::uint64_t>& user_ids, std::uint32_t id_base,
                                              graph::vertex_id num_vertices, const cli::IdFile& file = {});

}  // namespace app
