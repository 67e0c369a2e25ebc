#include "content_hash.hpp"

#include <omp.h>

#include <algorithm>
#include <vector>

namespace graph::io::detail {

std::uint64_t hash_bytes(const void* data, std::size_t n) {
  Checksum sum;
  sum.update(data, n);
  return sum.digest();
}

std::uint64_t hash_array(const void* data, std::size_t bytes) {
  constexpr std::size_t kBlock = 1u << 20;
  const auto* p = static_cast<const unsigned char*>(data);
  const std::size_t blocks = (bytes + kBlock - 1) / kBlock;
  std::vector<std::uint64_t> digests(blocks);
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < static_cast<std::int64_t>(blocks); ++b) {
    const std::size_t at = static_cast<std::size_t>(b) * kBlock;
    digests[static_cast<std::size_t>(b)] = hash_bytes(p + at, std::min(kBlock, bytes - at));
  }
  std::uint64_t h = splitmix64(bytes);
  for (std::uint64_t d : digests) h = splitmix64(h ^ d);
  return h;
}

}  // namespace graph::io::detail
