// Whether a GPU can run this build, and a one-line description for reports.
#include <cuda_runtime.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "sssp/engine/resident_block.cuh"
#include "sssp/solver.hpp"

namespace sssp {
namespace {

__global__ void probe_kernel() {}

std::string version_string(int v) {  // 13000 -> "13.0"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

bool gpu_available(std::string* why) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    if (why) *why = std::string("no CUDA driver or device: ") + cudaGetErrorString(err);
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  // The build holds machine code for some architectures only (sm_90 by
  // default): a device it cannot run on fails here, not in the first solve.
  cudaFuncAttributes attr{};
  err = cudaFuncGetAttributes(&attr, probe_kernel);
  if (err != cudaSuccess && err != cudaErrorNoKernelImageForDevice && err != cudaErrorInvalidDeviceFunction) {
    // Not a missing architecture: the device or its context is broken (an
    // earlier kernel fault is sticky for the whole process, say).
    (void)cudaGetLastError();
    if (why) *why = std::string("the CUDA device is unusable: ") + cudaGetErrorName(err) + ": " + cudaGetErrorString(err);
    return false;
  }
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    cudaDeviceProp prop{};
    std::string name = "device 0";
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
      name = std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ")";
    (void)cudaGetLastError();
    if (why) *why = "this build has no code for " + name + ": " + cudaGetErrorString(err) +
                    " (rebuild with -DCMAKE_CUDA_ARCHITECTURES=<your GPU>)";
    return false;
  }
  return true;
}

namespace {
// The NVIDIA driver release ("580.159.04") from the kernel module's version
// file; the CUDA API reports only the CUDA version the driver supports.
std::string nvidia_driver_release() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  std::smatch match;
  static const std::regex release(R"(\b(\d{2,4}\.\d{1,4}(\.\d{1,4})?)\b)");
  return std::regex_search(line, match, release) ? match[1].str() : "";
}
}  // namespace

std::optional<GpuIdentity> gpu_identity(int device) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return std::nullopt;
  }
  int driver = 0, runtime = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) (void)cudaGetLastError();
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) (void)cudaGetLastError();
  GpuIdentity id;
  id.name = prop.name;
  id.cc_major = prop.major;
  id.cc_minor = prop.minor;
  id.multiprocessors = prop.multiProcessorCount;
  id.memory_bytes = static_cast<std::uint64_t>(prop.totalGlobalMem);
  id.driver = nvidia_driver_release();
  id.cuda_driver = version_string(driver);
  id.cuda_runtime = version_string(runtime);
  return id;
}

std::uint32_t resident_max_vertices(int device) {
  int optin = 0;
  if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) {
    cudaGetLastError();  // clear it: no usable device is an answer here, not an error
    return 0;
  }
  const auto bytes = static_cast<std::uint64_t>(optin);
  std::uint64_t lo = 0, hi = bytes / 4;  // lo fits (0 vertices: nothing to fit), hi does not
  if (!detail::resident_fits(1, 0, detail::ResidentLayout::Distances, bytes)) return 0;
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (detail::resident_fits(mid, 0, detail::ResidentLayout::Distances, bytes) ? lo : hi) = mid;
  }
  return static_cast<std::uint32_t>(lo);
}

std::string gpu_description(int device) {
  const std::optional<GpuIdentity> id = gpu_identity(device);
  if (!id) return "no CUDA device " + std::to_string(device);
  std::ostringstream s;
  s.precision(1);
  s << id->name << " (sm_" << id->cc_major << id->cc_minor << ", " << id->multiprocessors << " SMs, " << std::fixed
    << static_cast<double>(id->memory_bytes) / (1024.0 * 1024.0 * 1024.0) << " GiB), driver " << id->cuda_driver
    << ", runtime " << id->cuda_runtime;
  return s.str();
}

}  // namespace sssp
