// The solver's vertex order (sssp::VertexOrdering; docs/ARCHITECTURE.md,
// "Vertex order"): the graph is uploaded renumbered, and results are mapped
// back to the input's ids on the device before they are read.
//
// The degree order is computed on the device (a stable radix sort of the
// out-degrees, largest first); reverse Cuthill-McKee on the host
// (graph/vertex_order.hpp). Either way the arcs are placed on the device:
// the input's arcs are staged a chunk of vertices at a time (at most
// kStageArcs arcs, or one vertex's), their targets renamed, each vertex's
// arcs sorted by new target (a segmented sort: measured to matter on
// power-law graphs, docs/TUNING.md, "Vertex order"), and copied to where the
// vertex's new id's arcs begin. The device holds two extra chunks, not a
// second graph. The result equals graph::relabel's.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "graph/vertex_order.hpp"
#include "sssp/common/cuda_check.cuh"
#include "sssp/common/device_memory.cuh"
#include "sssp/common/grid.cuh"
#include "sssp/common/labels.cuh"
#include "sssp/solver.hpp"

namespace sssp::detail {

constexpr std::uint64_t kStageArcs = std::uint64_t{1} << 24;  // arcs staged per chunk (at least one vertex's)

// Sort input of the degree order: key = out-degree (saturated), value = id.
template <int kUnused = 0>
__global__ void degree_keys(const std::uint64_t* offsets, std::uint32_t n, std::uint32_t* keys, std::uint32_t* ids) {
  for (std::uint64_t v = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t d = offsets[v + 1] - offsets[v];
    keys[v] = d > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<std::uint32_t>(d);
    ids[v] = static_cast<std::uint32_t>(v);
  }
}

// new_id[old_id[i]] = i.
template <int kUnused = 0>
__global__ void invert_order(const std::uint32_t* old_id, std::uint32_t n, std::uint32_t* new_id) {
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
    new_id[old_id[i]] = static_cast<std::uint32_t>(i);
}

// relative[i] = in_offsets[first + i] - in_offsets[first], i = 0 .. last - first:
// a chunk's vertices' first arcs within the stage.
template <int kUnused = 0>
__global__ void chunk_offsets(const std::uint64_t* in_offsets, std::uint32_t first, std::uint32_t last,
                              std::uint64_t* relative) {
  const std::uint64_t base = in_offsets[first];
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i <= last - first;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
    relative[i] = in_offsets[first + i] - base;
}

// The staged targets renamed in place. A target that is not a vertex is kept
// as it is, so that the graph's inspection still reports it.
template <int kUnused = 0>
__global__ void rename_targets(std::uint32_t* targets, std::uint64_t count, const std::uint32_t* new_id,
                               std::uint32_t n) {
  for (std::uint64_t k = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < count;
       k += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    const std::uint32_t t = targets[k];
    if (t < n) targets[k] = new_id[t];
  }
}

// A chunk's sorted arcs (stage position k) to their places: a thread per
// arc, its vertex found by binary search over the chunk's offsets (no thread
// walks a hub's arcs alone).
template <class Weight>
__global__ void place_arcs(const std::uint64_t* relative, std::uint32_t first, std::uint32_t last,
                           const std::uint64_t* out_offsets, const std::uint32_t* new_id, std::uint64_t count,
                           const std::uint32_t* staged_targets, const Weight* staged_weights, std::uint32_t* targets,
                           Weight* weights) {
  for (std::uint64_t k = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < count;
       k += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    std::uint32_t lo = 0, hi = last - first;  // the vertex i with relative[i] <= k < relative[i + 1]
    while (hi - lo > 1) {
      const std::uint32_t mid = lo + (hi - lo) / 2;
      if (relative[mid] <= k) lo = mid; else hi = mid;
    }
    const std::uint64_t to = out_offsets[new_id[first + lo]] + (k - relative[lo]);
    targets[to] = staged_targets[k];
    weights[to] = staged_weights[k];
  }
}

// out[v] = labels[new_id[v]]: the labels in the input's ids.
template <int kUnused = 0>
__global__ void labels_in_input_order(const label_t* labels, const std::uint32_t* new_id, std::uint32_t n,
                                      label_t* out) {
  for (std::uint64_t v = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
    out[v] = labels[new_id[v]];
}

// out[v] = the input id of pred[new_id[v]] (kNoVertex stays).
template <int kUnused = 0>
__global__ void predecessors_in_input_order(const std::uint32_t* pred, const std::uint32_t* new_id,
                                            const std::uint32_t* old_id, std::uint32_t n, std::uint32_t* out) {
  for (std::uint64_t v = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    const std::uint32_t p = pred[new_id[v]];
    out[v] = p < n ? old_id[p] : p;
  }
}

// What GpuSolver keeps of its order on the host: both directions of the
// permutation, and where each vertex's arcs start on either side (for
// rewrite_arcs, which names arcs by their input position).
struct HostVertexOrder {
  std::vector<std::uint32_t> new_id, old_id;
  std::vector<std::uint64_t> in_offsets, out_offsets;

  bool empty() const { return new_id.empty(); }
  // The input vertex whose arcs hold input arc `arc`.
  std::uint32_t vertex_of_arc(std::uint64_t arc) const {
    const auto it = std::upper_bound(in_offsets.begin(), in_offsets.end(), arc);
    return static_cast<std::uint32_t>(it - in_offsets.begin() - 1);
  }
};

// Times stream work with one pair of events, adding up the intervals.
class StreamTimer {
 public:
  explicit StreamTimer(cudaStream_t stream) : stream_(stream) {
    SSSP_CUDA_CHECK(cudaEventCreate(&a_));
    SSSP_CUDA_CHECK(cudaEventCreate(&b_));
  }
  ~StreamTimer() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
  }
  StreamTimer(const StreamTimer&) = delete;
  StreamTimer& operator=(const StreamTimer&) = delete;
  template <class Work>
  void time(Work work) {
    SSSP_CUDA_CHECK(cudaEventRecord(a_, stream_));
    work();
    SSSP_CUDA_CHECK(cudaEventRecord(b_, stream_));
    SSSP_CUDA_CHECK(cudaEventSynchronize(b_));
    float ms = 0;
    SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, a_, b_));
    total_ms += ms;
  }
  double total_ms = 0;

 private:
  cudaStream_t stream_;
  cudaEvent_t a_ = nullptr, b_ = nullptr;
};

