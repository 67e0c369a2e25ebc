// Hostile input, the cases the per-reader suites
// (test_matrix_market, test_dimacs, test_edge_list, test_binary_cache) do not
// already cover: declared sizes far beyond the memory a graph may take, path
// lengths that would overflow their distance type, odd bytes (NUL, BOM, bare
// CR, form feed, signs, hex, exponents) in every text reader, a cache header
// declaring absurd sizes; and determinism of the CPU solvers across runs and
// thread counts. Every rejection asserts the exact InputErrorKind and that
// the message starts with "FILE:LINE: ".
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "graph/error.hpp"
#include "graph/generators.hpp"
#include "graph/io/binary_cache.hpp"
#include "graph/load.hpp"
#include "graph/reference.hpp"
#include "graph_test_support.hpp"
#include "test_support.hpp"

using namespace graph;
namespace fs = std::filesystem;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

LoadOptions quiet(int threads = 0) { return test_support::quiet_load(threads); }

using test_support::ScopedEnv;

class HostileInput : public test_support::ScratchDirTest {
 protected:
  HostileInput() : ScratchDirTest("hostile") {}

  std::string write(const std::string& name, const std::string& bytes) { return write_file(name, bytes); }

  // Loads `bytes` as file `name` (its extension picks the reader) and
  // expects an InputError of `kind` whose message starts "FILE:LINE: ".
  void expect_error(const std::string& name, const std::string& bytes, InputErrorKind kind, std::uint64_t line,
                    const LoadOptions& options = quiet()) {
    test_support::expect_load_error(write(name, bytes), options, kind, line, name + ":\n" + bytes);
  }
};

// A string literal with embedded NUL bytes, all of it.
template <std::size_t N>
std::string raw(const char (&bytes)[N]) {
  return std::string(bytes, N - 1);
}

const std::string kIntBanner = "%%MatrixMarket matrix coordinate integer general\n";
const std::string kRealBanner = "%%MatrixMarket matrix coordinate real general\n";

}  // namespace

// ---------------------------------------------------------------- memory

// The case: a header declaring 4e9 vertices and 1e18 entries over a
// single entry line. The entry count is checked against the file first.
TEST_F(HostileInput, HugeDeclaredEntriesAreACountMismatch) {
  expect_error("g.mtx", kIntBanner + "4000000000 4000000000 1000000000000000000\n1 2 3\n",
               InputErrorKind::CountMismatch, 2);
  expect_error("g.gr", "c\np sp 4000000000 1000000000000000000\na 1 2 3\n", InputErrorKind::CountMismatch, 2);
}

// 4e9 vertices with one entry, consistent counts: build_csr would need
// about 160 GB (40 bytes per vertex). Refused before anything that size is
// allocated, at the line that set the size.
TEST_F(HostileInput, HugeDeclaredVertexCountIsRefusedUnderAMemoryLimit) {
  const ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", "1G");
  expect_error("g.mtx", kIntBanner + "% c\n4000000000 4000000000 1\n1 2 3\n", InputErrorKind::Overflow, 3);
  expect_error("g.gr", "p sp 4000000000 1\na 1 2 3\n", InputErrorKind::Overflow, 1);
  expect_error("g.el", "# c\n0 1\n7 4000000000\n2 3\n", InputErrorKind::Overflow, 3);
  // 27M vertices need 1.08 GB, just over the limit; 2M vertices load.
  expect_error("g.mtx", kIntBanner + "27000000 27000000 1\n1 2 3\n", InputErrorKind::Overflow, 2);
  const auto fits = load_graph(write("ok.mtx", kIntBanner + "2000000 2000000 1\n1 2 3\n"), quiet());
  EXPECT_EQ(num_vertices(fits), 2000000u);
  EXPECT_EQ(num_arcs(fits), 1u);
}

