// The binary graph cache: a built CSR written beside its source file
// ("<input>.bin.cache") so that the next load skips parsing and building.
//
// Layout (little-endian, fixed 128-byte header, then the strings and the
// arrays, each array starting on an 8-byte boundary):
//   0   magic "SSSPCSR\0"           8   u32 format version
//   12  u32 weight type (1 uint32, 2 float)
//   16  u64 vertices                24  u64 arcs
//   32  u32 id_base   36 u8 symmetric  37 u8 undirected option
//   38  u8 file has weights          39 u8 source format (graph::Format)
//   40  u64 source size (bytes)      48  i64 source mtime (ns since epoch)
//   56  u64 input entries  64 u64 self-loops dropped  72 u64 duplicates dropped
//   80  f64 seconds the original parse + build took
//   88  u32 bytes of the rule key    92  u32 bytes of the applied rule
//   96  u64 checksum (see below)
//   104 u64 content hash of the source file's bytes as stored (compressed
//       for gzip), the cache's proof that it was built from this content
//   112 u64 source inode    120 u64 source device (both for reports only)
//   then rule key, applied rule, zero padding to 8,
//   offsets (vertices + 1 u64), targets (arcs u32), weights (arcs u32/float),
//   each padded to 8 bytes.
// The checksum: a 64-bit FNV-1a variant over 8-byte words (four lanes, then
// mixed) of the header (less its checksum field) and the strings, chained
// with one digest per array; an array's digest chains the digests of its
// 1 MiB blocks, which are computed in parallel. Padding is not covered.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "graph/build_csr.hpp"
#include "graph/csr.hpp"
#include "graph/load.hpp"

namespace graph::io {

inline constexpr std::uint32_t kCacheVersion = 2;

// Everything the cache stores besides the arrays.
struct CacheInfo {
  std::uint32_t version = kCacheVersion;
  bool float_weights = false;
  std::uint64_t num_vertices = 0;
  std::uint64_t num_arcs = 0;
  std::uint32_t id_base = 1;
  bool symmetric = false;
  bool undirected_option = false;
  bool file_has_weights = false;
  Format source_format = Format::Auto;
  std::uint64_t source_bytes = 0;
  std::int64_t source_mtime_ns = 0;
  std::uint64_t source_hash = 0;  // io::hash_file of the source when built
  std::uint64_t source_inode = 0, source_device = 0;
  BuildStats build;
  double original_seconds = 0;  // what parsing + building the source took
  std::string rule_key;         // the requested weight rule, seed included (see rule_key())
  std::string weight_rule;      // the rule applied, as reported
};

// The requested weight rule as the cache matches it: seed always included,
// because a pattern file's weights depend on it even under "file".
std::string rule_key(const WeightRule& rule);

// One open cache file: the header is read and checked on open, and the
// arrays are read from the same open file, so a cache replaced between the
// two (another process writing the same path) cannot pair one file's header
// with another's arrays.
class CacheFile {
 public:
  static constexpr std::size_t kHeaderBytes = 128;
  struct Layout {
    std::uint64_t strings_at = kHeaderBytes, offsets_at = 0, targets_at = 0, weights_at = 0, total = 0;
  };

  // Reads and checks the header (magic, sizes against the file's size,
  // plausible fields, printable strings). Throws InputError(CorruptCache)
  // naming the file when it is not a cache or is truncated; a different
  // version is kept in info().version, not thrown.
  explicit CacheFile(const std::string& path);
  ~CacheFile();
  CacheFile(const CacheFile&) = delete;
  CacheFile& operator=(const CacheFile&) = delete;

  const CacheInfo& info() const { return info_; }
  // The file's size (the layout's, which the header was checked against; 0
  // for another version).
  std::uint64_t file_bytes() const { return layout_.total; }

  // The whole graph, checked: version, memory budget, checksum, and every
  // CSR invariant the solvers rely on (graph/csr_check.hpp). Throws
  // InputError(CorruptCache) naming the file on any failure.
  AnyCsr read() const;

 private:
  void read_header();

  std::string path_;
  int fd_ = -1;
  unsigned char header_[kHeaderBytes] = {};
  CacheInfo info_;
  Layout layout_;
};

// CacheFile(path).info().
CacheInfo read_cache_header(const std::string& path);

// CacheFile(path).read(), with its info.
AnyCsr read_cache(const std::string& path, CacheInfo* info = nullptr);

// Writes atomically: a temporary file in the same directory, then rename.
// info's counts and weight type are taken from the graph. Throws
// InputError(CannotOpen) when the file cannot be written.
void write_cache(const std::string& path, const AnyCsr& graph, const CacheInfo& info);

}  // namespace graph::io
