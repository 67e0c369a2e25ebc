// DIMACS .gr reader: accepted files with exact counts, every rejection with
// its kind and "file:line", and the shared road graphs.
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

class Dimacs : public test_support::ScratchDirTest {
 protected:
  Dimacs() : ScratchDirTest("gr") {}

  std::string write(const std::string& text, const std::string& name = "g.gr") { return write_file(name, text); }

  // Loads `text` and expects an InputError of `kind` reported at `line`,
  // with a message that starts "FILE:LINE: ".
  void expect_error(const std::string& text, InputErrorKind kind, std::uint64_t line) {
    test_support::expect_load_error(write(text), quiet(), kind, line, "\n" + text);
  }
};

std::string shared(const std::string& rel) { return (test_support::datasets_dir() / rel).string(); }

}  // namespace

TEST_F(Dimacs, SmallFixture) {
  LoadReport report;
  const auto any = load_graph((test_support::fixtures_dir() / "small.gr").string(), quiet(), &report);
  ASSERT_TRUE(std::holds_alternative<IntCsr>(any));
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ(g.num_vertices, 4u);
  EXPECT_EQ((std::vector<edge_offset>{0, 1, 2, 3, 4}), g.offsets);
  EXPECT_EQ((std::vector<vertex_id>{1, 2, 3, 0}), g.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{2, 4, 5, 6}), g.weights);
  EXPECT_EQ(report.format, Format::Dimacs);
  EXPECT_EQ(report.id_base, 1u);
  EXPECT_EQ(report.build.input_entries, 5u);
  EXPECT_EQ(report.build.duplicates_dropped, 1u);
  EXPECT_TRUE(report.file_has_weights);
  EXPECT_FALSE(report.symmetric);
}

TEST_F(Dimacs, CrlfTabsAndTrailingBlanks) {
  const auto any = load_graph(write("c x\r\np\tsp 3 2 \r\na 1\t2 7  \r\n\r\nc y\r\na 2 3\t0\r\n"), quiet());
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ((std::vector<vertex_id>{1, 2}), g.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{7, 0}), g.weights);
}

TEST_F(Dimacs, SelfLoopsAndUndirectedOption) {
  LoadOptions o = quiet();
  o.undirected = true;
  LoadReport report;
  const auto any = load_graph(write("p sp 3 3\na 1 2 5\na 2 2 1\na 3 1 4\n"), o, &report);
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ((std::vector<edge_offset>{0, 2, 3, 4}), g.offsets);
  EXPECT_EQ((std::vector<vertex_id>{1, 2, 0, 0}), g.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{5, 4, 5, 4}), g.weights);
  EXPECT_EQ(report.build.self_loops_dropped, 1u);
  EXPECT_TRUE(report.symmetric);
}

TEST_F(Dimacs, RejectsMissingOrMalformedProblemLine) {
  expect_error("", InputErrorKind::BadHeader, 1);
  expect_error("c only\nc comments\n", InputErrorKind::BadHeader, 3);
  expect_error("c x\na 1 2 3\np sp 2 1\n", InputErrorKind::BadHeader, 2);
  expect_error("p sp 3\na 1 2 3\n", InputErrorKind::BadHeader, 1);
  expect_error("p sp 3 1 9\na 1 2 3\n", InputErrorKind::BadHeader, 1);
  expect_error("p sp three 1\na 1 2 3\n", InputErrorKind::BadHeader, 1);
  expect_error("x sp 3 1\n", InputErrorKind::BadHeader, 1);
  expect_error("p max 3 1\na 1 2 3\n", InputErrorKind::Unsupported, 1);
  expect_error("p sp 3 1\na 1 2 3\np sp 3 1\n", InputErrorKind::BadHeader, 3);
}

TEST_F(Dimacs, RejectsOverflowingSizes) {
  expect_error("p sp 4294967295 0\n", InputErrorKind::Overflow, 1);
  expect_error("c\np sp 3 18446744073709551616\n", InputErrorKind::Overflow, 2);
}

