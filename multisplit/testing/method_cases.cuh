// One test case of the method matrix: build keys (and values) whose
// delta_buckets<>::spanning(m) ids follow a distribution, compute the CPU
// reference, and check every requested method against it.
#pragma once

#include "split_check.cuh"

namespace multisplit_test {

// Bucket counts and sizes of the test matrix.
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

// Bucket ids in runs: run keys of bucket 0, then run of bucket 1, ...,
// cycling through the m buckets (thread-private rows of keys that fall
// whole into one bucket, or straddle two, at every bucket).
inline std::vector<std::uint32_t> run_buckets(std::uint32_t n, std::uint32_t m, std::uint32_t run) {
  std::vector<std::uint32_t> ids(n);
  for (std::uint32_t i = 0; i < n; ++i) ids[i] = (i / run) % m;
  return ids;
}

// Every requested method against the CPU reference for keys (and values)
// with the given bucket ids.
template <class Value>
void check_methods_for_ids(const std::vector<std::uint32_t>& ids, std::uint32_t m, std::uint64_t seed,
                           const std::vector<multisplit::Method>& methods, const std::string& label) {
  constexpr bool kPairs = multisplit::detail::has_values<Value>();
  const auto n = static_cast<std::uint32_t>(ids.size());
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
    SCOPED_TRACE(label + " method=" + multisplit::to_string(method));
    run_and_compare(method, d_keys, d_values, m, fn, want_keys, want_values, want_offsets);
    if (::testing::Test::HasFailure()) return;  // one clear failure, not thousands
  }
}

template <class Value>
void check_methods(std::uint32_t n, std::uint32_t m, Dist dist, const std::vector<multisplit::Method>& methods) {
  const std::uint64_t seed = case_seed(n, m, dist);
  check_methods_for_ids<Value>(make_buckets(n, m, dist, seed), m, seed, methods, case_name(n, m, dist));
}

// The BMS thread-counter tile counts each thread's row of keys in one
// register up to 8 buckets (byte fields up to 4, nibbles up to 8, where a
// row of 16 keys of one bucket wraps its field): bucket counts on both
// sides of each limit, rows that fall whole into one bucket (every bucket,
// the last included) or straddle two, in whole tiles and a partial last one.
template <class Value>
void check_register_count_edges() {
  const std::vector<multisplit::Method> block = {multisplit::Method::Block};
  for (const std::uint32_t n : {2u * 4096u + 37u, 70001u})
    for (const std::uint32_t m : {2u, 4u, 5u, 8u, 9u}) {
      for (const Dist dist : {Dist::Uniform, Dist::OneBucket, Dist::Zipf}) {
        check_methods<Value>(n, m, dist, block);
        if (::testing::Test::HasFailure()) return;
      }
      for (const std::uint32_t run : {1u, 15u, 16u, 17u, 4096u}) {
        std::ostringstream label;
        label << "n=" << n << " m=" << m << " runs of " << run;
        check_methods_for_ids<Value>(run_buckets(n, m, run), m, case_seed(n, m, Dist::Uniform) + run, block,
                                     label.str());
        if (::testing::Test::HasFailure()) return;
      }
    }
}

}  // namespace multisplit_test
