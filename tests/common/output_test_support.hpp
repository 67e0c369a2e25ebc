// Shared by the output-safety tests: reading files back, a FIFO's reader on
// a thread, and character device nodes made in a temporary folder.
#pragma once

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

namespace test_support {

namespace fs = std::filesystem;

inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void write_file(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

inline struct stat lstat_of(const fs::path& path) {
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

inline CharDevice make_char_device(const fs::path& dir, const std::string& name, unsigned minor) {
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

inline void expect_char_device_intact(const CharDevice& device, unsigned minor) {
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

}  // namespace test_support
