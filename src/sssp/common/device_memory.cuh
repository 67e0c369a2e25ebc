// RAII owners of device and pinned host memory for the solvers.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "sssp/common/cuda_check.cuh"

namespace sssp::detail {

// A cudaMalloc that failed (what callers may recover from, unlike other
// CUDA errors).
struct DeviceAllocationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Owns one cudaMalloc'd block; moves, never copies.
class DeviceMemory {
 public:
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory() {
    if (ptr_) cudaFree(ptr_);
  }
  void allocate(std::size_t bytes, const char* what) {
    if (bytes == 0) bytes = 1;
    const cudaError_t err = cudaMalloc(&ptr_, bytes);
    if (err != cudaSuccess) {
      ptr_ = nullptr;
      (void)cudaGetLastError();
      throw DeviceAllocationError(std::string("sssp: cudaMalloc of ") + std::to_string(bytes) + " bytes for " +
                                  what + " failed: " + cudaGetErrorString(err));
    }
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  void release() {
    if (ptr_) cudaFree(ptr_);
    ptr_ = nullptr;
  }

 private:
  void* ptr_ = nullptr;
};

class PinnedMemory {
 public:
  PinnedMemory() = default;
  PinnedMemory(const PinnedMemory&) = delete;
  PinnedMemory& operator=(const PinnedMemory&) = delete;
  ~PinnedMemory() {
    if (ptr_) cudaFreeHost(ptr_);
  }
  void allocate(std::size_t bytes) { SSSP_CUDA_CHECK(cudaMallocHost(&ptr_, bytes)); }
  void release() {
    if (ptr_) cudaFreeHost(ptr_);
    ptr_ = nullptr;
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }

 private:
  void* ptr_ = nullptr;
};

// Allocates `to` for `from` and copies it up on `stream` (0: the legacy
// stream). From pageable memory: the caller synchronises before the
// data is read on another stream.
template <class T>
void upload(DeviceMemory& to, const std::vector<T>& from, const char* what, cudaStream_t stream) {
  to.allocate(from.size() * sizeof(T), what);
  if (!from.empty())
    SSSP_CUDA_CHECK(cudaMemcpyAsync(to.as<void>(), from.data(), from.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
}

}  // namespace sssp::detail
