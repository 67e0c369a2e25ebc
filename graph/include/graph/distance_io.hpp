// Distance files: one line per vertex, "id distance", ids as in the input
// file (id_base added), -1 for unreachable; the format of the reference .dist
// files that come with the real test graphs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/types.hpp"

namespace graph {

// Reads a .dist file into 0-based order; unreachable = -1. Throws InputError
// naming file and line on malformed lines, duplicate or out-of-range ids.
std::vector<double> read_distances(const std::string& path, std::uint32_t id_base = 1);

// Writes atomically (temporary file, then rename): no partial output on error.
template <class Dist>
void write_distances(const std::string& path, const std::vector<Dist>& dist, Dist infinity,
                     std::uint32_t id_base = 1);

}  // namespace graph
