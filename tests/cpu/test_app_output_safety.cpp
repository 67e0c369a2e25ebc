// `sssp --output` / `--json` never replace what they name with something
// else, never overwrite an input, and a failed write leaves every existing
// result file as it was (in-process via app::run_sssp): a symlink stays a
// link and its target gets the distances, a FIFO's reader gets them, a
// character device stays a device, --output or --json naming --graph (or
// each other) is refused before the run, and a failed --json write neither
// deletes nor changes an earlier --output file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "app_test_support.hpp"
#include "output_test_support.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

using Result = test_support::SsspRun;

using test_support::CharDevice;
using test_support::expect_char_device_intact;
using test_support::FifoReader;
using test_support::lstat_of;
using test_support::make_char_device;
using test_support::read_file;
using test_support::write_file;

class AppOutputSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_support::scratch_dir(std::string("app_output_safety_") +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    graph_ = (dir_ / "g.gr").string();
    write_file(graph_, kGraph);
    // The distances a plain --output file gets, to compare the others with.
    const std::string plain = (dir_ / "plain.dist").string();
    const Result r = run_to(plain);
    EXPECT_EQ(r.code, 0) << r.err;
    expected_ = read_file(plain);
    EXPECT_FALSE(expected_.empty());
    fs::remove(plain);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Result run_to(const std::string& output, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"--graph", graph_, "--device", "cpu", "--quiet", "--output", output};
    args.insert(args.end(), extra.begin(), extra.end());
    return test_support::run_sssp(args);
  }

  static void expect_one_line(const Result& r) {
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
  }

  void expect_no_temp_files() const {
    for (const auto& entry : fs::recursive_directory_iterator(dir_))
      EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << "left behind: " << entry.path();
  }

  static constexpr const char* kGraph = "p sp 3 2\na 1 2 4\na 2 3 5\n";
  fs::path dir_;
  std::string graph_;
  std::string expected_;
};

}  // namespace

TEST_F(AppOutputSafety, SymlinkOutputStaysALinkAndItsTargetGetsTheDistances) {
  fs::create_directory(dir_ / "results");
  const fs::path target = dir_ / "results" / "d.dist";
  write_file(target, "old\n");
  const fs::path link = dir_ / "link.dist";
  fs::create_symlink("results/d.dist", link);
  const Result r = run_to(link.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link)) << "the symlink was replaced";
  EXPECT_EQ(fs::read_symlink(link), fs::path("results/d.dist"));
  EXPECT_EQ(read_file(target), expected_);
  expect_no_temp_files();
}

