// Loading a graph file into a CSR: format detection, weights, symmetrising,
// the binary cache, and a report of what was done.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/build_csr.hpp"
#include "graph/csr.hpp"
#include "graph/weights.hpp"

namespace graph {

// Csv: an edge list with a header line and commas (graph/src/io/edge_text.hpp).
enum class Format { Auto, MatrixMarket, Dimacs, EdgeList, Binary, Csv };

// "auto", "mtx", "gr", "el", "bin", "csv"; throws InputError(BadArgument) otherwise.
Format parse_format(const std::string& name);
const char* to_string(Format f);
// By extension (.mtx, .gr, .el/.wel/.txt/.edges, .csv, .bin; a trailing .gz is allowed
// for text formats); throws InputError(BadArgument) when it cannot tell.
Format detect_format(const std::string& path);

struct LoadOptions {
  Format format = Format::Auto;
  bool undirected = false;      // symmetrise a directed (general) file
  WeightRule weights;           // file / unit / random:LO:HI, with its seed
  bool use_cache = false;       // read/write the binary cache
  std::string cache_path;       // empty: beside the input, "<input>.bin.cache"
  bool progress = true;         // progress on stderr for long loads
  int threads = 0;              // 0: all cores
  // Edge lists (el, csv): vertex tokens are labels, numbered 0, 1, ... in
  // order of first appearance (LoadReport::labels); never cached.
  bool labels = false;
};

struct LoadReport {
  std::string path;
  Format format = Format::Auto;     // the format actually read
  std::uint64_t file_bytes = 0;
  double parse_seconds = 0;         // reading + parsing text (0 when from cache)
  double build_seconds = 0;         // COO -> CSR
  double total_seconds = 0;
  bool from_cache = false;
  bool cache_written = false;
  double cache_saved_seconds = 0;   // from cache: what parsing + building took originally, minus this load
  bool file_has_weights = false;    // false for pattern files / unweighted edge lists
  bool symmetric = false;           // the graph is undirected (symmetric file or --undirected)
  std::uint32_t id_base = 1;        // ids as users see them: 1 for .mtx/.gr, 0 for edge lists
  std::string weight_rule;          // WeightRule::describe() of the rule applied
  BuildStats build;                 // entries, self-loops and duplicates dropped
  std::vector<std::string> labels;  // LoadOptions::labels: the label of each vertex id
};

// Where load_graph keeps the binary cache of `path`: `cache_path` when given,
// else beside the input, "<path>.bin.cache".
std::string cache_path_for(const std::string& path, const std::string& cache_path);

// Throws InputError naming file and line on any bad input. Path "-" reads
// standard input (a pipe or a redirected file; its format must be given,
// and it is never cached); messages name it "stdin".
AnyCsr load_graph(const std::string& path, const LoadOptions& options, LoadReport* report = nullptr);

}  // namespace graph