TEST_F(HostileInput, AddressSpaceLimitIsHonouredToo) {
  if (kAddressSanitizer) {
    // ASan reserves terabytes of shadow address space, so RLIMIT_AS cannot be
    // lowered under it; SSSP_HOST_MEMORY_LIMIT (above) covers the same check.
    SUCCEED() << "RLIMIT_AS not testable under AddressSanitizer";
    return;
  }
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_AS, &saved), 0);
  struct rlimit low = saved;
  low.rlim_cur = 8ull << 30;  // far above what this test process maps, far below 160 GB
  if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < low.rlim_cur) low.rlim_cur = saved.rlim_max;
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &low), 0);
  expect_error("g.gr", "p sp 4000000000 1\na 1 2 3\n", InputErrorKind::Overflow, 1);
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &saved), 0);
}

TEST_F(HostileInput, CacheHeaderDeclaringHugeSizesIsCorruptNotAllocated) {
  const std::string source = write("g.gr", "p sp 3 2\na 1 2 3\na 2 3 4\n");
  LoadOptions cached = quiet();
  cached.use_cache = true;
  cached.cache_path = (dir_ / "g.bin").string();
  load_graph(source, cached);
  std::ifstream in(cached.cache_path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::uint64_t vertices = 4000000000ull, arcs = 1000000000000000000ull;
  std::memcpy(&bytes[16], &vertices, 8);
  std::memcpy(&bytes[24], &arcs, 8);
  const std::string path = write("huge.bin", bytes);
  const ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", "64M");
  try {
    load_graph(path, quiet());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.kind(), InputErrorKind::CorruptCache) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
  }
}

// ---------------------------------------------------------------- path lengths

// Integer weights are uint32 and distances uint64: a simple path has at most
// 2^32 - 3 arcs (vertex counts stay below 2^32 - 1), so its length is below
// (2^32 - 3)(2^32 - 1) < 2^64 - 1, the "unreachable" marker. No overflow is
// possible; the heaviest chain we can build here comes out exact.
TEST_F(HostileInput, IntegerPathLengthsCannotOverflow) {
  constexpr std::uint64_t kMaxArcs = (1ull << 32) - 3, kMaxWeight = 0xFFFFFFFFull;
  constexpr std::uint64_t kLongestPath = kMaxArcs * kMaxWeight;  // 2^64 - 2^34 + 3: no wrap
  static_assert(kLongestPath / kMaxWeight == kMaxArcs, "the product wrapped");
  static_assert(kLongestPath < std::numeric_limits<std::uint64_t>::max(), "uint64 distances can overflow");
  std::string text = "p sp 5 4\n";
  for (int v = 1; v < 5; ++v) text += "a " + std::to_string(v) + " " + std::to_string(v + 1) + " 4294967295\n";
  const auto any = load_graph(write("chain.gr", text), quiet());
  const auto& g = std::get<IntCsr>(any);
  const auto exact = dijkstra(g, 0);
  EXPECT_EQ(exact[4], 4ull * 4294967295ull);
  EXPECT_EQ(delta_stepping(g, 0, auto_delta(g), 2), exact);
}

// Float distances would reach infinity, which reads as "unreachable": a
// silently wrong answer. Refused at the line of the largest weight.
TEST_F(HostileInput, FloatPathLengthsThatCouldOverflowAreRefused) {
  expect_error("g.mtx", kRealBanner + "3 3 2\n1 2 1e38\n% c\n2 3 2e38\n", InputErrorKind::Overflow, 5);
  expect_error("g.el", "0 1 1.5e38\n1 2 1.5\n", InputErrorKind::Overflow, 1);
  // Symmetric files count each stored edge once.
  expect_error("g.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 2e38\n3 2 1\n",
               InputErrorKind::Overflow, 3);
  // With --weights unit the file's values are not used: no check applies.
  LoadOptions unit = quiet();
  unit.weights.kind = WeightRule::Kind::Unit;
  EXPECT_EQ(num_arcs(load_graph(write("u.mtx", kRealBanner + "3 3 2\n1 2 1e38\n2 3 2e38\n"), unit)), 2u);
}

