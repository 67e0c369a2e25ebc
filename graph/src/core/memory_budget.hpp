// Internal to graph/src (readers and generators): refusing a graph whose CSR
// cannot fit in host memory before anything large is allocated.
//
// A header may declare up to 2^32 - 2 vertices with a single entry line;
// build_csr then needs about 40 bytes per vertex (degrees, counts, two offset
// arrays, cursors), i.e. 160 GB, from a file of 60 bytes. With Linux's
// overcommit such an allocation often "succeeds" and the process is killed
// later while touching the pages, with no message. So every reader checks the
// planned peak against the memory the process can have and raises
// InputError(Overflow) naming the line that set the size.
#pragma once

#include <cstdint>
#include <string>

namespace graph::detail {

// Peak bytes build_csr needs for n vertices and `entries` COO entries
// (mirrored when symmetric): 40 bytes per vertex, and per entry the COO
// (12), the scatter slots (8) and the final arrays (8), twice when mirrored.
std::uint64_t csr_build_bytes(std::uint64_t vertices, std::uint64_t entries, bool symmetric);

// Bytes this process may plan to use: the smallest of physical memory,
// RLIMIT_AS, RLIMIT_DATA and the environment variable SSSP_HOST_MEMORY_LIMIT
// (bytes, or with a K/M/G suffix; for tests and shared machines).
std::uint64_t host_memory_budget();

// Throws InputError(Overflow) "name:line: ..." when csr_build_bytes exceeds
// host_memory_budget() (line 0: no line, e.g. a generator spec).
void check_graph_fits(const std::string& name, std::uint64_t line, std::uint64_t vertices, std::uint64_t entries,
                      bool symmetric);

}  // namespace graph::detail
