// sssp reporting: the text tables (stable layout), the metrics as applied to
// run records, validation of distances and predecessor trees, and the JSON
// record's schema and atomic writing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "app/bench_report.hpp"
#include "app/harness.hpp"
#include "app/brief_report.hpp"
#include "app/json_report.hpp"
#include "app/options.hpp"
#include "app/report.hpp"
#include "app/validate.hpp"
#include "graph/csr.hpp"
#include "app_test_support.hpp"
#include "test_support.hpp"

using app::Check;
using app::RunRecord;
using app::SummaryRow;

namespace {

RunRecord record(const std::string& strategy, const std::string& device, std::uint64_t source,
                 std::vector<double> ms, std::uint64_t reached_arcs, std::uint64_t relaxations) {
  RunRecord r;
  r.strategy = strategy;
  r.device = device;
  r.source = source;
  r.solve_ms = std::move(ms);
  r.reached_vertices = reached_arcs / 2;
  r.reached_arcs = reached_arcs;
  r.relaxations = relaxations;
  app::finish_record(r);
  return r;
}

// 0 -> 1 (w 2), 0 -> 2 (w 5), 1 -> 2 (w 1), 2 -> 3 (w 0), 3 -> 2 (w 0); 4 isolated.
graph::IntCsr small_graph() {
  graph::IntCsr g;
  g.num_vertices = 5;
  g.offsets = {0, 2, 3, 4, 5, 5};
  g.targets = {1, 2, 2, 3, 2};
  g.weights = {2, 5, 1, 0, 0};
  return g;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(AppTable, RendersAlignedColumnsWithARule) {
  app::Table t({{"name", app::Table::Align::Left}, {"ms", app::Table::Align::Right}});
  t.add_row({"near-far", "1.5"});
  t.add_row({"bf", "12.25"});
  EXPECT_EQ(t.render(),
            "name         ms\n"
            "--------  -----\n"
            "near-far    1.5\n"
            "bf        12.25\n");
  EXPECT_THROW(t.add_row({"too", "many", "cells"}), std::logic_error);
}

TEST(AppTable, NumberFormats) {
  EXPECT_EQ(app::format_fixed(1.23456, 3), "1.235");
  EXPECT_EQ(app::format_fixed(2, 1), "2.0");
  EXPECT_EQ(app::format_delta(62.5), "62.5");
  EXPECT_EQ(app::format_delta(1.0 / 3), "0.333333");
  EXPECT_EQ(app::format_delta(1e7), "1e+07");
}

TEST(AppMetrics, TimingSummaryMedianMinMax) {
  auto t = app::summarize_times({5, 1, 3});
  EXPECT_DOUBLE_EQ(t.median_ms, 3);
  EXPECT_DOUBLE_EQ(t.min_ms, 1);
  EXPECT_DOUBLE_EQ(t.max_ms, 5);
  t = app::summarize_times({4, 1, 3, 10});
  EXPECT_DOUBLE_EQ(t.median_ms, 3.5);
  EXPECT_THROW(app::summarize_times({}), std::invalid_argument);
}

TEST(AppMetrics, RecordUsesTheMetricDefinitions) {
  // 2,000,000 reached arcs in a 4 ms median: 500 MTEPS; 3,000,000 relaxations: work ratio 1.5.
  const RunRecord r = record("near-far", "gpu", 1, {5, 4, 3}, 2000000, 3000000);
  EXPECT_DOUBLE_EQ(r.time.median_ms, 4);
  EXPECT_DOUBLE_EQ(r.mteps, 500);
  EXPECT_DOUBLE_EQ(r.work_ratio, 1.5);
}

TEST(AppMetrics, MicrosecondsPerRoundIsTheMedianOverTheRounds) {
  RunRecord r = record("near-far", "gpu", 1, {5, 4, 3}, 2000, 2000);
  EXPECT_FALSE(r.us_per_round.has_value());  // no rounds (a CPU solver)
  r.rounds = 1600;
  app::finish_record(r);
  ASSERT_TRUE(r.us_per_round.has_value());
  EXPECT_DOUBLE_EQ(*r.us_per_round, 2.5);  // 4 ms = 4000 us over 1600 rounds
  r.rounds = 0;  // a source without out-arcs: no division by zero
  app::finish_record(r);
  EXPECT_FALSE(r.us_per_round.has_value());
}

TEST(AppHarness, WarmsUpThenTimesEachRunAndKeepsTheLast) {
  const graph::IntCsr g = small_graph();
  int calls = 0;
  const app::SolveFunction<std::uint32_t> solve = [&]() {
    ++calls;
    app::SolveOutcome<std::uint32_t> o;
    const auto inf = graph::infinite_distance<std::uint32_t>();
    o.distances = {0, 2, 3, 3, inf};
    o.solve_ms = 10.0 * calls;  // warm-up 10, timed 20, 30, 40
    o.relaxations = 4 + static_cast<std::uint64_t>(calls);
    o.rounds = 3;
    o.rounds_narrow = 2;
    o.rounds_wide = 1;
    o.full_splits = 2 + static_cast<std::uint64_t>(calls);
    o.full_splits_in_block = 1;
    o.full_splits_in_grid = 3;
    o.delta = 64;  // e.g. a GPU rounding 64.5 down
    return o;
  };
  RunRecord identity;
  identity.strategy = "near-far";
  identity.delta = 64.5;
  app::SolveOutcome<std::uint32_t> last;
  const RunRecord r = app::run_timed<std::uint32_t>(g, solve, 3, identity, &last);
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(r.solve_ms, (std::vector<double>{20, 30, 40}));
  EXPECT_DOUBLE_EQ(r.time.median_ms, 30);
  EXPECT_EQ(r.reached_vertices, 4u);
  EXPECT_EQ(r.reached_arcs, 5u);  // out-degrees 2 + 1 + 1 + 1
  EXPECT_EQ(r.relaxations, 8u);   // of the last run
  EXPECT_EQ(r.rounds, std::optional<std::uint64_t>(3));
  EXPECT_EQ(r.rounds_narrow, std::optional<std::uint64_t>(2));
  EXPECT_EQ(r.rounds_wide, std::optional<std::uint64_t>(1));
  ASSERT_TRUE(r.us_per_round.has_value());
  EXPECT_DOUBLE_EQ(*r.us_per_round, 10000);  // 30 ms median / 3 rounds
  EXPECT_FALSE(r.buckets_processed.has_value());
  EXPECT_EQ(r.full_splits, std::optional<std::uint64_t>(6));  // of the last run
  EXPECT_EQ(r.full_splits_in_block, std::optional<std::uint64_t>(1));
  EXPECT_EQ(r.full_splits_in_grid, std::optional<std::uint64_t>(3));
  EXPECT_EQ(last.distances.size(), 5u);
  EXPECT_EQ(r.strategy, "near-far");
  EXPECT_EQ(r.delta, std::optional<double>(64.5));       // the request: rows group by it
  EXPECT_EQ(r.delta_used, std::optional<double>(64.0));  // what the solver did

  const app::SolveFunction<std::uint32_t> short_result = [] {
    app::SolveOutcome<std::uint32_t> o;
    o.distances = {0};
    return o;
  };
  EXPECT_THROW(app::run_timed<std::uint32_t>(g, short_result, 1, identity, nullptr), std::runtime_error);
}

TEST(AppSummary, AggregatesSourcesAndComparesWithDeltaStepping) {
  std::vector<RunRecord> records = {
      record("near-far", "gpu", 1, {2}, 1000000, 1500000),
      record("delta-stepping", "cpu", 1, {20}, 1000000, 1000000),
      record("near-far", "gpu", 7, {4}, 3000000, 3000000),
      record("delta-stepping", "cpu", 7, {40}, 3000000, 3000000),
  };
  records[0].rounds = 10;
  records[2].rounds = 20;
  const auto rows = app::summarize(records);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].strategy, "near-far");
  EXPECT_EQ(rows[0].sources, 2u);
  EXPECT_DOUBLE_EQ(rows[0].solve_ms, 3);            // mean of the medians 2 and 4
  EXPECT_DOUBLE_EQ(rows[0].mteps, 4e6 / 6e-3 / 1e6);  // total arcs / total ms
  EXPECT_DOUBLE_EQ(rows[0].work_ratio, 4.5 / 4);
  EXPECT_EQ(rows[0].rounds, std::optional<double>(15));
  EXPECT_FALSE(rows[1].rounds.has_value());     // delta-stepping reports none
  ASSERT_TRUE(rows[0].us_per_round.has_value());
  EXPECT_DOUBLE_EQ(*rows[0].us_per_round, 200);  // (2 + 4) ms = 6000 us over 30 rounds
  EXPECT_FALSE(rows[1].us_per_round.has_value());
  EXPECT_FALSE(rows[0].rounds_narrow.has_value());  // no source gave a split
  ASSERT_TRUE(rows[0].speedup.has_value());
  EXPECT_DOUBLE_EQ(*rows[0].speedup, 10);
  EXPECT_DOUBLE_EQ(*rows[1].speedup, 1);
  // Without a baseline row there is no speedup.
  EXPECT_FALSE(app::summarize({records[0]}).front().speedup.has_value());
}

