#include "app/sources.hpp"

#include <stdexcept>

#include "app/options.hpp"
#include "graph/random_sources.hpp"

namespace app {

graph::vertex_id to_internal_id(std::uint64_t user_id, std::uint32_t id_base, graph::vertex_id num_vertices,
                                const std::string& option) {
  const std::uint64_t last = static_cast<std::uint64_t>(num_vertices) + id_base;  // one past the last id
  if (num_vertices == 0) throw UsageError(option + " " + std::to_string(user_id) + ": the graph has no vertices");
  if (user_id < id_base || user_id >= last)
    throw UsageError(option + " " + std::to_string(user_id) + " is out of range: vertex ids are " +
                     std::to_string(id_base) + " to " + std::to_string(last - 1) +
                     (id_base == 1 ? " (1-based, as in the file)" : " (0-based)"));
  return static_cast<graph::vertex_id>(user_id - id_base);
}

std::vector<graph::vertex_id> choose_random_sources(const std::vector<graph::edge_offset>& offsets,
                                                    std::uint32_t k, std::uint64_t seed) {
  try {
    return graph::choose_random_sources(offsets, k, seed);
  } catch (const std::invalid_argument& e) {
    throw UsageError("--random-sources " + std::to_string(k) + ": " + e.what());
  }
}

namespace {

// Each id mapped by to_internal_id; an id from a file is named by its line.
std::vector<graph::vertex_id> map_ids(const std::vector<std::uint64_t>& user_ids, std::uint32_t id_base,
                                      graph::vertex_id n, const cli::IdFile& file, const std::string& option) {
  std::vector<graph::vertex_id> vertices;
  vertices.reserve(user_ids.size());
  for (std::size_t i = 0; i < user_ids.size(); ++i) {
    try {
      vertices.push_back(to_internal_id(user_ids[i], id_base, n, option));
    } catch (const UsageError& e) {
      throw UsageError(cli::id_location(file, i) + e.what());
    }
  }
  return vertices;
}

}  // namespace

std::vector<graph::vertex_id> resolve_targets(const std::vector<std::uint64_t>& user_ids, std::uint32_t id_base,
                                              graph::vertex_id num_vertices, const cli::IdFile& file) {
  return map_ids(user_ids, id_base, num_vertices, file, "--targets");
}

std::vector<graph::vertex_id> resolve_sources(const std::vector<std::uint64_t>& user_ids,
                                              std::uint32_t random_sources, std::uint64_t seed,
                                              std::uint32_t id_base,
                                              const std::vector<graph::edge_offset>& offsets,
                                              const cli::IdFile& file) {
  const auto n = static_cast<graph::vertex_id>(offsets.empty() ? 0 : offsets.size() - 1);
  if (n == 0) throw UsageError("the graph has no vertices: there is no source to start from");
  if (random_sources > 0) return choose_random_sources(offsets, random_sources, seed);
  if (user_ids.empty()) return {0};
  return map_ids(user_ids, id_base, n, file, file.path.empty() ? "--source" : "--sources");
}

}  // namespace app
