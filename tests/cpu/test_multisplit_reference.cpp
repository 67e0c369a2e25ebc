// The CPU reference multisplit (the expected output of every GPU test) and
// the ready-made bucket functors on the host.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "division_cases.hpp"
#include "multisplit/buckets.hpp"
#include "multisplit/method.hpp"
#include "multisplit/reference.hpp"

namespace {

// Independent formulation: a stable sort of (bucket, index).
template <class Key, class Fn>
std::vector<Key> stable_sort_split(const std::vector<Key>& keys, std::uint32_t m, Fn fn) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  auto bucket = [&](std::size_t i) { return std::min<std::uint32_t>(fn(keys[i]), m - 1); };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bucket(a) < bucket(b); });
  std::vector<Key> out;
  for (const std::size_t i : order) out.push_back(keys[i]);
  return out;
}

TEST(MultisplitReference, MatchesStableSortAndCountsOffsets) {
  std::mt19937 rng(1);
  for (const std::uint32_t m : {1u, 2u, 3u, 7u, 32u, 33u, 257u, 4096u}) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{33}, std::size_t{10007}}) {
      std::vector<std::uint32_t> keys(n);
      for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
      const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
      std::vector<std::uint32_t> out;
      const auto offsets = multisplit::reference::split_keys(keys, out, m, fn);
      EXPECT_EQ(out, stable_sort_split(keys, m, fn)) << "m=" << m << " n=" << n;
      ASSERT_EQ(offsets.size(), m + 1u);
      EXPECT_EQ(offsets.front(), 0u);
      EXPECT_EQ(offsets.back(), n);
      for (std::uint32_t b = 0; b < m; ++b) {
        ASSERT_LE(offsets[b], offsets[b + 1]);
        for (std::uint32_t p = offsets[b]; p < offsets[b + 1]; ++p) ASSERT_EQ(fn(out[p]), b);
      }
    }
  }
}

TEST(MultisplitReference, PairsKeepValuesWithTheirKeysInInputOrder) {
  const std::vector<std::uint32_t> keys = {5, 1, 5, 0, 9, 1, 5};
  const std::vector<std::uint64_t> values = {10, 11, 12, 13, 14, 15, 16};
  std::vector<std::uint32_t> keys_out;
  std::vector<std::uint64_t> values_out;
  // bucket = key % 3: 5->2, 1->1, 0->0, 9->0
  const auto offsets = multisplit::reference::split_pairs(
      keys, keys_out, values, values_out, 3, [](std::uint32_t k) { return k % 3; });
  EXPECT_EQ(keys_out, (std::vector<std::uint32_t>{0, 9, 1, 1, 5, 5, 5}));
  EXPECT_EQ(values_out, (std::vector<std::uint64_t>{13, 14, 11, 15, 10, 12, 16}));
  EXPECT_EQ(offsets, (std::vector<std::uint32_t>{0, 2, 4, 7}));
}

TEST(MultisplitReference, ClampsBucketIdsPastTheLastBucket) {
  const std::vector<std::uint32_t> keys = {7, 0, 100, 2};
  std::vector<std::uint32_t> out;
  const auto offsets = multisplit::reference::split_keys(keys, out, 3, multisplit::identity_buckets<std::uint32_t>());
  EXPECT_EQ(out, (std::vector<std::uint32_t>{0, 7, 100, 2}));
  EXPECT_EQ(offsets, (std::vector<std::uint32_t>{0, 1, 1, 4}));
}

TEST(MultisplitReference, RejectsZeroBuckets) {
  std::vector<std::uint32_t> out;
  EXPECT_THROW(multisplit::reference::split_keys(std::vector<std::uint32_t>{1}, out, 0,
                                                 multisplit::identity_buckets<std::uint32_t>()),
               std::invalid_argument);
  std::vector<std::uint32_t> vout;
  EXPECT_THROW(multisplit::reference::split_pairs(std::vector<std::uint32_t>{1, 2}, out, std::vector<std::uint32_t>{1},
                                                  vout, 2, multisplit::identity_buckets<std::uint32_t>()),
               std::invalid_argument);
}

