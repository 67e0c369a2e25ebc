// GpuSolver::solve_batch: many sources in shared launches (a block per
// source) must give each source exactly Dijkstra's distances, whether the
// source finishes in its block or outgrows it and is solved together with
// the others that did (copies of the graph) or alone; with
// repeated sources, sources without out-arcs, more sources than one launch
// takes, float weights, and every regime option.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_test_support.cuh"
#include "graph/generators.hpp"
#include "graph/reference.hpp"
#include "graph/verify.hpp"
#include "sssp/plan.hpp"
#include "sssp/solver.hpp"

namespace {

graph::IntCsr generated(const std::string& spec, std::uint64_t seed) {
  return graph::generate(graph::GeneratorSpec::parse(spec), graph::WeightRule::parse("random:1:1000", seed), seed);
}

struct Outgrown {
  std::uint32_t alone = 0, together = 0, resident = 0;
};

// Checks one solve_batch call on `solver`; returns how the sources that
// outgrew their block were finished.
template <class Weight>
Outgrown expect_batch_exact(sssp::GpuSolver<Weight>& solver, const graph::Csr<Weight>& g,
                            const std::vector<graph::vertex_id>& sources, sssp::Strategy strategy,
                            const std::string& what) {
  const auto r = solver.solve_batch(sources, strategy, graph::auto_delta(g, 64));
  EXPECT_EQ(r.per_source.size(), sources.size()) << what;
  if (r.per_source.size() != sources.size()) return {~0u, ~0u};
  EXPECT_LE(r.finished_alone + r.solved_together, sources.size()) << what;
  EXPECT_TRUE(r.resident == 0 || r.resident == sources.size()) << what << ": " << r.resident << " resident";
  if (r.resident > 0) EXPECT_EQ(r.finished_alone + r.solved_together, 0u) << what << ": resident sources outgrow nothing";
  EXPECT_NE(r.solved_together, 1u) << what << ": a source solved 'together' with no other";
  EXPECT_GE(r.sources_per_launch, 1u) << what;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const auto want = graph::dijkstra(g, sources[i]);
    const auto bad = graph::find_distance_mismatches<Weight>(want, r.per_source[i].distances, 0);
    EXPECT_TRUE(bad.none()) << what << ", " << sssp::to_string(strategy) << ", source " << sources[i] << " (index " << i
                            << "): " << bad.count << " wrong distances";
    if (g.out_degree(sources[i]) > 0) EXPECT_GT(r.per_source[i].iterations, 0u) << what;
    EXPECT_EQ(r.per_source[i].resident, r.resident > 0) << what << ", index " << i;
  }
  return {r.finished_alone, r.solved_together, r.resident};
}

// The same on a solver of its own; returns how many sources finished alone.
template <class Weight>
std::uint32_t expect_batch_exact(const graph::Csr<Weight>& g, const std::vector<graph::vertex_id>& sources,
                                 const sssp::SolverOptions& options, sssp::Strategy strategy,
                                 const std::string& what) {
  sssp::GpuSolver<Weight> solver(g, options);
  return expect_batch_exact(solver, g, sources, strategy, what).alone;
}

std::vector<graph::vertex_id> random_sources(graph::vertex_id n, std::size_t k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<graph::vertex_id> s;
  for (std::size_t i = 0; i < k; ++i) s.push_back(static_cast<graph::vertex_id>(rng() % n));
  return s;
}

TEST(SsspBatch, RoadLikeGridsStayInTheirBlocks) {
  SKIP_IF_NO_GPU();
  const auto g = generated("grid:40:60", 3);
  auto sources = random_sources(g.num_vertices, 20, 5);
  sources.push_back(sources.front());  // a source twice
  // Frontiers of a few hundred vertices: every source finishes in its block
  // (the batched launch itself must be right, not only the fallback; the
  // resident block, which would take a chain-like graph, is tested below).
  sssp::SolverOptions small_blocks;
  small_blocks.overrides.resident_block = false;
  for (const auto strategy : {sssp::Strategy::NearFar, sssp::Strategy::BellmanFord})
    EXPECT_EQ(expect_batch_exact(g, sources, small_blocks, strategy, "grid 40x60"), 0u) << sssp::to_string(strategy);
  // Sixty sources: block b reads state slot b, past the first page of slots.
  const auto many = random_sources(g.num_vertices, 60, 29);
  EXPECT_EQ(expect_batch_exact(g, many, small_blocks, sssp::Strategy::NearFar, "grid 40x60, 60 sources"), 0u);
}

