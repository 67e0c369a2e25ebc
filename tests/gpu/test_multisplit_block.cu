// multisplit::BlockMultisplit inside test kernels: every
// tile of the input is split by one block, and every tile's output, bucket
// offsets and ranks are compared with the CPU reference applied to that
// tile alone. Every bucket count up to MAX_BUCKETS, keys and pairs, a
// partial last tile, all items in one bucket, outputs to global and to
// shared memory, RankBuckets with bucket ids, and the permutation property
// of the ranks (items past valid_items keep their own index). Outputs are
// poisoned first; slots past a partial tile's items must keep the poison.
// Also the warp collectives of multisplit/warp_multisplit.cuh.
#include "gpu_test_support.cuh"

#include "../../multisplit/testing/method_cases.cuh"
#include "multisplit/block_multisplit.cuh"
#include "multisplit/warp_multisplit.cuh"

#include <algorithm>
#include <string>

namespace {

using multisplit_test::DeviceArray;
using multisplit_test::Dist;
using Fn = multisplit::delta_buckets<std::uint32_t>;

constexpr std::uint32_t kPoison = 0xA5A5A5A5u;

enum class Mode { Global, Shared, RankOnly, RankBuckets };

// One block per tile. Global: Scatter straight into the tile's slice of
// out_keys/out_values. Shared: Scatter into shared memory, then copy out.
// RankOnly / RankBuckets: write every item's rank to ranks[item]; and the
// scatter done by hand from the ranks (RankBuckets: from the bucket ids).
// offsets: (m + 1) per tile.
template <class Value, int BT, int IPT, int MAXB, Mode kMode>
__global__ void block_split_kernel(const std::uint32_t* keys, const Value* values, std::uint32_t n, std::uint32_t m,
                                   Fn fn, std::uint32_t* out_keys, Value* out_values, std::uint32_t* offsets,
                                   std::uint32_t* ranks_out) {
  constexpr bool kPairs = !std::is_same<Value, cub::NullType>::value;
  using BlockSplit = multisplit::BlockMultisplit<std::uint32_t, Value, BT, IPT, MAXB>;
  constexpr std::uint32_t kTile = BlockSplit::TILE_ITEMS;
  __shared__ typename BlockSplit::TempStorage temp;
  const std::uint32_t base = blockIdx.x * kTile;
  const std::uint32_t valid = min(kTile, n - base);
  std::uint32_t k[IPT];
  Value v[IPT];
  for (int j = 0; j < IPT; ++j) {
    const std::uint32_t i = threadIdx.x * IPT + j;
    if (i < valid) {
      k[j] = keys[base + i];
      if constexpr (kPairs) v[j] = values[base + i];
    }
  }
  std::uint32_t* const tile_offsets = offsets + blockIdx.x * (m + 1);
  BlockSplit split(temp);
  if constexpr (kMode == Mode::Global) {
    if constexpr (kPairs)
      split.Scatter(k, v, out_keys + base, out_values + base, fn, m, tile_offsets, valid);
    else
      split.Scatter(k, out_keys + base, fn, m, tile_offsets, valid);
  } else if constexpr (kMode == Mode::Shared) {
    __shared__ std::uint32_t s_keys[kTile];
    __shared__ Value s_values[kPairs ? kTile : 1];
    __shared__ std::uint32_t s_offsets[MAXB + 1];
    if constexpr (kPairs)
      split.Scatter(k, v, s_keys, s_values, fn, m, s_offsets, valid);
    else
      split.Scatter(k, s_keys, fn, m, s_offsets, valid);
    // Scatter ends with a barrier: the shared outputs are complete here.
    for (std::uint32_t i = threadIdx.x; i < valid; i += BT) {
      out_keys[base + i] = s_keys[i];
      if constexpr (kPairs) out_values[base + i] = s_values[i];
    }
    for (std::uint32_t b = threadIdx.x; b <= m; b += BT) tile_offsets[b] = s_offsets[b];
  } else {
    std::uint32_t r[IPT];
    if constexpr (kMode == Mode::RankOnly) {
      split.Rank(k, r, fn, m, tile_offsets, valid);
    } else {
      std::uint32_t b[IPT];
      BlockSplit::BucketsOf(k, b, fn, m, valid);
      split.RankBuckets(b, r, m, tile_offsets, valid);
      // Use the collective twice on the same storage (it ends with a barrier).
      std::uint32_t again[IPT];
      split.RankBuckets(b, again, m, nullptr, valid);
      for (int j = 0; j < IPT; ++j)
        if (again[j] != r[j]) r[j] = 0xFFFFFFFFu;  // the host sees a wrong rank
    }
    for (int j = 0; j < IPT; ++j) {
      const std::uint32_t i = threadIdx.x * IPT + j;
      ranks_out[base + i] = r[j];  // ranks_out has whole tiles
      if (i < valid) {
        out_keys[base + r[j]] = k[j];
        if constexpr (kPairs) out_values[base + r[j]] = v[j];
      }
    }
  }
}

template <class Value, int BT, int IPT, int MAXB, Mode kMode>
void check_tiles(std::uint32_t n, std::uint32_t m, Dist dist) {
  constexpr bool kPairs = !std::is_same<Value, cub::NullType>::value;
  using V = std::conditional_t<kPairs, Value, std::uint32_t>;  // host-side stand-in
  constexpr std::uint32_t kTile = BT * IPT;
  SCOPED_TRACE("BT=" + std::to_string(BT) + " IPT=" + std::to_string(IPT) + " MAX=" + std::to_string(MAXB) +
               " mode=" + std::to_string(static_cast<int>(kMode)) + " pairs=" + std::to_string(kPairs) +
               " n=" + std::to_string(n) + " m=" + std::to_string(m) + " dist=" + multisplit_test::to_string(dist));
  const std::uint64_t seed = multisplit_test::case_seed(n, m, dist) * 3 + static_cast<std::uint64_t>(kMode);
  const std::vector<std::uint32_t> ids = multisplit_test::make_buckets(n, m, dist, seed);
  const std::vector<std::uint32_t> keys = multisplit_test::keys_for_buckets(ids, m, seed);
  const std::vector<V> values = multisplit_test::random_values<V>(n, seed);
  const Fn fn = Fn::spanning(m);
  const std::uint32_t tiles = multisplit::detail::div_up(n, kTile);

  // Reference: each tile split on its own.
  std::vector<std::uint32_t> want_keys(static_cast<std::size_t>(tiles) * kTile, kPoison);
  std::vector<V> want_values(static_cast<std::size_t>(tiles) * kTile);
  std::memset(want_values.data(), 0xA5, want_values.size() * sizeof(V));
  std::vector<std::uint32_t> want_offsets, want_ranks(static_cast<std::size_t>(tiles) * kTile);
  for (std::uint32_t t = 0; t < tiles; ++t) {
    const std::uint32_t base = t * kTile, count = std::min(kTile, n - base);
    const auto offsets = multisplit::reference::split_pairs(keys.data() + base, want_keys.data() + base,
                                                            values.data() + base, want_values.data() + base, count, m,
                                                            fn);
    want_offsets.insert(want_offsets.end(), offsets.begin(), offsets.end());
    // Rank of item i: its bucket's start plus the items of its bucket before it.
    std::vector<std::uint32_t> next(offsets.begin(), offsets.end() - 1);
    for (std::uint32_t i = 0; i < kTile; ++i)
      want_ranks[base + i] = i < count ? next[ids[base + i]]++ : i;
  }

  DeviceArray<std::uint32_t> d_keys(n), d_out(want_keys.size()), d_offsets(want_offsets.size()),
      d_ranks(want_ranks.size());
  DeviceArray<V> d_values(n), d_values_out(want_values.size());
  d_keys.upload(keys);
  d_values.upload(values);
  d_out.poison();
  d_values_out.poison();
  d_offsets.poison();
  d_ranks.poison();
  using KernelValue = std::conditional_t<kPairs, Value, cub::NullType>;
  block_split_kernel<KernelValue, BT, IPT, MAXB, kMode><<<tiles, BT>>>(
      d_keys.get(), reinterpret_cast<const KernelValue*>(d_values.get()), n, m, fn, d_out.get(),
      reinterpret_cast<KernelValue*>(d_values_out.get()), d_offsets.get(), d_ranks.get());
  MS_CUDA_CHECK(cudaGetLastError());
  MS_CUDA_CHECK(cudaDeviceSynchronize());
  multisplit_test::expect_equal(d_offsets.download(), want_offsets, "per-tile bucket offsets");
  multisplit_test::expect_equal(d_out.download(), want_keys, "keys (past n: untouched)");
  if constexpr (kPairs) multisplit_test::expect_equal(d_values_out.download(), want_values, "values");
  if constexpr (kMode == Mode::RankOnly || kMode == Mode::RankBuckets)
    multisplit_test::expect_equal(d_ranks.download(), want_ranks, "ranks");
}

// Sizes: one partial tile, whole tiles, whole tiles plus a partial one.
template <class Value, int BT, int IPT, int MAXB, Mode kMode>
void check_every_m(std::uint32_t first_m = 1) {
  constexpr std::uint32_t kTile = BT * IPT;
  for (std::uint32_t m = first_m; m <= static_cast<std::uint32_t>(MAXB); ++m) {
    for (const Dist dist : {Dist::Uniform, Dist::OneBucket, Dist::Zipf}) {
      const std::uint32_t n = (m % 3 == 0) ? 5 * kTile : (m % 3 == 1) ? 5 * kTile + (m * 37) % kTile : kTile / 3 + 1;
      check_tiles<Value, BT, IPT, MAXB, kMode>(n, m, dist);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST(BlockMultisplit, KeysEveryBucketCountToGlobal) {
  SKIP_IF_NO_GPU();
  check_every_m<cub::NullType, 128, 4, 64, Mode::Global>();
}

TEST(BlockMultisplit, PairsEveryBucketCountToGlobal) {
  SKIP_IF_NO_GPU();
  check_every_m<std::uint32_t, 128, 4, 64, Mode::Global>();
  if (HasFailure()) return;
  check_every_m<std::uint64_t, 64, 3, 40, Mode::Global>();
}

TEST(BlockMultisplit, KeysAndPairsToSharedMemory) {
  SKIP_IF_NO_GPU();
  check_every_m<cub::NullType, 256, 8, 48, Mode::Shared>();
  if (HasFailure()) return;
  check_every_m<std::uint32_t, 96, 5, 33, Mode::Shared>();
}

TEST(BlockMultisplit, RanksArePositionsAndAPermutation) {
  SKIP_IF_NO_GPU();
  check_every_m<cub::NullType, 128, 7, 70, Mode::RankOnly>();
  if (HasFailure()) return;
  check_every_m<std::uint32_t, 32, 1, 33, Mode::RankBuckets>();
}

// More than 8 bits of bucket id: __match_any_sync ranking, up to its maximum.
TEST(BlockMultisplit, ManyBucketsEveryBucketCount) {
  SKIP_IF_NO_GPU();
  check_every_m<cub::NullType, 256, 4, 300, Mode::Global>(200);
  if (HasFailure()) return;
  check_every_m<std::uint32_t, 128, 2, 600, Mode::RankBuckets>(500);
  if (HasFailure()) return;
  for (const std::uint32_t m : {1u, 2u, 255u, 256u, 257u, 1000u, 2048u})
    for (const Dist dist : {Dist::Uniform, Dist::OneBucket, Dist::Zipf}) {
      check_tiles<std::uint32_t, 64, 16, 2048, Mode::Global>(20000, m, dist);
      if (HasFailure()) return;
    }
}

TEST(BlockMultisplit, AllItemsInOneBucket) {
  SKIP_IF_NO_GPU();
  // Dist::OneBucket puts every item into one bucket (drawn per case).
  for (const std::uint32_t m : {1u, 2u, 17u, 64u}) {
    check_tiles<cub::NullType, 128, 4, 64, Mode::Global>(3 * 512 + 100, m, Dist::OneBucket);
    check_tiles<std::uint32_t, 128, 4, 64, Mode::RankOnly>(3 * 512 + 100, m, Dist::OneBucket);
    if (HasFailure()) return;
  }
}

// ---- the public warp collectives.
__global__ void warp_collectives_kernel(const std::uint32_t* buckets, std::uint32_t n, int bits, std::uint32_t m,
                                        std::uint32_t* ranks, std::uint32_t* counts, std::uint32_t* peer_counts) {
  __shared__ std::uint32_t counters[1024];
  for (std::uint32_t b = threadIdx.x; b < m; b += blockDim.x) counters[b] = 0;
  __syncthreads();
  if (threadIdx.x >= 32) return;  // one warp ranks everything, window by window
  for (std::uint32_t base = 0; base < n; base += 32) {
    const std::uint32_t i = base + threadIdx.x;
    const bool valid = i < n;
    const std::uint32_t valid_mask = __ballot_sync(0xFFFFFFFFu, valid);
    const std::uint32_t b = valid ? buckets[i] : 0u;
    const std::uint32_t rank = multisplit::warp_rank_shared(counters, b, valid, valid_mask, bits);
    const std::uint32_t peers = multisplit::warp_peers(b, valid_mask, bits);
    if (valid) {
      ranks[i] = rank;
      peer_counts[i] = static_cast<std::uint32_t>(__popc(peers & multisplit::lanemask_lt()));
    }
  }
  __syncwarp();
  for (std::uint32_t b = threadIdx.x; b < m; b += 32) counts[b] = counters[b];
}

// The same ranking through warp_rank_masked; masks_left counts the mask
// words not cleared afterwards (must be 0).
__global__ void warp_rank_masked_kernel(const std::uint32_t* buckets, std::uint32_t n, std::uint32_t m,
                                        std::uint32_t* ranks, std::uint32_t* counts, std::uint32_t* masks_left) {
  __shared__ std::uint32_t counters[1024];
  __shared__ std::uint32_t masks[1024];
  for (std::uint32_t b = threadIdx.x; b < m; b += blockDim.x) counters[b] = masks[b] = 0;
  __syncthreads();
  if (threadIdx.x >= 32) return;
  for (std::uint32_t base = 0; base < n; base += 32) {
    const std::uint32_t i = base + threadIdx.x;
    const bool valid = i < n;
    const std::uint32_t b = valid ? buckets[i] : 0u;
    const std::uint32_t rank = multisplit::warp_rank_masked(counters, masks, b, valid);
    if (valid) ranks[i] = rank;
  }
  __syncwarp();
  std::uint32_t left = 0;
  for (std::uint32_t b = threadIdx.x; b < m; b += 32) {
    counts[b] = counters[b];
    left += masks[b] != 0;
  }
  left = __reduce_add_sync(0xFFFFFFFFu, left);
  if (threadIdx.x == 0) *masks_left = left;
}

TEST(WarpMultisplit, MaskedRankingMatchesStableRanks) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t m : {1u, 2u, 33u, 256u, 1024u}) {
    for (const Dist dist : {Dist::Zipf, Dist::OneBucket, Dist::Uniform}) {
      SCOPED_TRACE("m=" + std::to_string(m) + " " + multisplit_test::to_string(dist));
      const std::uint32_t n = 32 * 40 + 13;
      const std::vector<std::uint32_t> ids = multisplit_test::make_buckets(n, m, dist, m + 7);
      std::vector<std::uint32_t> want_ranks(n), want_counts(m, 0);
      for (std::uint32_t i = 0; i < n; ++i) want_ranks[i] = want_counts[ids[i]]++;
      DeviceArray<std::uint32_t> d_ids(n), d_ranks(n), d_counts(m), d_left(1);
      d_ids.upload(ids);
      d_ranks.poison();
      d_counts.poison();
      d_left.poison();
      warp_rank_masked_kernel<<<1, 64>>>(d_ids.get(), n, m, d_ranks.get(), d_counts.get(), d_left.get());
      ASSERT_EQ(cudaGetLastError(), cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      multisplit_test::expect_equal(d_ranks.download(), want_ranks, "ranks");
      multisplit_test::expect_equal(d_counts.download(), want_counts, "counts");
      EXPECT_EQ(d_left.download()[0], 0u) << "mask words left set";
      if (HasFailure()) return;
    }
  }
}

TEST(WarpMultisplit, PublicCollectivesRankStably) {
  SKIP_IF_NO_GPU();
  for (const std::uint32_t m : {1u, 2u, 5u, 32u, 256u, 257u, 1024u}) {
    SCOPED_TRACE("m=" + std::to_string(m));
    const std::uint32_t n = 32 * 40 + 13;
    const std::vector<std::uint32_t> ids = multisplit_test::make_buckets(n, m, Dist::Zipf, m);
    std::vector<std::uint32_t> want_ranks(n), want_counts(m, 0), want_peers(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      want_ranks[i] = want_counts[ids[i]]++;
      want_peers[i] = 0;
      for (std::uint32_t k = i / 32 * 32; k < i; ++k) want_peers[i] += ids[k] == ids[i];
    }
    DeviceArray<std::uint32_t> d_ids(n), d_ranks(n), d_counts(m), d_peers(n);
    d_ids.upload(ids);
    d_ranks.poison();
    d_counts.poison();
    d_peers.poison();
    warp_collectives_kernel<<<1, 64>>>(d_ids.get(), n, multisplit::ceil_log2(m), m, d_ranks.get(), d_counts.get(),
                                       d_peers.get());
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    multisplit_test::expect_equal(d_ranks.download(), want_ranks, "ranks");
    multisplit_test::expect_equal(d_counts.download(), want_counts, "counts");
    multisplit_test::expect_equal(d_peers.download(), want_peers, "peer ranks in the window");
    if (HasFailure()) return;
  }
}

}  // namespace
