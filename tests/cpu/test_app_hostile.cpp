// Hostile input through the `sssp` command, in-process via
// app::run_sssp: for one file of every bad-input class and every reader,
// exit code 2, exactly one line "sssp: FILE:LINE: ..." on stderr, nothing on
// stdout, no --output / --json file, an earlier result file left untouched
// and no temporary file left behind.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "app/app.hpp"
#include "graph/csr.hpp"
#include "graph/io/binary_cache.hpp"
#include "app_test_support.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

using Result = test_support::SsspRun;
Result run(const std::vector<std::string>& args) { return test_support::run_sssp(args); }

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Case {
  std::string name;   // file name: its extension picks the reader
  std::string bytes;  // contents
  std::uint64_t line; // the line the message must name; 0: the file only
};

class AppHostile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_support::scratch_dir(std::string("app_hostile_") +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    dist_ = (dir_ / "result.dist").string();
    json_ = (dir_ / "result.json").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes) {
    const auto path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  // Runs `sssp --graph FILE` with --output and --json over the results of an
  // earlier good run, and checks every promise of a failed run.
  void expect_refused(const Case& c, const std::vector<std::string>& extra = {}) {
    SCOPED_TRACE(c.name);
    const std::string graph = write(c.name, c.bytes);
    const Result good = run({"--graph", good_graph(), "--device", "cpu", "--quiet", "--output", dist_, "--json",
                             json_});
    ASSERT_EQ(good.code, 0) << good.err;
    const std::string dist_before = read_file(dist_), json_before = read_file(json_);
    ASSERT_FALSE(dist_before.empty());

    std::vector<std::string> args{"--graph", graph, "--device", "cpu", "--output", dist_, "--json", json_};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = run(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
    const std::string where = "sssp: " + graph + (c.line > 0 ? ":" + std::to_string(c.line) + ": " : ": ");
    EXPECT_EQ(r.err.rfind(where, 0), 0u) << "expected '" << where << "...', got " << r.err;
    // The earlier results are intact; nothing half-written remains.
    EXPECT_EQ(read_file(dist_), dist_before);
    EXPECT_EQ(read_file(json_), json_before);
    for (const auto& entry : fs::directory_iterator(dir_))
      EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
    fs::remove(graph);
  }

  std::string good_graph() {
    return write("good.gr", "p sp 3 2\na 1 2 4\na 2 3 5\n");
  }

  fs::path dir_;
  std::string dist_, json_;  // result files of the good run, in dir_
};

const std::string kInt = "%%MatrixMarket matrix coordinate integer general\n";
const std::string kReal = "%%MatrixMarket matrix coordinate real general\n";

}  // namespace

