#include "sssp/hierarchy_solver.hpp"

#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "graph/reference.hpp"
#include "sssp/common/cuda_check.cuh"
#include "sssp/common/device_memory.cuh"
#include "sssp/predecessors.cuh"
#include "sssp/read_off.cuh"
#include "sssp/read_off_arrays.hpp"
#include "sssp/engine/small_frontier.cuh"

namespace sssp {
namespace {

namespace cg = cooperative_groups;
using detail::CoreDistanceArray;
using detail::lower_pieces;
using detail::read_off_anchors;
using detail::upload;

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

constexpr int kSweepThreads = 1024;
constexpr int kGridSweepThreads = 256;
constexpr std::uint64_t kInf = std::numeric_limits<std::uint64_t>::max();
// Cores up to this many vertices keep their distances in shared memory
// during the sweep (8 bytes each; the H100 and H200 give a block 227 KB).
constexpr std::uint32_t kSharedMaxVertices = 26 * 1024;
// Sources per launch of solve_batch at most (a block each; memory may
// allow fewer).
constexpr std::uint64_t kMaxBatchLaunch = 1024;

// A position's downward in-arcs, loaded ahead: the first kPrefetchArcs of
// them in registers, the rest read when used.
constexpr int kPrefetchArcs = 4;
struct PendingItem {
  std::uint32_t position;
  std::uint64_t begin, end;
  std::uint32_t tail[kPrefetchArcs];
  std::uint64_t weight[kPrefetchArcs];
};

__device__ __forceinline__ void load_item(PendingItem& p, std::uint32_t position, std::uint32_t level_end,
                                          const std::uint64_t* __restrict__ down_offsets,
                                          const std::uint32_t* __restrict__ down_tails,
                                          const std::uint64_t* __restrict__ down_weights) {
  p.position = position;
  p.begin = p.end = 0;
  if (position >= level_end) return;
  p.begin = down_offsets[position];
  p.end = down_offsets[position + 1];
#pragma unroll
  for (int k = 0; k < kPrefetchArcs; ++k)
    if (p.begin + k < p.end) {
      p.tail[k] = down_tails[p.begin + k];
      p.weight[k] = down_weights[p.begin + k];
    }
}

// Relaxes the downward in-arcs first, first + stride, ... (below end) into
// d: loads of four arcs at a time first, then their distances, so a vertex
// with many arcs waits for one memory latency per four arcs, not per arc.
// stride > 1: a group of lanes shares a position (the grid sweep). kPastL1:
// the distances are in device memory and written by other SMs (the grid
// sweep), so they are read from L2 (__ldcg).
template <bool kPastL1 = false>
__device__ __forceinline__ std::uint64_t relax_arcs(std::uint64_t d, std::uint64_t first, std::uint64_t end,
                                                    const std::uint64_t* dist,
                                                    const std::uint32_t* __restrict__ down_tails,
                                                    const std::uint64_t* __restrict__ down_weights,
                                                    std::uint32_t stride = 1) {
  for (std::uint64_t e = first; e < end; e += 4ull * stride) {
    std::uint32_t tail[4];
    std::uint64_t weight[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (e + k * stride < end) {
        tail[k] = down_tails[e + k * stride];
        weight[k] = down_weights[e + k * stride];
      }
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (e + k * stride < end) {
        const std::uint64_t du = kPastL1 ? __ldcg(dist + tail[k]) : dist[tail[k]];
        if (du != kInf) d = min(d, du + weight[k]);
      }
  }
  return d;
}

// Level offsets kept in shared memory up to this many levels (every road
// graph measured has fewer than a hundred).
constexpr std::uint32_t kSharedLevelOffsets = 4096;

// Cores up to kSharedMaxVertices: one block sweeps the whole core for one
// source, its distances in shared memory (block b: source b of the launch,
// its seeds seed_offsets[b] .. seed_offsets[b + 1], its core distances at
// b x n in core_dist): a level's positions relax their downward in-arcs
// (whose tails sit in earlier levels), then a block barrier. Each thread
// loads its next level's arcs before that barrier, and the level bounds come
// from shared memory, so a level's critical path is its distance loads, not
// the arc loads behind them.
__global__ void __launch_bounds__(kSweepThreads)
    phast_sweep(const std::uint64_t* __restrict__ down_offsets, const std::uint32_t* __restrict__ down_tails,
                const std::uint64_t* __restrict__ down_weights, const std::uint32_t* __restrict__ level_offsets,
                std::uint32_t levels, const std::uint32_t* __restrict__ order, std::uint32_t n,
                const std::uint32_t* __restrict__ seed_offsets, const std::uint32_t* __restrict__ seed_positions,
                const std::uint64_t* __restrict__ seed_distances, std::uint64_t* __restrict__ core_dist) {
  extern __shared__ std::uint64_t shared_words[];
  std::uint64_t* dist = shared_words;
  core_dist += std::uint64_t{blockIdx.x} * n;
  const std::uint32_t first_seed = seed_offsets[blockIdx.x], end_seed = seed_offsets[blockIdx.x + 1];
  auto* shared_levels = reinterpret_cast<std::uint32_t*>(shared_words + n);
  const bool levels_in_shared = levels + 1 <= kSharedLevelOffsets;
  const std::uint32_t* lv = levels_in_shared ? shared_levels : level_offsets;
  if (levels_in_shared)
    for (std::uint32_t l = threadIdx.x; l <= levels; l += blockDim.x) shared_levels[l] = level_offsets[l];
  for (std::uint32_t i = threadIdx.x; i < n; i += blockDim.x) dist[i] = kInf;
  __syncthreads();
  for (std::uint32_t i = first_seed + threadIdx.x; i < end_seed; i += blockDim.x)
    dist[seed_positions[i]] = seed_distances[i];
  std::uint32_t lo = lv[0], hi = levels > 0 ? lv[1] : lo;
  PendingItem item;
  load_item(item, lo + threadIdx.x, hi, down_offsets, down_tails, down_weights);
  __syncthreads();
  for (std::uint32_t level = 0; level < levels; ++level) {
    if (item.position < hi) {
      std::uint64_t d = dist[item.position];
#pragma unroll
      for (int k = 0; k < kPrefetchArcs; ++k)
        if (item.begin + k < item.end) {
          const std::uint64_t du = dist[item.tail[k]];
          if (du != kInf) d = min(d, du + item.weight[k]);
        }
      if (item.begin + kPrefetchArcs < item.end)
        d = relax_arcs(d, item.begin + kPrefetchArcs, item.end, dist, down_tails, down_weights);
      dist[item.position] = d;
    }
    // Levels wider than the block: the rest of this level, loaded as used.
    for (std::uint32_t i = lo + threadIdx.x + blockDim.x; i < hi; i += blockDim.x)
      dist[i] = relax_arcs(dist[i], down_offsets[i], down_offsets[i + 1], dist, down_tails, down_weights);
    lo = hi;
    hi = level + 1 < levels ? lv[level + 2] : hi;
    load_item(item, lo + threadIdx.x, hi, down_offsets, down_tails, down_weights);
    __syncthreads();
  }
  for (std::uint32_t i = threadIdx.x; i < n; i += blockDim.x) core_dist[order[i]] = dist[i];
}

// Larger cores: every block of the device sweeps one source's core, a
// level at a time, the positions of a level spread over all threads and a
// grid barrier between levels; the distances live in device memory
// (`scratch`) and are read past L1 (__ldcg: another SM wrote them, and a
// line this SM read earlier may hold an older value). Phases (`phases`,
// bits of SweepPhase): with kCooperative one launch runs them all with grid
// barriers between; without cooperative launch the host launches each
// phase, and each level, on its own.
enum SweepPhase : unsigned { kSweepInit = 1, kSweepSeed = 2, kSweepLevels = 4, kSweepCopyOut = 8, kCooperative = 16 };

__global__ void __launch_bounds__(kGridSweepThreads)
    phast_sweep_grid(const std::uint64_t* __restrict__ down_offsets, const std::uint32_t* __restrict__ down_tails,
                     const std::uint64_t* __restrict__ down_weights, const std::uint32_t* __restrict__ level_offsets,
                     const std::uint8_t* __restrict__ level_group, std::uint32_t first_level, std::uint32_t end_level,
                     const std::uint32_t* __restrict__ order,
                     std::uint32_t n, std::uint32_t source_index, const std::uint32_t* __restrict__ seed_offsets,
                     const std::uint32_t* __restrict__ seed_positions, const std::uint64_t* __restrict__ seed_distances,
                     std::uint64_t* scratch, std::uint64_t* __restrict__ core_dist, unsigned phases) {
  const cg::grid_group grid = cg::this_grid();
  const bool cooperative = phases & kCooperative;
  const std::uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x, threads = gridDim.x * blockDim.x;
  core_dist += std::uint64_t{source_index} * n;
  if (phases & kSweepInit) {
    for (std::uint32_t i = thread; i < n; i += threads) scratch[i] = kInf;
    if (cooperative) grid.sync();
  }
  if (phases & kSweepSeed) {
    const std::uint32_t first = seed_offsets[source_index], end = seed_offsets[source_index + 1];
    for (std::uint32_t i = first + thread; i < end; i += threads) scratch[seed_positions[i]] = seed_distances[i];
    if (cooperative) grid.sync();
  }
  if (phases & kSweepLevels) {
    const std::uint32_t lane = threadIdx.x & 31u, warp = thread / 32u, warps = threads / 32u;
    for (std::uint32_t level = first_level; level < end_level; ++level) {
      const std::uint32_t lo = level_offsets[level], hi = level_offsets[level + 1];
      // `group` lanes per position (a power of two up to 32, from the level's
      // mean arcs per position), so that a lane loads at most about four
      // arcs: a level waits for its slowest position's chain of loads.
      const std::uint32_t group = level_group[level], per_warp = 32u / group, sub = lane & (group - 1u);
      for (std::uint32_t p0 = lo + warp * per_warp; p0 < hi; p0 += warps * per_warp) {
        const std::uint32_t i = p0 + lane / group;
        std::uint64_t first = 0, end = 0;
        if (i < hi) {
          first = down_offsets[i];
          end = down_offsets[i + 1];
        }
        std::uint64_t d = relax_arcs<true>(kInf, first + sub, end, scratch, down_tails, down_weights, group);
        for (std::uint32_t off = group / 2; off > 0; off >>= 1) d = min(d, __shfl_xor_sync(0xFFFFFFFFu, d, off));
        if (i < hi && sub == 0) scratch[i] = min(__ldcg(scratch + i), d);
      }
      if (cooperative) grid.sync();
    }
  }
  if (phases & kSweepCopyOut)
    for (std::uint32_t i = thread; i < n; i += threads) core_dist[order[i]] = __ldcg(scratch + i);
}

}  // namespace

// One source's host part (piece search and upward search), for the
// launch that follows: its seeds in the sweep's numbering, or a host
// Dijkstra when its entry did not fit an arc.
struct HostStart {
  bool fell_back = false;
  std::vector<std::pair<graph::vertex_id, std::uint64_t>> up;  // (position, distance)
  std::vector<std::pair<graph::vertex_id, std::uint64_t>> piece;  // the source's piece distances
  std::uint64_t local_relaxations = 0;
  double piece_ms = 0, upward_ms = 0;
};

struct HierarchyGpuSolver::Impl {
  const graph::IntCsr& g;
  const graph::ChainContraction& c;
  const graph::Hierarchy& h;
  int device;
  bool shared_sweep;  // distances in shared memory during the sweep
  bool predecessors;
  cudaStream_t stream = nullptr;
  detail::DeviceMemory down_offsets, down_tails, down_weights, level_offsets, order;
  detail::ReadOffArrays read_off_arrays;
  // Per launch, for up to `capacity` sources: the seeds (offsets, then
  // positions; distances), the sweep's scratch, the core's and every
  // vertex's distances.
  std::uint32_t capacity = 0;
  detail::DeviceMemory seed_pos, seed_dist, core_dist, dist;
  // The grid sweep's distances (cores past shared memory; one source at a
  // time), and its grid: all resident blocks, 0 without cooperative launch.
  detail::DeviceMemory scratch, level_group;
  int grid_sweep_blocks = 0;
  bool grid_sweep_cooperative = false;
  detail::PinnedMemory host_seed_pos, host_seed_dist, host_dist;
  // The launch's piece distances (lower_pieces), for up to piece_capacity entries.
  std::uint64_t piece_capacity = 0;
  detail::DeviceMemory piece_index, piece_dist;
  detail::PinnedMemory host_piece_index, host_piece_dist;
  // With predecessors: the input graph and the tree.
  detail::DeviceMemory graph_offsets, graph_targets, graph_weights, pred, pred_flag;
  detail::PinnedMemory host_pred, host_pred_flag;
  bool has_zero_weights = false;
  int read_off_blocks = 0;
  graph::ContractionQuery query;
  // solve_batch's host parts run on every OpenMP thread, a query workspace each.
  std::vector<std::unique_ptr<graph::ContractionQuery>> thread_queries;
  double upload_ms = 0;
  std::uint64_t fixed_bytes = 0;

