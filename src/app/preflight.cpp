#include "app/preflight.hpp"

#include <omp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include "cli/id_file.hpp"
#include "graph/declared_vertices.hpp"
#include "graph/error.hpp"
#include "graph/generators.hpp"

namespace app {

namespace fs = std::filesystem;

void check_writable(const std::string& path, const std::string& option) {
  if (path.empty() || path == "-") return;
  const fs::path file(path);
  const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  std::error_code ec;
  // A FIFO or device is written in place: its own permission decides.
  if (fs::exists(file, ec) && !fs::is_regular_file(file, ec) && !fs::is_symlink(file, ec)) {
    if (::access(path.c_str(), W_OK) != 0)
      throw UsageError(option + " " + path + ": cannot be written (" + std::strerror(errno) + ")");
    return;
  }
  // A regular file is replaced through a temporary file beside it.
  if (fs::is_directory(dir, ec) && ::access(dir.c_str(), W_OK | X_OK) != 0)
    throw UsageError(option + " " + path + ": directory '" + dir.string() + "' is not writable (" +
                     std::strerror(errno) + ")");
  if (fs::exists(file, ec) && ::access(path.c_str(), W_OK) != 0)
    throw UsageError(option + " " + path + ": the file is not writable (" + std::strerror(errno) + ")");
}

std::optional<DeclaredGraph> declared_graph(const AppOptions& o) {
  DeclaredGraph d;
  if (o.generated()) {
    const graph::GeneratorSpec spec = graph::GeneratorSpec::parse(o.generate_spec);
    switch (spec.kind) {
      case graph::GeneratorSpec::Kind::Rmat: d.vertices = std::uint64_t{1} << spec.scale; break;
      case graph::GeneratorSpec::Kind::Grid: d.vertices = std::uint64_t{spec.rows} * spec.cols; break;
      case graph::GeneratorSpec::Kind::Uniform: d.vertices = std::uint64_t{spec.n}; break;
    }
    d.name = o.generate_spec;
    d.phase = "generating";
    return d;
  }
  graph::Format format = graph::Format::Auto;
  try {
    format = graph::parse_format(o.format);
  } catch (const graph::InputError&) {
    return std::nullopt;  // the loader refuses it
  }
  const std::optional<graph::DeclaredVertices> header = graph::declared_vertices(o.graph_path, format);
  // An empty graph is the loader's to refuse, whatever the ids.
  if (!header || header->vertices == 0) return std::nullopt;
  d.vertices = header->vertices;
  d.id_base = 1;  // .gr and .mtx number vertices from 1
  d.name = o.graph_path;
  d.declared = " declared on line " + std::to_string(header->line);
  d.phase = "loading";
  return d;
}

void check_ids_against_spec(const AppOptions& o) {
  const std::optional<DeclaredGraph> d = declared_graph(o);
  if (!d) return;
  const std::uint64_t last = d->id_base + d->vertices - 1;
  const auto check = [&](std::uint64_t id, const std::string& option, const std::string& location) {
    if (id < d->id_base || id > last)
      throw UsageError(location + option + " " + std::to_string(id) + " is not a vertex of " + d->name + " (" +
                       std::to_string(d->vertices) + " vertices" + d->declared + ", ids " +
                       std::to_string(d->id_base) + " to " + std::to_string(last) + "); checked before " +
                       d->phase + " it");
  };
  const std::string sources_option = o.sources_file.path.empty() ? "--source" : "--sources";
  for (std::size_t i = 0; i < o.sources.size(); ++i)
    check(o.sources[i], sources_option, cli::id_location(o.sources_file, i));
  if (o.path_to) check(*o.path_to, "--path-to", "");
  for (std::size_t i = 0; i < o.targets.size(); ++i)
    check(o.targets[i], "--targets", cli::id_location(o.targets_file, i));
}

void preflight_warnings(const AppOptions& o, std::ostream& err) {
  const int cores = omp_get_num_procs();
  if (o.threads > cores)
    err << "sssp: warning: --threads " << o.threads << " is more than this machine's " << cores
        << " cores: the CPU solvers and the loader will share them\n";
}

}  // namespace app
