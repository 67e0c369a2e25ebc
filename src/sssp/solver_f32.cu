// GpuSolver for float weights: float distances packed with the predecessor.
#include "sssp/solver_impl.cuh"

namespace sssp {
template class GpuSolver<float>;
template DeviceCsrSummary summarize_device_csr(const DeviceCsrView<float>&, int);
}  // namespace sssp
