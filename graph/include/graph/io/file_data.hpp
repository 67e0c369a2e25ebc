// The bytes of one input file in memory, ready for parsing: the file mapped
// read-only (no copy), or, for gzip input, its decompressed contents.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace graph::io {

class FileData {
 public:
  // Gzip input is recognised by its magic bytes (1f 8b), whatever the file
  // is called, and inflated into memory before parsing. Throws
  // InputError(CannotOpen) when the file cannot be opened or read, and for
  // gzip input InputError(Truncated) when the stream ends early or
  // InputError(BadToken) when it is corrupt. With progress, a decompression
  // that takes more than about a second is reported on stderr.
  static FileData open(const std::string& path, bool progress = false);

  FileData() = default;
  FileData(FileData&& other) noexcept;
  FileData& operator=(FileData&& other) noexcept;
  FileData(const FileData&) = delete;
  FileData& operator=(const FileData&) = delete;
  ~FileData();

  const char* data() const { return data_; }
  std::size_t size() const { return size_; }          // bytes of text (decompressed)
  std::uint64_t file_bytes() const { return file_bytes_; }  // bytes on disk
  bool decompressed() const { return decompressed_; }

 private:
  void release() noexcept;

  const char* data_ = "";
  std::size_t size_ = 0;
  std::uint64_t file_bytes_ = 0;
  bool decompressed_ = false;
  void* mapping_ = nullptr;   // munmap on release
  std::size_t mapping_bytes_ = 0;
  char* heap_ = nullptr;      // free on release
};

}  // namespace graph::io
