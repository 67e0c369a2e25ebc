// The chain contraction and the hierarchy phast builds over its core, cached
// beside the graph (`sssp --cache`) so that a second run pays neither.
// Sealed files (io/sealed_file.hpp): only this user's runs can have written
// them. Each records the identity of the graph it was built from (a content
// hash of its CSR arrays, graph_identity), and a read proves, before
// returning, that it belongs to the graph at hand and that every index in it
// lies in range (what the solvers index with it), so a stale or damaged
// cache is refused with the reason, and the caller rebuilds.
#pragma once

#include <cstdint>
#include <string>

#include "graph/contraction.hpp"
#include "graph/csr.hpp"
#include "graph/hierarchy.hpp"

namespace graph::io {

inline constexpr std::uint32_t kContractionCacheVersion = 1;

// A content hash of the graph's vertex count and CSR arrays.
std::uint64_t graph_identity(const IntCsr& g);

// Beside the graph's binary cache "<x>.bin.cache" (or any other name):
// "<x>.contraction.cache" and "<x>.hierarchy.cache".
std::string contraction_cache_path(const std::string& graph_cache_path);
std::string hierarchy_cache_path(const std::string& graph_cache_path);

void write_contraction_cache(const std::string& path, const IntCsr& g, const ChainContraction& c);
// Throws InputError(CorruptCache) naming the file and why it is refused.
ChainContraction read_contraction_cache(const std::string& path, const IntCsr& g);

// `h` was built over `c.core` of graph `g`.
void write_hierarchy_cache(const std::string& path, const IntCsr& g, const Hierarchy& h);
Hierarchy read_hierarchy_cache(const std::string& path, const IntCsr& g, const ChainContraction& c);

}  // namespace graph::io
