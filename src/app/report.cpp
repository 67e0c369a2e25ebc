#include "app/report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "graph/metrics.hpp"

namespace app {

Table::Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size())
    throw std::logic_error("Table::add_row: " + std::to_string(cells.size()) + " cells for " +
                           std::to_string(columns_.size()) + " columns");
  rows_.push_back(std::move(cells));
}

Table& Table::omit_empty_columns() {
  omit_empty_ = true;
  return *this;
}

std::string Table::render() const {
  // A column that is "-" in every row does not apply to these rows (GPU
  // counters of a CPU run): it is left out rather than printed empty.
  std::vector<bool> keep(columns_.size(), true);
  if (omit_empty_ && !rows_.empty())
    for (std::size_t c = 0; c < columns_.size(); ++c)
      keep[c] = std::any_of(rows_.begin(), rows_.end(), [&](const auto& row) { return row[c] != "-"; });
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = columns_[c].header.size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  const auto emit = [&](const std::vector<std::string>& cells) {
    std::string line;
    bool first = true;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (!keep[c]) continue;
      if (!first) line += "  ";
      first = false;
      const std::string pad(width[c] - cells[c].size(), ' ');
      // Headers follow their column's alignment so they sit over the numbers.
      const bool right = columns_[c].align == Align::Right;
      line += right ? pad + cells[c] : cells[c] + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  std::vector<std::string> headers;
  for (const auto& column : columns_) headers.push_back(column.header);
  emit(headers);
  std::vector<std::string> rules;
  for (const std::size_t w : width) rules.emplace_back(w, '-');
  emit(rules);
  for (const auto& row : rows_) emit(row);
  return out;
}

std::string format_fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string format_delta(double delta) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", delta);
  return buffer;
}

TimingSummary summarize_times(const std::vector<double>& solve_ms) {
  if (solve_ms.empty()) throw std::invalid_argument("summarize_times: no timed runs");
  return graph::summarize_times(solve_ms);
}

const char* to_string(Check c) {
  switch (c) {
    case Check::NotRun: return "not run";
    case Check::Passed: return "passed";
    case Check::Failed: return "failed";
  }
  return "?";
}

void finish_record(RunRecord& record) {
  record.time = summarize_times(record.solve_ms);
  record.mteps = graph::mteps(record.reached_arcs, record.time.median_ms);
  record.work_ratio = graph::work_ratio(record.relaxations, record.reached_arcs);
  record.us_per_round.reset();
  if (record.rounds && *record.rounds > 0)
    record.us_per_round = record.time.median_ms * 1000.0 / static_cast<double>(*record.rounds);
  record.us_per_step.reset();
  if (record.rounds && record.local_steps && *record.rounds + *record.local_steps > 0)
    record.us_per_step = record.time.median_ms * 1000.0 / static_cast<double>(*record.rounds + *record.local_steps);
}

void finish_batch_record(BatchRecord& record) {
  record.time = summarize_times(record.solve_ms);
  const double k = record.sources;
  record.per_source_ms = k > 0 ? record.time.median_ms / k : 0;
  record.sources_per_second = record.time.median_ms > 0 ? k * 1000.0 / record.time.median_ms : 0;
  record.mteps = graph::mteps(record.reached_arcs, record.time.median_ms);
}

namespace {

bool same_delta(const std::optional<double>& a, const std::optional<double>& b) {
  return a.has_value() == b.has_value() && (!a || *a == *b);
}

std::string optional_count(const std::optional<std::uint64_t>& value) {
  return value ? std::to_string(*value) : "-";
}

// A mean of counts: whole numbers as such ("27"), else one decimal ("26.5").
std::string optional_mean(const std::optional<double>& value) {
  if (!value) return "-";
  return *value == static_cast<double>(static_cast<std::uint64_t>(*value)) ? format_fixed(*value, 0)
                                                                          : format_fixed(*value, 1);
}

// "12/2098": rounds of the single-block loop / of the grid; "-" when unknown.
std::string split_cell(const std::optional<std::uint64_t>& narrow, const std::optional<std::uint64_t>& wide) {
  return narrow && wide ? std::to_string(*narrow) + "/" + std::to_string(*wide) : "-";
}
std::string split_cell(const std::optional<double>& narrow, const std::optional<double>& wide) {
  return narrow && wide ? optional_mean(narrow) + "/" + optional_mean(wide) : "-";
}

std::string us_per_round_cell(const std::optional<double>& us) { return us ? format_fixed(*us, 2) : "-"; }

std::string delta_cell(const std::optional<double>& delta) { return delta ? format_delta(*delta) : "-"; }

}  // namespace

