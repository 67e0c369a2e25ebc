// The small-n path: Method::SmallN, one cooperative kernel
// launch per split. Against the CPU reference (outputs and temporary storage
// poisoned first; bit-exact keys, values and offsets, which checks
// stability): n in {0, 1, 31, 1000, 4096 + 17, 65536, 2^18}, m in {1, 2, 10,
// 32, 256}, keys and pairs, skewed buckets, device counts with garbage past
// the count, back-to-back calls sharing one temporary buffer, a CUDA graph
// replayed with changing counts, Auto's choice and the hand-over past the
// limits.
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/method_cases.cuh"

#include <algorithm>
#include <string>
#include <vector>

namespace {

using multisplit::Method;
using multisplit_test::DeviceArray;
using multisplit_test::Dist;
using NullValue = multisplit::detail::NullValue;

constexpr std::uint32_t kBound = multisplit::detail::kSmallNAutoMaxItems;  // 2^18
const std::vector<std::uint32_t> kSizes = {0, 1, 31, 1000, 4096 + 17, 65536, kBound};
const std::vector<std::uint32_t> kBuckets = {1, 2, 10, 32, 256};

// Skips (visibly) where the device offers no cooperative launch: SmallN
// then hands over to Block everywhere, which the other suites test.
#define SKIP_IF_NO_SMALL_N()                                                                         \
  do {                                                                                               \
    SKIP_IF_NO_GPU();                                                                                \
    Method probe = Method::Auto;                                                                     \
    ASSERT_EQ(multisplit::method_for<std::uint32_t>(Method::SmallN, 1000u, 10u,                      \
                                                    multisplit::delta_buckets<std::uint32_t>::spanning(10), &probe), \
              cudaSuccess);                                                                          \
    if (probe != Method::SmallN) GTEST_SKIP() << "no cooperative launch on this device; SmallN not offered"; \
  } while (0)

template <class Value>
void expect_small_n_runs(std::uint32_t n, std::uint32_t m) {
  using V = std::conditional_t<multisplit::detail::has_values<Value>(), Value, void>;
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  for (const Method asked : {Method::SmallN, Method::Auto}) {
    Method used = Method::Block;
    ASSERT_EQ((multisplit::method_for<std::uint32_t, V>(asked, n, m, fn, &used)), cudaSuccess);
    EXPECT_EQ(used, Method::SmallN) << "n=" << n << " m=" << m << " asked " << multisplit::to_string(asked);
  }
}

TEST(MultisplitSmallN, KeysMatchReference) {
  SKIP_IF_NO_SMALL_N();
  for (const std::uint32_t n : kSizes)
    for (const std::uint32_t m : kBuckets) {
      expect_small_n_runs<NullValue>(n, m);
      multisplit_test::check_methods<NullValue>(n, m, Dist::Uniform, {Method::SmallN, Method::Auto});
      if (HasFailure()) return;
    }
}

TEST(MultisplitSmallN, SkewedKeysMatchReference) {
  SKIP_IF_NO_SMALL_N();
  for (const Dist dist : {Dist::OneBucket, Dist::Zipf, Dist::Binomial})
    for (const std::uint32_t n : {1000u, 4096u + 17u, 65536u, kBound})
      for (const std::uint32_t m : {2u, 10u, 256u}) {
        multisplit_test::check_methods<NullValue>(n, m, dist, {Method::SmallN});
        if (HasFailure()) return;
      }
}

TEST(MultisplitSmallN, PairsMatchReference) {
  SKIP_IF_NO_SMALL_N();
  for (const std::uint32_t n : kSizes)
    for (const std::uint32_t m : kBuckets) {
      expect_small_n_runs<std::uint32_t>(n, m);
      multisplit_test::check_methods<std::uint32_t>(n, m, Dist::Uniform, {Method::SmallN, Method::Auto});
      if (HasFailure()) return;
      multisplit_test::check_methods<std::uint64_t>(n, m, Dist::Zipf, {Method::SmallN});
      if (HasFailure()) return;
    }
}

// Every key in one bucket: the output is the input, in order (stability made
// visible), across every tile boundary of a multi-block split.
TEST(MultisplitSmallN, OneBucketKeepsInputOrder) {
  SKIP_IF_NO_SMALL_N();
  const std::uint32_t n = 100003, m = 10;
  std::vector<std::uint32_t> keys(n);
  for (std::uint32_t i = 0; i < n; ++i) keys[i] = 0x50000000u + (i * 2654435761u) % 0x10000000u;  // all bucket 3
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  ASSERT_EQ(fn(keys[0]), 3u);
  DeviceArray<std::uint32_t> d_in(n);
  d_in.upload(keys);
  std::vector<std::uint32_t> want_offsets = {0, 0, 0, 0, n, n, n, n, n, n, n};
  multisplit_test::run_and_compare<std::uint32_t, NullValue>(Method::SmallN, d_in, DeviceArray<NullValue>(0), m, fn,
                                                             keys, {}, want_offsets);
}

// Device counts: max_items sizes the grid, min(*d_num_items, max_items) items
// are split; items past the count are of other buckets and must be ignored;
// output slots past n keep their poison.
template <class Value>
void check_device_count(std::uint32_t max_items, std::uint32_t m) {
  constexpr bool kPairs = multisplit::detail::has_values<Value>();
  using V = std::conditional_t<kPairs, Value, void>;
  const std::uint64_t seed = multisplit_test::case_seed(max_items, m, Dist::Zipf) + 11;
  std::vector<std::uint32_t> ids = multisplit_test::make_buckets(max_items, m, Dist::Zipf, seed);
  const std::vector<std::uint32_t> garbage = multisplit_test::make_buckets(max_items, m, Dist::Uniform, seed + 1);
  for (std::uint32_t i = 0; i < max_items; ++i)
    if ((i / 977) % 2 == 1) ids[i] = garbage[i];
  const std::vector<std::uint32_t> keys = multisplit_test::keys_for_buckets(ids, m, seed);
  std::vector<Value> values;
  if constexpr (kPairs) values = multisplit_test::random_values<Value>(max_items, seed);
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  DeviceArray<std::uint32_t> d_keys(max_items), d_keys_out(max_items), d_offsets(m + 1), d_count(1);
  DeviceArray<Value> d_values(kPairs ? max_items : 0), d_values_out(kPairs ? max_items : 0);
  d_keys.upload(keys);
  if constexpr (kPairs) d_values.upload(values);

  for (const Method method : {Method::SmallN, Method::Auto}) {
    SCOPED_TRACE(std::string("method=") + multisplit::to_string(method) + " max_items=" + std::to_string(max_items) +
                 " m=" + std::to_string(m));
    std::size_t temp_bytes = 0;
    auto call = [&](void* temp, Method* report) {
      if constexpr (kPairs)
        return multisplit::split_pairs(temp, temp_bytes, d_keys.get(), d_keys_out.get(), d_values.get(),
                                       d_values_out.get(), d_count.get(), max_items, m, fn, d_offsets.get(), 0,
                                       method, report);
      else
        return multisplit::split_keys(temp, temp_bytes, d_keys.get(), d_keys_out.get(), d_count.get(), max_items, m,
                                      fn, d_offsets.get(), 0, method, report);
    };
    Method used = Method::Block;
    MS_CUDA_CHECK(call(nullptr, &used));
    EXPECT_EQ(used, Method::SmallN);
    Method asked = Method::Block;
    MS_CUDA_CHECK((multisplit::method_for_device_count<std::uint32_t, V>(method, max_items, m, fn, &asked)));
    EXPECT_EQ(asked, used) << "method_for_device_count disagrees with the split";
    DeviceArray<unsigned char> temp(temp_bytes);
    temp.poison();
    const std::vector<std::uint32_t> counts = {
        0, 1, 31, std::min(1000u, max_items), max_items / 2 + 3, max_items - 1, max_items, max_items + 1000,
        0xFFFFFFFFu};
    for (const std::uint32_t count : counts) {
      SCOPED_TRACE("count=" + std::to_string(count));
      const std::uint32_t n = std::min(count, max_items);
      std::vector<std::uint32_t> want_keys(max_items, 0xA5A5A5A5u);
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
      multisplit_test::expect_equal(d_offsets.download(), want_offsets, "bucket offsets");
      multisplit_test::expect_equal(d_keys_out.download(), want_keys, "keys (past n: untouched)");
      if constexpr (kPairs) multisplit_test::expect_equal(d_values_out.download(), want_values, "values");
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST(MultisplitSmallN, DeviceCountKeys) {
  SKIP_IF_NO_SMALL_N();
  for (const std::uint32_t max_items : {1u, 4096u + 17u, 65536u, kBound})
    for (const std::uint32_t m : kBuckets) {
      check_device_count<NullValue>(max_items, m);
      if (HasFailure()) return;
    }
}

TEST(MultisplitSmallN, DeviceCountPairs) {
  SKIP_IF_NO_SMALL_N();
  for (const std::uint32_t max_items : {31u, 65536u, kBound})
    for (const std::uint32_t m : {1u, 10u, 256u}) {
      check_device_count<std::uint32_t>(max_items, m);
      if (HasFailure()) return;
      check_device_count<std::uint64_t>(max_items, m);
      if (HasFailure()) return;
    }
}

// Several splits launched back to back on one stream, sharing one temporary
// buffer, with no synchronisation between them: no state may leak from one
// launch into the next.
TEST(MultisplitSmallN, BackToBackCallsShareTemp) {
  SKIP_IF_NO_SMALL_N();
  const std::uint32_t m = 10;
  const std::vector<std::uint32_t> sizes = {65536, 1000, kBound, 1, 4096 + 17, 65536, 31, kBound - 5};
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  cudaStream_t stream;
  MS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::size_t temp_bytes = 0;
  MS_CUDA_CHECK(multisplit::split_keys(nullptr, temp_bytes, static_cast<const std::uint32_t*>(nullptr),
                                       static_cast<std::uint32_t*>(nullptr), kBound, m, fn, nullptr, stream,
                                       Method::SmallN));
  DeviceArray<unsigned char> temp(temp_bytes);
  temp.poison();
  std::vector<std::vector<std::uint32_t>> keys;
  std::vector<std::unique_ptr<DeviceArray<std::uint32_t>>> ins, outs, offsets;
  for (std::size_t c = 0; c < sizes.size(); ++c) {
    const std::uint32_t n = sizes[c];
    const std::uint64_t seed = multisplit_test::case_seed(n, m, Dist::Zipf) + c;
    keys.push_back(multisplit_test::keys_for_buckets(multisplit_test::make_buckets(n, m, Dist::Zipf, seed), m, seed));
    ins.push_back(std::make_unique<DeviceArray<std::uint32_t>>(n));
    outs.push_back(std::make_unique<DeviceArray<std::uint32_t>>(n));
    offsets.push_back(std::make_unique<DeviceArray<std::uint32_t>>(m + 1));
    ins.back()->upload(keys.back());
    outs.back()->poison();
    offsets.back()->poison();
  }
  for (std::size_t c = 0; c < sizes.size(); ++c) {
    Method used = Method::Block;
    MS_CUDA_CHECK(multisplit::split_keys(temp.get(), temp_bytes, ins[c]->get(), outs[c]->get(), sizes[c], m, fn,
                                         offsets[c]->get(), stream, Method::SmallN, &used));
    EXPECT_EQ(used, Method::SmallN);
  }
  MS_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (std::size_t c = 0; c < sizes.size(); ++c) {
    SCOPED_TRACE("call " + std::to_string(c) + " n=" + std::to_string(sizes[c]));
    std::vector<std::uint32_t> want(sizes[c]);
    const auto want_offsets = multisplit::reference::split_keys(keys[c].data(), want.data(), sizes[c], m, fn);
    multisplit_test::expect_equal(offsets[c]->download(), want_offsets, "bucket offsets");
    multisplit_test::expect_equal(outs[c]->download(), want, "keys");
  }
  cudaStreamDestroy(stream);
}

// Captured once into a CUDA graph (the cooperative launch becomes a kernel
// node), replayed with a new count each time, back to back.
template <class Value>
void check_graph_replay(std::uint32_t max_items, std::uint32_t m, Method method) {
  constexpr bool kPairs = multisplit::detail::has_values<Value>();
  const std::uint64_t seed = multisplit_test::case_seed(max_items, m, Dist::Uniform) + 5;
  const std::vector<std::uint32_t> keys =
      multisplit_test::keys_for_buckets(multisplit_test::make_buckets(max_items, m, Dist::Zipf, seed), m, seed);
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
  Method used = Method::Block;
  auto call = [&](void* temp, Method* report) {
    if constexpr (kPairs)
      return multisplit::split_pairs(temp, bytes, d_keys.get(), d_keys_out.get(), d_values.get(), d_values_out.get(),
                                     d_count.get(), max_items, m, fn, d_offsets.get(), stream, method, report);
    else
      return multisplit::split_keys(temp, bytes, d_keys.get(), d_keys_out.get(), d_count.get(), max_items, m, fn,
                                    d_offsets.get(), stream, method, report);
  };
  MS_CUDA_CHECK(call(nullptr, &used));
  EXPECT_EQ(used, Method::SmallN);
  DeviceArray<unsigned char> temp(bytes);
  temp.poison();
  cudaGraph_t graph;
  MS_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  const cudaError_t split_err = call(temp.get(), nullptr);
  const cudaError_t end_err = cudaStreamEndCapture(stream, &graph);
  ASSERT_EQ(split_err, cudaSuccess) << cudaGetErrorString(split_err);
  ASSERT_EQ(end_err, cudaSuccess) << cudaGetErrorString(end_err);
  cudaGraphExec_t exec;
  MS_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (const std::uint32_t count : {max_items, 0u, 12345u, 1u, max_items / 2 + 3, 4096u, max_items - 1, 77777u,
                                    0xFFFFFFFFu}) {
    SCOPED_TRACE("replay count=" + std::to_string(count));
    const std::uint32_t n = std::min(count, max_items);
    d_keys_out.poison();
    d_values_out.poison();
    d_offsets.poison();
    // Written on the stream, in order with the replay (as a user's kernel would).
    MS_CUDA_CHECK(cudaMemcpyAsync(d_count.get(), &count, sizeof(count), cudaMemcpyHostToDevice, stream));
    MS_CUDA_CHECK(cudaGraphLaunch(exec, stream));
    MS_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<std::uint32_t> want_keys(max_items, 0xA5A5A5A5u);
    std::vector<Value> want_values(kPairs ? max_items : 0);
    std::vector<std::uint32_t> want_offsets;
    if constexpr (kPairs) {
      std::memset(want_values.data(), 0xA5, want_values.size() * sizeof(Value));
      want_offsets = multisplit::reference::split_pairs(keys.data(), want_keys.data(), values.data(),
                                                        want_values.data(), n, m, fn);
    } else {
      want_offsets = multisplit::reference::split_keys(keys.data(), want_keys.data(), n, m, fn);
    }
    multisplit_test::expect_equal(d_offsets.download(), want_offsets, "bucket offsets");
    multisplit_test::expect_equal(d_keys_out.download(), want_keys, "keys");
    if constexpr (kPairs) multisplit_test::expect_equal(d_values_out.download(), want_values, "values");
    if (::testing::Test::HasFailure()) break;
  }
  // 20 replays back to back, no host synchronisation: each count is copied
  // on the stream from a device array just before its replay.
  const std::uint32_t last = max_items / 3 + 1;
  std::vector<std::uint32_t> replay_counts(20);
  for (std::uint32_t r = 0; r < 20; ++r) replay_counts[r] = r == 19 ? last : (r * 7919u) % (max_items + 1);
  DeviceArray<std::uint32_t> d_replay_counts(replay_counts.size());
  d_replay_counts.upload(replay_counts);
  for (std::uint32_t r = 0; r < 20; ++r) {
    MS_CUDA_CHECK(cudaMemcpyAsync(d_count.get(), d_replay_counts.get() + r, sizeof(std::uint32_t),
                                  cudaMemcpyDeviceToDevice, stream));
    MS_CUDA_CHECK(cudaGraphLaunch(exec, stream));
  }
  MS_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<std::uint32_t> want_keys(last);
  std::vector<Value> want_values(kPairs ? last : 0);
  std::vector<std::uint32_t> want_offsets;
  if constexpr (kPairs)
    want_offsets = multisplit::reference::split_pairs(keys.data(), want_keys.data(), values.data(),
                                                      want_values.data(), last, m, fn);
  else
    want_offsets = multisplit::reference::split_keys(keys.data(), want_keys.data(), last, m, fn);
  multisplit_test::expect_equal(d_offsets.download(), want_offsets, "bucket offsets after back-to-back replays");
  std::vector<std::uint32_t> got = d_keys_out.download();
  got.resize(last);
  multisplit_test::expect_equal(got, want_keys, "keys after back-to-back replays");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

TEST(MultisplitSmallN, GraphReplayWithChangingCounts) {
  SKIP_IF_NO_SMALL_N();
  for (const std::uint32_t m : {2u, 10u, 256u}) {
    check_graph_replay<NullValue>(150001u, m, Method::Auto);
    if (HasFailure()) return;
    check_graph_replay<std::uint32_t>(kBound, m, Method::SmallN);
    if (HasFailure()) return;
  }
}

// A temporary size queried with Auto for a large n (a three-phase method)
// must also serve a smaller n that runs SmallN.
TEST(MultisplitSmallN, TempQueriedForLargeNServesSmallN) {
  SKIP_IF_NO_SMALL_N();
  const std::uint32_t m = 256;
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  std::size_t bytes = 0;
  MS_CUDA_CHECK(multisplit::split_keys(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                       static_cast<std::uint32_t*>(nullptr), kBound + 1, m, fn, nullptr));
  std::size_t small_bytes = 0;
  MS_CUDA_CHECK(multisplit::split_keys(nullptr, small_bytes, static_cast<const std::uint32_t*>(nullptr),
                                       static_cast<std::uint32_t*>(nullptr), kBound, m, fn, nullptr));
  EXPECT_GE(bytes, small_bytes);
  std::size_t dc_bytes = 0, dc_small_bytes = 0;
  const std::uint32_t* no_count = nullptr;
  MS_CUDA_CHECK(multisplit::split_keys(nullptr, dc_bytes, static_cast<const std::uint32_t*>(nullptr),
                                       static_cast<std::uint32_t*>(nullptr), no_count, kBound + 1, m, fn, nullptr));
  MS_CUDA_CHECK(multisplit::split_keys(nullptr, dc_small_bytes, static_cast<const std::uint32_t*>(nullptr),
                                       static_cast<std::uint32_t*>(nullptr), no_count, kBound, m, fn, nullptr));
  EXPECT_GE(dc_bytes, dc_small_bytes);
}

// Auto above the bound and past 256 buckets keeps its large-n choice; an
// explicit SmallN past its limits hands over to Block.
TEST(MultisplitSmallN, AutoRuleAndHandOver) {
  SKIP_IF_NO_SMALL_N();
  const auto fn10 = multisplit::delta_buckets<std::uint32_t>::spanning(10);
  const auto fn300 = multisplit::delta_buckets<std::uint32_t>::spanning(300);
  Method used = Method::Auto;
  ASSERT_EQ(multisplit::method_for<std::uint32_t>(Method::Auto, kBound + 1, 10u, fn10, &used), cudaSuccess);
  EXPECT_EQ(used, Method::Block);
  ASSERT_EQ(multisplit::method_for<std::uint32_t>(Method::Auto, 1000u, 300u, fn300, &used), cudaSuccess);
  EXPECT_EQ(used, Method::Block);
  ASSERT_EQ(multisplit::method_for<std::uint32_t>(Method::SmallN, 1000u, 300u, fn300, &used), cudaSuccess);
  EXPECT_EQ(used, Method::Block);
  ASSERT_EQ(multisplit::method_for<std::uint32_t>(Method::SmallN, 0x7FFFFFFFu, 10u, fn10, &used), cudaSuccess);
  EXPECT_EQ(used, Method::Block);
  ASSERT_EQ(multisplit::method_for<std::uint32_t>(Method::SmallN, 10u, fn10, &used), cudaSuccess);
  EXPECT_EQ(used, Method::Block) << "without n: the answer for a large n";
  ASSERT_EQ(multisplit::method_for_device_count<std::uint32_t>(Method::Auto, kBound, 10u, fn10, &used), cudaSuccess);
  EXPECT_EQ(used, Method::SmallN);
  ASSERT_EQ(multisplit::method_for_device_count<std::uint32_t>(Method::Auto, kBound + 1, 10u, fn10, &used),
            cudaSuccess);
  EXPECT_EQ(used, Method::Block);
  // Past the limits the split still runs and matches the reference.
  multisplit_test::check_methods<NullValue>(4096 + 17, 300, Dist::Uniform, {Method::SmallN});
  EXPECT_EQ(multisplit::parse_method(multisplit::to_string(Method::SmallN)), Method::SmallN);
}

// 64-bit keys and float keys (other tile types), against the reference.
TEST(MultisplitSmallN, WideAndFloatKeys) {
  SKIP_IF_NO_SMALL_N();
  for (const std::uint32_t n : {1000u, 65536u + 3u}) {
    const std::uint32_t m = 37;
    std::vector<std::uint64_t> keys(n);
    for (std::uint32_t i = 0; i < n; ++i) keys[i] = (std::uint64_t{i} * 0x9E3779B97F4A7C15ull) ^ (i >> 3);
    const auto fn = multisplit::delta_buckets<std::uint64_t>::spanning(m);
    std::vector<std::uint64_t> want(n);
    std::vector<std::uint64_t> values(n), want_values(n);
    for (std::uint32_t i = 0; i < n; ++i) values[i] = i;
    const auto want_offsets =
        multisplit::reference::split_pairs(keys.data(), want.data(), values.data(), want_values.data(), n, m, fn);
    DeviceArray<std::uint64_t> d_in(n), d_values(n);
    d_in.upload(keys);
    d_values.upload(values);
    multisplit_test::run_and_compare<std::uint64_t, std::uint64_t>(Method::SmallN, d_in, d_values, m, fn, want,
                                                                   want_values, want_offsets);
    if (HasFailure()) return;
    std::vector<float> fkeys(n), fwant(n);
    for (std::uint32_t i = 0; i < n; ++i) fkeys[i] = static_cast<float>((i * 7919u) % 1000u) * 0.5f;
    const multisplit::delta_buckets<float> ffn(0.0f, 500.0f / m, m);
    const auto fwant_offsets = multisplit::reference::split_keys(fkeys.data(), fwant.data(), n, m, ffn);
    DeviceArray<float> d_f(n);
    d_f.upload(fkeys);
    multisplit_test::run_and_compare<float, NullValue>(Method::SmallN, d_f, DeviceArray<NullValue>(0), m, ffn, fwant,
                                                       {}, fwant_offsets);
    if (HasFailure()) return;
  }
}

}  // namespace
