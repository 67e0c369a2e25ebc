// Binary cache: round trip, reuse only when source and options match,
// rebuild when stale, CorruptCache naming the file when damaged.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <thread>
#include <tuple>
#include <variant>

#include "graph/error.hpp"
#include "graph/io/binary_cache.hpp"
#include "graph/load.hpp"
#include "graph_test_support.hpp"
#include "test_support.hpp"

using namespace graph;
namespace fs = std::filesystem;

namespace {

LoadOptions cached() {
  LoadOptions o;
  o.progress = false;
  o.use_cache = true;
  return o;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

using test_support::expect_same_csr;

class BinaryCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_support::scratch_dir(std::string("cache_") +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    source_ = (dir_ / "g.mtx").string();
    fs::copy_file(test_support::fixtures_dir() / "small_integer_general.mtx", source_);
    cache_ = source_ + ".bin.cache";
  }
  void TearDown() override { fs::remove_all(dir_); }

  void expect_corrupt(const LoadOptions& options, const std::string& path_to_load) {
    try {
      load_graph(path_to_load, options);
      ADD_FAILURE() << "corrupt cache accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.kind(), InputErrorKind::CorruptCache) << e.what();
      EXPECT_EQ(e.file(), cache_);
      EXPECT_NE(std::string(e.what()).find(cache_ + ": "), std::string::npos) << e.what();
    }
  }

  fs::path dir_;
  std::string source_, cache_;
};

}  // namespace

TEST_F(BinaryCache, RoundTripAndReuse) {
  LoadReport first, second;
  const auto parsed = load_graph(source_, cached(), &first);
  EXPECT_FALSE(first.from_cache);
  EXPECT_TRUE(first.cache_written);
  ASSERT_TRUE(fs::exists(cache_));
  const auto again = load_graph(source_, cached(), &second);
  EXPECT_TRUE(second.from_cache);
  EXPECT_FALSE(second.cache_written);
  EXPECT_EQ(second.parse_seconds, 0.0);
  EXPECT_EQ(second.format, Format::Binary);
  expect_same_csr(parsed, again);
  // The report survives the round trip.
  EXPECT_EQ(second.build.input_entries, 8u);
  EXPECT_EQ(second.build.self_loops_dropped, 1u);
  EXPECT_EQ(second.build.duplicates_dropped, 1u);
  EXPECT_EQ(second.build.arcs, 6u);
  EXPECT_EQ(second.id_base, 1u);
  EXPECT_EQ(second.weight_rule, "file");
  EXPECT_TRUE(second.file_has_weights);
  EXPECT_FALSE(second.symmetric);
  EXPECT_EQ(second.file_bytes, first.file_bytes);
  // No temporary files are left behind.
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 2);
}

TEST_F(BinaryCache, FormatBinaryLoadsTheCacheDirectly) {
  const auto parsed = load_graph(source_, cached());
  LoadOptions o;
  o.progress = false;
  LoadReport report;
  EXPECT_EQ(detect_format(cache_), Format::Binary);
  const auto direct = load_graph(cache_, o, &report);
  expect_same_csr(parsed, direct);
  EXPECT_TRUE(report.from_cache);
  EXPECT_EQ(report.format, Format::Binary);
  EXPECT_EQ(report.id_base, 1u);

  // Options still apply to a direct load: symmetrise, and replace weights.
  o.undirected = true;
  o.weights = WeightRule::parse("unit");
  const auto sym = load_graph(cache_, o, &report);
  const auto& g = std::get<IntCsr>(sym);
  EXPECT_EQ(g.num_arcs(), 12u);
  for (auto w : g.weights) EXPECT_EQ(w, 1u);
  EXPECT_TRUE(report.symmetric);
  EXPECT_EQ(report.weight_rule, "unit");
}

TEST_F(BinaryCache, FloatGraphsAndCustomCachePath) {
  const std::string src = (dir_ / "r.mtx").string();
  fs::copy_file(test_support::fixtures_dir() / "small_real_general.mtx", src);
  LoadOptions o = cached();
  o.cache_path = (dir_ / "elsewhere.bin").string();
  const auto parsed = load_graph(src, o);
  ASSERT_TRUE(fs::exists(o.cache_path));
  EXPECT_FALSE(fs::exists(src + ".bin.cache"));
  LoadReport report;
  const auto again = load_graph(src, o, &report);
  EXPECT_TRUE(report.from_cache);
  ASSERT_TRUE(std::holds_alternative<FloatCsr>(again));
  expect_same_csr(parsed, again);
}

