// Edge-list reader: 0-based ids, two or three columns, integer or real
// weights decided by the file, comments, and rejections with "file:line".
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <variant>

#include "graph/error.hpp"
#include "graph/load.hpp"
#include "graph_test_support.hpp"
#include "test_support.hpp"

using namespace graph;

namespace {

LoadOptions quiet(int threads = 0) { return test_support::quiet_load(threads); }

class EdgeList : public test_support::ScratchDirTest {
 protected:
  EdgeList() : ScratchDirTest("el") {}

  std::string write(const std::string& text, const std::string& name = "g.el") { return write_file(name, text); }

  // Loads `text` and expects an InputError of `kind` reported at `line`,
  // with a message that starts "FILE:LINE: ".
  void expect_error(const std::string& text, InputErrorKind kind, std::uint64_t line, const LoadOptions& options = quiet()) {
    test_support::expect_load_error(write(text), options, kind, line, "\n" + text);
  }
};

std::string fixture(const std::string& name) { return (test_support::fixtures_dir() / name).string(); }

}  // namespace

TEST_F(EdgeList, WeightedFixture) {
  LoadReport report;
  const auto any = load_graph(fixture("small_weighted.el"), quiet(), &report);
  ASSERT_TRUE(std::holds_alternative<IntCsr>(any));
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ(g.num_vertices, 4u);
  EXPECT_EQ((std::vector<edge_offset>{0, 1, 2, 4, 4}), g.offsets);
  EXPECT_EQ((std::vector<vertex_id>{1, 2, 0, 3}), g.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{5, 7, 1, 4}), g.weights);
  EXPECT_EQ(report.format, Format::EdgeList);
  EXPECT_EQ(report.id_base, 0u);
  EXPECT_TRUE(report.file_has_weights);
  EXPECT_EQ(report.weight_rule, "file");
}

TEST_F(EdgeList, UnweightedTabSeparatedGetsRuleWeights) {
  LoadOptions o = quiet();
  o.weights.seed = 11;
  LoadReport report;
  const auto any = load_graph(fixture("small_unweighted.edges"), o, &report);
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ(g.num_vertices, 4u);
  EXPECT_EQ((std::vector<vertex_id>{1, 2, 0, 2}), g.targets);
  EXPECT_FALSE(report.file_has_weights);
  const WeightRule rule = o.weights.for_pattern_file();
  EXPECT_EQ(report.weight_rule, rule.describe());
  for (vertex_id u = 0; u < g.num_vertices; ++u)
    for (edge_offset k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      EXPECT_EQ(g.weights[k], rule.random_weight(u, g.targets[k]));
}

TEST_F(EdgeList, RealWeightsGiveFloatCsr) {
  const auto any = load_graph(fixture("small_real.txt"), quiet());
  ASSERT_TRUE(std::holds_alternative<FloatCsr>(any));
  const auto& g = std::get<FloatCsr>(any);
  EXPECT_EQ((std::vector<vertex_id>{1, 2, 0}), g.targets);
  EXPECT_EQ((std::vector<float>{0.5f, 2.0f, 1.25f}), g.weights);
}

TEST_F(EdgeList, OneRealWeightMakesTheWholeFileReal) {
  const auto any = load_graph(write("0 1 5\n1 2 7\n2 0 2.5\n"), quiet());
  ASSERT_TRUE(std::holds_alternative<FloatCsr>(any));
  EXPECT_EQ((std::vector<float>{5.0f, 7.0f, 2.5f}), std::get<FloatCsr>(any).weights);
}

TEST_F(EdgeList, RealWeightDeepInAMultiChunkFile) {
  // About 3 MB: many chunks; the single real weight is near the end.
  std::string text = "# big\n";
  const int n = 200000;
  for (int i = 0; i < n; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i % 97) + "\n";
  text += std::to_string(n) + " 0 0.5\n";
  for (int threads : {1, 4}) {
    const auto any = load_graph(write(text), quiet(threads));
    ASSERT_TRUE(std::holds_alternative<FloatCsr>(any));
    const auto& g = std::get<FloatCsr>(any);
    ASSERT_EQ(g.num_vertices, static_cast<vertex_id>(n + 1));
    ASSERT_EQ(g.num_arcs(), static_cast<edge_offset>(n + 1));
    EXPECT_EQ(g.weights[12345], static_cast<float>(12345 % 97));
    EXPECT_EQ(g.weights[static_cast<std::size_t>(n)], 0.5f);
  }
}

TEST_F(EdgeList, CommentsBlankLinesCrlfAndMissingFinalNewline) {
  const auto any = load_graph(write("# a\r\n% b\r\n\r\n  0\t1  \r\n   # indented comment\n5 0\r\n  \n2 5"), quiet());
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ(g.num_vertices, 6u);
  EXPECT_EQ(g.num_arcs(), 3u);
}

TEST_F(EdgeList, UndirectedAndOverride) {
  LoadOptions o = quiet();
  o.undirected = true;
  o.weights = WeightRule::parse("unit");
  LoadReport report;
  const auto any = load_graph(write("0 1 0.5\n1 2 7\n"), o, &report);
  ASSERT_TRUE(std::holds_alternative<IntCsr>(any));
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ((std::vector<vertex_id>{1, 0, 2, 1}), g.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{1, 1, 1, 1}), g.weights);
  EXPECT_TRUE(report.symmetric);
  EXPECT_TRUE(report.file_has_weights);
}