std::vector<SummaryRow> summarize(const std::vector<RunRecord>& records, const std::string& baseline_strategy) {
  struct Totals {
    SummaryRow row;
    std::uint64_t reached_arcs = 0, relaxations = 0;
    std::uint64_t rounds = 0, narrow = 0, wide = 0, buckets = 0;
    bool all_rounds = true, all_splits = true, all_buckets = true;
  };
  std::vector<Totals> groups;
  for (const RunRecord& r : records) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Totals& t) {
      return t.row.strategy == r.strategy && t.row.device == r.device && same_delta(t.row.delta, r.delta);
    });
    if (it == groups.end()) {
      groups.emplace_back();
      it = groups.end() - 1;
      it->row.strategy = r.strategy;
      it->row.device = r.device;
      it->row.delta = r.delta;
    }
    it->row.sources += 1;
    it->row.solve_ms += r.time.median_ms;  // a sum until divided below
    it->reached_arcs += r.reached_arcs;
    it->relaxations += r.relaxations;
    if (r.rounds) it->rounds += *r.rounds;
    else it->all_rounds = false;
    if (r.rounds_narrow && r.rounds_wide) {
      it->narrow += *r.rounds_narrow;
      it->wide += *r.rounds_wide;
    } else {
      it->all_splits = false;
    }
    if (r.buckets_processed) it->buckets += *r.buckets_processed;
    else it->all_buckets = false;
  }
  std::vector<SummaryRow> rows;
  for (Totals& t : groups) {
    SummaryRow row = t.row;
    const double sources = row.sources;
    row.mteps = graph::mteps(t.reached_arcs, row.solve_ms);
    row.work_ratio = graph::work_ratio(t.relaxations, t.reached_arcs);
    // Total time over total rounds, so sources with more rounds weigh more.
    if (t.all_rounds && t.rounds > 0) row.us_per_round = row.solve_ms * 1000.0 / static_cast<double>(t.rounds);
    row.solve_ms /= sources;
    if (t.all_rounds) row.rounds = static_cast<double>(t.rounds) / sources;
    if (t.all_rounds && t.all_splits) {
      row.rounds_narrow = static_cast<double>(t.narrow) / sources;
      row.rounds_wide = static_cast<double>(t.wide) / sources;
    }
    if (t.all_buckets) row.buckets_processed = static_cast<double>(t.buckets) / sources;
    rows.push_back(row);
  }
  // The baseline of a row: same delta if the baseline ran with it, else the
  // baseline's only row (a sweep compares like with like; a plain run has one).
  std::vector<const SummaryRow*> baselines;
  for (const SummaryRow& row : rows)
    if (row.strategy == baseline_strategy) baselines.push_back(&row);
  for (SummaryRow& row : rows) {
    const SummaryRow* base = nullptr;
    for (const SummaryRow* b : baselines)
      if (same_delta(b->delta, row.delta)) base = b;
    if (!base && baselines.size() == 1) base = baselines.front();
    if (base && row.solve_ms > 0) row.speedup = base->solve_ms / row.solve_ms;
  }
  return rows;
}

std::string format_graph_header(const GraphInfo& g) {
  std::ostringstream out;
  out << "graph         " << g.source << (g.generated ? " (generated)" : "") << "\n";
  out << "format        " << g.format;
  if (!g.generated) out << ", " << g.file_bytes << " bytes";
  out << ", ids " << g.id_base << "-based\n";
  out << "vertices      " << g.vertices << "\n";
  out << "arcs          " << g.arcs << (g.undirected ? " (undirected: both directions)" : " (directed)") << "\n";
  out << "weights       " << g.weight_type << ", " << g.weight_rule
      << (!g.generated && !g.file_has_weights ? " (the file has none)" : "") << "\n";
  out << "dropped       " << g.self_loops_dropped << " self-loops, " << g.duplicates_dropped
      << " duplicate arcs (of " << g.input_entries << " entries)\n";
  if (g.generated) {
    out << "generate      " << format_fixed(g.total_ms, 1) << " ms\n";
  } else {
    out << "load          " << format_fixed(g.total_ms, 1) << " ms (parse " << format_fixed(g.parse_ms, 1)
        << " ms, build " << format_fixed(g.build_ms, 1) << " ms), "
        << (g.from_cache ? "from cache (saved " + format_fixed(g.cache_saved_ms, 1) + " ms)" : "not from cache")
        << (g.cache_written ? ", cache written" : "") << "\n";
  }
  return out.str();
}

