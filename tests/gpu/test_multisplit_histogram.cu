// multisplit::histogram against the CPU reference (reference_primitives.hpp):
// sizes around every tile boundary, bucket counts on both sides of every
// path change (32: lane registers -> tables; 256 -> 257; 1024; block-table
// and global-atomic paths), uniform / one-bucket / zipf buckets, every
// ready-made functor (even float, range with splitters in shared memory,
// identity, bit, 64-bit delta), both counting tunings, bad arguments, empty
// input, own stream and CUDA-graph capture, unaligned input, and
// n = 2^31 - 1 checked against a closed form. Outputs are poisoned first.
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/split_check.cuh"
#include "multisplit/histogram.cuh"
#include "multisplit/reference_primitives.hpp"

#include <limits>

namespace {

using multisplit_test::DeviceArray;
using multisplit_test::Dist;
using Tuning = multisplit::detail::HistogramTuning;

const std::vector<std::uint32_t> kBuckets = {1, 2, 3, 7, 32, 33, 100, 256, 257, 1024};
// 0, 1, a warp +/- 1, a warp sub-tile (16 x 32) +/- 1, a block tile (4096) +/- 1, many tiles.
const std::vector<std::uint32_t> kSizes = {0, 1, 31, 32, 33, 511, 512, 513, 4095, 4096, 4097, (1u << 20) + 7};

// Runs the histogram with poisoned counts and temp; returns the counts.
template <class Key, class BucketFn>
std::vector<std::uint32_t> device_histogram(const Key* d_keys, std::uint32_t n, std::uint32_t m, const BucketFn& fn,
                                            Tuning tuning = Tuning::Auto, cudaStream_t stream = 0) {
  DeviceArray<std::uint32_t> counts(m);
  counts.poison();
  std::size_t bytes = 0;
  EXPECT_EQ(multisplit::detail::histogram(nullptr, bytes, d_keys, n, m, fn, counts.get(), stream, tuning), cudaSuccess);
  DeviceArray<unsigned char> temp(bytes);
  temp.poison();
  const cudaError_t err =
      multisplit::detail::histogram(temp.get(), bytes, d_keys, n, m, fn, counts.get(), stream, tuning);
  EXPECT_EQ(err, cudaSuccess) << cudaGetErrorString(err);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  return counts.download();
}

void check_case(std::uint32_t n, std::uint32_t m, Dist dist, const std::vector<Tuning>& tunings = {Tuning::Auto}) {
  SCOPED_TRACE("n=" + std::to_string(n) + " m=" + std::to_string(m) + " dist=" + multisplit_test::to_string(dist));
  const std::uint64_t seed = (static_cast<std::uint64_t>(n) * 1000003u + m) * 17u + static_cast<std::uint64_t>(dist);
  const std::vector<std::uint32_t> ids = multisplit_test::make_buckets(n, m, dist, seed);
  const std::vector<std::uint32_t> keys = multisplit_test::keys_for_buckets(ids, m, seed);
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  const std::vector<std::uint32_t> want = multisplit::reference::histogram(keys.data(), n, m, fn);
  DeviceArray<std::uint32_t> d_keys(n);
  d_keys.upload(keys);
  for (const Tuning tuning : tunings) {
    SCOPED_TRACE("tuning=" + std::to_string(static_cast<int>(tuning)));
    multisplit_test::expect_equal(device_histogram(d_keys.get(), n, m, fn, tuning), want, "counts");
  }
}

TEST(MultisplitHistogram, MatchesReferenceOnAllSizesAndBucketCounts) {
  SKIP_IF_NO_GPU();
  for (const Dist dist : {Dist::Uniform, Dist::OneBucket, Dist::Zipf})
    for (const std::uint32_t m : kBuckets)
      for (const std::uint32_t n : kSizes) {
        check_case(n, m, dist);
        if (HasFailure()) return;
      }
}

TEST(MultisplitHistogram, MatchesReferenceAtTwoToThe24) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = 1u << 24;
  for (const std::uint32_t m : {2u, 33u, 256u, 1024u}) check_case(n, m, Dist::Uniform);
  for (const std::uint32_t m : {7u, 256u}) check_case(n, m, Dist::Zipf);
  check_case(n, 100, Dist::OneBucket);
}

TEST(MultisplitHistogram, BothCountingTuningsAgree) {
  SKIP_IF_NO_GPU();
  for (const Dist dist : {Dist::Uniform, Dist::OneBucket, Dist::Zipf})
    for (const std::uint32_t m : {1u, 3u, 32u, 33u, 256u, 1024u}) {
      check_case(100003, m, dist, {Tuning::Ballots, Tuning::PlainAtomics});
      if (HasFailure()) return;
    }
}

// Past the per-warp tables: one table per block (m = 4096), and past
// shared memory: global atomics (m = 70000).
TEST(MultisplitHistogram, ManyBucketsUseBlockTableAndGlobalPaths) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t m : {4096u, 70000u}) {
    check_case(300007, m, Dist::Uniform);
    check_case(300007, m, Dist::Zipf);
    check_case(4097, m, Dist::OneBucket);
  }
}

