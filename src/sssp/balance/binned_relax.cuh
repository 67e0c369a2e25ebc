// Degree-binned relax: the alternative to the three-stage expansion of
// relax.cuh (Merrill, Garland and Grimshaw, PPoPP 2012), selected by the
// plan's load balancer (ExecutionPlan::load_balance, plan.hpp):
// LoadBalance::Binned, or Auto on graphs whose arcs mostly leave
// high-degree vertices.
//
// A round is two passes over the frontier with a grid-wide barrier (or a
// kernel boundary) between them:
//
//  1. Bin pass: each frontier vertex goes into one of three bins by its
//     out-degree d, a multisplit with m = 3 buckets (Ashkiani et al., "GPU
//     Multisplit", PPoPP 2016): per warp window, the bucket peers come from
//     multisplit's warp collectives (warp_peers: log2(m) ballots, section
//     4.1) and each group of peers appends with one atomic, like the paper's
//     direct multisplit (DMS) with global counters. Order inside a bin is not
//     kept (the relax does not need it).
//       bin 0, d < 32     "thread" bin: tiles of blockDim vertices, one arc
//                         per thread after a block-wide scan of the degrees;
//       bin 1, d < 256    "warp" bin: one warp per vertex;
//       bin 2, d >= 256   "block" bin: the hubs' arcs form one index space
//                         (each append also reserves the hub's arc range, in
//                         one 64-bit atomic: count << 40 | arcs), cut into
//                         chunks of kHubChunk arcs, one block per chunk; a
//                         hub of 10^5 arcs is spread over many blocks instead
//                         of serialising one.
//  2. Relax pass: the three bins, hubs first, without barriers in between.
//
// Why not multisplit::split_keys itself: even its device-count overload is
// a sequence of kernel launches (a pre-scan, a scan and a post-scan), and a
// round of the persistent grid runs inside one kernel between grid barriers
// (docs/ARCHITECTURE.md, "The device loop"); launches per round would cost
// more than a whole road-graph round (docs/TUNING.md, "Per-round cost on
// road graphs"). The bin pass is the warp level of the library's multisplit
// (its public warp collectives, warp_multisplit.cuh) run inside the solver's
// own kernels instead.
//
// Bins 0 and 1 share one array of capacity entries (bin 0 grows from the
// front, bin 1 from the back: together they hold at most the frontier, which
// is de-duplicated and so at most n + 1 entries); the hubs have their own
// arrays, at most min(n + 1, m / 256 + 1) entries.
#pragma once

#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>

#include <cstdint>

#include <multisplit/warp_multisplit.cuh>

#include "sssp/common/labels.cuh"
#include "sssp/plan.hpp"
#include "sssp/balance/relax.cuh"

