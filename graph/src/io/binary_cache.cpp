#include "graph/io/binary_cache.hpp"

#include <fcntl.h>
#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "graph/csr_check.hpp"
#include "graph/error.hpp"
#include "graph/memory_budget.hpp"
#include "../core/prefault.hpp"

#include "content_hash.hpp"
#include "unique_fd.hpp"

namespace graph::io {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the cache layout is little-endian");

namespace {

using detail::Checksum;
using detail::hash_array;

constexpr char kMagic[8] = {'S', 'S', 'S', 'P', 'C', 'S', 'R', '\0'};
constexpr std::size_t kHeaderBytes = 128;
constexpr std::size_t kChecksumAt = 96;
constexpr std::uint32_t kMaxStringBytes = 1u << 16;
constexpr std::uint32_t kWeightU32 = 1, kWeightFloat = 2;

std::uint64_t pad8(std::uint64_t n) { return (n + 7) & ~std::uint64_t{7}; }

template <class T>
void put(unsigned char* header, std::size_t at, T value) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(header + at, &value, sizeof(T));
}
template <class T>
T get(const unsigned char* header, std::size_t at) {
  T value;
  std::memcpy(&value, header + at, sizeof(T));
  return value;
}

[[noreturn]] void corrupt(const std::string& path, const std::string& what) {
  throw InputError(InputErrorKind::CorruptCache, path, 0,
                   "corrupt binary cache: " + what + " (delete the file to rebuild it)");
}

using Fd = detail::UniqueFd;

// Reads exactly n bytes at offset; false when the file ends first.
bool read_at(int fd, void* out, std::size_t n, std::uint64_t offset) {
  auto* p = static_cast<char*>(out);
  while (n > 0) {
    const ssize_t got = ::pread(fd, p, std::min<std::size_t>(n, 1u << 30), static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= static_cast<std::size_t>(got);
    offset += static_cast<std::uint64_t>(got);
  }
  return true;
}

// read_at in 8 MiB slices by all threads: copying out of the page cache is
// the cost of a cache hit, and one thread copies at a fraction of memory speed.
bool read_parallel(int fd, void* out, std::size_t n, std::uint64_t offset) {
  constexpr std::size_t kSlice = 8u << 20;
  const auto slices = static_cast<std::int64_t>((n + kSlice - 1) / kSlice);
  bool ok = true;
#pragma omp parallel for schedule(dynamic, 1) reduction(&& : ok)
  for (std::int64_t s = 0; s < slices; ++s) {
    const std::size_t at = static_cast<std::size_t>(s) * kSlice;
    ok = read_at(fd, static_cast<char*>(out) + at, std::min(kSlice, n - at), offset + at) && ok;
  }
  return ok;
}

bool write_all(int fd, const void* data, std::size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t put_bytes = ::write(fd, p, std::min<std::size_t>(n, 1u << 30));
    if (put_bytes < 0 && errno == EINTR) continue;
    if (put_bytes <= 0) return false;
    p += put_bytes;
    n -= static_cast<std::size_t>(put_bytes);
  }
  return true;
}

using Layout = CacheFile::Layout;
static_assert(CacheFile::kHeaderBytes == kHeaderBytes);

Layout layout_of(std::uint64_t n, std::uint64_t m, std::uint32_t key_bytes, std::uint32_t rule_bytes) {
  Layout l;
  l.offsets_at = pad8(l.strings_at + key_bytes + rule_bytes);
  l.targets_at = l.offsets_at + pad8((n + 1) * 8);
  l.weights_at = l.targets_at + pad8(m * 4);
  l.total = l.weights_at + pad8(m * 4);
  return l;
}

void encode_header(unsigned char* h, const CacheInfo& info) {
  std::memset(h, 0, kHeaderBytes);
  std::memcpy(h, kMagic, sizeof(kMagic));
  put<std::uint32_t>(h, 8, info.version);
  put<std::uint32_t>(h, 12, info.float_weights ? kWeightFloat : kWeightU32);
  put<std::uint64_t>(h, 16, info.num_vertices);
  put<std::uint64_t>(h, 24, info.num_arcs);
  put<std::uint32_t>(h, 32, info.id_base);
  put<std::uint8_t>(h, 36, info.symmetric);
  put<std::uint8_t>(h, 37, info.undirected_option);
  put<std::uint8_t>(h, 38, info.file_has_weights);
  put<std::uint8_t>(h, 39, static_cast<std::uint8_t>(info.source_format));
  put<std::uint64_t>(h, 40, info.source_bytes);
  put<std::int64_t>(h, 48, info.source_mtime_ns);
  put<std::uint64_t>(h, 56, info.build.input_entries);
  put<std::uint64_t>(h, 64, info.build.self_loops_dropped);
  put<std::uint64_t>(h, 72, info.build.duplicates_dropped);
  put<double>(h, 80, info.original_seconds);
  put<std::uint32_t>(h, 88, static_cast<std::uint32_t>(info.rule_key.size()));
  put<std::uint32_t>(h, 92, static_cast<std::uint32_t>(info.weight_rule.size()));
  put<std::uint64_t>(h, 104, info.source_hash);
  put<std::uint64_t>(h, 112, info.source_inode);
  put<std::uint64_t>(h, 120, info.source_device);
}

// The checksum of a cache: the header with its checksum field left out and
// the strings, then each array.
template <class Weight>
std::uint64_t cache_checksum(const unsigned char* header, const std::string& key, const std::string& rule,
                             const Csr<Weight>& g) {
  Checksum head;
  head.update(header, kChecksumAt);
  head.update(header + kChecksumAt + 8, kHeaderBytes - kChecksumAt - 8);
  head.update(key.data(), key.size());
  head.update(rule.data(), rule.size());
  std::uint64_t h = head.digest();
  h = splitmix64(h ^ hash_array(g.offsets.data(), g.offsets.size() * sizeof(edge_offset)));
  h = splitmix64(h ^ hash_array(g.targets.data(), g.targets.size() * sizeof(vertex_id)));
  h = splitmix64(h ^ hash_array(g.weights.data(), g.weights.size() * sizeof(Weight)));
  return h;
}

std::atomic<unsigned> temp_counter{0};

}  // namespace

