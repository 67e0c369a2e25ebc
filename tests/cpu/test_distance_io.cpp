// Distance files: round trips (integer, float, unreachable, id bases) and
// every rejection, with the file and line in the message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "graph/distance_io.hpp"
#include "graph/error.hpp"
#include "test_support.hpp"

using namespace graph;

namespace {

class DistanceIo : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test_support::scratch_dir("distance_io"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write_text(const std::string& name, const std::string& text) {
    const auto path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  static std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
  }
  // Expects read_distances to throw `kind` with "FILE:LINE:" in the message.
  void expect_rejected(const std::string& text, InputErrorKind kind, std::uint64_t line, std::uint32_t base = 1) {
    const auto path = write_text("bad.dist", text);
    try {
      read_distances(path, base);
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      EXPECT_EQ(e.line(), line) << e.what();
      EXPECT_NE(std::string(e.what()).find(path + ":" + std::to_string(line) + ":"), std::string::npos) << e.what();
    }
  }

  std::filesystem::path dir_;
};

TEST_F(DistanceIo, TableOfSeveralSourcesNamesThemAndWritesOneLinePerVertex) {
  const std::uint64_t inf = 99;
  const std::vector<std::vector<std::uint64_t>> rows{{0, 4, inf}, {7, 0, 2}};
  const auto path = (dir_ / "table.dist").string();
  write_distance_table(path, {1, 2}, rows, inf, 1);
  EXPECT_EQ(read_text(path), "# id d(1) d(2)\n1 0 7\n2 4 0\n3 -1 2\n");
  const std::vector<std::vector<float>> floats{{0.5f, std::numeric_limits<float>::infinity()}};
  write_distance_table(path, {0}, floats, std::numeric_limits<float>::infinity(), 0);
  EXPECT_EQ(read_text(path), "# id d(0)\n0 0.5\n1 -1\n");
  EXPECT_THROW(write_distance_table(path, {1}, rows, inf, 1), std::invalid_argument);
  const std::vector<std::vector<std::uint64_t>> ragged{{0, 1}, {0}};
  EXPECT_THROW(write_distance_table(path, {1, 2}, ragged, inf, 1), std::invalid_argument);
}

TEST_F(DistanceIo, SourcesByTargetsOneLinePerPair) {
  const std::uint64_t inf = 99;
  const std::vector<std::vector<std::uint64_t>> d{{3, inf}, {0, 5}};
  const auto path = (dir_ / "pairs.dist").string();
  write_target_distances(path, {4, 9}, {9, 1}, d, inf);
  EXPECT_EQ(read_text(path), "# source target distance\n4 9 3\n4 1 -1\n9 9 0\n9 1 5\n");
  EXPECT_THROW(write_target_distances(path, {4, 9}, {9}, d, inf), std::invalid_argument);
}

TEST_F(DistanceIo, LongTablesCrossTheWriteBlockIntact) {
  // Past the 1 MiB block the writer flushes at: every line must survive whole.
  const std::size_t n = 200000;
  std::vector<std::vector<std::uint64_t>> rows(3, std::vector<std::uint64_t>(n));
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t v = 0; v < n; ++v) rows[k][v] = 1000000007ull * (k + 1) + v;
  const auto path = (dir_ / "long.dist").string();
  write_distance_table(path, {5, 6, 7}, rows, std::uint64_t{0}, 0);
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "# id d(5) d(6) d(7)");
  std::size_t v = 0;
  for (; std::getline(in, line); ++v) {
    std::istringstream fields(line);
    std::uint64_t id = 0, a = 0, b = 0, c = 0;
    ASSERT_TRUE(fields >> id >> a >> b >> c) << "line " << v + 2 << ": " << line;
    ASSERT_EQ(id, v);
    ASSERT_EQ(a, rows[0][v]);
    ASSERT_EQ(c, rows[2][v]);
  }
  EXPECT_EQ(v, n);
}

}  // namespace

TEST_F(DistanceIo, IntegerRoundTripWithUnreachable) {
  const auto inf = std::numeric_limits<std::uint64_t>::max();
  const std::vector<std::uint64_t> dist{0, 5, inf, 18446744073709551614ull, 1ull << 53};
  const auto path = (dir_ / "int.dist").string();
  write_distances(path, dist, inf);
  EXPECT_EQ(read_text(path), "1 0\n2 5\n3 -1\n4 18446744073709551614\n5 9007199254740992\n");
  const auto back = read_distances(path);
  ASSERT_EQ(back.size(), dist.size());
  EXPECT_EQ(back[0], 0.0);
  EXPECT_EQ(back[1], 5.0);
  EXPECT_EQ(back[2], -1.0);
  EXPECT_EQ(back[4], 9007199254740992.0);

  write_distances(path, dist, inf, 0);  // replaces the file, 0-based ids
  EXPECT_EQ(read_text(path).substr(0, 8), "0 0\n1 5\n");
  EXPECT_EQ(read_distances(path, 0), back);
}

