// Matrix Market reader: every accepted variant with exact counts and
// weights, and every rejection with its kind and "file:line".
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <variant>

#include "graph/error.hpp"
#include "graph/load.hpp"
#include "graph_test_support.hpp"
#include "test_support.hpp"

using namespace graph;

namespace {

LoadOptions quiet(int threads = 0) { return test_support::quiet_load(threads); }

class MatrixMarket : public test_support::ScratchDirTest {
 protected:
  MatrixMarket() : ScratchDirTest("mm") {}

  std::string write(const std::string& text, const std::string& name = "g.mtx") { return write_file(name, text); }

  // Loads `text` and expects an InputError of `kind` reported at `line`,
  // with a message that starts "FILE:LINE: ".
  void expect_error(const std::string& text, InputErrorKind kind, std::uint64_t line, const LoadOptions& options = quiet()) {
    test_support::expect_load_error(write(text), options, kind, line, "\n" + text);
  }
};

const std::string kIntBanner = "%%MatrixMarket matrix coordinate integer general\n";
const std::string kRealBanner = "%%MatrixMarket matrix coordinate real general\n";
const std::string kPatternBanner = "%%MatrixMarket matrix coordinate pattern general\n";

std::string fixture(const std::string& name) { return (test_support::fixtures_dir() / name).string(); }

void expect_small_integer_graph(const AnyCsr& any, const LoadReport& report) {
  ASSERT_TRUE(std::holds_alternative<IntCsr>(any));
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ(g.num_vertices, 5u);
  EXPECT_EQ((std::vector<edge_offset>{0, 1, 3, 4, 5, 6}), g.offsets);
  EXPECT_EQ((std::vector<vertex_id>{1, 2, 4, 3, 4, 0}), g.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{4, 1, 10, 2, 0, 3}), g.weights);
  EXPECT_EQ(report.build.input_entries, 8u);
  EXPECT_EQ(report.build.self_loops_dropped, 1u);
  EXPECT_EQ(report.build.duplicates_dropped, 1u);
  EXPECT_EQ(report.build.arcs, 6u);
  EXPECT_EQ(report.format, Format::MatrixMarket);
  EXPECT_EQ(report.id_base, 1u);
  EXPECT_TRUE(report.file_has_weights);
  EXPECT_FALSE(report.symmetric);
  EXPECT_FALSE(report.from_cache);
  EXPECT_EQ(report.weight_rule, "file");
}

}  // namespace

// ---------------------------------------------------------------- accepted

TEST_F(MatrixMarket, IntegerGeneralFixture) {
  LoadReport report;
  const auto g = load_graph(fixture("small_integer_general.mtx"), quiet(), &report);
  expect_small_integer_graph(g, report);
  EXPECT_GT(report.file_bytes, 0u);
}

TEST_F(MatrixMarket, CrlfTabsTrailingBlanksAndNoFinalNewline) {
  LoadReport report;
  const auto g = load_graph(fixture("small_integer_general_crlf.mtx"), quiet(), &report);
  expect_small_integer_graph(g, report);
}

