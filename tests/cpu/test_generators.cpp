// Generators (R-MAT, grid, uniform random): spec parsing and rejection,
// counts and structure, determinism across thread counts and seeds, weights;
// and the Matrix Market writer's output.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "graph/error.hpp"
#include "graph/generators.hpp"
#include "graph/matrix_market_writer.hpp"
#include "test_support.hpp"

using namespace graph;

namespace {

IntCsr make(const std::string& spec, const std::string& rule = "file", std::uint64_t seed = 1,
            BuildStats* stats = nullptr) {
  return generate(GeneratorSpec::parse(spec), WeightRule::parse(rule, seed), seed, stats);
}

bool same_graph(const IntCsr& a, const IntCsr& b) {
  return a.num_vertices == b.num_vertices && a.offsets == b.offsets && a.targets == b.targets &&
         a.weights == b.weights;
}

edge_offset max_degree(const IntCsr& g) {
  edge_offset best = 0;
  for (vertex_id v = 0; v < g.num_vertices; ++v) best = std::max(best, g.out_degree(v));
  return best;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

TEST(GeneratorSpec, ParsesEveryForm) {
  auto s = GeneratorSpec::parse("rmat:20:16");
  EXPECT_EQ(s.kind, GeneratorSpec::Kind::Rmat);
  EXPECT_EQ(s.scale, 20u);
  EXPECT_EQ(s.edge_factor, 16u);
  EXPECT_EQ(s.a, 0.57);
  EXPECT_EQ(s.b, 0.19);
  EXPECT_EQ(s.c, 0.19);
  EXPECT_EQ(s.d, 0.05);
  EXPECT_TRUE(s.undirected);
  EXPECT_EQ(s.describe(), "rmat:20:16:0.57:0.19:0.19:0.05");

  // The multisplit paper's parameters (Ashkiani et al.): a = 0.5, d = 0.3.
  s = GeneratorSpec::parse("rmat:18:8:0.5:0.1:0.1:0.3");
  EXPECT_EQ(s.a, 0.5);
  EXPECT_EQ(s.b, 0.1);
  EXPECT_EQ(s.c, 0.1);
  EXPECT_EQ(s.d, 0.3);
  EXPECT_EQ(s.describe(), "rmat:18:8:0.5:0.1:0.1:0.3");

  s = GeneratorSpec::parse("grid:2048:1024");
  EXPECT_EQ(s.kind, GeneratorSpec::Kind::Grid);
  EXPECT_EQ(s.rows, 2048u);
  EXPECT_EQ(s.cols, 1024u);
  EXPECT_EQ(s.describe(), "grid:2048:1024");

  s = GeneratorSpec::parse("urand:1000000:16");
  EXPECT_EQ(s.kind, GeneratorSpec::Kind::Uniform);
  EXPECT_EQ(s.n, 1000000u);
  EXPECT_EQ(s.degree, 16u);
  EXPECT_EQ(s.describe(), "urand:1000000:16");

  EXPECT_EQ(GeneratorSpec::parse("rmat:31:1").scale, 31u);
  EXPECT_EQ(GeneratorSpec::parse("rmat:4:2:1:0:0:0").a, 1.0);
  for (const char* spec : {"rmat:20:16:0.57:0.19:0.19:0.05", "rmat:5:3:0.25:0.25:0.25:0.25", "grid:1:1",
                           "urand:1:1"})
    EXPECT_EQ(GeneratorSpec::parse(GeneratorSpec::parse(spec).describe()).describe(), spec);
}

TEST(GeneratorSpec, RejectsBadSpecsNamingThem) {
  const char* bad[] = {"",
                       "rmat",
                       "rmat:20",
                       "rmat:20:16:",
                       "rmat:32:16",
                       "rmat:0:16",
                       "rmat:20:0",
                       "rmat:-1:16",
                       "rmat:+1:16",
                       "rmat: 20:16",
                       "rmat:20x:16",
                       "rmat:4294967296:1",
                       "rmat:20:16:0.5:0.1:0.1",
                       "rmat:20:16:0.5:0.1:0.1:0.2",
                       "rmat:20:16:0.5:0.1:0.1:0.3:0",
                       "rmat:20:16:a:b:c:d",
                       "rmat:20:16:1.5:-0.5:0:0",
                       "rmat:20:16:nan:0:0:1",
                       "rmat:20:16:inf:0:0:0",
                       "grid:0:5",
                       "grid:5",
                       "grid:5:5:5",
                       "grid:70000:70000",
                       "urand:0:4",
                       "urand:10:0",
                       "urand:4294967295:1",
                       "urand:10:4:1",
                       "kron:10:4",
                       "RMAT:10:4"};
  for (const char* spec : bad) {
    try {
      GeneratorSpec::parse(spec);
      ADD_FAILURE() << "accepted '" << spec << "'";
    } catch (const InputError& e) {
      EXPECT_EQ(e.kind(), InputErrorKind::BadArgument) << spec;
      EXPECT_NE(std::string(e.what()).find("'" + std::string(spec) + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(Generators, GridHasExactStructure) {
  BuildStats stats;
  const auto g = make("grid:3:4", "file", 1, &stats);
  ASSERT_EQ(g.num_vertices, 12u);
  // 3 rows of 3 horizontal edges, 2 rows of 4 vertical edges, both directions.
  EXPECT_EQ(g.num_arcs(), 2u * (3 * 3 + 2 * 4));
  EXPECT_EQ(stats.input_entries, 17u);
  EXPECT_EQ(stats.duplicates_dropped, 0u);
  for (vertex_id r = 0; r < 3; ++r)
    for (vertex_id c = 0; c < 4; ++c) {
      const vertex_id v = r * 4 + c;
      std::vector<vertex_id> expected;
      if (r > 0) expected.push_back(v - 4);
      if (c > 0) expected.push_back(v - 1);
      if (c < 3) expected.push_back(v + 1);
      if (r < 2) expected.push_back(v + 4);
      const std::vector<vertex_id> actual(g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[v]),
                                          g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[v + 1]));
      EXPECT_EQ(actual, expected) << "vertex " << v;
    }
  EXPECT_TRUE(is_symmetric(g));
  for (const auto w : g.weights) {
    EXPECT_GE(w, 1u);  // "file" means the generators' default, random:1:1000
    EXPECT_LE(w, 1000u);
  }

  const auto single = make("grid:1:1");
  EXPECT_EQ(single.num_vertices, 1u);
  EXPECT_EQ(single.num_arcs(), 0u);
  const auto path = make("grid:1:5", "unit");
  EXPECT_EQ(path.num_arcs(), 8u);
  EXPECT_TRUE(std::all_of(path.weights.begin(), path.weights.end(), [](auto w) { return w == 1u; }));
}

TEST(Generators, RmatIsPowerLawAndPermuted) {
  BuildStats stats;
  const auto g = make("rmat:12:8", "file", 3, &stats);
  ASSERT_EQ(g.num_vertices, 4096u);
  EXPECT_EQ(stats.input_entries, 8u * 4096);
  EXPECT_LE(g.num_arcs(), 2u * 8 * 4096);
  EXPECT_GT(g.num_arcs(), 2u * 8 * 4096 / 2);  // duplicates and self-loops are a minority
  EXPECT_EQ(stats.arcs, g.num_arcs());
  EXPECT_TRUE(is_symmetric(g));
  const double mean = static_cast<double>(g.num_arcs()) / g.num_vertices;
  EXPECT_GT(static_cast<double>(max_degree(g)), 20 * mean);  // a heavy tail, unlike urand

  // Without the vertex permutation the highest-degree vertices would be 0, 1,
  // 2, 4, ... (the a-quadrant corner); with it they are spread out.
  std::vector<vertex_id> by_degree(g.num_vertices);
  for (vertex_id v = 0; v < g.num_vertices; ++v) by_degree[v] = v;
  std::stable_sort(by_degree.begin(), by_degree.end(),
                   [&](vertex_id a, vertex_id b) { return g.out_degree(a) > g.out_degree(b); });
  int low_ids = 0;
  for (int i = 0; i < 16; ++i) low_ids += by_degree[i] < 64;
  EXPECT_LT(low_ids, 4);
  EXPECT_NE(by_degree[0], 0u);

  // The multisplit paper's parameters are skewed too.
  const auto p = make("rmat:12:8:0.5:0.1:0.1:0.3");
  EXPECT_GT(static_cast<double>(max_degree(p)), 4.0 * static_cast<double>(p.num_arcs()) / p.num_vertices);
}

TEST(Generators, UniformRandomIsFlat) {
  const auto g = make("urand:20000:4", "random:1:1000", 9);
  ASSERT_EQ(g.num_vertices, 20000u);
  EXPECT_LE(g.num_arcs(), 2u * 20000 * 4);
  EXPECT_GT(g.num_arcs(), 2u * 20000 * 4 * 99 / 100);  // few duplicates at this density
  EXPECT_LT(max_degree(g), 40u);                       // Poisson(8) tail
  EXPECT_TRUE(is_symmetric(g));
  for (vertex_id v = 0; v < g.num_vertices; ++v)
    for (edge_offset k = g.offsets[v]; k < g.offsets[v + 1]; ++k) ASSERT_LT(g.targets[k], g.num_vertices);
}

TEST(Generators, DeterministicForAnyThreadCount) {
  const int saved = omp_get_max_threads();
  for (const char* spec : {"rmat:11:8", "rmat:10:4:0.5:0.1:0.1:0.3", "grid:37:53", "urand:5000:5"}) {
    omp_set_num_threads(1);
    const auto one = make(spec, "random:1:1000", 42);
    for (const int threads : {2, 3, 4}) {
      omp_set_num_threads(threads);
      EXPECT_TRUE(same_graph(one, make(spec, "random:1:1000", 42))) << spec << " with " << threads << " threads";
    }
  }
  omp_set_num_threads(saved);
}

TEST(Generators, SeedsChangeTheGraphAndWeights) {
  for (const char* spec : {"rmat:10:8", "urand:2000:4"}) {
    const auto a = make(spec, "random:1:1000", 1);
    const auto b = make(spec, "random:1:1000", 2);
    EXPECT_NE(a.targets, b.targets) << spec;
  }
  // Grid structure is fixed; only the weights follow the seed.
  const auto a = make("grid:20:20", "random:1:1000", 1);
  const auto b = make("grid:20:20", "random:1:1000", 2);
  EXPECT_EQ(a.targets, b.targets);
  EXPECT_NE(a.weights, b.weights);
  // The weight rule's own seed changes weights, not structure.
  const auto spec = GeneratorSpec::parse("rmat:9:4");
  const auto c = generate(spec, WeightRule::parse("random:1:1000", 1), 7);
  const auto d = generate(spec, WeightRule::parse("random:1:1000", 2), 7);
  EXPECT_EQ(c.targets, d.targets);
  EXPECT_NE(c.weights, d.weights);
}

TEST(Generators, WeightRulesApplySymmetrically) {
  for (const char* spec : {"rmat:9:8", "grid:15:15", "urand:1000:4"}) {
    const auto g = make(spec, "random:5:9", 4);
    EXPECT_TRUE(is_symmetric(g)) << spec;
    const auto rule = WeightRule::parse("random:5:9", 4);
    for (vertex_id u = 0; u < g.num_vertices; ++u)
      for (edge_offset k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
        ASSERT_GE(g.weights[k], 5u);
        ASSERT_LE(g.weights[k], 9u);
        ASSERT_EQ(g.weights[k], rule.random_weight(u, g.targets[k]));
      }
    const auto unit = make(spec, "unit", 4);
    EXPECT_TRUE(std::all_of(unit.weights.begin(), unit.weights.end(), [](auto w) { return w == 1u; }));
  }
}

TEST(Generators, ValidatesHandBuiltSpecs) {
  GeneratorSpec spec;
  spec.kind = GeneratorSpec::Kind::Rmat;
  spec.scale = 40;
  EXPECT_THROW(generate(spec, WeightRule{}, 1), InputError);
  spec.scale = 8;
  spec.a = 0.9;  // probabilities no longer sum to 1
  EXPECT_THROW(generate(spec, WeightRule{}, 1), InputError);
}

// A generator whose graph cannot be built in the host memory this process may
// use is refused before it allocates anything (the scale run's "one size
// above what fits"), naming the spec; one that fits still runs.
TEST(Generators, RefusesGraphsBeyondHostMemory) {
  const test_support::ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", "256M");
  for (const std::string spec : {"rmat:24:16", "urand:20000000:16", "grid:8000:8000"}) {
    SCOPED_TRACE(spec);
    try {
      (void)make(spec);
      ADD_FAILURE() << "generated a graph needing more than 256 MB";
    } catch (const InputError& e) {
      EXPECT_EQ(e.kind(), InputErrorKind::Overflow);
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("--generate " + GeneratorSpec::parse(spec).describe() + ": ", 0), 0u) << what;
      EXPECT_NE(what.find("of host memory"), std::string::npos) << what;
    }
  }
  EXPECT_EQ(make("rmat:10:8").num_vertices, 1024u);
}

TEST(MatrixMarketWriter, WritesGeneralAndSymmetricFiles) {
  const auto dir = test_support::scratch_dir("mm_writer");
  const auto g = make("grid:2:2", "unit");  // 0-1, 0-2, 1-3, 2-3
  write_matrix_market((dir / "general.mtx").string(), g, {false, "grid:2:2\nunit weights"});
  EXPECT_EQ(read_file(dir / "general.mtx"),
            "%%MatrixMarket matrix coordinate integer general\n% grid:2:2\n% unit weights\n4 4 8\n"
            "1 2 1\n1 3 1\n2 1 1\n2 4 1\n3 1 1\n3 4 1\n4 2 1\n4 3 1\n");
  write_matrix_market((dir / "sym.mtx").string(), g, {true, ""});
  EXPECT_EQ(read_file(dir / "sym.mtx"),
            "%%MatrixMarket matrix coordinate integer symmetric\n4 4 4\n2 1 1\n3 1 1\n4 2 1\n4 3 1\n");
  // No temporary files left behind.
  int files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 2);
  std::filesystem::remove_all(dir);
}

TEST(MatrixMarketWriter, RoundTripsALargerGraph) {
  const auto dir = test_support::scratch_dir("mm_roundtrip");
  const auto g = make("rmat:12:8", "random:1:4000000000", 5);
  const auto path = dir / "rmat.mtx";
  write_matrix_market(path.string(), g, {true, ""});
  // Parse it back by hand (the reader lives in graph/src/io and has its own tests).
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "%%MatrixMarket matrix coordinate integer symmetric");
  std::uint64_t rows = 0, cols = 0, entries = 0;
  in >> rows >> cols >> entries;
  EXPECT_EQ(rows, g.num_vertices);
  EXPECT_EQ(cols, g.num_vertices);
  EXPECT_EQ(entries, g.num_arcs() / 2);
  Coo<std::uint32_t> coo;
  coo.num_vertices = g.num_vertices;
  std::uint64_t r = 0, c = 0, w = 0, read = 0;
  while (in >> r >> c >> w) {
    ASSERT_GE(r, c);  // lower triangle
    coo.add(static_cast<vertex_id>(r - 1), static_cast<vertex_id>(c - 1), static_cast<std::uint32_t>(w));
    ++read;
  }
  EXPECT_EQ(read, entries);
  EXPECT_TRUE(same_graph(g, build_csr(std::move(coo), BuildOptions{true, true})));
  std::filesystem::remove_all(dir);
}

TEST(MatrixMarketWriter, KeepsSelfLoopsOnTheDiagonal) {
  Coo<std::uint32_t> coo;
  coo.num_vertices = 3;
  coo.add(0, 0, 4);
  coo.add(0, 2, 7);
  coo.add(1, 1, 5);
  BuildOptions keep_loops;
  keep_loops.symmetrize = true;
  keep_loops.drop_self_loops = false;
  const auto g = build_csr(std::move(coo), keep_loops);
  ASSERT_TRUE(is_symmetric(g));
  const auto dir = test_support::scratch_dir("mm_loops");
  write_matrix_market((dir / "loops.mtx").string(), g, {true, ""});
  EXPECT_EQ(read_file(dir / "loops.mtx"),
            "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n1 1 4\n2 2 5\n3 1 7\n");
  std::filesystem::remove_all(dir);
}

TEST(MatrixMarketWriter, RefusesAsymmetricGraphsAndBadPaths) {
  Coo<std::uint32_t> coo;
  coo.num_vertices = 2;
  coo.add(0, 1, 3);
  const auto g = build_csr(std::move(coo), BuildOptions{});
  EXPECT_FALSE(is_symmetric(g));
  const auto dir = test_support::scratch_dir("mm_refuse");
  EXPECT_THROW(write_matrix_market((dir / "a.mtx").string(), g, {true, ""}), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(dir / "a.mtx"));
  try {
    write_matrix_market((dir / "missing" / "a.mtx").string(), g);
    ADD_FAILURE() << "wrote into a missing directory";
  } catch (const InputError& e) {
    EXPECT_EQ(e.kind(), InputErrorKind::CannotOpen);
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos);
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}
