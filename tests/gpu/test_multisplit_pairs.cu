// Key-value multisplit (4-byte keys with 4- and 8-byte values), every method
// against the CPU reference: keys, values and offsets must match exactly.
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/method_cases.cuh"

#include <numeric>

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

// 4-byte pairs rank in a wide BMS tile from 176 buckets when the input has
// at least two 10240-pair tiles per SM (3000017 pairs do on up to 146 SMs:
// H100, H200): 512 threads where its shared memory fits (361 buckets on an
// H200), else 384 (480 and 900), else the 256-thread tile (1024). Block
// only, so that it stays fast enough for the sanitizers.
TEST(MultisplitPairsCompact, WidePairTile) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t m : {175u, 176u, 361u, 480u, 900u, 1024u}) {
    multisplit_test::check_methods<std::uint32_t>(3000017u, m, Dist::Zipf, {multisplit::Method::Block});
    if (HasFailure()) return;
  }
}

// The size queried for n serves every smaller n (multisplit.cuh), also
// where the wide pair tiles start (they have fewer count-matrix columns):
// sizes never shrink as n grows across that point (512- and 384-thread
// tiles), and a split just below it runs in the size queried for a larger n.
TEST(MultisplitPairsTemp, SizeServesSmallerNAcrossTileWidths) {
  SKIP_IF_NO_GPU();
  using P = multisplit::detail::Policies<std::uint32_t, std::uint32_t>;
  int sms = 0;
  MS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::uint32_t wide_from = P::kWideTileMinTilesPerSm * static_cast<std::uint32_t>(sms) *
                                  static_cast<std::uint32_t>(P::kBlockWideThreads) * P::kBlockSplitItems;
  for (const std::uint32_t m : {176u, 256u, 361u, 600u}) {
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    auto size_for = [&](std::uint32_t n) {
      std::size_t bytes = 0;
      const cudaError_t err = multisplit::split_pairs(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                                      static_cast<std::uint32_t*>(nullptr),
                                                      static_cast<const std::uint32_t*>(nullptr),
                                                      static_cast<std::uint32_t*>(nullptr), n, m, fn, nullptr);
      EXPECT_EQ(err, cudaSuccess) << cudaGetErrorString(err);
      return bytes;
    };
    std::size_t previous = 0;
    for (std::uint32_t n = wide_from - 3 * 5120; n <= wide_from + 3 * 10240; n += 1021) {
      const std::size_t bytes = size_for(n);
      EXPECT_GE(bytes, previous) << "m=" << m << " n=" << n;
      previous = bytes;
    }
    EXPECT_GE(size_for(wide_from), size_for(wide_from - 1)) << "m=" << m;
  }
  // A split just below the switch, in the temporary size asked for at it.
  const std::uint32_t m = 256, n = wide_from - 1;
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  const std::vector<std::uint32_t> keys = multisplit_test::random_values<std::uint32_t>(n, 12345);
  std::vector<std::uint32_t> values(n), want_keys(n), want_values(n);
  std::iota(values.begin(), values.end(), 0u);
  const auto want_offsets =
      multisplit::reference::split_pairs(keys.data(), want_keys.data(), values.data(), want_values.data(), n, m, fn);
  multisplit_test::DeviceArray<std::uint32_t> d_keys(n), d_values(n), d_keys_out(n), d_values_out(n), d_offsets(m + 1);
  d_keys.upload(keys);
  d_values.upload(values);
  d_keys_out.poison();
  d_values_out.poison();
  std::size_t bytes = 0;
  MS_CUDA_CHECK(multisplit::split_pairs(nullptr, bytes, d_keys.get(), d_keys_out.get(), d_values.get(),
                                        d_values_out.get(), wide_from, m, fn, d_offsets.get()));
  multisplit_test::DeviceArray<unsigned char> temp(bytes);
  temp.poison();
  MS_CUDA_CHECK(multisplit::split_pairs(temp.get(), bytes, d_keys.get(), d_keys_out.get(), d_values.get(),
                                        d_values_out.get(), n, m, fn, d_offsets.get()));
  MS_CUDA_CHECK(cudaDeviceSynchronize());
  multisplit_test::expect_equal(d_offsets.download(), want_offsets, "bucket offsets");
  multisplit_test::expect_equal(d_keys_out.download(), want_keys, "keys");
  multisplit_test::expect_equal(d_values_out.download(), want_values, "values");
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
