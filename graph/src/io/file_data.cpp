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
  void reserve(std::size_t n) {
    if (n <= capacity) return;
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
  out.reserve(std::min(guess, ratio_bound) + 1);

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
    if (out.size == out.capacity) out.reserve(out.capacity + out.capacity / 2 + (1u << 20));
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

}  // namespace

FileData FileData::open(const std::string& path, bool progress) {
  FileData out;
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) cannot_open(path, "cannot open", errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) cannot_open(path, "cannot stat", errno);
  if (S_ISDIR(st.st_mode)) throw InputError(InputErrorKind::CannotOpen, path, 0, "is a directory, not a file");

  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    out.file_bytes_ = static_cast<std::uint64_t>(st.st_size);
    const auto bytes = static_cast<std::size_t>(st.st_size);
    void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (map == MAP_FAILED) cannot_open(path, "cannot map", errno);
    // Chunks are parsed front to back: let the kernel read ahead.
    ::madvise(map, bytes, MADV_SEQUENTIAL);
    out.mapping_ = map;
    out.mapping_bytes_ = bytes;
    out.data_ = static_cast<const char*>(map);
    out.size_ = bytes;
  } else if (!S_ISREG(st.st_mode)) {
    // Pipes and devices: one read loop.
    RawBuffer buf;
    while (true) {
      if (buf.size == buf.capacity) buf.reserve(buf.capacity * 2 + (1u << 20));
      const ssize_t got = ::read(fd.get(), buf.data + buf.size, buf.capacity - buf.size);
      if (got < 0) {
        if (errno == EINTR) continue;
        cannot_open(path, "cannot read", errno);
      }
      if (got == 0) break;
      buf.size += static_cast<std::size_t>(got);
    }
    out.file_bytes_ = buf.size;
    out.size_ = buf.size;
    out.heap_ = buf.release();
    out.data_ = out.heap_ ? out.heap_ : "";
  }

  const auto* bytes = reinterpret_cast<const unsigned char*>(out.data_);
  if (has_gzip_magic(bytes, out.size_)) {
    RawBuffer text;
    const auto start = std::chrono::steady_clock::now();
    gunzip(path, bytes, out.size_, text);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress && seconds > 1.0)
      std::fprintf(stderr, "%s: decompressed %.1f MB to %.1f MB in %.2f s\n", path.c_str(),
                   static_cast<double>(out.size_) / 1e6, static_cast<double>(text.size) / 1e6, seconds);
    const std::uint64_t on_disk = out.file_bytes_;
    out.release();
    out.file_bytes_ = on_disk;
    out.size_ = text.size;
    out.heap_ = text.release();
    out.data_ = out.heap_ ? out.heap_ : "";
    out.decompressed_ = true;
  }
  return out;
}

FileData::FileData(FileData&& other) noexcept { *this = std::move(other); }

FileData& FileData::operator=(FileData&& other) noexcept {
  if (this == &other) return *this;
  release();
  data_ = std::exchange(other.data_, "");
  size_ = std::exchange(other.size_, 0);
  file_bytes_ = std::exchange(other.file_bytes_, 0);
  decompressed_ = std::exchange(other.decompressed_, false);
  mapping_ = std::exchange(other.mapping_, nullptr);
  mapping_bytes_ = std::exchange(other.mapping_bytes_, 0);
  heap_ = std::exchange(other.heap_, nullptr);
  return *this;
}

FileData::~FileData() { release(); }

void FileData::release() noexcept {
  if (mapping_) ::munmap(mapping_, mapping_bytes_);
  std::free(heap_);
  mapping_ = nullptr;
  mapping_bytes_ = 0;
  heap_ = nullptr;
  data_ = "";
  size_ = 0;
  file_bytes_ = 0;
  decompressed_ = false;
}

}  // namespace graph::io
