// load_graph as a whole: format names and detection, gzip input, missing
// files, thread-count independence, progress, and the shared real graphs.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "graph/error.hpp"
#include "graph/load.hpp"
#include "graph_test_support.hpp"
#include "test_support.hpp"

using namespace graph;
namespace fs = std::filesystem;

namespace {

LoadOptions quiet(int threads = 0) { return test_support::quiet_load(threads); }

std::string fixture(const std::string& name) { return (test_support::fixtures_dir() / name).string(); }
std::string shared(const std::string& rel) { return (test_support::datasets_dir() / rel).string(); }

using test_support::expect_same_csr;

InputErrorKind error_kind(const std::string& path, const LoadOptions& options = quiet()) {
  try {
    load_graph(path, options);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    return e.kind();
  }
  ADD_FAILURE() << "no error for " << path;
  return InputErrorKind::BadArgument;
}

class LoadGraph : public test_support::ScratchDirTest {
 protected:
  LoadGraph() : ScratchDirTest("load") {}
  std::string write(const std::string& name, const std::string& bytes) { return write_file(name, bytes); }
};

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST(Format, NamesRoundTrip) {
  for (Format f : {Format::Auto, Format::MatrixMarket, Format::Dimacs, Format::EdgeList, Format::Binary, Format::Csv})
    EXPECT_EQ(parse_format(to_string(f)), f);
  EXPECT_STREQ(to_string(Format::MatrixMarket), "mtx");
  EXPECT_STREQ(to_string(Format::Csv), "csv");
  try {
    parse_format("xls");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.kind(), InputErrorKind::BadArgument);
    EXPECT_NE(std::string(e.what()).find("xls"), std::string::npos);
  }
}

