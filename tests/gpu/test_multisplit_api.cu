// Multisplit API contract: the ready-made and user-written bucket functors,
// error reporting, empty input, streams and graph capture (no host
// synchronisation, no hidden allocation), unaligned pointers, 64-bit keys,
// and the largest size the API allows (n = 2^31 - 1, checked on the device).
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/split_check.cuh"
#include "division_cases.hpp"

#include <numeric>

namespace {

using multisplit::Method;
using multisplit_test::DeviceArray;

const std::vector<Method> kMethods = {Method::Direct, Method::Warp, Method::Block, Method::SortBased, Method::Auto};

template <class Key, class BucketFn, class HostFn>
void check_functor(const std::vector<Key>& keys, std::uint32_t m, const BucketFn& device_fn, const HostFn& host_fn,
                   cudaStream_t stream = 0) {
  std::vector<Key> want(keys.size());
  const auto want_offsets = multisplit::reference::split_keys(keys.data(), want.data(), keys.size(), m, host_fn);
  DeviceArray<Key> d_keys(keys.size());
  d_keys.upload(keys);
  DeviceArray<multisplit::detail::NullValue> none(0);
  const std::vector<multisplit::detail::NullValue> no_values;
  for (const Method method : kMethods) {
    SCOPED_TRACE(std::string("method=") + multisplit::to_string(method) + " m=" + std::to_string(m));
    multisplit_test::run_and_compare(method, d_keys, none, m, device_fn, want, no_values, want_offsets, stream);
    if (::testing::Test::HasFailure()) return;
  }
}

std::vector<std::uint32_t> random_keys(std::size_t n, std::uint64_t seed) {
  return multisplit_test::random_values<std::uint32_t>(n, seed);
}

TEST(MultisplitFunctors, RangeBucketsWithSplittersInSharedMemory) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t m : {2u, 7u, 100u, 1000u, 5000u}) {
    std::vector<std::uint32_t> splitters = random_keys(m - 1, m);
    std::sort(splitters.begin(), splitters.end());
    if (m > 2) splitters[1] = splitters[0];  // an empty bucket between equal splitters
    DeviceArray<std::uint32_t> d_splitters(splitters.size());
    d_splitters.upload(splitters);
    const multisplit::range_buckets<std::uint32_t> device_fn(d_splitters.get(), m - 1);
    const multisplit::range_buckets<std::uint32_t> host_fn(splitters.data(), m - 1);
    std::vector<std::uint32_t> keys = random_keys(300007, m + 1);
    for (std::size_t i = 0; i < keys.size(); i += 97) keys[i] = splitters[i % splitters.size()];  // ties
    check_functor(keys, m, device_fn, host_fn);
    if (HasFailure()) return;
  }
}

TEST(MultisplitFunctors, BitBuckets) {
  SKIP_IF_NO_GPU();
  check_functor(random_keys(200003, 1), 32, multisplit::bit_buckets<std::uint32_t>(8, 5),
                multisplit::bit_buckets<std::uint32_t>(8, 5));
  check_functor(random_keys(70001, 2), 256, multisplit::bit_buckets<std::uint32_t>(24, 8),
                multisplit::bit_buckets<std::uint32_t>(24, 8));
}

TEST(MultisplitFunctors, IdentityBuckets) {
  SKIP_IF_NO_GPU();
  std::vector<std::uint32_t> keys = random_keys(123457, 3);
  for (auto& k : keys) k %= 361;
  check_functor(keys, 361, multisplit::identity_buckets<std::uint32_t>(), multisplit::identity_buckets<std::uint32_t>());
}

TEST(MultisplitFunctors, DeltaBucketsWithOffsetAndOverflowBucket) {
  SKIP_IF_NO_GPU();
  // SSSP style: bucket = floor((d - lower) / delta), the last bucket takes the rest.
  const multisplit::delta_buckets<std::uint32_t> fn(1000, 37, 10);
  check_functor(random_keys(99991, 4), 10, fn, fn);
  // Float keys.
  std::vector<float> fkeys(65537);
  std::mt19937 rng(5);
  for (auto& k : fkeys) k = std::uniform_real_distribution<float>(-5.f, 100.f)(rng);
  const multisplit::delta_buckets<float> ffn(0.f, 2.5f, 33);
  check_functor(fkeys, 33, ffn, ffn);
}

