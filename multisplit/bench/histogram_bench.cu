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
#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.cuh"
#include "multisplit/histogram.cuh"

namespace {

using namespace multisplit_bench;

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

struct Options : SweepOptions {
  Options() { dists = {"uniform", "skewed", "constant"}; }
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
    const cudaDeviceProp prop = device_properties();
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
    auto call = [&](void* temp, std::size_t& bytes) {
      return multisplit::detail::histogram(temp, bytes, samples, n_, m, fn, counts_.ptr, 0, tuning);
    };
    return time_two_phase(timer_, temp_, call, opt_.warmup, opt_.runs);
  }

  double time_cub_even(std::uint32_t m, unsigned int* out) {
    auto call = [&](void* temp, std::size_t& bytes) {
      return cub::DeviceHistogram::HistogramEven(temp, bytes, samples_.ptr, out, static_cast<int>(m + 1), 0.0f, 1024.0f,
                                                 static_cast<int>(n_));
    };
    return time_two_phase(timer_, temp_, call, opt_.warmup, opt_.runs);
  }

  double time_cub_range(std::uint32_t m) {
    auto call = [&](void* temp, std::size_t& bytes) {
      return cub::DeviceHistogram::HistogramRange(temp, bytes, samples_.ptr, counts_.ptr, static_cast<int>(m + 1),
                                                  levels_.ptr, static_cast<int>(n_));
    };
    return time_two_phase(timer_, temp_, call, opt_.warmup, opt_.runs);
  }

  void table(const std::string& dist) {
    fill_samples<<<1024, 256>>>(samples_.ptr, n_, 777, dist == "skewed", dist == "constant");
    BENCH_CHECK(cudaGetLastError());
    // The same samples one element off 16-byte alignment: scalar loads.
    BENCH_CHECK(
        cudaMemcpy(unaligned_.ptr + 1, samples_.ptr, std::size_t{n_} * sizeof(float), cudaMemcpyDeviceToDevice));
    std::printf("%s samples\n", dist.c_str());
    std::printf("%5s | %-20s | %-20s | %-20s | %-20s | %-20s | %-20s | %s\n", "m", "even: ours", "even: ours (ballots)",
                "even: ours unaligned", "even: CUB", "range: ours", "range: CUB", "ok");
    for (const std::uint32_t m : opt_.buckets) {
      // Levels k * 1024 / m (exact for power-of-two m); splitters = inner levels.
      std::vector<float> levels(m + 1);
      for (std::uint32_t k = 0; k <= m; ++k) levels[k] = 1024.0f * static_cast<float>(k) / static_cast<float>(m);
      BENCH_CHECK(cudaMemcpy(levels_.ptr, levels.data(), (m + 1) * sizeof(float), cudaMemcpyHostToDevice));
      const multisplit::even_buckets<float> even(0.0f, 1024.0f, m);
      const multisplit::range_buckets<float> range(levels_.ptr + 1, m - 1);

      const double cub_even_ms = time_cub_even(m, cub_counts_.ptr);
      const std::vector<std::uint32_t> want = download(cub_counts_.ptr, m);
      bool ok = true;
      auto verify = [&] { ok = ok && download(counts_.ptr, m) == want; };
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
    nlohmann::json out = json_header(device_, opt_);
    out["benchmark"] = "histogram_bench";
    write_results_json(opt_.json_path, out, records_, [](const Record& r) -> nlohmann::json {
      return {
          {"distribution", r.dist}, {"histogram", r.kind}, {"implementation", r.impl},  {"n", r.n},
          {"buckets", r.m},         {"median_ms", r.ms},   {"g_samples_per_s", r.rate}, {"speedup_vs_cub", r.vs_cub},
          {"matches_cub", r.ok}};
    });
  }

  Options opt_;
  std::uint32_t n_;
  DeviceBuffer<float> samples_, unaligned_;
  DeviceBuffer<std::uint32_t> counts_, cub_counts_;
  DeviceBuffer<float> levels_;
  TempStorage temp_;
  Timer timer_;
  std::string device_;
  std::vector<Record> records_;
};

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  po::options_description desc("histogram_bench options");
  desc.add_options()("help,h", "show this help");
  add_sweep_options(desc, opt, "samples", "uniform, skewed and/or constant");
  auto validate = [&] { require_sweep_options(opt, {"uniform", "skewed", "constant"}); };
  return bench_main("histogram_bench", argc, argv, desc, validate, [&] { Bench(opt).run(); });
}
