// sort_bench: the multisplit radix sort (multisplit/sort.cuh) against
// cub::DeviceRadixSort::SortKeys / SortPairs in the same process
// (Ashkiani et al., GPU Multisplit, section 6.3, compared multisplit-sort
// with CUB's radix sort the same way).
//
// For n uniform random 32-bit keys (and pairs with 32-bit values), all 32
// bits, it times CUB and, for every digit width r asked for (--radix-bits):
//   block         : BMS post-scan, radix pre-scan (the library default's shape)
//   block-generic : BMS post-scan, the library's generic ballot pre-scan
//   warp          : WMS post-scan, radix pre-scan (r <= 5 only: WMS keeps
//                   per-warp tables and slows down quickly past 32 buckets)
//   block-tN      : as block, with N keys per thread in the BMS tile instead
//                   of the library's 16 (r >= 6 only)
//   sort-tN       : the sort's own post-scan (sort_postscan.cuh: BMS with the
//                   next tile prefetched by cp.async), N keys per thread
// and the public sort_keys / sort_pairs ("default"). Times are CUDA events
// around each call after --warmup untimed calls, median of --runs. "vs CUB"
// is the rate divided by CUB's. "pass GB/s" is the traffic model of the
// three-phase multisplit, 12 B per key per pass (read by the pre-scan, read
// and written by the post-scan; 20 B per pair), over the time; the
// device-to-device copy bandwidth measured in the same run bounds it.
// Every output is compared with CUB's on the device (column "ok").
#include <boost/program_options.hpp>
#include <cub/device/device_radix_sort.cuh>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "multisplit/sort.cuh"

namespace {

namespace po = boost::program_options;
using multisplit::Method;
using multisplit::detail::SortTuning;

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

__global__ void fill_uniform(std::uint32_t* keys, std::uint32_t n, std::uint32_t seed) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    keys[i] = mix(i * 2654435761u + seed);
}

__global__ void fill_iota(std::uint32_t* values, std::uint32_t n) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) values[i] = i;
}

__global__ void count_mismatches(const std::uint32_t* a, const std::uint32_t* b, std::uint32_t n,
                                 unsigned long long* mismatches) {
  unsigned int local = 0;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    local += a[i] != b[i];
  if (local != 0) atomicAdd(mismatches, static_cast<unsigned long long>(local));
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
  std::vector<int> n_log2 = {25, 28};
  std::vector<int> radix_bits = {4, 5, 6, 7, 8};
  std::vector<std::string> kinds = {"keys", "pairs"};
  int runs = 20;
  int warmup = 3;
  std::string json_path;
};

struct Variant {
  std::string name;  // block, block-generic, warp, block-t24, ..., default
  int r = 0;         // 0: the default's choice
  bool is_default = false;
  SortTuning tuning;
  int block_items = 16;  // BMS keys per thread (tile = 256 x this)
};

// The BMS tile sizes sort_bench can run (each one a kernel instantiation).
constexpr int kBlockItemsChoices[] = {16, 24, 32};

template <class Value>
cudaError_t run_tuned(const Variant& v, void* temp, std::size_t& bytes, const std::uint32_t* k_in, std::uint32_t* k_out,
                      const Value* v_in, Value* v_out, std::uint32_t n) {
  using multisplit::detail::radix_sort;
  switch (v.block_items) {
    case 24: return radix_sort<std::uint32_t, Value, 24>(temp, bytes, k_in, k_out, v_in, v_out, n, 0, 32, 0, v.tuning);
    case 32: return radix_sort<std::uint32_t, Value, 32>(temp, bytes, k_in, k_out, v_in, v_out, n, 0, 32, 0, v.tuning);
    default: return radix_sort<std::uint32_t, Value, 16>(temp, bytes, k_in, k_out, v_in, v_out, n, 0, 32, 0, v.tuning);
  }
}

struct Record {
  std::uint32_t n = 0;
  std::string kind, variant, digits;
  int r = 0, passes = 0;
  double ms = 0, rate = 0, vs_cub = 0, pass_gbps = 0;
  bool ok = true;
};

