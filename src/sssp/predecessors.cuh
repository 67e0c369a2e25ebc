// Predecessors from final distances, for 64-bit integer distances (WideCodec),
// where no predecessor fits beside the distance in the label word.
//
// pred[v] = any u with dist[u] + w(u, v) == dist[v] ("tight" arcs) is exact
// for integer weights, but with zero-weight arcs two vertices at the same
// distance can point at each other. So:
//   pass 1: tight arcs with w > 0. These point to strictly smaller
//           distances and can never close a cycle.
//   pass 2: tight zero-weight arcs (u, v), taken only from a u that already
//           has its predecessor (or is the source), repeated until nothing
//           changes. A predecessor set in pass 2 points to a vertex that was
//           resolved earlier in time, so these cannot close a cycle either,
//           and every reached vertex is resolved: a shortest path to it
//           enters its zero-weight component through a resolved vertex.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "sssp/common/cuda_check.cuh"
#include "sssp/common/labels.cuh"
#include "sssp/balance/relax.cuh"

namespace sssp::detail {

constexpr std::uint32_t kNoPred32 = 0xFFFFFFFFu;

// One warp per vertex u (grid-stride over warps).
template <int kUnused = 0>  // a template: header kernels need vague linkage
__global__ void tight_positive_arcs(GraphView<std::uint32_t> g, const label_t* labels, std::uint32_t* pred) {
  const unsigned lane = threadIdx.x & 31u;
  const std::uint64_t warps = static_cast<std::uint64_t>(gridDim.x) * (blockDim.x / 32);
  for (std::uint64_t u = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
       u < g.num_vertices; u += warps) {
    const label_t du = labels[u];
    if (du == ~0ull) continue;
    const std::uint64_t end = g.offsets[u + 1];
    for (std::uint64_t e = g.offsets[u] + lane; e < end; e += 32) {
      const std::uint32_t w = g.weights[e];
      const std::uint32_t v = g.targets[e];
      if (w > 0 && du + w == labels[v]) pred[v] = static_cast<std::uint32_t>(u);
    }
  }
}

template <int kUnused = 0>
__global__ void tight_zero_arcs(GraphView<std::uint32_t> g, const label_t* labels, std::uint32_t* pred,
                                std::uint32_t source, std::uint32_t* changed) {
  const unsigned lane = threadIdx.x & 31u;
  const std::uint64_t warps = static_cast<std::uint64_t>(gridDim.x) * (blockDim.x / 32);
  for (std::uint64_t u = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
       u < g.num_vertices; u += warps) {
    const label_t du = labels[u];
    if (du == ~0ull) continue;
    if (u != source && volatile_load(pred + u) == kNoPred32) continue;  // not resolved (yet)
    const std::uint64_t end = g.offsets[u + 1];
    for (std::uint64_t e = g.offsets[u] + lane; e < end; e += 32) {
      const std::uint32_t v = g.targets[e];
      if (g.weights[e] == 0 && v != source && labels[v] == du && volatile_load(pred + v) == kNoPred32 &&
          atomicCAS(pred + v, kNoPred32, static_cast<std::uint32_t>(u)) == kNoPred32)
        *changed = 1;
    }
  }
}

// pred must hold kNoPred32 everywhere. flag: one device word of scratch,
// host_flag: a pinned word.
inline void derive_predecessors(const GraphView<std::uint32_t>& g, const label_t* labels, std::uint32_t* pred,
                                std::uint32_t source, bool has_zero_weights, std::uint32_t* flag,
                                std::uint32_t* host_flag, int grid, cudaStream_t stream) {
  tight_positive_arcs<><<<grid, 256, 0, stream>>>(g, labels, pred);
  SSSP_CHECK_LAUNCH("tight_positive_arcs");
  if (!has_zero_weights) return;
  for (;;) {
    SSSP_CUDA_CHECK(cudaMemsetAsync(flag, 0, sizeof *flag, stream));
    tight_zero_arcs<><<<grid, 256, 0, stream>>>(g, labels, pred, source, flag);
    SSSP_CHECK_LAUNCH("tight_zero_arcs");
    SSSP_CUDA_CHECK(cudaMemcpyAsync(host_flag, flag, sizeof *flag, cudaMemcpyDeviceToHost, stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (*host_flag == 0) return;
  }
}

}  // namespace sssp::detail
