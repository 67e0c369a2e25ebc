// GpuSolver<Weight>::Impl: device memory (estimated before anything is
// allocated), graph upload, and the one solve() every strategy goes through
// (label initialisation, timing, predecessors, read-back). Included by one
// .cu file per weight type.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sssp/auto_strategy.hpp"
#include "sssp/balance.cuh"
#include "sssp/bellman_ford.cuh"
#include "sssp/bucketing.cuh"
#include "sssp/engine.cuh"
#include "sssp/cuda_check.cuh"
#include "sssp/device_memory.cuh"
#include "sssp/labels.cuh"
#include "sssp/near_far.cuh"
#include "sssp/plan.hpp"
#include "sssp/predecessors.cuh"
#include "sssp/read_off.cuh"
#include "sssp/relax.cuh"
#include "sssp/resident_block.cuh"
#include "sssp/solver.hpp"
#include "sssp/vertex_order.cuh"
#include "sssp/workspace.cuh"

namespace sssp::detail {

// A solve's round counts, as the engine counted them (rounds_wide: what
// neither the block nor the cluster ran).
template <class Weight>
void copy_round_counts(const StrategyStats& stats, SolveResult<Weight>& r) {
  r.iterations = stats.iterations;
  r.rounds_narrow = stats.rounds_narrow;
  r.rounds_cluster = stats.rounds_cluster;
  r.rounds_wide = stats.iterations - stats.rounds_narrow - stats.rounds_cluster;
  r.cluster_local_steps = stats.cluster_steps;
}

template <class Codec>
__global__ void init_labels(label_t* labels, std::uint32_t n, std::uint32_t source) {
  for (std::uint64_t v = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
    labels[v] = v == source ? Codec::source_label() : Codec::initial_label();
}

// Labels of `count` sources' arrays, `stride` apart: source sources[b]'s
// array starts at labels + b * stride.
template <class Codec>
__global__ void init_labels_batch(label_t* labels, std::uint32_t n, std::uint64_t stride, const std::uint32_t* sources,
                                  std::uint32_t count) {
  const std::uint64_t total = stride * count;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t b = i / stride, v = i % stride;
    if (v < n) labels[i] = v == sources[b] ? Codec::source_label() : Codec::initial_label();
  }
}

// Each source alone in its first queue (queues `stride` entries apart).
template <int kUnused = 0>
__global__ void seed_batch_queues(std::uint32_t* queues, std::uint64_t stride, const std::uint32_t* sources,
                                  std::uint32_t count) {
  for (std::uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b < count; b += gridDim.x * blockDim.x)
    queues[stride * b] = sources[b];
}

// `copies` disjoint copies of a CSR (n vertices, m arcs) side by side: copy
// c's vertex v is c * n + v, its arcs those of v shifted by c * m (a batch's
// sources solved together, each in its copy).
template <class Weight>
__global__ void replicate_graph(const std::uint64_t* offsets, const std::uint32_t* targets, const Weight* weights,
                                std::uint32_t n, std::uint64_t m, std::uint32_t copies, std::uint64_t* out_offsets,
                                std::uint32_t* out_targets, Weight* out_weights) {
  const std::uint64_t first = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t e = first; e < m; e += stride) {
    const std::uint32_t t = targets[e];
    const Weight w = weights[e];
    for (std::uint32_t c = 0; c < copies; ++c) {
      out_targets[c * m + e] = t + c * n;
      out_weights[c * m + e] = w;
    }
  }
  for (std::uint64_t v = first; v < n; v += stride) {
    const std::uint64_t o = offsets[v];
    for (std::uint32_t c = 0; c < copies; ++c) out_offsets[std::uint64_t{c} * n + v] = o + c * m;
  }
  if (first == 0) out_offsets[std::uint64_t{copies} * n] = copies * m;
}

// fn(i) for i in [0, count) on up to one thread per core, rows of a batch's
// read-back: filling fresh rows costs mostly their pages' first touch, which
// threads take in parallel. fn must not throw.
template <class Fn>
void for_each_in_parallel(std::uint64_t count, Fn fn) {
  const std::uint64_t threads = std::min<std::uint64_t>(count, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> helpers;
  for (std::uint64_t t = 1; t < threads; ++t)
    helpers.emplace_back([&fn, t, threads, count] {
      for (std::uint64_t i = t; i < count; i += threads) fn(i);
    });
  for (std::uint64_t i = 0; i < count; i += std::max<std::uint64_t>(threads, 1)) fn(i);
  for (std::thread& h : helpers) h.join();
}

struct WeightSummary {
  unsigned max_bits;  // largest weight (integer) or its bit pattern (float, non-negative)
  unsigned flags;     // bit 0: some weight is zero; bit 1: some weight is negative, NaN or infinite;
                      // bit 2: some target id >= n; bit 3: offsets decrease somewhere
};

// Finds the largest weight and zero weights; float weights: also rejects
// negative/NaN/infinite values and turns -0.0 into +0.0 (the packed label
// compares bit patterns, and -0.0's pattern is huge). Also checks the CSR's
// structure, which a library caller may have built by hand: a target id past
// the last vertex or decreasing offsets would make the relax kernels read and
// write out of bounds, so they are refused here, before any solve, for the
// price of one more pass over the arcs at upload time.
template <class Weight>
__global__ void inspect_graph(Weight* weights, const std::uint32_t* targets, const std::uint64_t* offsets,
                              std::uint32_t n, std::uint64_t m, WeightSummary* out) {
  unsigned max_bits = 0, flags = 0;
  const std::uint64_t first = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t v = first; v < n; v += stride)
    if (offsets[v] > offsets[v + 1]) flags |= 8u;
  for (std::uint64_t e = first; e < m; e += stride) {
    if (targets[e] >= n) flags |= 4u;
    Weight w = weights[e];
    unsigned bits;
    if constexpr (std::is_same_v<Weight, float>) {
      if (!(w >= 0.0f) || isinf(w)) flags |= 2u;
      if (w == 0.0f) {
        weights[e] = 0.0f;
        w = 0.0f;
      }
      bits = __float_as_uint(w);
    } else {
      bits = w;
    }
    if (bits == 0) flags |= 1u;
    max_bits = bits > max_bits ? bits : max_bits;
  }
  for (int off = 16; off > 0; off >>= 1) {
    max_bits = max(max_bits, __shfl_down_sync(0xFFFFFFFFu, max_bits, off));
    flags |= __shfl_down_sync(0xFFFFFFFFu, flags, off);
  }
  if ((threadIdx.x & 31u) == 0) {
    if (max_bits) atomicMax(&out->max_bits, max_bits);
    if (flags) atomicOr(&out->flags, flags);
  }
}

// summarize_device_csr's totals, accumulated by every warp's lane 0.
struct DeviceCsrTotals {
  unsigned long long max_degree, heavy_arcs, isolated;
  double degree_squares, weight_sum;
  unsigned min_positive_bits;  // smallest positive weight (integer) or its bit pattern (float, non-negative)
  unsigned flags;              // bit 0: offsets decrease or pass num_arcs; bit 1: a target id >= n;
                               // bit 2: a negative, NaN or infinite weight
};

// One pass over a device CSR's vertices and arcs: the checks inspect_graph
// makes (which runs again on the solver's own copy) and the statistics the
// host path reads off its CSR. Degrees of a CSR whose offsets are flagged
// are meaningless; the caller throws before using them.
template <class Weight>
__global__ void summarize_csr(const std::uint64_t* offsets, const std::uint32_t* targets, const Weight* weights,
                              std::uint32_t n, std::uint64_t m, DeviceCsrTotals* out) {
  unsigned long long max_degree = 0, heavy = 0, isolated = 0;
  double squares = 0, weight_sum = 0;
  unsigned min_bits = 0xFFFFFFFFu, flags = 0;
  const std::uint64_t first = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t v = first; v < n; v += stride) {
    const std::uint64_t a = offsets[v], b = offsets[v + 1];
    if (a > b || b > m) {
      flags |= 1u;
      continue;
    }
    const std::uint64_t d = b - a;
    max_degree = d > max_degree ? d : max_degree;
    if (d >= kWarpDegree) heavy += d;
    isolated += d == 0;
    squares += static_cast<double>(d) * static_cast<double>(d);
  }
  for (std::uint64_t e = first; e < m; e += stride) {
    if (targets[e] >= n) flags |= 2u;
    const Weight w = weights[e];
    unsigned bits;
    if constexpr (std::is_same_v<Weight, float>) {
      if (!(w >= 0.0f) || isinf(w)) {
        flags |= 4u;
        continue;
      }
      bits = w == 0.0f ? 0u : __float_as_uint(w);
    } else {
      bits = w;
    }
    weight_sum += static_cast<double>(w);
    if (bits != 0 && bits < min_bits) min_bits = bits;
  }
  for (int off = 16; off > 0; off >>= 1) {
    max_degree = max(max_degree, __shfl_down_sync(0xFFFFFFFFu, max_degree, off));
    heavy += __shfl_down_sync(0xFFFFFFFFu, heavy, off);
    isolated += __shfl_down_sync(0xFFFFFFFFu, isolated, off);
    squares += __shfl_down_sync(0xFFFFFFFFu, squares, off);
    weight_sum += __shfl_down_sync(0xFFFFFFFFu, weight_sum, off);
    min_bits = min(min_bits, __shfl_down_sync(0xFFFFFFFFu, min_bits, off));
    flags |= __shfl_down_sync(0xFFFFFFFFu, flags, off);
  }
  if ((threadIdx.x & 31u) == 0) {
    if (max_degree) atomicMax(&out->max_degree, max_degree);
    if (heavy) atomicAdd(&out->heavy_arcs, heavy);
    if (isolated) atomicAdd(&out->isolated, isolated);
    if (squares != 0) atomicAdd(&out->degree_squares, squares);
    if (weight_sum != 0) atomicAdd(&out->weight_sum, weight_sum);
    if (min_bits != 0xFFFFFFFFu) atomicMin(&out->min_positive_bits, min_bits);
    if (flags) atomicOr(&out->flags, flags);
  }
}

// A pointer the device can read as `what`: device (or managed) memory on `device`.
inline void require_device_pointer(const void* p, int device, const char* what) {
  cudaPointerAttributes attr{};
  const cudaError_t err = cudaPointerGetAttributes(&attr, p);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    throw std::invalid_argument(std::string("sssp: the ") + what + " are not in device memory (" +
                                cudaGetErrorString(err) + ")");
  }
  if ((attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged) || attr.device != device)
    throw std::invalid_argument(std::string("sssp: the ") + what + " are not in the memory of CUDA device " +
                                std::to_string(device));
}


