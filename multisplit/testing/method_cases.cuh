// One test case of the method matrix: build keys (and values) whose
// delta_buckets<>::spanning(m) ids follow a distribution, compute the CPU
// reference, and check every requested method against it.
#pragma once

#include "split_check.cuh"

namespace multisplit_test {

// Bucket counts and sizes of issue 3's test matrix.
inline const std::vector<std::uint32_t>& bucket_counts() {
  static const std::vector<std::uint32_t> m = {1, 2, 3, 7, 32, 33, 100, 256, 257, 361, 1024, 4096};
  return m;
}
// 0, 1, a warp +/- 1, and every tile size of the methods +/- 1 (256 and 512:
// DMS/WMS warp tiles, 2048 and 4096: BMS block tiles, for wide and narrow
// items, 5120: the warp-ranked BMS tile of 4-byte pairs), plus a size
// spanning many chunks.
inline const std::vector<std::uint32_t>& small_sizes() {
  static const std::vector<std::uint32_t> n = {0,    1,    31,   32,   33,   255,  256,  257,  511,  512,  513,  2047,
                                               2048, 2049, 4095, 4096, 4097, 5119, 5120, 5121, 8193, 100003};
  return n;
}

inline std::uint64_t case_seed(std::uint32_t n, std::uint32_t m, Dist dist) {
  return (static_cast<std::uint64_t>(n) * 1000003u + m) * 17u + static_cast<std::uint64_t>(dist);
}

template <class Value>
void check_methods(std::uint32_t n, std::uint32_t m, Dist dist, const std::vector<multisplit::Method>& methods) {
  constexpr bool kPairs = multisplit::detail::has_values<Value>();
  const std::uint64_t seed = case_seed(n, m, dist);
  const std::vector<std::uint32_t> ids = make_buckets(n, m, dist, seed);
  const std::vector<std::uint32_t> keys = keys_for_buckets(ids, m, seed);
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  ASSERT_EQ(multisplit::reference::bucket_ids(keys.data(), keys.size(), m, fn), ids) << "test generator broken";

  std::vector<Value> values, want_values;
  std::vector<std::uint32_t> want_keys(n);
  std::vector<std::uint32_t> want_offsets;
  if constexpr (kPairs) {
    values = random_values<Value>(n, seed);
    want_values.resize(n);
    want_offsets = multisplit::reference::split_pairs(keys.data(), want_keys.data(), values.data(),
                                                      want_values.data(), n, m, fn);
  } else {
    want_offsets = multisplit::reference::split_keys(keys.data(), want_keys.data(), n, m, fn);
  }
  DeviceArray<std::uint32_t> d_keys(n);
  DeviceArray<Value> d_values(kPairs ? n : 0);
  d_keys.upload(keys);
  if constexpr (kPairs) d_values.upload(values);
  for (const multisplit::Method method : methods) {
    SCOPED_TRACE(case_name(n, m, dist, method));
    run_and_compare(method, d_keys, d_values, m, fn, want_keys, want_values, want_offsets);
    if (::testing::Test::HasFailure()) return;  // one clear failure, not thousands
  }
}

}  // namespace multisplit_test
