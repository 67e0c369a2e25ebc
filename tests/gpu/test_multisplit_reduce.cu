// multisplit::reduce_by_bucket against the CPU reference
// (reference_primitives.hpp): sizes around every tile boundary, bucket
// counts on both sides of each path change (32: lane registers -> warp
// tables; per-warp tables past shared memory -> one table per block for
// integer atomics, else sort-based, also forced for the whole matrix),
// uniform / one-bucket /
// zipf buckets; sum, min, max (the shared-atomic path for 32- and 64-bit
// integers, the warp peer reduction for everything else), a user operator
// (xor) and a 12-byte value type; float sums on integer-valued floats (exact in any order, so the
// check is order-independent); counts on and off; range buckets with
// splitters in shared memory; bad arguments, empty input, unaligned
// pointers, own stream and CUDA-graph capture. Outputs are poisoned first.
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/split_check.cuh"
#include "multisplit/reduce_by_bucket.cuh"
#include "multisplit/reference_primitives.hpp"

namespace {

using multisplit_test::DeviceArray;
using multisplit_test::Dist;

const std::vector<std::uint32_t> kBuckets = {1, 2, 3, 7, 32, 33, 100, 256, 257, 1024};
// 0, 1, a warp +/- 1, a warp sub-tile (16 x 32) +/- 1, a block tile (4096) +/- 1, many tiles.
const std::vector<std::uint32_t> kSizes = {0, 1, 31, 32, 33, 511, 512, 513, 4095, 4096, 4097, (1u << 20) + 7};

struct Vec3 {  // 12 bytes: three 32-bit words per shuffle
  std::uint32_t x, y, z;
};
struct Vec3Sum {
  __host__ __device__ Vec3 operator()(const Vec3& a, const Vec3& b) const { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
};
struct Xor {
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a ^ b; }
};

template <class Value>
struct Result {
  std::vector<Value> values;
  std::vector<std::uint32_t> counts;
};

using Path = multisplit::detail::ReducePath;

template <class Key, class Value, class BucketFn, class Op>
Result<Value> device_reduce(const Key* d_keys, const Value* d_values, std::uint32_t n, std::uint32_t m,
                            const BucketFn& fn, Op op, Value identity, bool with_counts = true, cudaStream_t stream = 0,
                            Path path = Path::Auto) {
  DeviceArray<Value> values(m);
  DeviceArray<std::uint32_t> counts(m);
  values.poison();
  counts.poison();
  std::uint32_t* counts_ptr = with_counts ? counts.get() : nullptr;
  std::size_t bytes = 0;
  EXPECT_EQ(multisplit::detail::reduce_by_bucket(nullptr, bytes, d_keys, d_values, n, m, fn, op, identity, values.get(),
                                                 counts_ptr, stream, path),
            cudaSuccess);
  DeviceArray<unsigned char> temp(bytes);
  temp.poison();
  const cudaError_t err = multisplit::detail::reduce_by_bucket(temp.get(), bytes, d_keys, d_values, n, m, fn, op,
                                                               identity, values.get(), counts_ptr, stream, path);
  EXPECT_EQ(err, cudaSuccess) << cudaGetErrorString(err);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  Result<Value> r{values.download(), counts.download()};
  if (!with_counts) {  // untouched: still the poison pattern
    std::uint32_t poison;
    std::memset(&poison, 0xA5, sizeof poison);
    for (const std::uint32_t c : r.counts) EXPECT_EQ(c, poison) << "counts written although not asked for";
  }
  return r;
}

// Compared as 32-bit words (bit for bit), so any trivially copyable value works.
template <class Value>
std::vector<std::uint32_t> as_words(const std::vector<Value>& values) {
  static_assert(sizeof(Value) % 4 == 0, "test values are whole 32-bit words");
  std::vector<std::uint32_t> words(values.size() * sizeof(Value) / 4);
  if (!values.empty()) std::memcpy(words.data(), values.data(), values.size() * sizeof(Value));
  return words;
}

template <class Value>
void expect_same(const Result<Value>& got, const multisplit::reference::BucketReduction<Value>& want,
                 bool with_counts = true) {
  multisplit_test::expect_equal(as_words(got.values), as_words(want.values), "bucket values (32-bit words)");
  if (with_counts) multisplit_test::expect_equal(got.counts, want.counts, "bucket counts");
}

std::uint64_t seed_of(std::uint32_t n, std::uint32_t m, Dist dist) {
  return (static_cast<std::uint64_t>(n) * 1000003u + m) * 17u + static_cast<std::uint64_t>(dist);
}

// Keys whose delta_buckets<>::spanning(m) ids follow `dist`.
std::vector<std::uint32_t> make_keys(std::uint32_t n, std::uint32_t m, Dist dist) {
  const std::uint64_t seed = seed_of(n, m, dist);
  return multisplit_test::keys_for_buckets(multisplit_test::make_buckets(n, m, dist, seed), m, seed);
}

// Integer-valued floats small enough that every partial sum of at most n of
// them is exact (total <= 2^24), so any summation order gives the same float.
std::vector<float> exact_floats(std::uint32_t n, std::uint64_t seed) {
  const std::uint32_t max_value =
      std::max<std::uint32_t>(1, std::min<std::uint32_t>(1000, (1u << 24) / std::max(n, 1u)));
  std::mt19937_64 rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(rng() % (max_value + 1));
  return v;
}

void check_u32_sum(std::uint32_t n, std::uint32_t m, Dist dist, Path path = Path::Auto) {
  SCOPED_TRACE("n=" + std::to_string(n) + " m=" + std::to_string(m) + " dist=" + multisplit_test::to_string(dist));
  const std::vector<std::uint32_t> keys = make_keys(n, m, dist);
  const std::vector<std::uint32_t> values = multisplit_test::random_values<std::uint32_t>(n, seed_of(n, m, dist));
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  DeviceArray<std::uint32_t> d_keys(n), d_values(n);
  d_keys.upload(keys);
  d_values.upload(values);
  // Sums wrap modulo 2^32: exact in any order.
  expect_same(device_reduce(d_keys.get(), d_values.get(), n, m, fn, multisplit::sum_op{}, 0u, true, 0, path),
              multisplit::reference::reduce_by_bucket(keys, values, m, fn, multisplit::sum_op{}, 0u));
}

void check_float_ops(std::uint32_t n, std::uint32_t m, Dist dist, Path path = Path::Auto) {
  SCOPED_TRACE("float n=" + std::to_string(n) + " m=" + std::to_string(m) +
               " dist=" + multisplit_test::to_string(dist));
  const std::vector<std::uint32_t> keys = make_keys(n, m, dist);
  const std::vector<float> values = exact_floats(n, seed_of(n, m, dist) + 1);
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  DeviceArray<std::uint32_t> d_keys(n);
  DeviceArray<float> d_values(n);
  d_keys.upload(keys);
  d_values.upload(values);
  const float inf = std::numeric_limits<float>::infinity();
  expect_same(device_reduce(d_keys.get(), d_values.get(), n, m, fn, multisplit::sum_op{}, 0.f, true, 0, path),
              multisplit::reference::reduce_by_bucket(keys, values, m, fn, multisplit::sum_op{}, 0.f));
  expect_same(device_reduce(d_keys.get(), d_values.get(), n, m, fn, multisplit::min_op{}, inf, true, 0, path),
              multisplit::reference::reduce_by_bucket(keys, values, m, fn, multisplit::min_op{}, inf));
  expect_same(device_reduce(d_keys.get(), d_values.get(), n, m, fn, multisplit::max_op{}, -inf, true, 0, path),
              multisplit::reference::reduce_by_bucket(keys, values, m, fn, multisplit::max_op{}, -inf));
}

TEST(MultisplitReduce, SumMatchesReferenceOnAllSizesAndBucketCounts) {
  SKIP_IF_NO_GPU();
  for (const Dist dist : {Dist::Uniform, Dist::OneBucket, Dist::Zipf})
    for (const std::uint32_t m : kBuckets)
      for (const std::uint32_t n : kSizes) {
        check_u32_sum(n, m, dist);
        if (HasFailure()) return;
      }
}

TEST(MultisplitReduce, FloatSumMinMaxMatchReference) {
  SKIP_IF_NO_GPU();
  for (const Dist dist : {Dist::Uniform, Dist::OneBucket, Dist::Zipf})
    for (const std::uint32_t m : kBuckets)
      for (const std::uint32_t n : {0u, 33u, 4097u, (1u << 20) + 7}) {
        check_float_ops(n, m, dist);
        if (HasFailure()) return;
      }
}

// The sort-based path (Auto takes it when the per-warp tables outgrow
// shared memory), forced here over the whole bucket matrix.
TEST(MultisplitReduce, SortBasedPathMatchesReference) {
  SKIP_IF_NO_GPU();
  for (const Dist dist : {Dist::Uniform, Dist::OneBucket, Dist::Zipf})
    for (const std::uint32_t m : kBuckets) {
      for (const std::uint32_t n : {0u, 1u, 33u, 4097u, (1u << 20) + 7}) check_u32_sum(n, m, dist, Path::SortBased);
      for (const std::uint32_t n : {33u, 100003u}) check_float_ops(n, m, dist, Path::SortBased);
      if (HasFailure()) return;
    }
}

TEST(MultisplitReduce, MatchesReferenceAtTwoToThe24) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = 1u << 24;
  for (const std::uint32_t m : {2u, 33u, 256u, 1024u}) check_u32_sum(n, m, Dist::Uniform);
  check_u32_sum(n, 7, Dist::Zipf);
  check_u32_sum(n, 100, Dist::OneBucket);
  check_float_ops(n, 256, Dist::Zipf);
  check_float_ops(n, 3, Dist::OneBucket);
  check_u32_sum(n, 5000, Dist::Zipf);  // per-warp tables too large: one atomic table per block
  check_u32_sum(n, 1024, Dist::Uniform, Path::SortBased);
}

