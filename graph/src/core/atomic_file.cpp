#include "graph/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "graph/error.hpp"

namespace graph::detail {

namespace {

// Temporary names are unique within the process (two writers of one target
// at once), and across processes by the pid.
std::atomic<unsigned> temp_counter{0};

// `path` with the symlinks of its last component followed, a dangling one to
// the path it names: the rename must replace the file a link points to, not
// the link. Directories on the way are left to the kernel.
std::string follow_links(const std::string& path, const std::string& named) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::string link(4096, '\0');
    const ssize_t n = ::readlink(p.c_str(), link.data(), link.size());
    if (n < 0 || static_cast<std::size_t>(n) == link.size())
      throw InputError(InputErrorKind::CannotOpen, named, 0,
                       "cannot read the symbolic link " + p + ": " + std::strerror(n < 0 ? errno : ENAMETOOLONG));
    link.resize(static_cast<std::size_t>(n));
    const std::size_t slash = p.rfind('/');
    p = link.front() == '/' || slash == std::string::npos ? link : p.substr(0, slash + 1) + link;
  }
  throw InputError(InputErrorKind::CannotOpen, named, 0, "too many levels of symbolic links");
}

// The descriptor a path names when it is this process's own open file:
// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N; -1 for any other
// path. Such a path reaches whatever the descriptor is open on (a pipe, a
// terminal, or a regular file the shell redirected), and writing through
// the descriptor keeps its offset and append mode, where a rename would put
// a new file in place of the one the shell opened.
int own_descriptor(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::string p(prefix);
    if (path.compare(0, p.size(), p) != 0 || path.size() == p.size() || path.size() > p.size() + 6) continue;
    int fd = 0;
    for (std::size_t i = p.size(); i < path.size(); ++i) {
      if (path[i] < '0' || path[i] > '9') return -1;
      fd = fd * 10 + (path[i] - '0');
    }
    return fd;
  }
  return -1;
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  if (const int own = own_descriptor(path_); own >= 0 && ::fcntl(own, F_GETFD) != -1) {
    in_place_ = true;
    target_ = path_;
    const int fd = ::fcntl(own, F_DUPFD_CLOEXEC, 3);
    if (fd < 0) fail("cannot open", errno);
    file_ = ::fdopen(fd, "wb");
    if (!file_) {
      const int error = errno;
      ::close(fd);
      fail("cannot open", error);
    }
    std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
    return;
  }
  // stat() follows links the way open() will: /dev/stdout reaches a pipe or
  // terminal through a /proc link that names no path.
  struct stat st {};
  const bool exists = ::stat(path_.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) fail("cannot open", errno);
  if (exists && S_ISDIR(st.st_mode)) throw InputError(InputErrorKind::CannotOpen, path_, 0, "is a directory");
  if (exists && S_ISBLK(st.st_mode))
    throw InputError(InputErrorKind::CannotOpen, path_, 0, "is a block device: refusing to write to it");

  int fd = -1;
  if (exists && !S_ISREG(st.st_mode)) {
    in_place_ = true;
    target_ = path_;
    fd = ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) fail("cannot open", errno);
  } else {
    target_ = follow_links(path_, path_);
    for (int attempt = 0;; ++attempt) {
      temp_path_ = target_ + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(temp_counter++);
      fd = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd >= 0) break;
      // A name left by a killed process of the same pid is skipped, not reused.
      if (errno != EEXIST || attempt == 100) {
        const int error = errno;
        const std::string temp = temp_path_;
        temp_path_.clear();
        fail("cannot create temporary file " + temp, error);
      }
    }
    // The replacement keeps the old file's permissions (not set-id bits).
    if (exists) (void)::fchmod(fd, st.st_mode & 0777);
  }
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int error = errno;
    ::close(fd);
    if (!in_place_) ::unlink(temp_path_.c_str());
    temp_path_.clear();
    fail("cannot open", error);
  }
  // Large stdio buffer: callers write big formatted blocks anyway.
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

AtomicFile::~AtomicFile() {
  if (file_) std::fclose(file_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void AtomicFile::write(const char* data, std::size_t bytes) {
  if (!file_) throw std::logic_error("AtomicFile::write after finish: " + path_);
  if (bytes != 0 && std::fwrite(data, 1, bytes, file_) != bytes)
    fail("write failed on " + (in_place_ ? path_ : temp_path_), errno);
}

void AtomicFile::finish() {
  if (finished_) return;
  finished_ = true;
  const bool flushed = std::fflush(file_) == 0;
  int error = errno;
  const bool closed = std::fclose(file_) == 0;
  if (flushed) error = errno;
  file_ = nullptr;
  if (flushed && closed) return;
  const std::string written = in_place_ ? path_ : temp_path_;
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
  temp_path_.clear();
  fail("write failed on " + written, error);
}

void AtomicFile::commit() {
  finish();
  if (committed_) return;
  if (failed_) throw std::logic_error("AtomicFile::commit after a failed write: " + path_);
  committed_ = true;
  if (in_place_) return;
  if (::rename(temp_path_.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp_path_.c_str());
    const std::string temp = temp_path_;
    temp_path_.clear();
    fail("cannot rename " + temp, error);
  }
  temp_path_.clear();
}

void AtomicFile::fail(const std::string& what, int error) {
  failed_ = true;
  throw InputError(InputErrorKind::CannotOpen, path_, 0, what + ": " + std::strerror(error));
}

}  // namespace graph::detail
