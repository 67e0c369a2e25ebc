// The bytes of one input file in memory, ready for parsing: the file mapped
// read-only (no copy), or, for gzip input, its decompressed contents.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace graph::io {

// Which file a path named when it was opened, and in what state.
struct FileIdentity {
  bool regular = false;  // a regular file (not a pipe, device or /proc entry without a size)
  std::uint64_t device = 0, inode = 0;
  std::uint64_t bytes = 0;  // on disk
  std::int64_t mtime_ns = 0;
};


class FileData {
 public:
  // Gzip input is recognised by its magic bytes (1f 8b), whatever the file
  // is called, and inflated into memory before parsing. Throws
  // InputError(CannotOpen) when the file cannot be opened or read, and for
  // gzip input InputError(Truncated) when the stream ends early or
  // InputError(BadToken) when it is corrupt; InputError(Overflow) when the
  // bytes (decompressed, or read from a pipe) would exceed the host memory
  // budget. With progress, a decompression that takes more than about a
  // second is reported on stderr. With hash_source, source_hash() holds the
  // content hash of the bytes as stored (compressed for gzip).
  static FileData open(const std::string& path, bool progress = false, bool hash_source = false);

  // Text made in memory (an input rewritten before parsing), named `path`
  // in messages; file_bytes() is `file_bytes`, the input's size as stored.
  static FileData from_text(const std::string& path, const std::string& text, std::uint64_t file_bytes);

  FileData();
  FileData(FileData&& other) noexcept;
  FileData& operator=(FileData&& other) noexcept;
  FileData(const FileData&) = delete;
  FileData& operator=(const FileData&) = delete;
  ~FileData();

  const char* data() const { return data_; }
  std::size_t size() const { return size_; }          // bytes of text (decompressed)
  std::uint64_t file_bytes() const { return file_bytes_; }  // bytes on disk
  bool decompressed() const { return decompressed_; }
  const FileIdentity& identity() const { return identity_; }
  std::uint64_t source_hash() const { return source_hash_; }

  // Throws InputError(Truncated) naming the file when it shrank while it
  // was mapped (the reads past its new end saw zeros), or InputError(BadToken)
  // when its size or modification time changed since open: what was parsed
  // may be a mix of two versions. Call after parsing, also when the parse
  // failed, since a shrunk file usually fails to parse.
  void check_unchanged() const;

 private:
  friend std::uint64_t hash_file(const std::string& path, FileIdentity* identity);
  struct Mapping;
  // The bytes as stored: a regular file mapped, anything else read to its
  // end (refused with regular_only); not decompressed, not hashed.
  static FileData open_stored(const std::string& path, bool regular_only);
  void release() noexcept;

  std::string path_;
  const char* data_ = "";
  std::size_t size_ = 0;
  std::uint64_t file_bytes_ = 0;
  bool decompressed_ = false;
  FileIdentity identity_;
  std::uint64_t source_hash_ = 0;
  std::unique_ptr<Mapping> mapping_;  // the mapped file, while its bytes are in use
  char* heap_ = nullptr;              // free on release
};

// The content hash of a regular file's bytes as stored (what
// FileData::open(path, false, true).source_hash() gives), and its identity;
// the file is mapped, not parsed or decompressed. Throws InputError as
// FileData::open and check_unchanged do.
std::uint64_t hash_file(const std::string& path, FileIdentity* identity);

}  // namespace graph::io
