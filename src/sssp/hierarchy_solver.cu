#include "sssp/hierarchy_solver.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "graph/reference.hpp"
#include "sssp/cuda_check.cuh"
#include "sssp/device_memory.cuh"
#include "sssp/predecessors.cuh"

namespace sssp {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

constexpr int kSweepThreads = 1024;
constexpr std::uint64_t kInf = std::numeric_limits<std::uint64_t>::max();
// Cores up to this many vertices keep their distances in shared memory
// during the sweep (8 bytes each; the H100 and H200 give a block 227 KB).
constexpr std::uint32_t kSharedMaxVertices = 26 * 1024;

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

// Relaxes position i's downward in-arcs [first, end) into d: loads of four
// arcs at a time first, then their distances, so a vertex with many arcs
// waits for one memory latency per four arcs, not per arc.
__device__ __forceinline__ std::uint64_t relax_arcs(std::uint64_t d, std::uint64_t first, std::uint64_t end,
                                                    const std::uint64_t* dist,
                                                    const std::uint32_t* __restrict__ down_tails,
                                                    const std::uint64_t* __restrict__ down_weights) {
  for (std::uint64_t e = first; e < end; e += 4) {
    std::uint32_t tail[4];
    std::uint64_t weight[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (e + k < end) {
        tail[k] = down_tails[e + k];
        weight[k] = down_weights[e + k];
      }
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (e + k < end) {
        const std::uint64_t du = dist[tail[k]];
        if (du != kInf) d = min(d, du + weight[k]);
      }
  }
  return d;
}

// Level offsets kept in shared memory up to this many levels (every road
// graph measured has fewer than a hundred).
constexpr std::uint32_t kSharedLevelOffsets = 4096;

// One block sweeps the whole core: a level's positions relax their downward
// in-arcs (whose tails sit in earlier levels), then a block barrier. Each
// thread loads its next level's arcs before that barrier, and the level
// bounds come from shared memory, so a level's critical path is its
// distance loads, not the arc loads behind them. With kShared the distances
// live in shared memory; else in `scratch`.
template <bool kShared>
__global__ void __launch_bounds__(kSweepThreads)
    phast_sweep(const std::uint64_t* __restrict__ down_offsets, const std::uint32_t* __restrict__ down_tails,
                const std::uint64_t* __restrict__ down_weights, const std::uint32_t* __restrict__ level_offsets,
                std::uint32_t levels, const std::uint32_t* __restrict__ order, std::uint32_t n,
                const std::uint32_t* __restrict__ seed_positions, const std::uint64_t* __restrict__ seed_distances,
                std::uint32_t seeds, std::uint64_t* scratch, std::uint64_t* __restrict__ core_dist) {
  extern __shared__ std::uint64_t shared_words[];
  std::uint64_t* dist = kShared ? shared_words : scratch;
  auto* shared_levels = reinterpret_cast<std::uint32_t*>(shared_words + (kShared ? n : 0));
  const bool levels_in_shared = levels + 1 <= kSharedLevelOffsets;
  const std::uint32_t* lv = levels_in_shared ? shared_levels : level_offsets;
  if (levels_in_shared)
    for (std::uint32_t l = threadIdx.x; l <= levels; l += blockDim.x) shared_levels[l] = level_offsets[l];
  for (std::uint32_t i = threadIdx.x; i < n; i += blockDim.x) dist[i] = kInf;
  __syncthreads();
  for (std::uint32_t i = threadIdx.x; i < seeds; i += blockDim.x) dist[seed_positions[i]] = seed_distances[i];
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

// Every vertex's distance from the core's (ContractionQuery::expand without
// its last step, which the host does): a junction's own, a piece vertex's
// nearer anchor.
__global__ void read_off(std::uint32_t n, const std::uint32_t* __restrict__ core_of,
                         const std::uint32_t* __restrict__ anchor_core, const std::uint64_t* __restrict__ anchor_offset,
                         const std::uint64_t* __restrict__ core_dist, std::uint64_t* __restrict__ dist) {
  for (std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    const std::uint32_t cv = core_of[v];
    if (cv != graph::kNoVertex) {
      dist[v] = core_dist[cv];
      continue;
    }
    std::uint64_t best = kInf;
#pragma unroll
    for (int side = 0; side < 2; ++side) {
      const std::uint32_t a = anchor_core[2 * std::uint64_t{v} + side];
      if (a == graph::kNoVertex) continue;
      const std::uint64_t d = core_dist[a];
      if (d != kInf) best = min(best, d + anchor_offset[2 * std::uint64_t{v} + side]);
    }
    dist[v] = best;
  }
}

// The source's own piece (ContractionQuery::apply_piece) on the device:
// its paths inside the piece, which the read-off cannot see.
__global__ void lower_piece(std::uint32_t count, const std::uint32_t* __restrict__ vertices,
                            const std::uint64_t* __restrict__ piece_dist, std::uint64_t* __restrict__ dist) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    dist[vertices[i]] = min(dist[vertices[i]], piece_dist[i]);
}

template <class T>
void upload(detail::DeviceMemory& to, const std::vector<T>& from, const char* what, cudaStream_t stream) {
  to.allocate(from.size() * sizeof(T), what);
  if (!from.empty())
    SSSP_CUDA_CHECK(cudaMemcpyAsync(to.as<void>(), from.data(), from.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
}

}  // namespace

struct HierarchyGpuSolver::Impl {
  const graph::IntCsr& g;
  const graph::ChainContraction& c;
  const graph::Hierarchy& h;
  int device;
  bool shared_sweep;  // distances in shared memory during the sweep
  bool predecessors;
  cudaStream_t stream = nullptr;
  detail::DeviceMemory down_offsets, down_tails, down_weights, level_offsets, order, scratch, core_dist, seed_pos,
      seed_dist, core_of, anchor_core, anchor_offset, dist;
  detail::PinnedMemory host_seed_pos, host_seed_dist, host_dist;
  // With predecessors: the input graph, the tree, the piece's distances.
  detail::DeviceMemory graph_offsets, graph_targets, graph_weights, pred, piece_vertices, piece_dist, pred_flag;
  detail::PinnedMemory host_pred, host_piece_vertices, host_piece_dist, host_pred_flag;
  bool has_zero_weights = false;
  int read_off_blocks = 0;
  graph::ContractionQuery query;
  double upload_ms = 0;
  std::uint64_t bytes = 0;

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
    // The read-off's arrays: each vertex's core id and anchors.
    std::vector<std::uint32_t> anchor_cores(c.anchors.size());
    std::vector<std::uint64_t> anchor_offsets(c.anchors.size());
    for (std::size_t i = 0; i < c.anchors.size(); ++i) {
      anchor_cores[i] = c.anchors[i].core;
      anchor_offsets[i] = c.anchors[i].offset;
    }
    upload(core_of, c.core_of, "the contraction's core ids", stream);
    upload(anchor_core, anchor_cores, "the contraction's anchors", stream);
    upload(anchor_offset, anchor_offsets, "the contraction's anchor offsets", stream);
    dist.allocate(std::size_t{g.num_vertices} * 8, "the distances");
    host_dist.allocate(std::max<std::size_t>(1, std::size_t{g.num_vertices} * 8));
    int sms = 0;
    SSSP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    read_off_blocks = std::max(1, std::min(4 * sms, static_cast<int>((g.num_vertices + 255) / 256)));
    const std::size_t n = h.num_vertices;
    // The shared-memory sweep needs no device copy of its distances.
    if (!shared_sweep) scratch.allocate(n * 8, "the sweep's distances");
    core_dist.allocate(n * 8, "the core's distances");
    seed_pos.allocate(n * 4, "the upward search's positions");
    seed_dist.allocate(n * 8, "the upward search's distances");
    host_seed_pos.allocate(std::max<std::size_t>(1, n * 4));
    host_seed_dist.allocate(std::max<std::size_t>(1, n * 8));
    if (predecessors) {
      upload(graph_offsets, g.offsets, "the graph's offsets", stream);
      upload(graph_targets, g.targets, "the graph's arcs", stream);
      upload(graph_weights, g.weights, "the graph's weights", stream);
      pred.allocate(std::size_t{g.num_vertices} * 4, "the predecessors");
      host_pred.allocate(std::max<std::size_t>(1, std::size_t{g.num_vertices} * 4));
      piece_vertices.allocate(std::size_t{g.num_vertices} * 4, "the source's piece");
      piece_dist.allocate(std::size_t{g.num_vertices} * 8, "the source's piece distances");
      host_piece_vertices.allocate(std::max<std::size_t>(1, std::size_t{g.num_vertices} * 4));
      host_piece_dist.allocate(std::max<std::size_t>(1, std::size_t{g.num_vertices} * 8));
      pred_flag.allocate(4, "the predecessors' flag");
      host_pred_flag.allocate(4);
      has_zero_weights = std::find(g.weights.begin(), g.weights.end(), 0u) != g.weights.end();
    }
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    upload_ms = ms_since(start);
    bytes = h.down_offsets.size() * 8 + h.down_tails.size() * 4 + h.down_weights.size() * 8 +
            h.level_offsets.size() * 4 + h.order.size() * 4 + n * ((shared_sweep ? 0 : 8) + 8 + 4 + 8) +
            std::uint64_t{g.num_vertices} * (4 + 2 * 4 + 2 * 8 + 8);
    if (predecessors)
      bytes += (std::uint64_t{g.num_vertices} + 1) * 8 + g.num_arcs() * 8 + std::uint64_t{g.num_vertices} * (4 + 4 + 8) + 4;
    if (shared_sweep)
      SSSP_CUDA_CHECK(cudaFuncSetAttribute(phast_sweep<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(kSharedMaxVertices * 8 + kSharedLevelOffsets * 4)));
  }
  ~Impl() {
    if (stream) cudaStreamDestroy(stream);
  }

  // After the read-off: the source's piece, then the tree from the
  // finished distances, both on the device (the stream is synchronised
  // between zero-weight passes).
  void derive_tree(graph::vertex_id source) {
    const std::vector<graph::vertex_id>& piece = query.piece_vertices();
    auto* pv = host_piece_vertices.as<std::uint32_t>();
    auto* pd = host_piece_dist.as<std::uint64_t>();
    for (std::size_t i = 0; i < piece.size(); ++i) {
      pv[i] = piece[i];
      pd[i] = query.piece_distance(piece[i]);
    }
    if (!piece.empty()) {
      SSSP_CUDA_CHECK(cudaMemcpyAsync(piece_vertices.as<void>(), pv, piece.size() * 4, cudaMemcpyHostToDevice, stream));
      SSSP_CUDA_CHECK(cudaMemcpyAsync(piece_dist.as<void>(), pd, piece.size() * 8, cudaMemcpyHostToDevice, stream));
      const int blocks = static_cast<int>(std::min<std::size_t>(read_off_blocks, (piece.size() + 255) / 256));
      lower_piece<<<blocks, 256, 0, stream>>>(static_cast<std::uint32_t>(piece.size()),
                                               piece_vertices.as<std::uint32_t>(), piece_dist.as<std::uint64_t>(),
                                               dist.as<std::uint64_t>());
      SSSP_CHECK_LAUNCH("lower_piece");
    }
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

  SolveResult<std::uint32_t> solve(graph::vertex_id source, HierarchySolveTimes* times) {
    if (source >= g.num_vertices)
      throw std::out_of_range("sssp: source vertex " + std::to_string(source) + " is out of range (the graph has " +
                              std::to_string(g.num_vertices) + " vertices, numbered from 0 here)");
    SSSP_CUDA_CHECK(cudaSetDevice(device));
    HierarchySolveTimes t;
    SolveResult<std::uint32_t> out;
    const auto t0 = Clock::now();
    query.start(source);
    if (!query.fits()) {
      out.distances = graph::dijkstra(g, source, predecessors ? &out.predecessors : nullptr);
      t.piece_ms = ms_since(t0);
      t.fell_back = true;
      out.solve_ms = t.piece_ms;
      if (times) *times = t;
      return out;
    }
    const graph::Seeds seeds = graph::core_seeds(c, query);
    const auto t1 = Clock::now();
    t.piece_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    const std::vector<std::pair<graph::vertex_id, std::uint64_t>> up = graph::upward_search(h, seeds);
    const auto t2 = Clock::now();
    t.upward_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
    auto* pos = host_seed_pos.as<std::uint32_t>();
    auto* seed_d = host_seed_dist.as<std::uint64_t>();
    for (std::size_t i = 0; i < up.size(); ++i) {
      pos[i] = up[i].first;
      seed_d[i] = up[i].second;
    }
    const std::uint32_t n = h.num_vertices;
    if (!up.empty()) {
      SSSP_CUDA_CHECK(cudaMemcpyAsync(seed_pos.as<void>(), pos, up.size() * 4, cudaMemcpyHostToDevice, stream));
      SSSP_CUDA_CHECK(cudaMemcpyAsync(seed_dist.as<void>(), seed_d, up.size() * 8, cudaMemcpyHostToDevice, stream));
    }
    const auto launch = [&](auto kernel, std::size_t shared) {
      kernel<<<1, kSweepThreads, shared, stream>>>(
          down_offsets.as<std::uint64_t>(), down_tails.as<std::uint32_t>(), down_weights.as<std::uint64_t>(),
          level_offsets.as<std::uint32_t>(), h.levels(), order.as<std::uint32_t>(), n, seed_pos.as<std::uint32_t>(),
          seed_dist.as<std::uint64_t>(), static_cast<std::uint32_t>(up.size()), scratch.as<std::uint64_t>(),
          core_dist.as<std::uint64_t>());
    };
    const std::size_t level_bytes = h.levels() + 1 <= kSharedLevelOffsets ? (h.levels() + 1) * 4 : 0;
    if (shared_sweep) {
      launch(phast_sweep<true>, std::size_t{n} * 8 + level_bytes);
    } else {
      launch(phast_sweep<false>, level_bytes);
    }
    SSSP_CHECK_LAUNCH("phast_sweep");
    read_off<<<read_off_blocks, 256, 0, stream>>>(g.num_vertices, core_of.as<std::uint32_t>(),
                                                   anchor_core.as<std::uint32_t>(), anchor_offset.as<std::uint64_t>(),
                                                   core_dist.as<std::uint64_t>(), this->dist.as<std::uint64_t>());
    SSSP_CHECK_LAUNCH("read_off");
    if (predecessors) derive_tree(source);
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    const auto t3 = Clock::now();
    t.sweep_ms = std::chrono::duration<double, std::milli>(t3 - t2).count();
    // As every GPU solve's time, this one leaves out the copy-back.
    SSSP_CUDA_CHECK(cudaMemcpyAsync(host_dist.as<void>(), this->dist.as<void>(), std::size_t{g.num_vertices} * 8,
                                    cudaMemcpyDeviceToHost, stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    out.distances.assign(host_dist.as<std::uint64_t>(), host_dist.as<std::uint64_t>() + g.num_vertices);
    const auto t4 = Clock::now();
    if (predecessors) {
      SSSP_CUDA_CHECK(cudaMemcpyAsync(host_pred.as<void>(), pred.as<void>(), std::size_t{g.num_vertices} * 4,
                                      cudaMemcpyDeviceToHost, stream));
      SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
      out.predecessors.assign(host_pred.as<std::uint32_t>(), host_pred.as<std::uint32_t>() + g.num_vertices);
    } else {
      query.apply_piece(out.distances.data());  // derive_tree applied it on the device
    }
    t.expand_ms = ms_since(t4);
    out.solve_ms = std::chrono::duration<double, std::milli>(t3 - t0).count() + t.expand_ms;
    out.relaxations = query.local_relaxations() + h.down_tails.size();
    out.iterations = h.levels();
    if (times) *times = t;
    return out;
  }
};

HierarchyGpuSolver::HierarchyGpuSolver(const graph::IntCsr& g, const graph::ChainContraction& c,
                                       const graph::Hierarchy& h, const HierarchySolverOptions& options)
    : impl_(std::make_unique<Impl>(g, c, h, options)) {}
HierarchyGpuSolver::~HierarchyGpuSolver() = default;
double HierarchyGpuSolver::upload_ms() const { return impl_->upload_ms; }
std::uint64_t HierarchyGpuSolver::device_bytes() const { return impl_->bytes; }
SolveResult<std::uint32_t> HierarchyGpuSolver::solve(graph::vertex_id source, HierarchySolveTimes* times) {
  return impl_->solve(source, times);
}

}  // namespace sssp
