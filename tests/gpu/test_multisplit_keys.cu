// Key-only multisplit, every method against the CPU reference (the
// matrix): sizes 0 .. 2^24, bucket counts 1 .. 4096 (powers of two and not),
// uniform / one-bucket / zipf / binomial bucket distributions. Output keys
// and offsets must match exactly, which checks stability too.
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/method_cases.cuh"

namespace {

using multisplit_test::Dist;

class MultisplitKeys : public ::testing::TestWithParam<Dist> {};

TEST_P(MultisplitKeys, SmallSizesEveryBucketCount) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t n : multisplit_test::small_sizes())
    for (const std::uint32_t m : multisplit_test::bucket_counts()) {
      multisplit_test::check_methods<multisplit::detail::NullValue>(n, m, GetParam(), multisplit_test::all_methods());
      if (HasFailure()) return;
    }
}

TEST_P(MultisplitKeys, MillionPlusSevenEveryBucketCount) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t m : multisplit_test::bucket_counts()) {
    multisplit_test::check_methods<multisplit::detail::NullValue>((1u << 20) + 7, m, GetParam(),
                                                                  multisplit_test::all_methods());
    if (HasFailure()) return;
  }
}

TEST_P(MultisplitKeys, SixteenMillion) {
  SKIP_IF_NO_GPU();
  // Every bucket count for uniform keys; a spread of them for the skewed ones
  // (keeps the suite within its time budget).
  const std::vector<std::uint32_t> few = {2, 33, 257, 4096};
  const auto& ms = GetParam() == Dist::Uniform ? multisplit_test::bucket_counts() : few;
  for (const std::uint32_t m : ms) {
    multisplit_test::check_methods<multisplit::detail::NullValue>(1u << 24, m, GetParam(),
                                                                  multisplit_test::all_methods());
    if (HasFailure()) return;
  }
}

// Small enough to run under compute-sanitizer (memcheck, racecheck): every
// method, sizes around tiles and across several chunks, and bucket counts on
// both sides of each code path (32 | 33: register counters vs shared-memory
// counters and BMS peer masks, 64 | 65 and 128 | 129: BMS whole-tile path
// for pairs and keys, 256 | 257: past 8 ballot bits and BMS stores marked
// evict_last, 511 | 512: the interleaved pre-scan's groups of 8 and 16
// tiles, 4096: past the warp/block limits).
TEST(MultisplitKeysCompact, EveryCodePath) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t n : {33u, 4097u, 70001u})
    for (const std::uint32_t m : {3u, 32u, 33u, 64u, 65u, 128u, 129u, 256u, 257u, 511u, 512u, 4096u}) {
      multisplit_test::check_methods<multisplit::detail::NullValue>(n, m, Dist::Zipf, multisplit_test::all_methods());
      if (HasFailure()) return;
    }
}

// Up to 8 buckets the thread-counter tile counts in a register (fields
// that wrap when a row of 16 keys shares one bucket): both sides of each
// limit, rows of one bucket at every bucket. Compact enough for the sanitizers.
TEST(MultisplitKeysCompact, RegisterCounterEdges) {
  SKIP_IF_NO_GPU();
  multisplit_test::check_register_count_edges<multisplit::detail::NullValue>();
}

INSTANTIATE_TEST_SUITE_P(Distributions, MultisplitKeys,
                         ::testing::Values(Dist::Uniform, Dist::OneBucket, Dist::Zipf, Dist::Binomial),
                         [](const ::testing::TestParamInfo<Dist>& info) {
                           std::string name = multisplit_test::to_string(info.param);
                           name.erase(std::remove(name.begin(), name.end(), '-'), name.end());
                           return name;
                         });

}  // namespace
