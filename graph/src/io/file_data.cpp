#include "graph/io/file_data.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <utility>

#include "graph/error.hpp"
#include "graph/memory_budget.hpp"

#include "content_hash.hpp"
#include "mapping_guard.hpp"
#include "unique_fd.hpp"

namespace graph::io {

namespace {

[[noreturn]] void cannot_open(const std::string& path, const std::string& what, int err) {
  throw InputError(InputErrorKind::CannotOpen, path, 0, what + ": " + std::strerror(err));
}

using Fd = detail::UniqueFd;

// A growable malloc'd buffer: realloc can extend large blocks in place
// (mremap), and nothing is zero-filled before being written.
struct RawBuffer {
  char* data = nullptr;
  std::size_t size = 0, capacity = 0;
  ~RawBuffer() { std::free(data); }
  // Grows to n bytes, refusing (InputError naming path) what, together with
  // `beside` bytes already held, exceeds the host memory budget.
  void reserve(std::size_t n, const std::string& path, std::uint64_t beside, const char* what) {
    if (n <= capacity) return;
    graph::detail::check_host_bytes(path, 0, graph::detail::mul_add_sat(n, 1, beside), what);
    void* grown = std::realloc(data, n);
    if (!grown) throw std::bad_alloc();
    data = static_cast<char*>(grown);
    capacity = n;
  }
  char* release() {
    char* out = data;
    data = nullptr;
    return out;
  }
};

constexpr const char* kInflating = "decompressing this gzip input";

bool has_gzip_magic(const unsigned char* p, std::size_t n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

// Inflates one or more concatenated gzip members (what `cat a.gz b.gz` and
// pigz produce) into memory.
void gunzip(const std::string& path, const unsigned char* in, std::size_t in_bytes, RawBuffer& out) {
  // The trailer's ISIZE (uncompressed size mod 2^32) is a good first guess for
  // one member; deflate never expands more than about 1032:1, which bounds
  // the guess a corrupt trailer can make us reserve.
  std::size_t guess = in_bytes * 4;
  if (in_bytes >= 18) {
    std::uint32_t isize = 0;
    std::memcpy(&isize, in + in_bytes - 4, 4);
    guess = std::max<std::size_t>(guess, isize);
  }
  const std::size_t ratio_bound = in_bytes > std::numeric_limits<std::size_t>::max() / 1100
                                      ? std::numeric_limits<std::size_t>::max()
                                      : in_bytes * 1032 + 4096;
  out.reserve(std::min(guess, ratio_bound) + 1, path, in_bytes, kInflating);

  z_stream zs{};
  // 15 + 16: a gzip wrapper (not raw deflate, not zlib).
  if (inflateInit2(&zs, 15 + 16) != Z_OK) throw std::bad_alloc();
  struct Ender {
    z_stream* zs;
    ~Ender() { inflateEnd(zs); }
  } ender{&zs};

  std::size_t consumed = 0;
  constexpr std::size_t kStep = 1u << 30;  // avail_in / avail_out are 32-bit
  while (true) {
    if (out.size == out.capacity) out.reserve(out.capacity + out.capacity / 2 + (1u << 20), path, in_bytes, kInflating);
    zs.next_in = const_cast<unsigned char*>(in + consumed);
    zs.avail_in = static_cast<uInt>(std::min(in_bytes - consumed, kStep));
    zs.next_out = reinterpret_cast<unsigned char*>(out.data + out.size);
    zs.avail_out = static_cast<uInt>(std::min(out.capacity - out.size, kStep));
    const uInt avail_in_before = zs.avail_in, avail_out_before = zs.avail_out;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    consumed += avail_in_before - zs.avail_in;
    out.size += avail_out_before - zs.avail_out;
    if (rc == Z_STREAM_END) {
      // Another member may follow; trailing zero padding (tape blocks) is ignored.
      std::size_t rest = consumed;
      while (rest < in_bytes && in[rest] == 0) ++rest;
      if (rest == in_bytes) return;
      if (!has_gzip_magic(in + consumed, in_bytes - consumed))
        throw InputError(InputErrorKind::BadToken, path, 0,
                         "unexpected data after the end of the gzip stream (at byte " + std::to_string(consumed) +
                             ")");
      inflateReset(&zs);
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR) {
      if (consumed == in_bytes)
        throw InputError(InputErrorKind::Truncated, path, 0,
                         "gzip stream ends early (the file is truncated after " + std::to_string(out.size) +
                             " decompressed bytes)");
      continue;  // output full: grow and go on
    }
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    throw InputError(InputErrorKind::BadToken, path, 0,
                     std::string("corrupt gzip data: ") + (zs.msg ? zs.msg : "inflate failed"));
  }
}

std::int64_t mtime_ns(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000ll + st.st_mtim.tv_nsec;
}

FileIdentity identity_of(const struct stat& st) {
  FileIdentity id;
  id.regular = S_ISREG(st.st_mode) && st.st_size > 0;
  id.device = static_cast<std::uint64_t>(st.st_dev);
  id.inode = static_cast<std::uint64_t>(st.st_ino);
  id.bytes = static_cast<std::uint64_t>(st.st_size);
  id.mtime_ns = mtime_ns(st);
  return id;
}

[[noreturn]] void shrank(const std::string& path) {
  throw InputError(InputErrorKind::Truncated, path, 0,
                   "the file shrank while it was being read (is another program writing or truncating it?)");
}

// Compares a still-open file with what it was when opened.
void check_same(const std::string& path, int fd, const FileIdentity& before) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) cannot_open(path, "cannot stat", errno);
  if (static_cast<std::uint64_t>(st.st_size) < before.bytes) shrank(path);
  if (static_cast<std::uint64_t>(st.st_size) != before.bytes || mtime_ns(st) != before.mtime_ns)
    throw InputError(InputErrorKind::BadToken, path, 0,
                     "the file changed while it was being read (is another program writing it?); read it again "
                     "when it is complete");
}

// Pipes, devices and files without a size (/proc): one read loop, bounded by
// the memory budget. Text graphs hold no NUL byte, so binary data (a device
// like /dev/urandom) is refused at its first megabyte, not at the budget.
void read_stream(const std::string& path, int fd, RawBuffer& buf) {
  bool text_checked = false;
  while (true) {
    if (buf.size == buf.capacity)
      buf.reserve(buf.capacity * 2 + (1u << 20), path, 0, "reading this input (a stream of unknown size)");
    const ssize_t got = ::read(fd, buf.data + buf.size, buf.capacity - buf.size);
    if (got < 0) {
      if (errno == EINTR) continue;
      cannot_open(path, "cannot read", errno);
    }
    if (got == 0) break;
    buf.size += static_cast<std::size_t>(got);
    if (!text_checked && (buf.size >= (1u << 20))) {
      text_checked = true;
      const auto* bytes = reinterpret_cast<const unsigned char*>(buf.data);
      if (!has_gzip_magic(bytes, buf.size) && std::memchr(buf.data, 0, buf.size))
        throw InputError(InputErrorKind::BadToken, path, 0,
                         "binary data (a NUL byte in the first megabyte): not a text graph or gzip stream");
    }
  }
}

}  // namespace