std::string digit_list(int bits, int r) {
  const auto plan = multisplit::detail::DigitPlan::make(bits, r);
  std::string s;
  for (int p = 0; p < plan.passes; ++p) s += (p ? "+" : "") + std::to_string(plan.bits_of(p));
  return s;
}

class Bench {
 public:
  explicit Bench(const Options& opt) : opt_(opt) {}

  void run() {
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    device_ = prop.name;
    const std::uint32_t max_n = 1u << *std::max_element(opt_.n_log2.begin(), opt_.n_log2.end());
    keys_in_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    keys_out_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    ref_keys_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    values_in_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    values_out_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    ref_values_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    mismatches_ = std::make_unique<Buffer<unsigned long long>>(1);

    fill_uniform<<<1024, 256>>>(keys_in_->ptr, max_n, 1);
    CHECK(cudaGetLastError());
    copy_ms_ = timer_.median_ms(
        [&] {
          CHECK(cudaMemcpyAsync(keys_out_->ptr, keys_in_->ptr, std::size_t{max_n} * 4, cudaMemcpyDeviceToDevice));
        },
        opt_.warmup, opt_.runs);
    copy_gbps_ = 2.0 * max_n * 4 / (copy_ms_ * 1e-3) / 1e9;
    std::printf("device: %s, %d SMs; device-to-device copy %.0f GB/s (read + write); CUB %d.%d.%d\n", prop.name,
                prop.multiProcessorCount, copy_gbps_, CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
    std::printf("uniform 32-bit keys, all 32 bits; median of %d runs after %d warm-ups (CUDA events)\n\n", opt_.runs,
                opt_.warmup);

    std::vector<Variant> variants;
    variants.push_back({"default", 0, true, {}});
    for (const int r : opt_.radix_bits) {
      SortTuning block;
      block.max_radix_bits = r;
      block.method = Method::Block;
      block.radix_prescan = true;
      variants.push_back({"block", r, false, block});
      SortTuning generic = block;
      generic.radix_prescan = false;
      variants.push_back({"block-generic", r, false, generic});
      if (r <= 5) {
        SortTuning warp = block;
        warp.method = Method::Warp;
        variants.push_back({"warp", r, false, warp});
      }
      // Larger BMS tiles: fewer per-tile combines and longer runs per bucket
      // in the write-out, at more registers per thread.
      if (r >= 6)
        for (const int items : kBlockItemsChoices)
          if (items != 16) variants.push_back({"block-t" + std::to_string(items), r, false, block, items});
      SortTuning own = block;
      own.sort_postscan = true;
      variants.push_back({"sort-t16", r, false, own, 16});
      if (r >= 6) variants.push_back({"sort-t24", r, false, own, 24});
    }
    for (const int lg : opt_.n_log2)
      for (const auto& kind : opt_.kinds) table(1u << lg, kind == "pairs", variants);
    if (!opt_.json_path.empty()) write_json();
  }

 private:
  bool same_as_cub(std::uint32_t n, bool pairs) {
    CHECK(cudaMemset(mismatches_->ptr, 0, sizeof(unsigned long long)));
    count_mismatches<<<1024, 256>>>(keys_out_->ptr, ref_keys_->ptr, n, mismatches_->ptr);
    if (pairs) count_mismatches<<<1024, 256>>>(values_out_->ptr, ref_values_->ptr, n, mismatches_->ptr);
    CHECK(cudaGetLastError());
    unsigned long long bad = 0;
    CHECK(cudaMemcpy(&bad, mismatches_->ptr, sizeof(bad), cudaMemcpyDeviceToHost));
    return bad == 0;
  }

  // Times `call(temp, bytes)` (a two-phase CUB-style call).
  double time_two_phase(const std::function<cudaError_t(void*, std::size_t&)>& call) {
    std::size_t bytes = 0;
    CHECK(call(nullptr, bytes));
    temp_.reserve(bytes);
    return timer_.median_ms([&] { CHECK(call(temp_.ptr, bytes)); }, opt_.warmup, opt_.runs);
  }

  void table(std::uint32_t n, bool pairs, const std::vector<Variant>& variants) {
    const std::string kind = pairs ? "pairs" : "keys";
    const char* unit = pairs ? "Gpairs/s" : "Gkeys/s";
    const double bytes_per_pass = pairs ? 20.0 : 12.0;
    fill_uniform<<<1024, 256>>>(keys_in_->ptr, n, 12345);
    fill_iota<<<1024, 256>>>(values_in_->ptr, n);
    CHECK(cudaGetLastError());
    std::uint32_t* k_in = keys_in_->ptr;
    std::uint32_t* k_out = keys_out_->ptr;
    std::uint32_t* v_in = values_in_->ptr;
    std::uint32_t* v_out = values_out_->ptr;

    const double cub_ms = time_two_phase([&](void* temp, std::size_t& bytes) {
      if (pairs) return cub::DeviceRadixSort::SortPairs(temp, bytes, k_in, k_out, v_in, v_out, static_cast<int>(n));
      return cub::DeviceRadixSort::SortKeys(temp, bytes, k_in, k_out, static_cast<int>(n));
    });
    CHECK(cudaMemcpy(ref_keys_->ptr, k_out, std::size_t{n} * 4, cudaMemcpyDeviceToDevice));
    if (pairs) CHECK(cudaMemcpy(ref_values_->ptr, v_out, std::size_t{n} * 4, cudaMemcpyDeviceToDevice));
    const double cub_rate = n / (cub_ms * 1e-3) / 1e9;

    std::printf("### n = 2^%d, %s (%s; copy bound on pass GB/s: %.0f)\n\n", static_cast<int>(std::log2(n)),
                kind.c_str(), unit, copy_gbps_);
    std::printf("| variant | r | digit bits | ms | %s | vs CUB | pass GB/s | ok |\n", unit);
    std::printf("|---|---|---|---|---|---|---|---|\n");
    auto emit = [&](Record r) {
      r.n = n;
      r.kind = kind;
      r.rate = n / (r.ms * 1e-3) / 1e9;
      r.vs_cub = r.rate / cub_rate;
      r.pass_gbps = r.passes > 0 ? r.passes * bytes_per_pass * n / (r.ms * 1e-3) / 1e9 : 0;
      std::printf("| %s | %s | %s | %.3f | %.1f | %.2fx | %s | %s |\n", r.variant.c_str(),
                  r.r ? std::to_string(r.r).c_str() : "-", r.digits.c_str(), r.ms, r.rate, r.vs_cub,
                  r.passes ? std::to_string(static_cast<int>(r.pass_gbps + 0.5)).c_str() : "-",
                  r.ok ? "yes" : "MISMATCH");
      std::fflush(stdout);
      records_.push_back(r);
    };
    Record cub;
    cub.variant = pairs ? "cub::DeviceRadixSort::SortPairs" : "cub::DeviceRadixSort::SortKeys";
    cub.digits = "onesweep";
    cub.ms = cub_ms;
    emit(cub);

    for (const Variant& v : variants) {
      CHECK(cudaMemset(k_out, 0xA5, std::size_t{n} * 4));
      if (pairs) CHECK(cudaMemset(v_out, 0xA5, std::size_t{n} * 4));
      const double ms = time_two_phase([&](void* temp, std::size_t& bytes) {
        if (v.is_default) {
          if (pairs) return multisplit::sort_pairs(temp, bytes, k_in, k_out, v_in, v_out, n);
          return multisplit::sort_keys(temp, bytes, k_in, k_out, n);
        }
        if (pairs) return run_tuned<std::uint32_t>(v, temp, bytes, k_in, k_out, v_in, v_out, n);
        return run_tuned<multisplit::detail::NullValue>(v, temp, bytes, k_in, k_out, nullptr, nullptr, n);
      });
      Record r;
      using multisplit::detail::NullValue;
      const SortTuning default_tuning = pairs ? multisplit::detail::default_sort_tuning<std::uint32_t, std::uint32_t>()
                                              : multisplit::detail::default_sort_tuning<std::uint32_t, NullValue>();
      const SortTuning tuning = v.is_default ? default_tuning : v.tuning;
      const int items = pairs ? multisplit::detail::default_block_items<std::uint32_t, std::uint32_t>()
                              : multisplit::detail::default_block_items<std::uint32_t, multisplit::detail::NullValue>();
      r.variant = v.is_default ? std::string("default (") + (tuning.sort_postscan ? "sort" : "block") +
                                     (tuning.radix_prescan ? "" : "-generic") + "-t" + std::to_string(items) + ")"
                               : v.name;
      r.r = tuning.max_radix_bits;
      r.digits = digit_list(32, tuning.max_radix_bits);
      r.passes = multisplit::detail::DigitPlan::make(32, tuning.max_radix_bits).passes;
      r.ms = ms;
      r.ok = same_as_cub(n, pairs);
      emit(r);
    }
    std::printf("\n");
  }

  void write_json() const {
    nlohmann::json out;
    out["device"] = device_;
    out["copy_gbps"] = copy_gbps_;
    out["runs"] = opt_.runs;
    out["warmup"] = opt_.warmup;
    out["cub_version"] = std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION) + "." +
                         std::to_string(CUB_SUBMINOR_VERSION);
    nlohmann::json rows = nlohmann::json::array();
    for (const Record& r : records_) {
      rows.push_back({{"n", r.n},
                      {"kind", r.kind},
                      {"variant", r.variant},
                      {"radix_bits", r.r},
                      {"digit_bits", r.digits},
                      {"passes", r.passes},
                      {"median_ms", r.ms},
                      {"g_items_per_s", r.rate},
                      {"ratio_to_cub", r.vs_cub},
                      {"pass_model_gbps", r.pass_gbps},
                      {"matches_cub", r.ok}});
    }
    out["results"] = rows;
    std::ofstream file(opt_.json_path);
    if (!file) throw std::runtime_error("cannot write " + opt_.json_path);
    file << out.dump(1) << "\n";
  }