TEST(MultisplitReduce, UserOperatorWideValuesAndNoCounts) {
  SKIP_IF_NO_GPU();
  // 5000: per-warp tables no longer fit; integer atomics share one table
  // per block, xor and Vec3 take the sort-based path.
  for (const std::uint32_t m : {3u, 32u, 33u, 256u, 257u, 5000u}) {
    for (const Dist dist : {Dist::Uniform, Dist::OneBucket}) {
      const std::uint32_t n = 100003;
      SCOPED_TRACE("m=" + std::to_string(m) + " dist=" + multisplit_test::to_string(dist));
      const std::vector<std::uint32_t> keys = make_keys(n, m, dist);
      const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
      DeviceArray<std::uint32_t> d_keys(n);
      d_keys.upload(keys);
      const std::vector<std::uint32_t> words = multisplit_test::random_values<std::uint32_t>(3 * n, m);
      std::vector<std::uint32_t> values(words.begin(), words.begin() + n);
      DeviceArray<std::uint32_t> d_values(n);
      d_values.upload(values);
      expect_same(device_reduce(d_keys.get(), d_values.get(), n, m, fn, Xor{}, 0u, false),
                  multisplit::reference::reduce_by_bucket(keys, values, m, fn, Xor{}, 0u), false);
      expect_same(device_reduce(d_keys.get(), d_values.get(), n, m, fn, multisplit::min_op{}, 0xFFFFFFFFu),
                  multisplit::reference::reduce_by_bucket(keys, values, m, fn, multisplit::min_op{}, 0xFFFFFFFFu));
      expect_same(device_reduce(d_keys.get(), d_values.get(), n, m, fn, multisplit::max_op{}, 0u),
                  multisplit::reference::reduce_by_bucket(keys, values, m, fn, multisplit::max_op{}, 0u));
      // 64-bit sums and signed max take the shared-atomic path too.
      const std::vector<std::uint64_t> wide = multisplit_test::random_values<std::uint64_t>(n, m + 7);
      DeviceArray<std::uint64_t> d_wide(n);
      d_wide.upload(wide);
      expect_same(device_reduce(d_keys.get(), d_wide.get(), n, m, fn, multisplit::sum_op{}, std::uint64_t{0}),
                  multisplit::reference::reduce_by_bucket(keys, wide, m, fn, multisplit::sum_op{}, std::uint64_t{0}));
      std::vector<std::int32_t> signed_values(n);
      for (std::uint32_t i = 0; i < n; ++i) signed_values[i] = static_cast<std::int32_t>(words[i] ^ words[n + i]);
      DeviceArray<std::int32_t> d_signed(n);
      d_signed.upload(signed_values);
      const std::int32_t lowest = std::numeric_limits<std::int32_t>::min();
      expect_same(device_reduce(d_keys.get(), d_signed.get(), n, m, fn, multisplit::max_op{}, lowest),
                  multisplit::reference::reduce_by_bucket(keys, signed_values, m, fn, multisplit::max_op{}, lowest));
      std::vector<Vec3> vec(n);
      for (std::uint32_t i = 0; i < n; ++i) vec[i] = {words[3 * i], words[3 * i + 1], words[3 * i + 2]};
      DeviceArray<Vec3> d_vec(n);
      d_vec.upload(vec);
      expect_same(device_reduce(d_keys.get(), d_vec.get(), n, m, fn, Vec3Sum{}, Vec3{0, 0, 0}),
                  multisplit::reference::reduce_by_bucket(keys, vec, m, fn, Vec3Sum{}, Vec3{0, 0, 0}));
      if (HasFailure()) return;
    }
  }
}