TEST_F(DistanceIo, FloatsRoundTripExactly) {
  std::mt19937 rng(3);
  std::vector<float> dist{0.0f, 0.1f, 1.0f / 3.0f, 1e-30f, 3.4e38f, std::numeric_limits<float>::infinity(),
                          16777217.0f, std::numeric_limits<float>::denorm_min()};
  std::uniform_real_distribution<float> uniform(0.0f, 1e6f);
  for (int i = 0; i < 2000; ++i) dist.push_back(uniform(rng));
  const auto path = (dir_ / "float.dist").string();
  write_distances(path, dist, std::numeric_limits<float>::infinity());
  const auto back = read_distances(path);
  ASSERT_EQ(back.size(), dist.size());
  for (std::size_t v = 0; v < dist.size(); ++v) {
    if (std::isinf(dist[v])) {
      EXPECT_EQ(back[v], -1.0);
    } else {
      EXPECT_EQ(static_cast<float>(back[v]), dist[v]) << "vertex " << v;
    }
  }
  const std::vector<double> doubles{0.1, 1.0 / 3.0, 1e300};
  write_distances(path, doubles, std::numeric_limits<double>::infinity(), 0);
  EXPECT_EQ(read_distances(path, 0), doubles);
}

TEST_F(DistanceIo, ReadsCommentsAnyOrderAndWhitespace) {
  const auto path = write_text("ok.dist",
                               "# vertex dist (1-based ids; source 1; -1 = unreachable)\n"
                               "3 7.5\r\n"
                               "\n"
                               "  1\t0  \n"
                               "# a comment in the middle\n"
                               "2 -1\n"
                               "4 1e3");  // no final newline
  EXPECT_EQ(read_distances(path), (std::vector<double>{0, -1, 7.5, 1000}));
  EXPECT_TRUE(read_distances(write_text("empty.dist", "# nothing\n")).empty());
}

TEST_F(DistanceIo, RejectsMalformedLines) {
  expect_rejected("1 0\n2 x\n", InputErrorKind::BadToken, 2);
  expect_rejected("1 0\n2\n", InputErrorKind::BadToken, 2);
  expect_rejected("# c\n1 0 7\n", InputErrorKind::BadToken, 2);
  expect_rejected("1 0\nx 3\n", InputErrorKind::BadToken, 2);
  expect_rejected("1 0\n-2 3\n", InputErrorKind::BadToken, 2);
  expect_rejected("1 0\n2 -5\n", InputErrorKind::BadToken, 2);
  expect_rejected("1 0\n2 nan\n", InputErrorKind::BadToken, 2);
  expect_rejected("1 0\n2 inf\n", InputErrorKind::BadToken, 2);
  expect_rejected("1 0\n2 1e999\n", InputErrorKind::Overflow, 2);
  expect_rejected("1 0\n2 3x\n", InputErrorKind::BadToken, 2);
  expect_rejected("1 0\n99999999999999999999999 3\n", InputErrorKind::Overflow, 2);
}

TEST_F(DistanceIo, RejectsDuplicateOutOfRangeAndMissingIds) {
  expect_rejected("1 0\n2 4\n2 5\n", InputErrorKind::CountMismatch, 3);  // duplicate
  expect_rejected("1 0\n0 4\n", InputErrorKind::IdOutOfRange, 2);        // 0 in a 1-based file
  expect_rejected("1 0\n2 4\n7 5\n", InputErrorKind::IdOutOfRange, 3);   // beyond the 3 listed
  expect_rejected("1 0\n3 4\n", InputErrorKind::IdOutOfRange, 2);        // vertex 2 missing
  expect_rejected("1 0\n2 4\n", InputErrorKind::IdOutOfRange, 2, 0);     // 0-based: 0 is missing
}

TEST_F(DistanceIo, MissingFileAndUnwritablePath) {
  try {
    read_distances((dir_ / "nope.dist").string());
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.kind(), InputErrorKind::CannotOpen);
    EXPECT_NE(std::string(e.what()).find("nope.dist"), std::string::npos);
  }
  const std::vector<std::uint64_t> dist{0, 1};
  EXPECT_THROW(write_distances((dir_ / "no" / "such" / "dir.dist").string(), dist, std::uint64_t{99}),
               InputError);
  EXPECT_TRUE(std::filesystem::is_empty(dir_));  // no temporary left behind
}
