// Multisplit radix sort (multisplit/sort.cuh): sort_keys and sort_pairs equal
// std::stable_sort by the key bits [begin_bit, end_bit) exactly, keys and
// values, for the sizes around every tile edge, uniform, few-distinct,
// all-equal, sorted and reversed keys, narrow bit ranges, every digit width
// r = 1..8 with every post-scan method and both pre-scans, in place,
// unaligned, on a stream, captured into a CUDA graph, 64-bit keys, and
// n = 2^31 - 1 checked on the device. Outputs and temporary storage are
// poisoned first.
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/split_check.cuh"
#include "multisplit/sort.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using multisplit::Method;
using multisplit::detail::SortTuning;
using multisplit_test::DeviceArray;
using multisplit_test::expect_equal;

enum class Dist { Uniform, FewDistinct, AllEqual, Sorted, Reversed };

const char* to_string(Dist d) {
  switch (d) {
    case Dist::Uniform: return "uniform";
    case Dist::FewDistinct: return "few-distinct";
    case Dist::AllEqual: return "all-equal";
    case Dist::Sorted: return "sorted";
    case Dist::Reversed: return "reversed";
  }
  return "?";
}

template <class Key>
std::vector<Key> make_keys(std::size_t n, Dist dist, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 1);
  std::vector<Key> keys(n);
  for (auto& k : keys) k = static_cast<Key>(rng());
  switch (dist) {
    case Dist::Uniform: break;
    case Dist::FewDistinct: {  // 7 values spread over the whole key range: every pass sees ties
      std::vector<Key> pool(7);
      for (auto& p : pool) p = static_cast<Key>(rng());
      for (auto& k : keys) k = pool[rng() % pool.size()];
      break;
    }
    case Dist::AllEqual: std::fill(keys.begin(), keys.end(), static_cast<Key>(rng())); break;
    case Dist::Sorted: std::sort(keys.begin(), keys.end()); break;
    case Dist::Reversed: std::sort(keys.begin(), keys.end(), [](Key a, Key b) { return a > b; }); break;
  }
  return keys;
}

template <class Key>
Key bit_field(Key key, int begin_bit, int end_bit) {
  const int width = end_bit - begin_bit;
  if (width == 0) return 0;
  const Key shifted = static_cast<Key>(key >> begin_bit);
  return width >= static_cast<int>(sizeof(Key) * 8) ? shifted
                                                    : static_cast<Key>(shifted & ((Key{1} << width) - 1));
}

// The expected output: std::stable_sort of the input positions by the bit field.
template <class Key, class Value>
void reference_sort(const std::vector<Key>& keys, const std::vector<Value>& values, int begin_bit, int end_bit,
                    std::vector<Key>& want_keys, std::vector<Value>& want_values) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::vector<Key> field(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) field[i] = bit_field(keys[i], begin_bit, end_bit);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return field[a] < field[b]; });
  want_keys.resize(keys.size());
  want_values.resize(values.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    want_keys[i] = keys[order[i]];
    if (!values.empty()) want_values[i] = values[order[i]];
  }
}

// Distinct values, so that any reordering of equal keys shows.
template <class Value>
std::vector<Value> make_values(std::size_t n) {
  std::vector<Value> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<Value>(i * 2654435761u + 12345u);
  return values;
}

// Calls the public API (tuning == nullptr) or detail::radix_sort with a
// tuning and BMS tile (BlockItems keys per thread; 0: the library's).
template <class Key, class Value, int BlockItems = 0>
cudaError_t call_sort(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out, const Value* values_in,
                      Value* values_out, std::uint32_t n, int begin_bit, int end_bit, cudaStream_t stream,
                      const SortTuning* tuning) {
  constexpr bool kPairs = multisplit::detail::has_values<Value>();
  static_assert(BlockItems == multisplit::detail::kLibraryBlockItems || BlockItems > 0, "0: the library's tiles");
  if (tuning != nullptr)
    return multisplit::detail::radix_sort<Key, Value, BlockItems>(temp, temp_bytes, keys_in, keys_out, values_in,
                                                              values_out, n, begin_bit, end_bit, stream, *tuning);
  if constexpr (kPairs)
    return multisplit::sort_pairs(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, begin_bit, end_bit,
                                  stream);
  else
    return multisplit::sort_keys(temp, temp_bytes, keys_in, keys_out, n, begin_bit, end_bit, stream);
}