TEST(MultisplitHistogram, EvenFloatBucketsLikeCubHistogramEven) {
  SKIP_IF_NO_GPU();
  std::mt19937 rng(21);
  std::vector<float> keys(200003);
  for (auto& k : keys) k = std::uniform_real_distribution<float>(0.f, 1024.f)(rng);
  // Out of range, edges, NaN and infinities: clamped to the first / last bucket.
  const float specials[] = {-1.f,
                            -0.f,
                            0.f,
                            1024.f,
                            1023.9999f,
                            5000.f,
                            std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity()};
  for (std::size_t i = 0; i < std::size(specials); ++i) keys[i * 1001] = specials[i];
  DeviceArray<float> d_keys(keys.size());
  d_keys.upload(keys);
  for (const std::uint32_t m : {1u, 2u, 7u, 32u, 100u, 256u, 1000u}) {
    SCOPED_TRACE("m=" + std::to_string(m));
    const multisplit::even_buckets<float> fn(0.f, 1024.f, m);
    const auto want = multisplit::reference::histogram(keys.data(), keys.size(), m, fn);
    multisplit_test::expect_equal(device_histogram(d_keys.get(), static_cast<std::uint32_t>(keys.size()), m, fn), want,
                                  "counts");
  }
  // The functor itself: bucket = floor((key - lower) * m / (upper - lower)).
  const multisplit::even_buckets<float> fn(-8.f, 8.f, 4);
  EXPECT_EQ(fn(-8.f), 0u);
  EXPECT_EQ(fn(-4.0001f), 0u);
  EXPECT_EQ(fn(-4.f), 1u);
  EXPECT_EQ(fn(3.999f), 2u);
  EXPECT_EQ(fn(4.f), 3u);
  EXPECT_EQ(fn(1e30f), 3u);
}

TEST(MultisplitHistogram, RangeBucketsWithSplittersInSharedMemory) {
  SKIP_IF_NO_GPU();
  std::mt19937 rng(22);
  std::vector<float> keys(150001);
  for (auto& k : keys) k = std::uniform_real_distribution<float>(0.f, 1024.f)(rng);
  DeviceArray<float> d_keys(keys.size());
  d_keys.upload(keys);
  for (const std::uint32_t m : {2u, 7u, 100u, 256u, 1000u, 5000u}) {
    SCOPED_TRACE("m=" + std::to_string(m));
    std::vector<float> splitters(m - 1);
    for (auto& s : splitters) s = std::uniform_real_distribution<float>(0.f, 1024.f)(rng);
    std::sort(splitters.begin(), splitters.end());
    if (m > 2) splitters[1] = splitters[0];  // an empty bucket between equal splitters
    for (std::size_t i = 0; i < keys.size(); i += 89) keys[i] = splitters[i % splitters.size()];  // ties
    d_keys.upload(keys);
    DeviceArray<float> d_splitters(splitters.size());
    d_splitters.upload(splitters);
    const auto want = multisplit::reference::histogram(keys.data(), keys.size(), m,
                                                       multisplit::range_buckets<float>(splitters.data(), m - 1));
    multisplit_test::expect_equal(device_histogram(d_keys.get(), static_cast<std::uint32_t>(keys.size()), m,
                                                   multisplit::range_buckets<float>(d_splitters.get(), m - 1)),
                                  want, "counts");
  }
}

TEST(MultisplitHistogram, IdentityBitAndSixtyFourBitDeltaBuckets) {
  SKIP_IF_NO_GPU();
  std::vector<std::uint32_t> keys = multisplit_test::random_values<std::uint32_t>(123457, 23);
  DeviceArray<std::uint32_t> d_keys(keys.size());
  d_keys.upload(keys);
  const auto n = static_cast<std::uint32_t>(keys.size());
  // identity with ids >= m: clamped into the last bucket.
  const multisplit::identity_buckets<std::uint32_t> id;
  multisplit_test::expect_equal(device_histogram(d_keys.get(), n, 50, id),
                                multisplit::reference::histogram(keys.data(), n, 50, id), "identity");
  const multisplit::bit_buckets<std::uint32_t> bits(24, 8);
  multisplit_test::expect_equal(device_histogram(d_keys.get(), n, 256, bits),
                                multisplit::reference::histogram(keys.data(), n, 256, bits), "bits");
  const std::vector<std::uint64_t> wide = multisplit_test::random_values<std::uint64_t>(70001, 24);
  DeviceArray<std::uint64_t> d_wide(wide.size());
  d_wide.upload(wide);
  const auto fn64 = multisplit::delta_buckets<std::uint64_t>::spanning(100);
  multisplit_test::expect_equal(device_histogram(d_wide.get(), 70001u, 100, fn64),
                                multisplit::reference::histogram(wide.data(), wide.size(), 100, fn64), "64-bit");
}

