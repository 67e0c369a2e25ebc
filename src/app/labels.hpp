// --labels: edge lists whose vertices are strings (NetworkX, CSV exports).
// The loader numbers the labels 0, 1, ... in order of first appearance
// (graph::LoadOptions::labels); here the options that name vertices
// (--source, --sources FILE, --targets, --path-to) are read as labels and,
// once the graph is loaded, turned into those numbers. --output prints the
// labels back (app/distance_output.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/options.hpp"

namespace app {

// A file of labels, one per line (surrounding blanks dropped); blank lines
// and lines starting with # are skipped. Throws UsageError naming the file.
struct LabelFile {
  std::string path;
  std::vector<std::string> labels;
  std::vector<std::uint64_t> lines;  // the line each label came from
};
LabelFile read_label_file(const std::string& path, const std::string& option);

// `options` with the labels it names replaced by the graph's vertex ids
// (0-based; `labels[id]` is the label of id). Throws UsageError naming the
// label (and its file and line) that is not in the graph.
AppOptions resolve_labels(const AppOptions& options, const std::vector<std::string>& labels);

}  // namespace app