namespace sssp::detail {

constexpr std::uint64_t kWarpDegree = 32;   // d >= this: warp bin
// kHubDegree (plan.hpp): d >= it: block (hub) bin.
constexpr std::uint32_t kNumDegreeBins = 3;
constexpr std::uint64_t kHubChunk = 8 * kRelaxBlock;  // arcs per block-sized chunk of the hub bin
// kHubCountShift, kHubArcMask (plan.hpp): the hubs counter is count << 40 | arcs.

struct BinCounters {
  std::uint32_t scan_count;   // bin 0 entries
  std::uint32_t warp_count;   // bin 1 entries
  unsigned long long hubs;    // bin 2: entries << kHubCountShift | arcs
  unsigned long long merge_path;  // merge-path mode: MergePathPlan::reserved
};

// The degree bins of one round, in device memory.
struct DegreeBins {
  std::uint32_t* items = nullptr;          // bins 0 (front) and 1 (back)
  std::uint32_t capacity = 0;
  std::uint32_t* hub_vertex = nullptr;     // bin 2: vertex of slot s
  std::uint64_t* hub_first = nullptr;      // bin 2: first index of slot s's arcs in the hub arc space
  std::uint32_t hub_capacity = 0;
  BinCounters* counters = nullptr;         // zero between rounds
};

// 64-bit warp-wide exclusive prefix sum; *total gets the sum (all lanes call it).
__device__ __forceinline__ std::uint64_t warp_exclusive_sum64(std::uint64_t value, std::uint64_t* total) {
  const unsigned lane = threadIdx.x & 31u;
  std::uint64_t inclusive = value;
#pragma unroll
  for (int delta = 1; delta < 32; delta <<= 1) {
    const std::uint64_t up = __shfl_up_sync(0xFFFFFFFFu, inclusive, static_cast<unsigned>(delta));
    if (lane >= static_cast<unsigned>(delta)) inclusive += up;
  }
  *total = __shfl_sync(0xFFFFFFFFu, inclusive, 31);
  return inclusive - value;
}

// Bin pass over frontier[0 .. count), grid-stride in warp windows; every
// thread of the grid calls it (warp collectives: whole warps). Vertices that
// sink.queued() skips (relaxed next round with a newer distance) and vertices
// without out-arcs are dropped here.
template <class Sink>
__device__ void bin_frontier(const std::uint64_t* offsets, const std::uint32_t* frontier, std::uint32_t count,
                             const Sink& sink, const DegreeBins& bins, std::uint32_t* overflow) {
  namespace ms = multisplit;
  const unsigned lane = threadIdx.x & 31u;
  const std::uint64_t warp = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::uint64_t warps = (static_cast<std::uint64_t>(gridDim.x) * blockDim.x) >> 5;
  for (std::uint64_t base = warp * 32; base < count; base += warps * 32) {
    const std::uint64_t i = base + lane;
    std::uint32_t u = kNoItem;
    std::uint64_t degree = 0;
    if (i < count) {
      u = frontier[i];
      if (u != kNoItem && !sink.queued(u)) degree = __ldg(offsets + u + 1) - __ldg(offsets + u);
    }
    const bool valid = degree != 0;
    const std::uint32_t bin = degree >= kHubDegree ? 2u : (degree >= kWarpDegree ? 1u : 0u);
    const std::uint32_t valid_mask = __ballot_sync(0xFFFFFFFFu, valid);
    if (valid_mask == 0) continue;  // warp-uniform
    const std::uint32_t peers = ms::warp_peers(bin, valid_mask, 2);
    std::uint64_t hub_arcs = 0;
    const std::uint64_t hub_prefix = warp_exclusive_sum64(valid && bin == 2 ? degree : 0, &hub_arcs);
    const int leader = valid ? __ffs(peers) - 1 : static_cast<int>(lane);
    unsigned long long old = 0;
    if (valid && leader == static_cast<int>(lane)) {
      const auto group = static_cast<unsigned>(__popc(peers));
      if (bin == 2) {
        old = atomicAdd(&bins.counters->hubs, (static_cast<unsigned long long>(group) << kHubCountShift) + hub_arcs);
      } else {
        old = atomicAdd(bin == 0 ? &bins.counters->scan_count : &bins.counters->warp_count, group);
      }
    }
    old = __shfl_sync(0xFFFFFFFFu, old, leader);
    if (!valid) continue;
    const auto rank = static_cast<std::uint32_t>(__popc(peers & ms::lanemask_lt()));
    if (bin == 2) {
      const std::uint64_t slot = (old >> kHubCountShift) + rank;
      if (slot < bins.hub_capacity) {
        bins.hub_vertex[slot] = u;
        bins.hub_first[slot] = (old & kHubArcMask) + hub_prefix;
      } else {
        atomicExch(overflow, 1u);
      }
    } else {
      const std::uint64_t slot = static_cast<std::uint32_t>(old) + static_cast<std::uint64_t>(rank);
      if (slot < bins.capacity) {
        bins.items[bin == 0 ? slot : bins.capacity - 1 - slot] = u;
      } else {
        atomicExch(overflow, 1u);
      }
    }
  }
}

// Relax pass over the bins the bin pass filled. Every thread of the grid
// calls it with the same arguments; blockDim.x must be kBlock. Adds the arcs
// examined to *arcs_examined (one atomic per warp). As in relax_frontier, a
// vertex queued again since (sink.queued) is skipped.
template <class Codec, int kBlock = kRelaxBlock, class Sink>
__device__ void relax_bins(const GraphView<typename Codec::Weight>& g, label_t* labels, const DegreeBins& bins,
                           bool track_pred, const Sink& sink, RelaxShared<Codec, kBlock>& sh,
                           unsigned long long* arcs_examined) {
  using Dist = typename Codec::Dist;
  const unsigned lane = threadIdx.x & 31u;
  // Written by atomics before the barrier: read from L2.
  const std::uint32_t n_scan = __ldcg(&bins.counters->scan_count);
  const std::uint32_t n_warp = __ldcg(&bins.counters->warp_count);
  const unsigned long long hubs_word = __ldcg(&bins.counters->hubs);
  const auto n_hubs = static_cast<std::uint32_t>(hubs_word >> kHubCountShift);
  const std::uint64_t hub_arcs = hubs_word & kHubArcMask;
  unsigned long long my_arcs = 0;

  // Block bin: chunks of the hub arc space, one block per chunk.
  for (std::uint64_t chunk = blockIdx.x; chunk * kHubChunk < hub_arcs; chunk += gridDim.x) {
    const std::uint64_t end = min(chunk * kHubChunk + kHubChunk, hub_arcs);
    std::uint64_t k = chunk * kHubChunk + threadIdx.x;
    if (k >= end) continue;
    // Owner of arc k: the last slot whose first index is <= k (hub_first
    // increases with the slot: one atomic reserved both). Then walk: the
    // thread's arcs are kBlock apart, the owner changes at most once a step
    // (every hub has >= kHubDegree >= kBlock arcs), and its vertex, distance
    // and first arc stay in registers.
    static_assert(kBlock <= kHubDegree, "one chunk step crosses at most one hub boundary");
    std::uint32_t own = 0, hi = n_hubs;
    while (hi - own > 1) {
      const std::uint32_t mid = (own + hi) >> 1;
      if (__ldcg(bins.hub_first + mid) <= k) own = mid; else hi = mid;
    }
    std::uint64_t own_first = __ldcg(bins.hub_first + own);
    std::uint64_t own_end = own + 1 < n_hubs ? __ldcg(bins.hub_first + own + 1) : hub_arcs;
    std::uint32_t u = 0;
    Dist du = Dist();
    std::uint64_t arc0 = 0;
    bool skip = true;
    for (bool moved = true; k < end; k += kBlock) {
      while (k >= own_end) {
        ++own;
        own_first = own_end;
        own_end = own + 1 < n_hubs ? __ldcg(bins.hub_first + own + 1) : hub_arcs;
        moved = true;
      }
      if (moved) {
        u = __ldcg(bins.hub_vertex + own);
        skip = sink.queued(u);
        if (!skip) {
          du = Codec::dist(load_label(labels + u));
          skip = Codec::is_inf(du);
          arc0 = __ldg(g.offsets + u);
        }
        moved = false;
      }
      if (skip) continue;
      relax_arc<Codec>(g, labels, arc0 + (k - own_first), u, du, track_pred, sink);
      ++my_arcs;
    }
  }

  // Warp bin: one warp per vertex (bin 1 sits at the back of items).
  {
    const std::uint64_t warp = (static_cast<std::uint64_t>(blockIdx.x) * kBlock + threadIdx.x) >> 5;
    const std::uint64_t warps = (static_cast<std::uint64_t>(gridDim.x) * kBlock) >> 5;
    for (std::uint64_t j = warp; j < n_warp; j += warps) {
      const std::uint32_t u = __ldcg(bins.items + (bins.capacity - 1 - j));
      // Lane 0 decides and reads the distance for the whole warp (the stamp
      // and the label may change under other warps' relaxations).
      int skip = 0;
      Dist du = Dist();
      if (lane == 0) {
        skip = sink.queued(u) ? 1 : 0;
        if (!skip) {
          du = Codec::dist(load_label(labels + u));
          skip = Codec::is_inf(du) ? 1 : 0;
        }
      }
      if (__shfl_sync(0xFFFFFFFFu, skip, 0)) continue;
      du = __shfl_sync(0xFFFFFFFFu, du, 0);
      const std::uint64_t first = __ldg(g.offsets + u), end = __ldg(g.offsets + u + 1);
      if (lane == 0) my_arcs += end - first;
      for (std::uint64_t e = first + lane; e < end; e += 32) relax_arc<Codec>(g, labels, e, u, du, track_pred, sink);
    }
  }

  // Thread bin: tiles of kBlock vertices with d < 32, one arc per thread
  // after a block-wide scan of the degrees (the scan stage of relax.cuh).
  for (std::uint64_t tile = static_cast<std::uint64_t>(blockIdx.x) * kBlock; tile < n_scan;
       tile += static_cast<std::uint64_t>(gridDim.x) * kBlock) {
    const std::uint64_t idx = tile + threadIdx.x;
    std::uint32_t u = 0;
    std::uint64_t first = 0, end = 0;
    Dist du = Dist();
    if (idx < n_scan) {
      u = __ldcg(bins.items + idx);
      if (!sink.queued(u)) {
        du = Codec::dist(load_label(labels + u));
        if (!Codec::is_inf(du)) {
          first = __ldg(g.offsets + u);
          end = __ldg(g.offsets + u + 1);
        }
      }
    }
    const auto degree = static_cast<std::uint32_t>(end - first);  // < kWarpDegree
    my_arcs += degree;
    std::uint32_t rank, total;
    cub::BlockScan<std::uint32_t, kBlock>(sh.scan).ExclusiveSum(degree, rank, total);
    sh.first_arc[threadIdx.x] = first;
    sh.rank[threadIdx.x] = rank;
    sh.vertex[threadIdx.x] = u;
    sh.dist[threadIdx.x] = du;
    __syncthreads();
    for (std::uint32_t base = 0; base < total; base += kBlock) {
      const std::uint32_t k = base + threadIdx.x;
      if (k < total) {
        int lo = 0, hi = kBlock;
        while (lo < hi) {
          const int mid = (lo + hi) >> 1;
          if (sh.rank[mid] <= k) lo = mid + 1; else hi = mid;
        }
        const int owner = lo - 1;
        relax_arc<Codec>(g, labels, sh.first_arc[owner] + (k - sh.rank[owner]), sh.vertex[owner], sh.dist[owner],
                         track_pred, sink);
      }
    }
    __syncthreads();
  }

  add_arcs_examined(my_arcs, arcs_examined);
}

// Clears the counters for the next round: one thread, after every thread of
// the grid is done with relax_bins (a barrier or the last block out).
__device__ __forceinline__ void reset_bins(const DegreeBins& bins) {
  bins.counters->scan_count = 0;
  bins.counters->warp_count = 0;
  bins.counters->hubs = 0;
}

}  // namespace sssp::detail