TEST_F(AppHostile, EveryBadInputClassExitsTwoWithFileAndLine) {
  const std::vector<Case> cases = {
      // Matrix Market
      {"empty.mtx", "", 1},
      {"no_banner.mtx", "3 3 1\n1 2 3\n", 1},
      {"bad_banner.mtx", "%%MatrixMarket matrix coordinate real\n3 3 1\n1 2 3\n", 1},
      {"truncated.mtx", kInt + "3 3 2\n1 2 3\n2 3", 4},
      {"too_few.mtx", kInt + "3 3 5\n1 2 3\n", 2},
      {"too_many.mtx", kInt + "3 3 1\n1 2 3\n2 3 4\n", 4},
      {"id_zero.mtx", kInt + "3 3 1\n0 2 3\n", 3},
      {"id_beyond.mtx", kInt + "3 3 1\n1 4 3\n", 3},
      {"size_overflow.mtx", kInt + "3 3 18446744073709551616\n", 2},
      {"vertices_overflow.mtx", kInt + "4294967295 4294967295 0\n", 2},
      {"id_overflow.mtx", kInt + "3 3 1\n1 99999999999999999999 3\n", 3},
      {"token.mtx", kInt + "3 3 1\n1 two 3\n", 3},
      {"crlf_token.mtx", kInt + "3 3 1\r\n1\t2 3x\r\n", 3},
      {"negative.mtx", kReal + "3 3 1\n1 2 -0.5\n", 3},
      {"nan.mtx", kReal + "3 3 1\n1 2 NaN\n", 3},
      {"inf.mtx", kReal + "3 3 1\n1 2 inf\n", 3},
      {"float_paths.mtx", kReal + "3 3 2\n1 2 2e38\n2 3 2e38\n", 3},
      {"weight_overflow.mtx", kInt + "3 3 1\n1 2 4294967296\n", 3},
      {"huge_declared.mtx", kInt + "4000000000 4000000000 1000000000000000000\n1 2 3\n", 2},
      {"huge_vertices.mtx", kInt + "4000000000 4000000000 1\n1 2 3\n", 2},
      // DIMACS
      {"empty.gr", "", 1},
      {"no_problem.gr", "c x\na 1 2 3\n", 2},
      {"bad_problem.gr", "p sp 3\n", 1},
      {"truncated.gr", "p sp 3 2\na 1 2 3\na 2", 3},
      {"count.gr", "p sp 3 3\na 1 2 3\n", 1},
      {"id.gr", "p sp 3 1\na 1 0 3\n", 2},
      {"weight.gr", "p sp 3 1\na 1 2 -3\n", 2},
      {"huge.gr", "p sp 4000000000 1\na 1 2 3\n", 1},
      // edge lists
      {"empty.el", "", 0},
      {"columns.el", "0 1\n1 2 3\n", 2},
      {"inf.el", "0 1 2\n1 2 inf\n", 2},
      {"huge_id.el", "0 1\n1 4000000000\n", 2},
      {"id_overflow.el", "0 1\n4294967294 1\n", 2},
      // binary cache and gzip
      {"corrupt.bin", "SSSPCSR" + std::string(200, '\0'), 0},
      {"cut.mtx.gz", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10), 0},
  };
  // The memory check's limit: the 4e9-vertex graphs need about 160 GB.
  ::setenv("SSSP_HOST_MEMORY_LIMIT", "1G", 1);
  for (const Case& c : cases) expect_refused(c);
  ::unsetenv("SSSP_HOST_MEMORY_LIMIT");
}

TEST_F(AppHostile, FormatOptionAppliesTheSameChecks) {
  // An .mtx file read as DIMACS fails at its first line, as DIMACS.
  expect_refused({"graph.mtx", kInt + "3 3 1\n1 2 3\n", 1}, {"--format", "gr"});
  // A text file read as a binary cache is corrupt.
  expect_refused({"graph.gr", "p sp 3 1\na 1 2 3\n", 0}, {"--format", "bin"});
}

// A write that fails after the solve (here: the JSON goes to a device that
// is always full, /dev/full's numbers) is a runtime failure: exit 1, one
// line, and the distance file is never put in place, so no half set of
// results stays. (Output files are staged together: app.cpp write_outputs.)
TEST_F(AppHostile, FailedJsonWriteLeavesNoDistanceFile) {
  const std::string graph = good_graph();
  const std::string full = (dir_ / "full").string();
  if (::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) fs::create_symlink("/dev/full", full);
  const Result r = run({"--graph", graph, "--device", "cpu", "--output", dist_, "--json", full});
  EXPECT_EQ(r.code, 1) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_EQ(r.err.rfind("sssp: " + full + ": cannot write", 0), 0u) << r.err;
  EXPECT_FALSE(fs::exists(dist_));
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
}

// ---------------------------------------------------------------- second pass

