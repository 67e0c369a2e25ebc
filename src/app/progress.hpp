// Progress lines on stderr for the long phases before a solve (generating a
// large graph takes seconds to minutes; the loader reports its own): a line
// once the phase has run for a second, and its time when it ends. A phase
// that ends sooner (or is refused at once: a graph too large to build) says
// nothing. -q silences them.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "graph/generators.hpp"

namespace app {

class GenerationProgress {
 public:
  GenerationProgress(const graph::GeneratorSpec& spec, bool enabled) {
    if (!enabled) return;
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
    const std::string what = spec.describe() + ": " + std::to_string(vertices) + " vertices, " +
                             std::to_string(edges) + " edges";
    watcher_ = std::thread([this, what] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (cv_.wait_for(lock, std::chrono::seconds(1), [this] { return finished_; })) return;
      std::fprintf(stderr, "sssp: generating %s ...\n", what.c_str());
      std::fflush(stderr);
      announced_ = true;
    });
  }

  GenerationProgress(const GenerationProgress&) = delete;
  GenerationProgress& operator=(const GenerationProgress&) = delete;
  ~GenerationProgress() { stop(); }

  // The phase ended after `ms`: said only where it was announced.
  void done(double ms) {
    stop();
    if (announced_) std::fprintf(stderr, "sssp: generated in %.1f s\n", ms / 1e3);
  }

 private:
  void stop() {
    if (!watcher_.joinable()) return;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      finished_ = true;
    }
    cv_.notify_one();
    watcher_.join();
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  bool finished_ = false;
  bool announced_ = false;
  std::thread watcher_;
};

}  // namespace app
