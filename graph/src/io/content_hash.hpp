// Internal to graph/src/io: the 64-bit content hash behind the binary
// cache's checksum and its record of the source file's bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "graph/weights.hpp"  // splitmix64

namespace graph::io::detail {

// 64-bit FNV-1a over 8-byte words in four independent lanes (so the
// multiplies overlap), then the lanes and the length are mixed with
// SplitMix64. Each step (h ^ word) * prime is a bijection of h for a given
// word, so any single changed word always changes the result. Input may
// arrive in pieces of any size; the result depends only on the byte stream.
class Checksum {
 public:
  void update(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    total_ += n;
    if (pending_ > 0) {
      const std::size_t take = std::min(n, sizeof(buffer_) - pending_);
      std::memcpy(buffer_ + pending_, p, take);
      pending_ += take;
      p += take;
      n -= take;
      if (pending_ < sizeof(buffer_)) return;
      block(buffer_);
      pending_ = 0;
    }
    while (n >= sizeof(buffer_)) {
      block(p);
      p += sizeof(buffer_);
      n -= sizeof(buffer_);
    }
    std::memcpy(buffer_, p, n);
    pending_ = n;
  }

  std::uint64_t digest() const {
    std::uint64_t lanes[4] = {lane_[0], lane_[1], lane_[2], lane_[3]};
    for (std::size_t i = 0; i < pending_; ++i) lanes[i % 4] = (lanes[i % 4] ^ buffer_[i]) * kPrime;
    std::uint64_t h = splitmix64(total_);
    for (std::uint64_t lane : lanes) h = splitmix64(h ^ lane);
    return h;
  }

 private:
  static constexpr std::uint64_t kPrime = 0x100000001b3ull;
  void block(const unsigned char* p) {
    std::uint64_t w[4];
    std::memcpy(w, p, sizeof(w));
    for (int i = 0; i < 4; ++i) lane_[i] = (lane_[i] ^ w[i]) * kPrime;
  }
  std::uint64_t lane_[4] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull, 0x9E3779B97F4A7C15ull,
                            0xC2B2AE3D27D4EB4Full};
  unsigned char buffer_[32] = {};
  std::size_t pending_ = 0;
  std::uint64_t total_ = 0;
};

// One pass over n bytes.
std::uint64_t hash_bytes(const void* data, std::size_t n);

// An array is hashed in 1 MiB blocks, in parallel, and the block digests
// are chained in order: the result does not depend on the thread count.
std::uint64_t hash_array(const void* data, std::size_t bytes);

}  // namespace graph::io::detail