struct OrderedUploadTimes {
  double upload_ms = 0;   // host-to-device transfers
  double reorder_ms = 0;  // the host's order and offsets, and the device's order and placement kernels
};

// The solver's device CSR arrays, written by upload_in_order.
template <class Weight>
struct DeviceCsr {
  std::uint64_t* offsets;
  std::uint32_t* targets;
  Weight* weights;
};

// Uploads g renumbered by `ordering` (Degree or Rcm) into the device CSR
// `out` (the solver's arrays), leaving the permutation
// in new_id / old_id (n entries each, device) and *host. g's offsets must be
// non-decreasing (the caller checks them). stage_arcs: the chunk size (tests
// make it small).
template <class Weight>
OrderedUploadTimes upload_in_order(const graph::Csr<Weight>& g, VertexOrdering ordering, std::uint64_t max_degree,
                                   const DeviceCsr<Weight>& out, std::uint32_t* new_id, std::uint32_t* old_id,
                                   int grid, cudaStream_t stream, HostVertexOrder* host,
                                   std::uint64_t stage_arcs = kStageArcs) {
  const std::uint32_t n = g.num_vertices;
  const std::uint64_t m = g.num_arcs();
  OrderedUploadTimes times;
  StreamTimer transfers(stream), kernels(stream);
  DeviceMemory in_offsets, chunk;
  in_offsets.allocate((static_cast<std::size_t>(n) + 1) * 8, "the input's offsets (vertex order)");
  chunk.allocate((static_cast<std::size_t>(n) + 1) * 8, "a chunk's offsets (vertex order)");
  transfers.time([&] {
    SSSP_CUDA_CHECK(cudaMemcpyAsync(in_offsets.as<void>(), g.offsets.data(), (static_cast<std::size_t>(n) + 1) * 8,
                                    cudaMemcpyHostToDevice, stream));
  });
  host->new_id.resize(n);
  host->old_id.resize(n);
  if (ordering == VertexOrdering::Degree) {
    DeviceMemory keys_in, keys_out, ids_in, sort_temp;
    keys_in.allocate(static_cast<std::size_t>(n) * 4, "degree keys (vertex order)");
    keys_out.allocate(static_cast<std::size_t>(n) * 4, "degree keys (vertex order)");
    ids_in.allocate(static_cast<std::size_t>(n) * 4, "vertex ids (vertex order)");
    std::size_t bytes = 0;
    SSSP_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, keys_in.as<std::uint32_t>(),
                                                              keys_out.as<std::uint32_t>(), ids_in.as<std::uint32_t>(),
                                                              old_id, n, 0, 32, stream));
    sort_temp.allocate(bytes, "sort temporary storage (vertex order)");
    kernels.time([&] {
      degree_keys<><<<grid_for(n, 256, grid), 256, 0, stream>>>(in_offsets.as<std::uint64_t>(), n,
                                                                 keys_in.as<std::uint32_t>(), ids_in.as<std::uint32_t>());
      SSSP_CHECK_LAUNCH("degree_keys");
      // Radix sorts are stable: equal degrees keep increasing ids.
      SSSP_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(sort_temp.as<void>(), bytes, keys_in.as<std::uint32_t>(),
                                                                keys_out.as<std::uint32_t>(),
                                                                ids_in.as<std::uint32_t>(), old_id, n, 0, 32, stream));
      invert_order<><<<grid_for(n, 256, grid), 256, 0, stream>>>(old_id, n, new_id);
      SSSP_CHECK_LAUNCH("invert_order");
    });
    transfers.time([&] {
      SSSP_CUDA_CHECK(cudaMemcpyAsync(host->new_id.data(), new_id, static_cast<std::size_t>(n) * 4,
                                      cudaMemcpyDeviceToHost, stream));
      SSSP_CUDA_CHECK(cudaMemcpyAsync(host->old_id.data(), old_id, static_cast<std::size_t>(n) * 4,
                                      cudaMemcpyDeviceToHost, stream));
    });
  } else {
    // The host's search follows the arcs: they must name vertices (the
    // device's inspection, later, reports the same for the other orders).
    for (const std::uint32_t t : g.targets)
      if (t >= n)
        throw std::invalid_argument("sssp: malformed CSR: an arc's target id is not below the vertex count (" +
                                    std::to_string(n) + ")");
    const auto t0 = std::chrono::steady_clock::now();
    graph::VertexOrder order = graph::reverse_cuthill_mckee(g);
    times.reorder_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    host->new_id = std::move(order.new_id);
    host->old_id = std::move(order.old_id);
    transfers.time([&] {
      SSSP_CUDA_CHECK(cudaMemcpyAsync(new_id, host->new_id.data(), static_cast<std::size_t>(n) * 4,
                                      cudaMemcpyHostToDevice, stream));
      SSSP_CUDA_CHECK(cudaMemcpyAsync(old_id, host->old_id.data(), static_cast<std::size_t>(n) * 4,
                                      cudaMemcpyHostToDevice, stream));
    });
  }
  const auto t1 = std::chrono::steady_clock::now();
  host->in_offsets = g.offsets;
  host->out_offsets.resize(static_cast<std::size_t>(n) + 1);
  host->out_offsets[0] = 0;
  for (std::uint32_t i = 0; i < n; ++i)
    host->out_offsets[i + 1] = host->out_offsets[i] + (g.offsets[host->old_id[i] + 1] - g.offsets[host->old_id[i]]);
  times.reorder_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
  // The new offsets: the host's, which rewrite_arcs keeps anyway.
  transfers.time([&] {
    SSSP_CUDA_CHECK(cudaMemcpyAsync(out.offsets, host->out_offsets.data(), (static_cast<std::size_t>(n) + 1) * 8,
                                    cudaMemcpyHostToDevice, stream));
  });
  // The arcs, a chunk of input vertices at a time: staged, renamed, each
  // vertex's sorted by new target into the second stage, then placed.
  const std::uint64_t stage = std::max<std::uint64_t>(std::min<std::uint64_t>(m, stage_arcs), max_degree);
  DeviceMemory staged_targets, staged_weights, sorted_targets, sorted_weights, sort_temp;
  staged_targets.allocate(stage * 4, "staged targets (vertex order)");
  staged_weights.allocate(stage * sizeof(Weight), "staged weights (vertex order)");
  sorted_targets.allocate(stage * 4, "staged targets (vertex order)");
  sorted_weights.allocate(stage * sizeof(Weight), "staged weights (vertex order)");
  std::uint64_t* relative = chunk.as<std::uint64_t>();
  std::size_t sort_bytes = 0;
  SSSP_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(
      nullptr, sort_bytes, staged_targets.as<std::uint32_t>(), sorted_targets.as<std::uint32_t>(),
      staged_weights.as<Weight>(), sorted_weights.as<Weight>(), static_cast<std::int64_t>(stage),
      static_cast<std::int64_t>(n), relative, relative + 1, stream));
  sort_temp.allocate(sort_bytes, "sort temporary storage (vertex order)");
  for (std::uint32_t first = 0; first < n;) {
    // The most vertices from `first` whose arcs fit the stage (one at least).
    const auto end = std::upper_bound(g.offsets.begin() + first + 1, g.offsets.end(), g.offsets[first] + stage);
    const auto last = std::max<std::uint32_t>(first + 1, static_cast<std::uint32_t>(end - g.offsets.begin() - 1));
    const std::uint64_t arcs = g.offsets[last] - g.offsets[first];
    if (arcs > 0) {
      transfers.time([&] {
        SSSP_CUDA_CHECK(cudaMemcpyAsync(staged_targets.as<void>(), g.targets.data() + g.offsets[first], arcs * 4,
                                        cudaMemcpyHostToDevice, stream));
        SSSP_CUDA_CHECK(cudaMemcpyAsync(staged_weights.as<void>(), g.weights.data() + g.offsets[first],
                                        arcs * sizeof(Weight), cudaMemcpyHostToDevice, stream));
      });
      kernels.time([&] {
        chunk_offsets<><<<grid_for(last - first + 1, 256, grid), 256, 0, stream>>>(in_offsets.as<std::uint64_t>(),
                                                                                    first, last, relative);
        SSSP_CHECK_LAUNCH("chunk_offsets");
        rename_targets<><<<grid_for(arcs, 256, grid), 256, 0, stream>>>(staged_targets.as<std::uint32_t>(), arcs,
                                                                         new_id, n);
        SSSP_CHECK_LAUNCH("rename_targets");
        SSSP_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(
            sort_temp.as<void>(), sort_bytes, staged_targets.as<std::uint32_t>(), sorted_targets.as<std::uint32_t>(),
            staged_weights.as<Weight>(), sorted_weights.as<Weight>(), static_cast<std::int64_t>(arcs),
            static_cast<std::int64_t>(last - first), relative, relative + 1, stream));
        place_arcs<Weight><<<grid_for(arcs, 256, grid), 256, 0, stream>>>(
            relative, first, last, out.offsets, new_id, arcs, sorted_targets.as<std::uint32_t>(),
            sorted_weights.as<Weight>(), out.targets, out.weights);
        SSSP_CHECK_LAUNCH("place_arcs");
      });
    }
    first = last;
  }
  times.upload_ms = transfers.total_ms;
  times.reorder_ms += kernels.total_ms;
  return times;
}

}  // namespace sssp::detail