// Sorts on the device (poisoned output and temp) and compares with the
// reference bit for bit. Value = NullValue: key-only.
template <class Key, class Value, int BlockItems = 0>
void check_sort(const std::vector<Key>& keys, int begin_bit, int end_bit, const SortTuning* tuning = nullptr,
                cudaStream_t stream = 0) {
  constexpr bool kPairs = multisplit::detail::has_values<Value>();
  using HostValue = typename std::conditional<kPairs, Value, std::uint32_t>::type;
  const std::uint32_t n = static_cast<std::uint32_t>(keys.size());
  std::vector<HostValue> values;
  if constexpr (kPairs) values = make_values<Value>(n);
  std::vector<Key> want_keys;
  std::vector<HostValue> want_values;
  reference_sort(keys, values, begin_bit, end_bit, want_keys, want_values);

  DeviceArray<Key> keys_in(n), keys_out(n);
  DeviceArray<Value> values_in(kPairs ? n : 0), values_out(kPairs ? n : 0);
  keys_in.upload(keys);
  if constexpr (kPairs) values_in.upload(values);
  keys_out.poison();
  values_out.poison();
  std::size_t temp_bytes = 0;
  const Value* vin = kPairs ? values_in.get() : nullptr;
  Value* vout = kPairs ? values_out.get() : nullptr;
  MS_CUDA_CHECK((call_sort<Key, Value, BlockItems>(nullptr, temp_bytes, keys_in.get(), keys_out.get(), vin, vout, n,
                                                   begin_bit, end_bit, stream, tuning)));
  ASSERT_GT(temp_bytes, 0u);
  DeviceArray<unsigned char> temp(temp_bytes);
  temp.poison();
  MS_CUDA_CHECK((call_sort<Key, Value, BlockItems>(temp.get(), temp_bytes, keys_in.get(), keys_out.get(), vin, vout,
                                                   n, begin_bit, end_bit, stream, tuning)));
  MS_CUDA_CHECK(cudaStreamSynchronize(stream));
  MS_CUDA_CHECK(cudaGetLastError());
  expect_equal(keys_out.download(), want_keys, "keys");
  if constexpr (kPairs) expect_equal(values_out.download(), want_values, "values");
  expect_equal(keys_in.download(), keys, "input keys (must stay untouched)");
}

template <class Key, int BlockItems = 0>
void check_keys_and_pairs(const std::vector<Key>& keys, int begin_bit, int end_bit,
                          const SortTuning* tuning = nullptr) {
  {
    SCOPED_TRACE("keys");
    check_sort<Key, multisplit::detail::NullValue, BlockItems>(keys, begin_bit, end_bit, tuning);
  }
  {
    SCOPED_TRACE("pairs");
    check_sort<Key, Key, BlockItems>(keys, begin_bit, end_bit, tuning);
  }
}

const std::vector<Dist> kDists = {Dist::Uniform, Dist::FewDistinct, Dist::AllEqual, Dist::Sorted, Dist::Reversed};

// Tile edges: warp tiles of 512 keys, block tiles of 4096 (16 per thread)
// and 6144 (24 per thread, the key-only default).
const std::vector<std::uint32_t> kSizes = {0,    1,    31,   32,    33,    255,   256,    257,
                                           511,  512,  513,  2047,  2048,  2049,  4095,   4096,
                                           4097, 6143, 6144, 6145,  8191,  8193,  12289,  100003,
                                           (1u << 20) + 7};

TEST(MultisplitSort, SizesAndDistributions) {
  SKIP_IF_NO_GPU();
  for (const Dist dist : kDists) {
    for (const std::uint32_t n : kSizes) {
      SCOPED_TRACE(std::string("dist=") + to_string(dist) + " n=" + std::to_string(n));
      check_keys_and_pairs(make_keys<std::uint32_t>(n, dist, n + 17), 0, 32);
      if (HasFailure()) return;
    }
  }
}

TEST(MultisplitSort, SixteenMillionUniformKeys) {
  SKIP_IF_NO_GPU();
  check_keys_and_pairs(make_keys<std::uint32_t>(1u << 24, Dist::Uniform, 24), 0, 32);
}

