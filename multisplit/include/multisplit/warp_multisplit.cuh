// Warp-level multisplit collectives, for use inside your own kernels (the
// ones the library's methods are built from; Ashkiani et al., "GPU
// Multisplit", PPoPP 2016, section 4.1). All are __device__ functions that
// every one of the 32 lanes of a warp calls together (converged, full mask);
// a "window" is one item per lane, lane order being the window's order.
//
//   #include <multisplit/warp_multisplit.cuh>
//   const std::uint32_t valid_mask = __ballot_sync(0xFFFFFFFFu, valid);
//   const std::uint32_t peers = multisplit::warp_peers(bucket, valid_mask, bits);  // bits = ceil_log2(m)
//   const std::uint32_t rank = __popc(peers & multisplit::lanemask_lt());        // stable rank in the window
//   // the lowest lane of `peers` (__ffs(peers) - 1) may add __popc(peers) to a counter for all of them
//
// * warp_peers(bucket, valid_mask, bits): the valid lanes whose bucket
//   equals mine (including me when I am valid): `bits` ballots for up to 8
//   bits of bucket id, __match_any_sync above. Invalid lanes must pass a
//   bucket below 2^bits too (0 will do) and must not use the result.
// * warp_match_small(bucket, valid_mask, bits), bits <= 5 (m <= 32):
//   WindowMatch{peers, lane_bucket}: my peers as above, and the valid lanes
//   whose bucket is my lane id (so lane b learns bucket b's count in the
//   window: a warp histogram for the same bits ballots).
// * warp_rank_shared(counters, bucket, valid, valid_mask, bits): stable
//   warp-aggregated ranking against per-bucket counters (shared or global
//   memory): one atomicAdd per group of equal buckets, every valid lane gets
//   counters[bucket] before the window plus its rank among its peers.
//   Windows ranked one after another get ranks in window order, then lane
//   order.
// * warp_rank_masked(counters, masks, bucket, valid): the same stable ranking
//   for many buckets without ballots: each valid lane ORs its bit into
//   masks[bucket] (shared memory, one word per bucket, zero on entry and
//   zero again on return), so a window costs one shared atomic per lane and
//   no atomic on the counter; the ranking of CUB's onesweep radix sort, and
//   of BMS past 32 buckets. Counters and masks belong to the calling warp.
// * warp_exclusive_sum(value, &total): exclusive prefix sum over the lanes.
// * lanemask_lt(): the lanes below mine.
// * ceil_log2(m): the bits of bucket id (0 for m = 1).
//
// These are the same functions as multisplit::detail:: ones declared in
// detail/warp/warp_match.cuh (which keeps working), under public names.
#pragma once

#include "detail/common.cuh"
#include "detail/warp/warp_match.cuh"

namespace multisplit {

using detail::ceil_log2;
using detail::lanemask_lt;
using detail::warp_exclusive_sum;
using detail::warp_match_small;
using detail::warp_peers;
using detail::warp_rank_masked;
using detail::warp_rank_shared;
using detail::WindowMatch;

}  // namespace multisplit
