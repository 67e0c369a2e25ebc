// CPU references of the multisplit primitives (reference_primitives.hpp)
// against independent formulations, and the float even-width functor on
// the host (the GPU tests trust both).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include "multisplit/buckets.hpp"
#include "multisplit/detail/histogram_buckets.cuh"
#include "multisplit/reference.hpp"
#include "multisplit/reference_primitives.hpp"

namespace {

struct Sum {
  template <class T>
  T operator()(T a, T b) const {
    return a + b;
  }
};
struct Min {
  template <class T>
  T operator()(T a, T b) const {
    return std::min(a, b);
  }
};

TEST(PrimitivesReference, HistogramEqualsBucketSizesOfTheSplit) {
  std::mt19937 rng(1);
  for (const std::uint32_t m : {1u, 2u, 3u, 33u, 257u, 4096u}) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{65537}}) {
      std::vector<std::uint32_t> keys(n);
      for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
      const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
      const std::vector<std::uint32_t> counts = multisplit::reference::histogram(keys.data(), n, m, fn);
      ASSERT_EQ(counts.size(), m);
      std::vector<std::uint32_t> out;
      const std::vector<std::uint32_t> offsets = multisplit::reference::split_keys(keys, out, m, fn);
      for (std::uint32_t b = 0; b < m; ++b) {
        EXPECT_EQ(counts[b], offsets[b + 1] - offsets[b]) << "m=" << m << " n=" << n << " b=" << b;
        // And by brute force, bucket by bucket, for small m.
        if (m <= 33) {
          const auto brute = std::count_if(keys.begin(), keys.end(), [&](std::uint32_t k) { return fn(k) == b; });
          EXPECT_EQ(counts[b], static_cast<std::uint32_t>(brute));
        }
      }
    }
  }
}

TEST(PrimitivesReference, HistogramClampsOutOfRangeIds) {
  const std::vector<std::uint32_t> keys = {0, 1, 2, 3, 4, 5, 100, 7, 2};
  const std::vector<std::uint32_t> counts =
      multisplit::reference::histogram(keys.data(), keys.size(), 4, multisplit::identity_buckets<std::uint32_t>());
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{1, 1, 2, 5}));
  EXPECT_THROW(
      multisplit::reference::histogram(keys.data(), keys.size(), 0, multisplit::identity_buckets<std::uint32_t>()),
      std::invalid_argument);
}

TEST(PrimitivesReference, ReduceByBucketEqualsGroupingWithAMap) {
  std::mt19937 rng(2);
  for (const std::uint32_t m : {1u, 7u, 100u, 1024u}) {
    const std::size_t n = 20011;
    std::vector<std::uint32_t> keys(n), values(n);
    for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
    for (auto& v : values) v = static_cast<std::uint32_t>(rng());
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    std::map<std::uint32_t, std::vector<std::uint32_t>> groups;
    for (std::size_t i = 0; i < n; ++i) groups[fn(keys[i])].push_back(values[i]);
    const auto sums = multisplit::reference::reduce_by_bucket(keys, values, m, fn, Sum{}, 0u);
    const auto mins = multisplit::reference::reduce_by_bucket(keys, values, m, fn, Min{}, 0xFFFFFFFFu);
    for (std::uint32_t b = 0; b < m; ++b) {
      const auto it = groups.find(b);
      const std::vector<std::uint32_t> none;
      const std::vector<std::uint32_t>& g = it == groups.end() ? none : it->second;
      std::uint32_t sum = 0;
      for (const std::uint32_t v : g) sum += v;
      EXPECT_EQ(sums.values[b], sum) << "m=" << m << " b=" << b;
      EXPECT_EQ(sums.counts[b], g.size());
      EXPECT_EQ(mins.values[b], g.empty() ? 0xFFFFFFFFu : *std::min_element(g.begin(), g.end()));
      EXPECT_EQ(mins.counts, sums.counts);
    }
  }
  const std::vector<std::uint32_t> keys(3, 0), values(2, 0);
  EXPECT_THROW(multisplit::reference::reduce_by_bucket(keys, values, 4, multisplit::identity_buckets<std::uint32_t>(),
                                                       Sum{}, 0u),
               std::invalid_argument);
}

TEST(PrimitivesReference, ReduceByBucketOfEmptyInputIsIdentity) {
  const std::vector<float> keys, values;
  const auto r = multisplit::reference::reduce_by_bucket(keys, values, 5, multisplit::even_buckets<float>(0.f, 1.f, 5),
                                                         Min{}, std::numeric_limits<float>::infinity());
  EXPECT_EQ(r.values, std::vector<float>(5, std::numeric_limits<float>::infinity()));
  EXPECT_EQ(r.counts, std::vector<std::uint32_t>(5, 0u));
}

// even_buckets follows cub::DeviceHistogram::HistogramEven's formula,
// (key - lower) * (m / (upper - lower)) truncated, and clamps the rest.
TEST(EvenBuckets, FollowsCubFormulaAndClampsOutOfRange) {
  const multisplit::even_buckets<float> fn(0.f, 1024.f, 256);
  EXPECT_EQ(fn(0.f), 0u);
  EXPECT_EQ(fn(3.999f), 0u);
  EXPECT_EQ(fn(4.f), 1u);
  EXPECT_EQ(fn(1023.99f), 255u);
  EXPECT_EQ(fn(1024.f), 255u);
  EXPECT_EQ(fn(-0.5f), 0u);
  EXPECT_EQ(fn(std::numeric_limits<float>::quiet_NaN()), 0u);
  EXPECT_EQ(fn(std::numeric_limits<float>::infinity()), 255u);
  EXPECT_EQ(fn(-std::numeric_limits<float>::infinity()), 0u);
  EXPECT_EQ(fn(3e38f), 255u);
  std::mt19937 rng(3);
  for (const std::uint32_t m : {1u, 3u, 10u, 100u, 256u}) {
    const float lower = -7.5f, upper = 1000.25f;
    const multisplit::even_buckets<float> even(lower, upper, m);
    const float scale = static_cast<float>(m) / (upper - lower);
    std::uint32_t previous = 0;
    std::vector<float> keys(10000);
    for (auto& k : keys) k = std::uniform_real_distribution<float>(lower, upper)(rng);
    std::sort(keys.begin(), keys.end());
    for (const float k : keys) {
      const auto cub_bin = static_cast<std::uint32_t>((k - lower) * scale);
      EXPECT_EQ(even(k), std::min(cub_bin, m - 1)) << "m=" << m << " key=" << k;
      EXPECT_GE(even(k), previous);  // monotone in the key
      previous = even(k);
    }
  }
  const multisplit::even_buckets<double> wide(0.0, 1.0, 10);
  EXPECT_EQ(wide(0.35), 3u);
  EXPECT_EQ(wide(0.999999), 9u);
}

}  // namespace