struct FileData::Mapping {
  void* address = nullptr;
  std::size_t bytes = 0;
  Fd fd{-1};
  detail::MappingGuard guard;
  Mapping(const std::string& path, Fd&& file, std::size_t n) : bytes(n), fd(file.release()) {
    address = ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (address == MAP_FAILED) {
      address = nullptr;
      cannot_open(path, "cannot map", errno);
    }
    // Chunks are parsed front to back: let the kernel read ahead.
    ::madvise(address, n, MADV_SEQUENTIAL);
    guard = detail::MappingGuard(address, n);
  }
  ~Mapping() {
    guard = detail::MappingGuard();
    if (address) ::munmap(address, bytes);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
};

FileData::FileData() = default;

FileData FileData::open_stored(const std::string& path, bool regular_only) {
  FileData out;
  out.path_ = path;
  // "-": standard input (a copy of the descriptor, so closing it leaves stdin open).
  Fd fd(path == "-" ? ::fcntl(0, F_DUPFD_CLOEXEC, 3) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) cannot_open(path == "-" ? "stdin" : path, "cannot open", errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) cannot_open(path, "cannot stat", errno);
  if (S_ISDIR(st.st_mode)) throw InputError(InputErrorKind::CannotOpen, path, 0, "is a directory, not a file");
  if (regular_only && !S_ISREG(st.st_mode))
    throw InputError(InputErrorKind::CannotOpen, path, 0, "not a regular file: its content cannot be hashed");
  out.identity_ = identity_of(st);

  if (out.identity_.regular) {
    const auto bytes = static_cast<std::size_t>(st.st_size);
    out.mapping_ = std::make_unique<Mapping>(path, std::move(fd), bytes);
    out.file_bytes_ = bytes;
    out.data_ = static_cast<const char*>(out.mapping_->address);
    out.size_ = bytes;
  } else if (!regular_only) {
    RawBuffer buf;
    read_stream(path, fd.get(), buf);
    out.file_bytes_ = buf.size;
    out.size_ = buf.size;
    out.heap_ = buf.release();
    out.data_ = out.heap_ ? out.heap_ : "";
  }
  return out;
}

FileData FileData::open(const std::string& path, bool progress, bool hash_source) {
  FileData out = open_stored(path, false);
  if (hash_source) out.source_hash_ = detail::hash_array(out.data_, out.size_);

  const auto* bytes = reinterpret_cast<const unsigned char*>(out.data_);
  if (has_gzip_magic(bytes, out.size_)) {
    RawBuffer text;
    const auto start = std::chrono::steady_clock::now();
    gunzip(path, bytes, out.size_, text);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress && seconds > 1.0)
      std::fprintf(stderr, "%s: decompressed %.1f MB to %.1f MB in %.2f s\n", path.c_str(),
                   static_cast<double>(out.size_) / 1e6, static_cast<double>(text.size) / 1e6, seconds);
    // The compressed bytes are done with: a file that shrank under them is
    // told now, before they are let go.
    out.check_unchanged();
    const std::uint64_t on_disk = out.file_bytes_;
    const std::uint64_t hash = out.source_hash_;
    const FileIdentity identity = out.identity_;
    out.release();
    out.path_ = path;
    out.identity_ = identity;
    out.source_hash_ = hash;
    out.file_bytes_ = on_disk;
    out.size_ = text.size;
    out.heap_ = text.release();
    out.data_ = out.heap_ ? out.heap_ : "";
    out.decompressed_ = true;
  }
  return out;
}