// Weights past the double range written without an exponent were read as 0:
// wrong distances with exit 0.
TEST_F(AppHostile, RealWeightsBeyondDoubleRangeAreRefusedAtTheirLine) {
  const std::string huge = "1" + std::string(309, '0');
  expect_refused({"huge.mtx", kReal + "3 3 2\n1 2 1\n2 3 " + huge + "\n", 4});
  expect_refused({"huge_neg.mtx", kReal + "3 3 2\n1 2 1\n2 3 -" + huge + "\n", 4});
  expect_refused({"mantissa.el", "0 1 1.5\n1 2 " + std::string(420, '9') + "e-10\n", 2});
}

// Checksum-valid caches that break the CSR's invariants crashed the
// contraction (duplicate arcs) or printed wrong distances (unsorted rows,
// weights near FLT_MAX). Given directly, or found beside their source with
// the source's own content hash, they are refused before any solver runs.
TEST_F(AppHostile, CraftedCachesAreRefusedWhereverTheyAreFound) {
  graph::IntCsr duplicate;
  duplicate.num_vertices = 3;
  duplicate.offsets = {0, 2, 3, 3};
  duplicate.targets = {1, 1, 2};
  duplicate.weights = {4, 2, 5};
  graph::IntCsr unsorted = duplicate;
  unsorted.targets = {2, 1, 2};
  graph::FloatCsr near_max;
  near_max.num_vertices = 3;
  near_max.offsets = {0, 1, 2, 2};
  near_max.targets = {1, 2};
  near_max.weights = {3e38f, 3e38f};
  for (const graph::AnyCsr& bad : {graph::AnyCsr(duplicate), graph::AnyCsr(unsorted), graph::AnyCsr(near_max)}) {
    const std::string direct = (dir_ / "crafted.bin").string();
    graph::io::write_cache(direct, bad, graph::io::CacheInfo{});
    const Result r = run({"--graph", direct, "--device", "cpu", "--source", "1"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("sssp: " + direct + ": corrupt binary cache", 0), 0u) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // Beside a source: a real cache's header (so its content hash matches)
  // over crafted arrays.
  const std::string source = good_graph();
  ASSERT_EQ(run({"--graph", source, "--device", "cpu", "--cache", "-q"}).code, 0);
  const std::string cache = source + ".bin.cache";
  const graph::io::CacheInfo header = graph::io::read_cache_header(cache);
  graph::io::write_cache(cache, graph::AnyCsr(duplicate), header);
  const Result r = run({"--graph", source, "--device", "cpu", "--cache", "--source", "1"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("sssp: " + cache + ": corrupt binary cache", 0), 0u) << r.err;
}

TEST_F(AppHostile, ASymlinkLoopIsOneLineAndExitTwo) {
  const std::string a = (dir_ / "a.mtx").string(), b = (dir_ / "b.mtx").string();
  fs::create_symlink(b, a);
  fs::create_symlink(a, b);
  const Result r = run({"--graph", a, "--device", "cpu"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_EQ(r.err.rfind("sssp: " + a + ": cannot open", 0), 0u) << r.err;
}

TEST_F(AppHostile, MalformedMemoryLimitIsRefused) {
  const std::string graph = good_graph();
  for (const char* bad : {"512MB", "0.5G", "abc"}) {
    const test_support::ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", bad);
    const Result r = run({"--graph", graph, "--device", "cpu"});
    EXPECT_EQ(r.code, 2) << bad << ": " << r.err;
    EXPECT_EQ(r.err.rfind("sssp: SSSP_HOST_MEMORY_LIMIT: '" + std::string(bad) + "' is not a memory size", 0), 0u)
        << r.err;
  }
}

// 20k sources under a memory limit aborted (exit 134) with bad_alloc thrown
// inside an OpenMP region; now the run is refused before it solves.
TEST_F(AppHostile, ManySourcesUnderAMemoryLimitAreRefused) {
  const test_support::ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", "1G");
  const Result r = run({"--generate", "grid:300:300", "--random-sources", "20000", "--device", "cpu", "-q",
                        "--output", dist_});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_NE(r.err.find("of host memory"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dist_));
}
