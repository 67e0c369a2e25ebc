// Hostile input through the `sssp` command (issue 6), in-process via
// app::run_sssp: for one file of every bad-input class and every reader,
// exit code 2, exactly one line "sssp: FILE:LINE: ..." on stderr, nothing on
// stdout, no --output / --json file, an earlier result file left untouched
// and no temporary file left behind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "app/app.hpp"
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

// A write that fails after the solve (here: the JSON's temporary name is
// taken by a directory) is a runtime failure: exit 1, one line, and the
// distance file already written is removed, so no half set of results stays.
TEST_F(AppHostile, FailedJsonWriteLeavesNoDistanceFile) {
  const std::string graph = good_graph();
  fs::create_directory(json_ + ".tmp." + std::to_string(::getpid()));
  const Result r = run({"--graph", graph, "--device", "cpu", "--output", dist_, "--json", json_});
  EXPECT_EQ(r.code, 1) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_EQ(r.err.rfind("sssp: " + json_ + ": cannot write", 0), 0u) << r.err;
  EXPECT_FALSE(fs::exists(dist_));
  EXPECT_FALSE(fs::exists(json_));
}
