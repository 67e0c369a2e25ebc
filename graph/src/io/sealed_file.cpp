#include "graph/io/sealed_file.hpp"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "graph/atomic_file.hpp"
#include "graph/error.hpp"
#include "unique_fd.hpp"

namespace graph::io {

namespace {

constexpr std::size_t kKeyBytes = 32;
constexpr std::size_t kSealBytes = 32;  // HMAC-SHA256
constexpr std::size_t kHeaderBytes = 16;
using Key = std::array<unsigned char, kKeyBytes>;
using Seal = std::array<unsigned char, kSealBytes>;

[[noreturn]] void key_error(const std::string& path, const std::string& what) {
  throw InputError(InputErrorKind::CannotOpen, path, 0, what);
}

// The key file must be a private regular file of this user (not a link),
// exactly kKeyBytes long: anything else is not trusted.
bool read_key(const std::string& path, Key& key, std::string* why) {
  detail::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0) {
    *why = errno == ENOENT ? "no cache key yet (" + path + ")" : "cannot read the cache key " + path;
    return false;
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 077) != 0 ||
      st.st_size != static_cast<off_t>(kKeyBytes)) {
    *why = "the cache key " + path + " is not a private " + std::to_string(kKeyBytes) + "-byte file of this user";
    return false;
  }
  std::size_t got = 0;
  while (got < kKeyBytes) {
    const ssize_t r = ::read(fd.get(), key.data() + got, kKeyBytes - got);
    if (r <= 0) {
      *why = "cannot read the cache key " + path;
      return false;
    }
    got += static_cast<std::size_t>(r);
  }
  return true;
}

// This user's key, made (32 bytes from getrandom, mode 0600, in a 0700
// folder) when there is none; two runs making it at once agree on the
// first one written (O_EXCL).
Key key_for_writing() {
  const std::string path = cache_key_path();
  if (path.empty()) key_error("cache key", "neither XDG_CONFIG_HOME nor HOME is set: no place for the cache key");
  Key key{};
  std::string why;
  if (read_key(path, key, &why)) return key;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  ::chmod(std::filesystem::path(path).parent_path().c_str(), 0700);
  Key fresh{};
  std::size_t got = 0;
  while (got < kKeyBytes) {
    const ssize_t r = ::getrandom(fresh.data() + got, kKeyBytes - got, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) key_error(path, "no random bytes for the cache key");
    got += static_cast<std::size_t>(r);
  }
  // Written under a temporary name and linked into place: a reader never
  // sees a partial key, and the first of two racing runs wins.
  const std::string temp = path + ".tmp." + std::to_string(::getpid());
  {
    detail::UniqueFd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.get() < 0) key_error(path, "cannot create the cache key");
    if (::write(fd.get(), fresh.data(), kKeyBytes) != static_cast<ssize_t>(kKeyBytes) || ::fsync(fd.get()) != 0) {
      ::unlink(temp.c_str());
      key_error(path, "cannot write the cache key");
    }
  }
  const int linked = ::link(temp.c_str(), path.c_str());
  ::unlink(temp.c_str());
  if (linked != 0 && errno != EEXIST) key_error(path, "cannot create the cache key");
  if (!read_key(path, key, &why)) key_error(path, why);
  OPENSSL_cleanse(fresh.data(), fresh.size());
  return key;
}

Seal seal_of(const Key& key, const unsigned char* data, std::size_t bytes) {
  Seal seal{};
  unsigned int length = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), data, bytes, seal.data(), &length) ||
      length != kSealBytes)
    throw std::runtime_error("HMAC-SHA256 failed");
  return seal;
}

}  // namespace

std::string cache_key_path() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/sssp/cache.key";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.config/sssp/cache.key";
  return {};
}

SealedWriter::SealedWriter(const char (&magic)[8], std::uint32_t version) {
  append(magic, 8);
  put(version);
  put(std::uint32_t{0});
}

void SealedWriter::append(const void* data, std::size_t bytes) {
  if (bytes == 0) return;
  const std::size_t at = bytes_.size();
  bytes_.resize(at + bytes);
  std::memcpy(bytes_.data() + at, data, bytes);
}

void SealedWriter::pad() { bytes_.resize((bytes_.size() + 7) & ~std::size_t{7}, 0); }

void SealedWriter::write(const std::string& path) const {
  Key key = key_for_writing();
  const Seal seal = seal_of(key, bytes_.data(), bytes_.size());
  OPENSSL_cleanse(key.data(), key.size());
  graph::detail::AtomicFile out(path);
  out.write(reinterpret_cast<const char*>(bytes_.data()), bytes_.size());
  out.write(reinterpret_cast<const char*>(seal.data()), seal.size());
  out.commit();
}

SealedReader::SealedReader(const std::string& path, const char (&magic)[8], std::uint32_t version,
                           std::uint64_t max_bytes)
    : path_(path) {
  detail::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) refuse("cannot open it");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) refuse("not a regular file");
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size < kHeaderBytes + kSealBytes) refuse("truncated (" + std::to_string(size) + " bytes)");
  if (size > max_bytes + kHeaderBytes + kSealBytes) refuse("larger than any cache of this graph could be");
  bytes_.resize(size);
  std::size_t got = 0;
  while (got < size) {
    const ssize_t r = ::read(fd.get(), bytes_.data() + got, size - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) refuse("truncated while read");
    got += static_cast<std::size_t>(r);
  }
  if (std::memcmp(bytes_.data(), magic, 8) != 0) refuse("not this kind of cache");
  std::uint32_t stored = 0;
  std::memcpy(&stored, bytes_.data() + 8, 4);
  if (stored != version)
    refuse("written by another version of the format (" + std::to_string(stored) + ", this one reads " +
           std::to_string(version) + ")");
  Key key{};
  std::string why;
  const std::string key_path = cache_key_path();
  if (key_path.empty() || !read_key(key_path, key, &why)) refuse(key_path.empty() ? "no cache key" : why);
  const std::size_t body = bytes_.size() - kSealBytes;
  const Seal want = seal_of(key, bytes_.data(), body);
  OPENSSL_cleanse(key.data(), key.size());
  if (CRYPTO_memcmp(want.data(), bytes_.data() + body, kSealBytes) != 0)
    refuse("its seal does not match (edited, damaged, or written under another key)");
  bytes_.resize(body);
  at_ = kHeaderBytes;
}

void SealedReader::take(void* out, std::size_t bytes) {
  if (bytes > bytes_.size() - at_) refuse("a field runs past the end");
  std::memcpy(out, bytes_.data() + at_, bytes);
  at_ += bytes;
}

void SealedReader::skip_padding() {
  const std::size_t to = (at_ + 7) & ~std::size_t{7};
  if (to > bytes_.size()) refuse("a field runs past the end");
  at_ = to;
}

void SealedReader::expect_end() {
  if (at_ != bytes_.size()) refuse(std::to_string(bytes_.size() - at_) + " bytes follow the last field");
}

void SealedReader::refuse(const std::string& why) const {
  throw InputError(InputErrorKind::CorruptCache, path_, 0, "cache refused: " + why);
}

}  // namespace graph::io