TEST_F(MatrixMarket, PatternSymmetricMirrorsAndGeneratesWeights) {
  for (std::uint64_t seed : {1u, 7u}) {
    LoadOptions o = quiet();
    o.weights.seed = seed;
    LoadReport report;
    const auto any = load_graph(fixture("small_pattern_symmetric.mtx"), o, &report);
    ASSERT_TRUE(std::holds_alternative<IntCsr>(any));
    const auto& g = std::get<IntCsr>(any);
    EXPECT_EQ(g.num_vertices, 4u);
    // Cycle 0-1-2-3-0, both directions; the diagonal entry (1,1) counted once.
    EXPECT_EQ((std::vector<edge_offset>{0, 2, 4, 6, 8}), g.offsets);
    EXPECT_EQ((std::vector<vertex_id>{1, 3, 0, 2, 1, 3, 0, 2}), g.targets);
    EXPECT_EQ(report.build.input_entries, 5u);
    EXPECT_EQ(report.build.self_loops_dropped, 1u);
    EXPECT_EQ(report.build.duplicates_dropped, 0u);
    EXPECT_TRUE(report.symmetric);
    EXPECT_FALSE(report.file_has_weights);
    const WeightRule rule = o.weights.for_pattern_file();
    EXPECT_EQ(report.weight_rule, rule.describe());
    EXPECT_EQ(report.weight_rule, "random:1:1000 seed=" + std::to_string(seed));
    for (vertex_id u = 0; u < g.num_vertices; ++u)
      for (edge_offset k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
        EXPECT_EQ(g.weights[k], rule.random_weight(u, g.targets[k]));
  }
}

TEST_F(MatrixMarket, RealWeightsInEveryNotation) {
  LoadReport report;
  const auto any = load_graph(fixture("small_real_general.mtx"), quiet(), &report);
  ASSERT_TRUE(std::holds_alternative<FloatCsr>(any));
  const auto& g = std::get<FloatCsr>(any);
  EXPECT_EQ((std::vector<edge_offset>{0, 2, 4, 5, 6}), g.offsets);
  EXPECT_EQ((std::vector<vertex_id>{1, 2, 2, 3, 3, 0}), g.targets);
  EXPECT_EQ((std::vector<float>{1.5f, 100.0f, 0.25f, 4.0f, 3.0f, 0.0f}), g.weights);
  EXPECT_TRUE(report.file_has_weights);
}

TEST_F(MatrixMarket, BannerIsCaseInsensitive) {
  const auto any = load_graph(write("%%matrixmarket MATRIX Coordinate INTEGER General\n2 2 1\n1 2 5\n"), quiet());
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ(g.num_arcs(), 1u);
  EXPECT_EQ(g.weights[0], 5u);
}

TEST_F(MatrixMarket, BannerWithASinglePercentIsAccepted) {
  // Written by some tools (e.g. the METIS documentation's copter2.mtx).
  const auto any = load_graph(write("%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n"), quiet());
  EXPECT_EQ(num_arcs(any), 2u);
}

TEST_F(MatrixMarket, CommentsAndBlankLinesAroundTheSizeLineAndInTheBody) {
  const std::string text = kIntBanner + "% one\n\n   \n%two\n\t\n3 3 2\n\n1 2 4\n% a comment among entries\n  \n2 3 6\n\n";
  LoadReport report;
  const auto any = load_graph(write(text), quiet(), &report);
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ((std::vector<vertex_id>{1, 2}), g.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{4, 6}), g.weights);
}

TEST_F(MatrixMarket, RectangularMatrixHasMaxOfRowsAndCols) {
  const auto any = load_graph(write(kPatternBanner + "2 5 2\n1 5\n2 3\n"), quiet());
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ(g.num_vertices, 5u);
  EXPECT_EQ((std::vector<vertex_id>{4, 2}), g.targets);
  // Row ids are checked against ROWS, column ids against COLS.
  expect_error(kPatternBanner + "2 5 1\n3 1\n", InputErrorKind::IdOutOfRange, 3);
  expect_error(kPatternBanner + "5 2 1\n1 3\n", InputErrorKind::IdOutOfRange, 3);
}

TEST_F(MatrixMarket, SymmetricIntegerKeepsCheapestOfBothDirections) {
  // (2,1) w9 and, against the convention, (1,2) w3: one undirected edge of weight 3.
  LoadReport report;
  const auto any = load_graph(
      write("%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 9\n1 2 3\n3 3 1\n"), quiet(), &report);
  const auto& g = std::get<IntCsr>(any);
  EXPECT_EQ((std::vector<vertex_id>{1, 0}), g.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{3, 3}), g.weights);
  EXPECT_EQ(report.build.self_loops_dropped, 1u);
  EXPECT_EQ(report.build.duplicates_dropped, 2u);
}

TEST_F(MatrixMarket, UndirectedOptionSymmetrisesAGeneralFile) {
  LoadOptions o = quiet();
  o.undirected = true;
  LoadReport report;
  const auto any = load_graph(fixture("small_integer_general.mtx"), o, &report);
  const auto& g = std::get<IntCsr>(any);
  EXPECT_TRUE(report.symmetric);
  // Edges {0,1}4 {1,2}1 {1,4}10 {2,3}2 {3,4}0 {4,0}3 in both directions.
  EXPECT_EQ(g.num_arcs(), 12u);
  EXPECT_EQ((std::vector<edge_offset>{0, 2, 5, 7, 9, 12}), g.offsets);
  EXPECT_EQ((std::vector<vertex_id>{1, 4, 0, 2, 4, 1, 3, 2, 4, 0, 1, 3}), g.targets);
  EXPECT_EQ((std::vector<std::uint32_t>{4, 3, 4, 1, 10, 1, 2, 2, 0, 3, 10, 0}), g.weights);
}

