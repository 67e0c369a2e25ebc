// Output files never replace what they name with something else
// (graph/atomic_file.hpp): a symlink stays a link and its target gets the
// data, a FIFO or character device is written in place, a directory or block
// device is refused, a regular file is replaced atomically with its
// permissions kept, and a file staged but not committed leaves the target as
// it was. Through AtomicFile itself and the distance and Matrix Market
// writers (the latter is `graphgen -o`).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "graph/atomic_file.hpp"
#include "graph/build_csr.hpp"
#include "graph/distance_io.hpp"
#include "graph/error.hpp"
#include "graph/matrix_market_writer.hpp"
#include "output_test_support.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using graph::InputError;
using graph::detail::AtomicFile;

namespace {

using test_support::CharDevice;
using test_support::expect_char_device_intact;
using test_support::FifoReader;
using test_support::lstat_of;
using test_support::make_char_device;
using test_support::read_file;
using test_support::write_file;

// No temporary file is left in `dir`.
void expect_no_temp_files(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << "left behind: " << entry.path();
}

graph::IntCsr small_graph() {
  graph::Coo<std::uint32_t> coo;
  coo.num_vertices = 3;
  coo.add(0, 1, 4);
  coo.add(1, 0, 4);
  coo.add(1, 2, 5);
  coo.add(2, 1, 5);
  return graph::build_csr(std::move(coo), graph::BuildOptions{});
}

const std::vector<std::uint32_t> kDistances{0, 4, 9, std::numeric_limits<std::uint32_t>::max()};
const std::string kDistanceText = "1 0\n2 4\n3 9\n4 -1\n";

class OutputSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_support::scratch_dir(std::string("output_safety_") +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write_distances(const fs::path& path) {
    graph::write_distances(path.string(), kDistances, std::numeric_limits<std::uint32_t>::max());
  }
  fs::path dir_;
};

}  // namespace

TEST_F(OutputSafety, RegularFileIsReplacedWithItsPermissions) {
  const fs::path file = dir_ / "d.dist";
  write_file(file, "old\n");
  ASSERT_EQ(::chmod(file.c_str(), 0640), 0);
  write_distances(file);
  EXPECT_EQ(read_file(file), kDistanceText);
  const struct stat st = lstat_of(file);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  expect_no_temp_files(dir_);
}

TEST_F(OutputSafety, SymlinkStaysALinkAndItsTargetGetsTheData) {
  fs::create_directory(dir_ / "real");
  const fs::path target = dir_ / "real" / "d.dist";
  write_file(target, "old\n");
  const fs::path link = dir_ / "link.dist";
  fs::create_symlink("real/d.dist", link);  // relative: resolved from the link's directory
  const fs::path chain = dir_ / "chain.dist";
  fs::create_symlink(link.filename(), chain);  // a link to the link
  write_distances(chain);
  EXPECT_TRUE(fs::is_symlink(chain));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(fs::read_symlink(link), fs::path("real/d.dist"));
  EXPECT_EQ(read_file(target), kDistanceText);
  expect_no_temp_files(dir_);
  expect_no_temp_files(dir_ / "real");
}

TEST_F(OutputSafety, DanglingSymlinkCreatesTheFileItNames) {
  const fs::path link = dir_ / "link.dist";
  fs::create_symlink("new.dist", link);
  write_distances(link);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(dir_ / "new.dist"), kDistanceText);
  expect_no_temp_files(dir_);
}

TEST_F(OutputSafety, FifoIsWrittenInPlace) {
  const fs::path fifo = dir_ / "out.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  FifoReader reader(fifo);
  write_distances(fifo);
  EXPECT_EQ(reader.data(), kDistanceText);
  EXPECT_TRUE(S_ISFIFO(lstat_of(fifo).st_mode)) << "the FIFO was replaced";
  expect_no_temp_files(dir_);
}