inline std::string format_bytes(std::uint64_t bytes) {
  std::ostringstream s;
  s << bytes << " bytes (" << std::fixed;
  s.precision(2);
  s << static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0) << " GiB)";
  return s.str();
}

template <class Weight>
struct SolverImpl {
  SolverOptions options;
  std::uint32_t n = 0;
  std::uint64_t m = 0;
  bool packed = true;          // integer weights: distances fit the packed label
  bool has_zero_weights = false;
  // The device, and what runs on it for this graph (make_plan, plan.hpp):
  // every "which path" choice the solver follows is read from `plan`.
  DeviceFacts device_facts;
  ExecutionPlan plan;
  unsigned max_weight_bits = 0;  // the largest weight at construction (its bits, for float)
  double upload_ms = 0;
  // The order the device copy of the graph is in (Auto resolved), what it
  // cost (vertex_order.cuh), and the permutation on both sides (empty for
  // Input).
  VertexOrdering ordering = VertexOrdering::Input;
  double reorder_ms = 0;
  HostVertexOrder host_order;
  std::uint64_t device_bytes = 0, graph_device_bytes = 0;
  std::uint32_t sm_count = 0;
  std::uint64_t heavy_arc_count = 0;  // arcs leaving vertices of out-degree >= kWarpDegree

  DeviceMemory offsets, targets, weights, labels, stamps_a, stamps_b, pred, big0, big1, small0, small1, far0, far1, keys0,
      keys1, temp, state, bucket_offsets, pause_scratch, scratch, hub_vertex, hub_first, bin_counters, slot_first, chunk_slot,
      new_id, old_id;
  DeviceMemory batch;                // solve_batch's per-source arrays, kept between calls
  std::uint64_t batch_bytes = 0;
  PinnedMemory batch_labels;         // solve_batch's read-back of a launch's labels, kept between calls
  std::uint64_t batch_labels_bytes = 0;
  // solve_batch's sources that outgrow their block are solved together on
  // this many copies of the graph (kept between calls; empty until needed).
  std::unique_ptr<SolverImpl> together;
  std::uint32_t together_copies = 0;
  PinnedMemory host_state;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  Workspace<Weight> ws;

  SolverImpl(const graph::Csr<Weight>& g, const SolverOptions& opts) : options(opts) {
    open_device();
    n = g.num_vertices;
    m = g.num_arcs();
    if (g.offsets.size() != static_cast<std::size_t>(n) + 1 || g.offsets.front() != 0 || g.offsets.back() != m ||
        g.weights.size() != m)
      throw std::invalid_argument("sssp: malformed CSR (offsets/targets/weights sizes disagree)");
    if (n >= (1u << 30))
      throw std::invalid_argument("sssp: the GPU solver handles graphs below 2^30 vertices; this one has " +
                                  std::to_string(n));

    // Degrees: the load balancing's statistic, the small-frontier test's
    // bound and the vertex order's rule.
    std::uint64_t heavy_arcs = 0, max_degree = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
      if (g.offsets[v + 1] < g.offsets[v])
        throw std::invalid_argument("sssp: malformed CSR: the offsets decrease somewhere");
      const std::uint64_t d = g.offsets[v + 1] - g.offsets[v];
      if (d >= kWarpDegree) heavy_arcs += d;
      max_degree = std::max(max_degree, d);
    }
    device_facts = query_device_facts(options.device);
    GraphFacts facts;
    facts.vertices = n;
    facts.arcs = m;
    facts.max_degree = max_degree;
    facts.heavy_arcs = heavy_arcs;
    // What only the resident rule reads, measured only where it reads it
    // (the shape's BFS is bounded, but not free).
    if (resident_reads_graph(facts, device_facts, options)) {
      facts.labels_pack = host_labels_pack(g);
      if (*facts.labels_pack && !options.resident_any_shape && m > 0) {
        std::uint32_t first = 0;
        while (first < n && g.offsets[first + 1] == g.offsets[first]) ++first;
        facts.shape = measure_shape(g, first);
      }
    }
    plan = make_plan(facts, device_facts, options);
    ordering = plan.vertex_ordering;
    allocate(heavy_arcs, max_degree);
    if (ordering != VertexOrdering::Input) {
      try {
        const OrderedUploadTimes t = upload_in_order(
            g, ordering, max_degree,
            DeviceCsr<Weight>{offsets.as<std::uint64_t>(), targets.as<std::uint32_t>(), weights.as<Weight>()},
            new_id.as<std::uint32_t>(), old_id.as<std::uint32_t>(), ws.stream_grid, stream, &host_order);
        upload_ms = t.upload_ms;
        reorder_ms = t.reorder_ms;
      } catch (const DeviceAllocationError&) {
        // The order's staging memory (beyond the estimate's table: released
        // once the graph is placed) did not fit: auto takes the input order
        // instead; an order asked for by name reports the failure.
        if (options.vertex_ordering != VertexOrdering::Auto) throw;
        plan.notes.push_back(std::string("vertex order auto: the ") + to_string(ordering) +
                             " order's staging memory did not fit; the input order is kept");
        ordering = VertexOrdering::Input;
        plan.vertex_ordering = ordering;
        host_order = HostVertexOrder{};
      }
    }
    if (ordering == VertexOrdering::Input) {
      // ---- Upload (timed: host-to-device transfer only).
      SSSP_CUDA_CHECK(cudaEventRecord(start, stream));
      SSSP_CUDA_CHECK(cudaMemcpyAsync(offsets.as<void>(), g.offsets.data(), (static_cast<std::size_t>(n) + 1) * 8,
                                      cudaMemcpyHostToDevice, stream));
      if (m > 0) {
        SSSP_CUDA_CHECK(cudaMemcpyAsync(targets.as<void>(), g.targets.data(), m * 4, cudaMemcpyHostToDevice, stream));
        SSSP_CUDA_CHECK(
            cudaMemcpyAsync(weights.as<void>(), g.weights.data(), m * sizeof(Weight), cudaMemcpyHostToDevice, stream));
      }
      SSSP_CUDA_CHECK(cudaEventRecord(stop, stream));
      SSSP_CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      upload_ms = ms;
    }

