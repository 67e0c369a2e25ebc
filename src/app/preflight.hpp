// Checks `sssp` makes before it loads or generates anything, so that a typo
// or a missing permission costs a second, not a long run: output paths that
// cannot be written, ids beyond the vertex count a generated graph's spec or
// a .gr/.mtx file's header declares, and a thread count above the machine's
// cores (a warning, not a refusal).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "app/options.hpp"

namespace app {

// Throws UsageError naming the option when `path` (a --output or --json
// file; "-" is stdout and always fine) cannot be created or replaced: its
// directory is not writable, or the file itself is not.
void check_writable(const std::string& path, const std::string& option);

// The graph's vertex count where it is known before the long phase: from
// --generate's spec, or from a .gr or .mtx file's header
// (graph::declared_vertices); none for other inputs.
struct DeclaredGraph {
  std::uint64_t vertices = 0;
  std::uint32_t id_base = 0;  // the ids the user gives
  std::string name;           // the spec or the file
  std::string declared;       // where the count comes from: "" or " declared on line 5"
  std::string phase;          // "generating" or "loading"
};
std::optional<DeclaredGraph> declared_graph(const AppOptions& options);

// Throws UsageError for --source, --sources, --path-to and --targets ids that
// cannot be vertices of the declared graph; an id from a file is named by
// its line.
void check_ids_against_spec(const AppOptions& options);

// Warnings on `err` ("sssp: warning: ..."): --threads above the cores.
void preflight_warnings(const AppOptions& options, std::ostream& err);

}  // namespace app