FileData FileData::from_text(const std::string& path, const std::string& text, std::uint64_t file_bytes) {
  FileData out;
  out.path_ = path;
  RawBuffer buf;
  buf.reserve(text.size() + 1, path, 0, "rewriting this input");
  std::memcpy(buf.data, text.data(), text.size());
  buf.size = text.size();
  out.size_ = text.size();
  out.file_bytes_ = file_bytes;
  out.heap_ = buf.release();
  out.data_ = out.heap_;
  return out;
}

void FileData::check_unchanged() const {
  if (!mapping_) return;  // the bytes are a copy in memory: nothing can change them
  if (mapping_->guard.hit()) shrank(path_);
  check_same(path_, mapping_->fd.get(), identity_);
}

FileData::FileData(FileData&& other) noexcept { *this = std::move(other); }

FileData& FileData::operator=(FileData&& other) noexcept {
  if (this == &other) return *this;
  release();
  path_ = std::move(other.path_);
  data_ = std::exchange(other.data_, "");
  size_ = std::exchange(other.size_, 0);
  file_bytes_ = std::exchange(other.file_bytes_, 0);
  decompressed_ = std::exchange(other.decompressed_, false);
  identity_ = std::exchange(other.identity_, FileIdentity{});
  source_hash_ = std::exchange(other.source_hash_, 0);
  mapping_ = std::move(other.mapping_);
  heap_ = std::exchange(other.heap_, nullptr);
  return *this;
}

FileData::~FileData() { release(); }

void FileData::release() noexcept {
  mapping_.reset();
  std::free(heap_);
  heap_ = nullptr;
  data_ = "";
  size_ = 0;
  file_bytes_ = 0;
  decompressed_ = false;
  identity_ = FileIdentity{};
  source_hash_ = 0;
  path_.clear();
}

std::uint64_t hash_file(const std::string& path, FileIdentity* identity) {
  const FileData file = FileData::open_stored(path, true);
  const std::uint64_t hash = detail::hash_array(file.data(), file.size());
  file.check_unchanged();
  if (identity) *identity = file.identity();
  return hash;
}

}  // namespace graph::io
