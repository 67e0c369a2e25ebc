// Binary cache: round trip, reuse only when source and options match,
// rebuild when stale, CorruptCache naming the file when damaged.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
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
  // Same size, new modification time.
  fs::last_write_time(source_, fs::last_write_time(source_) - std::chrono::hours(1));
  LoadReport report;
  load_graph(source_, cached(), &report);
  EXPECT_FALSE(report.from_cache);
  EXPECT_TRUE(report.cache_written);
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

TEST_F(BinaryCache, StructurallyInvalidCacheWithValidChecksumIsRejected) {
  // A writer could produce a self-consistent file whose arrays are wrong;
  // read_cache checks the CSR structure too.
  IntCsr bad;
  bad.num_vertices = 2;
  bad.offsets = {0, 1, 1};
  bad.targets = {5};  // out of range
  bad.weights = {1};
  const std::string path = (dir_ / "bad.bin").string();
  io::CacheInfo info;
  io::write_cache(path, AnyCsr(bad), info);
  try {
    io::read_cache(path);
    FAIL() << "out-of-range target accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.kind(), InputErrorKind::CorruptCache);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
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