std::string rule_key(const WeightRule& rule) {
  switch (rule.kind) {
    case WeightRule::Kind::File: return "file seed=" + std::to_string(rule.seed);
    case WeightRule::Kind::Unit: return "unit";
    case WeightRule::Kind::Random: return rule.describe();
  }
  return rule.describe();
}

CacheFile::CacheFile(const std::string& path) : path_(path), fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (fd_ < 0)
    throw InputError(InputErrorKind::CannotOpen, path, 0, std::string("cannot open: ") + std::strerror(errno));
  try {
    read_header();
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

CacheFile::~CacheFile() {
  if (fd_ >= 0) ::close(fd_);
}

void CacheFile::read_header() {
  const std::string& path = path_;
  struct stat st {};
  if (::fstat(fd_, &st) != 0)
    throw InputError(InputErrorKind::CannotOpen, path, 0, std::string("cannot stat: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) corrupt(path, "not a regular file");
  const auto file_bytes = static_cast<std::uint64_t>(st.st_size);
  unsigned char* h = header_;
  if (file_bytes < kHeaderBytes || !read_at(fd_, h, kHeaderBytes, 0))
    corrupt(path, "shorter than its " + std::to_string(kHeaderBytes) + "-byte header");
  if (std::memcmp(h, kMagic, sizeof(kMagic)) != 0) corrupt(path, "bad magic (not an SSSP graph cache)");

  CacheInfo& info = info_;
  info.version = get<std::uint32_t>(h, 8);
  if (info.version != kCacheVersion) return;  // the caller decides: rebuild, or refuse
  const auto weight_type = get<std::uint32_t>(h, 12);
  if (weight_type != kWeightU32 && weight_type != kWeightFloat)
    corrupt(path, "unknown weight type " + std::to_string(weight_type));
  info.float_weights = weight_type == kWeightFloat;
  info.num_vertices = get<std::uint64_t>(h, 16);
  info.num_arcs = get<std::uint64_t>(h, 24);
  info.id_base = get<std::uint32_t>(h, 32);
  info.symmetric = get<std::uint8_t>(h, 36) != 0;
  info.undirected_option = get<std::uint8_t>(h, 37) != 0;
  info.file_has_weights = get<std::uint8_t>(h, 38) != 0;
  const auto format = get<std::uint8_t>(h, 39);
  if (format > static_cast<std::uint8_t>(Format::Csv)) corrupt(path, "unknown source format");
  info.source_format = static_cast<Format>(format);
  info.source_bytes = get<std::uint64_t>(h, 40);
  info.source_mtime_ns = get<std::int64_t>(h, 48);
  info.build.input_entries = get<std::uint64_t>(h, 56);
  info.build.self_loops_dropped = get<std::uint64_t>(h, 64);
  info.build.duplicates_dropped = get<std::uint64_t>(h, 72);
  info.build.arcs = info.num_arcs;
  info.original_seconds = get<double>(h, 80);
  const auto key_bytes = get<std::uint32_t>(h, 88);
  const auto rule_bytes = get<std::uint32_t>(h, 92);
  info.source_hash = get<std::uint64_t>(h, 104);
  info.source_inode = get<std::uint64_t>(h, 112);
  info.source_device = get<std::uint64_t>(h, 120);
  if (info.id_base > 1) corrupt(path, "id base " + std::to_string(info.id_base) + " (expected 0 or 1)");
  if (!std::isfinite(info.original_seconds) || info.original_seconds < 0)
    corrupt(path, "implausible original load time");
  // Every size is checked against the file's before anything is allocated.
  if (info.num_vertices >= std::numeric_limits<vertex_id>::max())
    corrupt(path, "vertex count " + std::to_string(info.num_vertices) + " does not fit 32-bit ids");
  if (key_bytes > kMaxStringBytes || rule_bytes > kMaxStringBytes) corrupt(path, "implausible string lengths");
  if (info.num_arcs > file_bytes / 8) corrupt(path, "arc count larger than the file can hold (truncated?)");
  layout_ = layout_of(info.num_vertices, info.num_arcs, key_bytes, rule_bytes);
  if (layout_.total != file_bytes)
    corrupt(path, "file is " + std::to_string(file_bytes) + " bytes but its header describes " +
                      std::to_string(layout_.total) + " (truncated?)");
  std::string strings(std::size_t{key_bytes} + rule_bytes, '\0');
  if (!read_at(fd_, strings.data(), strings.size(), layout_.strings_at)) corrupt(path, "truncated strings");
  // The strings are printed in reports: bytes that could drive a terminal
  // are not something this program ever writes.
  if (printable(strings) != strings) corrupt(path, "control bytes in the weight rule text");
  info.rule_key = strings.substr(0, key_bytes);
  info.weight_rule = strings.substr(key_bytes);
}

namespace {

template <class Weight>
Csr<Weight> read_arrays(const std::string& path, int fd, const CacheInfo& info, const Layout& l) {
  // A sparse file can declare gigabytes in a few kilobytes on disk: the
  // arrays are held to the memory budget before they are allocated.
  graph::detail::check_host_bytes(
      path, 0,
      graph::detail::mul_add_sat(info.num_vertices + 1, sizeof(edge_offset),
                                 graph::detail::mul_add_sat(info.num_arcs, sizeof(vertex_id) + sizeof(Weight), 0)),
      "reading this cache's arrays");
  Csr<Weight> g;
  g.num_vertices = static_cast<vertex_id>(info.num_vertices);
  const int threads = omp_get_max_threads();
  graph::detail::resize_prefaulted(g.offsets, info.num_vertices + 1, threads);
  graph::detail::resize_prefaulted(g.targets, info.num_arcs, threads);
  graph::detail::resize_prefaulted(g.weights, info.num_arcs, threads);
  if (!read_parallel(fd, g.offsets.data(), g.offsets.size() * sizeof(edge_offset), l.offsets_at) ||
      !read_parallel(fd, g.targets.data(), g.targets.size() * sizeof(vertex_id), l.targets_at) ||
      !read_parallel(fd, g.weights.data(), g.weights.size() * sizeof(Weight), l.weights_at))
    corrupt(path, "truncated arrays");
  return g;
}

// The checksum vouches for the bytes; this vouches that a well-formed file
// from a buggy or hostile writer cannot make a solver read out of bounds or
// compute a wrong distance: every invariant build_csr guarantees is proven.
template <class Weight>
void check_structure(const std::string& path, const Csr<Weight>& g, const CacheInfo& info) {
  const std::string problem = csr_problem(g, info.symmetric);
  if (!problem.empty()) corrupt(path, problem);
}

template <class Weight>
AnyCsr read_checked(const std::string& path, int fd, const unsigned char* header, const CacheInfo& info,
                    const Layout& l) {
  auto g = read_arrays<Weight>(path, fd, info, l);
  if (cache_checksum(header, info.rule_key, info.weight_rule, g) != get<std::uint64_t>(header, kChecksumAt))
    corrupt(path, "checksum mismatch");
  check_structure(path, g, info);
  return g;
}

}  // namespace

AnyCsr CacheFile::read() const {
  if (info_.version != kCacheVersion)
    corrupt(path_, "format version " + std::to_string(info_.version) + ", this program reads version " +
                       std::to_string(kCacheVersion));
  return info_.float_weights ? read_checked<float>(path_, fd_, header_, info_, layout_)
                             : read_checked<std::uint32_t>(path_, fd_, header_, info_, layout_);
}

CacheInfo read_cache_header(const std::string& path) { return CacheFile(path).info(); }

AnyCsr read_cache(const std::string& path, CacheInfo* info_out) {
  const CacheFile file(path);
  AnyCsr graph = file.read();
  if (info_out) *info_out = file.info();
  return graph;
}

void write_cache(const std::string& path, const AnyCsr& graph, const CacheInfo& info_in) {
  CacheInfo info = info_in;
  info.version = kCacheVersion;
  info.float_weights = has_float_weights(graph);
  info.num_vertices = num_vertices(graph);
  info.num_arcs = num_arcs(graph);
  if (info.rule_key.size() > kMaxStringBytes || info.weight_rule.size() > kMaxStringBytes)
    throw InputError(InputErrorKind::BadArgument, path, 0, "weight rule text too long for the cache");

  unsigned char h[kHeaderBytes];
  encode_header(h, info);
  put<std::uint64_t>(
      h, kChecksumAt,
      std::visit([&](const auto& g) { return cache_checksum(h, info.rule_key, info.weight_rule, g); }, graph));

  // The cache is renamed into place: never over a device, a FIFO or a link.
  struct stat existing {};
  if (::lstat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode))
    throw InputError(InputErrorKind::CannotOpen, path, 0,
                     "cannot write the binary cache: the path exists and is not a regular file");
  const std::string temp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(temp_counter++);
  Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0)
    throw InputError(InputErrorKind::CannotOpen, path, 0,
                     std::string("cannot write the binary cache: ") + std::strerror(errno));
  const char zeros[8] = {};
  std::uint64_t written = 0;
  auto emit = [&](const void* data, std::size_t n) {
    const bool ok = write_all(fd.get(), data, n);
    written += n;
    return ok;
  };
  auto pad = [&] { return emit(zeros, static_cast<std::size_t>(pad8(written) - written)); };
  bool ok = emit(h, kHeaderBytes) && emit(info.rule_key.data(), info.rule_key.size()) &&
            emit(info.weight_rule.data(), info.weight_rule.size()) && pad();
  ok = ok && std::visit(
                 [&](const auto& g) {
                   using W = typename std::decay_t<decltype(g)>::weight_type;
                   return emit(g.offsets.data(), g.offsets.size() * sizeof(edge_offset)) && pad() &&
                          emit(g.targets.data(), g.targets.size() * sizeof(vertex_id)) && pad() &&
                          emit(g.weights.data(), g.weights.size() * sizeof(W)) && pad();
                 },
                 graph);
  const int saved_errno = errno;
  const int raw = fd.release();
  ok = (::close(raw) == 0) && ok;
  if (!ok || ::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = ok ? errno : saved_errno;
    ::unlink(temp.c_str());
    throw InputError(InputErrorKind::CannotOpen, path, 0,
                     std::string("cannot write the binary cache: ") + std::strerror(err));
  }
}

}  // namespace graph::io
