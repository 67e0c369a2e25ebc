// histogram_bench: multisplit::histogram against cub::DeviceHistogram in one
// process (Ashkiani et al., GPU Multisplit, TOPC 2018, section 7's
// histogram experiment: 2^25 floats uniform in [0, 1024), m = 2 .. 256).
//
// For each distribution (uniform in [0, 1024); skewed: 1024 * u^8 for u
// uniform in [0, 1), which puts half the keys below 4, i.e. in bucket 0 at
// m = 256, and 92% in bucket 0 at m = 2; constant: every sample 1.0, the
// worst case for atomics) and each bucket count m it times:
//   even  : multisplit::histogram with even_buckets<float>(0, 1024, m)
//           (the default: one shared atomic per key into per-warp tables;
//           also the pre-scan's ballot counting, HistogramTuning::Ballots) and
//           cub::DeviceHistogram::HistogramEven (m + 1 levels, 0 .. 1024);
//           ours also on the same samples one element off 16-byte
//           alignment (scalar instead of 16-byte vector loads);
//   range : multisplit::histogram with range_buckets<float> (m - 1
//           splitters k * 1024 / m, in shared memory) and
//           cub::DeviceHistogram::HistogramRange (the same m + 1 levels).
// Times are CUDA events around each call (temporary storage allocated
// before), after warm-up, median of --runs. Rates are Gsamples/s; "x cub" is
// CUB's time over ours (> 1: ours faster); GB/s counts the 4-byte reads.
// Every result's counts are compared with CUB's HistogramEven (column ok);
// with these power-of-two bucket widths all bins agree exactly.
#include <boost/program_options.hpp>
#include <cub/device/device_histogram.cuh>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "multisplit/histogram.cuh"

namespace {

namespace po = boost::program_options;

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}
#define CHECK(call) check((call), #call)

template <class T>
struct Buffer {
  T* ptr = nullptr;
  explicit Buffer(std::size_t n) { CHECK(cudaMalloc(&ptr, std::max<std::size_t>(n, 1) * sizeof(T))); }
  ~Buffer() { cudaFree(ptr); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

struct RawBuffer {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  void reserve(std::size_t want) {
    if (want <= bytes) return;
    cudaFree(ptr);
    ptr = nullptr;
    CHECK(cudaMalloc(&ptr, want));
    bytes = want;
  }
  ~RawBuffer() { cudaFree(ptr); }
};

__device__ __forceinline__ std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}

// u = 24 random bits / 2^24 in [0, 1); uniform: 1024 u; skewed: 1024 u^8;
// constant: 1.
__global__ void fill_samples(float* samples, std::uint32_t n, std::uint32_t seed, bool skewed, bool constant) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (constant) {
      samples[i] = 1.0f;
      continue;
    }
    const float u = static_cast<float>(mix(i * 2654435761u + seed) >> 8) * (1.0f / 16777216.0f);
    float x = u;
    if (skewed) {
      const float u2 = u * u, u4 = u2 * u2;
      x = u4 * u4;
    }
    samples[i] = 1024.0f * x;
  }
}

