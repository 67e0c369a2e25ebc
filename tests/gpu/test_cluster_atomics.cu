// Atomics the cluster regime (engine.cuh, engine_cluster) issues on block
// 0's shared memory from every block of a thread-block cluster, through
// distributed shared memory: 32-bit appends (append_slot, warp-aggregated),
// the 64-bit arc counter, and the far pile's 64-bit minimum (far_pile.cuh,
// atomic_min_by_cas). Each must see every block's update. A plain 64-bit
// atomicMin on such an address lost updates (sm_90, CUDA 13.0: the
// bucketing strategies then gave wrong distances), so the minimum is taken
// by compare-and-swap; the test prints what atomicMin gives for the record.
#include <gtest/gtest.h>

#include <cooperative_groups.h>

#include <cstdint>
#include <iostream>

#include "gpu_test_support.cuh"
#include "sssp/policies/far_pile.cuh"
#include "sssp/balance/relax.cuh"

namespace {

namespace cg = cooperative_groups;

constexpr int kThreads = 256;

struct Results {
  unsigned long long cas_min, plain_min, sum;
  std::uint32_t appended;
};

// Thread t of block b offers key 1000 + ((b * kThreads + t) * 7919) % 100003
// (its minimum is known), adds b + 1 to the sum, and appends once.
__global__ void cluster_atomics(Results* out) {
  const cg::cluster_group cluster = cg::this_cluster();
  __shared__ unsigned long long cas_min, plain_min, sum;
  __shared__ std::uint32_t appended;
  if (threadIdx.x == 0) {
    cas_min = ~0ull;
    plain_min = ~0ull;
    sum = 0;
    appended = 0;
  }
  cluster.sync();
  const unsigned rank = cluster.block_rank();
  const unsigned long long key = 1000 + ((rank * kThreads + threadIdx.x) * 7919ull) % 100003;
  sssp::detail::atomic_min_by_cas(cluster.map_shared_rank(&cas_min, 0u), key);
  atomicMin(cluster.map_shared_rank(&plain_min, 0u), key);
  atomicAdd(cluster.map_shared_rank(&sum, 0u), static_cast<unsigned long long>(rank + 1));
  if (threadIdx.x % 3 == 0) (void)sssp::detail::append_slot(cluster.map_shared_rank(&appended, 0u));
  cluster.sync();
  if (rank == 0 && threadIdx.x == 0) *out = Results{cas_min, plain_min, sum, appended};
  cluster.sync();  // block 0's shared memory outlives every remote access
}

TEST(ClusterAtomics, EveryBlockUpdatesBlockZero) {
  SKIP_IF_NO_GPU();
  int major = 0;
  CUDA_ASSERT(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  if (major < 9) GTEST_SKIP() << "thread-block clusters need sm_90 or later; this device is sm_" << major << "x";
  for (const unsigned blocks : {2u, 8u}) {
    Results* d = nullptr;
    CUDA_ASSERT(cudaMalloc(&d, sizeof(Results)));
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = blocks;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(kThreads);
    config.attrs = &attribute;
    config.numAttrs = 1;
    CUDA_ASSERT(cudaLaunchKernelEx(&config, cluster_atomics, d));
    CUDA_ASSERT(cudaDeviceSynchronize());
    Results r{};
    CUDA_ASSERT(cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost));
    CUDA_ASSERT(cudaFree(d));
    unsigned long long want_min = ~0ull, want_sum = 0;
    std::uint32_t want_appended = 0;
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < kThreads; ++t) {
        const unsigned long long key = 1000 + ((b * kThreads + t) * 7919ull) % 100003;
        want_min = key < want_min ? key : want_min;
        want_sum += b + 1;
        want_appended += t % 3 == 0;
      }
    EXPECT_EQ(r.cas_min, want_min) << blocks << " blocks";
    EXPECT_EQ(r.sum, want_sum) << blocks << " blocks";
    EXPECT_EQ(r.appended, want_appended) << blocks << " blocks";
    std::cout << "[ note ] " << blocks << " blocks: 64-bit atomicMin through distributed shared memory gave "
              << r.plain_min << " (compare-and-swap: " << r.cas_min << ", exact: " << want_min << ")\n";
  }
}

}  // namespace