std::string format_device_header(const DeviceInfo& d) {
  std::ostringstream out;
  out << "device        " << d.kind << ": " << d.description;
  if (!d.note.empty()) out << " (" << d.note << ")";
  out << "\n";
  if (d.upload_ms) out << "upload        " << format_fixed(*d.upload_ms, 3) << " ms (graph, host to device)\n";
  return out.str();
}

std::string format_load_balance_line(const DeviceInfo& d) {
  if (d.load_balance.empty()) return "";
  return "load balance  " + d.load_balance + " (" + format_fixed(100.0 * d.heavy_arc_share, 1) +
         "% of arcs leave vertices of out-degree >= 32)\n";
}

std::string format_plan_lines(const DeviceInfo& d) {
  if (!d.plan) return "";
  const sssp::ExecutionPlan& p = *d.plan;
  std::ostringstream out;
  out << "plan          ";
  const char* sep = "";
  for (const sssp::Regime r : p.regimes) {
    out << sep;
    sep = ", ";
    switch (r) {
      case sssp::Regime::Resident:
        out << "resident block (" << sssp::to_string(p.resident_layout) << " in shared memory, "
            << p.resident_local_steps << " warp-local steps; near-far without predecessors)";
        break;
      case sssp::Regime::Narrow:
        out << "single block (up to " << p.narrow_max_arcs << " arcs a round";
        if (p.batch_narrow_max_arcs != p.narrow_max_arcs) out << ", " << p.batch_narrow_max_arcs << " in batches";
        out << ")";
        break;
      case sssp::Regime::Cluster: out << "cluster (" << p.cluster_local_steps << " local steps)"; break;
      case sssp::Regime::Medium: out << "medium grid (" << sssp::to_string(p.load_balance) << ")"; break;
      case sssp::Regime::Full:
        out << (p.persistent_grid ? "full grid (" : "a launch per step (") << sssp::to_string(p.load_balance) << ")";
        break;
    }
  }
  if (p.skewed) out << "; skewed degrees";
  out << "\n";
  for (const std::string& note : p.notes) out << "plan note     " << note << "\n";
  return out.str();
}

std::string format_vertex_order_line(const DeviceInfo& d) {
  if (d.vertex_order.empty()) return "";
  if (d.vertex_order == "input") return "vertex order  input (the file's numbering)\n";
  return "vertex order  " + d.vertex_order + " (" + format_fixed(d.reorder_ms, 3) +
         " ms to renumber; results in the file's ids)\n";
}

std::string format_gpu_memory_line(const DeviceInfo& d) {
  if (!d.gpu_bytes) return "";
  return "gpu memory    " + format_fixed(static_cast<double>(*d.gpu_bytes) / 1e9, 3) + " GB held by the solver (graph " +
         format_fixed(static_cast<double>(d.gpu_graph_bytes.value_or(0)) / 1e9, 3) + " GB)\n";
}

double delta_for_strategy(Algorithm a, double d, const DeltaInfo& delta) {
  return !runs_on_gpu(a) && delta.cpu_auto_value ? *delta.cpu_auto_value : d;
}

std::string format_delta_line(const DeltaInfo& delta) {
  std::ostringstream out;
  if (!delta.sweep.empty()) {
    out << "delta sweep  ";
    for (std::size_t i = 0; i < delta.sweep.size(); ++i) out << (i ? ", " : " ") << format_delta(delta.sweep[i]);
    out << " (auto delta " << format_delta(delta.auto_value) << ")\n";
  } else if (delta.automatic) {
    out << "delta         " << format_delta(delta.value) << " (auto: " << delta.auto_rule << ")";
    if (delta.cpu_auto_value)
      out << "; cpu strategies " << format_delta(*delta.cpu_auto_value) << " (the CPU rule)";
    out << "\n";
  } else {
    out << "delta         " << format_delta(delta.value) << " (given; auto would be " << format_delta(delta.auto_value)
        << ")\n";
  }
  return out.str();
}

