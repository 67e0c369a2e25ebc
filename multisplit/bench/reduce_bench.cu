// reduce_bench: multisplit::reduce_by_bucket (sum of 32-bit values per
// bucket, plus per-bucket counts) against the two usual alternatives, in one
// process. "ours" runs multisplit::sum_op, which on 32-bit integers takes the
// shared-atomic path; "ours, generic" runs the same sum through a user
// functor the library does not recognise, i.e. the warp peer-reduction path
// that any operator (float sums, user types) takes. The alternatives:
//   sort + ReduceByKey: cub::DeviceRadixSort::SortPairs on the labels' low
//       ceil(log2 m) bits, then cub::DeviceReduce::ReduceByKey (sums of the
//       non-empty buckets only, no counts: less output than ours);
//   atomics: one kernel, atomicAdd of every value and of 1 into global
//       per-bucket sums and counts (after a memset of both).
// Labels (keys in [0, m), identity buckets) are uniform, or all the same
// bucket (the worst case for atomics). n = 2^25 pairs by default.
// Times are CUDA events around each call (temporary storage allocated
// before), after warm-up, median of --runs. Rates are Gpairs/s; "x" is the
// alternative's time over ours (> 1: ours faster). Sums and counts are
// checked against the atomics kernel's, and the sort + ReduceByKey sums of
// the non-empty buckets against ours (column ok).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.cuh"
#include "multisplit/reduce_by_bucket.cuh"

namespace {

using namespace multisplit_bench;

__global__ void fill_pairs(std::uint32_t* labels, std::uint32_t* values, std::uint32_t n, std::uint32_t m,
                           bool one_bucket) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    labels[i] = one_bucket ? m / 2 : mix(i * 2654435761u + 99) % m;
    values[i] = mix(i ^ 0x5bd1e995u) >> 12;
  }
}

// The same sum as a functor the library does not know: the generic path.
struct UserPlus {
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a + b; }
};

__global__ void atomic_reduce(const std::uint32_t* __restrict__ labels, const std::uint32_t* __restrict__ values,
                              std::uint32_t n, std::uint32_t* sums, std::uint32_t* counts) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t b = labels[i];
    atomicAdd(sums + b, values[i]);
    atomicAdd(counts + b, 1u);
  }
}

struct Options : SweepOptions {
  Options() { dists = {"uniform", "one-bucket"}; }
};

struct Record {
  std::string dist, impl;
  std::uint32_t n = 0, m = 0;
  double ms = 0, rate = 0, ours_speedup = 0;
  bool ok = true;
};

class Bench {
 public:
  explicit Bench(const Options& opt)
      : opt_(opt),
        n_(1u << opt.n_log2),
        labels_(n_),
        values_(n_),
        sorted_labels_(n_),
        sorted_values_(n_),
        sums_(65536),
        counts_(65536),
        generic_sums_(65536),
        generic_counts_(65536),
        ref_sums_(65536),
        ref_counts_(65536),
        unique_(65536),
        aggregates_(65536),
        num_runs_(1) {}

  void run() {
    const cudaDeviceProp prop = device_properties();
    device_ = prop.name;
    std::printf(
        "device: %s, %d SMs; n = 2^%d pairs (32-bit labels and values), sum per bucket; median of %d "
        "runs after %d warm-ups\n",
        prop.name, prop.multiProcessorCount, opt_.n_log2, opt_.runs, opt_.warmup);
    std::printf("rates in Gpairs/s; x = that method's time / ours (> 1: ours faster)\n\n");
    for (const auto& dist : opt_.dists) table(dist);
    if (!opt_.json_path.empty()) write_json();
  }

 private:
  template <class Op>
  double time_ours(std::uint32_t m, Op op, std::uint32_t* sums, std::uint32_t* counts) {
    const multisplit::identity_buckets<std::uint32_t> fn;
    auto call = [&](void* temp, std::size_t& bytes) {
      return multisplit::reduce_by_bucket(temp, bytes, labels_.ptr, values_.ptr, n_, m, fn, op, 0u, sums, counts);
    };
    return time_two_phase(timer_, temp_, call, opt_.warmup, opt_.runs);
  }

  double time_atomics(std::uint32_t m) {
    return timer_.median_ms(
        [&] {
          BENCH_CHECK(cudaMemsetAsync(ref_sums_.ptr, 0, m * sizeof(std::uint32_t)));
          BENCH_CHECK(cudaMemsetAsync(ref_counts_.ptr, 0, m * sizeof(std::uint32_t)));
          atomic_reduce<<<2048, 256>>>(labels_.ptr, values_.ptr, n_, ref_sums_.ptr, ref_counts_.ptr);
          BENCH_CHECK(cudaGetLastError());
        },
        opt_.warmup, opt_.runs);
  }

