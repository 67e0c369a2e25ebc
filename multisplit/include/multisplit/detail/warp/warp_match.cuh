// Warp collectives of multisplit: which lanes of a 32-key window share my
// bucket (the "peers"), and, for small bucket counts, how many keys of the
// window fall into the bucket numbered like my lane.
//
// Ashkiani et al., "GPU Multisplit", PPoPP 2016, section 4.1: with m <= 32
// buckets, log2(m) ballots over the bits of the bucket id give every lane both
// its peer mask (AND of the ballots or their complements, by its own bucket's
// bits) and the histogram of bucket `lane` (the same, by the lane's bits), so
// a warp histogram and the warp-local offsets cost log2(m) ballots per window.
// For many buckets __match_any_sync (Volta+) gives the peer mask in one
// instruction instead of one ballot per bit.
#pragma once

#include <cstdint>

#include "../common.cuh"

namespace multisplit {
namespace detail {

// Ballots are cheaper than __match_any_sync for few bits; above this many bits
// of bucket id we switch to __match_any_sync. (A macro so that
// multisplit_bench variants can move the crossover; users need not.)
#ifndef MULTISPLIT_BALLOT_MAX_BITS
#define MULTISPLIT_BALLOT_MAX_BITS 8
#endif
constexpr int kBallotMaxBits = MULTISPLIT_BALLOT_MAX_BITS;

struct WindowMatch {
  std::uint32_t peers;        // valid lanes whose bucket equals mine (includes me if I am valid)
  std::uint32_t lane_bucket;  // valid lanes whose bucket == my lane id (meaningful for lane < 2^bits)
};

// All 32 lanes must call this together. `bits` = ceil_log2(m) <= 5 here.
__device__ __forceinline__ WindowMatch warp_match_small(std::uint32_t bucket, std::uint32_t valid_mask,
                                                        int bits) {
  const std::uint32_t lane = lane_id();
  std::uint32_t peers = valid_mask;
  std::uint32_t own = valid_mask;
  for (int k = 0; k < bits; ++k) {
    const std::uint32_t ballot = __ballot_sync(kFullMask, (bucket >> k) & 1u);
    peers &= ((bucket >> k) & 1u) ? ballot : ~ballot;
    own &= ((lane >> k) & 1u) ? ballot : ~ballot;
  }
  return {peers, own};
}

// Peer mask for any bucket count. All 32 lanes call it; invalid lanes get
// an unspecified mask (they must not use it).
__device__ __forceinline__ std::uint32_t warp_peers(std::uint32_t bucket, std::uint32_t valid_mask, int bits) {
  if (bits <= kBallotMaxBits) {
    std::uint32_t peers = valid_mask;
    for (int k = 0; k < bits; ++k) {
      const std::uint32_t ballot = __ballot_sync(kFullMask, (bucket >> k) & 1u);
      peers &= ((bucket >> k) & 1u) ? ballot : ~ballot;
    }
    return peers;
  }
  return __match_any_sync(kFullMask, bucket) & valid_mask;
}

// Stable warp-aggregated ranking against counters in shared memory: each
// group of peers adds its size to counters[bucket] once (by its lowest lane)
// and every member gets the old counter value plus its rank among the peers.
// Lanes of one window are ordered by lane id, windows by call order, so the
// ranks follow input order. All 32 lanes call it; invalid lanes get garbage.
__device__ __forceinline__ std::uint32_t warp_rank_shared(std::uint32_t* counters, std::uint32_t bucket,
                                                          bool valid, std::uint32_t valid_mask, int bits) {
  const std::uint32_t peers = warp_peers(bucket, valid_mask, bits);
  const std::uint32_t leader = valid ? static_cast<std::uint32_t>(__ffs(peers) - 1) : lane_id();
  std::uint32_t old = 0;
  if (valid && leader == lane_id()) old = atomicAdd(counters + bucket, static_cast<std::uint32_t>(__popc(peers)));
  old = __shfl_sync(kFullMask, old, static_cast<int>(leader));
  return old + static_cast<std::uint32_t>(__popc(peers & lanemask_lt()));
}

// Stable warp ranking against counters in shared memory, with the peer mask
// built in shared memory instead of by ballots: every valid lane ORs its bit
// into masks[bucket] (CUB's RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR; one
// atomic per lane instead of ceil(log2 m) ballots per window), reads the
// mask and the bucket's counter back, and the highest peer advances the
// counter and clears the mask.
//
// Written for N independent windows under one set of warp barriers
// (window k against its own counters[k] and masks[k]); the library calls
// it with N = 1. Two chains of windows per warp measured slower, but in
// this form the chunked BMS key kernel compiles without the spill that the
// plain one-window function gave it (docs/TUNING.md, "BMS masked ranking:
// the window loop"). My mask shifted left by 31 - lane keeps the peers at
// lanes up to mine: one popc gives my rank plus one, and for the highest
// peer (mask >> lane is 1) the group's size. masks[k][0..m) must be zero
// on entry and are zero again on return. All 32 lanes call it; invalid
// lanes get garbage.
template <int N>
__device__ __forceinline__ void warp_rank_masked_windows(std::uint32_t* const (&counters)[N],
                                                         std::uint32_t* const (&masks)[N],
                                                         const std::uint32_t (&bucket)[N], const bool (&valid)[N],
                                                         std::uint32_t lane, std::uint32_t (&rank)[N]) {
#pragma unroll
  for (int k = 0; k < N; ++k)
    if (valid[k]) atomicOr(masks[k] + bucket[k], 1u << lane);
  __syncwarp();
  std::uint32_t peers[N];
  std::uint32_t old[N];
#pragma unroll
  for (int k = 0; k < N; ++k) {
    peers[k] = valid[k] ? masks[k][bucket[k]] : 0u;
    old[k] = valid[k] ? counters[k][bucket[k]] : 0u;
  }
  __syncwarp();  // every peer has read the mask before the highest one clears it
#pragma unroll
  for (int k = 0; k < N; ++k) {
    const std::uint32_t through = old[k] + static_cast<std::uint32_t>(__popc(peers[k] << (31u - lane)));
    if ((peers[k] >> lane) == 1u) {  // never for invalid lanes (no peers)
      counters[k][bucket[k]] = through;
      masks[k][bucket[k]] = 0;
    }
    rank[k] = through - 1u;
  }
  __syncwarp();  // the next window sees the counter advanced and the mask clear
}

// One window of the above (the public warp collective).
__device__ __forceinline__ std::uint32_t warp_rank_masked(std::uint32_t* counters, std::uint32_t* masks,
                                                          std::uint32_t bucket, bool valid) {
  std::uint32_t rank[1];
  warp_rank_masked_windows<1>({counters}, {masks}, {bucket}, {valid}, lane_id(), rank);
  return rank[0];
}

// Stable rank of my key among the keys of its bucket that this warp has
// ranked so far, for one 32-key window (windows in input order):
//   m <= 32: ballots (warp_match_small); the running count of bucket `lane`
//            lives in the caller's register `lane_count`;
//   m > 32 : warp-aggregated atomics on counters[m] (warp_rank_shared).
// All 32 lanes call it; invalid lanes get garbage.
__device__ __forceinline__ std::uint32_t warp_rank_window(std::uint32_t bucket, bool valid, std::uint32_t valid_mask,
                                                          std::uint32_t m, int bits, std::uint32_t& lane_count,
                                                          std::uint32_t* counters) {
  if (m <= 32) {
    const WindowMatch match = warp_match_small(bucket, valid_mask, bits);
    const std::uint32_t rank = __shfl_sync(kFullMask, lane_count, static_cast<int>(bucket)) +
                               static_cast<std::uint32_t>(__popc(match.peers & lanemask_lt()));
    if (lane_id() < m) lane_count += static_cast<std::uint32_t>(__popc(match.lane_bucket));
    return rank;
  }
  return warp_rank_shared(counters, bucket, valid, valid_mask, bits);
}

// Ranks a warp's sub-tile of Items windows stably: lane l's j-th key is item
// first + j * 32 + l, valid below `limit`. bucket_rank[j] gets the key's
// bucket | its rank << 16 among the sub-tile's keys of that bucket before it
// (window order, then lane order: input order). Counts carry over between
// calls: for m <= 32 in lane_count (keys of bucket `lane`), above in
// counters[m]; with `masks` (m > 32) the peers are found through masks[m]
// (warp_rank_masked_windows). All 32 lanes call it; invalid items get
// garbage. Full: the caller knows every item is valid (no per-item
// checks). The window kind is chosen once per sub-tile, not per window.
template <int Items, bool Full = false, class Key, class BucketFn>
__device__ __forceinline__ void warp_rank_subtile(const BucketFn& fn, const Key (&key)[Items], std::uint32_t first,
                                                  std::uint32_t limit, std::uint32_t m, int bits,
                                                  std::uint32_t& lane_count, std::uint32_t* counters,
                                                  std::uint32_t (&bucket_rank)[Items], std::uint32_t* masks = nullptr) {
  const std::uint32_t lane = lane_id();
  auto bucket_at = [&](int j, bool& valid) {
    valid = Full || first + static_cast<std::uint32_t>(j) * kWarpThreads + lane < limit;
    return valid ? bucket_of(fn, key[j], m) : 0u;
  };
  if (masks != nullptr) {
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      bool valid[1];
      const std::uint32_t b[1] = {bucket_at(j, valid[0])};
      std::uint32_t rank[1];
      warp_rank_masked_windows<1>({counters}, {masks}, b, valid, lane, rank);
      bucket_rank[j] = b[0] | (rank[0] << 16);
    }
    return;
  }
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const std::uint32_t item = first + static_cast<std::uint32_t>(j) * kWarpThreads + lane;
    const bool valid = Full || item < limit;
    const std::uint32_t valid_mask = Full ? kFullMask : __ballot_sync(kFullMask, valid);
    const std::uint32_t b = valid ? bucket_of(fn, key[j], m) : 0u;
    const std::uint32_t rank = warp_rank_window(b, valid, valid_mask, m, bits, lane_count, counters);
    bucket_rank[j] = b | (rank << 16);
  }
}

