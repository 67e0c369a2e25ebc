// GPU test helpers: skip visibly where no GPU exists, check CUDA calls.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace test_support {

inline bool gpu_available() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky "no device" error
    return false;
  }
  return count > 0;
}

}  // namespace test_support

#define SKIP_IF_NO_GPU()                                                         \
  do {                                                                           \
    if (!test_support::gpu_available()) GTEST_SKIP() << "no CUDA GPU found; skipping GPU test"; \
  } while (0)

#define CUDA_ASSERT(call)                                                                  \
  do {                                                                                     \
    const cudaError_t err_ = (call);                                                       \
    ASSERT_EQ(err_, cudaSuccess) << #call << ": " << cudaGetErrorString(err_);              \
  } while (0)