TEST_F(Dimacs, RejectsArcCountMismatch) {
  expect_error("c\np sp 3 3\na 1 2 1\na 2 3 1\n", InputErrorKind::CountMismatch, 2);
  expect_error("p sp 3 1\na 1 2 1\nc\na 2 3 1\n", InputErrorKind::CountMismatch, 4);
  // A huge declared count with few arcs: reported, not allocated.
  expect_error("p sp 3 1000000000000000\na 1 2 1\n", InputErrorKind::CountMismatch, 1);
}

TEST_F(Dimacs, RejectsBadArcLines) {
  expect_error("p sp 3 1\na 0 2 1\n", InputErrorKind::IdOutOfRange, 2);
  expect_error("p sp 3 1\na 1 4 1\n", InputErrorKind::IdOutOfRange, 2);
  expect_error("p sp 3 1\na 1 99999999999999999999 1\n", InputErrorKind::Overflow, 2);
  expect_error("p sp 3 1\na 1 2 -1\n", InputErrorKind::BadWeight, 2);
  expect_error("p sp 3 1\na 1 2 4294967296\n", InputErrorKind::Overflow, 2);
  expect_error("p sp 3 1\na 1 2 1.5\n", InputErrorKind::BadToken, 2);
  expect_error("p sp 3 1\na 1 b 1\n", InputErrorKind::BadToken, 2);
  expect_error("p sp 3 1\na 1 2 1 4\n", InputErrorKind::BadToken, 2);
  expect_error("p sp 3 1\na 1 2\na 2 3 1\n", InputErrorKind::BadToken, 2);
  expect_error("p sp 3 1\ne 1 2 1\n", InputErrorKind::BadToken, 2);
  expect_error("p sp 3 1\na1 2 1\n", InputErrorKind::BadToken, 2);
  expect_error("p sp 3 2\na 1 2 1\na 2 3", InputErrorKind::Truncated, 3);
}

TEST_F(Dimacs, RealDataRome99ReportsItsElevenDuplicates) {
  SKIP_IF_NO_DATASET("road/rome99.gr");
  LoadReport report;
  const auto any = load_graph(shared("road/rome99.gr"), quiet(), &report);
  EXPECT_EQ(num_vertices(any), 3353u);
  EXPECT_EQ(report.build.input_entries, 8870u);
  EXPECT_EQ(report.build.duplicates_dropped, 11u);
  EXPECT_EQ(num_arcs(any), 8859u);
}

TEST_F(Dimacs, RealDataChain) {
  SKIP_IF_NO_DATASET("road/chain.gr");
  const auto any = load_graph(shared("road/chain.gr"), quiet());
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ(g.num_vertices, 1000u);
  ASSERT_EQ(g.num_arcs(), 999u);
  for (vertex_id v = 0; v + 1 < 1000; ++v) {
    ASSERT_EQ(g.out_degree(v), 1u);
    EXPECT_EQ(g.targets[g.offsets[v]], v + 1);
    EXPECT_EQ(g.weights[g.offsets[v]], 1u);
  }
}

TEST_F(Dimacs, RealDataDeGrEqualsDeMtx) {
  SKIP_IF_NO_DATASET("road/DE.gr");
  SKIP_IF_NO_DATASET("road/DE.mtx");
  LoadReport gr_report, mtx_report;
  const auto gr = load_graph(shared("road/DE.gr"), quiet(), &gr_report);
  const auto mtx = load_graph(shared("road/DE.mtx"), quiet(), &mtx_report);
  const auto& a = std::get<IntCsr>(gr);
  const auto& b = std::get<IntCsr>(mtx);
  EXPECT_EQ(a.num_vertices, 49109u);
  EXPECT_EQ(gr_report.build.input_entries, 121024u);
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.targets, b.targets);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(gr_report.build.duplicates_dropped, mtx_report.build.duplicates_dropped);
}
