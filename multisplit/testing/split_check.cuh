// Test helpers for the multisplit GPU tests (tests/gpu/test_multisplit_*.cu):
// bucket-id distributions, device buffers, poisoning, running a split and
// comparing it bit for bit with the CPU reference (multisplit/reference.hpp).
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "multisplit/multisplit.cuh"
#include "multisplit/reference.hpp"

namespace multisplit_test {

#define MS_CUDA_CHECK(call)                                                                    \
  do {                                                                                         \
    const cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                                 \
      ADD_FAILURE() << #call << ": " << cudaGetErrorString(err_);                              \
      return;                                                                                  \
    }                                                                                          \
  } while (0)

enum class Dist { Uniform, OneBucket, Zipf, Binomial };

inline const char* to_string(Dist d) {
  switch (d) {
    case Dist::Uniform: return "uniform";
    case Dist::OneBucket: return "one-bucket";
    case Dist::Zipf: return "zipf";
    case Dist::Binomial: return "binomial";
  }
  return "?";
}

inline const std::vector<multisplit::Method>& all_methods() {
  static const std::vector<multisplit::Method> methods = {multisplit::Method::Direct, multisplit::Method::Warp,
                                                          multisplit::Method::Block, multisplit::Method::SortBased,
                                                          multisplit::Method::SmallN, multisplit::Method::Auto};
  return methods;
}

// Bucket ids drawn from a distribution over 0 .. m-1.
inline std::vector<std::uint32_t> make_buckets(std::uint32_t n, std::uint32_t m, Dist dist, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint32_t> ids(n);
  switch (dist) {
    case Dist::Uniform: {
      std::uniform_int_distribution<std::uint32_t> pick(0, m - 1);
      for (auto& b : ids) b = pick(rng);
      break;
    }
    case Dist::OneBucket: {
      const std::uint32_t b0 = std::uniform_int_distribution<std::uint32_t>(0, m - 1)(rng);
      std::fill(ids.begin(), ids.end(), b0);
      break;
    }
    case Dist::Zipf: {  // P(b) ~ 1 / (b + 1)^1.1
      std::vector<double> cdf(m);
      double sum = 0;
      for (std::uint32_t b = 0; b < m; ++b) cdf[b] = (sum += 1.0 / std::pow(b + 1.0, 1.1));
      std::uniform_real_distribution<double> u(0, sum);
      for (auto& b : ids) {
        const auto it = std::lower_bound(cdf.begin(), cdf.end(), u(rng));
        b = static_cast<std::uint32_t>(std::min<std::ptrdiff_t>(it - cdf.begin(), m - 1));
      }
      break;
    }
    case Dist::Binomial: {
      std::binomial_distribution<std::uint32_t> pick(m - 1, 0.5);
      for (auto& b : ids) b = pick(rng);
      break;
    }
  }
  return ids;
}