TEST_F(HostileInput, LargeButSafeFloatWeightsGiveFiniteDistances) {
  // Bound: the heaviest weight plus 3x the rest of the longest path (the
  // rounding margin): 3e37 + 3 * 3e37 = 1.2e38 < FLT_MAX. A single arc
  // (two vertices) is never refused: test_matrix_market loads 3.4e38.
  const auto any = load_graph(write("g.mtx", kRealBanner + "3 3 2\n1 2 3e37\n2 3 3e37\n"), quiet());
  const auto& g = std::get<FloatCsr>(any);
  const auto dist = dijkstra(g, 0);
  EXPECT_TRUE(std::isfinite(dist[2]));
  EXPECT_FLOAT_EQ(dist[2], 6e37f);
  EXPECT_EQ(delta_stepping(g, 0, auto_delta(g), 2), dist);
}

// ---------------------------------------------------------------- odd bytes

TEST_F(HostileInput, OddBytesInMatrixMarket) {
  expect_error("g.mtx", kIntBanner + raw("3 3 1\n1\0 2 3\n"), InputErrorKind::BadToken, 3);
  expect_error("g.mtx", kIntBanner + raw("3 3 1\n1 2 3\0\n"), InputErrorKind::BadToken, 3);
  expect_error("g.mtx", kIntBanner + "3 3 1\n+1 2 3\n", InputErrorKind::BadToken, 3);
  expect_error("g.mtx", kIntBanner + "3 3 1\n0x1 2 3\n", InputErrorKind::BadToken, 3);
  expect_error("g.mtx", kIntBanner + "3 3 1\n1 2 1e3\n", InputErrorKind::BadToken, 3);
  expect_error("g.mtx", kIntBanner + "3 3 1\n1 2 3\r4\n", InputErrorKind::BadToken, 3);
  // Bare CR line ends (classic Mac): the whole file is one banner line.
  expect_error("g.mtx", "%%MatrixMarket matrix coordinate integer general\r3 3 1\r1 2 3\r",
               InputErrorKind::BadHeader, 1);
  expect_error("g.mtx", kRealBanner + "3 3 1\n1 2 0x1p3\n", InputErrorKind::BadToken, 3);
  expect_error("g.mtx", kRealBanner + "3 3 1\n1 2 1e\n", InputErrorKind::BadToken, 3);
  expect_error("g.mtx", kRealBanner + "3 3 1\n1 2 infinity\n", InputErrorKind::BadWeight, 3);
  expect_error("g.mtx", kRealBanner + "3 3 1\n1 2 -nan\n", InputErrorKind::BadWeight, 3);
  expect_error("g.mtx", kRealBanner + "3 3 1\n1 2 -1e-300\n", InputErrorKind::BadWeight, 3);
  // Form feed and vertical tab separate tokens like spaces; -0 is zero.
  const auto g = load_graph(write("ok.mtx", kRealBanner + "3 3 2\n1\f2\v-0\n2 3 1e-50\n"), quiet());
  EXPECT_EQ(std::get<FloatCsr>(g).weights, (std::vector<float>{0.0f, 0.0f}));
}

TEST_F(HostileInput, OddBytesInDimacs) {
  expect_error("g.gr", "\xEF\xBB\xBFp sp 2 1\na 1 2 3\n", InputErrorKind::BadHeader, 1);
  expect_error("g.gr", raw("p sp 2 1\na 1\0 2 3\n"), InputErrorKind::BadToken, 2);
  expect_error("g.gr", "p sp 2 1\ra 1 2 3\r", InputErrorKind::BadHeader, 1);
  expect_error("g.gr", "p sp 2 1\na +1 2 3\n", InputErrorKind::BadToken, 2);
  expect_error("g.gr", "p sp 2 1\na 1 2 3e2\n", InputErrorKind::BadToken, 2);
  expect_error("g.gr", "p sp 2 1\na 1 2 nan\n", InputErrorKind::BadToken, 2);
  expect_error("g.gr", "p sp 2 1\na 1 2 -0x1\n", InputErrorKind::BadToken, 2);
  expect_error("g.gr", "p sp 2 1\na 1 2 -4294967296\n", InputErrorKind::BadWeight, 2);
  expect_error("g.gr", "p sp -2 1\na 1 2 3\n", InputErrorKind::BadHeader, 1);
  expect_error("g.gr", "p sp 2 1\nA 1 2 3\n", InputErrorKind::BadToken, 2);
}