TEST_F(BinaryCache, RebuiltWhenTheSourceChanges) {
  load_graph(source_, cached());
  // Same content, new modification time: the cache is of this very content.
  fs::last_write_time(source_, fs::last_write_time(source_) - std::chrono::hours(1));
  LoadReport report;
  load_graph(source_, cached(), &report);
  EXPECT_TRUE(report.from_cache);

  // New content: an arc 5 -> 3 replaces 2 -> 5 (and the size changes).
  std::string text = read_bytes(source_);
  text.replace(text.find("2 5 10"), 6, "5 3 1");
  write_bytes(source_, text);
  const auto g = load_graph(source_, cached(), &report);
  EXPECT_FALSE(report.from_cache);
  EXPECT_EQ(std::get<IntCsr>(g).offsets, (std::vector<edge_offset>{0, 1, 2, 3, 4, 6}));
}

// An edit that keeps the size and restores the modification time (what
// `touch -r`, rsync -t or a careful editor leave) reused the stale cache.
TEST_F(BinaryCache, RebuiltWhenAnEditRestoresSizeAndTime) {
  const auto before = load_graph(source_, cached());
  const auto stamp = fs::last_write_time(source_);
  std::string text = read_bytes(source_);
  const auto at = text.find("2 5 10");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 6, "2 5 11");  // same length, another weight
  write_bytes(source_, text);
  fs::last_write_time(source_, stamp);
  LoadReport report;
  const auto after = load_graph(source_, cached(), &report);
  EXPECT_FALSE(report.from_cache);
  EXPECT_TRUE(report.cache_written);
  EXPECT_NE(std::get<IntCsr>(after).weights, std::get<IntCsr>(before).weights);
  load_graph(source_, cached(), &report);
  EXPECT_TRUE(report.from_cache);
}

// The header was checked on one open and the arrays read on another: a
// process replacing the cache in between (another weight rule, same path)
// handed its arrays to a header that matched the first process's options.
TEST_F(BinaryCache, HeaderAndArraysComeFromOneOpenFile) {
  load_graph(source_, cached());
  const io::CacheFile opened(cache_);
  const AnyCsr mine = io::read_cache(cache_);
  LoadOptions unit = cached();
  unit.weights = WeightRule::parse("unit");
  load_graph(source_, unit);  // rewrites the same cache path with unit weights
  expect_same_csr(opened.read(), mine);
  EXPECT_NE(std::get<IntCsr>(io::read_cache(cache_)).weights, std::get<IntCsr>(mine).weights);
}

