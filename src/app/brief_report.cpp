#include "app/brief_report.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "app/report.hpp"
#include "graph/metrics.hpp"

namespace app {

namespace {

constexpr std::size_t kValueColumn = 14;  // "graph         " : labels are padded to it

// `line` wrapped at spaces to `width` columns, continuation lines starting
// with `indent`.
std::string wrap_line(const std::string& line, std::size_t width, const std::string& indent) {
  if (line.size() <= width) return line + "\n";
  std::string out, current;
  std::size_t pos = 0;
  // Leading blanks belong to the first word (an already indented line).
  std::size_t start = line.find_first_not_of(' ');
  current = line.substr(0, start == std::string::npos ? line.size() : start);
  pos = current.size();
  bool first_word = true;
  while (pos < line.size()) {
    const std::size_t space = line.find(' ', pos);
    const std::size_t end = space == std::string::npos ? line.size() : space;
    const std::string word = line.substr(pos, end - pos);
    pos = end == line.size() ? end : end + 1;
    if (word.empty()) {  // runs of blanks (label padding) stay as they are
      current += ' ';
      continue;
    }
    const bool fits = current.size() + (first_word ? 0 : 1) + word.size() <= width;
    if (!first_word && !fits && current.size() > indent.size()) {
      while (!current.empty() && current.back() == ' ') current.pop_back();
      out += current + "\n";
      current = indent + word;
    } else {
      if (!first_word) current += ' ';
      current += word;
    }
    first_word = false;
  }
  while (!current.empty() && current.back() == ' ') current.pop_back();
  return out + current + "\n";
}

std::string wrap_line(const std::string& line, std::size_t width) {
  // "label         value": continuation lines start at the value's column;
  // any other line keeps its own indentation.
  const bool labelled = line.size() > kValueColumn && line[0] != ' ' && line[kValueColumn - 1] == ' ' &&
                        line[kValueColumn] != ' ' && line.find("  ") < kValueColumn;
  const std::size_t own = std::min(line.find_first_not_of(' '), line.size());
  return wrap_line(line, width, std::string(labelled ? kValueColumn : own, ' '));
}

// The lines of `text` whose label (first word) is one of `labels`.
std::string keep_lines(const std::string& text, const std::set<std::string>& labels) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    const std::string label = line.substr(0, line.find(' '));
    if (labels.count(label)) out += line + "\n";
  }
  return out;
}

std::string join(const std::vector<std::string>& items, const char* separator = ", ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

// One row of the brief table: a strategy's sources solved one by one
// (their records together) or in batches (the batch's record).
struct Row {
  std::string strategy, device;
  std::uint32_t sources = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;  // see format_brief_results
  double mteps = 0;
  double reached = 0;  // mean over sources
  std::string validation;
  std::optional<double> speedup;
};

std::string count_cell(double value) {
  return value == static_cast<double>(static_cast<std::uint64_t>(value)) ? format_fixed(value, 0)
                                                                        : format_fixed(value, 1);
}

std::vector<Row> brief_rows(const RunSummary& run) {
  std::vector<Row> rows;
  struct Group {
    Row row;
    std::uint64_t reached_arcs = 0, reached_vertices = 0, failed = 0, checked = 0;
    double median_sum = 0;
  };
  std::vector<Group> groups;
  for (const RunRecord& r : run.records) {
    if (r.batched) continue;  // its batch has a row of its own
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.row.strategy == r.strategy && g.row.device == r.device;
    });
    if (it == groups.end()) {
      groups.emplace_back();
      it = groups.end() - 1;
      it->row.strategy = r.strategy;
      it->row.device = r.device;
      it->row.min_ms = r.time.min_ms;
      it->row.max_ms = r.time.max_ms;
    }
    Group& g = *it;
    g.row.sources += 1;
    g.median_sum += r.time.median_ms;
    g.row.min_ms = std::min(g.row.min_ms, r.time.min_ms);
    g.row.max_ms = std::max(g.row.max_ms, r.time.max_ms);
    g.reached_arcs += r.reached_arcs;
    g.reached_vertices += r.reached_vertices;
    if (r.validation != Check::NotRun) g.checked += 1;
    if (r.validation == Check::Failed) g.failed += 1;
  }
  for (Group& g : groups) {
    Row row = g.row;
    row.median_ms = g.median_sum / row.sources;
    row.mteps = graph::mteps(g.reached_arcs, g.median_sum);
    row.reached = static_cast<double>(g.reached_vertices) / row.sources;
    if (g.checked > 0)
      row.validation = g.failed == 0 ? "passed (" + std::to_string(g.checked) + ")"
                                     : "FAILED " + std::to_string(g.failed) + "/" + std::to_string(g.checked);
    rows.push_back(row);
  }
  for (const BatchRecord& b : run.batches) {
    Row row;
    row.strategy = b.strategy + " (batch)";
    row.device = b.device;
    row.sources = b.sources;
    row.median_ms = b.time.median_ms;
    row.min_ms = b.time.min_ms;
    row.max_ms = b.time.max_ms;
    row.mteps = b.mteps;
    std::uint64_t reached = 0, count = 0;
    for (const RunRecord& r : run.records)
      if (r.batched && r.strategy == b.strategy && r.device == b.device) {
        reached += r.reached_vertices;
        count += 1;
      }
    row.reached = count ? static_cast<double>(reached) / static_cast<double>(count) : 0;
    if (b.validated > 0)
      row.validation = b.failed == 0 ? "passed (" + std::to_string(b.validated) + ")"
                                     : "FAILED " + std::to_string(b.failed) + "/" + std::to_string(b.validated);
    rows.push_back(row);
  }
  // Against the CPU delta-stepping solved one source at a time, where it ran
  // beside others.
  const auto base = std::find_if(rows.begin(), rows.end(),
                                 [](const Row& r) { return r.strategy == "delta-stepping" && r.device == "cpu"; });
  if (rows.size() > 1 && base != rows.end()) {
    const double base_per_source = base->median_ms;
    for (Row& r : rows) {
      const double per_source = r.strategy.size() > 8 && r.strategy.compare(r.strategy.size() - 8, 8, " (batch)") == 0
                                    ? r.median_ms / std::max<std::uint32_t>(r.sources, 1)
                                    : r.median_ms;
      if (per_source > 0) r.speedup = base_per_source / per_source;
    }
  }
  return rows;
}

}  // namespace