// Where single near-far solves run in the resident block, a batch's do too,
// one block per source, each block's labels in its own row and its counts
// in its own slot: every resident layout, with and without warp-local
// steps, more sources than SMs, sources twice, sources without arcs, more
// sources than one launch takes; bellman-ford keeps the small blocks.
TEST(SsspBatch, ResidentSolvesOneBlockPerSource) {
  SKIP_IF_NO_GPU();
  const auto g = generated("grid:40:60", 3);
  auto sources = random_sources(g.num_vertices, 300, 31);
  sources.push_back(sources[7]);
  sssp::SolverOptions resident;
  resident.overrides.resident_any_shape = true;
  sssp::SolverOptions offsets_only = resident;
  offsets_only.overrides.resident_shared_arcs = false;
  sssp::SolverOptions one_hop = resident;
  one_hop.overrides.resident_local_steps = 0;
  for (const auto& [options, what] : {std::pair{resident, "grid 40x60, resident"},
                                      std::pair{offsets_only, "grid 40x60, resident, arcs in L2"},
                                      std::pair{one_hop, "grid 40x60, resident, no local steps"}}) {
    sssp::GpuSolver<std::uint32_t> solver(g, options);
    // 2,400 vertices and 9,400 arcs: the arcs fit beside the distances on any
    // device with the resident block (120,744 bytes).
    const sssp::ExecutionPlan& plan = solver.plan();
    EXPECT_TRUE(plan.resident) << what;
    EXPECT_EQ(plan.resident_layout,
              options.overrides.resident_shared_arcs ? sssp::ResidentLayout::Arcs : sssp::ResidentLayout::Offsets)
        << what;
    EXPECT_EQ(plan.resident_local_steps, options.overrides.resident_local_steps == 0 ? 0u : 16u) << what;
    EXPECT_EQ(expect_batch_exact(solver, g, sources, sssp::Strategy::NearFar, what).resident, sources.size()) << what;
    // Fewer sources after more: rows and slots of the call before are not read.
    const std::vector<graph::vertex_id> three(sources.begin() + 10, sources.begin() + 13);
    EXPECT_EQ(expect_batch_exact(solver, g, three, sssp::Strategy::NearFar, what).resident, 3u) << what;
    EXPECT_EQ(expect_batch_exact(solver, g, three, sssp::Strategy::BellmanFord, what).resident, 0u) << what;
  }
  // A vertex without out-arcs as a source (a directed path's end).
  graph::IntCsr path;
  path.num_vertices = 500;
  path.offsets.clear();
  for (std::uint32_t v = 0; v < path.num_vertices; ++v) {
    path.offsets.push_back(path.targets.size());
    if (v + 1 < path.num_vertices) {
      path.targets.push_back(v + 1);
      path.weights.push_back(1 + v % 7);
    }
  }
  path.offsets.push_back(path.targets.size());
  sssp::GpuSolver<std::uint32_t> path_solver(path, resident);
  EXPECT_EQ(expect_batch_exact(path_solver, path, {499, 0, 250}, sssp::Strategy::NearFar, "path").resident, 3u);
  // Five sources a launch.
  sssp::SolverOptions limited = resident;
  sssp::GpuSolver<std::uint32_t> probe(g, limited);
  limited.memory_limit_bytes = probe.device_bytes() + (64ull << 20) + 5 * (32ull * g.num_vertices + 4096 + 4 + 64);
  sssp::GpuSolver<std::uint32_t> solver(g, limited);
  const auto sixty = random_sources(g.num_vertices, 60, 37);
  const auto r = solver.solve_batch(sixty, sssp::Strategy::NearFar, graph::auto_delta(g, 64));
  EXPECT_LE(r.sources_per_launch, 5u);
  EXPECT_EQ(r.resident, sixty.size());
  for (std::size_t i = 0; i < sixty.size(); ++i)
    EXPECT_TRUE(graph::find_distance_mismatches<std::uint32_t>(graph::dijkstra(g, sixty[i]), r.per_source[i].distances, 0)
                    .none())
        << "five a launch, source " << sixty[i];
}