TEST_F(AppOutputSafety, FifoOutputIsWrittenInPlace) {
  const fs::path fifo = dir_ / "out.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  FifoReader reader(fifo);
  const Result r = run_to(fifo.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(reader.data(), expected_);
  EXPECT_TRUE(S_ISFIFO(lstat_of(fifo).st_mode)) << "the FIFO was replaced";
  expect_no_temp_files();
}

TEST_F(AppOutputSafety, CharacterDeviceOutputStaysADevice) {
  const CharDevice null = make_char_device(dir_, "null", 3);
  const std::string json = (dir_ / "run.json").string();
  const Result r = run_to(null.path.string(), {"--json", json});
  ASSERT_EQ(r.code, 0) << r.err;
  expect_char_device_intact(null, 3);
  EXPECT_FALSE(read_file(json).empty());
  // The JSON record through the device too, with --output a plain file.
  const std::string dist = (dir_ / "d.dist").string();
  const Result j = run_to(dist, {"--json", null.path.string()});
  ASSERT_EQ(j.code, 0) << j.err;
  expect_char_device_intact(null, 3);
  EXPECT_EQ(read_file(dist), expected_);
  expect_no_temp_files();
}

TEST_F(AppOutputSafety, OutputOrJsonNamingTheGraphIsRefused) {
  fs::create_directory(dir_ / "sub");
  const fs::path hard_link = dir_ / "hard.gr";
  fs::create_hard_link(graph_, hard_link);
  const fs::path soft_link = dir_ / "soft.gr";
  fs::create_symlink("g.gr", soft_link);
  const std::vector<std::string> spellings = {graph_, (dir_ / "." / "g.gr").string(),
                                              (dir_ / "sub" / ".." / "g.gr").string(), hard_link.string(),
                                              soft_link.string()};
  for (const std::string& output : spellings) {
    for (const char* option : {"--output", "--json"}) {
      SCOPED_TRACE(std::string(option) + " " + output);
      const Result r = test_support::run_sssp({"--graph", graph_, "--device", "cpu", option, output});
      EXPECT_EQ(r.code, 2) << r.err;
      EXPECT_TRUE(r.out.empty()) << r.out;
      expect_one_line(r);
      EXPECT_NE(r.err.find("name the same file"), std::string::npos) << r.err;
      EXPECT_EQ(read_file(graph_), kGraph);
      EXPECT_TRUE(fs::is_symlink(soft_link));
    }
  }
  // --sources FILE is an input too.
  const fs::path sources = dir_ / "sources.txt";
  write_file(sources, "1\n");
  const Result s = run_to(sources.string(), {"--sources", sources.string()});
  EXPECT_EQ(s.code, 2) << s.err;
  EXPECT_EQ(read_file(sources), "1\n");
  expect_no_temp_files();
}

TEST_F(AppOutputSafety, OutputAndJsonNamingOneFileAreRefused) {
  const fs::path out = dir_ / "result";
  for (const std::string& json : {out.string(), (dir_ / "." / "result").string()}) {
    SCOPED_TRACE(json);
    const Result r = run_to(out.string(), {"--json", json});
    EXPECT_EQ(r.code, 2) << r.err;
    expect_one_line(r);
    EXPECT_NE(r.err.find("name the same file"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
  // Existing, through a hard link: refused, and the file is untouched.
  write_file(out, "keep\n");
  fs::create_hard_link(out, dir_ / "alias");
  const Result r = run_to(out.string(), {"--json", (dir_ / "alias").string()});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(read_file(out), "keep\n");
  // One character device under two names (stdout and stderr on one
  // terminal) is fine: nothing is replaced.
  const CharDevice null = make_char_device(dir_, "null", 3);
  const Result both = run_to(null.path.string(), {"--json", (dir_ / "." / "null").string()});
  EXPECT_EQ(both.code, 0) << both.err;
  expect_char_device_intact(null, 3);
  expect_no_temp_files();
}

// The JSON record cannot be written (a device that is always full): exit 1,
// one line, and the --output file of an earlier run is exactly as it was.
TEST_F(AppOutputSafety, FailedJsonWriteLeavesAnExistingOutputUntouched) {
  const std::string dist = (dir_ / "d.dist").string();
  const std::string earlier = "1 0\n2 111\n3 222\n";
  write_file(dist, earlier);
  const CharDevice full = make_char_device(dir_, "full", 7);
  const Result r = run_to(dist, {"--json", full.path.string()});
  EXPECT_EQ(r.code, 1) << r.err;
  expect_one_line(r);
  EXPECT_EQ(r.err.rfind("sssp: " + full.path.string() + ": cannot write", 0), 0u) << r.err;
  EXPECT_EQ(read_file(dist), earlier);
  expect_char_device_intact(full, 7);
  // No --output file before: none after.
  const std::string fresh = (dir_ / "fresh.dist").string();
  const Result f = run_to(fresh, {"--json", full.path.string()});
  EXPECT_EQ(f.code, 1) << f.err;
  EXPECT_FALSE(fs::exists(fresh));
  expect_no_temp_files();
}

// The other way round: the distances cannot be written, and an earlier
// --json file is left as it was.
TEST_F(AppOutputSafety, FailedOutputWriteLeavesAnExistingJsonUntouched) {
  const std::string json = (dir_ / "run.json").string();
  write_file(json, "{\"earlier\": true}\n");
  const CharDevice full = make_char_device(dir_, "full", 7);
  const Result r = run_to(full.path.string(), {"--json", json});
  EXPECT_NE(r.code, 0);
  expect_one_line(r);
  EXPECT_EQ(read_file(json), "{\"earlier\": true}\n");
  expect_char_device_intact(full, 7);
  expect_no_temp_files();
}

// --json naming a directory is refused before the run, and the --output
// file of an earlier run stays.
TEST_F(AppOutputSafety, JsonNamingADirectoryLeavesAnExistingOutputUntouched) {
  const std::string dist = (dir_ / "d.dist").string();
  write_file(dist, "1 0\n");
  fs::create_directory(dir_ / "json_dir");
  const Result r = run_to(dist, {"--json", (dir_ / "json_dir").string()});
  EXPECT_EQ(r.code, 2) << r.err;
  expect_one_line(r);
  EXPECT_EQ(read_file(dist), "1 0\n");
  EXPECT_TRUE(fs::is_empty(dir_ / "json_dir"));
  expect_no_temp_files();
}

// The binary cache is written beside the graph or where --cache names: it
// must not land on the graph itself, and no output may land on it.
TEST(AppOutputSafetyCache, TheCacheNeitherReplacesTheGraphNorTakesAnOutput) {
  const fs::path dir = test_support::scratch_dir("output_safety_cache");
  const std::string graph = (dir / "g.gr").string();
  std::ofstream(graph) << "p sp 3 2\na 1 2 4\na 2 3 5\n";
  const std::string before = test_support::read_text(graph);
  const test_support::SsspRun onto_graph = test_support::run_sssp({"--graph", graph, "--device", "cpu", "--cache=" + graph});
  EXPECT_EQ(onto_graph.code, 2) << onto_graph.err;
  EXPECT_EQ(test_support::read_text(graph), before);
  const test_support::SsspRun onto_cache =
      test_support::run_sssp({"--graph", graph, "--device", "cpu", "--cache", "--output", graph + ".bin.cache"});
  EXPECT_EQ(onto_cache.code, 2) << onto_cache.err;
  EXPECT_NE(onto_cache.err.find("--cache"), std::string::npos) << onto_cache.err;
  fs::remove_all(dir);
}