  Impl(const graph::IntCsr& graph, const graph::ChainContraction& contraction, const graph::Hierarchy& hierarchy,
       const HierarchySolverOptions& options)
      : g(graph),
        c(contraction),
        h(hierarchy),
        device(options.device),
        shared_sweep(options.shared_memory_sweep && hierarchy.num_vertices <= kSharedMaxVertices),
        predecessors(options.predecessors),
        query(contraction, graph) {
    if (h.num_vertices != c.core.num_vertices)
      throw std::invalid_argument("sssp: the hierarchy was not built over this contraction's core");
    std::string why;
    if (!gpu_available(&why)) throw std::runtime_error("sssp: no usable GPU: " + why);
    SSSP_CUDA_CHECK(cudaSetDevice(device));
    SSSP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const auto start = Clock::now();
    upload(down_offsets, h.down_offsets, "the hierarchy's downward offsets", stream);
    upload(down_tails, h.down_tails, "the hierarchy's downward arcs", stream);
    upload(down_weights, h.down_weights, "the hierarchy's downward weights", stream);
    upload(level_offsets, h.level_offsets, "the hierarchy's levels", stream);
    upload(order, h.order, "the hierarchy's order", stream);
    read_off_arrays.upload(c, false, stream);
    int sms = 0;
    SSSP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    read_off_blocks = std::max(1, std::min(4 * sms, static_cast<int>((g.num_vertices + 255) / 256)));
    if (!shared_sweep) {
      scratch.allocate(std::size_t{h.num_vertices} * 8, "the sweep's distances");
      // Lanes per position for each level: the smallest power of two that
      // leaves a lane about four of the level's mean arcs per position.
      std::vector<std::uint8_t> groups(h.levels());
      for (std::uint32_t l = 0; l < h.levels(); ++l) {
        const std::uint64_t positions = h.level_offsets[l + 1] - h.level_offsets[l];
        const std::uint64_t arcs = h.down_offsets[h.level_offsets[l + 1]] - h.down_offsets[h.level_offsets[l]];
        std::uint32_t group = 1;
        while (group < 32 && arcs > 4 * group * std::max<std::uint64_t>(1, positions)) group *= 2;
        groups[l] = static_cast<std::uint8_t>(group);
      }
      upload(level_group, groups, "the sweep's lanes per position", stream);
      grid_sweep_blocks =
          options.persistent_grid ? detail::cooperative_grid(phast_sweep_grid, kGridSweepThreads, device) : 0;
      grid_sweep_cooperative = grid_sweep_blocks > 0;
      if (!grid_sweep_cooperative) grid_sweep_blocks = 4 * sms;
    }
    reserve(1);
    if (predecessors) {
      upload(graph_offsets, g.offsets, "the graph's offsets", stream);
      upload(graph_targets, g.targets, "the graph's arcs", stream);
      upload(graph_weights, g.weights, "the graph's weights", stream);
      pred.allocate(std::size_t{g.num_vertices} * 4, "the predecessors");
      host_pred.allocate(std::max<std::size_t>(1, std::size_t{g.num_vertices} * 4));
      pred_flag.allocate(4, "the predecessors' flag");
      host_pred_flag.allocate(4);
      has_zero_weights = std::find(g.weights.begin(), g.weights.end(), 0u) != g.weights.end();
    }
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    upload_ms = ms_since(start);
    fixed_bytes = h.down_offsets.size() * 8 + h.down_tails.size() * 4 + h.down_weights.size() * 8 +
                  h.level_offsets.size() * 4 + h.order.size() * 4 + std::uint64_t{g.num_vertices} * (4 + 2 * 4 + 2 * 8) +
                  (shared_sweep ? 0 : std::uint64_t{h.num_vertices} * 8);
    if (predecessors) fixed_bytes += (std::uint64_t{g.num_vertices} + 1) * 8 + g.num_arcs() * 8 + g.num_vertices * 4 + 4;
    if (shared_sweep)
      SSSP_CUDA_CHECK(cudaFuncSetAttribute(phast_sweep, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(kSharedMaxVertices * 8 + kSharedLevelOffsets * 4)));
  }
  ~Impl() {
    if (stream) cudaStreamDestroy(stream);
  }

