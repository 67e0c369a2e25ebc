// Cases for the bucket functors' division by multiplication
// (multisplit::detail::InvariantDivisor, delta_buckets), shared by the CPU
// test and the GPU test, which runs the same cases through the device code
// (inline PTX there, plain C++ on the host).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace division_cases {

struct Division {
  std::uint32_t divisor, numerator;
};

// Divisors 1..4096, random ones of every size, ones with the top bit set and
// a few special values; for each, numerators at the ends of the range,
// random ones, and multiples of the divisor with their neighbours (where
// the quotient changes).
inline std::vector<Division> divisions() {
  std::mt19937_64 rng(7);
  std::vector<std::uint32_t> divisors;
  for (std::uint32_t d = 1; d <= 4096; ++d) divisors.push_back(d);
  for (int i = 0; i < 4000; ++i) divisors.push_back(static_cast<std::uint32_t>(rng() >> (rng() % 32)) | 1u);
  for (int i = 0; i < 2000; ++i) divisors.push_back(static_cast<std::uint32_t>(rng()) | 0x80000000u);
  for (const std::uint32_t d : {0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu, 641u, 6700417u})
    divisors.push_back(d);
  std::vector<Division> out;
  for (const std::uint32_t d : divisors) {
    for (const std::uint32_t x : {0u, 1u, d - 1, d, 0xFFFFFFFFu, 0xFFFFFFFEu, 0x80000000u, 0x7FFFFFFFu})
      out.push_back({d, x});
    for (int i = 0; i < 64; ++i) out.push_back({d, static_cast<std::uint32_t>(rng())});
    for (int i = 0; i < 32; ++i) {
      const std::uint64_t q = rng() % (0xFFFFFFFFull / d + 1);
      const std::uint64_t x = q * d;
      out.push_back({d, static_cast<std::uint32_t>(x)});
      if (x > 0) out.push_back({d, static_cast<std::uint32_t>(x - 1)});
      if (x + d - 1 <= 0xFFFFFFFFull) out.push_back({d, static_cast<std::uint32_t>(x + d - 1)});
    }
  }
  return out;
}

struct Delta {
  std::uint32_t lower, width, buckets, key;
};

// delta_buckets(lower, width, buckets) at keys around the lower bound, the
// ends of the range and bucket edges, including lower bounds near 2^32 and
// widths of both magic forms (the lower bound folds into the 64-bit addend).
inline std::vector<Delta> deltas() {
  std::mt19937_64 rng(11);
  struct Case {
    std::uint32_t lower, width, buckets;
  };
  std::vector<Case> cases = {{0, 1, 1},          {0, 1, 0xFFFFFFFFu}, {5, 1, 1000},       {100, 10, 4},
                             {1000, 37, 10},     {1000, 7, 1u << 30}, {0xFFFFFF00u, 7, 64}, {0xFFFFFFFFu, 3, 5},
                             {0x80000000u, 0x7FFFFFFFu, 3},           {1, 0xFFFFFFFFu, 2}, {12345, 1u << 20, 4096}};
  for (int i = 0; i < 300; ++i)
    cases.push_back({static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng() >> (rng() % 33)) | 1u,
                     1u + static_cast<std::uint32_t>(rng() % 5000)});
  std::vector<Delta> out;
  for (const Case& c : cases) {
    for (const std::uint32_t key : {0u, 1u, c.lower, c.lower - 1, c.lower + 1, 0xFFFFFFFFu, 0xFFFFFFFEu})
      out.push_back({c.lower, c.width, c.buckets, key});
    for (int i = 0; i < 64; ++i) {
      out.push_back({c.lower, c.width, c.buckets, static_cast<std::uint32_t>(rng())});
      // Bucket edges: lower + q * width and one before.
      const std::uint64_t edge = c.lower + (rng() % (0x100000000ull / c.width + 1)) * c.width;
      if (edge <= 0xFFFFFFFFull) {
        out.push_back({c.lower, c.width, c.buckets, static_cast<std::uint32_t>(edge)});
        out.push_back({c.lower, c.width, c.buckets, static_cast<std::uint32_t>(edge - 1)});
      }
    }
  }
  return out;
}

// The bucket by the definition: below `lower` bucket 0, past the last
// bucket the last.
inline std::uint32_t plain_delta_bucket(const Delta& c) {
  if (c.key < c.lower) return 0;
  const std::uint32_t q = (c.key - c.lower) / c.width;
  return q >= c.buckets - 1 ? c.buckets - 1 : q;
}

}  // namespace division_cases
