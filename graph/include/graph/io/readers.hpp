// The text readers behind graph::load_graph, one per format. Each turns the
// bytes of a file into a COO (0-based ids) plus what the file said about
// itself; load_graph then builds the CSR (build_csr.hpp) from it.
//
// All readers parse in parallel (OpenMP) over chunks split at line
// boundaries and report the first problem in file order as an InputError
// "FILE:LINE: ...". Line numbers are computed only when there is an error.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "graph/csr.hpp"
#include "graph/io/file_data.hpp"
#include "graph/weights.hpp"

namespace graph::io {

struct ReadOptions {
  // File: keep the file's weights (files without weights get
  // WeightRule::for_pattern_file()); Unit / Random: replace them (IntCsr).
  // Replaced weights are still checked to be numbers, but not their range,
  // so --weights unit works on a matrix with negative entries.
  WeightRule weights;
  int threads = 0;        // 0: all cores
  bool progress = false;  // progress on stderr when parsing takes more than about a second
};

struct ParsedGraph {
  std::variant<Coo<std::uint32_t>, Coo<float>> coo;
  bool symmetric = false;    // each undirected edge is stored once: mirror it
  bool has_weights = false;  // the file carries weights
  std::uint32_t id_base = 1;
  std::string weight_rule;   // the rule applied: "file" or WeightRule::describe()
};

// What a .gr or .mtx header declares, read by the reader's own header rules
// from the first `size` bytes of a file (the header alone is enough): the
// vertex count (a .gr's NODES, a .mtx's larger of ROWS and COLS) and the line
// that declares it. Throws InputError as the reader would.
struct DeclaredSize {
  std::uint64_t vertices = 0;
  std::uint64_t line = 0;  // 1-based
};
DeclaredSize read_dimacs_header(const std::string& name, const char* text, std::size_t size);
DeclaredSize read_matrix_market_header(const std::string& name, const char* text, std::size_t size);

// `name` is the file name used in error messages.
ParsedGraph read_matrix_market(const FileData& file, const std::string& name, const ReadOptions& options);
ParsedGraph read_dimacs(const FileData& file, const std::string& name, const ReadOptions& options);
ParsedGraph read_edge_list(const FileData& file, const std::string& name, const ReadOptions& options);

}  // namespace graph::io
