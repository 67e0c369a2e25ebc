// Launch shapes for the solver's simple grid-stride kernels.
#pragma once

#include <cstdint>

namespace sssp::detail {

// Blocks of `block` threads for n items, one item per thread, at least one
// block and at most max_grid (the kernels stride over the rest).
inline int grid_for(std::uint64_t n, int block, int max_grid) {
  const std::uint64_t g = (n + static_cast<std::uint64_t>(block) - 1) / static_cast<std::uint64_t>(block);
  return static_cast<int>(g < 1 ? 1 : (g > static_cast<std::uint64_t>(max_grid) ? max_grid : g));
}

}  // namespace sssp::detail