std::string format_buckets_line(std::uint32_t buckets) {
  return "buckets       B = " + std::to_string(buckets) +
         " (bucket-sort, bucket-multisplit; 'buckets done' below counts the buckets processed)\n";
}

std::string format_auto_strategy_line(const AutoStrategyInfo& choice) {
  std::string line = "strategy      auto -> " + choice.chosen + " (" + choice.reason;
  if (choice.shape)
    line += "; measured in " + format_fixed(choice.measure_ms, 1) + " ms from source " + std::to_string(choice.source);
  return line + ")\n";
}

std::string format_contraction_line(const ContractionInfo& c, std::uint64_t vertices, std::uint64_t arcs) {
  if (!c.used) return "contract      off (" + c.reason + ")\n";
  const double share = vertices ? 100.0 * static_cast<double>(c.core_vertices) / static_cast<double>(vertices) : 0;
  return "contract      core " + std::to_string(c.core_vertices) + " of " + std::to_string(vertices) + " vertices (" +
         format_fixed(share, 1) + "%), " + std::to_string(c.core_arcs) + " of " + std::to_string(arcs) + " arcs (" +
         std::to_string(c.shortcuts) + " shortcuts); " + std::to_string(c.tree_vertices) + " tree and " +
         std::to_string(c.chain_vertices) + " chain vertices read off after each solve; " + format_fixed(c.ms, 1) +
         (c.from_cache ? " ms to read from the cache" : " ms, once") + " (" + c.reason + ")\n" +
         (c.cache.empty() ? "" : "              cache: " + c.cache + "\n") +
         (c.core_on_host ? "              a core this small is solved on the host (Dijkstra): a GPU solve's fixed cost "
                           "is larger\n"
                         : "");
}

std::string format_hierarchy_line(const ContractionInfo& c) {
  if (!c.hierarchy) return "";
  return "hierarchy     over the core for phast: " + std::to_string(c.hierarchy_shortcuts) + " shortcuts, " +
         std::to_string(c.hierarchy_levels) + " sweep levels; " + format_fixed(c.hierarchy_ms, 1) +
         (c.hierarchy_from_cache ? " ms to read from the cache" : " ms, once") + " (solve times are per query: piece and upward searches, sweep, read-off)\n";
}

std::string format_results_table(const std::vector<RunRecord>& records, const std::vector<std::string>* labels) {
  using A = Table::Align;
  Table table({{"strategy", A::Left}, {"device", A::Left}, {"source", A::Right}, {"delta", A::Right},
               {"runs", A::Right}, {"median ms", A::Right}, {"min ms", A::Right}, {"max ms", A::Right},
               {"MTEPS", A::Right}, {"work ratio", A::Right}, {"rounds", A::Right}, {"narrow/wide", A::Right},
               {"us/round", A::Right}, {"local steps", A::Right}, {"us/step", A::Right},
               {"buckets done", A::Right}, {"reached", A::Right}, {"validation", A::Left}});
  for (const RunRecord& r : records) {
    std::string check = to_string(r.validation);
    if (r.validation == Check::Failed) check += " (" + std::to_string(r.mismatches) + ")";
    table.add_row({r.strategy, r.device, vertex_name(labels, r.source), delta_cell(r.delta),
                   std::to_string(r.solve_ms.size()), format_fixed(r.time.median_ms, 3),
                   format_fixed(r.time.min_ms, 3), format_fixed(r.time.max_ms, 3), format_fixed(r.mteps, 1),
                   format_fixed(r.work_ratio, 3), optional_count(r.rounds),
                   split_cell(r.rounds_narrow, r.rounds_wide) + (r.resident.value_or(false) ? " resident" : ""),
                   us_per_round_cell(r.us_per_round), optional_count(r.local_steps), us_per_round_cell(r.us_per_step),
                   optional_count(r.buckets_processed), std::to_string(r.reached_vertices), check});
  }
  return table.omit_empty_columns().render();
}

std::string format_comparison_table(const std::vector<SummaryRow>& rows, const std::string& baseline_label) {
  using A = Table::Align;
  Table table({{"strategy", A::Left}, {"device", A::Left}, {"solve ms", A::Right}, {"MTEPS", A::Right},
               {"speedup vs " + baseline_label, A::Right}, {"work ratio", A::Right}, {"rounds", A::Right},
               {"narrow/wide", A::Right}, {"us/round", A::Right}});
  for (const SummaryRow& r : rows) {
    table.add_row({r.strategy, r.device, format_fixed(r.solve_ms, 3), format_fixed(r.mteps, 1),
                   r.speedup ? format_fixed(*r.speedup, 2) + "x" : "-", format_fixed(r.work_ratio, 3),
                   optional_mean(r.rounds), split_cell(r.rounds_narrow, r.rounds_wide),
                   us_per_round_cell(r.us_per_round)});
  }
  return table.omit_empty_columns().render();
}

