// multisplit::GridMultisplit inside cooperative test kernels: the whole input
// split stably by every block of a cooperative grid (or by one block alone,
// in an ordinary launch), the item count read on the device, compared with
// the CPU reference. Keys and pairs, n from 0 to many tiles per block, every
// bucket count up to MAX_BUCKETS for a small n, all items in one bucket,
// grids of one block to every resident block, and two splits back to back
// in one kernel (the scratch reused at once). Outputs are poisoned first;
// slots past n must keep the poison.
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/method_cases.cuh"
#include "multisplit/grid_multisplit.cuh"

#include <algorithm>
#include <string>

namespace {

using multisplit_test::DeviceArray;
using multisplit_test::Dist;
using Fn = multisplit::delta_buckets<std::uint32_t>;

constexpr std::uint32_t kPoison = 0xA5A5A5A5u;

// Splits keys (and values) into out, then, when twice, splits out back into
// keys2 with the same buckets (a second split at once on the same scratch;
// a stable split of stably split data changes nothing).
template <class Value, int BT, int IPT, int MAXB>
__global__ void grid_split_kernel(const std::uint32_t* keys, const Value* values, const std::uint32_t* d_n,
                                  std::uint32_t m, Fn fn, std::uint32_t* out, Value* values_out,
                                  std::uint32_t* offsets, std::uint32_t* scratch, bool twice, std::uint32_t* keys2,
                                  Value* values2, std::uint32_t* offsets2) {
  using Split = multisplit::GridMultisplit<std::uint32_t, Value, BT, IPT, MAXB>;
  __shared__ typename Split::TempStorage temp;
  const std::uint32_t n = *d_n;
  Split split(temp, scratch);
  if constexpr (Split::HAS_VALUES) {
    split.Split(keys, values, out, values_out, n, fn, m, offsets);
    if (twice) split.Split(out, values_out, keys2, values2, n, fn, m, offsets2);
  } else {
    split.Split(keys, out, n, fn, m, offsets);
    if (twice) split.Split(out, keys2, n, fn, m, offsets2);
  }
}

template <class Kernel>
int resident_blocks(Kernel kernel, int block) {
  int sms = 0, per_sm = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0), cudaSuccess);
  return sms * per_sm;
}

// blocks: 0 = every resident block (cooperative), 1 = one block alone (no
// scratch, ordinary launch), else that many blocks (cooperative).
template <class Value, int BT, int IPT, int MAXB>
void check_split(std::uint32_t n, std::uint32_t m, Dist dist, int blocks, bool twice = false) {
  constexpr bool kPairs = !std::is_same<Value, cub::NullType>::value;
  using V = std::conditional_t<kPairs, Value, std::uint32_t>;  // host-side stand-in
  using KernelValue = std::conditional_t<kPairs, Value, cub::NullType>;
  const auto kernel = grid_split_kernel<KernelValue, BT, IPT, MAXB>;
  const int grid = blocks == 0 ? resident_blocks(kernel, BT) : blocks;
  SCOPED_TRACE("BT=" + std::to_string(BT) + " IPT=" + std::to_string(IPT) + " MAX=" + std::to_string(MAXB) +
               " pairs=" + std::to_string(kPairs) + " n=" + std::to_string(n) + " m=" + std::to_string(m) +
               " dist=" + multisplit_test::to_string(dist) + " blocks=" + std::to_string(grid) +
               (twice ? " twice" : ""));
  const std::uint64_t seed = multisplit_test::case_seed(n, m, dist) * 5 + static_cast<std::uint64_t>(grid);
  const std::vector<std::uint32_t> ids = multisplit_test::make_buckets(n, m, dist, seed);
  const std::vector<std::uint32_t> keys = multisplit_test::keys_for_buckets(ids, m, seed);
  const std::vector<V> values = multisplit_test::random_values<V>(n, seed);
  const Fn fn = Fn::spanning(m);
  const std::uint32_t mb = std::min<std::uint32_t>(std::max<std::uint32_t>(m, 1), MAXB);  // the split's bucket count

  // Reference, with one slot of poison past n.
  std::vector<std::uint32_t> want_keys(n + 1, kPoison);
  std::vector<V> want_values(n + 1);
  std::memset(want_values.data(), 0xA5, want_values.size() * sizeof(V));
  const auto want_offsets = multisplit::reference::split_pairs(keys.data(), want_keys.data(), values.data(),
                                                               want_values.data(), n, mb, fn);

  DeviceArray<std::uint32_t> d_keys(n), d_out(n + 1), d_keys2(n + 1), d_offsets(mb + 1), d_offsets2(mb + 1), d_n(1);
  DeviceArray<V> d_values(n), d_values_out(n + 1), d_values2(n + 1);
  DeviceArray<std::uint32_t> d_scratch(grid > 1 ? multisplit::GridMultisplit<std::uint32_t, KernelValue, BT, IPT,
                                                                             MAXB>::ScratchWords(grid)
                                                : 0);
  d_keys.upload(keys);
  d_values.upload(values);
  d_n.upload({n});
  for (auto* a : {&d_out, &d_keys2, &d_offsets, &d_offsets2}) a->poison();
  d_values_out.poison();
  d_values2.poison();
  const std::uint32_t* keys_p = d_keys.get();
  const auto* values_p = reinterpret_cast<const KernelValue*>(d_values.get());
  const std::uint32_t* n_p = d_n.get();
  std::uint32_t* out_p = d_out.get();
  auto* values_out_p = reinterpret_cast<KernelValue*>(d_values_out.get());
  std::uint32_t* offsets_p = d_offsets.get();
  std::uint32_t* scratch_p = grid > 1 ? d_scratch.get() : nullptr;
  std::uint32_t* keys2_p = d_keys2.get();
  auto* values2_p = reinterpret_cast<KernelValue*>(d_values2.get());
  std::uint32_t* offsets2_p = d_offsets2.get();
  Fn fn_arg = fn;
  if (grid > 1) {
    void* args[] = {&keys_p, &values_p, &n_p, &m, &fn_arg, &out_p, &values_out_p, &offsets_p,
                    &scratch_p, &twice, &keys2_p, &values2_p, &offsets2_p};
    MS_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(grid), dim3(BT), args));
  } else {
    kernel<<<1, BT>>>(keys_p, values_p, n_p, m, fn, out_p, values_out_p, offsets_p, scratch_p, twice, keys2_p,
                      values2_p, offsets2_p);
  }
  MS_CUDA_CHECK(cudaGetLastError());
  MS_CUDA_CHECK(cudaDeviceSynchronize());
  multisplit_test::expect_equal(d_offsets.download(), want_offsets, "bucket offsets");
  multisplit_test::expect_equal(d_out.download(), want_keys, "keys (past n: untouched)");
  if constexpr (kPairs) multisplit_test::expect_equal(d_values_out.download(), want_values, "values");
  if (twice) {
    multisplit_test::expect_equal(d_offsets2.download(), want_offsets, "second split: bucket offsets");
    multisplit_test::expect_equal(d_keys2.download(), want_keys, "second split: keys");
    if constexpr (kPairs) multisplit_test::expect_equal(d_values2.download(), want_values, "second split: values");
  }
}