TEST(MultisplitSort, NarrowBitRanges) {
  SKIP_IF_NO_GPU();
  const std::vector<std::pair<int, int>> ranges = {{0, 0},  {13, 13}, {32, 32}, {0, 1},  {31, 32}, {0, 8},
                                                   {3, 17}, {5, 29},  {8, 32},  {16, 32}, {24, 32}, {0, 31}};
  for (const Dist dist : {Dist::Uniform, Dist::FewDistinct, Dist::Reversed}) {
    const auto keys = make_keys<std::uint32_t>(100003, dist, 7);
    for (const auto& [begin_bit, end_bit] : ranges) {
      SCOPED_TRACE(std::string("dist=") + to_string(dist) + " bits=[" + std::to_string(begin_bit) + "," +
                   std::to_string(end_bit) + ")");
      check_keys_and_pairs(keys, begin_bit, end_bit);
      if (HasFailure()) return;
    }
  }
}

// Every tuning sort_bench measures must be correct, not only the default.
TEST(MultisplitSort, EveryDigitWidthAndMethod) {
  SKIP_IF_NO_GPU();
  const auto keys = make_keys<std::uint32_t>(100003, Dist::Uniform, 9);
  const auto few = make_keys<std::uint32_t>(4097, Dist::FewDistinct, 10);
  for (int r = 1; r <= 8; ++r) {
    for (const Method method : {Method::Direct, Method::Warp, Method::Block}) {
      SortTuning tuning;
      tuning.max_radix_bits = r;
      tuning.method = method;
      SCOPED_TRACE("r=" + std::to_string(r) + " method=" + multisplit::to_string(method));
      check_keys_and_pairs(keys, 0, 32, &tuning);
      check_keys_and_pairs(few, 2, 27, &tuning);
      if (HasFailure()) return;
    }
  }
}

// The fixed BMS tiles sort_bench measures (16, 24 and 32 keys per thread,
// in place of the library's tiles).
template <int BlockItems>
void check_block_tile() {
  const auto keys = make_keys<std::uint32_t>(100003, Dist::Uniform, 16);
  const auto few = make_keys<std::uint32_t>(6145, Dist::FewDistinct, 17);
  for (int r = 1; r <= 8; ++r) {
    SortTuning tuning;
    tuning.max_radix_bits = r;
    tuning.method = Method::Block;
    SCOPED_TRACE("items=" + std::to_string(BlockItems) + " r=" + std::to_string(r));
    check_keys_and_pairs<std::uint32_t, BlockItems>(keys, 0, 32, &tuning);
    check_keys_and_pairs<std::uint32_t, BlockItems>(few, 1, 30, &tuning);
    for (const std::uint32_t n : {256u * BlockItems - 1, 256u * BlockItems + 1, 512u * BlockItems + 3})
      check_keys_and_pairs<std::uint32_t, BlockItems>(make_keys<std::uint32_t>(n, Dist::Reversed, n), 0, 32,
                                                      &tuning);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(MultisplitSort, FixedBlockTiles) {
  SKIP_IF_NO_GPU();
  check_block_tile<16>();
  if (HasFailure()) return;
  check_block_tile<24>();
  if (HasFailure()) return;
  check_block_tile<32>();
}

TEST(MultisplitSort, SixtyFourBitKeysAndValues) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t n : {4097u, 100003u}) {
    const auto keys = make_keys<std::uint64_t>(n, Dist::Uniform, n);
    for (const auto& [begin_bit, end_bit] : std::vector<std::pair<int, int>>{{0, 64}, {7, 50}, {60, 64}}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " bits=[" + std::to_string(begin_bit) + "," + std::to_string(end_bit) +
                   ")");
      check_sort<std::uint64_t, std::uint64_t>(keys, begin_bit, end_bit);
      for (const Method method : {Method::Block, Method::Warp}) {
        SortTuning tuning;
        tuning.max_radix_bits = method == Method::Warp ? 5 : 8;
        tuning.method = method;
        SCOPED_TRACE("method=" + std::string(multisplit::to_string(method)));
        check_sort<std::uint64_t, std::uint64_t>(keys, begin_bit, end_bit, &tuning);
        check_sort<std::uint64_t, multisplit::detail::NullValue>(keys, begin_bit, end_bit, &tuning);
      }
    }
  }
}