// Warp-wide exclusive prefix sum of one value per lane; *total gets the sum.
__device__ __forceinline__ std::uint32_t warp_exclusive_sum(std::uint32_t value, std::uint32_t* total) {
  const std::uint32_t lane = lane_id();
  std::uint32_t inclusive = value;
#pragma unroll
  for (int delta = 1; delta < 32; delta <<= 1) {
    const std::uint32_t up = __shfl_up_sync(kFullMask, inclusive, static_cast<unsigned>(delta));
    if (lane >= static_cast<std::uint32_t>(delta)) inclusive += up;
  }
  *total = __shfl_sync(kFullMask, inclusive, 31);
  return inclusive - value;
}

// In-place exclusive scan of counts[0..m) by one warp (m/32 per lane, in
// blocked order); writes out[0..m] with out[m] = total. `out` may equal
// `counts` only if m entries plus one fit. Ends with __syncwarp().
__device__ __forceinline__ void warp_exclusive_scan_array(const std::uint32_t* counts, std::uint32_t* out,
                                                          std::uint32_t m) {
  const std::uint32_t lane = lane_id();
  const std::uint32_t per_lane = div_up(m, 32);
  const std::uint32_t begin = lane * per_lane;
  const std::uint32_t end = begin + per_lane < m ? begin + per_lane : m;
  std::uint32_t sum = 0;
  for (std::uint32_t b = begin; b < end; ++b) sum += counts[b];
  std::uint32_t total = 0;
  std::uint32_t running = warp_exclusive_sum(sum, &total);
  __syncwarp();  // everybody read counts before anyone overwrites (out may alias counts)
  for (std::uint32_t b = begin; b < end; ++b) {
    const std::uint32_t c = counts[b];
    out[b] = running;
    running += c;
  }
  if (lane == 0) out[m] = total;
  __syncwarp();
}

}  // namespace detail
}  // namespace multisplit