// 32-bit keys that delta_buckets<>::spanning(m) maps to the given ids.
inline std::vector<std::uint32_t> keys_for_buckets(const std::vector<std::uint32_t>& ids, std::uint32_t m,
                                                   std::uint64_t seed) {
  const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
  const std::uint64_t width = m == 1 ? (std::uint64_t{1} << 32) : fn.width();
  std::mt19937_64 rng(seed ^ 0x9E3779B97F4A7C15ull);
  std::vector<std::uint32_t> keys(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::uint64_t lo = ids[i] * width;
    const std::uint64_t span = std::min<std::uint64_t>(width, (std::uint64_t{1} << 32) - lo);
    keys[i] = static_cast<std::uint32_t>(lo + rng() % span);
  }
  return keys;
}

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 31 + 7);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(rng());
  return v;
}

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count) { resize(count); }
  ~DeviceArray() { cudaFree(ptr_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  void resize(std::size_t count) {
    cudaFree(ptr_);
    ptr_ = nullptr;
    count_ = count;
    // One extra element so that count == 0 still gives a valid pointer.
    const cudaError_t err = cudaMalloc(&ptr_, (count + 1) * sizeof(T));
    if (err != cudaSuccess) {
      ptr_ = nullptr;
      ADD_FAILURE() << "cudaMalloc(" << (count + 1) * sizeof(T) << "): " << cudaGetErrorString(err);
    }
  }
  void upload(const std::vector<T>& host) {
    ASSERT_EQ(host.size(), count_);
    if (!host.empty()) {
      ASSERT_EQ(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    }
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ > 0) {
      const cudaError_t err = cudaMemcpy(host.data(), ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost);
      if (err != cudaSuccess) ADD_FAILURE() << "download: " << cudaGetErrorString(err);
    }
    return host;
  }
  // Poison: a byte pattern no correct run leaves behind by accident.
  // Synchronises after the fill: cudaMemset runs on the legacy default stream,
  // which a cudaStreamNonBlocking stream does not wait for, so without the
  // sync a split launched on such a stream could race with its own poison
  // (seen under compute-sanitizer, whose slower kernels widen the window).
  void poison() {
    if (ptr_ == nullptr) return;
    EXPECT_EQ(cudaMemset(ptr_, 0xA5, (count_ + 1) * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// First index where two vectors differ, or -1.
template <class T>
std::ptrdiff_t first_mismatch(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return 0;
  if (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0) return -1;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return static_cast<std::ptrdiff_t>(i);
  return -1;
}

template <class T>
void expect_equal(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  const std::ptrdiff_t at = first_mismatch(got, want);
  if (at >= 0) {
    ADD_FAILURE() << what << " differ from the reference at index " << at << " of " << want.size()
                  << " (got " << static_cast<std::uint64_t>(got[static_cast<std::size_t>(at)]) << ", want "
                  << static_cast<std::uint64_t>(want[static_cast<std::size_t>(at)]) << ")";
  }
}

// Runs one split (key-only when Value is NullValue, else pairs) on device
// buffers that already hold the input, with poisoned outputs and temporary
// storage, and compares keys, values and offsets with the expected ones.
template <class Key, class Value, class BucketFn>
void run_and_compare(multisplit::Method method, const DeviceArray<Key>& keys_in, const DeviceArray<Value>& values_in,
                     std::uint32_t m, const BucketFn& fn, const std::vector<Key>& want_keys,
                     const std::vector<Value>& want_values, const std::vector<std::uint32_t>& want_offsets,
                     cudaStream_t stream = 0) {
  constexpr bool kPairs = multisplit::detail::has_values<Value>();
  const std::uint32_t n = static_cast<std::uint32_t>(keys_in.size());
  DeviceArray<Key> keys_out(n);
  DeviceArray<Value> values_out(kPairs ? n : 0);
  DeviceArray<std::uint32_t> offsets(static_cast<std::size_t>(m) + 1);
  keys_out.poison();
  values_out.poison();
  offsets.poison();
  std::size_t temp_bytes = 0;
  multisplit::Method used = multisplit::Method::Auto;
  auto call = [&](void* temp, multisplit::Method* report) {
    if constexpr (kPairs) {
      return multisplit::split_pairs(temp, temp_bytes, keys_in.get(), keys_out.get(), values_in.get(),
                                     values_out.get(), n, m, fn, offsets.get(), stream, method, report);
    } else {
      return multisplit::split_keys(temp, temp_bytes, keys_in.get(), keys_out.get(), n, m, fn, offsets.get(),
                                    stream, method, report);
    }
  };
  MS_CUDA_CHECK(call(nullptr, &used));
  ASSERT_GT(temp_bytes, 0u);
  DeviceArray<unsigned char> temp(temp_bytes);
  temp.poison();
  MS_CUDA_CHECK(call(temp.get(), nullptr));
  MS_CUDA_CHECK(cudaStreamSynchronize(stream));
  MS_CUDA_CHECK(cudaGetLastError());
  SCOPED_TRACE(std::string("method ran: ") + multisplit::to_string(used));
  expect_equal(offsets.download(), want_offsets, "bucket offsets");
  expect_equal(keys_out.download(), want_keys, "keys");
  if constexpr (kPairs) expect_equal(values_out.download(), want_values, "values");
}

inline std::string case_name(std::uint32_t n, std::uint32_t m, Dist dist) {
  std::ostringstream os;
  os << "n=" << n << " m=" << m << " dist=" << to_string(dist);
  return os.str();
}
inline std::string case_name(std::uint32_t n, std::uint32_t m, Dist dist, multisplit::Method method) {
  return case_name(n, m, dist) + " method=" + multisplit::to_string(method);
}

}  // namespace multisplit_test
