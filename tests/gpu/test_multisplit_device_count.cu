// Device-side item counts: split_keys / split_pairs /
// histogram / reduce_by_bucket overloads that read n = min(*d_num_items,
// max_items) on the device. Against the CPU reference on the first n items:
// count 0, count = max, counts below max with garbage (keys of other
// buckets) past them, a count above max (clamped), every three-phase method
// and Auto, and graph capture replayed with a different count each time.
// Outputs are poisoned first; output slots past n must keep the poison.
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/method_cases.cuh"
#include "multisplit/histogram.cuh"
#include "multisplit/reduce_by_bucket.cuh"
#include "multisplit/reference_primitives.hpp"

#include <algorithm>
#include <string>

namespace {

using multisplit::Method;
using multisplit_test::DeviceArray;
using multisplit_test::Dist;
using NullValue = multisplit::detail::NullValue;

constexpr std::uint32_t kPoison = 0xA5A5A5A5u;  // DeviceArray::poison's byte pattern

const std::vector<Method> kMethods = {Method::Auto,   Method::Block,     Method::Warp,
                                      Method::Direct, Method::SortBased, Method::SmallN};

// Keys of max_items items: the first `split_n` follow `dist`, the rest are
// garbage (uniform over all buckets, so reading them would change counts).
std::vector<std::uint32_t> make_keys(std::uint32_t max_items, std::uint32_t m, Dist dist, std::uint64_t seed) {
  std::vector<std::uint32_t> ids = multisplit_test::make_buckets(max_items, m, dist, seed);
  const std::vector<std::uint32_t> garbage = multisplit_test::make_buckets(max_items, m, Dist::Uniform, seed + 1);
  // Alternate halves come from the garbage distribution: whatever the count,
  // the items just past it differ in distribution from those before.
  for (std::uint32_t i = 0; i < max_items; ++i)
    if ((i / 977) % 2 == 1) ids[i] = garbage[i];
  return multisplit_test::keys_for_buckets(ids, m, seed);
}

// One split with a device count into poisoned outputs, compared with the
// reference over the first min(count, max_items) items.
template <class Value>
void check_split(Method method, std::uint32_t max_items, std::uint32_t m, Dist dist,
                 const std::vector<std::uint32_t>& counts) {
  constexpr bool kPairs = multisplit::detail::has_values<Value>();
  const std::uint64_t seed = multisplit_test::case_seed(max_items, m, dist);
  const std::vector<std::uint32_t> keys = make_keys(max_items, m, dist, seed);
  std::vector<Value> values;
  if constexpr (kPairs) values = multisplit_test::random_values<Value>(max_items, seed);
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  DeviceArray<std::uint32_t> d_keys(max_items), d_keys_out(max_items), d_offsets(m + 1), d_count(1);
  DeviceArray<Value> d_values(kPairs ? max_items : 0), d_values_out(kPairs ? max_items : 0);
  d_keys.upload(keys);
  if constexpr (kPairs) d_values.upload(values);

  std::size_t temp_bytes = 0;
  Method used = Method::Auto;
  auto call = [&](void* temp, Method* report) {
    if constexpr (kPairs)
      return multisplit::split_pairs(temp, temp_bytes, d_keys.get(), d_keys_out.get(), d_values.get(),
                                     d_values_out.get(), d_count.get(), max_items, m, fn, d_offsets.get(), 0, method,
                                     report);
    else
      return multisplit::split_keys(temp, temp_bytes, d_keys.get(), d_keys_out.get(), d_count.get(), max_items, m,
                                    fn, d_offsets.get(), 0, method, report);
  };
  MS_CUDA_CHECK(call(nullptr, &used));
  ASSERT_NE(used, Method::SortBased) << "device counts must run a three-phase method";
  Method asked = Method::Auto;
  MS_CUDA_CHECK((multisplit::method_for_device_count<std::uint32_t, std::conditional_t<kPairs, Value, void>>(
      method, max_items, m, fn, &asked)));
  EXPECT_EQ(asked, used) << "method_for_device_count disagrees with the split";
  SCOPED_TRACE(std::string("method ran: ") + multisplit::to_string(used));
  DeviceArray<unsigned char> temp(temp_bytes);
  temp.poison();

  for (const std::uint32_t count : counts) {
    SCOPED_TRACE("count=" + std::to_string(count) + " max_items=" + std::to_string(max_items));
    const std::uint32_t n = std::min(count, max_items);
    std::vector<std::uint32_t> want_keys(max_items, kPoison);
    std::vector<Value> want_values(kPairs ? max_items : 0);
    std::vector<std::uint32_t> want_offsets;
    if constexpr (kPairs) {
      std::memset(want_values.data(), 0xA5, want_values.size() * sizeof(Value));
      want_offsets = multisplit::reference::split_pairs(keys.data(), want_keys.data(), values.data(),
                                                        want_values.data(), n, m, fn);
    } else {
      want_offsets = multisplit::reference::split_keys(keys.data(), want_keys.data(), n, m, fn);
    }
    d_keys_out.poison();
    d_values_out.poison();
    d_offsets.poison();
    MS_CUDA_CHECK(cudaMemcpy(d_count.get(), &count, sizeof(count), cudaMemcpyHostToDevice));
    MS_CUDA_CHECK(call(temp.get(), nullptr));
    MS_CUDA_CHECK(cudaDeviceSynchronize());
    // Whole buffers: past n the poison must survive.
    multisplit_test::expect_equal(d_offsets.download(), want_offsets, "bucket offsets");
    multisplit_test::expect_equal(d_keys_out.download(), want_keys, "keys (past n: untouched)");
    if constexpr (kPairs) multisplit_test::expect_equal(d_values_out.download(), want_values, "values");
    if (::testing::Test::HasFailure()) return;
  }
}

template <class Value>
void check_all_methods(std::uint32_t max_items, std::uint32_t m, Dist dist, const std::vector<std::uint32_t>& counts) {
  for (const Method method : kMethods) {
    SCOPED_TRACE(multisplit_test::case_name(max_items, m, dist, method));
    check_split<Value>(method, max_items, m, dist, counts);
    if (::testing::Test::HasFailure()) return;
  }
}

// 0, 1, a warp, a block tile +/- 1 (4096 keys, 10240 pairs in the
// 512-thread tile), a third, all but one, all, past the maximum.
std::vector<std::uint32_t> counts_for(std::uint32_t max_items) {
  std::vector<std::uint32_t> c = {0,     1, 32, 4095, 4097, 10239, 10241, max_items / 3 + 7, max_items - 1, max_items,
                                  max_items + 1000, 0xFFFFFFFFu};
  for (auto& x : c) x = x <= max_items || x >= max_items + 1000 ? x : max_items;
  return c;
}

TEST(MultisplitDeviceCount, KeysMatchReference) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t max_items : {100003u, (1u << 20) + 7}) {
    for (const std::uint32_t m : {1u, 2u, 3u, 32u, 33u, 100u, 256u, 1024u, 4096u}) {
      check_all_methods<NullValue>(max_items, m, Dist::Uniform, counts_for(max_items));
      if (HasFailure()) return;
    }
  }
}

