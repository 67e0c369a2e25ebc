// Checks of a CSR on the device, before any solve: inspect_graph on the
// solver's own copy (weights' range and validity, zero weights, target ids,
// offsets), and summarize_device_csr on a caller's arrays in device memory
// (the same checks plus the statistics the host path reads off its CSR).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sssp/balance/binned_relax.cuh"
#include "sssp/common/cuda_check.cuh"
#include "sssp/common/device_memory.cuh"
#include "sssp/common/grid.cuh"
#include "sssp/common/labels.cuh"
#include "sssp/solver.hpp"

namespace sssp::detail {

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

}  // namespace sssp::detail

namespace sssp {

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

}  // namespace sssp
