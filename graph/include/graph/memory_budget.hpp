// Refusing work whose memory cannot fit in the host before anything large is
// allocated.
//
// A header may declare up to 2^32 - 2 vertices with a single entry line;
// build_csr then needs about 40 bytes per vertex (degrees, counts, two offset
// arrays, cursors), i.e. 160 GB, from a file of 60 bytes. With Linux's
// overcommit such an allocation often "succeeds" and the process is killed
// later while touching the pages, with no message. So every reader, the
// decompressor, the cache reader and the batch solvers check what they plan
// to hold against the memory the process can have, and raise
// InputError(Overflow) naming what asked for it.
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
// (bytes, or with a K/M/G/T suffix, binary; for tests and shared machines).
// A malformed value of the variable ("512MB", "0.5G", "abc") is refused with
// InputError(BadArgument) rather than ignored.
std::uint64_t host_memory_budget();

// a * b + c, saturating at 2^64 - 1.
std::uint64_t mul_add_sat(std::uint64_t a, std::uint64_t b, std::uint64_t c);

// Throws InputError(Overflow) "name:line: WHAT needs about X GB of host
// memory, more than the Y GB this process may use (...)" when `bytes`
// exceeds host_memory_budget() (line 0: no line).
void check_host_bytes(const std::string& name, std::uint64_t line, std::uint64_t bytes, const std::string& what);

// check_host_bytes for building a graph of `vertices` and `entries`.
void check_graph_fits(const std::string& name, std::uint64_t line, std::uint64_t vertices, std::uint64_t entries,
                      bool symmetric);

}  // namespace graph::detail
