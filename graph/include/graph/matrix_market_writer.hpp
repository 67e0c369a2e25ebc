// Writing a graph as a Matrix Market coordinate file (integer weights,
// 1-based ids), so generated graphs can be fed to other codes and to `sssp`.
#pragma once

#include <string>

#include "graph/csr.hpp"

namespace graph {

struct MatrixMarketWriteOptions {
  // true: "symmetric", only entries with row >= col (the lower triangle, as
  // the format requires); the graph must then be symmetric with equal weights
  // both ways, which is checked (std::invalid_argument otherwise).
  // false: "general", every arc once.
  bool symmetric = false;
  std::string comment;  // written as "% ..." lines after the banner; may hold newlines
};

// Writes through detail::AtomicFile (graph/atomic_file.hpp): a regular file
// atomically (temporary file, then rename), a FIFO or device in place, a
// symlink followed; throws InputError(CannotOpen) naming the path when it
// cannot be written. Formats in parallel (OpenMP).
void write_matrix_market(const std::string& path, const IntCsr& graph,
                         const MatrixMarketWriteOptions& options = {});

// True when every arc (u, v, w) has its mirror (v, u, w).
bool is_symmetric(const IntCsr& graph);

}  // namespace graph