// R-MAT frontiers pass the narrow loop's limits within a few rounds: twelve
// sources with out-arcs, one twice, and R-MAT's last vertex (likely none).
std::vector<graph::vertex_id> rmat_sources(const graph::IntCsr& g) {
  std::vector<graph::vertex_id> sources;
  for (graph::vertex_id v = 0; sources.size() < 12 && v < g.num_vertices; ++v)
    if (g.out_degree(v) > 0) sources.push_back(v);
  sources.push_back(sources[3]);
  sources.push_back(g.num_vertices - 1);
  return sources;
}

TEST(SsspBatch, SourcesThatOutgrowTheirBlockAreSolvedTogether) {
  SKIP_IF_NO_GPU();
  const auto g = generated("rmat:13:16", 7);
  const auto sources = rmat_sources(g);
  for (const auto strategy : {sssp::Strategy::NearFar, sssp::Strategy::BellmanFord}) {
    const std::string name = sssp::to_string(strategy);
    sssp::SolverOptions few_arcs;
    few_arcs.overrides.narrow_max_arcs = 64;  // hand over early: every source with out-arcs outgrows its block
    sssp::SolverOptions per_step;
    per_step.overrides.persistent_grid = false;
    for (const auto& [options, what] : {std::pair{sssp::SolverOptions{}, "rmat:13:16"},
                                        std::pair{few_arcs, "rmat:13:16, narrow_max_arcs 64"},
                                        std::pair{per_step, "rmat:13:16, per-step launches"}}) {
      sssp::GpuSolver<std::uint32_t> solver(g, options);
      const Outgrown o = expect_batch_exact(solver, g, sources, strategy, what);
      EXPECT_EQ(o.alone, 0u) << what << ", " << name << ": memory for every copy, none should finish alone";
      EXPECT_GE(o.together, 2u) << what << ", " << name;
      // The copies are kept: fewer sources use the first ones (labels of the
      // others left from the call before), then all again.
      const std::vector<graph::vertex_id> three(sources.begin() + 5, sources.begin() + 8);
      (void)expect_batch_exact(solver, g, three, strategy, std::string(what) + ", 3 sources after 14");
      (void)expect_batch_exact(solver, g, sources, strategy, std::string(what) + ", 14 sources again");
    }
  }
}

TEST(SsspBatch, CopiesTogetherAreLimitedByMemory) {
  SKIP_IF_NO_GPU();
  const auto g = generated("rmat:13:16", 7);
  const auto sources = rmat_sources(g);
  sssp::SolverOptions few_arcs;
  few_arcs.overrides.narrow_max_arcs = 64;
  const std::uint64_t solver_bytes = sssp::GpuSolver<std::uint32_t>(g, few_arcs).device_bytes();
  const std::uint64_t headroom = 64ull << 20;
  // A launch's arrays for every source (as solve_batch sizes them), then
  // room for `copies` and a half copies of the graph beyond them.
  const std::uint64_t batch_bytes = sources.size() * (32ull * g.num_vertices + 4096 + 4 + 16 + 64);
  for (const double copies : {3.5, 1.5}) {
    sssp::SolverOptions options = few_arcs;
    options.memory_limit_bytes =
        solver_bytes + headroom + batch_bytes + static_cast<std::uint64_t>(copies * static_cast<double>(solver_bytes));
    sssp::GpuSolver<std::uint32_t> solver(g, options);
    const std::string what = "rmat:13:16, memory for " + std::to_string(copies) + " copies";
    const Outgrown o = expect_batch_exact(solver, g, sources, sssp::Strategy::NearFar, what);
    if (copies > 2) {
      EXPECT_EQ(o.alone, 0u) << what;  // groups of three copies
      EXPECT_GE(o.together, 4u) << what;
    } else {
      EXPECT_EQ(o.together, 0u) << what;  // one copy fits: each finishes alone
      EXPECT_GE(o.alone, 2u) << what;
    }
  }
}