TEST(AppSummary, NarrowWideSplitIsAMeanOnlyWhenEverySourceHasIt) {
  std::vector<RunRecord> records = {record("bellman-ford", "gpu", 1, {1}, 1000, 1000),
                                    record("bellman-ford", "gpu", 2, {3}, 1000, 1000)};
  records[0].rounds = 10;
  records[0].rounds_narrow = 8;
  records[0].rounds_wide = 2;
  records[1].rounds = 30;
  records[1].rounds_narrow = 25;
  records[1].rounds_wide = 5;
  auto rows = app::summarize(records);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].rounds, std::optional<double>(20));
  EXPECT_EQ(rows[0].rounds_narrow, std::optional<double>(16.5));
  EXPECT_EQ(rows[0].rounds_wide, std::optional<double>(3.5));
  EXPECT_DOUBLE_EQ(*rows[0].us_per_round, 100);  // 4000 us over 40 rounds
  const std::string table = app::format_comparison_table(rows, "cpu delta-stepping");
  EXPECT_NE(table.find("      20     16.5/3.5    100.00\n"), std::string::npos) << table;
  records[1].rounds_narrow.reset();
  records[1].rounds_wide.reset();
  rows = app::summarize(records);
  EXPECT_FALSE(rows[0].rounds_narrow.has_value());
  EXPECT_FALSE(rows[0].rounds_wide.has_value());
  EXPECT_EQ(rows[0].rounds, std::optional<double>(20));
}

TEST(AppSummary, SweepRowsCompareWithTheBaselineAtTheSameDelta) {
  std::vector<RunRecord> records = {record("near-far", "gpu", 0, {1}, 2000, 2000),
                                    record("delta-stepping", "cpu", 0, {4}, 2000, 2000),
                                    record("near-far", "gpu", 0, {2}, 2000, 2000),
                                    record("delta-stepping", "cpu", 0, {5}, 2000, 2000)};
  records[0].delta = records[1].delta = 10.0;
  records[2].delta = records[3].delta = 20.0;
  records[2].rounds = 400;
  records[2].rounds_narrow = 390;
  records[2].rounds_wide = 10;
  records[2].buckets_processed = 7;
  const auto rows = app::summarize(records);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_DOUBLE_EQ(*rows[0].speedup, 4);
  EXPECT_DOUBLE_EQ(*rows[2].speedup, 2.5);
  const std::string table = app::format_sweep_table(rows);
  EXPECT_EQ(table,
            "delta  strategy        device  solve ms  MTEPS  work ratio  rounds  narrow/wide  us/round  buckets done\n"
            "-----  --------------  ------  --------  -----  ----------  ------  -----------  --------  ------------\n"
            "   10  near-far        gpu        1.000    2.0       1.000       -            -         -             -\n"
            "   10  delta-stepping  cpu        4.000    0.5       1.000       -            -         -             -\n"
            "   20  near-far        gpu        2.000    1.0       1.000     400       390/10      5.00             7\n"
            "   20  delta-stepping  cpu        5.000    0.4       1.000       -            -         -             -\n");
}