// One result per case, computed on the device by `op`.
template <class Case, class Op>
__global__ void per_case_kernel(const Case* cases, std::size_t count, Op op, std::uint32_t* results) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < count) results[i] = op(cases[i]);
}

// Runs `op` over every case on the device; `results` gets its answers.
template <class Case, class Op>
cudaError_t run_per_case(const std::vector<Case>& cases, Op op, std::vector<std::uint32_t>& results) {
  DeviceArray<Case> d_cases(cases.size());
  d_cases.upload(cases);
  DeviceArray<std::uint32_t> d_results(cases.size());
  per_case_kernel<<<multisplit::detail::div_up(static_cast<std::uint32_t>(cases.size()), 256), 256>>>(
      d_cases.get(), cases.size(), op, d_results.get());
  const cudaError_t status = cudaDeviceSynchronize();
  if (status == cudaSuccess) results = d_results.download();
  return status;
}

struct DivideOnDevice {
  __device__ std::uint32_t operator()(const division_cases::Division& c) const {
    return multisplit::detail::InvariantDivisor(c.divisor).divide(c.numerator);
  }
};

struct DeltaBucketOnDevice {
  __device__ std::uint32_t operator()(const division_cases::Delta& c) const {
    return multisplit::delta_buckets<std::uint32_t>(c.lower, c.width, c.buckets)(c.key);
  }
};

// The device divides with its own instructions (inline PTX, a 64-bit
// multiply-add through the carry); the CPU tests cover the host's. Same
// cases: every quotient exact, every delta bucket as defined.
TEST(MultisplitFunctors, DivisionOnDeviceIsExact) {
  SKIP_IF_NO_GPU();
  const std::vector<division_cases::Division> divisions = division_cases::divisions();
  std::vector<std::uint32_t> got;
  ASSERT_EQ(run_per_case(divisions, DivideOnDevice{}, got), cudaSuccess);
  for (std::size_t i = 0; i < divisions.size(); ++i)
    ASSERT_EQ(got[i], divisions[i].numerator / divisions[i].divisor)
        << divisions[i].numerator << " / " << divisions[i].divisor;

  const std::vector<division_cases::Delta> deltas = division_cases::deltas();
  std::vector<std::uint32_t> got_buckets;
  ASSERT_EQ(run_per_case(deltas, DeltaBucketOnDevice{}, got_buckets), cudaSuccess);
  for (std::size_t i = 0; i < deltas.size(); ++i)
    ASSERT_EQ(got_buckets[i], division_cases::plain_delta_bucket(deltas[i]))
        << "key " << deltas[i].key << ", lower " << deltas[i].lower << ", width " << deltas[i].width;
}

// A user's own functor holding a device pointer: vertices go to buckets by
// their tentative distance, as the SSSP bucketing strategy does.
struct DistanceBuckets {
  const std::uint32_t* distance;  // device array (host array for the reference)
  std::uint32_t delta;
  std::uint32_t num_buckets;
  __host__ __device__ std::uint32_t operator()(std::uint32_t vertex) const {
    const std::uint32_t b = distance[vertex] / delta;
    return b < num_buckets ? b : num_buckets - 1;
  }
};

TEST(MultisplitFunctors, UserFunctorReadingDeviceMemory) {
  SKIP_IF_NO_GPU();
  const std::uint32_t vertices = 50000;
  std::vector<std::uint32_t> distance = random_keys(vertices, 6);
  for (auto& d : distance) d %= 5000;
  DeviceArray<std::uint32_t> d_distance(vertices);
  d_distance.upload(distance);
  std::vector<std::uint32_t> frontier = random_keys(200000, 7);
  for (auto& v : frontier) v %= vertices;
  check_functor(frontier, 21, DistanceBuckets{d_distance.get(), 250, 21}, DistanceBuckets{distance.data(), 250, 21});
}