TEST(MultisplitDeviceCount, SkewedKeysMatchReference) {
  SKIP_IF_NO_GPU();
  for (const Dist dist : {Dist::OneBucket, Dist::Zipf}) {
    for (const std::uint32_t m : {2u, 7u, 64u, 361u}) {
      check_all_methods<NullValue>(300007u, m, dist, counts_for(300007u));
      if (HasFailure()) return;
    }
  }
}

TEST(MultisplitDeviceCount, PairsMatchReference) {
  SKIP_IF_NO_GPU();
  // 3000017 pairs at 256 and 600 buckets: the 512- and 384-thread pair
  // tiles (enough pairs per SM on an H100 or H200; test_multisplit_pairs,
  // WidePairTile).
  for (const std::uint32_t m : {256u, 600u}) {
    check_all_methods<std::uint32_t>(3000017u, m, Dist::Uniform, counts_for(3000017u));
    if (HasFailure()) return;
  }
  for (const std::uint32_t m : {1u, 3u, 32u, 100u, 600u, 3000u}) {
    check_all_methods<std::uint32_t>(200003u, m, Dist::Uniform, counts_for(200003u));
    if (HasFailure()) return;
    check_all_methods<std::uint64_t>(70001u, m, Dist::Zipf, counts_for(70001u));
    if (HasFailure()) return;
  }
}