// The same race from the loader's side: two threads sharing one cache path
// with different weight rules each always get their own graph.
TEST_F(BinaryCache, LoadersWithDifferentRulesSharingAPathNeverSwapGraphs) {
  const AnyCsr file_weights = load_graph(source_, test_support::quiet_load());
  LoadOptions unit_options = test_support::quiet_load();
  unit_options.weights = WeightRule::parse("unit");
  const AnyCsr unit_weights = load_graph(source_, unit_options);
  std::atomic<int> wrong{0};
  auto loop = [&](LoadOptions o, const AnyCsr& expected) {
    o.use_cache = true;
    o.threads = 1;
    for (int i = 0; i < 150; ++i) {
      try {
        if (std::get<IntCsr>(load_graph(source_, o)).weights != std::get<IntCsr>(expected).weights) ++wrong;
      } catch (const InputError& e) {
        // A cache caught half-renamed is never seen (rename is atomic); any
        // error here is a finding.
        ADD_FAILURE() << e.what();
      }
    }
  };
  std::thread a(loop, test_support::quiet_load(), std::cref(file_weights));
  std::thread b(loop, unit_options, std::cref(unit_weights));
  a.join();
  b.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(BinaryCache, RebuiltWhenOptionsChange) {
  load_graph(source_, cached());
  LoadReport report;
  LoadOptions o = cached();
  o.undirected = true;
  auto g = load_graph(source_, o, &report);
  EXPECT_FALSE(report.from_cache);
  EXPECT_EQ(num_arcs(g), 12u);
  load_graph(source_, o, &report);
  EXPECT_TRUE(report.from_cache);

  o.weights = WeightRule::parse("random:1:10", 1);
  load_graph(source_, o, &report);
  EXPECT_FALSE(report.from_cache);
  o.weights = WeightRule::parse("random:1:10", 2);  // another seed, other weights
  load_graph(source_, o, &report);
  EXPECT_FALSE(report.from_cache);
  load_graph(source_, o, &report);
  EXPECT_TRUE(report.from_cache);
  EXPECT_EQ(report.weight_rule, "random:1:10 seed=2");
}

TEST_F(BinaryCache, PatternFileSeedInvalidatesTheCache) {
  const std::string src = (dir_ / "p.mtx").string();
  fs::copy_file(test_support::fixtures_dir() / "small_pattern_symmetric.mtx", src);
  LoadOptions o = cached();
  const auto a = load_graph(src, o);
  o.weights.seed = 99;
  LoadReport report;
  const auto b = load_graph(src, o, &report);
  EXPECT_FALSE(report.from_cache);
  EXPECT_NE(std::get<IntCsr>(a).weights, std::get<IntCsr>(b).weights);
}

TEST_F(BinaryCache, CorruptCachesAreRejectedNamingTheFile) {
  load_graph(source_, cached());
  const std::string good = read_bytes(cache_);
  ASSERT_GT(good.size(), 200u);
  LoadOptions direct;
  direct.progress = false;

  // Bad magic.
  std::string bytes = good;
  bytes[0] = 'X';
  write_bytes(cache_, bytes);
  expect_corrupt(cached(), source_);
  expect_corrupt(direct, cache_);

  // Truncated (header intact, arrays cut), and shorter than a header.
  write_bytes(cache_, good.substr(0, good.size() - 8));
  expect_corrupt(cached(), source_);
  expect_corrupt(direct, cache_);
  write_bytes(cache_, good.substr(0, 20));
  expect_corrupt(cached(), source_);

  // One flipped bit in the weights (the last array): checksum.
  bytes = good;
  bytes[bytes.size() - 9] = static_cast<char>(bytes[bytes.size() - 9] ^ 0x10);
  write_bytes(cache_, bytes);
  expect_corrupt(cached(), source_);
  expect_corrupt(direct, cache_);

  // A flipped flag in the header (symmetric, byte 36): checksum.
  bytes = good;
  bytes[36] = static_cast<char>(bytes[36] ^ 1);
  write_bytes(cache_, bytes);
  expect_corrupt(direct, cache_);

  // Recovered after the file is deleted.
  fs::remove(cache_);
  LoadReport report;
  load_graph(source_, cached(), &report);
  EXPECT_TRUE(report.cache_written);
}

TEST_F(BinaryCache, OtherVersionIsRebuiltOrRefused) {
  load_graph(source_, cached());
  std::string bytes = read_bytes(cache_);
  bytes[8] = static_cast<char>(io::kCacheVersion + 1);  // version field (u32 at byte 8)
  write_bytes(cache_, bytes);
  LoadOptions direct;
  direct.progress = false;
  expect_corrupt(direct, cache_);  // cannot be read directly
  LoadReport report;
  load_graph(source_, cached(), &report);  // but beside its source it is simply rebuilt
  EXPECT_FALSE(report.from_cache);
  EXPECT_TRUE(report.cache_written);
  load_graph(source_, cached(), &report);
  EXPECT_TRUE(report.from_cache);
}

// A writer can produce a self-consistent file (valid checksum) whose arrays
// break what every solver relies on. Each invariant is refused on its own,
// with the reason named; the graphs below differ from a valid one in one
// way each.
TEST_F(BinaryCache, EveryCsrInvariantIsCheckedOnRead) {
  struct Case {
    const char* what;
    IntCsr graph;
    bool symmetric;
    const char* reason;
  };
  auto csr = [](vertex_id n, std::vector<edge_offset> offsets, std::vector<vertex_id> targets,
                std::vector<std::uint32_t> weights) {
    IntCsr g;
    g.num_vertices = n;
    g.offsets = std::move(offsets);
    g.targets = std::move(targets);
    g.weights = std::move(weights);
    return g;
  };
  const std::vector<Case> cases = {
      {"offsets not starting at 0", csr(3, {1, 1, 2, 2}, {1, 2}, {1, 1}), false, "span"},
      {"offsets not ending at the arc count", csr(3, {0, 1, 1, 1}, {1, 2}, {1, 1}), false, "span"},
      {"decreasing offsets", csr(3, {0, 2, 1, 2}, {1, 2}, {1, 1}), false, "decrease"},
      {"target out of range", csr(3, {0, 1, 2, 2}, {1, 3}, {1, 1}), false, "not a vertex"},
      {"self-loop", csr(3, {0, 1, 2, 2}, {1, 1}, {1, 1}), false, "self-loop"},
      {"unsorted row", csr(3, {0, 2, 2, 2}, {2, 1}, {1, 1}), false, "not sorted"},
      {"duplicate arc", csr(3, {0, 2, 2, 2}, {1, 1}, {1, 1}), false, "duplicate"},
      {"undirected flag on a directed graph", csr(3, {0, 1, 2, 2}, {1, 2}, {1, 1}), true, "reverse arc"},
      {"undirected flag, reverse weight differs", csr(2, {0, 1, 2}, {1, 0}, {1, 2}), true, "reverse arc"},
  };
  for (const Case& c : cases) {
    const std::string path = (dir_ / "bad.bin").string();
    io::CacheInfo info;
    info.symmetric = c.symmetric;
    io::write_cache(path, AnyCsr(c.graph), info);
    try {
      io::read_cache(path);
      ADD_FAILURE() << c.what << ": accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.kind(), InputErrorKind::CorruptCache) << c.what << ": " << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.reason), std::string::npos) << c.what << ": " << e.what();
    }
  }
  // The valid graph these were made from loads.
  io::CacheInfo info;
  io::write_cache((dir_ / "good.bin").string(), AnyCsr(csr(3, {0, 1, 2, 2}, {1, 2}, {1, 1})), info);
  EXPECT_EQ(num_arcs(io::read_cache((dir_ / "good.bin").string())), 2u);
}

TEST_F(BinaryCache, FloatWeightsOutsideTheirDomainAreRefused) {
  const float inf = std::numeric_limits<float>::infinity();
  const float big = std::numeric_limits<float>::max() / 2;
  for (const auto& [what, weights, reason] : std::vector<std::tuple<const char*, std::vector<float>, const char*>>{
           {"NaN", {1.0f, std::nanf("")}, "not finite"},
           {"infinity", {inf, 1.0f}, "not finite"},
           {"negative", {1.0f, -2.0f}, "negative"},
           {"negative zero", {-0.0f, 1.0f}, "negative"},
           // The text readers' path bound: two arcs of FLT_MAX / 2 could sum
           // (with rounding) to infinity, a reachable vertex "unreachable".
           {"path bound", {big, big}, "beyond float range"}}) {
    FloatCsr g;
    g.num_vertices = 3;
    g.offsets = {0, 1, 2, 2};
    g.targets = {1, 2};
    g.weights = weights;
    const std::string path = (dir_ / "bad.bin").string();
    io::write_cache(path, AnyCsr(g), io::CacheInfo{});
    try {
      io::read_cache(path);
      ADD_FAILURE() << what << ": accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.kind(), InputErrorKind::CorruptCache) << what << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << what << ": " << e.what();
    }
  }
}

// The crash and the silent wrong answer: a checksum-valid cache with
// duplicate arcs crashed the chain contraction (the default on road-like
// graphs); one with unsorted rows printed most vertices unreachable. Both
// reached the solvers through a cache found beside a source.
TEST_F(BinaryCache, ABadCacheBesideItsSourceIsRefusedBeforeAnySolver) {
  load_graph(source_, cached());
  const io::CacheInfo good = io::read_cache_header(cache_);
  IntCsr g = std::get<IntCsr>(io::read_cache(cache_));
  ASSERT_GE(g.offsets[1], 1u);
  // Vertex 0's first arc doubled; then a row reversed.
  IntCsr duplicated = g;
  duplicated.targets.insert(duplicated.targets.begin(), duplicated.targets.front());
  duplicated.weights.insert(duplicated.weights.begin(), duplicated.weights.front());
  for (std::size_t v = 1; v < duplicated.offsets.size(); ++v) ++duplicated.offsets[v];
  io::write_cache(cache_, AnyCsr(duplicated), good);
  expect_corrupt(cached(), source_);
  IntCsr unsorted = g;
  for (vertex_id v = 0; v < g.num_vertices; ++v)
    if (g.out_degree(v) > 1)
      std::reverse(unsorted.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[v]),
                   unsorted.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[v + 1]));
  ASSERT_NE(unsorted.targets, g.targets);
  io::write_cache(cache_, AnyCsr(unsorted), good);
  expect_corrupt(cached(), source_);
}