TEST(AppReport, ResultsTableIsStable) {
  RunRecord a = record("bucket-multisplit", "gpu", 1, {1.5, 1.25, 2}, 1000000, 1200000);
  a.delta = 62.5;
  a.rounds = 40;
  a.rounds_narrow = 29;
  a.rounds_wide = 11;
  a.buckets_processed = 12;
  a.local_steps = 360;
  app::finish_record(a);  // us/round: 1.5 ms median over 40 rounds; us/step: over 400 steps
  a.validation = Check::Passed;
  RunRecord b = record("dijkstra", "cpu", 1, {30}, 1000000, 1000000);
  b.validation = Check::Failed;
  b.mismatches = 3;
  EXPECT_EQ(app::format_results_table({a, b}),
            "strategy           device  source  delta  runs  median ms  min ms  max ms  MTEPS  work ratio  "
            "rounds  narrow/wide  us/round  local steps  us/step  buckets done  reached  validation\n"
            "-----------------  ------  ------  -----  ----  ---------  ------  ------  -----  ----------  "
            "------  -----------  --------  -----------  -------  ------------  -------  ----------\n"
            "bucket-multisplit  gpu          1   62.5     3      1.500   1.250   2.000  666.7       1.200  "
            "    40        29/11     37.50          360     3.75            12   500000  passed\n"
            "dijkstra           cpu          1      -     1     30.000  30.000  30.000   33.3       1.000  "
            "     -            -         -            -        -             -   500000  failed (3)\n");
  // A GPU record whose engine gave no split: rounds and us/round; the split,
  // "-" in every row, is left out.
  a.rounds_narrow.reset();
  a.rounds_wide.reset();
  const std::string unsplit = app::format_results_table({a});
  EXPECT_NE(unsplit.find("    40     37.50"), std::string::npos) << unsplit;
  EXPECT_EQ(unsplit.find("narrow/wide"), std::string::npos) << unsplit;
  // A CPU row alone: none of the GPU counters' columns.
  const std::string cpu = app::format_results_table({b});
  for (const char* column : {"rounds", "narrow/wide", "us/round", "local steps", "us/step", "buckets done", "delta"})
    EXPECT_EQ(cpu.find(column), std::string::npos) << column << "\n" << cpu;
  EXPECT_NE(cpu.find("median ms"), std::string::npos) << cpu;
}

TEST(AppReport, ComparisonTableIsStable) {
  RunRecord gpu = record("near-far", "gpu", 1, {2}, 1000000, 1000000);
  gpu.rounds = 800;
  gpu.rounds_narrow = 790;
  gpu.rounds_wide = 10;
  const auto rows = app::summarize({gpu, record("delta-stepping", "cpu", 1, {20}, 1000000, 2000000)});
  EXPECT_EQ(app::format_comparison_table(rows, "cpu delta-stepping"),
            "strategy        device  solve ms  MTEPS  speedup vs cpu delta-stepping  work ratio  rounds  "
            "narrow/wide  us/round\n"
            "--------------  ------  --------  -----  -----------------------------  ----------  ------  "
            "-----------  --------\n"
            "near-far        gpu        2.000  500.0                         10.00x       1.000     800  "
            "     790/10      2.50\n"
            "delta-stepping  cpu       20.000   50.0                          1.00x       2.000       -  "
            "          -         -\n");
}

TEST(AppReport, HeaderLinesSayWhereTheGraphCameFrom) {
  app::GraphInfo g;
  g.source = "road/DE.gr";
  g.format = "gr";
  g.file_bytes = 2073060;
  g.vertices = 49109;
  g.arcs = 121024;
  g.weight_type = "uint32";
  g.weight_rule = "file";
  g.file_has_weights = true;
  g.id_base = 1;
  g.input_entries = 121024;
  g.total_ms = 12.5;
  g.parse_ms = 10;
  g.build_ms = 2.5;
  const std::string text = app::format_graph_header(g);
  EXPECT_EQ(text,
            "graph         road/DE.gr\n"
            "format        gr, 2073060 bytes, ids 1-based\n"
            "vertices      49109\n"
            "arcs          121024 (directed)\n"
            "weights       uint32, file\n"
            "dropped       0 self-loops, 0 duplicate arcs (of 121024 entries)\n"
            "load          12.5 ms (parse 10.0 ms, build 2.5 ms), not from cache\n");
  app::DeviceInfo d;
  d.kind = "cpu";
  d.description = "CPU, 2 OpenMP threads";
  d.note = "auto: no usable GPU (no CUDA device), running on the CPU";
  EXPECT_EQ(app::format_device_header(d),
            "device        cpu: CPU, 2 OpenMP threads (auto: no usable GPU (no CUDA device), running on the CPU)\n");
  d.upload_ms = 1.25;
  EXPECT_NE(app::format_device_header(d).find("upload        1.250 ms"), std::string::npos);
  EXPECT_EQ(app::format_vertex_order_line(d), "");  // no GPU solver
  d.vertex_order = "input";
  EXPECT_EQ(app::format_vertex_order_line(d), "vertex order  input (the file's numbering)\n");
  d.vertex_order = "degree";
  d.reorder_ms = 0.4125;
  EXPECT_EQ(app::format_vertex_order_line(d),
            "vertex order  degree (0.412 ms to renumber; results in the file's ids)\n");
  app::DeltaInfo delta;
  delta.value = delta.auto_value = 62.5;
  EXPECT_EQ(app::format_delta_line(delta), "delta         62.5 (auto: c x mean weight / mean out-degree)\n");
  EXPECT_EQ(app::format_buckets_line(10),
            "buckets       B = 10 (bucket-sort, bucket-multisplit; 'buckets done' below counts the buckets processed)\n");
}

TEST(AppReport, PathLines) {
  app::PathInfo p;
  p.source = 1;
  p.target = 4;
  p.reachable = true;
  p.distance = "3";
  p.vertices = {1, 2, 4};
  EXPECT_EQ(app::format_path(p), "distance 1 -> 4: 3\npath (2 arcs): 1 -> 2 -> 4\n");
  p.reachable = false;
  p.vertices.clear();
  EXPECT_EQ(app::format_path(p), "distance 1 -> 4: unreachable\n");
}

TEST(AppValidate, IntegerDistancesMustBeExact) {
  const auto inf = graph::infinite_distance<std::uint32_t>();
  const std::vector<std::uint64_t> expected = {0, 2, 3, inf};
  app::ValidationReport report;
  app::compare_distances<std::uint32_t>(expected, {0, 2, 3, inf}, 1, report);
  EXPECT_TRUE(report.passed());
  app::compare_distances<std::uint32_t>(expected, {0, 2, 4, 7}, 1, report);
  EXPECT_EQ(report.distance_mismatches, 2u);
  ASSERT_EQ(report.examples.size(), 2u);
  EXPECT_EQ(report.examples[0], "vertex 3: expected 3, got 4");  // ids as the user sees them
  EXPECT_EQ(report.examples[1], "vertex 4: expected unreachable, got 7");
  app::ValidationReport wrong_size;
  app::compare_distances<std::uint32_t>(expected, {0, 2}, 0, wrong_size);
  EXPECT_FALSE(wrong_size.passed());
}