TEST(MultisplitReduce, RangeBucketsWithSplittersInSharedMemory) {
  SKIP_IF_NO_GPU();
  std::mt19937 rng(31);
  const std::uint32_t n = 150001;
  std::vector<float> keys(n);
  for (auto& k : keys) k = std::uniform_real_distribution<float>(0.f, 1024.f)(rng);
  const std::vector<std::uint32_t> values = multisplit_test::random_values<std::uint32_t>(n, 32);
  DeviceArray<float> d_keys(n);
  DeviceArray<std::uint32_t> d_values(n);
  d_values.upload(values);
  for (const std::uint32_t m : {2u, 7u, 100u, 256u, 1000u}) {
    SCOPED_TRACE("m=" + std::to_string(m));
    std::vector<float> splitters(m - 1);
    for (auto& s : splitters) s = std::uniform_real_distribution<float>(0.f, 1024.f)(rng);
    std::sort(splitters.begin(), splitters.end());
    if (m > 2) splitters[1] = splitters[0];                                                       // an empty bucket
    for (std::size_t i = 0; i < keys.size(); i += 89) keys[i] = splitters[i % splitters.size()];  // ties
    d_keys.upload(keys);
    DeviceArray<float> d_splitters(splitters.size());
    d_splitters.upload(splitters);
    expect_same(
        device_reduce(d_keys.get(), d_values.get(), n, m, multisplit::range_buckets<float>(d_splitters.get(), m - 1),
                      multisplit::sum_op{}, 0u),
        multisplit::reference::reduce_by_bucket(
            keys, values, m, multisplit::range_buckets<float>(splitters.data(), m - 1), multisplit::sum_op{}, 0u));
  }
}

