// Files that only this user's runs can have written: the bytes, then an
// HMAC-SHA256 of them under a per-user secret key (32 random bytes in
// cache_key_path(), made on first use, mode 0600). A cache that is sealed
// this way cannot be crafted by anyone who cannot read the key, and a
// reader proves the seal over the whole file before it parses one field, so
// a truncated, edited or foreign file is refused, never half-read.
//
// Layout: 8-byte magic, u32 version, u32 zero, the fields as written (each
// vector: a u64 count, its elements, zero padding to 8 bytes), then the
// 32-byte seal over everything before it. Little-endian, like the binary
// graph cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace graph::io {

// $XDG_CONFIG_HOME/sssp/cache.key, else $HOME/.config/sssp/cache.key; empty
// when neither variable is set (then nothing is sealed or trusted).
std::string cache_key_path();

class SealedWriter {
 public:
  SealedWriter(const char (&magic)[8], std::uint32_t version);

  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    append(&value, sizeof value);
  }
  template <class T>
  void put_vector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<std::uint64_t>(v.size());
    append(v.data(), v.size() * sizeof(T));
    pad();
  }

  // Seals the bytes with this user's key (making the key on first use) and
  // writes them to `path` atomically (graph::detail::AtomicFile). Throws
  // InputError(CannotOpen) naming the path or the key.
  void write(const std::string& path) const;

 private:
  void append(const void* data, std::size_t bytes);
  void pad();
  std::vector<unsigned char> bytes_;
};

class SealedReader {
 public:
  // Reads `path` whole and proves it: throws InputError(CorruptCache), naming
  // the file and why, when it is shorter than a header and a seal, has
  // another magic or version, or its seal is not this user's key's (or
  // there is no key yet). `max_bytes` bounds what is read at all.
  SealedReader(const std::string& path, const char (&magic)[8], std::uint32_t version, std::uint64_t max_bytes);

  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    take(&value, sizeof value);
    return value;
  }
  // A vector of at most `max_count` elements (the caller's bound from what
  // it already knows, e.g. the graph's size).
  template <class T>
  std::vector<T> get_vector(std::uint64_t max_count) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto count = get<std::uint64_t>();
    if (count > remaining() / sizeof(T)) refuse("a field runs past the end");
    if (count > max_count) refuse("a field holds " + std::to_string(count) + " entries, more than its bound " +
                                  std::to_string(max_count));
    std::vector<T> v(count);
    take(v.data(), count * sizeof(T));
    skip_padding();
    return v;
  }
  // Every byte before the seal was read.
  void expect_end();
  [[noreturn]] void refuse(const std::string& why) const;
  const std::string& path() const { return path_; }

 private:
  std::size_t remaining() const { return bytes_.size() - at_; }
  void take(void* out, std::size_t bytes);
  void skip_padding();
  std::string path_;
  std::vector<unsigned char> bytes_;  // the file less its seal
  std::size_t at_ = 0;
};

}  // namespace graph::io
