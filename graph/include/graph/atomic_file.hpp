// Atomic output files, shared by every writer (distances, Matrix Market,
// the sssp JSON record): data goes to a temporary file beside the target, which
// is renamed over the target only after every byte was written and flushed.
// A reader never sees a partial file, and an error leaves the old file intact.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include "graph/error.hpp"

namespace graph::detail {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path)
      : path_(std::move(path)), temp_path_(path_ + ".tmp." + std::to_string(::getpid())) {
    file_ = std::fopen(temp_path_.c_str(), "wb");
    if (!file_) fail("cannot create temporary file " + temp_path_);
    // Large stdio buffer: callers write big formatted blocks anyway.
    std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile() {
    if (file_) {  // not committed: an exception is unwinding
      std::fclose(file_);
      std::remove(temp_path_.c_str());
    }
  }

  void write(const char* data, std::size_t bytes) {
    if (bytes != 0 && std::fwrite(data, 1, bytes, file_) != bytes) fail("write failed on " + temp_path_);
  }
  void write(const std::string& text) { write(text.data(), text.size()); }

  // Flushes, closes and renames over the target.
  void commit() {
    const bool flushed = std::fflush(file_) == 0;
    const int flush_errno = errno;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!flushed || !closed) {
      std::remove(temp_path_.c_str());
      errno = flushed ? errno : flush_errno;
      fail("write failed on " + temp_path_);
    }
    std::error_code ec;
    std::filesystem::rename(temp_path_, path_, ec);
    if (ec) {
      std::remove(temp_path_.c_str());
      throw InputError(InputErrorKind::CannotOpen, path_, 0, "cannot rename " + temp_path_ + ": " + ec.message());
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    const std::string reason = std::strerror(errno);
    throw InputError(InputErrorKind::CannotOpen, path_, 0, what + ": " + reason);
  }

  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
};

}  // namespace graph::detail