TEST(MultisplitReduce, ReportsBadArguments) {
  SKIP_IF_NO_GPU();
  DeviceArray<std::uint32_t> keys(1000), values(1000), out(20000), counts(20000);
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(10);
  const multisplit::sum_op sum;
  std::size_t bytes = 0;
  EXPECT_EQ(multisplit::reduce_by_bucket(nullptr, bytes, keys.get(), values.get(), 1000u, 0u, fn, sum, 0u, out.get(),
                                         counts.get()),
            cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::reduce_by_bucket(nullptr, bytes, keys.get(), values.get(), 0x80000000u, 10u, fn, sum, 0u,
                                         out.get(), counts.get()),
            cudaErrorInvalidValue);
  for (const std::uint32_t m : {10u, 20000u}) {  // warp-table and sort-based paths
    ASSERT_EQ(multisplit::reduce_by_bucket(nullptr, bytes, keys.get(), values.get(), 1000u, m, fn, sum, 0u, out.get(),
                                           counts.get()),
              cudaSuccess);
    DeviceArray<unsigned char> temp(bytes);
    std::size_t too_small = bytes - 1;
    EXPECT_EQ(multisplit::reduce_by_bucket(temp.get(), too_small, keys.get(), values.get(), 1000u, m, fn, sum, 0u,
                                           out.get(), counts.get()),
              cudaErrorInvalidValue);
    EXPECT_EQ(multisplit::reduce_by_bucket(temp.get(), bytes, keys.get(), values.get(), 1000u, m, fn, sum, 0u,
                                           static_cast<std::uint32_t*>(nullptr), counts.get()),
              cudaErrorInvalidValue);
    EXPECT_EQ(multisplit::reduce_by_bucket(temp.get(), bytes, static_cast<const std::uint32_t*>(nullptr), values.get(),
                                           1000u, m, fn, sum, 0u, out.get(), counts.get()),
              cudaErrorInvalidValue);
    EXPECT_EQ(multisplit::reduce_by_bucket(temp.get(), bytes, keys.get(), static_cast<const std::uint32_t*>(nullptr),
                                           1000u, m, fn, sum, 0u, out.get(), counts.get()),
              cudaErrorInvalidValue);
  }
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(MultisplitReduce, EmptyInputGivesIdentityAndZeroCounts) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t m : {1u, 7u, 300u, 20000u}) {
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    const Result<std::uint32_t> got =
        device_reduce<std::uint32_t, std::uint32_t>(nullptr, nullptr, 0u, m, fn, multisplit::min_op{}, 0xFFFFFFFFu);
    EXPECT_EQ(got.values, std::vector<std::uint32_t>(m, 0xFFFFFFFFu)) << "m=" << m;
    EXPECT_EQ(got.counts, std::vector<std::uint32_t>(m, 0u)) << "m=" << m;
  }
}

