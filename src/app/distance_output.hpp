// --output and --json-distances: what the run's distance data holds,
// gathered while the run goes on and written only after it succeeded. One
// source: "id distance" lines (the format of the reference .dist files),
// "id distance predecessor" with --predecessors; several: one column per
// source (and one per source's predecessors); with --targets: one
// "source target distance [predecessor]" line per pair
// (graph/distance_io.hpp writes them, to a file through
// graph/atomic_file.hpp or to stdout for `--output -`).
#pragma once

#include <charconv>
#include <cstdint>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/atomic_file.hpp"
#include "graph/csr.hpp"
#include "graph/distance_io.hpp"
#include "graph/reference.hpp"
#include "graph/types.hpp"

namespace app {

// --json-distances holds at most this many distances (sources x vertices or
// targets): a JSON array of millions of numbers is the wrong tool, --output
// is the right one.
inline constexpr std::uint64_t kMaxJsonDistances = std::uint64_t{1} << 22;

template <class Weight>
class DistanceOutput {
 public:
  using Dist = graph::distance_t<Weight>;

  // `sources` and `targets` are 0-based; targets empty: every vertex.
  // `path` empty: no --output (the rows are kept for --json-distances).
  DistanceOutput(std::string path, std::vector<graph::vertex_id> sources, std::vector<graph::vertex_id> targets,
                 std::uint32_t id_base, bool predecessors,
                 std::shared_ptr<const std::vector<std::string>> labels = nullptr)
      : path_(std::move(path)),
        sources_(std::move(sources)),
        targets_(std::move(targets)),
        id_base_(id_base),
        predecessors_(predecessors),
        rows_(sources_.size()),
        kept_(sources_.size(), false),
        pred_rows_(predecessors ? sources_.size() : 0),
        labels_(std::move(labels)) {}

  // Whether each kept row holds every vertex (no --targets).
  bool keeps_whole_rows() const { return targets_.empty(); }
  bool to_stdout() const { return path_ == "-"; }
  const std::string& path() const { return path_; }

  // Keeps source `index`'s distances (only the targets' with --targets); the
  // first call for an index wins: the output holds the first strategy's result.
  void keep(std::size_t index, const std::vector<Dist>& distances, const std::string& strategy) {
    if (kept_[index]) return;
    rows_[index] = pick(distances);
    kept_[index] = true;
    if (from_.empty()) from_ = strategy;
  }

  // Keeps source `index`'s predecessors beside its distances, when both came
  // from the same solve (the first strategy that gave a tree for it).
  void keep_predecessors(std::size_t index, const std::vector<graph::vertex_id>& predecessors) {
    if (!predecessors_ || predecessors.empty() || !pred_rows_[index].empty()) return;
    pred_rows_[index] = pick(predecessors);
  }

  // Sources whose strategy gave no tree (CPU delta-stepping on float
  // weights) take CPU Dijkstra's: a tree of the same shortest paths.
  void complete_predecessors(const graph::Csr<Weight>& g) {
    if (!predecessors_) return;
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      if (!pred_rows_[i].empty()) continue;
      std::vector<graph::vertex_id> tree;
      (void)graph::dijkstra(g, sources_[i], &tree);
      pred_rows_[i] = pick(tree);
    }
  }

  // Writes the data into `out` (opened on the --output path) and finishes
  // it; the caller commits it, together with the run's other outputs.
  void stage(graph::detail::AtomicFile& out) const { write_to(out); }
  // `--output -`: the same bytes to standard output.
  void write(std::ostream& out) const { write_to(out); }