TEST(AppValidate, ExamplesStopAtTenButEveryMismatchCounts) {
  const std::vector<std::uint64_t> expected(25, 1);
  const std::vector<std::uint64_t> got(25, 2);
  app::ValidationReport report;
  app::compare_distances<std::uint32_t>(expected, got, 0, report);
  EXPECT_EQ(report.distance_mismatches, 25u);
  EXPECT_EQ(report.examples.size(), 10u);
  EXPECT_EQ(report.examples.front(), "vertex 0: expected 1, got 2");
}

TEST(AppValidate, FloatDistancesUseRelativeTolerance) {
  const float inf = graph::infinite_distance<float>();
  EXPECT_TRUE(app::distances_match<float>(1000.0f, 1000.0005f));
  EXPECT_FALSE(app::distances_match<float>(1000.0f, 1000.01f));
  EXPECT_TRUE(app::distances_match<float>(0.0f, 0.0f));
  EXPECT_TRUE(app::distances_match<float>(inf, inf));
  EXPECT_FALSE(app::distances_match<float>(inf, 1e30f));
  EXPECT_FALSE(app::distances_match<float>(1.0f, std::numeric_limits<float>::quiet_NaN()));
  EXPECT_EQ(app::format_distance<float>(0.1f), "0.100000001");
  EXPECT_EQ(app::format_distance<float>(inf), "unreachable");
}

TEST(AppValidate, PredecessorTrees) {
  const graph::IntCsr g = small_graph();
  const auto inf = graph::infinite_distance<std::uint32_t>();
  const auto none = graph::kNoVertex;
  const std::vector<std::uint64_t> dist = {0, 2, 3, 3, inf};
  const auto check = [&](const std::vector<graph::vertex_id>& pred) {
    app::ValidationReport r;
    app::check_predecessor_tree<std::uint32_t>(g, 0, dist, pred, 1, r);
    return r;
  };
  EXPECT_TRUE(check({none, 0, 1, 2, none}).passed());
  // 0 -> 2 costs 5, not 3: not tight.
  auto r = check({none, 0, 0, 2, none});
  EXPECT_EQ(r.tree_errors, 1u);
  EXPECT_EQ(r.examples.front(), "vertex 3: predecessor 1 gives 5, not 3");
  // No arc 1 -> 3.
  EXPECT_EQ(check({none, 0, 1, 1, none}).examples.front(), "vertex 4: predecessor 2 has no arc to it");
  // Zero-weight cycle 2 <-> 3: every arc tight, but 2 and 3 never reach the source.
  r = check({none, 0, 3, 2, none});
  EXPECT_EQ(r.tree_errors, 1u);
  EXPECT_NE(r.examples.front().find("loops"), std::string::npos);
  // The source and unreachable vertices have no predecessor; reached ones need one.
  EXPECT_FALSE(check({1, 0, 1, 2, none}).passed());
  EXPECT_FALSE(check({none, 0, 1, 2, 3}).passed());
  EXPECT_FALSE(check({none, none, 1, 2, none}).passed());
  EXPECT_FALSE(check({none, 0, 1}).passed());
}

TEST(AppValidate, PathFromPredecessors) {
  const auto none = graph::kNoVertex;
  const std::vector<graph::vertex_id> pred = {none, 0, 1, 2, none};
  EXPECT_EQ(app::path_from_predecessors(pred, 0, 3), (std::vector<graph::vertex_id>{0, 1, 2, 3}));
  EXPECT_EQ(app::path_from_predecessors(pred, 0, 0), (std::vector<graph::vertex_id>{0}));
  EXPECT_TRUE(app::path_from_predecessors(pred, 0, 4).empty());
  EXPECT_TRUE(app::path_from_predecessors({none, 2, 1}, 0, 1).empty());  // a cycle never ends
}

// The bucketing strategies' full splits reach the JSON record as counted.
TEST(AppJson, BucketingRecordCarriesItsFullSplits) {
  std::vector<const char*> argv = {"sssp", "--strategy", "bucket-multisplit"};
  const app::AppOptions options = app::parse_options(static_cast<int>(argv.size()), argv.data());
  app::RunSummary run;
  run.graph.source = "grid:2:2";
  run.device.kind = "gpu";
  RunRecord a = record("bucket-multisplit", "gpu", 0, {1, 2, 3}, 8, 8);
  a.full_splits = 5;
  a.full_splits_in_block = 1;
  a.full_splits_in_grid = 3;
  run.records = {a};
  run.summary = app::summarize(run.records);
  const nlohmann::json r = app::to_json(options, run).at("results").at(0);
  EXPECT_EQ(r.at("full_splits"), 5);
  EXPECT_EQ(r.at("full_splits_in_block"), 1);
  EXPECT_EQ(r.at("full_splits_in_grid"), 3);
}

