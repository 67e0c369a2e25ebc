// --output: what the distance file holds, gathered while the run goes on and
// written only after it succeeded. One source: "id distance" lines (the
// format of the reference .dist files); several: one column per source; with
// --targets: one "source target distance" line per pair
// (graph/distance_io.hpp writes all three, through graph/atomic_file.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph/atomic_file.hpp"
#include "graph/distance_io.hpp"
#include "graph/types.hpp"

namespace app {

template <class Weight>
class DistanceOutput {
 public:
  using Dist = graph::distance_t<Weight>;

  // `sources` and `targets` are 0-based; targets empty: every vertex.
  DistanceOutput(std::string path, std::vector<graph::vertex_id> sources, std::vector<graph::vertex_id> targets,
                 std::uint32_t id_base)
      : path_(std::move(path)),
        sources_(std::move(sources)),
        targets_(std::move(targets)),
        id_base_(id_base),
        rows_(sources_.size()),
        kept_(sources_.size(), false) {}

  bool wanted() const { return !path_.empty(); }
  // Whether each kept row holds every vertex (no --targets).
  bool keeps_whole_rows() const { return wanted() && targets_.empty(); }

  // Keeps source `index`'s distances (only the targets' with --targets); the
  // first call for an index wins: the file holds the first strategy's result.
  void keep(std::size_t index, const std::vector<Dist>& distances, const std::string& strategy) {
    if (!wanted() || kept_[index]) return;
    if (targets_.empty()) {
      rows_[index] = distances;
    } else {
      rows_[index].clear();
      for (const graph::vertex_id t : targets_) rows_[index].push_back(distances[t]);
    }
    kept_[index] = true;
    if (from_.empty()) from_ = strategy;
  }

  // Writes the distances into `out` (opened on the --output path) and
  // finishes it; the caller commits it, together with the run's other outputs.
  void stage(graph::detail::AtomicFile& out) const {
    const Dist infinity = graph::infinite_distance<Weight>();
    if (!targets_.empty()) {
      graph::write_target_distances<Dist>(out, user_ids(sources_), user_ids(targets_), rows_, infinity);
    } else if (sources_.size() == 1) {
      graph::write_distances<Dist>(out, rows_.front(), infinity, id_base_);
    } else {
      graph::write_distance_table<Dist>(out, user_ids(sources_), rows_, infinity, id_base_);
    }
  }

  // The report's line after "distances     FILE ".
  std::string describe() const {
    std::string what = sources_.size() == 1 ? "source " + std::to_string(std::uint64_t{sources_.front()} + id_base_)
                                            : std::to_string(sources_.size()) + " sources";
    if (!targets_.empty()) what += " x " + std::to_string(targets_.size()) + " targets";
    if (!from_.empty()) what += ", from " + from_;
    return "(" + what + ")";
  }

 private:
  std::vector<std::uint64_t> user_ids(const std::vector<graph::vertex_id>& vertices) const {
    std::vector<std::uint64_t> ids;
    ids.reserve(vertices.size());
    for (const graph::vertex_id v : vertices) ids.push_back(std::uint64_t{v} + id_base_);
    return ids;
  }

  std::string path_;
  std::vector<graph::vertex_id> sources_;
  std::vector<graph::vertex_id> targets_;
  std::uint32_t id_base_;
  std::vector<std::vector<Dist>> rows_;
  std::vector<bool> kept_;
  std::string from_;
};

}  // namespace app
