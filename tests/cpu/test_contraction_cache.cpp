// The sealed contraction and hierarchy caches: a round trip gives back what
// was written, field by field; a cache is refused (with its reason) when its
// graph changed, when any byte of it changed, when it is cut short, when it
// was sealed under another key or there is no key, and when it is of the
// other kind; the key is made private on first use and a shared one is not
// trusted. The reader's refusals are InputError(CorruptCache) naming the file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "graph/contraction.hpp"
#include "graph/error.hpp"
#include "graph/hierarchy.hpp"
#include "graph/io/contraction_cache.hpp"
#include "graph/io/sealed_file.hpp"
#include "road_like_graph.hpp"
#include "test_support.hpp"

using namespace graph;

namespace {

class ContractionCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_support::scratch_dir("contraction_cache");
    std::filesystem::create_directories(dir_);
    const char* old = std::getenv("XDG_CONFIG_HOME");
    if (old) old_config_ = old;
    had_config_ = old != nullptr;
    ::setenv("XDG_CONFIG_HOME", (dir_ / "config").c_str(), 1);
    g_ = test_support::road_like(test_support::RoadSpec{}, 11);
    c_ = contract_chains(g_);
  }
  void TearDown() override {
    if (had_config_) ::setenv("XDG_CONFIG_HOME", old_config_.c_str(), 1);
    else ::unsetenv("XDG_CONFIG_HOME");
    std::filesystem::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // The reason a read of `file` is refused ("" when it is not).
  std::string refusal(const std::string& file, const IntCsr& g) const {
    try {
      (void)io::read_contraction_cache(file, g);
      return "";
    } catch (const InputError& e) {
      EXPECT_EQ(e.kind(), InputErrorKind::CorruptCache);
      EXPECT_EQ(e.file(), file);
      return e.what();
    }
  }

  std::filesystem::path dir_;
  std::string old_config_;
  bool had_config_ = false;
  IntCsr g_;
  ChainContraction c_;
};

void expect_same(const ChainContraction& a, const ChainContraction& b) {
  EXPECT_EQ(a.core.num_vertices, b.core.num_vertices);
  EXPECT_EQ(a.core.offsets, b.core.offsets);
  EXPECT_EQ(a.core.targets, b.core.targets);
  EXPECT_EQ(a.core.weights, b.core.weights);
  EXPECT_EQ(a.entry, b.entry);
  EXPECT_EQ(a.entry_weight_bound, b.entry_weight_bound);
  EXPECT_EQ(a.core_of, b.core_of);
  EXPECT_EQ(a.original_of, b.original_of);
  EXPECT_EQ(a.via, b.via);
  ASSERT_EQ(a.anchors.size(), b.anchors.size());
  for (std::size_t i = 0; i < a.anchors.size(); ++i) {
    EXPECT_EQ(a.anchors[i].core, b.anchors[i].core) << i;
    EXPECT_EQ(a.anchors[i].pred, b.anchors[i].pred) << i;
    EXPECT_EQ(a.anchors[i].offset, b.anchors[i].offset) << i;
  }
  EXPECT_EQ(a.piece, b.piece);
  EXPECT_EQ(a.peeled, b.peeled);
  EXPECT_EQ(a.chain_vertices, b.chain_vertices);
  EXPECT_EQ(a.shortcuts, b.shortcuts);
  EXPECT_EQ(a.pieces, b.pieces);
}

