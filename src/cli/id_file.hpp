// Files of vertex ids, one per line (--sources FILE in every front end,
// sssp's --targets FILE): one reader, so both take the same lines and refuse
// a bad one with the same "FILE:LINE: ..." message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cli {

struct IdFile {
  std::string path;
  std::vector<std::uint64_t> ids;    // as written (the graph file's id base)
  std::vector<std::uint64_t> lines;  // the line each id came from, for messages about it
};

// One id per line (surrounding blanks allowed); blank lines and lines
// starting with # are skipped. Throws UsageError "--OPTION: cannot open PATH",
// "PATH:LINE: 'TOKEN' is not a vertex id (--OPTION)" or "--OPTION: PATH names
// no vertex". `option` is the name without dashes.
IdFile read_id_file(const std::string& path, const std::string& option);

// "PATH:LINE: " for the id at `index` of a file, "" when the ids did not
// come from a file: the prefix of a message about one id.
std::string id_location(const IdFile& file, std::size_t index);

}  // namespace cli