TEST(MultisplitApi, OutOfRangeBucketIdsAreClamped) {
  SKIP_IF_NO_GPU();
  // identity with keys >= m: the library clamps into the last bucket.
  check_functor(random_keys(40000, 8), 50, multisplit::identity_buckets<std::uint32_t>(),
                multisplit::identity_buckets<std::uint32_t>());
}

TEST(MultisplitApi, SixtyFourBitKeys) {
  SKIP_IF_NO_GPU();
  std::vector<std::uint64_t> keys = multisplit_test::random_values<std::uint64_t>(100003, 9);
  check_functor(keys, 100, multisplit::delta_buckets<std::uint64_t>::spanning(100),
                multisplit::delta_buckets<std::uint64_t>::spanning(100));
}

TEST(MultisplitApi, ReportsBadArguments) {
  SKIP_IF_NO_GPU();
  DeviceArray<std::uint32_t> in(1000), out(1000), offsets(11);
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(10);
  std::size_t bytes = 0;
  EXPECT_EQ(multisplit::split_keys(nullptr, bytes, in.get(), out.get(), 1000u, 0u, fn, offsets.get()),
            cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::split_keys(nullptr, bytes, in.get(), out.get(), 0x80000000u, 10u, fn, offsets.get()),
            cudaErrorInvalidValue);
  for (const Method method : kMethods) {
    ASSERT_EQ(multisplit::split_keys(nullptr, bytes, in.get(), out.get(), 1000u, 10u, fn, offsets.get(), 0, method),
              cudaSuccess);
    DeviceArray<unsigned char> temp(bytes);
    std::size_t too_small = bytes - 1;
    EXPECT_EQ(multisplit::split_keys(temp.get(), too_small, in.get(), out.get(), 1000u, 10u, fn, offsets.get(), 0,
                                     method),
              cudaErrorInvalidValue);
    EXPECT_EQ(multisplit::split_keys(temp.get(), bytes, in.get(), out.get(), 1000u, 10u, fn, nullptr, 0, method),
              cudaErrorInvalidValue);
  }
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(MultisplitApi, EmptyInputWritesZeroOffsets) {
  SKIP_IF_NO_GPU();
  for (const Method method : kMethods) {
    DeviceArray<std::uint32_t> offsets(8);
    offsets.poison();
    std::size_t bytes = 0;
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(7);
    ASSERT_EQ(multisplit::split_keys<std::uint32_t>(nullptr, bytes, nullptr, nullptr, 0u, 7u, fn, offsets.get(), 0,
                                                    method),
              cudaSuccess);
    DeviceArray<unsigned char> temp(bytes);
    ASSERT_EQ(multisplit::split_keys<std::uint32_t>(temp.get(), bytes, nullptr, nullptr, 0u, 7u, fn, offsets.get(), 0,
                                                    method),
              cudaSuccess);
    EXPECT_EQ(offsets.download(), std::vector<std::uint32_t>(8, 0u)) << multisplit::to_string(method);
  }
}

TEST(MultisplitApi, UnalignedPointersAndOwnStream) {
  SKIP_IF_NO_GPU();
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  const std::uint32_t n = 150001;
  // 8 buckets: the thread-counter tile, whose pair values come from global
  // memory (unaligned: element loads); 256: the interleaved BMS (one-tile
  // chunks, tile-counting pre-scan); 600: pairs' whole-tile kernel and the
  // last tile's own launch.
  for (const std::uint32_t m : {8u, 45u, 256u, 600u}) {
    SCOPED_TRACE(m);
    const std::vector<std::uint32_t> keys = random_keys(n, 10);
    const std::vector<std::uint32_t> values = random_keys(n, 11);
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    std::vector<std::uint32_t> want_keys(n), want_values(n);
    const auto want_offsets =
        multisplit::reference::split_pairs(keys.data(), want_keys.data(), values.data(), want_values.data(), n, m, fn);
    // Buffers shifted by 1 and 3 elements from their 256-byte aligned start.
    DeviceArray<std::uint32_t> in_k(n + 1), out_k(n + 3), in_v(n + 3), out_v(n + 1), offsets(m + 1);
    ASSERT_EQ(cudaMemcpy(in_k.get() + 1, keys.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(in_v.get() + 3, values.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
    for (const Method method : kMethods) {
      SCOPED_TRACE(multisplit::to_string(method));
      out_k.poison();
      out_v.poison();
      offsets.poison();
      std::size_t bytes = 0;
      ASSERT_EQ(multisplit::split_pairs(nullptr, bytes, in_k.get() + 1, out_k.get() + 3, in_v.get() + 3,
                                        out_v.get() + 1, n, m, fn, offsets.get(), stream, method),
                cudaSuccess);
      DeviceArray<unsigned char> temp(bytes);
      ASSERT_EQ(multisplit::split_pairs(temp.get(), bytes, in_k.get() + 1, out_k.get() + 3, in_v.get() + 3,
                                        out_v.get() + 1, n, m, fn, offsets.get(), stream, method),
                cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
      std::vector<std::uint32_t> got_k(n), got_v(n);
      ASSERT_EQ(cudaMemcpy(got_k.data(), out_k.get() + 3, n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
      ASSERT_EQ(cudaMemcpy(got_v.data(), out_v.get() + 1, n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
      multisplit_test::expect_equal(got_k, want_keys, "keys");
      multisplit_test::expect_equal(got_v, want_values, "values");
      multisplit_test::expect_equal(offsets.download(), want_offsets, "offsets");
    }
  }
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

// Capturing the call into a CUDA graph fails on any synchronising or
// allocating call, so this checks "stream-ordered, no hidden allocation".
TEST(MultisplitApi, CapturesIntoCudaGraph) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = 1u << 18;
  const std::vector<std::uint32_t> keys = random_keys(n, 12);
  DeviceArray<std::uint32_t> in(n), out(n);
  in.upload(keys);
  for (const Method method : kMethods) {
    for (const std::uint32_t m : {5u, 300u, 3000u}) {
      SCOPED_TRACE(std::string(multisplit::to_string(method)) + " m=" + std::to_string(m));
      const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
      std::vector<std::uint32_t> want(n);
      const auto want_offsets = multisplit::reference::split_keys(keys.data(), want.data(), n, m, fn);
      DeviceArray<std::uint32_t> offsets(m + 1);
      out.poison();
      offsets.poison();
      std::size_t bytes = 0;
      ASSERT_EQ(multisplit::split_keys(nullptr, bytes, in.get(), out.get(), n, m, fn, offsets.get(), 0, method),
                cudaSuccess);
      DeviceArray<unsigned char> temp(bytes);
      cudaStream_t stream;
      ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
      cudaGraph_t graph;
      ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
      const cudaError_t split_err =
          multisplit::split_keys(temp.get(), bytes, in.get(), out.get(), n, m, fn, offsets.get(), stream, method);
      const cudaError_t end_err = cudaStreamEndCapture(stream, &graph);
      ASSERT_EQ(split_err, cudaSuccess) << cudaGetErrorString(split_err);
      ASSERT_EQ(end_err, cudaSuccess) << cudaGetErrorString(end_err);
      cudaGraphExec_t exec;
      ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
      ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
      multisplit_test::expect_equal(out.download(), want, "keys");
      multisplit_test::expect_equal(offsets.download(), want_offsets, "offsets");
      cudaGraphExecDestroy(exec);
      cudaGraphDestroy(graph);
      cudaStreamDestroy(stream);
    }
  }
}

// ---- n = 2^31 - 1: too big for a CPU reference, so the device checks the
// output. Keys are their own indices (all distinct), buckets a hash of them;
// the output is the stable multisplit exactly when every bucket's segment
// holds keys of that bucket in strictly increasing order and the segment
// sizes equal the bucket sizes.
struct HashBuckets {
  std::uint32_t num_buckets;
  __host__ __device__ std::uint32_t operator()(std::uint32_t key) const {
    std::uint32_t h = key * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    return h % num_buckets;
  }
};

__global__ void iota_kernel(std::uint32_t* keys, std::uint32_t n) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) keys[i] = i;
}

// Block-local counts first: 2^31 global atomics on 3 counters would take seconds.
__global__ void histogram_kernel(std::uint32_t n, HashBuckets fn, unsigned long long* counts) {
  extern __shared__ unsigned int local[];
  for (std::uint32_t b = threadIdx.x; b < fn.num_buckets; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(local + fn(i), 1u);
  __syncthreads();
  for (std::uint32_t b = threadIdx.x; b < fn.num_buckets; b += blockDim.x) atomicAdd(counts + b, local[b]);
}

__global__ void verify_kernel(const std::uint32_t* out, std::uint32_t n, HashBuckets fn, const std::uint32_t* offsets,
                              unsigned long long* errors) {
  for (std::uint32_t p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += gridDim.x * blockDim.x) {
    const std::uint32_t key = out[p];
    const std::uint32_t b = key < n ? fn(key) : 0;
    const bool in_segment = key < n && offsets[b] <= p && p < offsets[b + 1];
    const bool increasing = p + 1 >= offsets[b + 1] || out[p + 1] > key;
    if (!in_segment || !increasing) atomicAdd(errors, 1ull);
  }
}

TEST(MultisplitApi, LargestSizeCheckedOnDevice) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = 0x7FFFFFFFu;
  const std::size_t data_bytes = static_cast<std::size_t>(n) * 4;
  for (const Method method : kMethods) {
    for (const std::uint32_t m : {3u, 1000u}) {
      SCOPED_TRACE(std::string(multisplit::to_string(method)) + " m=" + std::to_string(m));
      const HashBuckets fn{m};
      std::size_t temp_bytes = 0;
      ASSERT_EQ(multisplit::split_keys<std::uint32_t>(nullptr, temp_bytes, nullptr, nullptr, n, m, fn, nullptr, 0,
                                                      method),
                cudaSuccess);
      std::size_t free_bytes = 0, total_bytes = 0;
      ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
      if (2 * data_bytes + temp_bytes + (std::size_t{1} << 28) > free_bytes) {
        std::cout << "[   INFO   ] skipping " << multisplit::to_string(method) << " m=" << m << ": needs "
                  << (2 * data_bytes + temp_bytes) / (1 << 20) << " MiB, " << free_bytes / (1 << 20)
                  << " MiB free\n";
        continue;
      }
      DeviceArray<std::uint32_t> in(n), out(n), offsets(m + 1);
      DeviceArray<unsigned char> temp(temp_bytes);
      DeviceArray<unsigned long long> counts(m + 1);
      iota_kernel<<<1024, 256>>>(in.get(), n);
      ASSERT_EQ(cudaGetLastError(), cudaSuccess);
      out.poison();
      offsets.poison();
      ASSERT_EQ(multisplit::split_keys(temp.get(), temp_bytes, in.get(), out.get(), n, m, fn, offsets.get(), 0, method),
                cudaSuccess);
      ASSERT_EQ(cudaMemset(counts.get(), 0, (m + 1) * sizeof(unsigned long long)), cudaSuccess);
      histogram_kernel<<<1024, 256, m * sizeof(unsigned int)>>>(n, fn, counts.get());
      verify_kernel<<<1024, 256>>>(out.get(), n, fn, offsets.get(), counts.get() + m);
      ASSERT_EQ(cudaGetLastError(), cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const std::vector<unsigned long long> count_host = counts.download();
      const std::vector<std::uint32_t> got_offsets = offsets.download();
      EXPECT_EQ(count_host[m], 0u) << "output positions out of their bucket's segment or out of order";
      std::uint64_t start = 0;
      for (std::uint32_t b = 0; b < m; ++b) {
        ASSERT_EQ(got_offsets[b], start) << "bucket " << b;
        start += count_host[b];
      }
      EXPECT_EQ(got_offsets[m], n);
    }
  }
}

}  // namespace