TEST_F(BinaryCache, ImplausibleHeaderFieldsAreRefused) {
  IntCsr g;
  g.num_vertices = 2;
  g.offsets = {0, 1, 1};
  g.targets = {1};
  g.weights = {1};
  const std::string path = (dir_ / "bad.bin").string();
  io::CacheInfo info;
  info.id_base = 7;
  io::write_cache(path, AnyCsr(g), info);
  EXPECT_THROW(io::read_cache(path), InputError);
  info.id_base = 1;
  info.original_seconds = std::nan("");
  io::write_cache(path, AnyCsr(g), info);
  EXPECT_THROW(io::read_cache(path), InputError);
}

TEST_F(BinaryCache, UnwritableCacheDoesNotFailTheLoad) {
  LoadOptions o = cached();
  o.cache_path = (dir_ / "no_such_dir" / "g.bin").string();
  LoadReport report;
  const auto g = load_graph(source_, o, &report);
  EXPECT_EQ(num_arcs(g), 6u);
  EXPECT_FALSE(report.cache_written);
}

TEST_F(BinaryCache, RealDataRoundTrip) {
  SKIP_IF_NO_DATASET("road/DE.gr");
  const std::string src = (dir_ / "DE.gr").string();
  fs::copy_file(test_support::datasets_dir() / "road/DE.gr", src);
  LoadReport first, second;
  const auto parsed = load_graph(src, cached(), &first);
  const auto again = load_graph(src, cached(), &second);
  EXPECT_TRUE(second.from_cache);
  expect_same_csr(parsed, again);
  EXPECT_EQ(second.build.input_entries, 121024u);
}