  // Device bytes per source of a launch: its core distances, every
  // vertex's distance, its seeds at most.
  std::uint64_t bytes_per_source() const {
    const std::uint64_t n = h.num_vertices;
    return n * (8 + 4 + 8) + 4 + std::uint64_t{g.num_vertices} * 8;
  }
  std::uint64_t device_bytes() const { return fixed_bytes + bytes_per_source() * capacity + piece_capacity * 16; }

  void reserve_pieces(std::uint64_t entries) {
    if (entries <= piece_capacity) return;
    entries = std::max<std::uint64_t>(entries, 2 * piece_capacity);
    for (detail::DeviceMemory* m : {&piece_index, &piece_dist}) m->release();
    for (detail::PinnedMemory* m : {&host_piece_index, &host_piece_dist}) m->release();
    piece_capacity = 0;
    piece_index.allocate(entries * 8, "the sources' pieces");
    piece_dist.allocate(entries * 8, "the sources' piece distances");
    host_piece_index.allocate(entries * 8);
    host_piece_dist.allocate(entries * 8);
    piece_capacity = entries;
  }

  // Buffers for launches of up to k sources.
  void reserve(std::uint32_t k) {
    if (k <= capacity) return;
    const std::size_t n = h.num_vertices, nv = g.num_vertices;
    for (detail::DeviceMemory* m : {&seed_pos, &seed_dist, &core_dist, &dist}) m->release();
    for (detail::PinnedMemory* m : {&host_seed_pos, &host_seed_dist, &host_dist}) m->release();
    capacity = 0;
    core_dist.allocate(k * n * 8, "the core's distances");
    dist.allocate(k * nv * 8, "the distances");
    seed_pos.allocate((k + 1 + k * n) * 4, "the upward searches' positions");
    seed_dist.allocate(k * n * 8, "the upward searches' distances");
    host_seed_pos.allocate((k + 1 + k * n) * 4);
    host_seed_dist.allocate(std::max<std::size_t>(1, k * n * 8));
    host_dist.allocate(std::max<std::size_t>(1, k * nv * 8));
    capacity = k;
  }

