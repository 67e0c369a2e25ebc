// CPU references of the primitives built on multisplit (plain C++, no CUDA):
// what multisplit::histogram and multisplit::reduce_by_bucket must return.
// Bucket ids come from reference::bucket_ids, so out-of-range ids are
// clamped to num_buckets - 1 exactly as on the device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "reference.hpp"

namespace multisplit {
namespace reference {

// counts[b] = number of keys in bucket b (num_buckets entries).
template <class Key, class BucketFn>
std::vector<std::uint32_t> histogram(const Key* keys, std::size_t n, std::uint32_t num_buckets, BucketFn bucket_of) {
  const std::vector<std::uint32_t> ids = bucket_ids(keys, n, num_buckets, bucket_of);
  std::vector<std::uint32_t> counts(num_buckets, 0);
  for (const std::uint32_t b : ids) ++counts[b];
  return counts;
}

template <class Value>
struct BucketReduction {
  std::vector<Value> values;          // identity folded with the bucket's values, in input order
  std::vector<std::uint32_t> counts;  // pairs per bucket
};

// Sequential left fold per bucket, in input order. For a commutative and
// associative op (and exact arithmetic: integers, or floats whose partial
// sums are all exactly representable) any order gives the same result.
template <class Key, class Value, class BucketFn, class Op>
BucketReduction<Value> reduce_by_bucket(const Key* keys, const Value* values, std::size_t n, std::uint32_t num_buckets,
                                        BucketFn bucket_of, Op op, Value identity) {
  const std::vector<std::uint32_t> ids = bucket_ids(keys, n, num_buckets, bucket_of);
  BucketReduction<Value> out;
  out.values.assign(num_buckets, identity);
  out.counts.assign(num_buckets, 0);
  for (std::size_t i = 0; i < n; ++i) {
    out.values[ids[i]] = op(out.values[ids[i]], values[i]);
    ++out.counts[ids[i]];
  }
  return out;
}

template <class Key, class Value, class BucketFn, class Op>
BucketReduction<Value> reduce_by_bucket(const std::vector<Key>& keys, const std::vector<Value>& values,
                                        std::uint32_t num_buckets, BucketFn bucket_of, Op op, Value identity) {
  if (keys.size() != values.size())
    throw std::invalid_argument("multisplit::reference::reduce_by_bucket: keys and values differ in length");
  return reduce_by_bucket(keys.data(), values.data(), keys.size(), num_buckets, bucket_of, op, identity);
}

}  // namespace reference
}  // namespace multisplit