class Timer {
 public:
  Timer() {
    CHECK(cudaEventCreate(&start_));
    CHECK(cudaEventCreate(&stop_));
  }
  ~Timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  double median_ms(const std::function<void()>& call, int warmup, int runs) {
    for (int i = 0; i < warmup; ++i) call();
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ms(static_cast<std::size_t>(runs));
    for (auto& t : ms) {
      CHECK(cudaEventRecord(start_));
      call();
      CHECK(cudaEventRecord(stop_));
      CHECK(cudaEventSynchronize(stop_));
      CHECK(cudaEventElapsedTime(&t, start_, stop_));
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t mid = ms.size() / 2;
    return ms.size() % 2 ? ms[mid] : 0.5 * (ms[mid - 1] + ms[mid]);
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

struct Options {
  int n_log2 = 25;
  std::vector<std::uint32_t> buckets = {2, 4, 8, 16, 32, 64, 128, 256};
  std::vector<std::string> dists = {"uniform", "skewed", "constant"};
  int runs = 20;
  int warmup = 3;
  std::string json_path;
};

struct Record {
  std::string dist, kind, impl;
  std::uint32_t n = 0, m = 0;
  double ms = 0, rate = 0, vs_cub = 0;
  bool ok = true;
};

using Tuning = multisplit::detail::HistogramTuning;

class Bench {
 public:
  explicit Bench(const Options& opt)
      : opt_(opt),
        n_(1u << opt.n_log2),
        samples_(n_),
        unaligned_(std::size_t{n_} + 1),
        counts_(65536),
        cub_counts_(65536),
        levels_(65537) {}

  void run() {
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    device_ = prop.name;
    std::printf("device: %s, %d SMs; n = 2^%d float samples; median of %d runs after %d warm-ups\n", prop.name,
                prop.multiProcessorCount, opt_.n_log2, opt_.runs, opt_.warmup);
    std::printf("rates in Gsamples/s (GB/s of 4-byte reads in brackets); x cub = CUB time / our time\n\n");
    for (const auto& dist : opt_.dists) table(dist);
    if (!opt_.json_path.empty()) write_json();
  }

 private:
  template <class Fn>
  double time_ours(std::uint32_t m, const Fn& fn, Tuning tuning, const float* samples = nullptr) {
    if (samples == nullptr) samples = samples_.ptr;
    std::size_t bytes = 0;
    CHECK(multisplit::detail::histogram(nullptr, bytes, samples, n_, m, fn, counts_.ptr, 0, tuning));
    temp_.reserve(bytes);
    return timer_.median_ms(
        [&] { CHECK(multisplit::detail::histogram(temp_.ptr, bytes, samples, n_, m, fn, counts_.ptr, 0, tuning)); },
        opt_.warmup, opt_.runs);
  }

  double time_cub_even(std::uint32_t m, unsigned int* out) {
    std::size_t bytes = 0;
    auto call = [&](void* temp) {
      return cub::DeviceHistogram::HistogramEven(temp, bytes, samples_.ptr, out, static_cast<int>(m + 1), 0.0f, 1024.0f,
                                                 static_cast<int>(n_));
    };
    CHECK(call(nullptr));
    temp_.reserve(bytes);
    return timer_.median_ms([&] { CHECK(call(temp_.ptr)); }, opt_.warmup, opt_.runs);
  }

  double time_cub_range(std::uint32_t m) {
    std::size_t bytes = 0;
    auto call = [&](void* temp) {
      return cub::DeviceHistogram::HistogramRange(temp, bytes, samples_.ptr, counts_.ptr, static_cast<int>(m + 1),
                                                  levels_.ptr, static_cast<int>(n_));
    };
    CHECK(call(nullptr));
    temp_.reserve(bytes);
    return timer_.median_ms([&] { CHECK(call(temp_.ptr)); }, opt_.warmup, opt_.runs);
  }

  std::vector<std::uint32_t> download(const Buffer<std::uint32_t>& b, std::uint32_t m) {
    std::vector<std::uint32_t> host(m);
    CHECK(cudaMemcpy(host.data(), b.ptr, m * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    return host;
  }

  void table(const std::string& dist) {
    fill_samples<<<1024, 256>>>(samples_.ptr, n_, 777, dist == "skewed", dist == "constant");
    CHECK(cudaGetLastError());
    // The same samples one element off 16-byte alignment: scalar loads.
    CHECK(cudaMemcpy(unaligned_.ptr + 1, samples_.ptr, std::size_t{n_} * sizeof(float), cudaMemcpyDeviceToDevice));
    std::printf("%s samples\n", dist.c_str());
    std::printf("%5s | %-20s | %-20s | %-20s | %-20s | %-20s | %-20s | %s\n", "m", "even: ours", "even: ours (ballots)",
                "even: ours unaligned", "even: CUB", "range: ours", "range: CUB", "ok");
    for (const std::uint32_t m : opt_.buckets) {
      // Levels k * 1024 / m (exact for power-of-two m); splitters = inner levels.
      std::vector<float> levels(m + 1);
      for (std::uint32_t k = 0; k <= m; ++k) levels[k] = 1024.0f * static_cast<float>(k) / static_cast<float>(m);
      CHECK(cudaMemcpy(levels_.ptr, levels.data(), (m + 1) * sizeof(float), cudaMemcpyHostToDevice));
      const multisplit::even_buckets<float> even(0.0f, 1024.0f, m);
      const multisplit::range_buckets<float> range(levels_.ptr + 1, m - 1);

      const double cub_even_ms = time_cub_even(m, cub_counts_.ptr);
      const std::vector<std::uint32_t> want = download(cub_counts_, m);
      bool ok = true;
      auto verify = [&] { ok = ok && download(counts_, m) == want; };
      const double ours_ms = time_ours(m, even, Tuning::Auto);
      verify();
      const double ballots_ms = time_ours(m, even, Tuning::Ballots);
      verify();
      const double unaligned_ms = time_ours(m, even, Tuning::Auto, unaligned_.ptr + 1);
      verify();
      const double ours_range_ms = time_ours(m, range, Tuning::Auto);
      verify();
      const double cub_range_ms = time_cub_range(m);
      verify();

      auto add = [&](const char* kind, const char* impl, double ms, double cub_ms) {
        Record r;
        r.dist = dist;
        r.kind = kind;
        r.impl = impl;
        r.n = n_;
        r.m = m;
        r.ms = ms;
        r.rate = n_ / (ms * 1e-3) / 1e9;
        r.vs_cub = cub_ms / ms;
        r.ok = ok;
        records_.push_back(r);
        char buf[64];
        std::snprintf(buf, sizeof buf, "%5.1f [%4.0f] %5.2fx", r.rate, r.rate * 4, r.vs_cub);
        return std::string(buf);
      };
      const std::string c1 = add("even", "multisplit", ours_ms, cub_even_ms);
      const std::string c2 = add("even", "multisplit_ballots", ballots_ms, cub_even_ms);
      const std::string c2u = add("even", "multisplit_unaligned_input", unaligned_ms, cub_even_ms);
      const std::string c3 = add("even", "cub", cub_even_ms, cub_even_ms);
      const std::string c4 = add("range", "multisplit", ours_range_ms, cub_range_ms);
      const std::string c5 = add("range", "cub", cub_range_ms, cub_range_ms);
      std::printf("%5u | %-20s | %-20s | %-20s | %-20s | %-20s | %-20s | %s\n", m, c1.c_str(), c2.c_str(), c2u.c_str(),
                  c3.c_str(), c4.c_str(), c5.c_str(), ok ? "yes" : "MISMATCH");
      std::fflush(stdout);
    }
    std::printf("\n");
  }

  void write_json() const {
    nlohmann::json out;
    out["device"] = device_;
    out["benchmark"] = "histogram_bench";
    out["runs"] = opt_.runs;
    out["warmup"] = opt_.warmup;
    nlohmann::json rows = nlohmann::json::array();
    for (const Record& r : records_)
      rows.push_back({{"distribution", r.dist},
                      {"histogram", r.kind},
                      {"implementation", r.impl},
                      {"n", r.n},
                      {"buckets", r.m},
                      {"median_ms", r.ms},
                      {"g_samples_per_s", r.rate},
                      {"speedup_vs_cub", r.vs_cub},
                      {"matches_cub", r.ok}});
    out["results"] = rows;
    std::ofstream file(opt_.json_path);
    if (!file) throw std::runtime_error("cannot write " + opt_.json_path);
    file << out.dump(1) << "\n";
  }

  Options opt_;
  std::uint32_t n_;
  Buffer<float> samples_, unaligned_;
  Buffer<std::uint32_t> counts_, cub_counts_;
  Buffer<float> levels_;
  RawBuffer temp_;
  Timer timer_;
  std::string device_;
  std::vector<Record> records_;
};

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  po::options_description desc("histogram_bench options");
  desc.add_options()("help,h", "show this help")("n-log2", po::value<int>(&opt.n_log2), "samples = 2^this (25)")(
      "buckets", po::value<std::vector<std::uint32_t>>(&opt.buckets)->multitoken(),
      "bucket counts, 1..65536 (2 4 8 16 32 64 128 256)")(
      "dists", po::value<std::vector<std::string>>(&opt.dists)->multitoken(), "uniform, skewed and/or constant")(
      "runs", po::value<int>(&opt.runs), "timed runs per measurement, median reported (>= 20 recommended)")(
      "warmup", po::value<int>(&opt.warmup), "untimed runs first")("json", po::value<std::string>(&opt.json_path),
                                                                   "also write all results to this JSON file");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, desc), vm);
    if (vm.count("help")) {
      std::cout << desc << "\n";
      return 0;
    }
    po::notify(vm);
    if (opt.n_log2 < 10 || opt.n_log2 > 30) throw std::invalid_argument("--n-log2 must be in 10..30");
    for (const auto m : opt.buckets)
      if (m == 0 || m > 65536) throw std::invalid_argument("--buckets must be in 1..65536");
    for (const auto& d : opt.dists)
      if (d != "uniform" && d != "skewed" && d != "constant")
        throw std::invalid_argument("--dists: uniform, skewed or constant, not " + d);
    if (opt.runs < 1 || opt.warmup < 0) throw std::invalid_argument("--runs >= 1, --warmup >= 0");
  } catch (const std::exception& e) {
    std::cerr << "histogram_bench: " << e.what() << "\n" << desc << "\n";
    return 2;
  }
  try {
    Bench(opt).run();
  } catch (const std::exception& e) {
    std::cerr << "histogram_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