  // The piece search and the upward search for `source`, with `q`.
  HostStart host_start(graph::ContractionQuery& q, graph::vertex_id source) const {
    HostStart out;
    const auto t0 = Clock::now();
    q.start(source);
    if (!q.fits()) {
      out.fell_back = true;
      out.piece_ms = ms_since(t0);
      return out;
    }
    const graph::Seeds seeds = graph::core_seeds(c, q);
    out.local_relaxations = q.local_relaxations();
    for (const graph::vertex_id v : q.piece_vertices()) out.piece.push_back({v, q.piece_distance(v)});
    const auto t1 = Clock::now();
    out.piece_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    out.up = graph::upward_search(h, seeds);
    out.upward_ms = ms_since(t1);
    return out;
  }

  // Sweeps and reads off starts[0 .. count) (none fell back) in one launch
  // each, into dist (count x n, in order), on the stream; does not wait.
  void launch(const HostStart* const* starts, std::uint32_t count) {
    const std::uint32_t n = h.num_vertices;
    auto* offsets = host_seed_pos.as<std::uint32_t>();
    auto* positions = offsets + count + 1;
    auto* distances = host_seed_dist.as<std::uint64_t>();
    std::uint32_t total = 0;
    for (std::uint32_t b = 0; b < count; ++b) {
      offsets[b] = total;
      for (const auto& [p, d] : starts[b]->up) {
        positions[total] = p;
        distances[total++] = d;
      }
    }
    offsets[count] = total;
    SSSP_CUDA_CHECK(cudaMemcpyAsync(seed_pos.as<void>(), offsets, (std::size_t{count} + 1 + total) * 4,
                                    cudaMemcpyHostToDevice, stream));
    if (total > 0)
      SSSP_CUDA_CHECK(cudaMemcpyAsync(seed_dist.as<void>(), distances, std::size_t{total} * 8, cudaMemcpyHostToDevice,
                                      stream));
    if (shared_sweep) {
      const std::size_t level_bytes = h.levels() + 1 <= kSharedLevelOffsets ? (h.levels() + 1) * 4 : 0;
      phast_sweep<<<count, kSweepThreads, std::size_t{n} * 8 + level_bytes, stream>>>(
          down_offsets.as<std::uint64_t>(), down_tails.as<std::uint32_t>(), down_weights.as<std::uint64_t>(),
          level_offsets.as<std::uint32_t>(), h.levels(), order.as<std::uint32_t>(), n, seed_pos.as<std::uint32_t>(),
          seed_pos.as<std::uint32_t>() + count + 1, seed_dist.as<std::uint64_t>(), core_dist.as<std::uint64_t>());
      SSSP_CHECK_LAUNCH("phast_sweep");
    } else {
      for (std::uint32_t b = 0; b < count; ++b) grid_sweep(b, count);
    }
    const auto blocks = static_cast<int>(
        std::min<std::uint64_t>(static_cast<std::uint64_t>(read_off_blocks) * count, (std::uint64_t{g.num_vertices} * count + 255) / 256));
    read_off_anchors<<<std::max(1, blocks), 256, 0, stream>>>(
        g.num_vertices, count, read_off_arrays.core_of.as<std::uint32_t>(),
        read_off_arrays.anchor_core.as<std::uint32_t>(), read_off_arrays.anchor_offset.as<std::uint64_t>(),
        CoreDistanceArray{core_dist.as<std::uint64_t>(), n},
        dist.as<std::uint64_t>());
    SSSP_CHECK_LAUNCH("read_off_anchors");
    std::uint64_t pieces = 0;
    for (std::uint32_t b = 0; b < count; ++b) pieces += starts[b]->piece.size();
    if (pieces == 0) return;
    reserve_pieces(pieces);
    auto* index = host_piece_index.as<std::uint64_t>();
    auto* piece_d = host_piece_dist.as<std::uint64_t>();
    std::uint64_t i = 0;
    for (std::uint32_t b = 0; b < count; ++b)
      for (const auto& [v, d] : starts[b]->piece) {
        index[i] = std::uint64_t{b} * g.num_vertices + v;
        piece_d[i++] = d;
      }
    SSSP_CUDA_CHECK(cudaMemcpyAsync(piece_index.as<void>(), index, pieces * 8, cudaMemcpyHostToDevice, stream));
    SSSP_CUDA_CHECK(cudaMemcpyAsync(piece_dist.as<void>(), piece_d, pieces * 8, cudaMemcpyHostToDevice, stream));
    const auto piece_blocks = static_cast<int>(std::min<std::uint64_t>(read_off_blocks, (pieces + 255) / 256));
    lower_pieces<<<piece_blocks, 256, 0, stream>>>(static_cast<std::uint32_t>(pieces), piece_index.as<std::uint64_t>(),
                                                   piece_dist.as<std::uint64_t>(), dist.as<std::uint64_t>());
    SSSP_CHECK_LAUNCH("lower_pieces");
  }

