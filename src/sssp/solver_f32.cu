// GpuSolver for float weights: float distances packed with the predecessor.
#include "sssp/solver_impl.cuh"

namespace sssp {
template class GpuSolver<float>;
}  // namespace sssp