TEST(GridMultisplit, KeysAcrossSizesAndGrids) {
  SKIP_IF_NO_GPU();
  constexpr std::uint32_t kTile = 256 * 4;
  for (const int blocks : {0, 1, 2, 7})
    for (const std::uint32_t n : {0u, 1u, kTile - 1, kTile, 3 * kTile + 5, 100000u, 1u << 20})
      for (const std::uint32_t m : {1u, 2u, 10u, 64u})
        for (const Dist dist : {Dist::Uniform, Dist::OneBucket, Dist::Zipf}) {
          check_split<cub::NullType, 256, 4, 64>(n, m, dist, blocks);
          if (HasFailure()) return;
        }
}

TEST(GridMultisplit, PairsAcrossSizesAndGrids) {
  SKIP_IF_NO_GPU();
  for (const int blocks : {0, 1, 5})
    for (const std::uint32_t n : {0u, 3u, 5000u, 300000u})
      for (const std::uint32_t m : {1u, 3u, 33u, 256u})
        for (const Dist dist : {Dist::Uniform, Dist::Zipf}) {
          check_split<std::uint32_t, 128, 8, 256>(n, m, dist, blocks);
          if (HasFailure()) return;
          check_split<std::uint64_t, 256, 3, 256>(n, m, dist, blocks);
          if (HasFailure()) return;
        }
}

// Every bucket count up to MAX_BUCKETS (and past it: clamped), in a grid.
TEST(GridMultisplit, EveryBucketCount) {
  SKIP_IF_NO_GPU();
  for (std::uint32_t m = 1; m <= 70; ++m) {
    check_split<cub::NullType, 128, 4, 64>(20000 + 37 * m, m, m % 2 ? Dist::Uniform : Dist::Zipf, 0);
    if (HasFailure()) return;
  }
}

// Two splits in a row on the same scratch, without a barrier between them
// in the caller: the first split's grid barrier at its end must cover it.
TEST(GridMultisplit, BackToBackSplitsReuseTheScratch) {
  SKIP_IF_NO_GPU();
  for (const int blocks : {0, 3})
    for (const std::uint32_t n : {4097u, 250000u}) {
      check_split<cub::NullType, 256, 4, 64>(n, 17, Dist::Uniform, blocks, true);
      if (HasFailure()) return;
      check_split<std::uint32_t, 256, 4, 64>(n, 5, Dist::Zipf, blocks, true);
      if (HasFailure()) return;
    }
}

}  // namespace