  // The grid sweep of source b of a launch of `count`: one cooperative
  // launch, or without cooperative launch one per phase and level.
  void grid_sweep(std::uint32_t b, std::uint32_t count) {
    const std::uint32_t* offsets = seed_pos.as<std::uint32_t>();
    const auto run = [&](unsigned phases, std::uint32_t first_level, std::uint32_t end_level) {
      if (grid_sweep_cooperative) {
        detail::launch_cooperative(phast_sweep_grid, grid_sweep_blocks, kGridSweepThreads, stream,
                                   down_offsets.as<const std::uint64_t>(), down_tails.as<const std::uint32_t>(),
                                   down_weights.as<const std::uint64_t>(), level_offsets.as<const std::uint32_t>(),
                                   level_group.as<const std::uint8_t>(), first_level, end_level,
                                   order.as<const std::uint32_t>(), h.num_vertices, b, offsets,
                                   offsets + count + 1, seed_dist.as<const std::uint64_t>(), scratch.as<std::uint64_t>(),
                                   core_dist.as<std::uint64_t>(), phases);
      } else {
        phast_sweep_grid<<<grid_sweep_blocks, kGridSweepThreads, 0, stream>>>(
            down_offsets.as<std::uint64_t>(), down_tails.as<std::uint32_t>(), down_weights.as<std::uint64_t>(),
            level_offsets.as<std::uint32_t>(), level_group.as<std::uint8_t>(), first_level, end_level,
            order.as<std::uint32_t>(), h.num_vertices, b,
            offsets, offsets + count + 1, seed_dist.as<std::uint64_t>(), scratch.as<std::uint64_t>(),
            core_dist.as<std::uint64_t>(), phases);
      }
      SSSP_CHECK_LAUNCH("phast_sweep_grid");
    };
    if (grid_sweep_cooperative) {
      run(kSweepInit | kSweepSeed | kSweepLevels | kSweepCopyOut | kCooperative, 0, h.levels());
      return;
    }
    run(kSweepInit, 0, 0);
    run(kSweepSeed, 0, 0);
    for (std::uint32_t level = 0; level < h.levels(); ++level) run(kSweepLevels, level, level + 1);
    run(kSweepCopyOut, 0, 0);
  }

