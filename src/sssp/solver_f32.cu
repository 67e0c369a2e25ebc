// GpuSolver for float weights: float distances packed with the predecessor.
#include "sssp/gpu_solver.cuh"

namespace sssp {
template class GpuSolver<float>;
template DeviceCsrSummary summarize_device_csr(const DeviceCsrView<float>&, int);
}  // namespace sssp