TEST_F(HostileInput, OddBytesInEdgeLists) {
  expect_error("g.el", "\xEF\xBB\xBF" "0 1\n", InputErrorKind::BadToken, 1);
  expect_error("g.el", raw("0 1\n1\0 2\n"), InputErrorKind::BadToken, 2);
  expect_error("g.el", "0 1\r1 2\r", InputErrorKind::BadToken, 1);
  expect_error("g.el", "0 1 2\n1 2 +inf\n", InputErrorKind::BadWeight, 2);
  expect_error("g.el", "0 1 2\n1 2 0x10\n", InputErrorKind::BadToken, 2);
  expect_error("g.el", "0 1 2\n1 2 -1e-300\n", InputErrorKind::BadWeight, 2);
}

// ---------------------------------------------------------------- determinism

// Same graph, source and seed: identical distances across runs and thread
// counts, and equal to Dijkstra's (integer weights), for several deltas.
TEST(Determinism, IntegerDistancesIdenticalAcrossRunsAndThreadCounts) {
  for (const char* spec : {"rmat:10:8", "grid:30:30", "urand:2000:4"}) {
    const auto parsed = GeneratorSpec::parse(spec);
    const IntCsr g = generate(parsed, WeightRule::parse("random:1:1000", 7), 7);
    const IntCsr again = generate(parsed, WeightRule::parse("random:1:1000", 7), 7);
    ASSERT_EQ(g.offsets, again.offsets) << spec;
    ASSERT_EQ(g.targets, again.targets) << spec;
    ASSERT_EQ(g.weights, again.weights) << spec;
    const auto reference = dijkstra(g, 0);
    EXPECT_EQ(dijkstra(g, 0), reference) << spec;
    for (const double delta : {auto_delta(g), 37.0, 5000.0})
      for (const int threads : {1, 2, 3})
        for (int run = 0; run < 2; ++run)
          EXPECT_EQ(delta_stepping(g, 0, delta, threads), reference)
              << spec << " delta " << delta << " threads " << threads << " run " << run;
  }
}

// Float weights: every thread count agrees with Dijkstra within 1e-6
// relative (the tolerance), and repeated runs are identical.
TEST(Determinism, FloatDistancesAgreeWithinTolerance) {
  const IntCsr base = generate(GeneratorSpec::parse("rmat:10:8"), WeightRule::parse("random:1:1000", 3), 3);
  FloatCsr g;
  g.num_vertices = base.num_vertices;
  g.offsets = base.offsets;
  g.targets = base.targets;
  for (const std::uint32_t w : base.weights) g.weights.push_back(static_cast<float>(w) / 7.0f);
  const auto reference = dijkstra(g, 0);
  for (const int threads : {1, 2, 8}) {
    const auto first = delta_stepping(g, 0, auto_delta(g), threads);
    EXPECT_EQ(delta_stepping(g, 0, auto_delta(g), threads), first) << threads;
    ASSERT_EQ(first.size(), reference.size());
    for (std::size_t v = 0; v < first.size(); ++v) {
      if (std::isinf(reference[v])) {
        EXPECT_TRUE(std::isinf(first[v])) << v;
        continue;
      }
      EXPECT_LE(std::abs(first[v] - reference[v]), 1e-6 * std::max(1.0f, reference[v])) << v << " threads " << threads;
    }
  }
}