// Capture into a CUDA graph fails on any synchronising or allocating call:
// this checks "stream-ordered, no hidden allocation". Keys and values are
// shifted by 1 and 3 elements from their allocations.
TEST(MultisplitReduce, UnalignedInputOwnStreamAndGraphCapture) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = (1u << 18) + 5;
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  for (const std::uint32_t m : {5u, 200u, 3000u, 20000u}) {
    SCOPED_TRACE("m=" + std::to_string(m));
    const std::vector<std::uint32_t> keys = make_keys(n, m, Dist::Zipf);
    const std::vector<std::uint32_t> values = multisplit_test::random_values<std::uint32_t>(n, m + 40);
    DeviceArray<std::uint32_t> d_keys(n + 1), d_values(n + 3);
    ASSERT_EQ(cudaMemcpy(d_keys.get() + 1, keys.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(d_values.get() + 3, values.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    const auto want = multisplit::reference::reduce_by_bucket(keys, values, m, fn, multisplit::sum_op{}, 0u);
    expect_same(device_reduce(d_keys.get() + 1, d_values.get() + 3, n, m, fn, multisplit::sum_op{}, 0u, true, stream),
                want);
    DeviceArray<std::uint32_t> out(m), counts(m);
    out.poison();
    counts.poison();
    std::size_t bytes = 0;
    ASSERT_EQ(multisplit::reduce_by_bucket(nullptr, bytes, d_keys.get() + 1, d_values.get() + 3, n, m, fn,
                                           multisplit::sum_op{}, 0u, out.get(), counts.get(), stream),
              cudaSuccess);
    DeviceArray<unsigned char> temp(bytes);
    cudaGraph_t graph;
    ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
    const cudaError_t call_err =
        multisplit::reduce_by_bucket(temp.get(), bytes, d_keys.get() + 1, d_values.get() + 3, n, m, fn,
                                     multisplit::sum_op{}, 0u, out.get(), counts.get(), stream);
    const cudaError_t end_err = cudaStreamEndCapture(stream, &graph);
    ASSERT_EQ(call_err, cudaSuccess) << cudaGetErrorString(call_err);
    ASSERT_EQ(end_err, cudaSuccess) << cudaGetErrorString(end_err);
    cudaGraphExec_t exec;
    ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    multisplit_test::expect_equal(out.download(), want.values, "graph: values");
    multisplit_test::expect_equal(counts.download(), want.counts, "graph: counts");
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

// A sum the library does not recognise: the warp peer-reduction path.
struct UserPlus {
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a + b; }
};

// n = 2^31 - 1 (the largest the API takes): keys = values = index, bucket =
// index mod 256. Bucket b holds c_b = floor((n - 1 - b) / 256) + 1 pairs,
// whose values sum to c_b * b + 256 * c_b * (c_b - 1) / 2 (mod 2^32), with
// maximum b + 256 * (c_b - 1). Both the atomic and the peer-reduction paths.
TEST(MultisplitReduce, LargestInputMatchesClosedForm) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = 0x7FFFFFFFu;
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  if (free_bytes < std::size_t{n} * 4 + (std::size_t{1} << 30))
    GTEST_SKIP() << "needs " << (std::size_t{n} * 4 >> 20) << " MiB of free GPU memory";
  DeviceArray<std::uint32_t> keys(n);  // keys double as values
  fill_index<<<1024, 256>>>(keys.get(), n);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  multisplit::reference::BucketReduction<std::uint32_t> sums, maxima;
  for (std::uint64_t b = 0; b < 256; ++b) {
    const std::uint64_t count = (n - 1 - b) / 256 + 1;
    sums.counts.push_back(static_cast<std::uint32_t>(count));
    sums.values.push_back(static_cast<std::uint32_t>(count * b + 256 * (count * (count - 1) / 2)));
    maxima.values.push_back(static_cast<std::uint32_t>(b + 256 * (count - 1)));
  }
  maxima.counts = sums.counts;
  const multisplit::bit_buckets<std::uint32_t> fn(0, 8);
  expect_same(device_reduce(keys.get(), keys.get(), n, 256, fn, multisplit::sum_op{}, 0u), sums);
  expect_same(device_reduce(keys.get(), keys.get(), n, 256, fn, UserPlus{}, 0u), sums);
  expect_same(device_reduce(keys.get(), keys.get(), n, 256, fn, multisplit::max_op{}, 0u), maxima);
}

}  // namespace