TEST(SsspBatch, MoreSourcesThanOneLaunchTakes) {
  SKIP_IF_NO_GPU();
  // A small memory limit leaves room for only a few sources per launch.
  const auto g = generated("grid:30:30", 11);
  const auto sources = random_sources(g.num_vertices, 40, 13);
  sssp::SolverOptions options;
  sssp::GpuSolver<std::uint32_t> probe(g, options);
  options.memory_limit_bytes = probe.device_bytes() + (64ull << 20) + 5 * (32ull * 900 + 4096 + 4 + 64);
  sssp::GpuSolver<std::uint32_t> solver(g, options);
  const auto r = solver.solve_batch(sources, sssp::Strategy::NearFar, graph::auto_delta(g, 64));
  EXPECT_LE(r.sources_per_launch, 5u);
  for (std::size_t i = 0; i < sources.size(); ++i)
    EXPECT_TRUE(graph::find_distance_mismatches<std::uint32_t>(graph::dijkstra(g, sources[i]), r.per_source[i].distances, 0)
                    .none())
        << "source " << sources[i];
}

TEST(SsspBatch, FloatWeightsAndOneSource) {
  SKIP_IF_NO_GPU();
  const auto gi = generated("grid:25:25", 17);
  graph::Csr<float> g;
  g.num_vertices = gi.num_vertices;
  g.offsets = gi.offsets;
  g.targets = gi.targets;
  for (const auto w : gi.weights) g.weights.push_back(static_cast<float>(w) / 7.0f);
  EXPECT_EQ(expect_batch_exact(g, {3}, sssp::SolverOptions{}, sssp::Strategy::NearFar, "float grid, one source"), 0u);
  sssp::SolverOptions resident;
  resident.overrides.resident_any_shape = true;
  sssp::GpuSolver<float> resident_solver(g, resident);
  EXPECT_EQ(expect_batch_exact(resident_solver, g, random_sources(g.num_vertices, 40, 41), sssp::Strategy::NearFar,
                               "float grid, resident")
                .resident,
            40u);
  EXPECT_EQ(expect_batch_exact(g, random_sources(g.num_vertices, 9, 19), sssp::SolverOptions{},
                               sssp::Strategy::BellmanFord, "float grid"),
            0u);
}

TEST(SsspBatch, RefusesWhatItCannotDo) {
  SKIP_IF_NO_GPU();
  const auto g = generated("grid:10:10", 23);
  sssp::GpuSolver<std::uint32_t> solver(g, sssp::SolverOptions{});
  EXPECT_THROW(solver.solve_batch({0, 100}, sssp::Strategy::NearFar, 10.0), std::out_of_range);
  EXPECT_THROW(solver.solve_batch({0}, sssp::Strategy::BucketSort, 10.0), std::invalid_argument);
  EXPECT_THROW(solver.solve_batch({0}, sssp::Strategy::NearFar, 0.0), std::invalid_argument);
  EXPECT_TRUE(solver.solve_batch({}, sssp::Strategy::NearFar, 10.0).per_source.empty());
  sssp::SolverOptions with_pred;
  with_pred.predecessors = true;
  sssp::GpuSolver<std::uint32_t> pred_solver(g, with_pred);
  EXPECT_THROW(pred_solver.solve_batch({0}, sssp::Strategy::NearFar, 10.0), std::invalid_argument);
  sssp::SolverOptions tight;
  tight.memory_limit_bytes = solver.device_bytes() + 1024;  // not even one source fits
  sssp::GpuSolver<std::uint32_t> tight_solver(g, tight);
  try {
    tight_solver.solve_batch({0}, sssp::Strategy::NearFar, 10.0);
    ADD_FAILURE() << "no error without memory for one source";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("needs"), std::string::npos) << e.what();
  }
}

}  // namespace
