// CPU reference multisplit: a stable counting sort by bucket id. It defines
// the exact expected output of every GPU method (tests compare bit for bit)
// and runs in plain C++ (no CUDA needed).
//
// Semantics shared with the GPU library: bucket ids at or above num_buckets
// are clamped to num_buckets - 1; items of one bucket keep their input order;
// offsets has num_buckets + 1 entries, offsets[b] is where bucket b starts in
// the output and offsets[num_buckets] == n.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace multisplit {
namespace reference {

template <class Key, class BucketFn>
std::vector<std::uint32_t> bucket_ids(const Key* keys, std::size_t n, std::uint32_t num_buckets,
                                      BucketFn bucket_of) {
  if (num_buckets == 0) throw std::invalid_argument("multisplit::reference: num_buckets must be >= 1");
  std::vector<std::uint32_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t b = bucket_of(keys[i]);
    ids[i] = b < num_buckets ? b : num_buckets - 1;
  }
  return ids;
}

// Exclusive prefix sums of the bucket sizes, num_buckets + 1 entries.
inline std::vector<std::uint32_t> bucket_offsets(const std::vector<std::uint32_t>& ids,
                                                 std::uint32_t num_buckets) {
  std::vector<std::uint32_t> offsets(static_cast<std::size_t>(num_buckets) + 1, 0);
  for (const std::uint32_t b : ids) ++offsets[static_cast<std::size_t>(b) + 1];
  for (std::size_t b = 0; b < num_buckets; ++b) offsets[b + 1] += offsets[b];
  return offsets;
}

// Stable multisplit of keys. keys_out must hold n keys. Returns the offsets.
template <class Key, class BucketFn>
std::vector<std::uint32_t> split_keys(const Key* keys_in, Key* keys_out, std::size_t n,
                                      std::uint32_t num_buckets, BucketFn bucket_of) {
  const std::vector<std::uint32_t> ids = bucket_ids(keys_in, n, num_buckets, bucket_of);
  std::vector<std::uint32_t> offsets = bucket_offsets(ids, num_buckets);
  std::vector<std::uint32_t> next(offsets.begin(), offsets.end() - 1);
  for (std::size_t i = 0; i < n; ++i) keys_out[next[ids[i]]++] = keys_in[i];
  return offsets;
}

// Stable multisplit of key-value pairs (values follow their keys).
template <class Key, class Value, class BucketFn>
std::vector<std::uint32_t> split_pairs(const Key* keys_in, Key* keys_out, const Value* values_in,
                                       Value* values_out, std::size_t n, std::uint32_t num_buckets,
                                       BucketFn bucket_of) {
  const std::vector<std::uint32_t> ids = bucket_ids(keys_in, n, num_buckets, bucket_of);
  std::vector<std::uint32_t> offsets = bucket_offsets(ids, num_buckets);
  std::vector<std::uint32_t> next(offsets.begin(), offsets.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t pos = next[ids[i]]++;
    keys_out[pos] = keys_in[i];
    values_out[pos] = values_in[i];
  }
  return offsets;
}

// std::vector conveniences.
template <class Key, class BucketFn>
std::vector<std::uint32_t> split_keys(const std::vector<Key>& keys_in, std::vector<Key>& keys_out,
                                      std::uint32_t num_buckets, BucketFn bucket_of) {
  keys_out.resize(keys_in.size());
  return split_keys(keys_in.data(), keys_out.data(), keys_in.size(), num_buckets, bucket_of);
}

template <class Key, class Value, class BucketFn>
std::vector<std::uint32_t> split_pairs(const std::vector<Key>& keys_in, std::vector<Key>& keys_out,
                                       const std::vector<Value>& values_in, std::vector<Value>& values_out,
                                       std::uint32_t num_buckets, BucketFn bucket_of) {
  if (values_in.size() != keys_in.size())
    throw std::invalid_argument("multisplit::reference::split_pairs: keys and values differ in length");
  keys_out.resize(keys_in.size());
  values_out.resize(values_in.size());
  return split_pairs(keys_in.data(), keys_out.data(), values_in.data(), values_out.data(), keys_in.size(),
                     num_buckets, bucket_of);
}

}  // namespace reference
}  // namespace multisplit