  double time_sort_reduce_by_key(std::uint32_t m) {
    const int end_bit = std::max(1, ceil_log2(m));
    std::size_t sort_bytes = 0, rbk_bytes = 0;
    BENCH_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, labels_.ptr, sorted_labels_.ptr, values_.ptr,
                                                sorted_values_.ptr, n_, 0, end_bit));
    BENCH_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, rbk_bytes, sorted_labels_.ptr, unique_.ptr, sorted_values_.ptr,
                                               aggregates_.ptr, num_runs_.ptr, ::cuda::std::plus<std::uint32_t>{}, n_));
    temp_.reserve(std::max(sort_bytes, rbk_bytes));
    return timer_.median_ms(
        [&] {
          std::size_t s = sort_bytes, r = rbk_bytes;
          BENCH_CHECK(cub::DeviceRadixSort::SortPairs(temp_.ptr, s, labels_.ptr, sorted_labels_.ptr, values_.ptr,
                                                      sorted_values_.ptr, n_, 0, end_bit));
          BENCH_CHECK(cub::DeviceReduce::ReduceByKey(temp_.ptr, r, sorted_labels_.ptr, unique_.ptr, sorted_values_.ptr,
                                                     aggregates_.ptr, num_runs_.ptr, ::cuda::std::plus<std::uint32_t>{},
                                                     n_));
        },
        opt_.warmup, opt_.runs);
  }

  void table(const std::string& dist) {
    std::printf("%s labels\n", dist.c_str());
    std::printf("%5s | %-14s | %-14s | %-20s | %-20s | %s\n", "m", "ours", "ours, generic", "sort + ReduceByKey",
                "global atomics", "ok");
    for (const std::uint32_t m : opt_.buckets) {
      fill_pairs<<<1024, 256>>>(labels_.ptr, values_.ptr, n_, m, dist == "one-bucket");
      BENCH_CHECK(cudaGetLastError());
      const double ours_ms = time_ours(m, multisplit::sum_op{}, sums_.ptr, counts_.ptr);
      const double generic_ms = time_ours(m, UserPlus{}, generic_sums_.ptr, generic_counts_.ptr);
      const double atomics_ms = time_atomics(m);
      const double sort_ms = time_sort_reduce_by_key(m);
      const std::vector<std::uint32_t> sums = download(sums_.ptr, m), counts = download(counts_.ptr, m);
      bool ok = sums == download(ref_sums_.ptr, m) && counts == download(ref_counts_.ptr, m) &&
                sums == download(generic_sums_.ptr, m) && counts == download(generic_counts_.ptr, m);
      const std::uint32_t runs = download(num_runs_.ptr, 1)[0];
      const std::vector<std::uint32_t> unique = download(unique_.ptr, runs),
                                       aggregates = download(aggregates_.ptr, runs);
      std::uint32_t non_empty = 0;
      for (std::uint32_t b = 0; b < m; ++b) non_empty += counts[b] != 0;
      ok = ok && runs == non_empty;
      for (std::uint32_t r = 0; ok && r < runs; ++r) ok = unique[r] < m && aggregates[r] == sums[unique[r]];

      auto add = [&](const char* impl, double ms) {
        Record rec;
        rec.dist = dist;
        rec.impl = impl;
        rec.n = n_;
        rec.m = m;
        rec.ms = ms;
        rec.rate = n_ / (ms * 1e-3) / 1e9;
        rec.ours_speedup = ms / ours_ms;  // time over the default path's
        rec.ok = ok;
        records_.push_back(rec);
        char buf[64];
        if (std::string(impl).rfind("multisplit", 0) == 0)
          std::snprintf(buf, sizeof buf, "%6.1f", rec.rate);
        else
          std::snprintf(buf, sizeof buf, "%6.1f  x %5.2f", rec.rate, rec.ours_speedup);
        return std::string(buf);
      };
      const std::string c1 = add("multisplit", ours_ms);
      const std::string c1g = add("multisplit_generic_op", generic_ms);
      const std::string c2 = add("cub_sort_reduce_by_key", sort_ms);
      const std::string c3 = add("global_atomics", atomics_ms);
      std::printf("%5u | %-14s | %-14s | %-20s | %-20s | %s\n", m, c1.c_str(), c1g.c_str(), c2.c_str(), c3.c_str(),
                  ok ? "yes" : "MISMATCH");
      std::fflush(stdout);
    }
    std::printf("\n");
  }

  void write_json() const {
    nlohmann::json out = json_header(device_, opt_);
    out["benchmark"] = "reduce_bench";
    out["operation"] = "sum of uint32 values per bucket, with counts";
    write_results_json(opt_.json_path, out, records_, [](const Record& r) -> nlohmann::json {
      return {{"labels", r.dist},
              {"implementation", r.impl},
              {"n", r.n},
              {"buckets", r.m},
              {"median_ms", r.ms},
              {"g_pairs_per_s", r.rate},
              {"time_over_multisplit", r.ours_speedup},
              {"results_agree", r.ok}};
    });
  }

  Options opt_;
  std::uint32_t n_;
  DeviceBuffer<std::uint32_t> labels_, values_, sorted_labels_, sorted_values_, sums_, counts_, generic_sums_,
      generic_counts_, ref_sums_, ref_counts_, unique_, aggregates_, num_runs_;
  TempStorage temp_;
  Timer timer_;
  std::string device_;
  std::vector<Record> records_;
};

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  po::options_description desc("reduce_bench options");
  desc.add_options()("help,h", "show this help");
  add_sweep_options(desc, opt, "pairs", "uniform and/or one-bucket");
  auto validate = [&] { require_sweep_options(opt, {"uniform", "one-bucket"}); };
  return bench_main("reduce_bench", argc, argv, desc, validate, [&] { Bench(opt).run(); });
}
