// The arrays a read-off (read_off.cuh) reads for every vertex, uploaded
// once per contraction: each vertex's core id and its two anchors' core and
// offset (and, for predecessors, the anchors' predecessor). Host code: the
// contracted solver (a .cpp) and PHAST's solver both fill them.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "graph/contraction.hpp"
#include "sssp/common/device_memory.cuh"

namespace sssp::detail {

struct ReadOffArrays {
  DeviceMemory core_of, anchor_core, anchor_offset, anchor_pred;

  // On `stream`; anchor_pred only `with_predecessors`.
  void upload(const graph::ChainContraction& c, bool with_predecessors, cudaStream_t stream) {
    std::vector<std::uint32_t> cores(c.anchors.size()), preds(with_predecessors ? c.anchors.size() : 0);
    std::vector<std::uint64_t> offsets(c.anchors.size());
    for (std::size_t i = 0; i < c.anchors.size(); ++i) {
      cores[i] = c.anchors[i].core;
      offsets[i] = c.anchors[i].offset;
      if (with_predecessors) preds[i] = c.anchors[i].pred;
    }
    detail::upload(core_of, c.core_of, "the contraction's core ids", stream);
    detail::upload(anchor_core, cores, "the contraction's anchors", stream);
    detail::upload(anchor_offset, offsets, "the contraction's anchor offsets", stream);
    if (with_predecessors) detail::upload(anchor_pred, preds, "the contraction's anchor predecessors", stream);
  }
};

}  // namespace sssp::detail
