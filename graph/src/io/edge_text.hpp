// Internal to graph/src/io: edge lists that the edge list reader cannot read
// as they are, rewritten line for line into its "U V [W]" form first, so
// that its checks and its error lines apply unchanged:
//  - CSV with a header (pandas, spreadsheets): the first line that is not a
//    comment names the columns and becomes a comment; commas separate the
//    fields, which may be quoted ("A","B",3);
//  - string labels (NetworkX, --labels): each vertex token is a label,
//    numbered 0, 1, ... in order of first appearance.
// One output line per input line: an error's line number is the file's.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace graph::io::detail {

// Throws InputError naming `name` and the line for a header of other than
// two or three columns, a line with a different field count, or an
// unterminated quote.
std::string csv_to_edge_list(const char* text, std::size_t size, const std::string& name);

// Replaces the first two tokens of every entry line by ids; `labels`
// receives the label of each id. Throws InputError naming `name` and the
// line for a line with fewer than two tokens or more vertices than ids.
std::string number_labels(const char* text, std::size_t size, const std::string& name,
                          std::vector<std::string>& labels);

}  // namespace graph::io::detail
