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
#include "test_support.hpp"

namespace fs = std::filesystem;
using graph::InputError;
using graph::detail::AtomicFile;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

struct stat lstat_of(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path << ": " << std::strerror(errno);
  return st;
}

// Reads a FIFO on a thread: its read end is opened (non-blocking) before the
// writer starts, so the writer's open never waits, and the reader holds the
// FIFO itself even if something renames over its name. Gives up after
// `timeout` without a writer (the data then never came).
class FifoReader {
 public:
  explicit FifoReader(const fs::path& fifo, std::chrono::seconds timeout = std::chrono::seconds(20)) {
    fd_ = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    EXPECT_GE(fd_, 0) << fifo << ": " << std::strerror(errno);
    thread_ = std::thread([this, timeout] {
      const auto deadline = std::chrono::steady_clock::now() + timeout;
      char buffer[65536];
      while (fd_ >= 0 && std::chrono::steady_clock::now() < deadline) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0) continue;
        const ssize_t n = ::read(fd_, buffer, sizeof buffer);
        if (n > 0) {
          data_.append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0) {
          if (p.revents & POLLHUP) break;  // the writer came and closed
        } else if (errno != EAGAIN && errno != EINTR) {
          break;
        }
      }
    });
  }
  ~FifoReader() {
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
  }
  std::string data() {
    if (thread_.joinable()) thread_.join();
    return data_;
  }

 private:
  int fd_ = -1;
  std::string data_;
  std::thread thread_;
};

// A character device node in `dir` with /dev/null's (or /dev/full's) numbers.
// Where mknod is not allowed (or the file system has no devices), a symlink
// to the system's device stands in, with a visible message; either way the
// test asserts on the device: the link stays a link, the device a device.
struct CharDevice {
  fs::path path;
  bool node = false;  // false: `path` is a symlink to the system's device
};

CharDevice make_char_device(const fs::path& dir, const std::string& name, unsigned minor) {
  const fs::path path = dir / name;
  const std::string system_device = minor == 7 ? "/dev/full" : "/dev/null";
  if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0) {
    const int fd = ::open(path.c_str(), O_WRONLY);
    if (fd >= 0) {
      ::close(fd);
      return {path, true};
    }
    std::cout << "[  NOTE    ] " << path << ": device node made but cannot be opened (" << std::strerror(errno)
              << "); using a symlink to " << system_device << " instead\n";
    ::unlink(path.c_str());
  } else {
    std::cout << "[  NOTE    ] mknod " << path << ": " << std::strerror(errno) << "; using a symlink to "
              << system_device << " instead\n";
  }
  fs::create_symlink(system_device, path);
  return {path, false};
}

void expect_char_device_intact(const CharDevice& device, unsigned minor) {
  const struct stat st = lstat_of(device.path);
  if (device.node) {
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << device.path << " is no longer a character device";
    EXPECT_EQ(st.st_rdev, makedev(1, minor));
  } else {
    EXPECT_TRUE(S_ISLNK(st.st_mode)) << device.path << " is no longer a symlink";
    struct stat target {};
    ASSERT_EQ(::stat(device.path.c_str(), &target), 0);
    EXPECT_TRUE(S_ISCHR(target.st_mode));
    EXPECT_EQ(target.st_rdev, makedev(1, minor));
  }
}

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