TEST(AppJson, RecordHasEveryKeyWithItsType) {
  std::vector<const char*> argv = {"sssp", "--strategy", "all", "--path-to", "4", "--validate"};
  const app::AppOptions options = app::parse_options(static_cast<int>(argv.size()), argv.data());
  app::RunSummary run;
  run.graph.source = "grid:2:2";
  run.graph.generated = true;
  run.graph.format = "generated";
  run.graph.weight_type = "uint32";
  run.device.requested = "auto";
  run.device.kind = "cpu";
  run.device.description = "CPU, 2 OpenMP threads";
  run.device.cpu_threads = 2;
  run.delta.value = run.delta.auto_value = 62.5;
  run.strategies = {"delta-stepping", "dijkstra"};
  run.sources = {0};
  RunRecord a = record("delta-stepping", "cpu", 0, {1, 2, 3}, 8, 8);
  a.delta = 62.5;
  a.delta_used = 62;
  a.buckets_processed = 4;
  a.validation = Check::Passed;
  run.records = {a, record("dijkstra", "cpu", 0, {2}, 8, 8)};
  run.summary = app::summarize(run.records);
  app::PathInfo path;
  path.source = 0;
  path.target = 3;
  path.reachable = true;
  path.distance = "18446744073709551614";  // integer distances keep all 64 bits
  path.vertices = {0, 1, 3};
  run.path = path;

  const nlohmann::json j = app::to_json(options, run);
  EXPECT_EQ(j.at("schema"), app::kJsonSchema);
  EXPECT_TRUE(j.at("tool").at("version").is_string());
  EXPECT_TRUE(j.at("tool").at("git_commit").is_string());
  EXPECT_EQ(j.at("command_line").size(), argv.size());
  const auto& device = j.at("device");
  for (const char* key : {"requested", "kind", "description"}) EXPECT_TRUE(device.at(key).is_string()) << key;
  EXPECT_TRUE(device.at("note").is_null());
  EXPECT_TRUE(device.at("gpu").is_null());  // a CPU run names no GPU
  EXPECT_TRUE(device.at("cpu_threads").is_number_integer());
  EXPECT_TRUE(device.at("upload_ms").is_null());
  EXPECT_TRUE(device.at("vertex_order").is_null());  // no GPU solver
  EXPECT_TRUE(device.at("reorder_ms").is_null());
  EXPECT_TRUE(device.at("plan").is_null());  // no GPU solver
  const auto& graph = j.at("graph");
  for (const char* key : {"source", "format", "weight_type", "weight_rule"})
    EXPECT_TRUE(graph.at(key).is_string()) << key;
  for (const char* key : {"vertices", "arcs", "id_base", "input_entries", "self_loops_dropped",
                          "duplicates_dropped", "file_bytes"})
    EXPECT_TRUE(graph.at(key).is_number_unsigned()) << key;
  for (const char* key : {"generated", "file_has_weights", "undirected", "from_cache", "cache_written"})
    EXPECT_TRUE(graph.at(key).is_boolean()) << key;
  for (const char* key : {"parse", "build", "total"}) EXPECT_TRUE(graph.at("load_ms").at(key).is_number()) << key;
  EXPECT_TRUE(graph.at("cache_saved_ms").is_number());
  const auto& o = j.at("options");
  EXPECT_EQ(o.at("strategies"), nlohmann::json({"delta-stepping", "dijkstra"}));
  EXPECT_TRUE(o.at("strategy_all").get<bool>());
  EXPECT_EQ(o.at("delta"), "auto");
  EXPECT_DOUBLE_EQ(o.at("delta_used").get<double>(), 62.5);
  EXPECT_TRUE(o.at("delta_auto_value").is_number());
  EXPECT_TRUE(o.at("delta_sweep").is_null());
  for (const char* key : {"buckets", "runs", "warmup_runs", "seed", "threads"})
    EXPECT_TRUE(o.at(key).is_number_integer()) << key;
  EXPECT_EQ(o.at("sources"), nlohmann::json({0}));
  EXPECT_TRUE(o.at("random_sources").is_null());
  EXPECT_EQ(o.at("path_to"), 4);
  EXPECT_TRUE(o.at("output").is_null());
  EXPECT_TRUE(o.at("gpu_memory_limit_bytes").is_null());
  for (const char* key : {"validate", "predecessors"}) EXPECT_TRUE(o.at(key).is_boolean()) << key;
  EXPECT_TRUE(o.at("weights").is_string());

  ASSERT_EQ(j.at("results").size(), 2u);
  const auto& r = j.at("results")[0];
  EXPECT_EQ(r.at("strategy"), "delta-stepping");
  EXPECT_EQ(r.at("device"), "cpu");
  EXPECT_EQ(r.at("source"), 0);
  EXPECT_DOUBLE_EQ(r.at("delta").get<double>(), 62.5);
  EXPECT_DOUBLE_EQ(r.at("delta_used").get<double>(), 62);
  EXPECT_DOUBLE_EQ(r.at("solve_ms").at("median").get<double>(), 2);
  EXPECT_DOUBLE_EQ(r.at("solve_ms").at("min").get<double>(), 1);
  EXPECT_DOUBLE_EQ(r.at("solve_ms").at("max").get<double>(), 3);
  EXPECT_EQ(r.at("solve_ms").at("runs").size(), 3u);
  for (const char* key : {"mteps", "work_ratio"}) EXPECT_TRUE(r.at(key).is_number()) << key;
  for (const char* key : {"relaxations", "reached_vertices", "reached_arcs", "mismatches"})
    EXPECT_TRUE(r.at(key).is_number_unsigned()) << key;
  for (const char* key : {"rounds", "rounds_narrow", "rounds_wide", "us_per_round", "local_steps", "us_per_step",
                          "resident", "iterations"})
    EXPECT_TRUE(r.at(key).is_null()) << key;  // a CPU solver counts no rounds
  EXPECT_EQ(r.at("buckets_processed"), 4);
  for (const char* key : {"full_splits", "full_splits_in_block", "full_splits_in_grid"})
    EXPECT_TRUE(r.at(key).is_null()) << key;  // only the bucketing strategies split
  EXPECT_TRUE(r.at("predecessors").is_boolean());
  EXPECT_EQ(r.at("validation"), "passed");
  EXPECT_TRUE(j.at("results")[1].at("delta").is_null());
  EXPECT_TRUE(j.at("results")[1].at("delta_used").is_null());
  EXPECT_EQ(j.at("results")[1].at("validation"), "not run");

  ASSERT_EQ(j.at("summary").size(), 2u);
  const auto& s = j.at("summary")[1];
  EXPECT_EQ(s.at("strategy"), "dijkstra");
  for (const char* key : {"solve_ms", "mteps", "work_ratio", "speedup_vs_cpu_delta_stepping"})
    EXPECT_TRUE(s.at(key).is_number()) << key;
  EXPECT_EQ(s.at("sources"), 1);
  for (const char* key : {"rounds", "rounds_narrow", "rounds_wide", "us_per_round", "iterations"})
    EXPECT_TRUE(s.at(key).is_null()) << key;
  EXPECT_FALSE(o.at("strategy_auto").get<bool>());  // --strategy all
  EXPECT_TRUE(j.at("auto_strategy").is_null());

  const auto& p = j.at("path");
  EXPECT_EQ(p.at("distance").get<std::uint64_t>(), 18446744073709551614ull);
  EXPECT_EQ(p.at("vertices"), nlohmann::json({0, 1, 3}));
  EXPECT_TRUE(p.at("reachable").get<bool>());
  EXPECT_TRUE(p.at("note").is_null());

  EXPECT_TRUE(j.at("validation").at("performed").get<bool>());
  EXPECT_TRUE(j.at("validation").at("passed").get<bool>());
  EXPECT_EQ(j.at("validation").at("problems"), 0);

  // Round trip through text: what a script reads back.
  EXPECT_EQ(nlohmann::json::parse(j.dump(2)), j);
}

