// Key-value multisplit (4-byte keys with 4- and 8-byte values), every method
// against the CPU reference: keys, values and offsets must match exactly.
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/method_cases.cuh"

namespace {

using multisplit_test::Dist;

class MultisplitPairs : public ::testing::TestWithParam<Dist> {};

TEST_P(MultisplitPairs, SmallSizesEveryBucketCount32BitValues) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t n : multisplit_test::small_sizes())
    for (const std::uint32_t m : multisplit_test::bucket_counts()) {
      multisplit_test::check_methods<std::uint32_t>(n, m, GetParam(), multisplit_test::all_methods());
      if (HasFailure()) return;
    }
}

TEST_P(MultisplitPairs, SmallSizesEveryBucketCount64BitValues) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t n : multisplit_test::small_sizes())
    for (const std::uint32_t m : multisplit_test::bucket_counts()) {
      multisplit_test::check_methods<std::uint64_t>(n, m, GetParam(), multisplit_test::all_methods());
      if (HasFailure()) return;
    }
}

TEST_P(MultisplitPairs, MillionPlusSevenEveryBucketCount) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t m : multisplit_test::bucket_counts()) {
    multisplit_test::check_methods<std::uint32_t>((1u << 20) + 7, m, GetParam(), multisplit_test::all_methods());
    if (HasFailure()) return;
    multisplit_test::check_methods<std::uint64_t>((1u << 20) + 7, m, GetParam(), multisplit_test::all_methods());
    if (HasFailure()) return;
  }
}

TEST_P(MultisplitPairs, SixteenMillion) {
  SKIP_IF_NO_GPU();
  const std::vector<std::uint32_t> few = {2, 33, 257, 4096};
  for (const std::uint32_t m : few) {
    multisplit_test::check_methods<std::uint32_t>(1u << 24, m, GetParam(), multisplit_test::all_methods());
    if (HasFailure()) return;
    multisplit_test::check_methods<std::uint64_t>(1u << 24, m, GetParam(), multisplit_test::all_methods());
    if (HasFailure()) return;
  }
}

// Small enough to run under compute-sanitizer (memcheck, racecheck): every
// method, sizes around tiles and across several chunks, and bucket counts on
// both sides of each code path (32 | 33: register counters vs shared-memory
// counters and BMS peer masks, 64 | 65 and 128 | 129: BMS whole-tile path
// for pairs and keys, 256 | 257: past 8 ballot bits and BMS stores marked
// evict_last, 511 | 512: pairs' whole tiles in a kernel of their own, the
// last tile in a launch of its own and the interleaved pre-scan's groups of
// 8 and 16 tiles, 4096: past the warp/block limits).
TEST(MultisplitPairsCompact, EveryCodePath) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t n : {33u, 4097u, 70001u})
    for (const std::uint32_t m : {3u, 32u, 33u, 64u, 65u, 128u, 129u, 256u, 257u, 511u, 512u, 4096u}) {
      multisplit_test::check_methods<std::uint64_t>(n, m, Dist::Zipf, multisplit_test::all_methods());
      if (HasFailure()) return;
    }
}

// Up to 8 buckets the thread-counter tile counts in a register (fields
// that wrap when a row of 16 keys shares one bucket): both sides of each
// limit, rows of one bucket at every bucket. Compact enough for the sanitizers.
TEST(MultisplitPairsCompact, RegisterCounterEdges) {
  SKIP_IF_NO_GPU();
  multisplit_test::check_register_count_edges<std::uint32_t>();  // 16 pairs per thread
  if (HasFailure()) return;
  multisplit_test::check_register_count_edges<std::uint64_t>();  // 8 (12-byte pairs)
}

INSTANTIATE_TEST_SUITE_P(Distributions, MultisplitPairs,
                         ::testing::Values(Dist::Uniform, Dist::OneBucket, Dist::Zipf, Dist::Binomial),
                         [](const ::testing::TestParamInfo<Dist>& info) {
                           std::string name = multisplit_test::to_string(info.param);
                           name.erase(std::remove(name.begin(), name.end(), '-'), name.end());
                           return name;
                         });

}  // namespace