TEST_F(MatrixMarket, WeightRuleOverridesFileWeightsAndGivesIntegers) {
  LoadOptions o = quiet();
  o.weights = WeightRule::parse("unit");
  LoadReport report;
  auto any = load_graph(fixture("small_real_general.mtx"), o, &report);
  ASSERT_TRUE(std::holds_alternative<IntCsr>(any));
  for (auto w : std::get<IntCsr>(any).weights) EXPECT_EQ(w, 1u);
  EXPECT_EQ(report.weight_rule, "unit");

  o.weights = WeightRule::parse("random:5:9", 3);
  any = load_graph(fixture("small_integer_general.mtx"), o, &report);
  const auto& g = std::get<IntCsr>(any);
  for (vertex_id u = 0; u < g.num_vertices; ++u)
    for (edge_offset k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      EXPECT_EQ(g.weights[k], o.weights.random_weight(u, g.targets[k]));
  EXPECT_EQ(report.weight_rule, "random:5:9 seed=3");
}

TEST_F(MatrixMarket, OverriddenWeightsAreNotRangeChecked) {
  LoadOptions o = quiet();
  o.weights = WeightRule::parse("unit");
  const auto any = load_graph(write(kRealBanner + "2 2 2\n1 2 -3.5\n2 1 1e300\n"), o);
  EXPECT_EQ(std::get<IntCsr>(any).num_arcs(), 2u);
  // ... but they must still be numbers.
  expect_error(kRealBanner + "2 2 1\n1 2 abc\n", InputErrorKind::BadToken, 3, o);
}

TEST_F(MatrixMarket, WeightLimits) {
  const auto any = load_graph(write(kIntBanner + "2 2 2\n1 2 4294967295\n2 1 0\n"), quiet());
  EXPECT_EQ((std::vector<std::uint32_t>{4294967295u, 0u}), std::get<IntCsr>(any).weights);
  const auto neg_zero = load_graph(write(kIntBanner + "2 2 1\n1 2 -0\n"), quiet());
  EXPECT_EQ(std::get<IntCsr>(neg_zero).weights[0], 0u);
  const auto real = load_graph(write(kRealBanner + "2 2 2\n1 2 3.4e38\n2 1 1e-60\n"), quiet());
  EXPECT_FLOAT_EQ(std::get<FloatCsr>(real).weights[0], 3.4e38f);
  EXPECT_EQ(std::get<FloatCsr>(real).weights[1], 0.0f);  // below float's range: 0
}

TEST_F(MatrixMarket, EmptyMatrixIsAGraphWithoutVertices) {
  const auto any = load_graph(write(kIntBanner + "0 0 0\n"), quiet());
  EXPECT_EQ(num_vertices(any), 0u);
  EXPECT_EQ(num_arcs(any), 0u);
}

TEST_F(MatrixMarket, HugeDeclaredCountDoesNotAllocate) {
  // 10^15 declared entries would need petabytes if trusted; the reader
  // sizes its buffers from the file and reports the mismatch.
  expect_error(kIntBanner + "5 5 1000000000000000\n1 2 3\n", InputErrorKind::CountMismatch, 2);
}

// ---------------------------------------------------------------- rejected

TEST_F(MatrixMarket, RejectsMissingOrMalformedBanner) {
  expect_error("", InputErrorKind::BadHeader, 1);
  expect_error("3 3 1\n1 2 3\n", InputErrorKind::BadHeader, 1);
  expect_error("MatrixMarket matrix coordinate real general\n3 3 0\n", InputErrorKind::BadHeader, 1);
  expect_error("%%MatrixMarke matrix coordinate real general\n3 3 0\n", InputErrorKind::BadHeader, 1);
  expect_error("% %%MatrixMarket matrix coordinate real general\n3 3 0\n", InputErrorKind::BadHeader, 1);
  expect_error("%%MatrixMarket matrix coordinate real\n3 3 0\n", InputErrorKind::BadHeader, 1);
  expect_error("%%MatrixMarket matrix coordinate real general extra\n3 3 0\n", InputErrorKind::BadHeader, 1);
  expect_error("%%MatrixMarket tensor coordinate real general\n3 3 0\n", InputErrorKind::BadHeader, 1);
  expect_error("%%MatrixMarket matrix sparse real general\n3 3 0\n", InputErrorKind::BadHeader, 1);
  expect_error("%%MatrixMarket matrix coordinate quaternion general\n3 3 0\n", InputErrorKind::BadHeader, 1);
  expect_error("%%MatrixMarket matrix coordinate real upper\n3 3 0\n", InputErrorKind::BadHeader, 1);
}

TEST_F(MatrixMarket, RejectsUnsupportedVariants) {
  expect_error("%%MatrixMarket matrix array real general\n3 3\n", InputErrorKind::Unsupported, 1);
  expect_error("%%MatrixMarket matrix coordinate complex general\n3 3 0\n", InputErrorKind::Unsupported, 1);
  expect_error("%%MatrixMarket matrix coordinate real hermitian\n3 3 0\n", InputErrorKind::Unsupported, 1);
  expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 0\n", InputErrorKind::Unsupported, 1);
  expect_error("%%MatrixMarket vector coordinate real general\n3 0\n", InputErrorKind::Unsupported, 1);
}

TEST_F(MatrixMarket, RejectsMissingOrMalformedSizeLine) {
  expect_error(kIntBanner, InputErrorKind::Truncated, 2);
  expect_error(kIntBanner + "% only comments\n\n", InputErrorKind::Truncated, 4);
  expect_error(kIntBanner + "% c\n5 5\n", InputErrorKind::BadHeader, 3);
  expect_error(kIntBanner + "5 5 3 1\n", InputErrorKind::BadHeader, 2);
  expect_error(kIntBanner + "5 x 3\n", InputErrorKind::BadHeader, 2);
  expect_error(kIntBanner + "5 -5 3\n", InputErrorKind::BadHeader, 2);
  expect_error(kIntBanner + "5 5 3.0\n", InputErrorKind::BadHeader, 2);
  expect_error("%%MatrixMarket matrix coordinate real symmetric\n3 4 0\n", InputErrorKind::BadHeader, 2);
}

TEST_F(MatrixMarket, RejectsSizesThatOverflow) {
  expect_error(kIntBanner + "99999999999999999999 5 3\n", InputErrorKind::Overflow, 2);
  expect_error(kIntBanner + "5 5 18446744073709551616\n", InputErrorKind::Overflow, 2);
  // 2^32 - 1 vertices: one too many for 32-bit ids (2^32 - 1 means "no vertex").
  expect_error(kIntBanner + "4294967295 4294967295 0\n", InputErrorKind::Overflow, 2);
  expect_error(kIntBanner + "1 4294967296 0\n", InputErrorKind::Overflow, 2);
}

TEST_F(MatrixMarket, RejectsWrongEntryCounts) {
  // Fewer entries than declared: reported at the size line.
  expect_error(kIntBanner + "% c\n3 3 3\n1 2 1\n2 3 1\n", InputErrorKind::CountMismatch, 3);
  expect_error(kIntBanner + "3 3 1\n", InputErrorKind::CountMismatch, 2);
  // More: reported at the first entry beyond the count.
  expect_error(kIntBanner + "3 3 2\n1 2 1\n\n2 3 1\n% c\n3 1 1\n", InputErrorKind::CountMismatch, 7);
}

TEST_F(MatrixMarket, RejectsTruncatedLastLine) {
  expect_error(kIntBanner + "3 3 2\n1 2 1\n2 3", InputErrorKind::Truncated, 4);
  expect_error(kIntBanner + "3 3 2\n1 2 1\n2", InputErrorKind::Truncated, 4);
  // The same line in the middle of the file is malformed, not truncated.
  expect_error(kIntBanner + "3 3 2\n2 3\n1 2 1\n", InputErrorKind::BadToken, 3);
}

TEST_F(MatrixMarket, RejectsIdsOutOfRange) {
  expect_error(kIntBanner + "3 3 2\n1 2 1\n0 2 1\n", InputErrorKind::IdOutOfRange, 4);
  expect_error(kIntBanner + "3 3 2\n1 2 1\n1 0 1\n", InputErrorKind::IdOutOfRange, 4);
  expect_error(kIntBanner + "3 3 2\n1 2 1\n4 2 1\n", InputErrorKind::IdOutOfRange, 4);
  expect_error(kIntBanner + "3 3 1\n1 4294967297 1\n", InputErrorKind::IdOutOfRange, 3);
  expect_error(kIntBanner + "3 3 1\n1 99999999999999999999 1\n", InputErrorKind::Overflow, 3);
  expect_error(kIntBanner + "3 3 1\n-1 2 1\n", InputErrorKind::BadToken, 3);
}

TEST_F(MatrixMarket, RejectsMalformedTokens) {
  expect_error(kIntBanner + "3 3 1\n1 x 1\n", InputErrorKind::BadToken, 3);
  expect_error(kIntBanner + "3 3 1\n1 2a 1\n", InputErrorKind::BadToken, 3);
  expect_error(kIntBanner + "3 3 1\n1.0 2 1\n", InputErrorKind::BadToken, 3);
  expect_error(kIntBanner + "3 3 1\n1 2 1.5\n", InputErrorKind::BadToken, 3);
  expect_error(kIntBanner + "3 3 1\n1 2 one\n", InputErrorKind::BadToken, 3);
  expect_error(kRealBanner + "3 3 1\n1 2 1.5.2\n", InputErrorKind::BadToken, 3);
  expect_error(kRealBanner + "3 3 1\n1 2 --1\n", InputErrorKind::BadToken, 3);
  // Extra tokens.
  expect_error(kIntBanner + "3 3 1\n1 2 1 7\n", InputErrorKind::BadToken, 3);
  expect_error(kPatternBanner + "3 3 1\n1 2 1\n", InputErrorKind::BadToken, 3);
}

TEST_F(MatrixMarket, RejectsBadWeights) {
  expect_error(kIntBanner + "3 3 2\n1 2 1\n2 3 -4\n", InputErrorKind::BadWeight, 4);
  expect_error(kIntBanner + "3 3 1\n1 2 4294967296\n", InputErrorKind::Overflow, 3);
  expect_error(kRealBanner + "3 3 2\n1 2 1\n2 3 -0.5\n", InputErrorKind::BadWeight, 4);
  expect_error(kRealBanner + "3 3 1\n1 2 nan\n", InputErrorKind::BadWeight, 3);
  expect_error(kRealBanner + "3 3 1\n1 2 inf\n", InputErrorKind::BadWeight, 3);
  expect_error(kRealBanner + "3 3 1\n1 2 -Infinity\n", InputErrorKind::BadWeight, 3);
  expect_error(kRealBanner + "3 3 1\n1 2 1e39\n", InputErrorKind::Overflow, 3);
  expect_error(kRealBanner + "3 3 1\n1 2 1e400\n", InputErrorKind::Overflow, 3);
}

TEST_F(MatrixMarket, RealDataNegativeWeightsAreRejectedAtTheirLine) {
  SKIP_IF_NO_DATASET("small/lund_a.mtx");
  const std::string path = (test_support::datasets_dir() / "small/lund_a.mtx").string();
  try {
    load_graph(path, quiet());
    FAIL() << "lund_a.mtx has negative entries";
  } catch (const InputError& e) {
    EXPECT_EQ(e.kind(), InputErrorKind::BadWeight);
    EXPECT_NE(std::string(e.what()).find(path + ":5: "), std::string::npos) << e.what();
  }
}

TEST_F(MatrixMarket, RealDataLuxembourgPatternSymmetric) {
  SKIP_IF_NO_DATASET("road/luxembourg_osm.mtx");
  LoadReport report;
  const auto any = load_graph((test_support::datasets_dir() / "road/luxembourg_osm.mtx").string(), quiet(), &report);
  // 119,666 stored edges, no self-loops or duplicates: 239,332 arcs
  // (counted independently with a Python script over the file).
  EXPECT_EQ(num_vertices(any), 114599u);
  EXPECT_EQ(num_arcs(any), 239332u);
  EXPECT_EQ(report.build.input_entries, 119666u);
  EXPECT_EQ(report.build.self_loops_dropped, 0u);
  EXPECT_EQ(report.build.duplicates_dropped, 0u);
  EXPECT_TRUE(report.symmetric);
  EXPECT_FALSE(report.file_has_weights);
}
