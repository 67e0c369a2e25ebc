// Example: multisplit with your own bucket functor.
//
// Orders of magnitude: each number goes to the bucket of its count of decimal
// digits (1..10 digits -> buckets 0..9), stably, with a value (the number's
// original position) carried along. Shows the whole API: the size query, the
// real call on a stream, device-side bucket offsets.
//
//   multisplit_example [n]
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "multisplit/multisplit.cuh"
#include "multisplit/reference.hpp"

// A user's bucket functor: any copyable __host__ __device__ callable
// uint32_t(Key) will do; this one needs no state at all.
struct DecimalDigits {
  __host__ __device__ std::uint32_t operator()(std::uint32_t x) const {
    std::uint32_t digits = 1;
    while (x >= 10) {
      x /= 10;
      ++digits;
    }
    return digits - 1;
  }
};

#define CHECK(call)                                                                         \
  do {                                                                                      \
    const cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)

int main(int argc, char** argv) {
  const std::uint32_t n = argc > 1 ? static_cast<std::uint32_t>(std::strtoul(argv[1], nullptr, 10)) : 1000000u;
  const std::uint32_t num_buckets = 10;
  std::mt19937 rng(42);
  std::vector<std::uint32_t> keys(n), positions(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    keys[i] = rng() >> (rng() % 32);  // spread over all magnitudes
    positions[i] = i;
  }

  std::uint32_t *d_keys_in, *d_keys_out, *d_values_in, *d_values_out, *d_offsets;
  CHECK(cudaMalloc(&d_keys_in, n * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_keys_out, n * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_values_in, n * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_values_out, n * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_offsets, (num_buckets + 1) * sizeof(std::uint32_t)));
  CHECK(cudaMemcpy(d_keys_in, keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_values_in, positions.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // 1. Ask how much temporary storage the call needs; 2. split.
  std::size_t temp_bytes = 0;
  multisplit::Method ran = multisplit::Method::Auto;
  CHECK(multisplit::split_pairs(nullptr, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                num_buckets, DecimalDigits{}, d_offsets, stream, multisplit::Method::Auto, &ran));
  void* d_temp = nullptr;
  CHECK(cudaMalloc(&d_temp, temp_bytes));
  CHECK(multisplit::split_pairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, num_buckets,
                                DecimalDigits{}, d_offsets, stream));

  std::vector<std::uint32_t> out_keys(n), out_positions(n), offsets(num_buckets + 1);
  CHECK(cudaMemcpyAsync(out_keys.data(), d_keys_out, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(out_positions.data(), d_values_out, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost,
                        stream));
  CHECK(cudaMemcpyAsync(offsets.data(), d_offsets, (num_buckets + 1) * sizeof(std::uint32_t),
                        cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));

  std::printf("split %u numbers by decimal digits (method: %s)\n", n, multisplit::to_string(ran));
  for (std::uint32_t b = 0; b < num_buckets; ++b)
    std::printf("  %2u digit%s: %9u numbers at [%u, %u)\n", b + 1, b ? "s" : " ", offsets[b + 1] - offsets[b],
                offsets[b], offsets[b + 1]);

  // The CPU reference gives the same answer, bit for bit.
  std::vector<std::uint32_t> want_keys, want_positions;
  const auto want_offsets =
      multisplit::reference::split_pairs(keys, want_keys, positions, want_positions, num_buckets, DecimalDigits{});
  const bool same = want_keys == out_keys && want_positions == out_positions && want_offsets == offsets;
  std::printf("matches the CPU reference: %s\n", same ? "yes" : "NO");

  cudaFree(d_temp);
  cudaFree(d_keys_in);
  cudaFree(d_keys_out);
  cudaFree(d_values_in);
  cudaFree(d_values_out);
  cudaFree(d_offsets);
  cudaStreamDestroy(stream);
  return same ? 0 : 1;
}