TEST_F(OutputSafety, CharacterDeviceIsWrittenInPlace) {
  const CharDevice null = make_char_device(dir_, "null", 3);
  write_distances(null.path);
  graph::write_matrix_market(null.path.string(), small_graph());
  expect_char_device_intact(null, 3);
  expect_no_temp_files(dir_);
}

TEST_F(OutputSafety, FailedWriteToADeviceLeavesTheDevice) {
  const CharDevice full = make_char_device(dir_, "full", 7);
  try {
    write_distances(full.path);
    ADD_FAILURE() << "a write to a full device succeeded";
  } catch (const InputError& e) {
    EXPECT_EQ(e.kind(), graph::InputErrorKind::CannotOpen);
    EXPECT_NE(std::string(e.what()).find(full.path.string()), std::string::npos) << e.what();
  }
  expect_char_device_intact(full, 7);
  expect_no_temp_files(dir_);
}

TEST_F(OutputSafety, DirectoryAndBlockDeviceAreRefused) {
  fs::create_directory(dir_ / "sub");
  try {
    AtomicFile out((dir_ / "sub").string());
    ADD_FAILURE() << "opened a directory";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(dir_ / "sub"));
  // A block device node (loop0's numbers); never opened, only refused.
  const fs::path block = dir_ / "block";
  if (::mknod(block.c_str(), S_IFBLK | 0600, makedev(7, 0)) == 0) {
    EXPECT_THROW(AtomicFile out(block.string()), InputError);
    EXPECT_TRUE(S_ISBLK(lstat_of(block).st_mode));
  } else {
    std::cout << "[  NOTE    ] mknod " << block << ": " << std::strerror(errno)
              << "; block device refusal not checked\n";
  }
  expect_no_temp_files(dir_);
}

TEST_F(OutputSafety, FinishedButUncommittedLeavesTheTarget) {
  const fs::path file = dir_ / "d.dist";
  write_file(file, "old\n");
  {
    AtomicFile out(file.string());
    EXPECT_FALSE(out.in_place());
    graph::write_distances(out, kDistances, std::numeric_limits<std::uint32_t>::max());
    EXPECT_EQ(read_file(file), "old\n");  // finished, not yet in place
  }
  EXPECT_EQ(read_file(file), "old\n");
  expect_no_temp_files(dir_);

  AtomicFile out(file.string());
  graph::write_distances(out, kDistances, std::numeric_limits<std::uint32_t>::max());
  out.commit();
  EXPECT_EQ(read_file(file), kDistanceText);
  EXPECT_THROW(out.write("more"), std::logic_error);
  expect_no_temp_files(dir_);
}

TEST_F(OutputSafety, TwoWritersOfOneTargetUseTheirOwnTemporaryFiles) {
  const fs::path file = dir_ / "d.txt";
  AtomicFile first(file.string());
  AtomicFile second(file.string());
  first.write("first\n");
  second.write("second\n");
  first.commit();
  EXPECT_EQ(read_file(file), "first\n");
  second.commit();
  EXPECT_EQ(read_file(file), "second\n");
  expect_no_temp_files(dir_);
}

// graphgen -o goes through write_matrix_market.
TEST_F(OutputSafety, MatrixMarketWriterFollowsTheSameRules) {
  const graph::IntCsr g = small_graph();
  const fs::path plain = dir_ / "plain.mtx";
  graph::write_matrix_market(plain.string(), g);
  const std::string expected = read_file(plain);
  ASSERT_FALSE(expected.empty());

  const fs::path target = dir_ / "target.mtx";
  const fs::path link = dir_ / "link.mtx";
  fs::create_symlink(target.filename(), link);
  graph::write_matrix_market(link.string(), g);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(target), expected);

  const fs::path fifo = dir_ / "out.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  FifoReader reader(fifo);
  graph::write_matrix_market(fifo.string(), g);
  EXPECT_EQ(reader.data(), expected);
  EXPECT_TRUE(S_ISFIFO(lstat_of(fifo).st_mode)) << "the FIFO was replaced";
  expect_no_temp_files(dir_);
}