  // After a launch of one source (its piece applied): the tree from the
  // finished distances, on the device (the stream is synchronised between
  // zero-weight passes).
  void derive_tree(graph::vertex_id source) {
    detail::GraphView<std::uint32_t> view;
    view.offsets = graph_offsets.as<std::uint64_t>();
    view.targets = graph_targets.as<std::uint32_t>();
    view.weights = graph_weights.as<std::uint32_t>();
    view.num_vertices = g.num_vertices;
    SSSP_CUDA_CHECK(cudaMemsetAsync(pred.as<void>(), 0xFF, std::size_t{g.num_vertices} * 4, stream));
    detail::derive_predecessors(view, reinterpret_cast<const detail::label_t*>(dist.as<std::uint64_t>()),
                                pred.as<std::uint32_t>(), source, has_zero_weights, pred_flag.as<std::uint32_t>(),
                                host_pred_flag.as<std::uint32_t>(), read_off_blocks, stream);
  }

  // dist for source b of the last launch, once copied back.
  void take_distances(std::uint32_t b, std::vector<std::uint64_t>& out) const {
    const std::uint64_t* d = host_dist.as<std::uint64_t>() + std::uint64_t{b} * g.num_vertices;
    out.assign(d, d + g.num_vertices);
  }

  void check_source(graph::vertex_id source) const {
    if (source >= g.num_vertices)
      throw std::out_of_range("sssp: source vertex " + std::to_string(source) + " is out of range (the graph has " +
                              std::to_string(g.num_vertices) + " vertices, numbered from 0 here)");
  }

