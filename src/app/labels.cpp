#include "app/labels.hpp"

#include <fstream>
#include <unordered_map>

namespace app {

LabelFile read_label_file(const std::string& path, const std::string& option) {
  std::ifstream in(path);
  if (!in) throw UsageError("--" + option + ": cannot open " + path);
  LabelFile file;
  file.path = path;
  std::string line;
  for (std::uint64_t number = 1; std::getline(in, line); ++number) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::size_t last = line.find_last_not_of(" \t\r");
    file.labels.push_back(line.substr(first, last - first + 1));
    file.lines.push_back(number);
  }
  if (file.labels.empty()) throw UsageError("--" + option + ": " + path + " names no vertex");
  return file;
}

AppOptions resolve_labels(const AppOptions& o, const std::vector<std::string>& labels) {
  if (!o.labels) return o;
  std::unordered_map<std::string, std::uint64_t> ids;
  for (std::size_t i = 0; i < labels.size(); ++i) ids.emplace(labels[i], i);
  const auto id_of = [&](const std::string& label, const std::string& where) {
    const auto it = ids.find(label);
    if (it == ids.end())
      throw UsageError(where + "'" + label + "' is not a vertex label of " + o.graph_path + " (" +
                       std::to_string(labels.size()) + " labels)");
    return it->second;
  };
  const auto where = [](const std::string& option, const std::string& path, const std::vector<std::uint64_t>& lines,
                        std::size_t i) {
    return path.empty() ? option + ": " : path + ":" + std::to_string(lines[i]) + ": ";
  };
  AppOptions r = o;
  r.sources.clear();
  for (std::size_t i = 0; i < o.source_labels.size(); ++i)
    r.sources.push_back(id_of(o.source_labels[i], where("--source", o.sources_file.path, o.sources_file.lines, i)));
  if (!o.sources_file.path.empty()) r.sources_file.ids = r.sources;
  r.targets.clear();
  for (std::size_t i = 0; i < o.target_labels.size(); ++i)
    r.targets.push_back(id_of(o.target_labels[i], where("--targets", o.targets_file.path, o.targets_file.lines, i)));
  if (!o.targets_file.path.empty()) r.targets_file.ids = r.targets;
  if (o.path_to_label) r.path_to = id_of(*o.path_to_label, "--path-to ");
  return r;
}

}  // namespace app
