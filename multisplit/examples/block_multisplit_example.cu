// Example: multisplit::BlockMultisplit inside your own kernel, with the
// item count on the device.
//
// A graph-style "bin the frontier" step: n items (their count in device
// memory, as a previous kernel would leave it) go into m global bucket
// queues. Each block splits its tile with BlockMultisplit, claims room in
// every bucket's queue with one atomicAdd per bucket, and writes its items
// of a bucket to consecutive addresses. Inside a block the order is the
// input order; the blocks' order inside a queue is whatever the atomics
// made it (use multisplit::split_keys for one global stable order).
// The queues come out exactly as large as multisplit::histogram (called
// with the same device-side count) says.
//
//   block_multisplit_example [n]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "multisplit/block_multisplit.cuh"
#include "multisplit/histogram.cuh"
#include "multisplit/reference.hpp"

constexpr int kThreads = 128;
constexpr int kItems = 8;  // items per thread: tiles of 1024
constexpr int kMaxBuckets = 64;
using BlockSplit = multisplit::BlockMultisplit<std::uint32_t, cub::NullType, kThreads, kItems, kMaxBuckets>;

// Appends every item to queue[b * capacity + ...] of its bucket b; cursor[b]
// counts the items queued in bucket b (zero on entry). n lives on the device.
template <class BucketFn>
__global__ void bin_kernel(const std::uint32_t* items, const std::uint32_t* d_n, std::uint32_t num_buckets,
                           BucketFn bucket_of, std::uint32_t* queue, std::uint32_t capacity, std::uint32_t* cursor) {
  __shared__ BlockSplit::TempStorage temp;
  __shared__ std::uint32_t tile_offsets[kMaxBuckets + 1];  // bucket b's items: ranks [offsets[b], offsets[b + 1])
  __shared__ std::uint32_t queue_base[kMaxBuckets];
  const std::uint32_t n = *d_n;
  // Grid-stride over tiles; the loop bound is the same for the whole block.
  for (std::uint32_t base = blockIdx.x * BlockSplit::TILE_ITEMS; base < n; base += gridDim.x * BlockSplit::TILE_ITEMS) {
    const std::uint32_t valid = min(static_cast<std::uint32_t>(BlockSplit::TILE_ITEMS), n - base);
    std::uint32_t item[kItems], bucket[kItems], rank[kItems];
    for (int j = 0; j < kItems; ++j) {  // blocked arrangement: thread t owns items t * kItems + j
      const std::uint32_t i = threadIdx.x * kItems + j;
      item[j] = i < valid ? items[base + i] : 0u;
    }
    BlockSplit::BucketsOf(item, bucket, bucket_of, num_buckets, valid);
    BlockSplit(temp).RankBuckets(bucket, rank, num_buckets, tile_offsets, valid);  // ends with __syncthreads()
    // One atomic per bucket and block claims room for the tile's items.
    for (std::uint32_t b = threadIdx.x; b < num_buckets; b += kThreads) {
      const std::uint32_t count = tile_offsets[b + 1] - tile_offsets[b];
      queue_base[b] = count > 0 ? atomicAdd(cursor + b, count) : 0u;
    }
    __syncthreads();
    for (int j = 0; j < kItems; ++j) {
      const std::uint32_t b = bucket[j];
      if (threadIdx.x * kItems + j < valid)
        queue[static_cast<std::size_t>(b) * capacity + queue_base[b] + rank[j] - tile_offsets[b]] = item[j];
    }
    __syncthreads();  // tile_offsets and queue_base are rewritten by the next tile
  }
}

// Bucket = the number's count of decimal digits minus one (1..10 digits).
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

#define CHECK(call)                                                                                 \
  do {                                                                                              \
    const cudaError_t err_ = (call);                                                                \
    if (err_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      return 1;                                                                                     \
    }                                                                                               \
  } while (0)

int main(int argc, char** argv) {
  const std::uint32_t n = argc > 1 ? static_cast<std::uint32_t>(std::strtoul(argv[1], nullptr, 10)) : 1000000u;
  const std::uint32_t m = 10;
  std::mt19937 rng(7);
  std::vector<std::uint32_t> items(n);
  for (auto& x : items) x = rng() >> (rng() % 32);

  std::uint32_t *d_items, *d_n, *d_queue, *d_cursor, *d_counts;
  CHECK(cudaMalloc(&d_items, std::max<std::size_t>(n, 1) * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_n, sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_queue, std::max<std::size_t>(static_cast<std::size_t>(m) * n, 1) * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_cursor, m * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_counts, m * sizeof(std::uint32_t)));
  CHECK(cudaMemcpy(d_items, items.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_n, &n, sizeof(n), cudaMemcpyHostToDevice));  // in a real pipeline a kernel writes it
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // Bin with the block collective...
  CHECK(cudaMemsetAsync(d_cursor, 0, m * sizeof(std::uint32_t), stream));
  bin_kernel<<<264, kThreads, 0, stream>>>(d_items, d_n, m, DecimalDigits{}, d_queue, n, d_cursor);
  CHECK(cudaGetLastError());
  // ...and count with the device-count histogram (planned for n items at most).
  std::size_t temp_bytes = 0;
  CHECK(multisplit::histogram(nullptr, temp_bytes, d_items, d_n, n, m, DecimalDigits{}, d_counts));
  void* d_temp = nullptr;
  CHECK(cudaMalloc(&d_temp, temp_bytes));
  CHECK(multisplit::histogram(d_temp, temp_bytes, d_items, d_n, n, m, DecimalDigits{}, d_counts, stream));

  std::vector<std::uint32_t> cursor(m), counts(m), queue(static_cast<std::size_t>(m) * n);
  CHECK(cudaMemcpyAsync(cursor.data(), d_cursor, m * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(counts.data(), d_counts, m * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(queue.data(), d_queue, queue.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));

  // Check: each queue holds exactly its bucket's items (as a multiset; the
  // CPU reference's stable split gives them in input order, sorted here).
  std::vector<std::uint32_t> want;
  const auto offsets = multisplit::reference::split_keys(items, want, m, DecimalDigits{});
  bool same = true;
  std::printf("binned %u numbers by decimal digits into %u queues\n", n, m);
  for (std::uint32_t b = 0; b < m; ++b) {
    std::vector<std::uint32_t> got(queue.begin() + static_cast<std::ptrdiff_t>(b) * n,
                                   queue.begin() + static_cast<std::ptrdiff_t>(b) * n + cursor[b]);
    std::vector<std::uint32_t> expected(want.begin() + offsets[b], want.begin() + offsets[b + 1]);
    std::sort(got.begin(), got.end());
    std::sort(expected.begin(), expected.end());
    same = same && got == expected && counts[b] == cursor[b];
    std::printf("  %2u digit%s: %9u numbers (histogram: %u)\n", b + 1, b ? "s" : " ", cursor[b], counts[b]);
  }
  std::printf("matches the CPU reference: %s\n", same ? "yes" : "NO");

  cudaFree(d_temp);
  cudaFree(d_items);
  cudaFree(d_n);
  cudaFree(d_queue);
  cudaFree(d_cursor);
  cudaFree(d_counts);
  cudaStreamDestroy(stream);
  return same ? 0 : 1;
}
