// Progress lines on stderr for the long phases before a solve (generating a
// large graph takes seconds to minutes; the loader reports its own): one
// line when the phase starts, its time when it ends. -q silences them.
#pragma once

#include <cstdint>
#include <cstdio>

#include "graph/generators.hpp"

namespace app {

class GenerationProgress {
 public:
  // Graphs below this many generated edges take well under a second.
  static constexpr std::uint64_t kAnnounceEdges = std::uint64_t{1} << 22;

  GenerationProgress(const graph::GeneratorSpec& spec, bool enabled) {
    std::uint64_t vertices = 0, edges = 0;
    switch (spec.kind) {
      case graph::GeneratorSpec::Kind::Rmat:
        vertices = std::uint64_t{1} << spec.scale;
        edges = vertices * spec.edge_factor;
        break;
      case graph::GeneratorSpec::Kind::Grid:
        vertices = std::uint64_t{spec.rows} * spec.cols;
        edges = 2 * vertices;
        break;
      case graph::GeneratorSpec::Kind::Uniform:
        vertices = spec.n;
        edges = vertices * spec.degree;
        break;
    }
    enabled_ = enabled && edges >= kAnnounceEdges;
    if (!enabled_) return;
    std::fprintf(stderr, "sssp: generating %s: %llu vertices, %llu edges ...\n", spec.describe().c_str(),
                 static_cast<unsigned long long>(vertices), static_cast<unsigned long long>(edges));
    std::fflush(stderr);
  }

  void done(double ms) const {
    if (enabled_) std::fprintf(stderr, "sssp: generated in %.1f s\n", ms / 1e3);
  }

 private:
  bool enabled_ = false;
};

}  // namespace app
