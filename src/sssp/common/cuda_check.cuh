// CUDA error checking for the solver: every runtime call and every kernel
// launch goes through SSSP_CUDA_CHECK / SSSP_CHECK_LAUNCH, which throw
// std::runtime_error naming the call, the file and the line.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace sssp::detail {

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* what, const char* file, int line) {
  throw std::runtime_error(std::string("CUDA error in ") + what + " at " + file + ":" + std::to_string(line) +
                           ": " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
}

}  // namespace sssp::detail

#define SSSP_CUDA_CHECK(call)                                                      \
  do {                                                                             \
    const cudaError_t sssp_err_ = (call);                                          \
    if (sssp_err_ != cudaSuccess) ::sssp::detail::throw_cuda_error(sssp_err_, #call, __FILE__, __LINE__); \
  } while (0)

// After a <<<...>>> launch: configuration errors show up in cudaGetLastError.
#define SSSP_CHECK_LAUNCH(name)                                                    \
  do {                                                                             \
    const cudaError_t sssp_err_ = cudaGetLastError();                              \
    if (sssp_err_ != cudaSuccess) ::sssp::detail::throw_cuda_error(sssp_err_, name, __FILE__, __LINE__); \
  } while (0)