TEST(AppJson, GpuRecordsCarryRoundsTheirSplitAndMicrosecondsPerRound) {
  std::vector<const char*> argv = {"sssp"};
  const app::AppOptions options = app::parse_options(static_cast<int>(argv.size()), argv.data());
  app::RunSummary run;
  RunRecord r = record("bellman-ford", "gpu", 0, {6}, 100, 300);
  r.rounds = 1500;
  r.rounds_narrow = 1480;
  r.rounds_wide = 20;
  r.local_steps = 500;
  app::finish_record(r);
  r.resident = false;
  RunRecord unsplit = record("near-far", "gpu", 0, {3}, 100, 100);
  unsplit.rounds = 1000;
  app::finish_record(unsplit);
  RunRecord resident = record("near-far", "gpu", 1, {2}, 100, 100);
  resident.rounds = 1000;
  resident.rounds_narrow = 1000;
  resident.rounds_wide = 0;
  resident.resident = true;
  app::finish_record(resident);
  run.records = {r, unsplit, resident};
  run.summary = app::summarize({r, unsplit});
  const nlohmann::json j = app::to_json(options, run);
  // The resident block says so, in JSON and in the table's narrow/wide cell.
  EXPECT_FALSE(j.at("results")[0].at("resident").get<bool>());
  EXPECT_TRUE(j.at("results")[1].at("resident").is_null());
  EXPECT_TRUE(j.at("results")[2].at("resident").get<bool>());
  const std::string table = app::format_results_table(run.records);
  EXPECT_NE(table.find("1000/0 resident"), std::string::npos) << table;
  EXPECT_EQ(table.find("1480/20 resident"), std::string::npos) << table;
  const auto& res = j.at("results")[0];
  EXPECT_EQ(res.at("rounds"), 1500);
  EXPECT_EQ(res.at("iterations"), 1500);  // the old name, kept
  EXPECT_EQ(res.at("rounds_narrow"), 1480);
  EXPECT_EQ(res.at("rounds_wide"), 20);
  EXPECT_DOUBLE_EQ(res.at("us_per_round").get<double>(), 4.0);  // 6000 us / 1500
  EXPECT_EQ(res.at("local_steps"), 500);
  EXPECT_DOUBLE_EQ(res.at("us_per_step").get<double>(), 3.0);  // 6000 us / (1500 + 500)
  const auto& other = j.at("results")[1];
  EXPECT_TRUE(other.at("local_steps").is_null());  // a record without the count
  EXPECT_TRUE(other.at("us_per_step").is_null());
  EXPECT_TRUE(other.at("rounds_narrow").is_null());
  EXPECT_TRUE(other.at("rounds_wide").is_null());
  EXPECT_DOUBLE_EQ(other.at("us_per_round").get<double>(), 3.0);
  const auto& sum = j.at("summary")[0];
  EXPECT_DOUBLE_EQ(sum.at("rounds").get<double>(), 1500);
  EXPECT_DOUBLE_EQ(sum.at("iterations").get<double>(), 1500);
  EXPECT_DOUBLE_EQ(sum.at("rounds_narrow").get<double>(), 1480);
  EXPECT_DOUBLE_EQ(sum.at("rounds_wide").get<double>(), 20);
  EXPECT_DOUBLE_EQ(sum.at("us_per_round").get<double>(), 4.0);
  EXPECT_TRUE(j.at("summary")[1].at("rounds_narrow").is_null());
}

TEST(AppJson, AutoStrategyRecordsTheChoiceTheReasonAndTheStatistics) {
  std::vector<const char*> argv = {"sssp", "--strategy", "auto,delta-stepping"};
  const app::AppOptions options = app::parse_options(static_cast<int>(argv.size()), argv.data());
  app::RunSummary run;
  app::AutoStrategyInfo a;
  a.chosen = "near-far";
  a.reason = "hop diameter estimate ~2100 > 50, degree cv 0.02, max degree 4, mean degree 4.0";
  a.source = 1;
  a.measure_ms = 0.75;
  sssp::GraphShape shape;
  shape.hop_estimate = 2100;
  shape.max_degree = 4;
  shape.mean_degree = 4;
  shape.degree_cv = 0.02;
  shape.bfs_arcs_scanned = 65536;
  shape.bfs_levels = 180;
  a.shape = shape;
  run.auto_strategy = a;
  EXPECT_EQ(app::format_auto_strategy_line(a),
            "strategy      auto -> near-far (hop diameter estimate ~2100 > 50, degree cv 0.02, max degree 4, "
            "mean degree 4.0; measured in 0.8 ms from source 1)\n");
  nlohmann::json j = app::to_json(options, run);
  EXPECT_TRUE(j.at("options").at("strategy_auto").get<bool>());
  const auto& aj = j.at("auto_strategy");
  EXPECT_EQ(aj.at("chosen"), "near-far");
  EXPECT_EQ(aj.at("reason"), a.reason);
  EXPECT_EQ(aj.at("source"), 1);
  EXPECT_DOUBLE_EQ(aj.at("measure_ms").get<double>(), 0.75);
  const auto& st = aj.at("statistics");
  EXPECT_EQ(st.at("hop_estimate"), 2100);
  EXPECT_FALSE(st.at("hop_exact").get<bool>());
  EXPECT_EQ(st.at("max_degree"), 4);
  EXPECT_DOUBLE_EQ(st.at("degree_cv").get<double>(), 0.02);
  EXPECT_EQ(st.at("bfs_arcs_scanned"), 65536);
  EXPECT_EQ(st.at("bfs_levels"), 180);
  for (const char* key : {"mean_degree", "isolated_share"}) EXPECT_TRUE(st.at(key).is_number()) << key;
  EXPECT_TRUE(st.at("degree_sampled").is_boolean());
  EXPECT_TRUE(aj.at("thresholds").at("max_hops_for_bellman_ford").is_number_unsigned());
  EXPECT_TRUE(aj.at("thresholds").at("min_degree_cv_for_bellman_ford").is_number());

  // The cpu device measures nothing: no statistics, no time.
  a.chosen = "delta-stepping";
  a.reason = "cpu device: auto chooses among GPU strategies only; the CPU runs its default";
  a.shape.reset();
  run.auto_strategy = a;
  EXPECT_EQ(app::format_auto_strategy_line(a), "strategy      auto -> delta-stepping (" + a.reason + ")\n");
  j = app::to_json(options, run);
  EXPECT_TRUE(j.at("auto_strategy").at("statistics").is_null());
  EXPECT_TRUE(j.at("auto_strategy").at("measure_ms").is_null());
}