  // --json-distances: {"strategy", "id_base", "targets", "labels", "rows": [{"source",
  // "distance", "predecessor"}]} (docs/USAGE.md gives the schema).
  nlohmann::json to_json() const {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      nlohmann::json distance = nlohmann::json::array();
      for (const Dist d : rows_[i]) {
        if (d == graph::infinite_distance<Weight>()) distance.push_back(nullptr);
        else distance.push_back(d);
      }
      nlohmann::json predecessor = nullptr;
      if (predecessors_) {
        predecessor = nlohmann::json::array();
        for (const graph::vertex_id p : pred_rows_[i]) {
          if (p == graph::kNoVertex) predecessor.push_back(nullptr);
          else predecessor.push_back(std::uint64_t{p} + id_base_);
        }
      }
      rows.push_back({{"source", std::uint64_t{sources_[i]} + id_base_},
                      {"distance", std::move(distance)},
                      {"predecessor", std::move(predecessor)}});
    }
    nlohmann::json targets = nullptr;
    if (!targets_.empty()) targets = user_ids(targets_);
    nlohmann::json labels = nullptr;
    if (labels_) labels = *labels_;
    return {{"strategy", from_}, {"id_base", id_base_}, {"targets", targets}, {"labels", labels},
            {"rows", std::move(rows)}};
  }

  // The report's line after "distances     FILE ".
  std::string describe() const {
    std::string what = sources_.size() == 1 ? "source " + std::to_string(std::uint64_t{sources_.front()} + id_base_)
                                            : std::to_string(sources_.size()) + " sources";
    if (!targets_.empty()) what += " x " + std::to_string(targets_.size()) + " targets";
    if (predecessors_) what += ", with predecessors";
    if (!from_.empty()) what += ", from " + from_;
    return "(" + what + ")";
  }

 private:
  template <class T>
  std::vector<T> pick(const std::vector<T>& whole) const {
    if (targets_.empty()) return whole;
    std::vector<T> picked;
    picked.reserve(targets_.size());
    for (const graph::vertex_id t : targets_) picked.push_back(whole[t]);
    return picked;
  }

  template <class Out>
  void write_to(Out& out) const {
    if (labels_) return write_labelled(out);
    const Dist infinity = graph::infinite_distance<Weight>();
    const graph::PredecessorRows* preds = predecessors_ ? &pred_rows_ : nullptr;
    if (!targets_.empty()) {
      graph::write_target_distances<Dist>(out, user_ids(sources_), user_ids(targets_), rows_, infinity, preds,
                                          id_base_);
    } else if (sources_.size() == 1) {
      graph::write_distances<Dist>(out, rows_.front(), infinity, id_base_, preds ? &pred_rows_.front() : nullptr);
    } else {
      graph::write_distance_table<Dist>(out, user_ids(sources_), rows_, infinity, id_base_, preds);
    }
  }

  // --labels: the same three formats, every vertex named by its label.
  template <class Out>
  void write_labelled(Out& out) const {
    const std::vector<std::string>& label = *labels_;
    const Dist infinity = graph::infinite_distance<Weight>();
    std::string text;
    const auto flush = [&](bool last) {
      if (!last && text.size() < (std::size_t{1} << 20)) return;
      emit(out, text);
      text.clear();
    };
    const auto distance = [&](Dist d) {
      if (d == infinity) text += "-1";
      else if constexpr (std::is_integral_v<Dist>) text += std::to_string(d);
      else text += graph_number(d);
    };
    const auto predecessor = [&](graph::vertex_id p) { text += p == graph::kNoVertex ? std::string(" -1") : " " + label[p]; };
    if (!targets_.empty()) {
      text += predecessors_ ? "# source target distance predecessor\n" : "# source target distance\n";
      for (std::size_t i = 0; i < sources_.size(); ++i)
        for (std::size_t j = 0; j < targets_.size(); ++j) {
          text += label[sources_[i]] + " " + label[targets_[j]] + " ";
          distance(rows_[i][j]);
          if (predecessors_) predecessor(pred_rows_[i][j]);
          text += '\n';
          flush(false);
        }
    } else {
      if (sources_.size() > 1) {
        text += "# id";
        for (const graph::vertex_id s : sources_) {
          text += " d(" + label[s] + ")";
          if (predecessors_) text += " p(" + label[s] + ")";
        }
        text += '\n';
      }
      const std::size_t n = rows_.empty() ? 0 : rows_.front().size();
      for (std::size_t v = 0; v < n; ++v) {
        text += label[v];
        for (std::size_t i = 0; i < sources_.size(); ++i) {
          text += ' ';
          distance(rows_[i][v]);
          if (predecessors_) predecessor(pred_rows_[i][v]);
        }
        text += '\n';
        flush(false);
      }
    }
    flush(true);
    finish(out);
  }

  // Shortest text that reads back to the same float or double.
  template <class D>
  static std::string graph_number(D d) {
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, d).ptr;
    return std::string(buffer, end);
  }
  static void emit(graph::detail::AtomicFile& out, const std::string& text) { out.write(text); }
  static void emit(std::ostream& out, const std::string& text) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) throw std::runtime_error("write to the output stream failed");
  }
  static void finish(graph::detail::AtomicFile& out) { out.finish(); }
  static void finish(std::ostream& out) {
    out.flush();
    if (!out) throw std::runtime_error("write to the output stream failed");
  }

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
  bool predecessors_;
  std::vector<std::vector<Dist>> rows_;
  std::vector<bool> kept_;
  graph::PredecessorRows pred_rows_;
  std::shared_ptr<const std::vector<std::string>> labels_;  // --labels: each vertex's label
  std::string from_;
};

}  // namespace app