  SolveResult<std::uint32_t> solve(graph::vertex_id source, HierarchySolveTimes* times) {
    check_source(source);
    SSSP_CUDA_CHECK(cudaSetDevice(device));
    HierarchySolveTimes t;
    SolveResult<std::uint32_t> out;
    const auto t0 = Clock::now();
    const HostStart start = host_start(query, source);
    t.piece_ms = start.piece_ms;
    t.upward_ms = start.upward_ms;
    if (start.fell_back) {
      out.distances = graph::dijkstra(g, source, predecessors ? &out.predecessors : nullptr);
      t.piece_ms = ms_since(t0);
      t.fell_back = true;
      out.solve_ms = t.piece_ms;
      if (times) *times = t;
      return out;
    }
    const auto t2 = Clock::now();
    const HostStart* one = &start;
    launch(&one, 1);
    if (predecessors) derive_tree(source);
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    const auto t3 = Clock::now();
    t.sweep_ms = std::chrono::duration<double, std::milli>(t3 - t2).count();
    // As every GPU solve's time, this one leaves out the copy-back.
    SSSP_CUDA_CHECK(cudaMemcpyAsync(host_dist.as<void>(), dist.as<void>(), std::size_t{g.num_vertices} * 8,
                                    cudaMemcpyDeviceToHost, stream));
    if (predecessors)
      SSSP_CUDA_CHECK(cudaMemcpyAsync(host_pred.as<void>(), pred.as<void>(), std::size_t{g.num_vertices} * 4,
                                      cudaMemcpyDeviceToHost, stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    take_distances(0, out.distances);
    if (predecessors)
      out.predecessors.assign(host_pred.as<std::uint32_t>(), host_pred.as<std::uint32_t>() + g.num_vertices);
    out.solve_ms = std::chrono::duration<double, std::milli>(t3 - t0).count();
    out.relaxations = start.local_relaxations + h.down_tails.size();
    out.iterations = h.levels();
    if (times) *times = t;
    return out;
  }

  BatchSolveResult<std::uint32_t> solve_batch(const std::vector<graph::vertex_id>& sources) {
    if (predecessors) throw std::logic_error("sssp: HierarchyGpuSolver::solve_batch computes no predecessors");
    for (const graph::vertex_id s : sources) check_source(s);
    SSSP_CUDA_CHECK(cudaSetDevice(device));
    BatchSolveResult<std::uint32_t> out;
    out.per_source.resize(sources.size());
    if (sources.empty()) return out;
    // As many sources per launch as half the free memory holds.
    std::size_t free_bytes = 0, total_bytes = 0;
    SSSP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::uint64_t fits = (free_bytes / 2 + std::uint64_t{capacity} * bytes_per_source()) / bytes_per_source();
    const auto per_launch = static_cast<std::uint32_t>(
        std::max<std::uint64_t>(1, std::min<std::uint64_t>({fits, sources.size(), kMaxBatchLaunch})));
    reserve(per_launch);
    out.sources_per_launch = per_launch;
    if (thread_queries.empty())
      for (int i = 0; i < omp_get_max_threads(); ++i)
        thread_queries.push_back(std::make_unique<graph::ContractionQuery>(c, g));
    // The batch's time: host searches on every thread and the launches,
    // without the copy-backs and their unpacking into one vector per
    // source (as in every GPU solve).
    const auto t0 = Clock::now();
    double copy_ms = 0;
    std::vector<HostStart> starts(sources.size());
    const auto k = static_cast<std::int64_t>(sources.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(static_cast<int>(thread_queries.size()))
    for (std::int64_t i = 0; i < k; ++i) {
      const auto b = static_cast<std::size_t>(i);
      starts[b] = host_start(*thread_queries[static_cast<std::size_t>(omp_get_thread_num())], sources[b]);
      if (starts[b].fell_back) out.per_source[b].distances = graph::dijkstra(g, sources[b]);
    }
    std::vector<std::size_t> on_gpu;
    for (std::size_t b = 0; b < sources.size(); ++b)
      if (!starts[b].fell_back) on_gpu.push_back(b);
    std::vector<const HostStart*> call;
    for (std::size_t first = 0; first < on_gpu.size(); first += per_launch) {
      const auto count = static_cast<std::uint32_t>(std::min<std::size_t>(per_launch, on_gpu.size() - first));
      call.clear();
      for (std::uint32_t j = 0; j < count; ++j) call.push_back(&starts[on_gpu[first + j]]);
      launch(call.data(), count);
      SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
      const auto c0 = Clock::now();
      SSSP_CUDA_CHECK(cudaMemcpyAsync(host_dist.as<void>(), dist.as<void>(),
                                      std::size_t{count} * g.num_vertices * 8, cudaMemcpyDeviceToHost, stream));
      SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
      for (std::uint32_t j = 0; j < count; ++j) take_distances(j, out.per_source[on_gpu[first + j]].distances);
      copy_ms += ms_since(c0);
    }
    out.solve_ms = ms_since(t0) - copy_ms;
    for (std::size_t b = 0; b < sources.size(); ++b) {
      out.per_source[b].relaxations = starts[b].local_relaxations + (starts[b].fell_back ? 0 : h.down_tails.size());
      out.per_source[b].iterations = starts[b].fell_back ? 0 : h.levels();
    }
    return out;
  }
};

HierarchyGpuSolver::HierarchyGpuSolver(const graph::IntCsr& g, const graph::ChainContraction& c,
                                       const graph::Hierarchy& h, const HierarchySolverOptions& options)
    : impl_(std::make_unique<Impl>(g, c, h, options)) {}
HierarchyGpuSolver::~HierarchyGpuSolver() = default;
double HierarchyGpuSolver::upload_ms() const { return impl_->upload_ms; }
std::uint64_t HierarchyGpuSolver::device_bytes() const { return impl_->device_bytes(); }
SolveResult<std::uint32_t> HierarchyGpuSolver::solve(graph::vertex_id source, HierarchySolveTimes* times) {
  return impl_->solve(source, times);
}
BatchSolveResult<std::uint32_t> HierarchyGpuSolver::solve_batch(const std::vector<graph::vertex_id>& sources) {
  return impl_->solve_batch(sources);
}

}  // namespace sssp