TEST(AppJson, GpuIdentityIsSeparateFields) {
  std::vector<const char*> argv = {"sssp"};
  const app::AppOptions options = app::parse_options(static_cast<int>(argv.size()), argv.data());
  app::RunSummary run;
  run.device.kind = "gpu";
  sssp::GpuIdentity gpu;
  gpu.name = "NVIDIA H200";
  gpu.cc_major = 9;
  gpu.cc_minor = 0;
  gpu.multiprocessors = 132;
  gpu.memory_bytes = 150754820096ull;
  gpu.driver = "580.159.04";
  gpu.cuda_driver = "13.0";
  gpu.cuda_runtime = "13.0";
  run.device.gpu = gpu;
  const nlohmann::json g = app::to_json(options, run).at("device").at("gpu");
  EXPECT_EQ(g.at("name"), "NVIDIA H200");
  EXPECT_EQ(g.at("compute_capability"), "9.0");
  EXPECT_EQ(g.at("multiprocessors"), 132);
  EXPECT_EQ(g.at("memory_bytes"), 150754820096ull);
  EXPECT_EQ(g.at("driver"), "580.159.04");
  EXPECT_EQ(g.at("cuda_driver"), "13.0");
  EXPECT_EQ(g.at("cuda_runtime"), "13.0");
  run.device.gpu->driver.clear();  // no kernel-module version file: null, not ""
  EXPECT_TRUE(app::to_json(options, run).at("device").at("gpu").at("driver").is_null());
  run.device.vertex_order = "degree";
  run.device.reorder_ms = 1.5;
  const nlohmann::json d = app::to_json(options, run).at("device");
  EXPECT_EQ(d.at("vertex_order"), "degree");
  EXPECT_DOUBLE_EQ(d.at("reorder_ms").get<double>(), 1.5);
  sssp::ExecutionPlan plan;
  plan.load_balance = sssp::LoadBalance::MergePath;
  plan.merge_path_arc_bits = 17;
  plan.resident = true;
  plan.resident_layout = sssp::ResidentLayout::Offsets;
  plan.resident_local_steps = 16;
  plan.notes = {"a note"};
  run.device.plan = plan;
  const nlohmann::json p = app::to_json(options, run).at("device").at("plan");
  EXPECT_EQ(p.at("load_balance"), "merge-path");
  EXPECT_EQ(p.at("merge_path_arc_bits"), 17);
  EXPECT_EQ(p.at("resident"), true);
  EXPECT_EQ(p.at("resident_layout"), "offsets");
  EXPECT_EQ(p.at("resident_local_steps"), 16);
  EXPECT_EQ(p.at("narrow_max_arcs"), 8192);
  EXPECT_EQ(p.at("notes"), nlohmann::json::array({"a note"}));
  EXPECT_EQ(p.at("regimes"), nlohmann::json::array());  // set by make_plan
  run.device.plan->resident = false;
  EXPECT_TRUE(app::to_json(options, run).at("device").at("plan").at("resident_layout").is_null());
}

TEST(AppReport, PlanLines) {
  app::DeviceInfo d;
  EXPECT_EQ(app::format_plan_lines(d), "");  // no GPU solver
  sssp::ExecutionPlan p;
  p.load_balance = sssp::LoadBalance::MergePath;
  p.cluster_local_steps = 128;
  p.narrow_max_arcs = 1024;
  p.resident = true;
  p.resident_local_steps = 16;
  p.regimes = {sssp::Regime::Resident, sssp::Regime::Narrow, sssp::Regime::Cluster, sssp::Regime::Full};
  d.plan = p;
  EXPECT_EQ(app::format_plan_lines(d),
            "plan          resident block (distances in shared memory, 16 warp-local steps; near-far without "
            "predecessors), single block (up to 1024 arcs a round, 8192 in batches), cluster (128 local steps), "
            "full grid (merge-path)\n");
  p.skewed = true;
  p.persistent_grid = false;
  p.regimes = {sssp::Regime::Full};
  p.notes = {"load balance binned applies to the multi-block rounds only"};
  d.plan = p;
  EXPECT_EQ(app::format_plan_lines(d),
            "plan          a launch per step (merge-path); skewed degrees\n"
            "plan note     load balance binned applies to the multi-block rounds only\n");
}

TEST(AppJson, AtomicWriteReplacesTheFileAndLeavesNoTemporary) {
  const auto dir = test_support::scratch_dir("app_json");
  const auto path = dir / "r.json";
  app::write_file_atomically(path.string(), "{\"a\": 1}\n");
  app::write_file_atomically(path.string(), "{\"a\": 2}\n");
  EXPECT_EQ(read_file(path), "{\"a\": 2}\n");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u);
  const auto missing = dir / "no" / "such" / "dir" / "r.json";
  EXPECT_THROW(app::write_file_atomically(missing.string(), "x"), std::runtime_error);
  EXPECT_FALSE(std::filesystem::exists(missing));
  std::filesystem::remove_all(dir);
}

TEST(AppJson, VersionAndCommitAreAlwaysSet) {
  EXPECT_FALSE(app::tool_version().empty());
  EXPECT_FALSE(app::git_commit().empty());  // "unknown" outside a git checkout
}

TEST(AppBench, JsonRowsCarryTheGpuVertexOrder) {
  app::BenchOptions options;
  app::BenchRow gpu;
  gpu.graph = "rmat:20:16";
  gpu.method = "near-far";
  gpu.gpu = true;
  gpu.vertex_order = "degree";
  gpu.reorder_ms = 7.25;
  app::BenchRow cpu = gpu;
  cpu.method = "cpu delta-stepping (16 threads)";
  cpu.gpu = false;
  const nlohmann::json j = app::bench_json({gpu, cpu}, options, "test device");
  EXPECT_EQ(j.at("rows").at(0).at("vertex_order"), "degree");
  EXPECT_DOUBLE_EQ(j.at("rows").at(0).at("reorder_ms").get<double>(), 7.25);
  EXPECT_TRUE(j.at("rows").at(1).at("vertex_order").is_null());  // the CPU solves the graph as loaded
  EXPECT_TRUE(j.at("rows").at(1).at("reorder_ms").is_null());
}