  Options opt_;
  Timer timer_;
  std::string device_;
  double copy_gbps_ = 0, copy_ms_ = 0;
  std::unique_ptr<Buffer<std::uint32_t>> keys_in_, keys_out_, ref_keys_, values_in_, values_out_, ref_values_;
  std::unique_ptr<Buffer<unsigned long long>> mismatches_;
  RawBuffer temp_;
  std::vector<Record> records_;
};

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  po::options_description desc("sort_bench options");
  desc.add_options()("help,h", "show this help")(
      "n-log2", po::value<std::vector<int>>(&opt.n_log2)->multitoken(), "input sizes as powers of two (25 28)")(
      "radix-bits", po::value<std::vector<int>>(&opt.radix_bits)->multitoken(), "digit widths r to try (4 5 6 7 8)")(
      "kinds", po::value<std::vector<std::string>>(&opt.kinds)->multitoken(), "keys and/or pairs")(
      "runs", po::value<int>(&opt.runs), "timed runs per measurement, median reported (>= 20 recommended)")(
      "warmup", po::value<int>(&opt.warmup), "untimed runs first")(
      "json", po::value<std::string>(&opt.json_path), "also write all results to this JSON file");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, desc), vm);
    if (vm.count("help")) {
      std::cout << desc << "\n";
      return 0;
    }
    po::notify(vm);
    for (const int lg : opt.n_log2)
      if (lg < 10 || lg > 30) throw std::invalid_argument("--n-log2 must be in 10..30");
    for (const int r : opt.radix_bits)
      if (r < 1 || r > 8) throw std::invalid_argument("--radix-bits must be in 1..8");
    for (const auto& k : opt.kinds)
      if (k != "keys" && k != "pairs") throw std::invalid_argument("--kinds: keys or pairs, not " + k);
    if (opt.runs < 1 || opt.warmup < 0) throw std::invalid_argument("--runs >= 1, --warmup >= 0");
  } catch (const std::exception& e) {
    std::cerr << "sort_bench: " << e.what() << "\n" << desc << "\n";
    return 2;
  }
  try {
    Bench(opt).run();
  } catch (const std::exception& e) {
    std::cerr << "sort_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
