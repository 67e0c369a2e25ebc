// GpuSolver for integer weights: packed 32-bit distances when every simple
// path fits below 2^32 - 1, 64-bit distances otherwise (labels.cuh).
#include "sssp/gpu_solver.cuh"

namespace sssp {
template class GpuSolver<std::uint32_t>;
template DeviceCsrSummary summarize_device_csr(const DeviceCsrView<std::uint32_t>&, int);
}  // namespace sssp