    inspect_uploaded();
    // The plan read the packing off the host's arcs, the same largest weight.
    if (plan.resident && !packed) throw std::logic_error("sssp: the plan's label packing disagrees with the device's");
    if (plan.resident) allow_resident_shared();
  }

  // From a CSR in device memory (GpuSolver's second constructor): the same
  // checks and statistics on the device, then a device-to-device copy. With
  // no host copy there is no shape to measure nor vertex order to build: the
  // input order, and never the resident block.
  SolverImpl(const DeviceCsrView<Weight>& g, const SolverOptions& opts) : options(opts) {
    open_device();
    if (options.vertex_ordering == VertexOrdering::Degree || options.vertex_ordering == VertexOrdering::Rcm)
      throw std::invalid_argument(std::string("sssp: vertex order ") + sssp::to_string(options.vertex_ordering) +
                                  " is built from a host copy of the graph; a device graph keeps its input order");
    n = g.num_vertices;
    m = g.num_arcs;
    if (n >= (1u << 30))
      throw std::invalid_argument("sssp: the GPU solver handles graphs below 2^30 vertices; this one has " +
                                  std::to_string(n));
    const DeviceCsrSummary summary = summarize_device_csr(g, options.device);
    options.vertex_ordering = VertexOrdering::Input;
    options.resident_block = false;
    device_facts = query_device_facts(options.device);
    GraphFacts facts;
    facts.vertices = n;
    facts.arcs = m;
    facts.max_degree = summary.max_degree;
    facts.heavy_arcs = summary.heavy_arcs;
    plan = make_plan(facts, device_facts, options);
    ordering = plan.vertex_ordering;
    allocate(summary.heavy_arcs, summary.max_degree);
    SSSP_CUDA_CHECK(cudaEventRecord(start, stream));
    SSSP_CUDA_CHECK(cudaMemcpyAsync(offsets.as<void>(), g.offsets, (static_cast<std::size_t>(n) + 1) * 8,
                                    cudaMemcpyDeviceToDevice, stream));
    if (m > 0) {
      SSSP_CUDA_CHECK(cudaMemcpyAsync(targets.as<void>(), g.targets, m * 4, cudaMemcpyDeviceToDevice, stream));
      SSSP_CUDA_CHECK(
          cudaMemcpyAsync(weights.as<void>(), g.weights, m * sizeof(Weight), cudaMemcpyDeviceToDevice, stream));
    }
    SSSP_CUDA_CHECK(cudaEventRecord(stop, stream));
    SSSP_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    upload_ms = ms;
    inspect_uploaded();
  }

  // The uploaded graph's weights (range, zeros, validity) and structure,
  // checked on the device.
  void inspect_uploaded() {
    auto* summary = scratch.as<WeightSummary>();
    SSSP_CUDA_CHECK(cudaMemsetAsync(summary, 0, sizeof(WeightSummary), stream));
    if (m > 0 || n > 0) {
      inspect_graph<Weight><<<grid_for(std::max<std::uint64_t>(m, n), 256, static_cast<int>(sm_count) * 8), 256, 0,
                              stream>>>(weights.as<Weight>(), targets.as<std::uint32_t>(),
                                        offsets.as<std::uint64_t>(), n, m, summary);
      SSSP_CHECK_LAUNCH("inspect_graph");
    }
    WeightSummary h{};
    SSSP_CUDA_CHECK(cudaMemcpyAsync(host_state.as<void>(), summary, sizeof h, cudaMemcpyDeviceToHost, stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    h = *host_state.as<WeightSummary>();
    if (h.flags & 2u) throw std::invalid_argument("sssp: the graph has a negative, NaN or infinite weight");
    if (h.flags & 4u)
      throw std::invalid_argument("sssp: malformed CSR: an arc's target id is not below the vertex count (" +
                                  std::to_string(n) + ")");
    if (h.flags & 8u) throw std::invalid_argument("sssp: malformed CSR: the offsets decrease somewhere");
    has_zero_weights = (h.flags & 1u) != 0;
    max_weight_bits = h.max_bits;
    if constexpr (std::is_same_v<Weight, float>) {
      packed = true;
    } else {
      // Every label is a simple-path length <= (n - 1) * max weight (labels.cuh).
      const std::uint64_t bound = static_cast<std::uint64_t>(n > 0 ? n - 1 : 0) * h.max_bits;
      packed = bound < 0xFFFFFFFFull;
    }
  }

  // The device's facts the plan reads.
  static DeviceFacts query_device_facts(int device) {
    cudaDeviceProp prop{};
    SSSP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    DeviceFacts d;
    d.cc_major = prop.major;
    d.cc_minor = prop.minor;
    d.multiprocessors = static_cast<std::uint32_t>(prop.multiProcessorCount);
    d.shared_optin_bytes = prop.sharedMemPerBlockOptin;
    return d;
  }

  // GraphFacts::labels_pack from the host's arcs: the largest weight that
  // the device's inspection (inspect_graph) finds later. The arcs are
  // checked here as it checks them, with its messages and in its order,
  // since the shape's BFS follows them before the device sees them.
  bool host_labels_pack(const graph::Csr<Weight>& g) const {
    unsigned max_bits = 0, flags = 0;
    for (std::uint64_t e = 0; e < m; ++e) {
      if (g.targets[e] >= n) flags |= 4u;
      if constexpr (std::is_same_v<Weight, float>) {
        if (!(g.weights[e] >= 0.0f) || std::isinf(g.weights[e])) flags |= 2u;
      } else {
        max_bits = std::max<unsigned>(max_bits, g.weights[e]);
      }
    }
    if (flags & 2u) throw std::invalid_argument("sssp: the graph has a negative, NaN or infinite weight");
    if (flags & 4u)
      throw std::invalid_argument("sssp: malformed CSR: an arc's target id is not below the vertex count (" +
                                  std::to_string(n) + ")");
    if constexpr (std::is_same_v<Weight, float>) {
      return true;
    } else {
      // Every label is a simple-path length <= (n - 1) * max weight (labels.cuh).
      const std::uint64_t bound = static_cast<std::uint64_t>(n > 0 ? n - 1 : 0) * max_bits;
      return bound < 0xFFFFFFFFull;
    }
  }

  // The resident kernels' shared-memory limit, raised here, once, not in
  // every solve's timed launch, where the plan runs the resident block.
  void allow_resident_shared() {
    // The limit belongs to the kernel, not to this solver: every solver
    // raises it to the device's largest, so that one made for a smaller
    // graph never lowers it under another's launch.
    for (const auto kernel : {resident_near_far<PackedCodec<Weight>, ResidentLayout::Distances>,
                              resident_near_far<PackedCodec<Weight>, ResidentLayout::Offsets>,
                              resident_near_far<PackedCodec<Weight>, ResidentLayout::Arcs>}) {
      cudaFuncAttributes attr{};
      SSSP_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
      SSSP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(device_facts.shared_optin_bytes - attr.sharedSizeBytes)));
    }
  }

  // A solver for `copies` disjoint copies of base's graph, built on the
  // device from base's arrays: copy c's vertex v is vertex c * base.n + v.
  // A batch's sources solved together are one multi-source solve on it,
  // each source in its own copy (the rows of its labels are the sources'
  // distances). The caller checks that it fits (about copies times base's
  // memory) and that copies * base.n is below the 2^30 vertex limit.
  SolverImpl(const SolverImpl& base, std::uint32_t copies) : options(base.options) {
    options.memory_limit_bytes = 0;
    options.load_balance = base.plan.load_balance;
    n = base.n * copies;
    m = base.m * copies;
    if (options.load_balance == LoadBalance::MergePath && merge_path_arc_bits(n, m) == 0)
      options.load_balance = LoadBalance::Auto;  // the copies' ids no longer fit merge-path's word
    // The copies keep the input order and never run the resident block
    // (their solver runs only run_strategy).
    options.vertex_ordering = VertexOrdering::Input;
    options.resident_block = false;
    open_device();
    device_facts = base.device_facts;
    GraphFacts facts;
    facts.vertices = n;
    facts.arcs = m;
    facts.max_degree = base.ws.graph.max_degree;
    facts.heavy_arcs = base.heavy_arc_count * copies;
    plan = make_plan(facts, device_facts, options);
    ordering = plan.vertex_ordering;
    allocate(base.heavy_arc_count * copies, base.ws.graph.max_degree);
    replicate_graph<Weight><<<grid_for(std::max<std::uint64_t>(base.m, base.n), 256, ws.stream_grid), 256, 0,
                              stream>>>(base.offsets.as<std::uint64_t>(), base.targets.as<std::uint32_t>(),
                                        base.weights.as<Weight>(), base.n, base.m, copies,
                                        offsets.as<std::uint64_t>(), targets.as<std::uint32_t>(), weights.as<Weight>());
    SSSP_CHECK_LAUNCH("replicate_graph");
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    packed = base.packed;  // a copy's paths are the base graph's: the same label bound holds
    has_zero_weights = base.has_zero_weights;
  }

  // A source in the device's numbering.
  std::uint32_t device_vertex(std::uint32_t v) const { return host_order.empty() ? v : host_order.new_id[v]; }

  void open_device() {
    std::string why;
    if (!gpu_available(&why)) throw std::runtime_error("sssp: no usable GPU: " + why);
    int devices = 0;
    SSSP_CUDA_CHECK(cudaGetDeviceCount(&devices));
    if (options.device < 0 || options.device >= devices)
      throw std::invalid_argument("sssp: CUDA device " + std::to_string(options.device) + " does not exist (" +
                                  std::to_string(devices) + " found)");
    SSSP_CUDA_CHECK(cudaSetDevice(options.device));
  }

  // Every device allocation (estimated and checked against free memory
  // first), the stream and events, and the workspace over them, for the n
  // and m already set.
  void allocate(std::uint64_t heavy_arcs, std::uint64_t max_degree) {
    // ---- Memory estimate, before any allocation.
    const std::uint64_t nn = std::max<std::uint64_t>(n, 1);
    const std::uint64_t big_cap = 2 * nn + 1, small_cap = nn + 1;
    std::size_t temp_bytes = 0;
    for (bool ms : {false, true}) {
      if constexpr (std::is_same_v<Weight, float>) {
        temp_bytes = std::max(temp_bytes, bucketing_temp_bytes<PackedCodec<float>>(big_cap, options.buckets, ms));
      } else {
        temp_bytes = std::max(temp_bytes, bucketing_temp_bytes<PackedCodec<std::uint32_t>>(big_cap, options.buckets, ms));
        temp_bytes = std::max(temp_bytes, bucketing_temp_bytes<WideCodec>(big_cap, options.buckets, ms));
      }
    }
    // Hub bin of the binned relax: at most one slot per vertex of degree >= kHubDegree.
    const std::uint64_t hub_cap = std::min<std::uint64_t>(nn + 1, m / kHubDegree + 1);
    heavy_arc_count = heavy_arcs;
    const LoadBalance lb = plan.load_balance;  // make_plan checked that it holds the graph's sizes
    const int merge_arc_bits = plan.merge_path_arc_bits;
    // Merge-path plan (merge_path_relax.cuh): a slot per frontier vertex, an
    // entry per chunk of the round's arcs.
    const bool merge_path = lb == LoadBalance::MergePath;
    const std::uint64_t slot_cap = merge_path ? nn + 1 : 0;
    const std::uint64_t chunk_cap = merge_path ? m / kMergePathChunk + 2 : 0;
    // Per-block counts of a full split in a cooperative grid (one block per SM).
    int sms = 0;
    SSSP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, options.device));
    // Every device allocation, from one table: the estimate checked below is
    // its sum, and the allocations are made from it.
    struct Allocation {
      DeviceMemory* memory;
      std::uint64_t bytes;
      const char* what;
      bool graph;  // part of the CSR (graph_device_bytes)
    };
    const std::vector<Allocation> allocations = {
        {&offsets, (static_cast<std::uint64_t>(n) + 1) * 8, "CSR offsets", true},
        {&targets, m * 4, "CSR targets", true},
        {&weights, m * sizeof(Weight), "CSR weights", true},
        {&labels, nn * 8, "labels", false},
        {&stamps_a, nn * 4, "stamps", false},
        {&stamps_b, nn * 4, "stamps", false},
        {&pred, std::is_same_v<Weight, float> ? 0 : nn * 4, "predecessors", false},  // wide labels only
        {&big0, big_cap * 4, "queues", false},
        {&big1, big_cap * 4, "queues", false},
        {&small0, small_cap * 4, "queues", false},
        {&small1, small_cap * 4, "queues", false},
        {&far0, small_cap * 4, "queues", false},
        {&far1, small_cap * 4, "queues", false},
        {&keys0, big_cap * 4, "sort keys", false},
        {&keys1, big_cap * 4, "sort keys", false},
        {&temp, temp_bytes, "sort temporary storage", false},
        {&state, kStateBytes, "strategy state", false},
        {&bucket_offsets, (kMaxBuckets + 2) * 4, "bucket offsets", false},
        {&pause_scratch, static_cast<std::uint64_t>(sms) * kPauseGridScratch * 4, "full-split block counts", false},
        {&scratch, 256, "scratch", false},
        {&hub_vertex, hub_cap * 4, "degree bins", false},
        {&hub_first, hub_cap * 8, "degree bins", false},
        {&bin_counters, sizeof(BinCounters), "degree bins", false},
        {&slot_first, slot_cap * 8, "merge-path plan", false},  // 0 unless merge-path
        {&chunk_slot, chunk_cap * 4, "merge-path plan", false},
        {&new_id, ordering != VertexOrdering::Input ? nn * 4 : 0, "vertex order", false},
        {&old_id, ordering != VertexOrdering::Input ? nn * 4 : 0, "vertex order", false},
    };
    std::uint64_t graph_bytes = 0, work_bytes = 0;
    for (const Allocation& a : allocations) (a.graph ? graph_bytes : work_bytes) += a.bytes;
    const std::uint64_t needed = graph_bytes + work_bytes;
    std::size_t free_bytes = 0, total_bytes = 0;
    SSSP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    std::uint64_t available = free_bytes;
    if (options.memory_limit_bytes != 0) available = std::min<std::uint64_t>(available, options.memory_limit_bytes);
    if (needed > available) {
      std::ostringstream msg;
      msg << "sssp: the graph (" << n << " vertices, " << m << " arcs) needs " << format_bytes(needed)
          << " on GPU " << options.device << " (graph " << format_bytes(graph_bytes) << ", work arrays "
          << format_bytes(work_bytes) << "), but only " << format_bytes(available)
          << (options.memory_limit_bytes != 0 && options.memory_limit_bytes < free_bytes ? " are allowed (memory limit)"
                                                                                         : " are free");
      throw std::runtime_error(msg.str());
    }

    device_bytes = needed;
    graph_device_bytes = graph_bytes;

    SSSP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    SSSP_CUDA_CHECK(cudaEventCreate(&start));
    SSSP_CUDA_CHECK(cudaEventCreate(&stop));

    for (const Allocation& a : allocations)
      if (a.bytes > 0) a.memory->allocate(a.bytes, a.what);
    host_state.allocate(kStateBytes);

    sm_count = device_facts.multiprocessors;

    ws.graph = GraphView<Weight>{offsets.as<std::uint64_t>(), targets.as<std::uint32_t>(), weights.as<Weight>(), n,
                                 max_degree};
    ws.labels = labels.as<label_t>();
    ws.num_vertices = n;
    ws.stamps_a = stamps_a.as<std::uint32_t>();
    ws.stamps_b = stamps_b.as<std::uint32_t>();
    ws.big[0] = big0.as<std::uint32_t>();
    ws.big[1] = big1.as<std::uint32_t>();
    ws.small[0] = small0.as<std::uint32_t>();
    ws.small[1] = small1.as<std::uint32_t>();
    ws.far[0] = far0.as<std::uint32_t>();
    ws.far[1] = far1.as<std::uint32_t>();
    ws.keys[0] = keys0.as<std::uint32_t>();
    ws.keys[1] = keys1.as<std::uint32_t>();
    ws.big_capacity = big_cap;
    ws.small_capacity = small_cap;
    ws.temp = temp.as<void>();
    ws.temp_bytes = temp_bytes;
    ws.state = state.as<void>();
    ws.state_bytes = kStateBytes;
    ws.host_state = host_state.as<void>();
    ws.bucket_offsets = bucket_offsets.as<std::uint32_t>();
    ws.stream = stream;
    ws.device = options.device;
    ws.cooperative = plan.persistent_grid;
    int per_sm = 0;
    SSSP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm,
        engine_round<NearFarPolicy<std::conditional_t<std::is_same_v<Weight, float>, PackedCodec<float>, WideCodec>>,
                     ThreeStageBalance>,
        kRelaxBlock, 0));
    ws.relax_grid = static_cast<int>(sm_count) * std::max(per_sm, 1);
    ws.stream_grid = static_cast<int>(sm_count) * 8;

    if (merge_path) {
      // Slot vertices share keys[1] with nothing else during rounds (full
      // splits use the keys only between rounds); bin items use keys[0].
      ws.balance.merge.slot_vertex = keys1.as<std::uint32_t>();
      ws.balance.merge.slot_first = slot_first.as<std::uint64_t>();
      ws.balance.merge.slot_capacity = slot_cap;
      ws.balance.merge.chunk_slot = chunk_slot.as<std::uint32_t>();
      ws.balance.merge.chunk_capacity = chunk_cap;
      ws.balance.merge.reserved = &bin_counters.as<BinCounters>()->merge_path;
      ws.balance.merge.arc_bits = merge_arc_bits;
    }
    ws.balance.bins.items = keys0.as<std::uint32_t>();  // free during rounds: only full splits use the keys
    ws.balance.bins.capacity = static_cast<std::uint32_t>(big_cap);
    ws.balance.bins.hub_vertex = hub_vertex.as<std::uint32_t>();
    ws.balance.bins.hub_first = hub_first.as<std::uint64_t>();
    ws.balance.bins.hub_capacity = static_cast<std::uint32_t>(hub_cap);
    ws.balance.bins.counters = bin_counters.as<BinCounters>();
    ws.single_block_loop = plan.single_block_loop;
    ws.cluster_loop = plan.cluster_loop;
    ws.cluster_local_steps = plan.cluster_local_steps;
    ws.block_split = options.block_split;
    ws.grid_split = options.grid_split;
    ws.block_split_max_items = options.block_split_max_items;  // make_plan checked its range
    ws.pause_scratch = pause_scratch.as<std::uint32_t>();
    ws.pause_scratch_blocks = sms;
    ws.narrow_max_arcs = plan.narrow_max_arcs;
    ws.wide_blocks_per_sm = options.wide_blocks_per_sm;  // make_plan checked its range
    ws.medium_grid = plan.medium_grid;
  }

  ~SolverImpl() {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
  }

  std::uint64_t together_bytes() const { return together ? together->device_bytes : 0; }

  // How many sources that outgrew their block to solve together, as copies
  // of the graph: all `outgrown` of them if they fit free memory (a copy
  // needs about this solver's memory) and the vertex ids (below 2^30);
  // 0 when fewer than 2 fit (they finish one at a time).
  std::uint32_t copies_together(std::size_t outgrown) {
    if (outgrown < 2) return 0;
    const std::uint64_t id_fit = ((1ull << 30) - 1) / std::max<std::uint64_t>(n, 1);
    std::uint64_t copies = std::min<std::uint64_t>(outgrown, id_fit);
    if (together && together_copies >= copies) return static_cast<std::uint32_t>(copies);
    std::size_t free_bytes = 0, total_bytes = 0;
    SSSP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    std::uint64_t available = free_bytes + together_bytes();  // a smaller set of copies is replaced
    if (options.memory_limit_bytes != 0) {
      const std::uint64_t held = device_bytes + batch_bytes;
      available = std::min<std::uint64_t>(available, options.memory_limit_bytes > held
                                                         ? options.memory_limit_bytes - held
                                                         : 0);
    }
    const std::uint64_t headroom = 64ull << 20;
    copies = std::min<std::uint64_t>(copies, available > headroom ? (available - headroom) / device_bytes : 0);
    return copies >= 2 ? static_cast<std::uint32_t>(copies) : 0;
  }

  // The copies of the graph for `copies` sources (at least that many; made
  // or replaced when there are fewer).
  SolverImpl& together_solver(std::uint32_t copies) {
    if (!together || together_copies < copies) {
      together.reset();
      together_copies = 0;
      together = std::make_unique<SolverImpl>(*this, copies);
      together_copies = copies;
    }
    return *together;
  }

  BatchSolveResult<Weight> solve_batch(const std::vector<graph::vertex_id>& sources, Strategy strategy, double delta,
                                       const BatchReadOff* read_off = nullptr) {
    for (const graph::vertex_id s : sources)
      if (s >= n)
        throw std::out_of_range("sssp: source vertex " + std::to_string(s) + " is out of range (the graph has " +
                                std::to_string(n) + " vertices, numbered from 0 here)");
    if (!(delta > 0) || !std::isfinite(delta))
      throw std::invalid_argument("sssp: delta must be a positive number, got " + std::to_string(delta));
    if (strategy != Strategy::NearFar && strategy != Strategy::BellmanFord)
      throw std::invalid_argument(std::string("sssp: batched solves run near-far or bellman-ford, not ") +
                                  to_string(strategy));
    if (options.predecessors) throw std::invalid_argument("sssp: batched solves do not compute predecessors");
    SSSP_CUDA_CHECK(cudaSetDevice(options.device));
    std::vector<graph::vertex_id> ids(sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i) ids[i] = device_vertex(sources[i]);
    if constexpr (std::is_same_v<Weight, float>) {
      if (read_off) throw std::invalid_argument("sssp: a batch's read-off on the device needs integer weights");
      return run_batch<PackedCodec<float>>(ids, strategy, delta, nullptr);
    } else {
      return packed ? run_batch<PackedCodec<std::uint32_t>>(ids, strategy, delta, read_off)
                    : run_batch<WideCodec>(ids, strategy, delta, read_off);
    }
  }

  // A batch's per-source device bytes: labels, two stamp arrays, two
  // frontier and two far queues, a state slot, and the source id.
  std::uint64_t batch_bytes_per_source() const {
    const std::uint64_t nn = std::max<std::uint64_t>(n, 1), qcap = nn + 1;
    return nn * 8 + 2 * nn * 4 + 4 * qcap * 4 + kStateBytes + 4;
  }

  // How many of `count` sources one batched launch takes: what free memory
  // holds beyond this solver's own (and its limit), at most 8 blocks per
  // SM's worth (more wait in line anyway). Throws when not one fits.
  std::uint64_t batch_chunk(std::uint64_t count) {
    const std::uint64_t per_source = batch_bytes_per_source();
    std::size_t free_bytes = 0, total_bytes = 0;
    SSSP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // What this solver holds for batches can be reused.
    std::uint64_t available = free_bytes + batch_bytes + together_bytes();
    if (options.memory_limit_bytes != 0)
      available = std::min<std::uint64_t>(available, options.memory_limit_bytes > device_bytes
                                                         ? options.memory_limit_bytes - device_bytes
                                                         : 0);
    const std::uint64_t headroom = 64ull << 20;  // for the driver and the single-source loop's launches
    const std::uint64_t fit = available > headroom ? (available - headroom) / per_source : 0;
    if (fit == 0)
      throw std::runtime_error("sssp: a batched source needs " + format_bytes(per_source) + " on GPU " +
                               std::to_string(options.device) + ", but only " + format_bytes(available) +
                               " are free beyond the solver's own");
    return std::min<std::uint64_t>({fit, count, std::uint64_t{8} * sm_count});
  }

  // Per-source arrays of a batch, one allocation (sources in the device's
  // numbering; the distances come back in the input's): labels, two stamp arrays,
  // two frontier and two far queues, a state slot, and the source id.
  // With read_off, every source fits one launch (the caller checked
  // batch_capacity), and the rows stay on the device for the read-off.
  template <class Codec>
  BatchSolveResult<Weight> run_batch(const std::vector<graph::vertex_id>& sources, Strategy strategy,
                                     double requested_delta, const BatchReadOff* read_off) {
    BatchSolveResult<Weight> out;
    out.per_source.resize(sources.size());
    if (sources.empty() && !read_off) return out;
    const auto delta = codec_delta<Codec>(requested_delta);
    ws.track_pred = false;
    const std::uint64_t nn = std::max<std::uint64_t>(n, 1), qcap = nn + 1;
    const std::uint64_t per_source = batch_bytes_per_source();
    const std::uint64_t chunk = batch_chunk(std::max<std::uint64_t>(sources.size(), 1));
    if (read_off && sources.size() > chunk)
      throw std::invalid_argument("sssp: a batch read off on the device takes at most " + std::to_string(chunk) +
                                  " rows now, got " + std::to_string(sources.size()));
    if (chunk * per_source > batch_bytes) {
      together.reset();
      together_copies = 0;
      batch.release();
      batch_bytes = 0;
      batch.allocate(chunk * per_source, "batched sources");
      batch_bytes = chunk * per_source;
    }
    out.sources_per_launch = static_cast<std::uint32_t>(chunk);
    unsigned char* base = batch.as<unsigned char>();
    auto* labels_all = reinterpret_cast<label_t*>(base);
    auto* stamps_a_all = reinterpret_cast<std::uint32_t*>(base + chunk * nn * 8);
    auto* stamps_b_all = stamps_a_all + chunk * nn;
    auto* queues_all = stamps_b_all + chunk * nn;  // small0, small1, far0, far1: chunk * qcap entries each
    auto* states_all = reinterpret_cast<unsigned char*>(queues_all + 4 * chunk * qcap);
    auto* ids = reinterpret_cast<std::uint32_t*>(states_all + chunk * kStateBytes);
    // Source b's workspace: the solver's, with b's arrays.
    const auto workspace_of = [&](std::uint64_t b) {
      Workspace<Weight> w = ws;
      w.labels = labels_all + b * nn;
      w.stamps_a = stamps_a_all + b * nn;
      w.stamps_b = stamps_b_all + b * nn;
      w.small[0] = queues_all + (0 * chunk + b) * qcap;
      w.small[1] = queues_all + (1 * chunk + b) * qcap;
      w.far[0] = queues_all + (2 * chunk + b) * qcap;
      w.far[1] = queues_all + (3 * chunk + b) * qcap;
      w.small_capacity = qcap;
      w.state = states_all + b * kStateBytes;
      return w;
    };
    std::vector<unsigned char> host_states(chunk * kStateBytes);
    // The labels come back through a pinned buffer kept between calls (a
    // pageable vector of K x n labels cost more than the batch's solve:
    // allocation, zero fill, staged copy), up to 256 MiB of it at a time.
    const std::uint64_t sources_per_copy = std::max<std::uint64_t>(1, std::min<std::uint64_t>(chunk, (256ull << 20) / (nn * 8)));
    if (sources_per_copy * nn * 8 > batch_labels_bytes) {
      batch_labels.release();
      batch_labels_bytes = 0;
      batch_labels.allocate(sources_per_copy * nn * 8);
      batch_labels_bytes = sources_per_copy * nn * 8;
    }
    const label_t* host_labels = batch_labels.as<label_t>();
    // Each source's block keeps the full arc limit (a source leaving its
    // block is finished on copies of the graph, which costs more than its
    // block's rounds; the single-source loop's lower default does not apply).
    const std::uint32_t batch_max_arcs = plan.batch_narrow_max_arcs;
    const EngineContext<Weight> ctx{ws.graph, labels_all, stamps_a_all, stamps_b_all, false, batch_max_arcs};
    const auto finish_alone = [&](const Workspace<Weight>& w, auto policy) -> StrategyStats {
      using Policy = decltype(policy);
      return with_balance(plan.load_balance, [&](auto balance) {
        return continue_engine<Policy, decltype(balance)>(w, [](const typename Policy::State&) {
          throw std::logic_error("sssp: a batched source asked for a full split");
        });
      });
    };
    const auto record = [&](std::size_t index, const StrategyStats& stats, std::uint64_t relaxations) {
      SolveResult<Weight>& r = out.per_source[index];
      r.relaxations = relaxations;
      copy_round_counts(stats, r);
      r.buckets_processed = strategy == Strategy::BellmanFord ? 0 : stats.buckets_processed;
      r.delta = static_cast<double>(delta);
    };
    // Sources of the chunk (indexes b) whose frontier outgrew their block,
    // solved together as copies of the graph, `copies` at a time; their
    // label rows are copied back into the chunk's.
    const auto solve_together = [&](std::size_t first, const std::vector<std::uint64_t>& outgrown,
                                    std::uint32_t copies) {
      for (std::size_t g0 = 0; g0 < outgrown.size(); g0 += copies) {
        const auto group = static_cast<std::uint32_t>(std::min<std::size_t>(copies, outgrown.size() - g0));
        SolverImpl& t = together_solver(copies);
        std::vector<std::uint32_t> group_sources(group), seeds(group);
        for (std::uint32_t c = 0; c < group; ++c) {
          group_sources[c] = sources[first + outgrown[g0 + c]];
          seeds[c] = c * n + group_sources[c];  // copy c's vertex
        }
        // The chunk's ids are free once its launch has ended.
        SSSP_CUDA_CHECK(cudaMemcpy(ids, group_sources.data(), std::size_t{group} * 4, cudaMemcpyHostToDevice));
        SSSP_CUDA_CHECK(cudaEventRecord(t.start, t.stream));
        init_labels_batch<Codec><<<grid_for(group * nn, 256, t.ws.stream_grid), 256, 0, t.stream>>>(t.ws.labels, n,
                                                                                                 nn, ids, group);
        SSSP_CHECK_LAUNCH("init_labels_batch");
        // Only the group's copies are read: the others are not reachable from its sources.
        SSSP_CUDA_CHECK(cudaMemsetAsync(t.ws.stamps_a, 0, group * nn * 4, t.stream));
        SSSP_CUDA_CHECK(cudaMemsetAsync(t.ws.stamps_b, 0, group * nn * 4, t.stream));
        SSSP_CUDA_CHECK(cudaMemsetAsync(t.ws.balance.bins.counters, 0, sizeof(BinCounters), t.stream));
        t.ws.track_pred = false;
        const StrategyStats stats = t.template run_strategy<Codec>(strategy, FirstFrontier(seeds), delta);
        for (std::uint32_t c = 0; c < group; ++c)
          SSSP_CUDA_CHECK(cudaMemcpyAsync(labels_all + outgrown[g0 + c] * nn, t.ws.labels + c * nn, nn * 8,
                                          cudaMemcpyDeviceToDevice, t.stream));
        SSSP_CUDA_CHECK(cudaEventRecord(t.stop, t.stream));
        SSSP_CUDA_CHECK(cudaEventSynchronize(t.stop));
        float ms = 0;
        SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, t.start, t.stop));
        out.solve_ms += ms;
        // The engine counts the solve's relaxations, not each copy's: each
        // source of the group is charged an equal share.
        for (std::uint32_t c = 0; c < group; ++c)
          record(first + outgrown[g0 + c], stats, stats.relaxations / group + (c < stats.relaxations % group ? 1 : 0));
        out.solved_together += group;
      }
    };
    const auto run_chunk = [&](auto policy, std::size_t first, std::uint64_t count) {
      using Policy = decltype(policy);
      using State = typename Policy::State;
      static_assert(sizeof(State) <= kStateBytes);
      for (std::uint64_t b = 0; b < count; ++b) {
        const Workspace<Weight> w = workspace_of(b);
        State init{};
        if constexpr (std::is_same_v<Policy, NearFarPolicy<Codec>>) {
          init = Policy::initial_state(w, delta);
        } else {
          init.loop = initial_loop(w);
        }
        std::memcpy(host_states.data() + b * kStateBytes, &init, sizeof init);
      }
      SSSP_CUDA_CHECK(cudaMemcpy(ids, sources.data() + first, count * 4, cudaMemcpyHostToDevice));
      SSSP_CUDA_CHECK(cudaMemcpy(states_all, host_states.data(), count * kStateBytes, cudaMemcpyHostToDevice));
      SSSP_CUDA_CHECK(cudaEventRecord(start, stream));
      init_labels_batch<Codec><<<grid_for(count * nn, 256, ws.stream_grid), 256, 0, stream>>>(labels_all, n, nn, ids,
                                                                                              static_cast<std::uint32_t>(count));
      SSSP_CHECK_LAUNCH("init_labels_batch");
      SSSP_CUDA_CHECK(cudaMemsetAsync(stamps_a_all, 0, 2 * count * nn * 4, stream));
      seed_batch_queues<><<<grid_for(count, 256, ws.stream_grid), 256, 0, stream>>>(queues_all, qcap, ids,
                                                                                    static_cast<std::uint32_t>(count));
      SSSP_CHECK_LAUNCH("seed_batch_queues");
      allow_narrow_shared<Codec>(engine_narrow_batch<Policy>);
      engine_narrow_batch<Policy><<<static_cast<unsigned>(count), kSmallBlock, sizeof(NarrowShared<Codec>), stream>>>(
          ctx, nn, states_all, kStateBytes);
      SSSP_CHECK_LAUNCH("engine_narrow_batch");
      SSSP_CUDA_CHECK(cudaMemcpyAsync(host_states.data(), states_all, count * kStateBytes, cudaMemcpyDeviceToHost,
                                      stream));
      SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
      std::vector<std::uint64_t> outgrown;
      for (std::uint64_t b = 0; b < count; ++b) {
        State st;
        std::memcpy(&st, host_states.data() + b * kStateBytes, sizeof st);
        throw_loop_error(st.loop);
        if (st.loop.done) {
          const StrategyStats stats = loop_stats<Policy>(st);
          record(first + b, stats, stats.relaxations);
        } else {
          outgrown.push_back(b);
        }
      }
      const std::uint32_t copies = copies_together(outgrown.size());
      if (copies < 2) {
        for (const std::uint64_t b : outgrown) {
          Workspace<Weight> w = workspace_of(b);
          w.host_state = host_state.as<void>();
          const StrategyStats stats = finish_alone(w, policy);
          record(first + b, stats, stats.relaxations);
          ++out.finished_alone;
        }
      }
      SSSP_CUDA_CHECK(cudaEventRecord(stop, stream));
      SSSP_CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      out.solve_ms += ms;
      if (copies >= 2) solve_together(first, outgrown, copies);
    };
    // A chunk's near-far solves in the resident block where the solver's
    // single solves run there: one block per source, each with the whole
    // solve in its SM's shared memory, none outgrowing it.
    const auto run_resident_chunk = [&](std::size_t first, std::uint64_t count) {
      static_assert(sizeof(ResidentStats) <= kStateBytes, "a source's counts fit its state slot");
      auto* stats_all = reinterpret_cast<ResidentStats*>(states_all);
      SSSP_CUDA_CHECK(cudaMemcpy(ids, sources.data() + first, count * 4, cudaMemcpyHostToDevice));
      SSSP_CUDA_CHECK(cudaEventRecord(start, stream));
      if constexpr (Codec::kPackedPredecessors)
        launch_resident<Codec>(ResidentSources{ids, 0, nn}, static_cast<std::uint32_t>(count), labels_all, delta,
                               stats_all);
      SSSP_CUDA_CHECK(cudaEventRecord(stop, stream));
      SSSP_CUDA_CHECK(cudaMemcpyAsync(host_states.data(), stats_all, count * sizeof(ResidentStats),
                                      cudaMemcpyDeviceToHost, stream));
      SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
      float ms = 0;
      SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      out.solve_ms += ms;
      for (std::uint64_t b = 0; b < count; ++b) {
        ResidentStats r{};
        std::memcpy(&r, host_states.data() + b * sizeof r, sizeof r);
        record(first + b, resident_strategy_stats(r), r.relaxations);
        out.per_source[first + b].resident = true;
      }
      out.resident += static_cast<std::uint32_t>(count);
    };
    const auto copy_back = [&](std::size_t first, std::uint64_t count) {
      for (std::uint64_t b0 = 0; b0 < count; b0 += sources_per_copy) {
        const std::uint64_t copied = std::min(sources_per_copy, count - b0);
        SSSP_CUDA_CHECK(cudaMemcpyAsync(batch_labels.as<label_t>(), labels_all + b0 * nn, copied * nn * 8,
                                        cudaMemcpyDeviceToHost, stream));
        SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
        // Reserved here, filled on several threads (the rows' first touch
        // dominates the read-back, and threads take it in parallel).
        for (std::uint64_t b = 0; b < copied; ++b) out.per_source[first + b0 + b].distances.reserve(n);
        for_each_in_parallel(copied, [&](std::uint64_t b) {
          auto& d = out.per_source[first + b0 + b].distances;
          d.resize(n);
          const label_t* row = host_labels + b * nn;
          if (host_order.empty()) {
            for (std::uint32_t v = 0; v < n; ++v) d[v] = Codec::host_distance(row[v]);
          } else {
            for (std::uint32_t v = 0; v < n; ++v) d[v] = Codec::host_distance(row[host_order.new_id[v]]);
          }
        });
      }
    };
    SSSP_CUDA_CHECK(cudaMemsetAsync(ws.balance.bins.counters, 0, sizeof(BinCounters), stream));
    if (read_off) upload_batch_read_off(*read_off);
    bool in_resident = false;
    if constexpr (Codec::kPackedPredecessors) in_resident = plan.resident && strategy == Strategy::NearFar;
    for (std::size_t first = 0; first < sources.size(); first += chunk) {
      const std::uint64_t count = std::min<std::uint64_t>(chunk, sources.size() - first);
      if (in_resident) {
        run_resident_chunk(first, count);
      } else if (strategy == Strategy::NearFar) {
        run_chunk(NearFarPolicy<Codec>{}, first, count);
      } else {
        run_chunk(BellmanFordPolicy<Codec>{}, first, count);
      }
      if (!read_off) copy_back(first, count);  // with read_off the rows stay on the device
    }
    if (read_off) out.solve_ms += launch_batch_read_off<Codec>(*read_off, labels_all, nn);
    return out;
  }

  // A batch's seeds and pieces, up before its timed region.
  void upload_batch_read_off(const BatchReadOff& r) {
    if (r.sources > 0) {
      SSSP_CUDA_CHECK(cudaMemcpy(r.seed_rows, r.host_seed_rows, std::size_t{r.sources} * 2 * 4, cudaMemcpyHostToDevice));
      SSSP_CUDA_CHECK(cudaMemcpy(r.seed_dist, r.host_seed_dist, std::size_t{r.sources} * 2 * 8, cudaMemcpyHostToDevice));
    }
    if (r.pieces > 0) {
      SSSP_CUDA_CHECK(cudaMemcpy(r.piece_index, r.host_piece_index, r.pieces * 8, cudaMemcpyHostToDevice));
      SSSP_CUDA_CHECK(cudaMemcpy(r.piece_dist, r.host_piece_dist, r.pieces * 8, cudaMemcpyHostToDevice));
    }
  }

  // A batch row's distances as the read-off reads them: source b's core
  // distance at v, the nearest of its seeds' rows (in the device's order,
  // `stride` labels apart) plus the seed's distance.
  template <class Codec>
  struct SeededRowDistance {
    const label_t* rows;
    std::uint64_t stride;
    const std::uint32_t* new_id;  // renumbered: input id -> device id
    const std::uint32_t* seed_rows;
    const std::uint64_t* seed_dist;
    __device__ std::uint64_t operator()(std::uint32_t b, std::uint32_t v) const {
      const std::uint32_t at = new_id ? new_id[v] : v;
      std::uint64_t best = kReadOffInf;
      for (int i = 0; i < 2; ++i) {
        const std::uint32_t row = seed_rows[2 * std::uint64_t{b} + i];
        if (row == graph::kNoVertex) continue;
        const auto d = Codec::dist(rows[row * stride + at]);
        if (!Codec::is_inf(d)) best = min(best, seed_dist[2 * std::uint64_t{b} + i] + static_cast<std::uint64_t>(d));
      }
      return best;
    }
  };

  // The read-off of every source of a batch (BatchReadOff), timed by the
  // solver's events; returns its milliseconds.
  template <class Codec>
  double launch_batch_read_off(const BatchReadOff& r, const label_t* rows, std::uint64_t stride) {
    SSSP_CUDA_CHECK(cudaEventRecord(start, stream));
    if (r.sources > 0) {
      const SeededRowDistance<Codec> core_distance{rows, stride, host_order.empty() ? nullptr : new_id.as<std::uint32_t>(),
                                                   r.seed_rows, r.seed_dist};
      read_off_anchors<<<grid_for(std::uint64_t{r.vertices} * r.sources, 256, ws.stream_grid), 256, 0, stream>>>(
          r.vertices, r.sources, r.core_of, r.anchor_core, r.anchor_offset, core_distance, r.distances);
      SSSP_CHECK_LAUNCH("read_off_anchors");
    }
    if (r.pieces > 0) {
      lower_pieces<<<grid_for(r.pieces, 256, ws.stream_grid), 256, 0, stream>>>(r.pieces, r.piece_index,
                                                                                     r.piece_dist, r.distances);
      SSSP_CHECK_LAUNCH("lower_pieces");
    }
    SSSP_CUDA_CHECK(cudaEventRecord(stop, stream));
    SSSP_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  }

  void rewrite_arcs(graph::edge_offset first, const std::vector<graph::vertex_id>& new_targets,
                    const std::vector<Weight>& new_weights) {
    if (new_targets.size() != new_weights.size() || first > m || new_targets.size() > m - first)
      throw std::invalid_argument("sssp: rewrite_arcs: arcs " + std::to_string(first) + " + " +
                                  std::to_string(new_targets.size()) + " are not arcs of this graph (" +
                                  std::to_string(m) + ")");
    for (std::size_t i = 0; i < new_targets.size(); ++i) {
      if (new_targets[i] >= n)
        throw std::invalid_argument("sssp: rewrite_arcs: target " + std::to_string(new_targets[i]) +
                                    " is not a vertex");
      unsigned bits = 0;
      std::memcpy(&bits, &new_weights[i], sizeof bits);
      bool negative = false;
      if constexpr (std::is_same_v<Weight, float>) negative = !(new_weights[i] >= 0.0f);
      if (negative || bits > max_weight_bits)
        throw std::invalid_argument("sssp: rewrite_arcs: a weight above the graph's largest (" +
                                    std::to_string(new_weights[i]) + ")");
      if (new_weights[i] == Weight{0}) has_zero_weights = true;  // predecessors then need the zero-arc pass
    }
    if (new_targets.empty()) return;
    SSSP_CUDA_CHECK(cudaSetDevice(options.device));
    if (host_order.empty()) {
      SSSP_CUDA_CHECK(cudaMemcpyAsync(targets.as<std::uint32_t>() + first, new_targets.data(), new_targets.size() * 4,
                                      cudaMemcpyHostToDevice, stream));
      SSSP_CUDA_CHECK(cudaMemcpyAsync(weights.as<Weight>() + first, new_weights.data(),
                                      new_weights.size() * sizeof(Weight), cudaMemcpyHostToDevice, stream));
      return;
    }
    // Renumbered: a vertex's arcs sit together at its new id's first arc, but
    // sorted by new target (vertex_order.cuh), so only whole vertices can be
    // rewritten; each goes in as one copy. The staging vectors must outlive
    // the copies from pageable memory, which return once staged.
    std::vector<std::uint32_t> renamed(new_targets.size());
    for (std::size_t i = 0; i < new_targets.size(); ++i) renamed[i] = host_order.new_id[new_targets[i]];
    const std::uint64_t end = first + new_targets.size();
    if (host_order.in_offsets[host_order.vertex_of_arc(first)] != first ||
        (end < m && host_order.in_offsets[host_order.vertex_of_arc(end)] != end))
      throw std::invalid_argument("sssp: rewrite_arcs: with a vertex order other than input, arcs " +
                                  std::to_string(first) + " + " + std::to_string(new_targets.size()) +
                                  " must be whole vertices' arcs");
    for (std::uint64_t arc = first; arc < end;) {
      const std::uint32_t u = host_order.vertex_of_arc(arc);
      const std::uint64_t next = host_order.in_offsets[u + 1];
      const std::uint64_t at = host_order.out_offsets[host_order.new_id[u]];
      SSSP_CUDA_CHECK(cudaMemcpyAsync(targets.as<std::uint32_t>() + at, renamed.data() + (arc - first),
                                      (next - arc) * 4, cudaMemcpyHostToDevice, stream));
      SSSP_CUDA_CHECK(cudaMemcpyAsync(weights.as<Weight>() + at, new_weights.data() + (arc - first),
                                      (next - arc) * sizeof(Weight), cudaMemcpyHostToDevice, stream));
      arc = next;
    }
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  SolveResult<Weight> solve(graph::vertex_id source, Strategy strategy, double delta,
                            const DeviceReadOff* read_off = nullptr) {
    if (source >= n)
      throw std::out_of_range("sssp: source vertex " + std::to_string(source) + " is out of range (the graph has " +
                              std::to_string(n) + " vertices, numbered from 0 here)");
    if (!(delta > 0) || !std::isfinite(delta))
      throw std::invalid_argument("sssp: delta must be a positive number, got " + std::to_string(delta));
    if ((strategy == Strategy::BucketSort || strategy == Strategy::BucketMultisplit) &&
        (options.buckets < 2 || options.buckets > kMaxBuckets))
      throw std::invalid_argument("sssp: the number of buckets must be in 2.." + std::to_string(kMaxBuckets) +
                                  ", got " + std::to_string(options.buckets));
    SSSP_CUDA_CHECK(cudaSetDevice(options.device));
    SolveResult<Weight> r;
    if (read_off && options.predecessors && !read_off->predecessors)
      throw std::invalid_argument("sssp: a read-off with predecessors needs their arrays");
    if (read_off && read_off->pieces > 0) {  // ahead of the timed region, on the solve's stream
      SSSP_CUDA_CHECK(cudaMemcpyAsync(read_off->piece_index, read_off->host_piece_index,
                                      std::size_t{read_off->pieces} * 8, cudaMemcpyHostToDevice, stream));
      SSSP_CUDA_CHECK(cudaMemcpyAsync(read_off->piece_dist, read_off->host_piece_dist,
                                      std::size_t{read_off->pieces} * 8, cudaMemcpyHostToDevice, stream));
      if (options.predecessors)
        SSSP_CUDA_CHECK(cudaMemcpyAsync(read_off->piece_pred, read_off->host_piece_pred,
                                        std::size_t{read_off->pieces} * 4, cudaMemcpyHostToDevice, stream));
    }
    if constexpr (std::is_same_v<Weight, float>) {
      if (read_off) throw std::invalid_argument("sssp: a read-off on the device needs integer weights");
      r = run<PackedCodec<float>>(device_vertex(source), strategy, delta, nullptr);
    } else {
      r = packed ? run<PackedCodec<std::uint32_t>>(device_vertex(source), strategy, delta, read_off)
                 : run<WideCodec>(device_vertex(source), strategy, delta, read_off);
    }
    if (options.predecessors && !read_off) r.predecessors[source] = graph::kNoVertex;  // the read-off sets its own
    return r;
  }

  template <class Codec>
  static typename Codec::Delta codec_delta(double delta) {
    if constexpr (std::is_same_v<typename Codec::Delta, float>) {
      const float d = static_cast<float>(delta);
      return d > 0 ? d : std::numeric_limits<float>::denorm_min();
    } else {
      // Integer distances: whole-number buckets, at least 1 (and small enough
      // that thresholds never overflow).
      const double d = std::floor(delta);
      if (d < 1) return 1;
      return d > 4.6e18 ? static_cast<std::uint64_t>(4.6e18) : static_cast<std::uint64_t>(d);
    }
  }

  // One solve with `strategy` from `first` on this solver's workspace, its
  // labels and stamps initialised already.
  template <class Codec>
  StrategyStats run_strategy(Strategy strategy, FirstFrontier first, typename Codec::Delta delta) {
    return with_balance(plan.load_balance, [&](auto balance) {
      using Balance = decltype(balance);
      switch (strategy) {
        case Strategy::BellmanFord: return run_bellman_ford<Codec, Balance>(ws, first);
        case Strategy::NearFar: return run_near_far<Codec, Balance>(ws, first, delta);
        case Strategy::BucketSort: return run_bucketing<Codec, Balance>(ws, first, delta, options.buckets, false);
        case Strategy::BucketMultisplit: return run_bucketing<Codec, Balance>(ws, first, delta, options.buckets, true);
      }
      throw std::logic_error("sssp: unknown strategy");
    });
  }

  // A solve's distances as the read-off reads them (read_off.cuh).
  template <class Codec>
  struct LabelDistance {
    const label_t* labels;
    __device__ std::uint64_t operator()(std::uint32_t, std::uint32_t v) const {
      const auto d = Codec::dist(labels[v]);
      return Codec::is_inf(d) ? kReadOffInf : static_cast<std::uint64_t>(d);
    }
  };

  // A solve's predecessors as the read-off reads them: in the labels (the
  // device's ids, mapped back through old_id when renumbered), or in their
  // own array already in the input's ids.
  template <class Codec>
  struct LabelPredecessor {
    const label_t* labels;
    const std::uint32_t* preds;   // without packed predecessors
    const std::uint32_t* old_id;  // renumbered, packed: device id -> input id
    std::uint32_t n;
    __device__ std::uint32_t operator()(std::uint32_t v) const {
      if (!Codec::kPackedPredecessors) return preds[v];
      const auto p = static_cast<std::uint32_t>(labels[v] & 0xFFFFFFFFull);
      if (p >= n) return graph::kNoVertex;
      return old_id ? old_id[p] : p;
    }
  };

  // The original graph's distances (and predecessors) from the labels, on
  // the stream.
  template <class Codec>
  void launch_read_off(const DeviceReadOff& r, const label_t* labels, const std::uint32_t* preds) {
    const int grid = grid_for(r.vertices, 256, ws.stream_grid);
    if (options.predecessors) {
      PredecessorReadOff p{r.anchor_pred, r.piece, r.core_offsets, r.core_targets, r.via, r.entry,
                           {r.entry_targets[0], r.entry_targets[1]}, {r.entry_preds[0], r.entry_preds[1]}};
      const LabelPredecessor<Codec> core_pred{labels, preds, host_order.empty() ? nullptr : old_id.as<std::uint32_t>(), n};
      read_off_anchors_with_predecessors<<<grid, 256, 0, stream>>>(r.vertices, r.core_of, r.anchor_core,
                                                                   r.anchor_offset, LabelDistance<Codec>{labels},
                                                                   core_pred, p, r.distances, r.predecessors);
      SSSP_CHECK_LAUNCH("read_off_anchors_with_predecessors");
      if (r.pieces > 0) {
        lower_pieces_with_predecessors<<<grid_for(r.pieces, 256, ws.stream_grid), 256, 0, stream>>>(
            r.pieces, r.piece_index, r.piece_dist, r.piece_pred, r.distances, r.predecessors);
        SSSP_CHECK_LAUNCH("lower_pieces_with_predecessors");
      }
      // The source has no predecessor (also where it is a junction).
      SSSP_CUDA_CHECK(cudaMemsetAsync(r.predecessors + r.source, 0xFF, 4, stream));
      return;
    }
    read_off_anchors<<<grid, 256, 0, stream>>>(r.vertices, 1, r.core_of, r.anchor_core, r.anchor_offset,
                                               LabelDistance<Codec>{labels}, r.distances);
    SSSP_CHECK_LAUNCH("read_off_anchors");
    if (r.pieces == 0) return;
    lower_pieces<<<grid_for(r.pieces, 256, ws.stream_grid), 256, 0, stream>>>(r.pieces, r.piece_index,
                                                                             r.piece_dist, r.distances);
    SSSP_CHECK_LAUNCH("lower_pieces");
  }

  // Near-far solves in the resident block (resident_block.cuh), one block per
  // source of `from`, `blocks` of them: one launch writes every label and
  // each block's counts to stats[b] (the single solve's: the scratch
  // buffer, which resident_stats reads once the solve's stop event is
  // recorded, with no host round trip inside the timed solve).
  template <class Codec>
  void launch_resident(ResidentSources from, std::uint32_t blocks, label_t* labels, typename Codec::Delta delta,
                       ResidentStats* stats) {
    const auto launch = [&](auto kernel) {
      kernel<<<blocks, kResidentBlock, resident_shared_bytes(n, m, plan.resident_layout), stream>>>(
          ws.graph, labels, from, delta, plan.resident_local_steps, stats);
    };
    switch (plan.resident_layout) {
      case ResidentLayout::Distances: launch(resident_near_far<Codec, ResidentLayout::Distances>); break;
      case ResidentLayout::Offsets: launch(resident_near_far<Codec, ResidentLayout::Offsets>); break;
      case ResidentLayout::Arcs: launch(resident_near_far<Codec, ResidentLayout::Arcs>); break;
    }
    SSSP_CHECK_LAUNCH("resident_near_far");
  }
  template <class Codec>
  void launch_resident(std::uint32_t source, typename Codec::Delta delta) {
    static_assert(sizeof(ResidentStats) <= 256, "the resident stats fit the scratch buffer");
    launch_resident<Codec>(ResidentSources{nullptr, source, 0}, 1, ws.labels, delta, scratch.as<ResidentStats>());
  }

  // A resident solve's counts as the engine's. Steps count as narrow rounds
  // (a single block runs them).
  static StrategyStats resident_strategy_stats(const ResidentStats& r) {
    if (r.error == static_cast<std::uint32_t>(LoopError::Watchdog))
      throw std::runtime_error("sssp: the resident loop stopped: " + std::to_string(kMaxStalledSteps) +
                               " steps in a row relaxed no arc (a bug: please report the graph and source)");
    StrategyStats stats;
    stats.relaxations = r.relaxations;
    stats.iterations = r.steps;
    stats.rounds_narrow = r.steps;
    stats.cluster_steps = r.local_steps;
    stats.buckets_processed = r.phases;
    return stats;
  }

  // The counts of the single resident solve just launched, through the
  // pinned state buffer (synchronises the stream).
  StrategyStats resident_stats() {
    SSSP_CUDA_CHECK(cudaMemcpyAsync(host_state.as<void>(), scratch.as<ResidentStats>(), sizeof(ResidentStats),
                                    cudaMemcpyDeviceToHost, stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    ResidentStats r{};
    std::memcpy(&r, host_state.as<void>(), sizeof r);
    return resident_strategy_stats(r);
  }

  // A solve from `source` (the device's numbering); the result is in the
  // input's ids, but for the source's own predecessor (the caller's). With
  // read_off, the result is the original graph's distances, read off the
  // labels on the device inside the timed region.
  template <class Codec>
  SolveResult<Weight> run(std::uint32_t source, Strategy strategy, double requested_delta,
                          const DeviceReadOff* read_off) {
    ws.track_pred = options.predecessors;
    const auto delta = codec_delta<Codec>(requested_delta);
    SSSP_CUDA_CHECK(cudaEventRecord(start, stream));
    StrategyStats stats;
    bool in_resident = false;
    if constexpr (Codec::kPackedPredecessors) {
      in_resident = plan.resident && strategy == Strategy::NearFar && !options.predecessors;
      if (in_resident) launch_resident<Codec>(source, delta);
    }
    if (!in_resident) {
      init_labels<Codec><<<grid_for(n, 256, ws.stream_grid), 256, 0, stream>>>(ws.labels, n, source);
      SSSP_CHECK_LAUNCH("init_labels");
      SSSP_CUDA_CHECK(cudaMemsetAsync(ws.stamps_a, 0, static_cast<std::size_t>(n) * 4, stream));
      SSSP_CUDA_CHECK(cudaMemsetAsync(ws.stamps_b, 0, static_cast<std::size_t>(n) * 4, stream));
      SSSP_CUDA_CHECK(cudaMemsetAsync(ws.balance.bins.counters, 0, sizeof(BinCounters), stream));
      stats = run_strategy<Codec>(strategy, source, delta);
    }
    if constexpr (!Codec::kPackedPredecessors) {
      if (options.predecessors) {
        SSSP_CUDA_CHECK(cudaMemsetAsync(pred.as<void>(), 0xFF, static_cast<std::size_t>(n) * 4, stream));
        derive_predecessors(ws.graph, ws.labels, pred.as<std::uint32_t>(), source, has_zero_weights,
                            scratch.as<std::uint32_t>(), host_state.as<std::uint32_t>(), ws.stream_grid, stream);
      }
    }
    // Renumbered: back to the input's ids on the device, into queue space the
    // solve no longer needs (2n + 1 words each), before the read-back.
    const label_t* labels_out = ws.labels;
    const std::uint32_t* pred_out = pred.as<std::uint32_t>();
    if (!host_order.empty()) {
      labels_in_input_order<><<<grid_for(n, 256, ws.stream_grid), 256, 0, stream>>>(
          ws.labels, new_id.as<std::uint32_t>(), n, big0.as<label_t>());
      SSSP_CHECK_LAUNCH("labels_in_input_order");
      labels_out = big0.as<label_t>();
      if (!Codec::kPackedPredecessors && options.predecessors) {
        predecessors_in_input_order<><<<grid_for(n, 256, ws.stream_grid), 256, 0, stream>>>(
            pred.as<std::uint32_t>(), new_id.as<std::uint32_t>(), old_id.as<std::uint32_t>(), n,
            big1.as<std::uint32_t>());
        SSSP_CHECK_LAUNCH("predecessors_in_input_order");
        pred_out = big1.as<std::uint32_t>();
      }
    }
    if (read_off) launch_read_off<Codec>(*read_off, labels_out, pred_out);
    SSSP_CUDA_CHECK(cudaEventRecord(stop, stream));
    if (in_resident) stats = resident_stats();
    SSSP_CUDA_CHECK(cudaEventSynchronize(stop));
    float elapsed_ms = 0;
    SSSP_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, start, stop));

    SolveResult<Weight> result;
    result.solve_ms = elapsed_ms;
    result.relaxations = stats.relaxations;
    copy_round_counts(stats, result);
    result.buckets_processed = stats.buckets_processed;
    result.full_splits = stats.full_splits;
    result.full_splits_in_block = stats.block_splits;
    result.full_splits_in_grid = stats.grid_splits;
    result.resident = in_resident;
    result.resident_shared_arcs = in_resident && plan.resident_layout == ResidentLayout::Arcs;
    result.delta = static_cast<double>(delta);

    if (read_off) {
      static_assert(sizeof(graph::distance_t<std::uint32_t>) == 8 &&
                    graph::infinite_distance<std::uint32_t>() == kReadOffInf);
      result.distances.resize(read_off->vertices);
      SSSP_CUDA_CHECK(cudaMemcpy(result.distances.data(), read_off->distances,
                                 static_cast<std::size_t>(read_off->vertices) * 8, cudaMemcpyDeviceToHost));
      if (options.predecessors) {
        result.predecessors.resize(read_off->vertices);
        SSSP_CUDA_CHECK(cudaMemcpy(result.predecessors.data(), read_off->predecessors,
                                   static_cast<std::size_t>(read_off->vertices) * 4, cudaMemcpyDeviceToHost));
      }
      return result;
    }
    std::vector<label_t> host_labels(n);
    SSSP_CUDA_CHECK(cudaMemcpy(host_labels.data(), labels_out, static_cast<std::size_t>(n) * 8, cudaMemcpyDeviceToHost));
    result.distances.resize(n);
    for (std::uint32_t v = 0; v < n; ++v) result.distances[v] = Codec::host_distance(host_labels[v]);
    if (options.predecessors) {
      if constexpr (Codec::kPackedPredecessors) {
        result.predecessors.resize(n);
        for (std::uint32_t v = 0; v < n; ++v) result.predecessors[v] = Codec::host_pred(host_labels[v]);
        if (!host_order.empty()) {
          for (std::uint32_t v = 0; v < n; ++v)
            if (result.predecessors[v] < n) result.predecessors[v] = host_order.old_id[result.predecessors[v]];
        }
      } else {
        result.predecessors.resize(n);
        SSSP_CUDA_CHECK(cudaMemcpy(result.predecessors.data(), pred_out, static_cast<std::size_t>(n) * 4,
                                   cudaMemcpyDeviceToHost));
      }
    }
    return result;
  }
};

}  // namespace sssp::detail