TEST(Format, DetectedByExtension) {
  EXPECT_EQ(detect_format("a/b.mtx"), Format::MatrixMarket);
  EXPECT_EQ(detect_format("B.MTX"), Format::MatrixMarket);
  EXPECT_EQ(detect_format("b.mtx.gz"), Format::MatrixMarket);
  EXPECT_EQ(detect_format("x.y/b.gr"), Format::Dimacs);
  EXPECT_EQ(detect_format("b.gr.GZ"), Format::Dimacs);
  EXPECT_EQ(detect_format("b.el"), Format::EdgeList);
  EXPECT_EQ(detect_format("b.txt"), Format::EdgeList);
  EXPECT_EQ(detect_format("b.edges.gz"), Format::EdgeList);
  EXPECT_EQ(detect_format("b.bin"), Format::Binary);
  EXPECT_EQ(detect_format("b.mtx.bin.cache"), Format::Binary);
  EXPECT_EQ(detect_format("b.wel"), Format::EdgeList);  // GAP's weighted edge list
  EXPECT_EQ(detect_format("b.csv"), Format::Csv);
  EXPECT_EQ(detect_format("b.csv.gz"), Format::Csv);
  for (const char* bad : {"b.xls", "b", "mtx", "b.bin.gz", "dir.mtx/b"}) {
    try {
      detect_format(bad);
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.kind(), InputErrorKind::BadArgument) << bad;
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

TEST_F(LoadGraph, ExplicitFormatOverridesTheExtension) {
  const std::string path = write("graph.data", "p sp 2 1\na 1 2 3\n");
  LoadOptions o = quiet();
  EXPECT_EQ(error_kind(path, o), InputErrorKind::BadArgument);
  o.format = Format::Dimacs;
  LoadReport report;
  const auto g = load_graph(path, o, &report);
  EXPECT_EQ(num_arcs(g), 1u);
  EXPECT_EQ(report.format, Format::Dimacs);
}

// CSV (a header, commas, quotes) and string labels become the edge list
// they stand for; errors name the file's own line.
TEST_F(LoadGraph, CsvAndLabelsReadAsTheEdgeListTheyStandFor) {
  const std::string numbers = write("n.csv", "source,target,weight\n0,1,5\n\"1\", 2 ,7\n");
  expect_same_csr(load_graph(numbers, quiet()), load_graph(write("n.el", "0 1 5\n1 2 7\n"), quiet()));
  LoadOptions o = quiet();
  o.labels = true;
  LoadReport report;
  const auto g = load_graph(write("l.csv", "# exported\nfrom,to\nhome,work\nwork,gym\ngym,home\n"), o, &report);
  EXPECT_EQ(report.labels, (std::vector<std::string>{"home", "work", "gym"}));
  EXPECT_EQ(num_vertices(g), 3u);
  EXPECT_EQ(num_arcs(g), 3u);
  const auto el = load_graph(write("l.el", "b a 2\na c 3\n"), o, &report);
  EXPECT_EQ(report.labels, (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(num_vertices(el), 3u);
  for (const auto& [name, text, line] : std::vector<std::tuple<std::string, std::string, int>>{
           {"fields.csv", "u,v\n0,1\n0,1,2\n", 3}, {"header.csv", "a,b,c,d\n", 1}, {"quote.csv", "u,v\n\"0,1\n", 2}}) {
    try {
      (void)load_graph(write(name, text), quiet());
      ADD_FAILURE() << name;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(name + ":" + std::to_string(line) + ":"), std::string::npos) << e.what();
    }
  }
  // A weight error in a CSV keeps its line number through the rewrite.
  try {
    (void)load_graph(write("w.csv", "u,v,w\n0,1,2\n1,2,x\n"), quiet());
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("w.csv:3:"), std::string::npos) << e.what();
  }
  // Labels come from edge lists only.
  EXPECT_EQ(error_kind(fixture("small.gr"), o), InputErrorKind::BadArgument);
}

TEST_F(LoadGraph, MissingFileOrDirectory) {
  EXPECT_EQ(error_kind((dir_ / "absent.mtx").string()), InputErrorKind::CannotOpen);
  fs::create_directories(dir_ / "d.mtx");
  EXPECT_EQ(error_kind((dir_ / "d.mtx").string()), InputErrorKind::CannotOpen);
  EXPECT_EQ(error_kind((dir_ / "absent.bin").string()), InputErrorKind::CannotOpen);
}

TEST_F(LoadGraph, GzipEqualsPlainText) {
  LoadReport plain_report, gz_report;
  const auto plain = load_graph(fixture("small_integer_general.mtx"), quiet(), &plain_report);
  const auto gz = load_graph(fixture("small_integer_general.mtx.gz"), quiet(), &gz_report);
  expect_same_csr(plain, gz);
  EXPECT_EQ(gz_report.build.duplicates_dropped, 1u);
  EXPECT_LT(gz_report.file_bytes, plain_report.file_bytes);  // bytes on disk
  // Two concatenated gzip members.
  expect_same_csr(load_graph(fixture("small.gr"), quiet()), load_graph(fixture("small_two_members.gr.gz"), quiet()));
}

TEST_F(LoadGraph, GzipErrorsNameTheirLineInTheDecompressedText) {
  // An error inside gzip input is reported at its line of the text.
  const std::string gz = read_bytes(fixture("small_integer_general.mtx.gz"));
  const std::string cut = write("cut.mtx.gz", gz.substr(0, gz.size() / 2));
  EXPECT_EQ(error_kind(cut), InputErrorKind::Truncated);
  std::string damaged = gz;
  for (std::size_t i = 20; i < 40 && i < damaged.size(); ++i) damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
  EXPECT_EQ(error_kind(write("bad.mtx.gz", damaged)), InputErrorKind::BadToken);
}

TEST_F(LoadGraph, ThreadCountDoesNotChangeTheResult) {
  // About 4 MB of text: many chunks, with blank and comment lines in the
  // body so that chunk windows must be compacted.
  std::string text = "%%MatrixMarket matrix coordinate integer general\n";
  const std::uint32_t n = 5000;
  const int entries = 250000;
  text += std::to_string(n) + " " + std::to_string(n) + " " + std::to_string(entries) + "\n";
  std::uint64_t x = 12345;
  for (int i = 0; i < entries; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const auto u = 1 + static_cast<std::uint32_t>((x >> 20) % n);
    const auto v = 1 + static_cast<std::uint32_t>((x >> 40) % n);
    text += std::to_string(u) + " " + std::to_string(v) + " " + std::to_string((x >> 8) % 1000) + "\n";
    if (i % 1000 == 0) text += "\n% note\n";
  }
  const std::string path = write("big.mtx", text);
  LoadReport r1;
  const auto one = load_graph(path, quiet(1), &r1);
  EXPECT_EQ(r1.build.input_entries, static_cast<std::uint64_t>(entries));
  for (int threads : {2, 3, 8}) {
    LoadReport r;
    expect_same_csr(one, load_graph(path, quiet(threads), &r));
    EXPECT_EQ(r.build.duplicates_dropped, r1.build.duplicates_dropped);
    EXPECT_EQ(r.build.self_loops_dropped, r1.build.self_loops_dropped);
  }
}

TEST_F(LoadGraph, ErrorLineIsExactDeepInAMultiChunkFile) {
  std::string text = "%%MatrixMarket matrix coordinate integer general\n% c\n1000 1000 300000\n";
  for (int i = 0; i < 300000; ++i)
    text += (i == 234567 ? std::string("17 x 3") : std::to_string(1 + i % 1000) + " " + std::to_string(1 + i % 997) + " 5") + "\n";
  const std::string path = write("err.mtx", text);
  for (int threads : {1, 4}) {
    try {
      load_graph(path, quiet(threads));
      FAIL();
    } catch (const InputError& e) {
      EXPECT_EQ(e.kind(), InputErrorKind::BadToken);
      EXPECT_EQ(e.line(), 234567u + 4u);
      EXPECT_NE(std::string(e.what()).find(path + ":234571: "), std::string::npos) << e.what();
    }
  }
}

TEST_F(LoadGraph, ReportTimings) {
  LoadReport report;
  load_graph(fixture("small.gr"), quiet(), &report);
  EXPECT_EQ(report.path, fixture("small.gr"));
  EXPECT_GE(report.parse_seconds, 0.0);
  EXPECT_GE(report.build_seconds, 0.0);
  EXPECT_GE(report.total_seconds, report.parse_seconds);
  EXPECT_FALSE(report.from_cache);
  EXPECT_FALSE(report.cache_written);
}

TEST(RealData, DeMtxAndDeGrGiveIdenticalCsrs) {
  SKIP_IF_NO_DATASET("road/DE.mtx");
  SKIP_IF_NO_DATASET("road/DE.gr");
  const auto mtx = load_graph(shared("road/DE.mtx"), quiet());
  const auto gr = load_graph(shared("road/DE.gr"), quiet());
  expect_same_csr(mtx, gr);
  EXPECT_EQ(num_vertices(mtx), 49109u);
}

TEST(RealData, Rome99MtxAndGrBothReportElevenDuplicates) {
  SKIP_IF_NO_DATASET("road/rome99.mtx");
  SKIP_IF_NO_DATASET("road/rome99.gr");
  LoadReport a, b;
  const auto mtx = load_graph(shared("road/rome99.mtx"), quiet(), &a);
  const auto gr = load_graph(shared("road/rome99.gr"), quiet(), &b);
  EXPECT_EQ(a.build.duplicates_dropped, 11u);
  EXPECT_EQ(b.build.duplicates_dropped, 11u);
  expect_same_csr(mtx, gr);
}

TEST(RealData, SharedMatrixMarketFilesLoadWithTheirDeclaredSizes) {
  struct Case {
    const char* file;
    vertex_id vertices;
    std::uint64_t entries;
    bool symmetric, weighted, real;
  };
  const Case cases[] = {
      {"road/andorra_osm.mtx", 38410, 75667, false, true, false},
      {"road/amsterdam-roads.mtx", 68213, 76712, true, true, false},
      {"small/karate.mtx", 34, 78, true, false, false},
      {"small/knuth_miles.mtx", 128, 8128, true, true, false},
      {"small/west_oakland_osm.mtx", 213, 396, false, true, false},
      {"small/DRT_osm.traveltime_ms.mtx", 395, 740, false, true, false},
      {"small/jgl009.mtx", 9, 50, false, false, false},
      {"mesh/copter2.mtx", 55476, 352238, true, false, false},
  };
  int loaded = 0;
  for (const Case& c : cases) {
    if (!fs::exists(shared(c.file))) continue;
    SCOPED_TRACE(c.file);
    LoadReport report;
    const auto g = load_graph(shared(c.file), quiet(), &report);
    EXPECT_EQ(num_vertices(g), c.vertices);
    EXPECT_EQ(report.build.input_entries, c.entries);
    EXPECT_EQ(report.symmetric, c.symmetric);
    EXPECT_EQ(report.file_has_weights, c.weighted);
    EXPECT_EQ(has_float_weights(g), c.real);
    EXPECT_EQ(num_arcs(g) + report.build.duplicates_dropped,
              (c.symmetric ? 2 : 1) * (c.entries - report.build.self_loops_dropped));
    ++loaded;
  }
  if (loaded == 0) GTEST_SKIP() << "no shared datasets found under " << test_support::datasets_dir();
}