// A stall hides in a median: a row whose max exceeds 1.5x its median is
// flagged in the table and the JSON.
TEST(AppBench, UnsteadyMeasurementsAreFlagged) {
  app::BenchOptions options;
  app::BenchRow steady;
  steady.graph = "DE.gr";
  steady.method = "near-far";
  steady.median_ms = 0.65;
  steady.min_ms = 0.63;
  steady.max_ms = 0.9;
  app::BenchRow stalled = steady;
  stalled.max_ms = 5.9;
  EXPECT_FALSE(steady.unsteady());
  EXPECT_TRUE(stalled.unsteady());
  const nlohmann::json j = app::bench_json({steady, stalled}, options, "test device");
  EXPECT_FALSE(j.at("rows").at(0).at("unsteady").get<bool>());
  EXPECT_TRUE(j.at("rows").at(1).at("unsteady").get<bool>());
  const std::string table = app::bench_markdown({steady, stalled});
  EXPECT_EQ(table.find("0.900 (unsteady)"), std::string::npos) << table;
  EXPECT_NE(table.find("5.900 (unsteady)"), std::string::npos) << table;
}

// A batch's table row gives the spread of its timed runs too, not only the
// median, so a stall cannot hide there either.
TEST(AppReport, BatchTableShowsTheSpread) {
  app::BatchRecord b;
  b.strategy = "near-far";
  b.device = "gpu";
  b.sources = 64;
  b.calls = 1;
  b.solve_ms = {2.5, 2.0, 7.25};
  app::finish_batch_record(b);
  const std::string table = app::format_batch_table({b});
  EXPECT_NE(table.find("min ms"), std::string::npos) << table;
  EXPECT_NE(table.find("max ms"), std::string::npos) << table;
  EXPECT_NE(table.find("2.500"), std::string::npos) << table;
  EXPECT_NE(table.find("2.000"), std::string::npos) << table;
  EXPECT_NE(table.find("7.250"), std::string::npos) << table;
}

// On a GPU machine --strategy all ran the CPU's delta-stepping at the GPU's
// delta (DE: 20,130, wide buckets the CPU solver is slow with), which
// flattered the GPU in the "speedup vs cpu" column. Each device's strategies
// now run at their own device's rule.
TEST(AppReport, CpuStrategiesOfAGpuRunUseTheCpuDeltaRule) {
  app::DeltaInfo delta;
  delta.value = delta.auto_value = 20130;
  delta.auto_rule = "c = 256 (road-like)";
  EXPECT_EQ(app::delta_for_strategy(app::Algorithm::DeltaStepping, 20130, delta), 20130);  // no CPU rule set
  delta.cpu_auto_value = 1250;
  EXPECT_EQ(app::delta_for_strategy(app::Algorithm::DeltaStepping, 20130, delta), 1250);
  EXPECT_EQ(app::delta_for_strategy(app::Algorithm::NearFar, 20130, delta), 20130);
  EXPECT_EQ(app::delta_for_strategy(app::Algorithm::BucketMultisplit, 20130, delta), 20130);
  const std::string line = app::format_delta_line(delta);
  EXPECT_NE(line.find("cpu strategies 1250"), std::string::npos) << line;
}

namespace {

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0, start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    widest = std::max(widest, end - start);
    start = end + 1;
  }
  return widest;
}

}  // namespace

// The default report of a GPU run of every strategy over several sources,
// one failing its validation: one row per strategy, within 100 columns,
// the device column because devices differ, the speedup against the CPU's.
TEST(AppBriefReport, EveryStrategyOnAGpuFitsOneHundredColumns) {
  app::RunSummary run;
  app::AppOptions options;
  options.runs = 5;
  run.graph.vertices = 1000000;
  for (const char* strategy : {"near-far", "bucket-sort", "bucket-multisplit", "bellman-ford", "delta-stepping"})
    for (std::uint64_t source = 0; source < 8; ++source) {
      const bool cpu = std::string(strategy) == "delta-stepping";
      RunRecord r = record(strategy, cpu ? "cpu" : "gpu", source, {1234.5, 1000.25, 9999.75, 1100, 1200},
                           123456789, 200000000);
      r.validation = std::string(strategy) == "bucket-sort" && source == 3 ? Check::Failed : Check::Passed;
      run.records.push_back(r);
    }
  const std::string text = app::format_brief_results(run, options);
  EXPECT_LE(widest_line(text), app::kReportWidth) << text;
  EXPECT_NE(text.find("device"), std::string::npos) << text;
  EXPECT_NE(text.find("speedup"), std::string::npos) << text;
  EXPECT_NE(text.find("FAILED 1/8"), std::string::npos) << text;
  EXPECT_NE(text.find("after a warm-up, 8 sources"), std::string::npos) << text;
  EXPECT_NE(text.find("passed (8)"), std::string::npos) << text;
  EXPECT_NE(text.find("9999.750"), std::string::npos) << text;  // the max over every run
  for (const char* strategy : {"near-far ", "bucket-sort ", "bucket-multisplit ", "bellman-ford ", "delta-stepping "}) {
    const std::size_t first = text.find(std::string("\n") + strategy);
    ASSERT_NE(first, std::string::npos) << strategy << text;
    EXPECT_EQ(text.find(std::string("\n") + strategy, first + 1), std::string::npos) << "two rows: " << strategy;
  }
}

TEST(AppBriefReport, WrapsAtTheValueColumnAndKeepsWords) {
  const std::string line = "strategy      auto -> near-far (" + std::string(60, 'x') + " " + std::string(30, 'y') +
                           " bucket-multisplit and more words that run past the end of the line)\n";
  const std::string wrapped = app::wrap_report(line);
  EXPECT_LE(widest_line(wrapped), app::kReportWidth) << wrapped;
  EXPECT_NE(wrapped.find("\n              "), std::string::npos) << wrapped;  // continued under the value
  EXPECT_NE(wrapped.find("bucket-multisplit"), std::string::npos) << wrapped;  // a word stays whole
  EXPECT_EQ(test_support::unwrapped(wrapped), line);
  EXPECT_EQ(app::wrap_report("short line\n"), "short line\n");
}

// A source that reaches under 1% of a graph of 100 vertices or more is said to.
TEST(AppBriefReport, WarnsAboutSourcesThatReachAlmostNothing) {
  app::RunSummary run;
  run.graph.vertices = 4194304;
  RunRecord r = record("delta-stepping", "cpu", 0, {1}, 4, 4);  // 2 vertices reached
  run.records.push_back(r);
  EXPECT_NE(app::reach_warnings(run).find("sssp: warning: source 0 reaches 2 of 4194304 vertices"), std::string::npos);
  run.records.front().reached_vertices = 4194304 / 50;
  EXPECT_EQ(app::reach_warnings(run), "");
}