std::string wrap_report(const std::string& text, std::size_t width) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += wrap_line(line, width);
  return out;
}

std::string format_strategy_all_line(const RunSummary& run, const std::string& skipped) {
  return "strategy      all -> " + join(run.strategies) + " (skipped: " + skipped + ")\n";
}

std::string format_brief_header(const RunSummary& run, const AppOptions& o, const BriefContext& context) {
  std::string text = keep_lines(format_graph_header(run.graph), {"graph", "vertices", "arcs", "weights", "load",
                                                                  "generate"});
  text += keep_lines(format_device_header(run.device), {"device"});
  if (context.uses_delta) text += format_delta_line(run.delta);
  if (run.contraction && (run.contraction->used || o.contract != ContractRequest::Auto)) {
    text += format_contraction_line(*run.contraction, run.graph.vertices, run.graph.arcs);
    text += format_hierarchy_line(*run.contraction);
  }
  if (run.auto_strategy) {
    text += format_auto_strategy_line(*run.auto_strategy);
  } else if (o.strategy_all) {
    text += format_strategy_all_line(run, skipped_by_all(run.device.kind == "gpu" ? DeviceKind::Gpu : DeviceKind::Cpu));
  } else {
    text += "strategy      " + join(run.strategies) + "\n";
  }
  text += "sources       " + context.sources + "\n";
  if (context.several_sources) text += "batch         " + run.batch_reason + "\n";
  return wrap_report(text);
}