// In place (in == out), with an odd and an even number of passes; also only
// the values in place.
TEST(MultisplitSort, InPlace) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = 70001;
  const auto keys = make_keys<std::uint32_t>(n, Dist::FewDistinct, 11);
  const auto values = make_values<std::uint32_t>(n);
  for (const auto& [begin_bit, end_bit] : std::vector<std::pair<int, int>>{{0, 32}, {0, 24}, {4, 4}}) {
    for (const bool values_only : {false, true}) {
      SCOPED_TRACE("bits=[" + std::to_string(begin_bit) + "," + std::to_string(end_bit) +
                   ") values_only=" + std::to_string(values_only));
      std::vector<std::uint32_t> want_keys, want_values;
      reference_sort(keys, values, begin_bit, end_bit, want_keys, want_values);
      DeviceArray<std::uint32_t> k(n), v(n), k_out(n);
      k.upload(keys);
      v.upload(values);
      k_out.poison();
      std::uint32_t* keys_out = values_only ? k_out.get() : k.get();
      std::size_t bytes = 0;
      ASSERT_EQ(multisplit::sort_pairs(nullptr, bytes, k.get(), keys_out, v.get(), v.get(), n, begin_bit, end_bit),
                cudaSuccess);
      DeviceArray<unsigned char> temp(bytes);
      temp.poison();
      ASSERT_EQ(multisplit::sort_pairs(temp.get(), bytes, k.get(), keys_out, v.get(), v.get(), n, begin_bit, end_bit),
                cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      expect_equal((values_only ? k_out : k).download(), want_keys, "keys");
      expect_equal(v.download(), want_values, "values");
      // Key-only in place.
      if (!values_only) {
        k.upload(keys);
        ASSERT_EQ(multisplit::sort_keys(nullptr, bytes, k.get(), k.get(), n, begin_bit, end_bit), cudaSuccess);
        DeviceArray<unsigned char> key_temp(bytes);
        ASSERT_EQ(multisplit::sort_keys(key_temp.get(), bytes, k.get(), k.get(), n, begin_bit, end_bit), cudaSuccess);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        expect_equal(k.download(), want_keys, "keys (key-only)");
      }
    }
  }
}

