// The vertex count a graph file's header declares, read before the file is
// loaded: ids given on the command line can then be checked in a moment
// instead of after a parse that takes seconds on a large road graph.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "graph/load.hpp"

namespace graph {

struct DeclaredVertices {
  std::uint64_t vertices = 0;
  std::uint64_t line = 0;  // the header line that declares it (1-based)
};

// For a regular .gr or .mtx file, gzip-compressed or not (`format` Auto: told
// by the name): the count its header declares, read by the loader's own
// header rules from the file's first MiB. Nothing for formats without one
// (edge lists, CSV, binary caches), standard input, pipes and devices (what
// is read from them is gone), a file that cannot be read, or a header that is
// missing or invalid there: load_graph then says what is wrong. Never throws.
std::optional<DeclaredVertices> declared_vertices(const std::string& path, Format format = Format::Auto);

}  // namespace graph