std::string format_brief_results(const RunSummary& run, const AppOptions& o) {
  if (o.delta_sweep) {
    return wrap_report("delta sweep (solve ms: mean over " + std::to_string(run.sources.size()) +
                       " source(s) of the per-source median)\n") +
           format_sweep_table(run.summary);
  }
  const std::vector<Row> rows = brief_rows(run);
  if (rows.empty()) return "";
  const bool several_devices = std::any_of(rows.begin(), rows.end(), [&](const Row& r) { return r.device != rows[0].device; });
  const bool several_sources = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.sources > 1; });
  // A sources column only where rows differ; the caption says it otherwise.
  const bool sources_differ =
      std::any_of(rows.begin(), rows.end(), [&](const Row& r) { return r.sources != rows[0].sources; });
  const bool any_batch = !run.batches.empty();
  const bool validated = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return !r.validation.empty(); });
  const bool speedups = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.speedup.has_value(); });

  using A = Table::Align;
  std::vector<Table::Column> columns{{"strategy", A::Left}};
  if (several_devices) columns.push_back({"device", A::Left});
  if (sources_differ) columns.push_back({"sources", A::Right});
  for (const char* c : {"median ms", "min ms", "max ms", "MTEPS", "reached"}) columns.push_back({c, A::Right});
  if (speedups) columns.push_back({"speedup", A::Right});
  if (validated) columns.push_back({"validation", A::Left});
  Table table(columns);
  for (const Row& r : rows) {
    std::vector<std::string> cells{r.strategy};
    if (several_devices) cells.push_back(r.device);
    if (sources_differ) cells.push_back(std::to_string(r.sources));
    for (const double ms : {r.median_ms, r.min_ms, r.max_ms}) cells.push_back(format_fixed(ms, 3));
    cells.push_back(format_fixed(r.mteps, 1));
    cells.push_back(count_cell(r.reached));
    if (speedups) cells.push_back(r.speedup ? format_fixed(*r.speedup, 2) + "x" : "-");
    if (validated) cells.push_back(r.validation.empty() ? "-" : r.validation);
    table.add_row(cells);
  }
  const std::string runs = std::to_string(o.runs) + " timed run" + (o.runs == 1 ? "" : "s");
  const std::string where = several_devices ? "" : rows[0].device == "gpu" ? " on the GPU" : " on the CPU";
  std::string caption = "solve" + where + ", " + runs + (several_sources ? " per source" : "") + " after a warm-up";
  if (several_sources && !sources_differ) caption += ", " + std::to_string(rows[0].sources) + " sources";
  if (several_sources) caption += "\nmedian ms: the mean of the sources' medians; reached: vertices per source";
  if (any_batch) caption += "\na batch row times all its sources together";
  if (speedups) caption += "\nspeedup: the CPU delta-stepping's time per source over the row's";
  std::string text = wrap_report(caption + "\n") + table.render();
  for (const BatchRecord& b : run.batches)
    text += wrap_report("batch         " + b.strategy + ": " + std::to_string(b.sources) + " sources in " +
                        std::to_string(b.calls) + " call(s), " + format_fixed(b.per_source_ms, 3) +
                        " ms per source (" + b.solver + ")\n");
  return text;
}

std::string format_report_path(const PathInfo& path, std::size_t ends) {
  std::string text = "distance " + vertex_name(path, path.source) + " -> " + vertex_name(path, path.target) + ": " +
                     (path.reachable ? path.distance : std::string("unreachable")) + "\n";
  if (!path.vertices.empty()) {
    // A road graph's path runs to thousands of vertices: the report shows
    // both ends and says where the whole path is.
    const std::size_t n = path.vertices.size();
    const bool elide = n > 2 * ends + 2;
    std::string line = "path (" + std::to_string(n - 1) + " arcs): ";
    for (std::size_t i = 0; i < n; ++i) {
      if (elide && i == ends) {
        line += " -> ... (" + std::to_string(n - 2 * ends) + " more: -q prints the whole path, --json holds it)";
        i = n - ends - 1;
        continue;
      }
      line += (i ? " -> " : "") + vertex_name(path, path.vertices[i]);
    }
    text += wrap_line(line, kReportWidth, std::string(kValueColumn, ' '));
  }
  if (!path.note.empty()) text += wrap_report("              (" + path.note + ")\n");
  return text;
}

std::string reach_warnings(const RunSummary& run) {
  const std::uint64_t n = run.graph.vertices;
  if (n < 100) return "";
  std::map<std::uint64_t, std::uint64_t> reached;  // source -> the most any strategy reached
  for (const RunRecord& r : run.records) reached[r.source] = std::max(reached[r.source], r.reached_vertices);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> few;
  for (const auto& [source, count] : reached)
    if (count * 100 < n) few.emplace_back(source, count);
  if (few.empty()) return "";
  std::string text;
  constexpr std::size_t kNamed = 3;
  for (std::size_t i = 0; i < few.size() && i < kNamed; ++i)
    text += "sssp: warning: source " + vertex_name(run.graph.labels.get(), few[i].first) + " reaches " +
            std::to_string(few[i].second) + " of " + std::to_string(n) +
            " vertices (under 1%): its times say little about the graph; pick "
            "another with --source, or --random-sources K\n";
  if (few.size() > kNamed)
    text += "sssp: warning: and " + std::to_string(few.size() - kNamed) + " more sources reach under 1% of the vertices\n";
  return text;
}

}  // namespace app