TEST(MultisplitDeviceCount, SmallMaxItems) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t max_items : {1u, 31u, 33u, 257u, 4096u}) {
    std::vector<std::uint32_t> counts;
    for (std::uint32_t c = 0; c <= max_items; c += std::max(1u, max_items / 7)) counts.push_back(c);
    counts.push_back(max_items);
    for (const std::uint32_t m : {1u, 5u, 40u, 300u}) {
      check_all_methods<NullValue>(max_items, m, Dist::Uniform, counts);
      if (HasFailure()) return;
      check_all_methods<std::uint32_t>(max_items, m, Dist::Uniform, counts);
      if (HasFailure()) return;
    }
  }
}

TEST(MultisplitDeviceCount, ZeroMaxItemsWritesZeroOffsets) {
  SKIP_IF_NO_GPU();
  const std::uint32_t m = 9;
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  DeviceArray<std::uint32_t> keys(1), out(1), offsets(m + 1), count(1);
  const std::uint32_t seven = 7;  // above max_items = 0: clamped to 0
  ASSERT_EQ(cudaMemcpy(count.get(), &seven, 4, cudaMemcpyHostToDevice), cudaSuccess);
  offsets.poison();
  std::size_t bytes = 0;
  ASSERT_EQ(multisplit::split_keys(nullptr, bytes, keys.get(), out.get(), count.get(), 0u, m, fn, offsets.get()),
            cudaSuccess);
  DeviceArray<unsigned char> temp(bytes);
  ASSERT_EQ(multisplit::split_keys(temp.get(), bytes, keys.get(), out.get(), count.get(), 0u, m, fn, offsets.get()),
            cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(offsets.download(), std::vector<std::uint32_t>(m + 1, 0u));
}

TEST(MultisplitDeviceCount, RejectsBadArguments) {
  SKIP_IF_NO_GPU();
  const std::uint32_t m = 4, max_items = 1000;
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  DeviceArray<std::uint32_t> keys(max_items), out(max_items), offsets(m + 1), count(1);
  std::size_t bytes = 0;
  ASSERT_EQ(multisplit::split_keys(nullptr, bytes, keys.get(), out.get(), count.get(), max_items, m, fn, offsets.get()),
            cudaSuccess);
  DeviceArray<unsigned char> temp(bytes);
  const std::uint32_t* no_count = nullptr;
  EXPECT_EQ(multisplit::split_keys(temp.get(), bytes, keys.get(), out.get(), no_count, max_items, m, fn, offsets.get()),
            cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::split_keys(temp.get(), bytes, keys.get(), out.get(), count.get(), max_items, 0u, fn,
                                   offsets.get()),
            cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::split_keys(temp.get(), bytes, keys.get(), out.get(), count.get(), 0x80000000u, m, fn,
                                   offsets.get()),
            cudaErrorInvalidValue);
  std::size_t small = bytes - 1;
  if (bytes > 1) {
    EXPECT_EQ(multisplit::split_keys(temp.get(), small, keys.get(), out.get(), count.get(), max_items, m, fn,
                                     offsets.get()),
              cudaErrorInvalidValue);
  }
  // Past every three-phase method's bucket limit there is nothing that
  // reads the count on the device.
  const std::uint32_t huge_m = 1u << 20;
  std::size_t huge_bytes = 0;
  EXPECT_EQ(multisplit::split_keys(nullptr, huge_bytes, keys.get(), out.get(), count.get(), max_items, huge_m,
                                   multisplit::identity_buckets<std::uint32_t>(), offsets.get()),
            cudaErrorNotSupported);
  Method used = Method::Auto;
  EXPECT_EQ(multisplit::method_for_device_count<std::uint32_t>(Method::Auto, huge_m,
                                                               multisplit::identity_buckets<std::uint32_t>(), &used),
            cudaErrorNotSupported);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// Captured once, replayed with a new count written to d_num_items before
// each launch (outside the graph, as a user's kernel would).
template <class Value>
void check_graph_replay(Method method, std::uint32_t m) {
  constexpr bool kPairs = multisplit::detail::has_values<Value>();
  const std::uint32_t max_items = 150001;
  const std::uint64_t seed = multisplit_test::case_seed(max_items, m, Dist::Uniform) + 5;
  const std::vector<std::uint32_t> keys = make_keys(max_items, m, Dist::Zipf, seed);
  std::vector<Value> values;
  if constexpr (kPairs) values = multisplit_test::random_values<Value>(max_items, seed);
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  DeviceArray<std::uint32_t> d_keys(max_items), d_keys_out(max_items), d_offsets(m + 1), d_count(1);
  DeviceArray<Value> d_values(kPairs ? max_items : 0), d_values_out(kPairs ? max_items : 0);
  d_keys.upload(keys);
  if constexpr (kPairs) d_values.upload(values);
  cudaStream_t stream;
  MS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::size_t bytes = 0;
  auto call = [&](void* temp) {
    if constexpr (kPairs)
      return multisplit::split_pairs(temp, bytes, d_keys.get(), d_keys_out.get(), d_values.get(), d_values_out.get(),
                                     d_count.get(), max_items, m, fn, d_offsets.get(), stream, method);
    else
      return multisplit::split_keys(temp, bytes, d_keys.get(), d_keys_out.get(), d_count.get(), max_items, m, fn,
                                    d_offsets.get(), stream, method);
  };
  MS_CUDA_CHECK(call(nullptr));
  DeviceArray<unsigned char> temp(bytes);
  temp.poison();
  cudaGraph_t graph;
  MS_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  const cudaError_t split_err = call(temp.get());
  const cudaError_t end_err = cudaStreamEndCapture(stream, &graph);
  ASSERT_EQ(split_err, cudaSuccess) << cudaGetErrorString(split_err);
  ASSERT_EQ(end_err, cudaSuccess) << cudaGetErrorString(end_err);
  cudaGraphExec_t exec;
  MS_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (const std::uint32_t count : {max_items, 0u, 12345u, 1u, max_items / 2 + 3, 4096u, max_items - 1, 77777u}) {
    SCOPED_TRACE("replay with count=" + std::to_string(count));
    std::vector<std::uint32_t> want_keys(max_items, kPoison);
    std::vector<Value> want_values(kPairs ? max_items : 0);
    std::vector<std::uint32_t> want_offsets;
    if constexpr (kPairs) {
      std::memset(want_values.data(), 0xA5, want_values.size() * sizeof(Value));
      want_offsets = multisplit::reference::split_pairs(keys.data(), want_keys.data(), values.data(),
                                                        want_values.data(), count, m, fn);
    } else {
      want_offsets = multisplit::reference::split_keys(keys.data(), want_keys.data(), count, m, fn);
    }
    d_keys_out.poison();
    d_values_out.poison();
    d_offsets.poison();
    MS_CUDA_CHECK(cudaMemcpyAsync(d_count.get(), &count, sizeof(count), cudaMemcpyHostToDevice, stream));
    MS_CUDA_CHECK(cudaGraphLaunch(exec, stream));
    MS_CUDA_CHECK(cudaStreamSynchronize(stream));
    multisplit_test::expect_equal(d_offsets.download(), want_offsets, "bucket offsets");
    multisplit_test::expect_equal(d_keys_out.download(), want_keys, "keys (past n: untouched)");
    if constexpr (kPairs) multisplit_test::expect_equal(d_values_out.download(), want_values, "values");
    if (::testing::Test::HasFailure()) break;
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

TEST(MultisplitDeviceCount, GraphCaptureReplaysWithChangingCounts) {
  SKIP_IF_NO_GPU();
  for (const Method method : kMethods) {
    for (const std::uint32_t m : {2u, 10u, 64u, 300u, 3000u}) {
      SCOPED_TRACE(std::string(multisplit::to_string(method)) + " m=" + std::to_string(m));
      check_graph_replay<NullValue>(method, m);
      if (HasFailure()) return;
      check_graph_replay<std::uint32_t>(method, m);
      if (HasFailure()) return;
    }
  }
}

// ---- histogram and reduce_by_bucket with device counts.
TEST(MultisplitDeviceCount, HistogramMatchesReference) {
  SKIP_IF_NO_GPU();
  const std::uint32_t max_items = (1u << 20) + 7;
  for (const std::uint32_t m : {1u, 7u, 32u, 33u, 256u, 5000u, 100000u}) {
    SCOPED_TRACE("m=" + std::to_string(m));
    const std::vector<std::uint32_t> keys = make_keys(max_items, m, Dist::Zipf, m);
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    DeviceArray<std::uint32_t> d_keys(max_items), d_counts(m), d_count(1);
    d_keys.upload(keys);
    std::size_t bytes = 0;
    ASSERT_EQ(multisplit::histogram(nullptr, bytes, d_keys.get(), d_count.get(), max_items, m, fn, d_counts.get()),
              cudaSuccess);
    DeviceArray<unsigned char> temp(bytes);
    for (const std::uint32_t count : counts_for(max_items)) {
      SCOPED_TRACE("count=" + std::to_string(count));
      d_counts.poison();
      ASSERT_EQ(cudaMemcpy(d_count.get(), &count, 4, cudaMemcpyHostToDevice), cudaSuccess);
      ASSERT_EQ(
          multisplit::histogram(temp.get(), bytes, d_keys.get(), d_count.get(), max_items, m, fn, d_counts.get()),
          cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      multisplit_test::expect_equal(d_counts.download(),
                                    multisplit::reference::histogram(keys.data(), std::min(count, max_items), m, fn),
                                    "counts");
      if (HasFailure()) return;
    }
  }
  const std::uint32_t* no_count = nullptr;
  std::size_t one = 1;
  DeviceArray<std::uint32_t> keys(4), counts(4);
  EXPECT_EQ(multisplit::histogram(keys.get(), one, keys.get(), no_count, 4u, 4u,
                                  multisplit::identity_buckets<std::uint32_t>(), counts.get()),
            cudaErrorInvalidValue);
}

TEST(MultisplitDeviceCount, ReduceByBucketMatchesReference) {
  SKIP_IF_NO_GPU();
  const std::uint32_t max_items = 300007;
  for (const std::uint32_t m : {1u, 5u, 32u, 100u, 1000u}) {
    SCOPED_TRACE("m=" + std::to_string(m));
    const std::vector<std::uint32_t> keys = make_keys(max_items, m, Dist::Uniform, m + 3);
    const std::vector<std::uint32_t> values = multisplit_test::random_values<std::uint32_t>(max_items, m);
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    DeviceArray<std::uint32_t> d_keys(max_items), d_values(max_items), d_sums(m), d_mins(m), d_counts(m), d_count(1);
    d_keys.upload(keys);
    d_values.upload(values);
    std::size_t sum_bytes = 0, min_bytes = 0;
    ASSERT_EQ(multisplit::reduce_by_bucket(nullptr, sum_bytes, d_keys.get(), d_values.get(), d_count.get(), max_items,
                                           m, fn, multisplit::sum_op{}, 0u, d_sums.get(), d_counts.get()),
              cudaSuccess);
    ASSERT_EQ(multisplit::reduce_by_bucket(nullptr, min_bytes, d_keys.get(), d_values.get(), d_count.get(), max_items,
                                           m, fn, multisplit::min_op{}, 0xFFFFFFFFu, d_mins.get(),
                                           static_cast<std::uint32_t*>(nullptr)),
              cudaSuccess);
    DeviceArray<unsigned char> sum_temp(sum_bytes), min_temp(min_bytes);
    for (const std::uint32_t count : counts_for(max_items)) {
      SCOPED_TRACE("count=" + std::to_string(count));
      const std::uint32_t n = std::min(count, max_items);
      const auto want_sum =
          multisplit::reference::reduce_by_bucket(keys.data(), values.data(), n, m, fn, multisplit::sum_op{}, 0u);
      const auto want_min = multisplit::reference::reduce_by_bucket(keys.data(), values.data(), n, m, fn,
                                                                    multisplit::min_op{}, 0xFFFFFFFFu);
      d_sums.poison();
      d_mins.poison();
      d_counts.poison();
      ASSERT_EQ(cudaMemcpy(d_count.get(), &count, 4, cudaMemcpyHostToDevice), cudaSuccess);
      ASSERT_EQ(multisplit::reduce_by_bucket(sum_temp.get(), sum_bytes, d_keys.get(), d_values.get(), d_count.get(),
                                             max_items, m, fn, multisplit::sum_op{}, 0u, d_sums.get(),
                                             d_counts.get()),
                cudaSuccess);
      ASSERT_EQ(multisplit::reduce_by_bucket(min_temp.get(), min_bytes, d_keys.get(), d_values.get(), d_count.get(),
                                             max_items, m, fn, multisplit::min_op{}, 0xFFFFFFFFu, d_mins.get(),
                                             static_cast<std::uint32_t*>(nullptr)),
                cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      multisplit_test::expect_equal(d_sums.download(), want_sum.values, "sums");
      multisplit_test::expect_equal(d_counts.download(), want_sum.counts, "counts");
      multisplit_test::expect_equal(d_mins.download(), want_min.values, "mins");
      if (HasFailure()) return;
    }
  }
}

// Histogram and reduce_by_bucket captured once, replayed with new counts.
TEST(MultisplitDeviceCount, HistogramAndReduceReplayInGraph) {
  SKIP_IF_NO_GPU();
  const std::uint32_t max_items = 123457, m = 12;
  const std::vector<std::uint32_t> keys = make_keys(max_items, m, Dist::Zipf, 99);
  const std::vector<std::uint32_t> values = multisplit_test::random_values<std::uint32_t>(max_items, 98);
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  DeviceArray<std::uint32_t> d_keys(max_items), d_values(max_items), d_hist(m), d_sums(m), d_counts(m), d_count(1);
  d_keys.upload(keys);
  d_values.upload(values);
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  std::size_t hist_bytes = 0, reduce_bytes = 0;
  ASSERT_EQ(multisplit::histogram(nullptr, hist_bytes, d_keys.get(), d_count.get(), max_items, m, fn, d_hist.get()),
            cudaSuccess);
  ASSERT_EQ(multisplit::reduce_by_bucket(nullptr, reduce_bytes, d_keys.get(), d_values.get(), d_count.get(), max_items,
                                         m, fn, multisplit::sum_op{}, 0u, d_sums.get(), d_counts.get()),
            cudaSuccess);
  DeviceArray<unsigned char> hist_temp(hist_bytes), reduce_temp(reduce_bytes);
  cudaGraph_t graph;
  ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
  const cudaError_t hist_err = multisplit::histogram(hist_temp.get(), hist_bytes, d_keys.get(), d_count.get(),
                                                     max_items, m, fn, d_hist.get(), stream);
  const cudaError_t reduce_err =
      multisplit::reduce_by_bucket(reduce_temp.get(), reduce_bytes, d_keys.get(), d_values.get(), d_count.get(),
                                   max_items, m, fn, multisplit::sum_op{}, 0u, d_sums.get(), d_counts.get(), stream);
  const cudaError_t end_err = cudaStreamEndCapture(stream, &graph);
  ASSERT_EQ(hist_err, cudaSuccess) << cudaGetErrorString(hist_err);
  ASSERT_EQ(reduce_err, cudaSuccess) << cudaGetErrorString(reduce_err);
  ASSERT_EQ(end_err, cudaSuccess) << cudaGetErrorString(end_err);
  cudaGraphExec_t exec;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (const std::uint32_t count : {max_items, 0u, 999u, max_items / 2, 1u}) {
    SCOPED_TRACE("count=" + std::to_string(count));
    d_hist.poison();
    d_sums.poison();
    d_counts.poison();
    ASSERT_EQ(cudaMemcpyAsync(d_count.get(), &count, 4, cudaMemcpyHostToDevice, stream), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    const auto want = multisplit::reference::reduce_by_bucket(keys.data(), values.data(), count, m, fn,
                                                              multisplit::sum_op{}, 0u);
    multisplit_test::expect_equal(d_hist.download(), multisplit::reference::histogram(keys.data(), count, m, fn),
                                  "histogram");
    multisplit_test::expect_equal(d_sums.download(), want.values, "sums");
    multisplit_test::expect_equal(d_counts.download(), want.counts, "counts");
    if (HasFailure()) break;
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

}  // namespace