namespace sssp {

template <class Weight>
struct GpuSolver<Weight>::Impl : detail::SolverImpl<Weight> {
  using detail::SolverImpl<Weight>::SolverImpl;
};

template <class Weight>
GpuSolver<Weight>::GpuSolver(const graph::Csr<Weight>& graph, const SolverOptions& options)
    : impl_(std::make_unique<Impl>(graph, options)) {}
template <class Weight>
GpuSolver<Weight>::GpuSolver(const DeviceCsrView<Weight>& graph, const SolverOptions& options)
    : impl_(std::make_unique<Impl>(graph, options)) {}

template <class Weight>
DeviceCsrSummary summarize_device_csr(const DeviceCsrView<Weight>& g, int device) {
  std::string why;
  if (!gpu_available(&why)) throw std::runtime_error("sssp: no usable GPU: " + why);
  SSSP_CUDA_CHECK(cudaSetDevice(device));
  // The arrays' producer (another library, on its own stream) may still be
  // writing them: everything on the device finishes first.
  SSSP_CUDA_CHECK(cudaDeviceSynchronize());
  const std::uint32_t n = g.num_vertices;
  const std::uint64_t m = g.num_arcs;
  detail::require_device_pointer(g.offsets, device, "offsets");
  if (m > 0) {
    detail::require_device_pointer(g.targets, device, "targets");
    detail::require_device_pointer(g.weights, device, "weights");
  }
  std::uint64_t ends[2] = {0, 0};
  SSSP_CUDA_CHECK(cudaMemcpy(&ends[0], g.offsets, 8, cudaMemcpyDeviceToHost));
  SSSP_CUDA_CHECK(cudaMemcpy(&ends[1], g.offsets + n, 8, cudaMemcpyDeviceToHost));
  if (ends[0] != 0) throw std::invalid_argument("sssp: malformed CSR: offsets[0] is " + std::to_string(ends[0]) + ", not 0");
  if (ends[1] != m)
    throw std::invalid_argument("sssp: malformed CSR: offsets[num_vertices] is " + std::to_string(ends[1]) +
                                ", not the arc count " + std::to_string(m));
  detail::DeviceMemory totals;
  totals.allocate(sizeof(detail::DeviceCsrTotals), "the device CSR's summary");
  detail::DeviceCsrTotals h{};
  h.min_positive_bits = 0xFFFFFFFFu;
  SSSP_CUDA_CHECK(cudaMemcpy(totals.as<void>(), &h, sizeof h, cudaMemcpyHostToDevice));
  if (n > 0 || m > 0) {
    int sms = 0;
    SSSP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    detail::summarize_csr<Weight><<<detail::grid_for(std::max<std::uint64_t>(m, n), 256, sms * 8), 256>>>(
        g.offsets, g.targets, g.weights, n, m, totals.as<detail::DeviceCsrTotals>());
    SSSP_CHECK_LAUNCH("summarize_csr");
  }
  SSSP_CUDA_CHECK(cudaMemcpy(&h, totals.as<void>(), sizeof h, cudaMemcpyDeviceToHost));
  if (h.flags & 1u)
    throw std::invalid_argument("sssp: malformed CSR: the offsets decrease somewhere or pass the arc count");
  if (h.flags & 2u)
    throw std::invalid_argument("sssp: malformed CSR: an arc's target id is not below the vertex count (" +
                                std::to_string(n) + ")");
  if (h.flags & 4u) throw std::invalid_argument("sssp: the graph has a negative, NaN or infinite weight");
  DeviceCsrSummary s;
  s.max_degree = h.max_degree;
  s.heavy_arcs = h.heavy_arcs;
  s.isolated = h.isolated;
  s.degree_squares = h.degree_squares;
  s.weight_sum = h.weight_sum;
  if (h.min_positive_bits != 0xFFFFFFFFu) {
    if constexpr (std::is_same_v<Weight, float>) {
      float f;
      std::memcpy(&f, &h.min_positive_bits, sizeof f);
      s.min_positive_weight = f;
    } else {
      s.min_positive_weight = h.min_positive_bits;
    }
  }
  return s;
}


template <class Weight>
GpuSolver<Weight>::~GpuSolver() = default;

template <class Weight>
double GpuSolver<Weight>::upload_ms() const {
  return impl_->upload_ms;
}

template <class Weight>
VertexOrdering GpuSolver<Weight>::vertex_ordering() const {
  return impl_->ordering;
}

template <class Weight>
double GpuSolver<Weight>::reorder_ms() const {
  return impl_->reorder_ms;
}

template <class Weight>
std::uint64_t GpuSolver<Weight>::device_bytes() const {
  return impl_->device_bytes;
}

template <class Weight>
std::uint64_t GpuSolver<Weight>::graph_device_bytes() const {
  return impl_->graph_device_bytes;
}
template <class Weight>
DeviceCsrView<Weight> GpuSolver<Weight>::device_graph() const {
  DeviceCsrView<Weight> g;
  g.offsets = impl_->offsets.template as<std::uint64_t>();
  g.targets = impl_->targets.template as<std::uint32_t>();
  g.weights = impl_->weights.template as<Weight>();
  g.num_vertices = impl_->n;
  g.num_arcs = impl_->m;
  return g;
}


template <class Weight>
LoadBalance GpuSolver<Weight>::load_balance() const {
  return impl_->plan.load_balance;
}

template <class Weight>
double GpuSolver<Weight>::heavy_arc_share() const {
  return impl_->plan.heavy_arc_share;
}

template <class Weight>
const ExecutionPlan& GpuSolver<Weight>::plan() const {
  return impl_->plan;
}

template <class Weight>
void GpuSolver<Weight>::rewrite_arcs(graph::edge_offset first, const std::vector<graph::vertex_id>& targets,
                                     const std::vector<Weight>& weights) {
  impl_->rewrite_arcs(first, targets, weights);
}

template <class Weight>
SolveResult<Weight> GpuSolver<Weight>::solve(graph::vertex_id source, Strategy strategy) {
  return impl_->solve(source, strategy, impl_->options.delta);
}

template <class Weight>
SolveResult<Weight> GpuSolver<Weight>::solve(graph::vertex_id source, Strategy strategy, double delta) {
  return impl_->solve(source, strategy, delta);
}

template <class Weight>
SolveResult<Weight> GpuSolver<Weight>::solve_and_read_off(graph::vertex_id source, Strategy strategy, double delta,
                                                          const DeviceReadOff& read_off) {
  return impl_->solve(source, strategy, delta, &read_off);
}

template <class Weight>
BatchSolveResult<Weight> GpuSolver<Weight>::solve_batch(const std::vector<graph::vertex_id>& sources,
                                                        Strategy strategy, double delta) {
  return impl_->solve_batch(sources, strategy, delta);
}

template <class Weight>
std::uint32_t GpuSolver<Weight>::batch_capacity() {
  SSSP_CUDA_CHECK(cudaSetDevice(impl_->options.device));
  return static_cast<std::uint32_t>(impl_->batch_chunk(std::numeric_limits<std::uint32_t>::max()));
}

template <class Weight>
BatchSolveResult<Weight> GpuSolver<Weight>::solve_batch_and_read_off(const std::vector<graph::vertex_id>& rows,
                                                                     Strategy strategy, double delta,
                                                                     const BatchReadOff& read_off) {
  return impl_->solve_batch(rows, strategy, delta, &read_off);
}

}  // namespace sssp