std::vector<char> bytes_of(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}
void write_bytes(const std::string& file, const std::vector<char>& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST_F(ContractionCache, RoundTripAndAPrivateKey) {
  ASSERT_GT(c_.pieces, 0u) << "the test graph should contract";
  const std::string file = path("g.contraction.cache");
  io::write_contraction_cache(file, g_, c_);
  expect_same(io::read_contraction_cache(file, g_), c_);
  struct stat st {};
  ASSERT_EQ(::stat(io::cache_key_path().c_str(), &st), 0) << io::cache_key_path();
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(st.st_size, 32);
  // A second write reuses the key: the first file still reads.
  io::write_contraction_cache(path("again.cache"), g_, c_);
  expect_same(io::read_contraction_cache(file, g_), c_);
}

TEST_F(ContractionCache, PathsBesideTheGraphCache) {
  EXPECT_EQ(io::contraction_cache_path("/d/DE.gr.bin.cache"), "/d/DE.gr.contraction.cache");
  EXPECT_EQ(io::hierarchy_cache_path("/d/DE.gr.bin.cache"), "/d/DE.gr.hierarchy.cache");
  EXPECT_EQ(io::contraction_cache_path("/d/mine"), "/d/mine.contraction.cache");
}

TEST_F(ContractionCache, AChangedGraphIsRefused) {
  const std::string file = path("g.contraction.cache");
  io::write_contraction_cache(file, g_, c_);
  IntCsr heavier = g_;
  heavier.weights[heavier.weights.size() / 2] += 1;  // same shape, one weight more
  EXPECT_TRUE(test_support::contains(refusal(file, heavier), "built from another graph")) << refusal(file, heavier);
  const IntCsr other = test_support::road_like(test_support::RoadSpec{}, 12);
  EXPECT_TRUE(test_support::contains(refusal(file, other), "another graph")) << refusal(file, other);
}

TEST_F(ContractionCache, EveryChangedByteIsRefused) {
  const std::string file = path("g.contraction.cache");
  io::write_contraction_cache(file, g_, c_);
  const std::vector<char> good = bytes_of(file);
  // Every byte of a small file, flipped one at a time (strided on a larger one).
  const std::size_t step = std::max<std::size_t>(1, good.size() / 2000);
  for (std::size_t i = 0; i < good.size(); i += step) {
    std::vector<char> bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    write_bytes(file, bad);
    EXPECT_FALSE(refusal(file, g_).empty()) << "byte " << i << " of " << good.size() << " changed, still read";
  }
  for (const std::size_t keep : {std::size_t{0}, std::size_t{10}, good.size() / 2, good.size() - 1}) {
    write_bytes(file, std::vector<char>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(keep)));
    EXPECT_FALSE(refusal(file, g_).empty()) << "cut to " << keep << " bytes, still read";
  }
  std::vector<char> longer = good;
  longer.push_back(0);
  write_bytes(file, longer);
  EXPECT_FALSE(refusal(file, g_).empty()) << "a byte appended, still read";
  write_bytes(file, good);
  EXPECT_TRUE(refusal(file, g_).empty());
}

TEST_F(ContractionCache, AnotherKeyOrNoKeyIsRefused) {
  const std::string file = path("g.contraction.cache");
  io::write_contraction_cache(file, g_, c_);
  // Sealed under a key this user no longer has.
  std::filesystem::remove(io::cache_key_path());
  EXPECT_TRUE(test_support::contains(refusal(file, g_), "no cache key")) << refusal(file, g_);
  io::write_contraction_cache(path("other.cache"), g_, c_);  // makes a new key
  EXPECT_TRUE(test_support::contains(refusal(file, g_), "seal does not match")) << refusal(file, g_);
  // A key others can read is not trusted.
  ASSERT_EQ(::chmod(io::cache_key_path().c_str(), 0644), 0);
  EXPECT_TRUE(test_support::contains(refusal(path("other.cache"), g_), "not a private")) << refusal(path("other.cache"), g_);
  ASSERT_EQ(::chmod(io::cache_key_path().c_str(), 0600), 0);
  EXPECT_TRUE(refusal(path("other.cache"), g_).empty());
}

TEST_F(ContractionCache, TheOtherKindIsRefused) {
  const Hierarchy h = build_hierarchy(c_.core);
  const std::string hfile = path("g.hierarchy.cache");
  io::write_hierarchy_cache(hfile, g_, h);
  EXPECT_TRUE(test_support::contains(refusal(hfile, g_), "not this kind of cache")) << refusal(hfile, g_);
  const std::string cfile = path("g.contraction.cache");
  io::write_contraction_cache(cfile, g_, c_);
  EXPECT_THROW((void)io::read_hierarchy_cache(cfile, g_, c_), InputError);
  EXPECT_TRUE(refusal(path("missing.cache"), g_).find("cannot open") != std::string::npos);
}

TEST_F(ContractionCache, HierarchyRoundTrip) {
  const Hierarchy h = build_hierarchy(c_.core);
  const std::string file = path("g.hierarchy.cache");
  io::write_hierarchy_cache(file, g_, h);
  const Hierarchy r = io::read_hierarchy_cache(file, g_, c_);
  EXPECT_EQ(r.num_vertices, h.num_vertices);
  EXPECT_EQ(r.rank, h.rank);
  EXPECT_EQ(r.up_offsets, h.up_offsets);
  EXPECT_EQ(r.up_targets, h.up_targets);
  EXPECT_EQ(r.up_weights, h.up_weights);
  EXPECT_EQ(r.order, h.order);
  EXPECT_EQ(r.position, h.position);
  EXPECT_EQ(r.level_offsets, h.level_offsets);
  EXPECT_EQ(r.down_offsets, h.down_offsets);
  EXPECT_EQ(r.down_tails, h.down_tails);
  EXPECT_EQ(r.down_weights, h.down_weights);
  EXPECT_EQ(r.shortcuts, h.shortcuts);
  // Built over another core (the graph changed): refused.
  IntCsr heavier = g_;
  heavier.weights[0] += 1;
  EXPECT_THROW((void)io::read_hierarchy_cache(file, heavier, c_), InputError);
}

}  // namespace
