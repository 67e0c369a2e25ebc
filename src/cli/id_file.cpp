#include "cli/id_file.hpp"

#include <fstream>

#include "cli/usage_error.hpp"
#include "cli/values.hpp"

namespace cli {

IdFile read_id_file(const std::string& path, const std::string& option) {
  if (path.empty()) throw UsageError("--" + option + ": empty file name");
  std::ifstream in(path);
  if (!in) throw UsageError("--" + option + ": cannot open " + path);
  IdFile file;
  file.path = path;
  std::string line;
  for (std::uint64_t number = 1; std::getline(in, line); ++number) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto last = line.find_last_not_of(" \t\r");
    const std::string token = line.substr(first, last - first + 1);
    try {
      file.ids.push_back(parse_u64(token, option));
    } catch (const UsageError&) {
      throw UsageError(path + ":" + std::to_string(number) + ": '" + token + "' is not a vertex id (--" + option + ")");
    }
    file.lines.push_back(number);
  }
  if (file.ids.empty()) throw UsageError("--" + option + ": " + path + " names no " + (option == "sources" ? "source" : "vertex"));
  return file;
}

std::string id_location(const IdFile& file, std::size_t index) {
  if (file.path.empty() || index >= file.lines.size()) return "";
  return file.path + ":" + std::to_string(file.lines[index]) + ": ";
}

}  // namespace cli