TEST(MultisplitFunctorsHost, DeltaSpanningCoversTheKeyRangeEvenly) {
  for (const std::uint32_t m : {1u, 2u, 3u, 7u, 100u, 256u, 4096u, 65536u}) {
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    EXPECT_EQ(fn(0u), 0u);
    EXPECT_EQ(fn(0xFFFFFFFFu), m - 1) << m;
    if (m > 1) {
      EXPECT_EQ(fn(fn.width() - 1), 0u);
      EXPECT_EQ(fn(fn.width()), 1u);
    }
  }
  // Power-of-two m: delta buckets are the top log2(m) bits.
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(256);
  EXPECT_EQ(fn(0xAB123456u), 0xABu);
}

// The delta functor divides by multiplication; it must equal true division
// for every 32-bit numerator: all divisors up to 2^12 and random and extreme
// ones beyond, against the numerators where rounding could go wrong.
TEST(MultisplitFunctorsHost, InvariantDivisionIsExact) {
  for (const division_cases::Division& c : division_cases::divisions()) {
    const multisplit::detail::InvariantDivisor div(c.divisor);
    ASSERT_EQ(div.divide(c.numerator), c.numerator / c.divisor) << c.numerator << " / " << c.divisor;
  }
}

TEST(MultisplitFunctorsHost, DeltaWithLowerBoundAndOverflowBucket) {
  const multisplit::delta_buckets<std::uint32_t> fn(100, 10, 4);
  EXPECT_EQ(fn(0u), 0u);    // below lower
  EXPECT_EQ(fn(109u), 0u);
  EXPECT_EQ(fn(110u), 1u);
  EXPECT_EQ(fn(139u), 3u);
  EXPECT_EQ(fn(1000000u), 3u);  // overflow bucket
  const multisplit::delta_buckets<float> ffn(0.f, 0.5f, 8);
  EXPECT_EQ(ffn(1.25f), 2u);
  EXPECT_EQ(ffn(-3.f), 0u);
  EXPECT_EQ(ffn(1e9f), 7u);
}

// The 32-bit delta functor folds `lower` into the divisor's 64-bit addend;
// it must equal the plain formula for any lower bound, width and bucket
// count, including lower bounds near 2^32 and widths of both magic forms.
TEST(MultisplitFunctorsHost, DeltaFoldedLowerBoundMatchesPlainFormula) {
  for (const division_cases::Delta& c : division_cases::deltas()) {
    const multisplit::delta_buckets<std::uint32_t> fn(c.lower, c.width, c.buckets);
    ASSERT_EQ(fn(c.key), division_cases::plain_delta_bucket(c))
        << "key " << c.key << ", lower " << c.lower << ", width " << c.width;
  }
}

TEST(MultisplitFunctorsHost, RangeBucketsAreUpperBounds) {
  const std::vector<std::uint32_t> splitters = {10, 20, 20, 30};
  const multisplit::range_buckets<std::uint32_t> fn(splitters.data(), 4);
  EXPECT_EQ(fn(0u), 0u);
  EXPECT_EQ(fn(9u), 0u);
  EXPECT_EQ(fn(10u), 1u);
  EXPECT_EQ(fn(19u), 1u);
  EXPECT_EQ(fn(20u), 3u);  // bucket 2 = [20, 20) is empty
  EXPECT_EQ(fn(30u), 4u);
  EXPECT_EQ(fn(0xFFFFFFFFu), 4u);
  EXPECT_EQ(fn.shared_bytes(), 16u);
}

TEST(MultisplitFunctorsHost, BitBucketsTakeADigit) {
  EXPECT_EQ(multisplit::bit_buckets<std::uint32_t>(8, 4)(0x12345678u), 0x6u);
  EXPECT_EQ(multisplit::bit_buckets<std::uint32_t>(0, 32)(0x12345678u), 0x12345678u);
  EXPECT_EQ(multisplit::bit_buckets<std::uint64_t>(40, 8)(0xAB0000000000ull), 0xABu);
}

TEST(MultisplitMethod, NamesRoundTrip) {
  for (const auto m : {multisplit::Method::Auto, multisplit::Method::Direct, multisplit::Method::Warp,
                       multisplit::Method::Block, multisplit::Method::SortBased, multisplit::Method::SmallN})
    EXPECT_EQ(multisplit::parse_method(multisplit::to_string(m)), m);
  EXPECT_EQ(multisplit::parse_method("bms"), multisplit::Method::Block);
  EXPECT_EQ(multisplit::to_string(multisplit::Method::SmallN), std::string("small-n"));
  EXPECT_THROW(multisplit::parse_method("quick"), std::invalid_argument);
}

}  // namespace