TEST(MultisplitHistogram, ReportsBadArguments) {
  SKIP_IF_NO_GPU();
  DeviceArray<std::uint32_t> keys(1000), counts(10);
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(10);
  std::size_t bytes = 0;
  EXPECT_EQ(multisplit::histogram(nullptr, bytes, keys.get(), 1000u, 0u, fn, counts.get()), cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::histogram(nullptr, bytes, keys.get(), 0x80000000u, 10u, fn, counts.get()),
            cudaErrorInvalidValue);
  ASSERT_EQ(multisplit::histogram(nullptr, bytes, keys.get(), 1000u, 10u, fn, counts.get()), cudaSuccess);
  ASSERT_GT(bytes, 0u);
  DeviceArray<unsigned char> temp(bytes);
  std::size_t too_small = bytes - 1;
  EXPECT_EQ(multisplit::histogram(temp.get(), too_small, keys.get(), 1000u, 10u, fn, counts.get()),
            cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::histogram(temp.get(), bytes, keys.get(), 1000u, 10u, fn, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::histogram<std::uint32_t>(temp.get(), bytes, nullptr, 1000u, 10u, fn, counts.get()),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(MultisplitHistogram, EmptyInputWritesZeros) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t m : {1u, 7u, 300u}) {
    const std::vector<std::uint32_t> got =
        device_histogram<std::uint32_t>(nullptr, 0u, m, multisplit::delta_buckets<std::uint32_t>::spanning(m));
    EXPECT_EQ(got, std::vector<std::uint32_t>(m, 0u)) << "m=" << m;
  }
}

// Capture into a CUDA graph fails on any synchronising or allocating call:
// this checks "stream-ordered, no hidden allocation". The input is shifted
// by one element from its allocation (unaligned for vector loads).
TEST(MultisplitHistogram, UnalignedInputOwnStreamAndGraphCapture) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = (1u << 18) + 3;
  const std::vector<std::uint32_t> keys = multisplit_test::random_values<std::uint32_t>(n, 25);
  DeviceArray<std::uint32_t> d_keys(n + 1);
  ASSERT_EQ(cudaMemcpy(d_keys.get() + 1, keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice), cudaSuccess);
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  for (const std::uint32_t m : {5u, 200u, 3000u}) {
    SCOPED_TRACE("m=" + std::to_string(m));
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    const auto want = multisplit::reference::histogram(keys.data(), n, m, fn);
    multisplit_test::expect_equal(device_histogram(d_keys.get() + 1, n, m, fn, Tuning::Auto, stream), want,
                                  "own stream");
    DeviceArray<std::uint32_t> counts(m);
    counts.poison();
    std::size_t bytes = 0;
    ASSERT_EQ(multisplit::histogram(nullptr, bytes, d_keys.get() + 1, n, m, fn, counts.get(), stream), cudaSuccess);
    DeviceArray<unsigned char> temp(bytes);
    cudaGraph_t graph;
    ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
    const cudaError_t call_err =
        multisplit::histogram(temp.get(), bytes, d_keys.get() + 1, n, m, fn, counts.get(), stream);
    const cudaError_t end_err = cudaStreamEndCapture(stream, &graph);
    ASSERT_EQ(call_err, cudaSuccess) << cudaGetErrorString(call_err);
    ASSERT_EQ(end_err, cudaSuccess) << cudaGetErrorString(end_err);
    cudaGraphExec_t exec;
    ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    for (int launch = 0; launch < 2; ++launch) {  // replays overwrite, they do not accumulate
      ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
      multisplit_test::expect_equal(counts.download(), want, "graph replay");
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

__global__ void fill_index(std::uint32_t* keys, std::uint32_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    keys[i] = static_cast<std::uint32_t>(i);
}

// n = 2^31 - 1 (the largest the API takes): keys[i] = i, bucket = i mod 256,
// so every bucket holds floor((n - 1 - b) / 256) + 1 keys.
TEST(MultisplitHistogram, LargestInputMatchesClosedForm) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = 0x7FFFFFFFu;
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  if (free_bytes < std::size_t{n} * 4 + (std::size_t{1} << 30))
    GTEST_SKIP() << "needs " << (std::size_t{n} * 4 >> 20) << " MiB of free GPU memory";
  DeviceArray<std::uint32_t> keys(n);
  fill_index<<<1024, 256>>>(keys.get(), n);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<std::uint32_t> want(256);
  for (std::uint32_t b = 0; b < 256; ++b) want[b] = (n - 1 - b) / 256 + 1;
  multisplit_test::expect_equal(device_histogram(keys.get(), n, 256, multisplit::bit_buckets<std::uint32_t>(0, 8)),
                                want, "bit buckets, 256");
  std::vector<std::uint32_t> want5(5, 0);
  for (std::uint32_t b = 0; b < 5; ++b) want5[b] = (n - 1 - b) / 256 + 1;  // identity clamps 4..255 into bucket 4
  want5[4] = n - want5[0] - want5[1] - want5[2] - want5[3];
  multisplit_test::expect_equal(device_histogram(keys.get(), n, 5, multisplit::bit_buckets<std::uint32_t>(0, 8)), want5,
                                "bit buckets clamped, 5");
}

}  // namespace
