// GPU faults: out of memory (provoked by --gpu-memory-limit and for
// real, by holding the device's memory), a malformed CSR handed to the
// library, and a kernel fault (a launch failure, which CUDA makes sticky for
// the whole process) before and during a solver's life. Each gives a clear
// one-line message and a non-zero exit or a C++ exception; nothing hangs,
// crashes or leaves partial output.
//
// A kernel fault poisons the process's CUDA context, so those tests run their
// body in a fresh child process (a "threadsafe" death test re-executes this
// binary; forking a process that already initialised CUDA is not supported).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "app_test_support.hpp"
#include "gpu_test_support.cuh"
#include "graph/csr.hpp"
#include "sssp/solver.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

std::size_t count_lines(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

class GpuFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    dir_ = test_support::scratch_dir(std::string("gpu_faults_") +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    dist_ = (dir_ / "result.dist").string();
    json_ = (dir_ / "result.json").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The promises of a failed run: exit 1, one "sssp: ..." line on stderr
  // containing `needle`, no result files.
  void expect_failed_run(const test_support::SsspRun& r, const std::string& needle) const {
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("sssp: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dist_));
    EXPECT_FALSE(fs::exists(json_));
  }

  fs::path dir_;
  std::string dist_, json_;
};

// A path of 4 vertices 0 -> 1 -> 2 -> 3, weight 1 each.
graph::IntCsr small_path() {
  graph::IntCsr g;
  g.num_vertices = 4;
  g.offsets = {0, 1, 2, 3, 3};
  g.targets = {1, 2, 3};
  g.weights = {1, 1, 1};
  return g;
}

__global__ void faulting_kernel() { __trap(); }

// Launches a kernel that traps and waits for it: afterwards every CUDA call
// in this process fails (cudaErrorLaunchFailure is sticky).
void break_cuda_context() {
  faulting_kernel<<<1, 1>>>();
  const cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess) {
    std::fprintf(stderr, "the trapping kernel did not fail\n");
    std::exit(3);
  }
}

TEST_F(GpuFaults, MemoryLimitGivesClearRefusal) {
  SKIP_IF_NO_GPU();
  // rmat:14:8: about 250K arcs, 2 MB of CSR alone on the device.
  const auto r = test_support::run_sssp({"--generate", "rmat:14:8", "--device", "gpu", "--gpu-memory-limit", "512K",
                                         "--output", dist_, "--json", json_});
  expect_failed_run(r, "memory limit");
  EXPECT_NE(r.err.find("needs"), std::string::npos) << r.err;
}

// Real exhaustion: hold all but 64 MiB of the device, then ask for a graph
// that needs more (rmat:20:16: about 31M arcs, 250 MB on the device).
TEST_F(GpuFaults, DeviceMemoryExhaustedGivesClearRefusal) {
  SKIP_IF_NO_GPU();
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_ASSERT(cudaMemGetInfo(&free_bytes, &total_bytes));
  std::vector<void*> held;
  std::size_t left = free_bytes;
  const std::size_t keep = 64ull << 20, chunk = 1ull << 30;
  while (left > keep + (16ull << 20)) {
    const std::size_t bytes = std::min(chunk, left - keep);
    void* p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) {
      (void)cudaGetLastError();
      break;
    }
    held.push_back(p);
    CUDA_ASSERT(cudaMemGetInfo(&left, &total_bytes));
  }
  const auto r = test_support::run_sssp({"--generate", "rmat:20:16", "--device", "gpu", "--quiet", "--output", dist_,
                                         "--json", json_});
  for (void* p : held) CUDA_ASSERT(cudaFree(p));
  expect_failed_run(r, "are free");
  // The device is healthy afterwards: the same run succeeds.
  const auto again = test_support::run_sssp({"--generate", "rmat:14:8", "--device", "gpu", "--quiet"});
  EXPECT_EQ(again.code, 0) << again.err;
}

TEST_F(GpuFaults, MalformedCsrIsRefusedBeforeAnySolve) {
  SKIP_IF_NO_GPU();
  sssp::SolverOptions options;
  options.delta = 1;
  graph::IntCsr bad_target = small_path();
  bad_target.targets[1] = 4;  // one past the last vertex
  try {
    sssp::GpuSolver<std::uint32_t> solver(bad_target, options);
    FAIL() << "an arc to vertex 4 of 4 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("target id"), std::string::npos) << e.what();
  }
  graph::IntCsr bad_offsets = small_path();
  bad_offsets.offsets = {0, 2, 1, 3, 3};
  try {
    sssp::GpuSolver<std::uint32_t> solver(bad_offsets, options);
    FAIL() << "decreasing offsets were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("offsets"), std::string::npos) << e.what();
  }
  // The solver still works on a good graph in the same process.
  sssp::GpuSolver<std::uint32_t> solver(small_path(), options);
  const auto result = solver.solve(0, sssp::Strategy::NearFar);
  ASSERT_EQ(result.distances.size(), 4u);
  EXPECT_EQ(result.distances[3], 3u);
}

// Child-process bodies of the two tests below (they exit with 0 when every
// promise held, and print what they saw to stderr).
[[noreturn]] void run_after_broken_context(const std::string& dist, const std::string& json) {
  break_cuda_context();
  const auto r =
      test_support::run_sssp({"--generate", "rmat:10:8", "--device", "gpu", "--output", dist, "--json", json});
  std::fprintf(stderr, "exit %d, stderr: %s", r.code, r.err.c_str());
  const bool ok = r.code == 1 && count_lines(r.err) == 1 && r.err.find("unusable") != std::string::npos &&
                  r.err.find("cudaErrorLaunchFailure") != std::string::npos && !fs::exists(dist) && !fs::exists(json);
  std::exit(ok ? 0 : 1);
}

[[noreturn]] void solve_after_kernel_fault() {
  sssp::SolverOptions options;
  options.delta = 1;
  bool ok = false;
  {
    sssp::GpuSolver<std::uint32_t> solver(small_path(), options);
    if (solver.solve(0, sssp::Strategy::BucketMultisplit).distances.at(3) != 3u) std::exit(4);
    break_cuda_context();
    try {
      (void)solver.solve(0, sssp::Strategy::BucketMultisplit);
      std::fprintf(stderr, "solve after a kernel fault returned normally\n");
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "%s\n", e.what());
      const std::string what = e.what();
      ok = what.find("CUDA error in ") != std::string::npos &&
           what.find("cudaErrorLaunchFailure") != std::string::npos;
    }
  }  // ~GpuSolver in a broken context
  std::exit(ok ? 0 : 1);
}

// A kernel fault before the run (another library's kernel, a bad driver
// state): `--device gpu` says the device is unusable and why, and exits 1.
TEST_F(GpuFaults, BrokenContextBeforeTheRun) {
  SKIP_IF_NO_GPU();
  EXPECT_EXIT(run_after_broken_context(dist_, json_), ::testing::ExitedWithCode(0), "unusable");
}

// A kernel fault while a solver holds the graph: the next solve throws a
// runtime_error naming the failed CUDA call, and destroying the solver in the
// broken context neither throws nor crashes nor hangs.
TEST_F(GpuFaults, LaunchFailureDuringTheSolversLife) {
  SKIP_IF_NO_GPU();
  EXPECT_EXIT(solve_after_kernel_fault(), ::testing::ExitedWithCode(0), "CUDA error in ");
}

}  // namespace