TEST_F(EdgeList, RejectsMixedColumnCounts) {
  expect_error("0 1\n1 2\n2 3 4\n", InputErrorKind::BadToken, 3);
  expect_error("# c\n0 1 4\n1 2\n", InputErrorKind::BadToken, 3);
  expect_error("0 1 2.5\n1 2\n", InputErrorKind::BadToken, 2);
}

TEST_F(EdgeList, RejectsMixedColumnsAcrossChunks) {
  // Two-column lines first, a three-column line far into the file (another
  // chunk): the error names that line, whatever the thread count.
  std::string text;
  const int n = 150000;
  for (int i = 0; i < n; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  text += "7 8 9\n";
  for (int i = 0; i < 1000; ++i) text += "1 2\n";
  expect_error(text, InputErrorKind::BadToken, static_cast<std::uint64_t>(n) + 1, quiet(1));
  expect_error(text, InputErrorKind::BadToken, static_cast<std::uint64_t>(n) + 1, quiet(4));
}

TEST_F(EdgeList, RejectsEmptyFiles) {
  expect_error("", InputErrorKind::Truncated, 0);
  expect_error("# only\n% comments\n\n", InputErrorKind::Truncated, 0);
}

TEST_F(EdgeList, RejectsBadTokens) {
  expect_error("0 1\n-1 2\n", InputErrorKind::BadToken, 2);
  expect_error("0 1\n1 x\n", InputErrorKind::BadToken, 2);
  expect_error("0 1\n1 2 3 4\n", InputErrorKind::BadToken, 2);
  expect_error("0 1 3\n1 2 3 4\n", InputErrorKind::BadToken, 2);
  expect_error("0 1 3\n1 2 abc\n", InputErrorKind::BadToken, 2);
  expect_error("0 1 3\n1\n", InputErrorKind::BadToken, 2);
  expect_error("0 1 3\n1", InputErrorKind::Truncated, 2);
  expect_error("0 1.0\n", InputErrorKind::BadToken, 1);
}

TEST_F(EdgeList, RejectsIdsThatOverflow) {
  // The largest id is 2^32 - 3, so that the vertex count stays below 2^32 - 1.
  expect_error("0 1\n4294967294 1\n", InputErrorKind::Overflow, 2);
  expect_error("0 1\n1 99999999999999999999\n", InputErrorKind::Overflow, 2);
}

TEST_F(EdgeList, RejectsBadWeights) {
  expect_error("0 1 3\n1 2 -3\n", InputErrorKind::BadWeight, 2);
  expect_error("0 1 3\n1 2 -3.5\n", InputErrorKind::BadWeight, 2);
  expect_error("0 1 3\n1 2 nan\n", InputErrorKind::BadWeight, 2);
  expect_error("0 1 3\n1 2 4294967296\n", InputErrorKind::Overflow, 2);
  expect_error("0 1 3.5\n1 2 1e40\n", InputErrorKind::Overflow, 2);
}

TEST_F(EdgeList, FirstErrorInFileOrderWinsAcrossChunks) {
  std::string text;
  const int n = 150000;
  for (int i = 0; i < n; ++i) {
    if (i == 60000) text += "1 oops\n";
    else if (i == 140000) text += "1 2 3 4\n";
    else text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  }
  for (int threads : {1, 2, 8}) expect_error(text, InputErrorKind::BadToken, 60001, quiet(threads));
}
