// The default report of `sssp` (without -v): the few lines a user reads
// first, each wrapped to 100 columns. What the graph is, where it ran, which
// strategy and why; then one row per strategy with the solve time's spread,
// MTEPS, the vertices reached and the validation. -v prints the full report
// (report.hpp) instead; the JSON record holds everything either way.
#pragma once

#include <cstddef>
#include <string>

#include "app/json_report.hpp"
#include "app/options.hpp"

namespace app {

inline constexpr std::size_t kReportWidth = 100;

// Each line of `text` wrapped at spaces to `width` columns; continuation
// lines are indented to the value column (14 spaces). A word longer than a
// line stays whole.
std::string wrap_report(const std::string& text, std::size_t width = kReportWidth);

// What the header needs beyond the run record.
struct BriefContext {
  std::string sources;  // the sources as described (app.cpp describe_sources)
  bool uses_delta = false;  // a strategy of the run takes a delta
  bool several_sources = false;  // the batch line says how they are solved
};

// Printed before the solves start, so a long run shows what it is doing.
std::string format_brief_header(const RunSummary& run, const AppOptions& options, const BriefContext& context);

// "strategy      all -> delta-stepping, dijkstra (skipped: ...)".
std::string format_strategy_all_line(const RunSummary& run, const std::string& skipped);

// After the solves: one row per strategy (a batch is one row, not one per
// source), the columns that apply; a sweep prints its table.
std::string format_brief_results(const RunSummary& run, const AppOptions& options);

// --path-to in the report: the distance, and a path of more than
// 2 x ends + 2 vertices as its first and last `ends` vertices, wrapped to
// 100 columns. -q prints the whole path instead (format_path), for pipes.
inline constexpr std::size_t kBriefPathEnds = 5;
inline constexpr std::size_t kVerbosePathEnds = 50;
std::string format_report_path(const PathInfo& path, std::size_t ends);

// Warnings for stderr (one line each, "sssp: warning: ..."): sources that
// reach almost nothing of the graph (under 1% of its vertices), whose times
// and distances say little about it.
std::string reach_warnings(const RunSummary& run);

}  // namespace app
