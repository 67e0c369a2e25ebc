#include "app/preflight.hpp"

#include <omp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

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

std::optional<std::uint64_t> declared_vertices(const AppOptions& o) {
  if (!o.generated()) return std::nullopt;
  const graph::GeneratorSpec spec = graph::GeneratorSpec::parse(o.generate_spec);
  switch (spec.kind) {
    case graph::GeneratorSpec::Kind::Rmat: return std::uint64_t{1} << spec.scale;
    case graph::GeneratorSpec::Kind::Grid: return std::uint64_t{spec.rows} * spec.cols;
    case graph::GeneratorSpec::Kind::Uniform: return std::uint64_t{spec.n};
  }
  return std::nullopt;
}

void check_ids_against_spec(const AppOptions& o) {
  const std::optional<std::uint64_t> n = declared_vertices(o);
  if (!n) return;
  const auto check = [&](std::uint64_t id, const std::string& option) {
    if (id >= *n)
      throw UsageError(option + " " + std::to_string(id) + " is not a vertex of " + o.generate_spec + " (" +
                       std::to_string(*n) + " vertices, ids 0 to " + std::to_string(*n - 1) +
                       "); checked before generating it");
  };
  for (const std::uint64_t s : o.sources) check(s, o.sources_file.path.empty() ? "--source" : "--sources");
  if (o.path_to) check(*o.path_to, "--path-to");
  for (const std::uint64_t t : o.targets) check(t, "--targets");
}

void preflight_warnings(const AppOptions& o, std::ostream& err) {
  const int cores = omp_get_num_procs();
  if (o.threads > cores)
    err << "sssp: warning: --threads " << o.threads << " is more than this machine's " << cores
        << " cores: the CPU solvers and the loader will share them\n";
}

}  // namespace app
