// make_plan (src/sssp/plan.hpp) pinned for the graph classes the solver is
// tuned on, on sm_80 (A100) and sm_90 (H200) device facts. Each expectation
// follows from the rules as they stood in the solver before they moved into
// make_plan (thresholds in solver.hpp and auto_strategy.hpp; the worked
// numbers are in the comments), not from running make_plan.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sssp/plan.hpp"

namespace {

using sssp::DeviceFacts;
using sssp::ExecutionPlan;
using sssp::GraphFacts;
using sssp::LoadBalance;
using sssp::ResidentLayout;
using sssp::SolverOptions;
using sssp::VertexOrdering;

DeviceFacts a100() {
  DeviceFacts d;
  d.cc_major = 8;
  d.cc_minor = 0;
  d.multiprocessors = 108;
  d.shared_optin_bytes = 163 * 1024;  // 166,912
  return d;
}

DeviceFacts h200() {
  DeviceFacts d;
  d.cc_major = 9;
  d.cc_minor = 0;
  d.multiprocessors = 132;
  d.shared_optin_bytes = 227 * 1024;  // 232,448
  return d;
}

GraphFacts facts(std::uint64_t n, std::uint64_t m, std::uint64_t max_degree, std::uint64_t heavy_arcs) {
  GraphFacts g;
  g.vertices = n;
  g.arcs = m;
  g.max_degree = max_degree;
  g.heavy_arcs = heavy_arcs;
  return g;
}

// The shape measure_shape would report, as far as the resident rule reads it.
sssp::GraphShape shape(std::uint64_t n, std::uint64_t m, std::uint64_t hops) {
  sssp::GraphShape s;
  s.vertices = n;
  s.arcs = m;
  s.mean_degree = static_cast<double>(m) / static_cast<double>(n);
  s.hop_estimate = hops;
  return s;
}

// The resident block's shared memory for n vertices in each layout is
// 4 x (n + ceil(n / 32) + 2 x 2048 + 32 x 64 [+ n + 1 offsets] [+ 2m arcs])
// bytes, plus 440 (Control) and 1024 of slack, against the opt-in limit.

// DE (Germany's roads): 49,109 vertices, 119,520 arcs, mean degree 2.43,
// a hop estimate in the hundreds.
GraphFacts road_de() {
  GraphFacts g = facts(49'109, 119'520, 8, 0);
  g.labels_pack = true;
  g.shape = shape(49'109, 119'520, 600);
  return g;
}

TEST(MakePlan, RoadOnH200RunsResidentWithTheDistancesOnly) {
  const ExecutionPlan p = sssp::make_plan(road_de(), h200(), SolverOptions{});
  EXPECT_EQ(p.vertex_ordering, VertexOrdering::Input);  // below 2^17 vertices
  // Arcs need 2^17 > 119,520: 17 bits; vertices 2^16 > 49,109: 16; 33 <= 64.
  EXPECT_EQ(p.load_balance, LoadBalance::MergePath);
  EXPECT_EQ(p.merge_path_arc_bits, 17);
  EXPECT_DOUBLE_EQ(p.heavy_arc_share, 0.0);
  EXPECT_TRUE(p.single_block_loop);
  EXPECT_FALSE(p.skewed);  // 8 < 16 x 2.43
  EXPECT_TRUE(p.cluster_loop);
  EXPECT_EQ(p.cluster_local_steps, 128u);
  // The cluster takes local steps on sm_90: the block hands over at 1024 arcs.
  EXPECT_EQ(p.narrow_max_arcs, 1024u);
  EXPECT_EQ(p.batch_narrow_max_arcs, 8192u);
  // Distances: 4 x (49,109 + 1,535 + 6,144) + 1,464 = 228,616 <= 232,448;
  // offsets too would need 425,056.
  EXPECT_TRUE(p.resident);
  EXPECT_EQ(p.resident_layout, ResidentLayout::Distances);
  EXPECT_EQ(p.resident_local_steps, 16u);
  EXPECT_TRUE(p.notes.empty());
}

TEST(MakePlan, RoadOnA100DoesNotFitTheResidentBlock) {
  EXPECT_FALSE(sssp::resident_reads_graph(road_de(), a100(), SolverOptions{}));  // 228,616 > 166,912
  const ExecutionPlan p = sssp::make_plan(facts(49'109, 119'520, 8, 0), a100(), SolverOptions{});
  EXPECT_EQ(p.load_balance, LoadBalance::MergePath);
  EXPECT_TRUE(p.cluster_loop);  // allowed; the engine finds no clusters before sm_90
  EXPECT_EQ(p.cluster_local_steps, 128u);
  EXPECT_EQ(p.narrow_max_arcs, 8192u);  // no cluster to hand over to
  EXPECT_FALSE(p.resident);
  EXPECT_TRUE(p.notes.empty());
}

TEST(MakePlan, RoadResidentOptions) {
  SolverOptions off;
  off.overrides.resident_block = false;
  EXPECT_FALSE(sssp::resident_reads_graph(road_de(), h200(), off));
  const ExecutionPlan p = sssp::make_plan(facts(49'109, 119'520, 8, 0), h200(), off);
  EXPECT_FALSE(p.resident);
  EXPECT_EQ(p.narrow_max_arcs, 1024u);
  EXPECT_TRUE(p.notes.empty());

  SolverOptions no_block = SolverOptions{};
  no_block.overrides.single_block_loop = false;
  const ExecutionPlan q = sssp::make_plan(facts(49'109, 119'520, 8, 0), h200(), no_block);
  EXPECT_FALSE(q.resident);
  EXPECT_FALSE(q.single_block_loop);
  EXPECT_EQ(q.narrow_max_arcs, 8192u);  // no single-block loop: no cascading cluster either

  // Labels that do not pack (n - 1 times the largest weight reaches 2^32).
  GraphFacts wide = road_de();
  wide.labels_pack = false;
  EXPECT_FALSE(sssp::make_plan(wide, h200(), SolverOptions{}).resident);

  // A road-sized graph that is not chain-like (few hops).
  GraphFacts shallow = road_de();
  shallow.shape = shape(49'109, 119'520, 31);
  EXPECT_FALSE(sssp::make_plan(shallow, h200(), SolverOptions{}).resident);

  SolverOptions steps;
  steps.overrides.resident_local_steps = 0;
  EXPECT_EQ(sssp::make_plan(road_de(), h200(), steps).resident_local_steps, 0u);
  EXPECT_TRUE(sssp::make_plan(road_de(), h200(), steps).notes.empty());
  steps.overrides.resident_local_steps = 64;
  EXPECT_EQ(sssp::make_plan(road_de(), h200(), steps).resident_local_steps, 64u);
  const ExecutionPlan unused = sssp::make_plan(facts(49'109, 119'520, 8, 0), a100(), steps);
  ASSERT_EQ(unused.notes.size(), 1u);
  EXPECT_NE(unused.notes[0].find("resident_local_steps 64 is not used"), std::string::npos) << unused.notes[0];
  EXPECT_NE(unused.notes[0].find("do not fit"), std::string::npos) << unused.notes[0];
}

TEST(MakePlan, TheResidentRuleRefusesFactsItNeedsAndWasNotGiven) {
  GraphFacts g = road_de();
  g.labels_pack.reset();
  EXPECT_THROW(sssp::make_plan(g, h200(), SolverOptions{}), std::logic_error);
  g = road_de();
  g.shape.reset();
  EXPECT_THROW(sssp::make_plan(g, h200(), SolverOptions{}), std::logic_error);
  SolverOptions any;
  any.overrides.resident_any_shape = true;
  EXPECT_TRUE(sssp::make_plan(g, h200(), any).resident);  // any shape: the shape is not read
}

// A contracted road core of 4,000 vertices and 13,000 arcs (mean 3.25):
// distances, offsets and arcs fit: 4 x (26,000 + 4,000 + 125 + 6,144 + 4,001)
// + 1,464 = 162,544 <= 166,912. One of 12,000 vertices and 40,000 arcs
// (mean 3.33): the offsets fit, 4 x (12,000 + 375 + 6,144 + 12,001) + 1,464 =
// 123,544, the arcs do not (443,544).
GraphFacts small_core() {
  GraphFacts g = facts(4'000, 13'000, 12, 0);
  g.labels_pack = true;
  g.shape = shape(4'000, 13'000, 150);
  return g;
}

GraphFacts core() {
  GraphFacts g = facts(12'000, 40'000, 20, 0);
  g.labels_pack = true;
  g.shape = shape(12'000, 40'000, 150);
  return g;
}

TEST(MakePlan, RoadCoresKeepWhatFitsInSharedMemory) {
  for (const DeviceFacts& d : {a100(), h200()}) {
    const bool sm90 = d.cc_major >= 9;
    const ExecutionPlan s = sssp::make_plan(small_core(), d, SolverOptions{});
    EXPECT_EQ(s.vertex_ordering, VertexOrdering::Input);
    EXPECT_EQ(s.load_balance, LoadBalance::MergePath);
    EXPECT_EQ(s.merge_path_arc_bits, 14);  // 2^14 > 13,000
    EXPECT_FALSE(s.skewed);
    EXPECT_EQ(s.cluster_local_steps, 128u);
    EXPECT_EQ(s.narrow_max_arcs, sm90 ? 1024u : 8192u);
    EXPECT_TRUE(s.resident);
    EXPECT_EQ(s.resident_layout, ResidentLayout::Arcs);

    SolverOptions no_arcs;
    no_arcs.overrides.resident_shared_arcs = false;
    const ExecutionPlan o = sssp::make_plan(small_core(), d, no_arcs);
    EXPECT_TRUE(o.resident);
    EXPECT_EQ(o.resident_layout, ResidentLayout::Offsets);

    const ExecutionPlan c = sssp::make_plan(core(), d, SolverOptions{});
    EXPECT_EQ(c.merge_path_arc_bits, 16);  // 2^16 > 40,000
    EXPECT_TRUE(c.resident);
    EXPECT_EQ(c.resident_layout, ResidentLayout::Offsets);
    EXPECT_TRUE(c.notes.empty());
  }
}

// Grids, 4-neighbour, arcs both ways: k^2 vertices, 4k(k - 1) arcs, degree
// at most 4, thousands of hops; far too large for the resident block.
TEST(MakePlan, Grids) {
  struct Grid {
    std::uint64_t k;
    int arc_bits;
  };
  // 1024^2: 4,190,208 arcs < 2^22; 2048^2: 16,769,024 < 2^24.
  for (const Grid grid : {Grid{1024, 22}, Grid{2048, 24}}) {
    const GraphFacts g = facts(grid.k * grid.k, 4 * grid.k * (grid.k - 1), 4, 0);
    for (const DeviceFacts& d : {a100(), h200()}) {
      EXPECT_FALSE(sssp::resident_reads_graph(g, d, SolverOptions{}));
      const ExecutionPlan p = sssp::make_plan(g, d, SolverOptions{});
      EXPECT_EQ(p.vertex_ordering, VertexOrdering::Input);  // 4 < 32 x 3.99
      EXPECT_EQ(p.load_balance, LoadBalance::MergePath);
      EXPECT_EQ(p.merge_path_arc_bits, grid.arc_bits);
      EXPECT_FALSE(p.skewed);
      EXPECT_TRUE(p.cluster_loop);
      EXPECT_EQ(p.cluster_local_steps, 128u);
      EXPECT_EQ(p.narrow_max_arcs, d.cc_major >= 9 ? 1024u : 8192u);
      EXPECT_FALSE(p.resident);
      EXPECT_TRUE(p.notes.empty());
    }
  }
}

// R-MAT 2^20, average degree 16: skewed (the largest out-degree, 30,000, is
// over 32 x 16 and 16 x 16), most arcs leave heavy vertices.
GraphFacts rmat20() { return facts(1u << 20, 1u << 24, 30'000, 12'000'000); }

TEST(MakePlan, RmatIsRenumberedAndItsClusterTakesNoLocalSteps) {
  for (const DeviceFacts& d : {a100(), h200()}) {
    const ExecutionPlan p = sssp::make_plan(rmat20(), d, SolverOptions{});
    EXPECT_EQ(p.vertex_ordering, VertexOrdering::Degree);
    EXPECT_EQ(p.load_balance, LoadBalance::MergePath);
    EXPECT_EQ(p.merge_path_arc_bits, 25);  // 2^25 > 2^24 arcs; 21 bits of vertices
    EXPECT_DOUBLE_EQ(p.heavy_arc_share, 12'000'000.0 / (1u << 24));
    EXPECT_TRUE(p.skewed);
    EXPECT_TRUE(p.cluster_loop);  // not small: 2^20 >= 2^17 vertices
    EXPECT_EQ(p.cluster_local_steps, 0u);
    EXPECT_EQ(p.narrow_max_arcs, 8192u);  // no local steps: no earlier hand-over
    EXPECT_FALSE(p.resident);
    EXPECT_TRUE(p.notes.empty());
  }
  SolverOptions input;
  input.vertex_ordering = VertexOrdering::Input;
  EXPECT_EQ(sssp::make_plan(rmat20(), h200(), input).vertex_ordering, VertexOrdering::Input);
  SolverOptions steps;
  steps.overrides.cluster_local_steps = 32;
  const ExecutionPlan s = sssp::make_plan(rmat20(), h200(), steps);
  EXPECT_EQ(s.cluster_local_steps, 32u);
  EXPECT_EQ(s.narrow_max_arcs, 1024u);
  EXPECT_TRUE(s.notes.empty());
  const ExecutionPlan s80 = sssp::make_plan(rmat20(), a100(), steps);
  EXPECT_EQ(s80.narrow_max_arcs, 8192u);
  ASSERT_EQ(s80.notes.size(), 1u);
  EXPECT_NE(s80.notes[0].find("cluster_local_steps 32 is not used"), std::string::npos) << s80.notes[0];
}

TEST(MakePlan, ARequestedBalancerIsNotedWhereItsRegimesIgnoreIt) {
  SolverOptions binned;
  binned.load_balance = LoadBalance::Binned;
  const ExecutionPlan p90 = sssp::make_plan(rmat20(), h200(), binned);
  EXPECT_EQ(p90.load_balance, LoadBalance::Binned);  // 2^16 + 1 hub slots < 2^24
  ASSERT_EQ(p90.notes.size(), 1u);
  EXPECT_NE(p90.notes[0].find("load balance binned applies to the multi-block rounds only"), std::string::npos);
  EXPECT_NE(p90.notes[0].find("single-block and cluster loops"), std::string::npos) << p90.notes[0];
  const ExecutionPlan p80 = sssp::make_plan(rmat20(), a100(), binned);
  ASSERT_EQ(p80.notes.size(), 1u);
  EXPECT_EQ(p80.notes[0].find("cluster"), std::string::npos) << p80.notes[0];
  // Every round on the grid: the balancer runs them all.
  binned.overrides.single_block_loop = false;
  EXPECT_TRUE(sssp::make_plan(rmat20(), h200(), binned).notes.empty());

  // On a road the resident block takes near-far solves without predecessors too.
  SolverOptions three;
  three.load_balance = LoadBalance::ThreeStage;
  const ExecutionPlan road = sssp::make_plan(road_de(), h200(), three);
  EXPECT_EQ(road.load_balance, LoadBalance::ThreeStage);
  EXPECT_TRUE(road.resident);
  ASSERT_EQ(road.notes.size(), 2u);
  EXPECT_NE(road.notes[1].find("resident block"), std::string::npos) << road.notes[1];
}

TEST(MakePlan, BalancersThatCannotHoldTheGraph) {
  // 2^29 vertices (30 bits) and 2^36 arcs (37 bits) overflow merge-path's
  // word; 2^28 + 1 hub slots overflow binned's counter.
  const GraphFacts huge = facts(1u << 29, std::uint64_t{1} << 36, 1000, std::uint64_t{1} << 35);
  const ExecutionPlan p = sssp::make_plan(huge, h200(), SolverOptions{});
  EXPECT_EQ(p.load_balance, LoadBalance::ThreeStage);
  EXPECT_EQ(p.merge_path_arc_bits, 0);
  SolverOptions o;
  o.load_balance = LoadBalance::MergePath;
  EXPECT_THROW(sssp::make_plan(huge, h200(), o), std::invalid_argument);
  o.load_balance = LoadBalance::Binned;
  EXPECT_THROW(sssp::make_plan(huge, h200(), o), std::invalid_argument);
}

// A mesh (mean degree 6, degree at most 12): large ones do not fit the
// resident block; a small one does, but is not chain-like.
TEST(MakePlan, Meshes) {
  const GraphFacts large = facts(500'000, 3'000'000, 12, 0);
  for (const DeviceFacts& d : {a100(), h200()}) {
    const ExecutionPlan p = sssp::make_plan(large, d, SolverOptions{});
    EXPECT_EQ(p.vertex_ordering, VertexOrdering::Input);
    EXPECT_EQ(p.load_balance, LoadBalance::MergePath);
    EXPECT_EQ(p.merge_path_arc_bits, 22);  // 2^22 > 3,000,000
    EXPECT_FALSE(p.skewed);
    EXPECT_EQ(p.cluster_local_steps, 128u);
    EXPECT_EQ(p.narrow_max_arcs, d.cc_major >= 9 ? 1024u : 8192u);
    EXPECT_FALSE(p.resident);
  }
  GraphFacts small = facts(20'000, 120'000, 12, 0);
  small.labels_pack = true;
  small.shape = shape(20'000, 120'000, 80);
  for (const DeviceFacts& d : {a100(), h200()}) {
    EXPECT_TRUE(sssp::resident_reads_graph(small, d, SolverOptions{}));
    EXPECT_FALSE(sssp::make_plan(small, d, SolverOptions{}).resident);  // mean 6 >= 3.5
  }
  // Any shape: offsets fit on sm_90 (4 x (20,000 + 625 + 6,144 + 20,001) +
  // 1,464 = 188,544), only the distances on sm_80.
  SolverOptions any;
  any.overrides.resident_any_shape = true;
  const ExecutionPlan p90 = sssp::make_plan(small, h200(), any);
  EXPECT_TRUE(p90.resident);
  EXPECT_EQ(p90.resident_layout, ResidentLayout::Offsets);
  EXPECT_TRUE(p90.notes.empty());
  const ExecutionPlan p80 = sssp::make_plan(small, a100(), any);
  EXPECT_TRUE(p80.resident);
  EXPECT_EQ(p80.resident_layout, ResidentLayout::Distances);
  // Any shape where the distances do not fit: said.
  const ExecutionPlan big = sssp::make_plan(large, h200(), any);
  EXPECT_FALSE(big.resident);
  ASSERT_EQ(big.notes.size(), 1u);
  EXPECT_NE(big.notes[0].find("resident_any_shape"), std::string::npos) << big.notes[0];
}

// ego-Facebook: 4,039 vertices, 176,468 arcs (mean 43.7), the largest
// out-degree 1,045 (>= 16 x 43.7 = 699): small and skewed.
GraphFacts social() {
  GraphFacts g = facts(4'039, 176'468, 1'045, 160'000);
  g.labels_pack = true;
  g.shape = shape(4'039, 176'468, 8);
  return g;
}

TEST(MakePlan, SmallSocialGraphsSkipTheClusterLoop) {
  for (const DeviceFacts& d : {a100(), h200()}) {
    const ExecutionPlan p = sssp::make_plan(social(), d, SolverOptions{});
    EXPECT_EQ(p.vertex_ordering, VertexOrdering::Input);  // below 2^17 vertices
    EXPECT_EQ(p.load_balance, LoadBalance::MergePath);
    EXPECT_EQ(p.merge_path_arc_bits, 18);  // 2^18 > 176,468
    EXPECT_TRUE(p.skewed);
    EXPECT_FALSE(p.cluster_loop);
    EXPECT_EQ(p.cluster_local_steps, 0u);
    EXPECT_EQ(p.narrow_max_arcs, 8192u);
    EXPECT_FALSE(p.resident);  // fits, not chain-like
    EXPECT_TRUE(p.notes.empty());
  }
  SolverOptions any;
  any.overrides.cluster_any_shape = true;
  const ExecutionPlan p90 = sssp::make_plan(social(), h200(), any);
  EXPECT_TRUE(p90.cluster_loop);
  EXPECT_EQ(p90.cluster_local_steps, 0u);
  EXPECT_EQ(p90.narrow_max_arcs, 8192u);
  EXPECT_TRUE(p90.notes.empty());
  const ExecutionPlan p80 = sssp::make_plan(social(), a100(), any);
  EXPECT_TRUE(p80.cluster_loop);
  ASSERT_EQ(p80.notes.size(), 1u);
  EXPECT_NE(p80.notes[0].find("cluster_any_shape"), std::string::npos) << p80.notes[0];
}

TEST(MakePlan, OptionRangesAndArcLimits) {
  SolverOptions o;
  o.overrides.narrow_max_arcs = 512;
  const ExecutionPlan p = sssp::make_plan(road_de(), h200(), o);
  EXPECT_EQ(p.narrow_max_arcs, 512u);
  EXPECT_EQ(p.batch_narrow_max_arcs, 512u);
  const auto throws = [](auto set) {
    SolverOptions bad;
    set(bad);
    EXPECT_THROW(sssp::make_plan(road_de(), h200(), bad), std::invalid_argument);
  };
  throws([](SolverOptions& b) { b.overrides.narrow_max_arcs = 8193; });
  throws([](SolverOptions& b) { b.overrides.cluster_local_steps = 1025; });
  throws([](SolverOptions& b) { b.overrides.cluster_local_steps = -2; });
  throws([](SolverOptions& b) { b.overrides.resident_local_steps = 1025; });
  throws([](SolverOptions& b) { b.overrides.block_split_max_items = 16385; });
  throws([](SolverOptions& b) { b.overrides.wide_blocks_per_sm = -1; });
}

TEST(MakePlan, AnEmptyGraph) {
  const ExecutionPlan p = sssp::make_plan(facts(0, 0, 0, 0), h200(), SolverOptions{});
  EXPECT_EQ(p.vertex_ordering, VertexOrdering::Input);
  EXPECT_EQ(p.load_balance, LoadBalance::MergePath);  // counted as one vertex: 1 + 1 bits
  EXPECT_FALSE(p.skewed);
  EXPECT_FALSE(p.resident);
}

}  // namespace

namespace {

// The regimes each plan may run.
TEST(PlanRegimes, FollowTheDevicesAndTheOptions) {
  using sssp::Regime;
  using Regimes = std::vector<Regime>;
  EXPECT_EQ(sssp::make_plan(road_de(), h200(), SolverOptions{}).regimes,
            (Regimes{Regime::Resident, Regime::Narrow, Regime::Cluster, Regime::Full}));
  // No clusters before sm_90: the medium grid takes medium frontiers.
  EXPECT_EQ(sssp::make_plan(facts(49'109, 119'520, 8, 0), a100(), SolverOptions{}).regimes,
            (Regimes{Regime::Narrow, Regime::Medium, Regime::Full}));
  EXPECT_EQ(sssp::make_plan(rmat20(), h200(), SolverOptions{}).regimes,
            (Regimes{Regime::Narrow, Regime::Cluster, Regime::Full}));
  // Small and skewed: no cluster, so the medium grid, on sm_90 too.
  EXPECT_EQ(sssp::make_plan(social(), h200(), SolverOptions{}).regimes,
            (Regimes{Regime::Narrow, Regime::Medium, Regime::Full}));
  SolverOptions no_block;
  no_block.overrides.single_block_loop = false;
  EXPECT_EQ(sssp::make_plan(rmat20(), h200(), no_block).regimes, (Regimes{Regime::Medium, Regime::Full}));
  SolverOptions launches;
  launches.overrides.persistent_grid = false;
  EXPECT_EQ(sssp::make_plan(rmat20(), a100(), launches).regimes, (Regimes{Regime::Narrow, Regime::Full}));
  SolverOptions no_medium;
  no_medium.overrides.medium_grid = false;
  EXPECT_EQ(sssp::make_plan(rmat20(), a100(), no_medium).regimes, (Regimes{Regime::Narrow, Regime::Full}));
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" `*");
  const auto last = s.find_last_not_of(" `*");
  return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

// docs/ARCHITECTURE.md's regime table, one row per regime in make_plan's
// order: the plan's field that lets it run, a kernel its file defines, and
// the balancers honours_load_balance says it honours.
TEST(PlanRegimes, TheArchitectureTableMatchesThePlan) {
  const std::string root = std::string(SSSP_FIXTURES_DIR) + "/../../";
  std::istringstream doc(read_text(root + "docs/ARCHITECTURE.md"));
  std::string line;
  while (std::getline(doc, line) && line.rfind("| Regime |", 0) != 0) {
  }
  ASSERT_EQ(line.rfind("| Regime |", 0), 0u) << "no regime table in docs/ARCHITECTURE.md";
  std::getline(doc, line);  // |---|---|...
  std::vector<std::vector<std::string>> rows;
  while (std::getline(doc, line) && line.rfind("|", 0) == 0) {
    std::vector<std::string> cells;
    std::stringstream cell_stream(line.substr(1));
    std::string cell;
    while (std::getline(cell_stream, cell, '|')) cells.push_back(cell);
    ASSERT_EQ(cells.size(), 5u) << line;
    rows.push_back(cells);
  }
  const std::vector<sssp::Regime> regimes = sssp::all_regimes();
  ASSERT_EQ(rows.size(), regimes.size());
  const auto field_of = [](sssp::Regime r) -> std::string {
    switch (r) {
      case sssp::Regime::Resident: return "`resident`";
      case sssp::Regime::Narrow: return "`single_block_loop`";
      case sssp::Regime::Cluster: return "`cluster_loop`";
      case sssp::Regime::Medium: return "`medium_grid`";
      case sssp::Regime::Full: return "`persistent_grid`";
    }
    return "?";
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const sssp::Regime r = regimes[i];
    const auto& row = rows[i];
    EXPECT_EQ(trim(row[0]), sssp::to_string(r));
    EXPECT_NE(row[1].find(field_of(r)), std::string::npos) << sssp::to_string(r) << ": " << row[1];
    const std::string kernel = trim(row[2]), file = trim(row[3]);
    const std::string source = read_text(root + "src/sssp/" + file);
    ASSERT_FALSE(source.empty()) << file;
    const auto at = source.find(" " + kernel + "(") != std::string::npos ? source.find(" " + kernel + "(")
                                                                         : source.find("\n" + kernel + "(");
    ASSERT_NE(at, std::string::npos) << kernel << " in " << file;
    EXPECT_NE(source.rfind("__global__", at), std::string::npos) << kernel << " in " << file;
    EXPECT_LT(at - source.rfind("__global__", at), 200u) << kernel << " is not a kernel in " << file;
    if (sssp::honours_load_balance(r)) {
      EXPECT_EQ(trim(row[4]), "three-stage, binned, merge-path") << sssp::to_string(r);
    } else {
      EXPECT_EQ(row[4].find("none"), 1u) << sssp::to_string(r) << ": " << row[4];
    }
  }
}

}  // namespace