std::string format_sweep_table(const std::vector<SummaryRow>& rows) {
  using A = Table::Align;
  Table table({{"delta", A::Right}, {"strategy", A::Left}, {"device", A::Left}, {"solve ms", A::Right},
               {"MTEPS", A::Right}, {"work ratio", A::Right}, {"rounds", A::Right}, {"narrow/wide", A::Right},
               {"us/round", A::Right}, {"buckets done", A::Right}});
  // Grouped by delta, so one delta's strategies read side by side.
  std::vector<SummaryRow> sorted = rows;
  std::stable_sort(sorted.begin(), sorted.end(), [](const SummaryRow& a, const SummaryRow& b) {
    return a.delta.value_or(0) < b.delta.value_or(0);
  });
  for (const SummaryRow& r : sorted) {
    table.add_row({delta_cell(r.delta), r.strategy, r.device, format_fixed(r.solve_ms, 3), format_fixed(r.mteps, 1),
                   format_fixed(r.work_ratio, 3), optional_mean(r.rounds), split_cell(r.rounds_narrow, r.rounds_wide),
                   us_per_round_cell(r.us_per_round), optional_mean(r.buckets_processed)});
  }
  return table.omit_empty_columns().render();
}

std::string format_batch_table(const std::vector<BatchRecord>& batches) {
  using A = Table::Align;
  Table table({{"strategy", A::Left}, {"device", A::Left}, {"delta", A::Right}, {"sources", A::Right},
               {"calls", A::Right}, {"batch ms", A::Right}, {"min ms", A::Right}, {"max ms", A::Right},
               {"ms/source", A::Right}, {"sources/s", A::Right},
               {"MTEPS", A::Right}, {"per launch", A::Right}, {"together", A::Right}, {"alone", A::Right}, {"resident", A::Right}, {"validation", A::Left},
               {"solver", A::Left}});
  for (const BatchRecord& b : batches) {
    std::string check = "not run";
    if (b.validated > 0)
      check = b.failed == 0 ? "passed (" + std::to_string(b.validated) + ")"
                            : "FAILED (" + std::to_string(b.failed) + " of " + std::to_string(b.validated) + ")";
    table.add_row({b.strategy, b.device, delta_cell(b.delta), std::to_string(b.sources), std::to_string(b.calls),
                   format_fixed(b.time.median_ms, 3), format_fixed(b.time.min_ms, 3), format_fixed(b.time.max_ms, 3),
                   format_fixed(b.per_source_ms, 3),
                   format_fixed(b.sources_per_second, 1), format_fixed(b.mteps, 1),
                   b.sources_per_launch ? std::to_string(*b.sources_per_launch) : "-",
                   b.solved_together ? std::to_string(*b.solved_together) : "-",
                   b.finished_alone ? std::to_string(*b.finished_alone) : "-",
                   b.resident ? std::to_string(*b.resident) : "-", check, b.solver});
  }
  return table.omit_empty_columns().render();
}

std::string vertex_name(const std::vector<std::string>* labels, std::uint64_t id) {
  return labels && id < labels->size() ? (*labels)[id] : std::to_string(id);
}

std::string vertex_name(const PathInfo& path, std::uint64_t id) { return vertex_name(path.labels.get(), id); }

std::string format_path(const PathInfo& path) {
  std::ostringstream out;
  out << "distance " << vertex_name(path, path.source) << " -> " << vertex_name(path, path.target) << ": "
      << (path.reachable ? path.distance : std::string("unreachable")) << "\n";
  if (!path.vertices.empty()) {
    out << "path (" << path.vertices.size() - 1 << " arcs): ";
    for (std::size_t i = 0; i < path.vertices.size(); ++i)
      out << (i ? " -> " : "") << vertex_name(path, path.vertices[i]);
    out << "\n";
  }
  if (!path.note.empty()) out << "              (" << path.note << ")\n";
  return out.str();
}

}  // namespace app
