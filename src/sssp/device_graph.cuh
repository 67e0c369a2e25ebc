// The device's copy of a graph (DeviceGraph): every allocation, from one
// table estimated against free memory first; the upload (in the input order
// or renumbered, vertex_order.cuh); the checks of the uploaded arrays
// (graph_checks.cuh); the plan it runs under (make_plan, plan.hpp); the
// stream, events and the engine's Workspace over those arrays; in-place arc
// rewrites. The solves (single_solve.cuh, batch_solve.cuh) run on it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "sssp/balance/balance.cuh"
#include "sssp/common/cuda_check.cuh"
#include "sssp/common/device_memory.cuh"
#include "sssp/common/grid.cuh"
#include "sssp/common/labels.cuh"
#include "sssp/engine/engine.cuh"
#include "sssp/engine/resident_block.cuh"
#include "sssp/engine/workspace.cuh"
#include "sssp/graph_checks.cuh"
#include "sssp/graph_shape.hpp"
#include "sssp/plan.hpp"
#include "sssp/policies/bucketing.cuh"
#include "sssp/policies/near_far.cuh"
#include "sssp/solver.hpp"
#include "sssp/vertex_order.cuh"

namespace sssp::detail {

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

inline std::string format_bytes(std::uint64_t bytes) {
  std::ostringstream s;
  s << bytes << " bytes (" << std::fixed;
  s.precision(2);
  s << static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0) << " GiB)";
  return s.str();
}

template <class Weight>
struct DeviceGraph {
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
  PinnedMemory host_state;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  Workspace<Weight> ws;

  DeviceGraph(const graph::Csr<Weight>& g, const SolverOptions& opts) : options(opts) {
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
      if (*facts.labels_pack && !options.overrides.resident_any_shape && m > 0) {
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
    if (ordering == VertexOrdering::Input)
      upload_ms = copy_arrays(g.offsets.data(), g.targets.data(), g.weights.data(), cudaMemcpyHostToDevice);

    inspect_uploaded();
    // The plan read the packing off the host's arcs, the same largest weight.
    if (plan.resident && !packed) throw std::logic_error("sssp: the plan's label packing disagrees with the device's");
    if (plan.resident) allow_resident_shared();
  }

  // From a CSR in device memory (GpuSolver's second constructor): the same
  // checks and statistics on the device, then a device-to-device copy. With
  // no host copy there is no shape to measure nor vertex order to build: the
  // input order, and never the resident block.
  DeviceGraph(const DeviceCsrView<Weight>& g, const SolverOptions& opts) : options(opts) {
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
    options.overrides.resident_block = false;
    device_facts = query_device_facts(options.device);
    GraphFacts facts;
    facts.vertices = n;
    facts.arcs = m;
    facts.max_degree = summary.max_degree;
    facts.heavy_arcs = summary.heavy_arcs;
    plan = make_plan(facts, device_facts, options);
    ordering = plan.vertex_ordering;
    allocate(summary.heavy_arcs, summary.max_degree);
    upload_ms = copy_arrays(g.offsets, g.targets, g.weights, cudaMemcpyDeviceToDevice);
    inspect_uploaded();
  }

  DeviceGraph(const DeviceGraph&) = delete;
  DeviceGraph& operator=(const DeviceGraph&) = delete;

  // The CSR's three arrays into this graph's (the input order), from the
  // host or from another device allocation; returns the copy's
  // milliseconds (CUDA events: the transfer only).
  double copy_arrays(const std::uint64_t* from_offsets, const std::uint32_t* from_targets, const Weight* from_weights,
                     cudaMemcpyKind kind) {
    SSSP_CUDA_CHECK(cudaEventRecord(start, stream));
    SSSP_CUDA_CHECK(
        cudaMemcpyAsync(offsets.as<void>(), from_offsets, (static_cast<std::size_t>(n) + 1) * 8, kind, stream));
    if (m > 0) {
      SSSP_CUDA_CHECK(cudaMemcpyAsync(targets.as<void>(), from_targets, m * 4, kind, stream));
      SSSP_CUDA_CHECK(cudaMemcpyAsync(weights.as<void>(), from_weights, m * sizeof(Weight), kind, stream));
    }
    SSSP_CUDA_CHECK(cudaEventRecord(stop, stream));
    SSSP_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
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

  // A graph of `copies` disjoint copies of base's graph, built on the
  // device from base's arrays: copy c's vertex v is vertex c * base.n + v.
  // A batch's sources solved together are one multi-source solve on it,
  // each source in its own copy (the rows of its labels are the sources'
  // distances). The caller checks that it fits (about copies times base's
  // memory) and that copies * base.n is below the 2^30 vertex limit.
  DeviceGraph(const DeviceGraph& base, std::uint32_t copies) : options(base.options) {
    options.memory_limit_bytes = 0;
    options.load_balance = base.plan.load_balance;
    n = base.n * copies;
    m = base.m * copies;
    if (options.load_balance == LoadBalance::MergePath && merge_path_arc_bits(n, m) == 0)
      options.load_balance = LoadBalance::Auto;  // the copies' ids no longer fit merge-path's word
    // The copies keep the input order and never run the resident block
    // (a batch runs only run_strategy on them).
    options.vertex_ordering = VertexOrdering::Input;
    options.overrides.resident_block = false;
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
    ws.block_split = plan.block_split;
    ws.grid_split = plan.grid_split;
    ws.block_split_max_items = plan.block_split_max_items;
    ws.pause_scratch = pause_scratch.as<std::uint32_t>();
    ws.pause_scratch_blocks = sms;
    ws.narrow_max_arcs = plan.narrow_max_arcs;
    ws.wide_blocks_per_sm = plan.wide_blocks_per_sm;
    ws.medium_grid = plan.medium_grid;
  }

  ~DeviceGraph() {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
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
};

}  // namespace sssp::detail