TEST(MultisplitSort, UnalignedPointersAndOwnStream) {
  SKIP_IF_NO_GPU();
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  const std::uint32_t n = 150001;
  const auto keys = make_keys<std::uint32_t>(n, Dist::Uniform, 12);
  const auto values = make_values<std::uint32_t>(n);
  std::vector<std::uint32_t> want_keys, want_values;
  reference_sort(keys, values, 0, 32, want_keys, want_values);
  // Buffers shifted by 1 and 3 elements from their 256-byte aligned start.
  DeviceArray<std::uint32_t> in_k(n + 1), out_k(n + 3), in_v(n + 3), out_v(n + 1);
  out_k.poison();
  out_v.poison();
  ASSERT_EQ(cudaMemcpy(in_k.get() + 1, keys.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(in_v.get() + 3, values.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
  std::size_t bytes = 0;
  ASSERT_EQ(multisplit::sort_pairs(nullptr, bytes, in_k.get() + 1, out_k.get() + 3, in_v.get() + 3, out_v.get() + 1,
                                   n, 0, 32, stream),
            cudaSuccess);
  DeviceArray<unsigned char> temp(bytes);
  ASSERT_EQ(multisplit::sort_pairs(temp.get(), bytes, in_k.get() + 1, out_k.get() + 3, in_v.get() + 3,
                                   out_v.get() + 1, n, 0, 32, stream),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  std::vector<std::uint32_t> got_k(n), got_v(n);
  ASSERT_EQ(cudaMemcpy(got_k.data(), out_k.get() + 3, n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(got_v.data(), out_v.get() + 1, n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  expect_equal(got_k, want_keys, "keys");
  expect_equal(got_v, want_values, "values");
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(MultisplitSort, ReportsBadArguments) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = 1000;
  DeviceArray<std::uint32_t> in(2 * n), out(n), vin(n), vout(n);
  std::size_t bytes = 0;
  // Bit ranges and sizes are checked already at the size query.
  for (const auto& [begin_bit, end_bit] : std::vector<std::pair<int, int>>{{-1, 8}, {0, 33}, {9, 8}, {33, 33}}) {
    EXPECT_EQ(multisplit::sort_keys(nullptr, bytes, in.get(), out.get(), n, begin_bit, end_bit), cudaErrorInvalidValue)
        << begin_bit << " " << end_bit;
    EXPECT_EQ(multisplit::sort_pairs(nullptr, bytes, in.get(), out.get(), vin.get(), vout.get(), n, begin_bit, end_bit),
              cudaErrorInvalidValue);
  }
  EXPECT_EQ(multisplit::sort_keys(nullptr, bytes, in.get(), out.get(), 0x80000000u), cudaErrorInvalidValue);
  for (const int r : {0, 9}) {
    SortTuning tuning;
    tuning.max_radix_bits = r;
    EXPECT_EQ((multisplit::detail::radix_sort<std::uint32_t, std::uint32_t>(
                  nullptr, bytes, in.get(), out.get(), vin.get(), vout.get(), n, 0, 32, 0, tuning)),
              cudaErrorInvalidValue);
  }
  for (const Method method : {Method::Auto, Method::SortBased}) {
    SortTuning tuning;
    tuning.method = method;
    EXPECT_EQ((multisplit::detail::radix_sort<std::uint32_t, std::uint32_t>(
                  nullptr, bytes, in.get(), out.get(), vin.get(), vout.get(), n, 0, 32, 0, tuning)),
              cudaErrorInvalidValue);
  }
  // With storage: too small, missing pointers, partly overlapping ranges.
  ASSERT_EQ(multisplit::sort_pairs(nullptr, bytes, in.get(), out.get(), vin.get(), vout.get(), n), cudaSuccess);
  DeviceArray<unsigned char> temp(bytes);
  std::size_t too_small = bytes - 1;
  EXPECT_EQ(multisplit::sort_pairs(temp.get(), too_small, in.get(), out.get(), vin.get(), vout.get(), n),
            cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::sort_pairs(temp.get(), bytes, in.get(), out.get(), vin.get(),
                                   static_cast<std::uint32_t*>(nullptr), n),
            cudaErrorInvalidValue);
  EXPECT_EQ((multisplit::sort_pairs<std::uint32_t, std::uint32_t>(temp.get(), bytes, nullptr, out.get(), vin.get(),
                                                                  vout.get(), n)),
            cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::sort_keys<std::uint32_t>(temp.get(), bytes, in.get(), nullptr, n), cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::sort_keys(temp.get(), bytes, in.get(), in.get() + 1, n), cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::sort_keys(temp.get(), bytes, in.get() + n - 1, in.get(), n), cudaErrorInvalidValue);
  EXPECT_EQ(multisplit::sort_pairs(temp.get(), bytes, in.get(), out.get(), vin.get(), vin.get() + 5, n - 5),
            cudaErrorInvalidValue);
  // Adjacent (touching, not overlapping) ranges are fine.
  const auto keys = make_keys<std::uint32_t>(n, Dist::Uniform, 13);
  std::vector<std::uint32_t> want, none;
  std::vector<std::uint32_t> no_values;
  reference_sort(keys, no_values, 0, 32, want, none);
  ASSERT_EQ(cudaMemcpy(in.get(), keys.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(multisplit::sort_keys(temp.get(), bytes, in.get(), in.get() + n, n), cudaSuccess);
  std::vector<std::uint32_t> got(n);
  ASSERT_EQ(cudaMemcpy(got.data(), in.get() + n, n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  expect_equal(got, want, "keys sorted into the adjacent range");
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(MultisplitSort, EmptyInputNeedsNoPointers) {
  SKIP_IF_NO_GPU();
  std::size_t bytes = 0;
  ASSERT_EQ(
      (multisplit::sort_pairs<std::uint32_t, std::uint32_t>(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, 0)),
            cudaSuccess);
  ASSERT_GT(bytes, 0u);
  DeviceArray<unsigned char> temp(bytes);
  EXPECT_EQ((multisplit::sort_pairs<std::uint32_t, std::uint32_t>(temp.get(), bytes, nullptr, nullptr, nullptr,
                                                                  nullptr, 0)),
            cudaSuccess);
  EXPECT_EQ(multisplit::sort_keys<std::uint32_t>(temp.get(), bytes, nullptr, nullptr, 0, 3, 19), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// A size asked for a larger n serves a smaller one.
TEST(MultisplitSort, TempSizeForLargerInputServesSmaller) {
  SKIP_IF_NO_GPU();
  std::size_t small_bytes = 0, large_bytes = 0;
  ASSERT_EQ(multisplit::sort_keys<std::uint32_t>(nullptr, small_bytes, nullptr, nullptr, 30000), cudaSuccess);
  ASSERT_EQ(multisplit::sort_keys<std::uint32_t>(nullptr, large_bytes, nullptr, nullptr, 1u << 22), cudaSuccess);
  EXPECT_GE(large_bytes, small_bytes);
  const std::uint32_t n = 30000;
  const auto keys = make_keys<std::uint32_t>(n, Dist::Uniform, 14);
  std::vector<std::uint32_t> want, none, no_values;
  reference_sort(keys, no_values, 0, 32, want, none);
  DeviceArray<std::uint32_t> in(n), out(n);
  in.upload(keys);
  out.poison();
  DeviceArray<unsigned char> temp(large_bytes);
  temp.poison();
  ASSERT_EQ(multisplit::sort_keys(temp.get(), large_bytes, in.get(), out.get(), n), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expect_equal(out.download(), want, "keys");
}

// The default digit width depends on n (8 bits up to wide_digit_max_items,
// 7 above): a size asked for the first n past that bound must still serve
// the bound itself, whose four 256-bucket passes have larger count matrices.
// Pairs on a device with the 512-thread pair passes take 8 bits at every n
// (no bound to cross; the rule is checked, the sort is not run).
template <class Value>
void check_size_across_digit_widths() {
  constexpr bool kPairs = multisplit::detail::has_values<Value>();
  using multisplit::detail::default_sort_tuning;
  using multisplit::detail::wide_digit_max_items;
  bool wide_pairs = false;
  ASSERT_EQ((multisplit::detail::wide_pair_passes<std::uint32_t, Value>(wide_pairs)), cudaSuccess);
  if (!kPairs) ASSERT_FALSE(wide_pairs);
  if (wide_pairs) {
    EXPECT_EQ((wide_digit_max_items<std::uint32_t, Value>(true)), 0xFFFFFFFFu);
    EXPECT_EQ((default_sort_tuning<std::uint32_t, Value>(0x7FFFFFFFu, true).max_radix_bits), 8);
    std::printf("[   NOTE   ] pairs: this device sorts 32-bit pairs with 8-bit digits at every n\n");
    return;
  }
  const std::uint32_t wide_max = wide_digit_max_items<std::uint32_t, Value>(false);
  ASSERT_GT(wide_max, 0u);
  ASSERT_EQ((default_sort_tuning<std::uint32_t, Value>(wide_max, false).max_radix_bits), 8);
  ASSERT_EQ((default_sort_tuning<std::uint32_t, Value>(wide_max + 1, false).max_radix_bits), 7);
  std::size_t past_bytes = 0;
  ASSERT_EQ((call_sort<std::uint32_t, Value>(nullptr, past_bytes, nullptr, nullptr, nullptr, nullptr, wide_max + 1, 0,
                                             32, 0, nullptr)),
            cudaSuccess);
  const std::uint32_t n = wide_max;
  const auto keys = make_keys<std::uint32_t>(n, Dist::Uniform, 31);
  std::vector<std::uint32_t> values, want_keys, want_values;
  if constexpr (kPairs) values = make_values<std::uint32_t>(n);
  reference_sort(keys, values, 0, 32, want_keys, want_values);
  DeviceArray<std::uint32_t> keys_in(n), keys_out(n), values_in(kPairs ? n : 1), values_out(kPairs ? n : 1);
  keys_in.upload(keys);
  keys_out.poison();
  if constexpr (kPairs) {
    values_in.upload(values);
    values_out.poison();
  }
  DeviceArray<unsigned char> temp(past_bytes);
  temp.poison();
  const Value* vin = nullptr;
  Value* vout = nullptr;
  if constexpr (kPairs) {
    vin = values_in.get();
    vout = values_out.get();
  }
  ASSERT_EQ((call_sort<std::uint32_t, Value>(temp.get(), past_bytes, keys_in.get(), keys_out.get(), vin, vout, n, 0,
                                             32, 0, nullptr)),
            cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expect_equal(keys_out.download(), want_keys, "keys");
  if constexpr (kPairs) expect_equal(values_out.download(), want_values, "values");
}

TEST(MultisplitSort, TempSizeServesSmallerInputAcrossDigitWidths) {
  SKIP_IF_NO_GPU();
  {
    SCOPED_TRACE("keys");
    check_size_across_digit_widths<multisplit::detail::NullValue>();
  }
  {
    SCOPED_TRACE("pairs");
    check_size_across_digit_widths<std::uint32_t>();
  }
}

// Large pair sorts switch to a fixed 24-item tile (large_tile_min_items)
// where the device has no 512-thread pair passes (with them, never): the
// size for the first n past the switch covers the last n before it, on
// this device's rule. (Sorts that large run in LargestSizeCheckedOnDevice.)
TEST(MultisplitSort, TempSizeServesSmallerInputAcrossTiles) {
  SKIP_IF_NO_GPU();
  using multisplit::detail::default_block_items;
  const std::uint32_t first = multisplit::detail::large_tile_min_items<std::uint32_t, std::uint32_t>(false);
  ASSERT_GT(first, 0u);
  ASSERT_EQ((default_block_items<std::uint32_t, std::uint32_t>(first, false)), multisplit::detail::kLargeSortTileItems);
  ASSERT_EQ((default_block_items<std::uint32_t, std::uint32_t>(first - 1, false)),
            multisplit::detail::kLibraryBlockItems);
  EXPECT_EQ((multisplit::detail::large_tile_min_items<std::uint32_t, std::uint32_t>(true)), 0u);
  std::size_t past = 0, before = 0;
  ASSERT_EQ((multisplit::sort_pairs<std::uint32_t, std::uint32_t>(nullptr, past, nullptr, nullptr, nullptr, nullptr,
                                                                  first)),
            cudaSuccess);
  ASSERT_EQ((multisplit::sort_pairs<std::uint32_t, std::uint32_t>(nullptr, before, nullptr, nullptr, nullptr, nullptr,
                                                                  first - 1)),
            cudaSuccess);
  EXPECT_GE(past, before);
}

// Capture fails on any synchronising or allocating call: "stream-ordered, no
// hidden allocation". Replaying the graph twice also shows that nothing
// depends on temp contents left by an earlier call.
TEST(MultisplitSort, CapturesIntoCudaGraph) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = (1u << 18) + 3;
  const auto keys = make_keys<std::uint32_t>(n, Dist::Uniform, 15);
  const auto values = make_values<std::uint32_t>(n);
  for (const auto& [begin_bit, end_bit] : std::vector<std::pair<int, int>>{{0, 32}, {0, 24}, {5, 5}}) {
    SCOPED_TRACE("bits=[" + std::to_string(begin_bit) + "," + std::to_string(end_bit) + ")");
    std::vector<std::uint32_t> want_keys, want_values;
    reference_sort(keys, values, begin_bit, end_bit, want_keys, want_values);
    DeviceArray<std::uint32_t> kin(n), kout(n), vin(n), vout(n);
    kin.upload(keys);
    vin.upload(values);
    std::size_t bytes = 0;
    ASSERT_EQ(multisplit::sort_pairs(nullptr, bytes, kin.get(), kout.get(), vin.get(), vout.get(), n, begin_bit,
                                     end_bit),
              cudaSuccess);
    DeviceArray<unsigned char> temp(bytes);
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    cudaGraph_t graph;
    ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
    const cudaError_t sort_err = multisplit::sort_pairs(temp.get(), bytes, kin.get(), kout.get(), vin.get(),
                                                        vout.get(), n, begin_bit, end_bit, stream);
    const cudaError_t end_err = cudaStreamEndCapture(stream, &graph);
    ASSERT_EQ(sort_err, cudaSuccess) << cudaGetErrorString(sort_err);
    ASSERT_EQ(end_err, cudaSuccess) << cudaGetErrorString(end_err);
    cudaGraphExec_t exec;
    ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    for (int replay = 0; replay < 2; ++replay) {
      kout.poison();
      vout.poison();
      temp.poison();
      ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
      expect_equal(kout.download(), want_keys, "keys");
      expect_equal(vout.download(), want_values, "values");
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
  }
}

// ---- n = 2^31 - 1: too big for a CPU reference, so the device checks.
// key(i) = g(i * C) with g(x) = x ^ (x >> 16) is a bijection on 32 bits (C
// odd, g its own inverse), so the keys are distinct and each names its
// input position: i = g(key) * C^-1. The output is right exactly when it is
// strictly increasing, every key decodes to a position below n (n distinct
// keys of the input set: a permutation of it) and, for pairs, each value is
// its key's input position.
constexpr std::uint32_t kMul = 0x9E3779B1u;

std::uint32_t inverse_mod_2_32(std::uint32_t a) {  // Newton: each step doubles the correct low bits
  std::uint32_t x = a;
  for (int i = 0; i < 5; ++i) x *= 2u - a * x;
  return x;
}

__host__ __device__ std::uint32_t unshift16(std::uint32_t x) { return x ^ (x >> 16); }

__global__ void fill_bijective(std::uint32_t* keys, std::uint32_t* values, std::uint32_t n) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    keys[i] = unshift16(i * kMul);
    if (values != nullptr) values[i] = i;
  }
}

__global__ void verify_sorted_bijective(const std::uint32_t* keys, const std::uint32_t* values, std::uint32_t n,
                                        std::uint32_t inverse, unsigned long long* errors) {
  unsigned int bad = 0;
  for (std::uint32_t p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += gridDim.x * blockDim.x) {
    const std::uint32_t key = keys[p];
    const std::uint32_t position = unshift16(key) * inverse;
    const bool ok = position < n && (p + 1 == n || keys[p + 1] > key) && (values == nullptr || values[p] == position);
    bad += ok ? 0u : 1u;
  }
  if (bad != 0) atomicAdd(errors, static_cast<unsigned long long>(bad));
}

TEST(MultisplitSort, LargestSizeCheckedOnDevice) {
  SKIP_IF_NO_GPU();
  const std::uint32_t n = 0x7FFFFFFFu;
  const std::uint32_t inverse = inverse_mod_2_32(kMul);
  ASSERT_EQ(kMul * inverse, 1u);
  const std::size_t data_bytes = static_cast<std::size_t>(n) * 4;
  for (const bool pairs : {false, true}) {
    SCOPED_TRACE(pairs ? "pairs" : "keys");
    std::size_t temp_bytes = 0;
    if (pairs)
      ASSERT_EQ((multisplit::sort_pairs<std::uint32_t, std::uint32_t>(nullptr, temp_bytes, nullptr, nullptr, nullptr,
                                                                      nullptr, n)),
                cudaSuccess);
    else
      ASSERT_EQ(multisplit::sort_keys<std::uint32_t>(nullptr, temp_bytes, nullptr, nullptr, n), cudaSuccess);
    const std::size_t need = (pairs ? 4 : 2) * data_bytes + temp_bytes;
    std::size_t free_bytes = 0, total_bytes = 0;
    ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
    if (need + (std::size_t{1} << 28) > free_bytes) {
      std::cout << "[   INFO   ] skipping " << (pairs ? "pairs" : "keys") << ": needs " << need / (1 << 20)
                << " MiB, " << free_bytes / (1 << 20) << " MiB free\n";
      continue;
    }
    DeviceArray<std::uint32_t> kin(n), kout(n), vin(pairs ? n : 0), vout(pairs ? n : 0);
    DeviceArray<unsigned char> temp(temp_bytes);
    DeviceArray<unsigned long long> errors(1);
    fill_bijective<<<2048, 256>>>(kin.get(), pairs ? vin.get() : nullptr, n);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    kout.poison();
    vout.poison();
    if (pairs)
      ASSERT_EQ(multisplit::sort_pairs(temp.get(), temp_bytes, kin.get(), kout.get(), vin.get(), vout.get(), n),
                cudaSuccess);
    else
      ASSERT_EQ(multisplit::sort_keys(temp.get(), temp_bytes, kin.get(), kout.get(), n), cudaSuccess);
    ASSERT_EQ(cudaMemset(errors.get(), 0, sizeof(unsigned long long)), cudaSuccess);
    verify_sorted_bijective<<<2048, 256>>>(kout.get(), pairs ? vout.get() : nullptr, n, inverse, errors.get());
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(errors.download()[0], 0u) << "positions out of order, foreign keys, or values not with their keys";
  }
}

}  // namespace
