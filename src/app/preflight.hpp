// Checks `sssp` makes before it loads or generates anything, so that a typo
// or a missing permission costs a second, not a long run: output paths that
// cannot be written, ids beyond a generated graph's vertex count, and a
// thread count above the machine's cores (a warning, not a refusal).
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

// The vertex count of --generate's graph, known from its spec; none for files.
std::optional<std::uint64_t> declared_vertices(const AppOptions& options);

// Throws UsageError for --source, --path-to and --targets ids that cannot be
// vertices of a generated graph (0-based ids below its vertex count).
void check_ids_against_spec(const AppOptions& options);

// Warnings on `err` ("sssp: warning: ..."): --threads above the cores.
void preflight_warnings(const AppOptions& options, std::ostream& err);

}  // namespace app
