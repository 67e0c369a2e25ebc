// multisplit_bench: paper-style throughput tables for every multisplit method
// against CUB, in one process (Ashkiani et al., GPU Multisplit, section 6).
//
// For n uniform random 32-bit keys (and key-value pairs with 32-bit values),
// delta buckets (equal slices of the key range) and identity buckets
// (keys already bucket ids), and each bucket count m, it times:
//   direct (DMS), warp (WMS), block (BMS), sort (RB-sort), auto;
//   CUB radix sort over all 32 bits (independent of m);
//   CUB radix sort over the top ceil(log2 m) bits (a multisplit only for
//   power-of-two m with delta buckets; timed for every m as a reference);
//   cub::DevicePartition::If for m = 2 (one pass; its rejected part comes out
//   reversed, so it is not stable: a speed reference only).
// Times are CUDA events around each call, after warm-up, median of --runs.
// Rates are Gkeys/s (Gpairs/s); "x rb" is the speed-up over RB-sort; "sol"
// the fraction of the speed of light: 12 bytes per key (read twice, write
// once) or 20 per pair, at the device-to-device copy bandwidth measured in
// the same run. Every method's output is checked against RB-sort's on the
// device (column "ok").
#include <boost/program_options.hpp>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "multisplit/multisplit.cuh"

namespace {

namespace po = boost::program_options;

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}
#define CHECK(call) check((call), #call)

template <class T>
struct Buffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  Buffer() = default;
  explicit Buffer(std::size_t n) : count(n) { CHECK(cudaMalloc(&ptr, std::max<std::size_t>(n, 1) * sizeof(T))); }
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

__global__ void fill_uniform(std::uint32_t* keys, std::uint32_t n, std::uint32_t seed, std::uint32_t modulo) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t k = mix(i * 2654435761u + seed);
    keys[i] = modulo != 0 ? k % modulo : k;
  }
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

struct BucketZero {
  multisplit::delta_buckets<std::uint32_t> fn;
  __host__ __device__ bool operator()(std::uint32_t k) const { return fn(k) == 0; }
};

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
  // Median milliseconds of `runs` timed calls after `warmup` untimed ones.
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
  std::vector<std::uint32_t> buckets = {2, 4, 8, 16, 32, 64, 128, 256, 40, 100, 361, 1024, 4096};
  std::vector<std::string> functors = {"delta", "identity"};
  std::vector<std::string> kinds = {"keys", "pairs"};
  int runs = 20;
  int warmup = 3;
  std::string json_path;
};

struct Record {
  std::uint32_t n = 0, m = 0;
  std::string functor, kind, method, ran;
  double ms = 0, rate = 0, vs_rb = 0, sol = 0;
  bool ok = true;
};

int ceil_log2(std::uint32_t m) {
  int b = 0;
  while ((1ull << b) < m) ++b;
  return b;
}

class Bench {
 public:
  explicit Bench(const Options& opt) : opt_(opt) {}

  void run() {
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    device_ = prop.name;
    const int max_log2 = *std::max_element(opt_.n_log2.begin(), opt_.n_log2.end());
    const std::uint32_t max_n = 1u << max_log2;
    keys_in_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    keys_out_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    ref_keys_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    values_in_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    values_out_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    ref_values_ = std::make_unique<Buffer<std::uint32_t>>(max_n);
    offsets_ = std::make_unique<Buffer<std::uint32_t>>(70000);
    mismatches_ = std::make_unique<Buffer<unsigned long long>>(1);

    measure_copy(max_n);
    std::printf("device: %s, %d SMs; device-to-device copy %.0f GB/s (read + write)\n", prop.name,
                prop.multiProcessorCount, copy_gbps_);
    std::printf("speed of light: %.1f Gkeys/s (12 B/key), %.1f Gpairs/s (20 B/pair)\n\n", copy_gbps_ / 12,
                copy_gbps_ / 20);
    for (const int lg : opt_.n_log2)
      for (const auto& kind : opt_.kinds)
        for (const auto& functor : opt_.functors) table(1u << lg, functor, kind);
    if (!opt_.json_path.empty()) write_json();
  }

 private:
  void measure_copy(std::uint32_t n) {
    fill_uniform<<<1024, 256>>>(keys_in_->ptr, n, 1, 0);
    CHECK(cudaGetLastError());
    const double ms = timer_.median_ms(
        [&] { CHECK(cudaMemcpyAsync(keys_out_->ptr, keys_in_->ptr, std::size_t{n} * 4, cudaMemcpyDeviceToDevice)); },
        opt_.warmup, opt_.runs);
    copy_gbps_ = 2.0 * n * 4 / (ms * 1e-3) / 1e9;
    copy_ms_ = ms;
  }

  template <class Fn>
  double time_split(std::uint32_t n, std::uint32_t m, const Fn& fn, bool pairs, multisplit::Method method,
                    multisplit::Method* ran) {
    std::size_t bytes = 0;
    auto call = [&](void* temp) {
      if (pairs)
        return multisplit::split_pairs(temp, bytes, keys_in_->ptr, keys_out_->ptr, values_in_->ptr, values_out_->ptr,
                                       n, m, fn, offsets_->ptr, 0, method, ran);
      return multisplit::split_keys(temp, bytes, keys_in_->ptr, keys_out_->ptr, n, m, fn, offsets_->ptr, 0, method,
                                    ran);
    };
    CHECK(call(nullptr));
    temp_.reserve(bytes);
    return timer_.median_ms([&] { CHECK(call(temp_.ptr)); }, opt_.warmup, opt_.runs);
  }

  bool same_as_reference(std::uint32_t n, bool pairs) {
    CHECK(cudaMemset(mismatches_->ptr, 0, sizeof(unsigned long long)));
    count_mismatches<<<1024, 256>>>(keys_out_->ptr, ref_keys_->ptr, n, mismatches_->ptr);
    if (pairs) count_mismatches<<<1024, 256>>>(values_out_->ptr, ref_values_->ptr, n, mismatches_->ptr);
    CHECK(cudaGetLastError());
    unsigned long long bad = 0;
    CHECK(cudaMemcpy(&bad, mismatches_->ptr, sizeof(bad), cudaMemcpyDeviceToHost));
    return bad == 0;
  }

  double time_cub_sort(std::uint32_t n, bool pairs, int end_bit) {
    std::size_t bytes = 0;
    auto call = [&](void* temp) {
      const int begin_bit = 32 - end_bit;
      if (pairs)
        return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in_->ptr, keys_out_->ptr, values_in_->ptr,
                                               values_out_->ptr, n, begin_bit, 32);
      return cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in_->ptr, keys_out_->ptr, n, begin_bit, 32);
    };
    CHECK(call(nullptr));
    temp_.reserve(bytes);
    return timer_.median_ms([&] { CHECK(call(temp_.ptr)); }, opt_.warmup, opt_.runs);
  }

  double time_partition(std::uint32_t n, std::uint32_t m) {
    std::size_t bytes = 0;
    const BucketZero select{multisplit::delta_buckets<std::uint32_t>::spanning(m)};
    auto call = [&](void* temp) {
      return cub::DevicePartition::If(temp, bytes, keys_in_->ptr, keys_out_->ptr, offsets_->ptr, n, select);
    };
    CHECK(call(nullptr));
    temp_.reserve(bytes);
    return timer_.median_ms([&] { CHECK(call(temp_.ptr)); }, opt_.warmup, opt_.runs);
  }

  void table(std::uint32_t n, const std::string& functor, const std::string& kind) {
    const bool pairs = kind == "pairs";
    const double bytes_per_item = pairs ? 20.0 : 12.0;
    const double sol_rate = copy_gbps_ / bytes_per_item;  // G items / s
    const char* unit = pairs ? "Gpairs/s" : "Gkeys/s";
    std::printf("n = 2^%d, %s buckets, %s (%s; x rb = speed-up over RB-sort; sol = fraction of %.0f %s)\n",
                ceil_log2(n), functor.c_str(), kind.c_str(), unit, sol_rate, unit);
    std::printf("%6s | %-22s | %-22s | %-22s | %-14s | %-20s | %-14s | %-14s | %-14s | %s\n", "m", "direct (DMS)",
                "warp (WMS)", "block (BMS)", "sort (RB-sort)", "auto", "cub sort 32b", "cub top bits",
                "partition", "ok");
    fill_iota<<<1024, 256>>>(values_in_->ptr, n);
    CHECK(cudaGetLastError());
    if (functor == "delta") {
      fill_uniform<<<1024, 256>>>(keys_in_->ptr, n, 12345, 0);
      CHECK(cudaGetLastError());
    }
    const double full_sort_ms = time_cub_sort(n, pairs, 32);
    for (const std::uint32_t m : opt_.buckets) {
      if (functor == "identity") {
        fill_uniform<<<1024, 256>>>(keys_in_->ptr, n, 12345, m);
        CHECK(cudaGetLastError());
      }
      std::map<std::string, Record> row;
      auto rate_of = [&](double ms) { return n / (ms * 1e-3) / 1e9; };
      auto add = [&](const std::string& method, const std::string& ran, double ms, bool ok) {
        Record r;
        r.n = n;
        r.m = m;
        r.functor = functor;
        r.kind = kind;
        r.method = method;
        r.ran = ran;
        r.ms = ms;
        r.rate = rate_of(ms);
        r.sol = r.rate / sol_rate;
        r.ok = ok;
        row[method] = r;
      };
      auto run_method = [&](multisplit::Method method, const std::string& name) {
        multisplit::Method ran = method;
        double ms = 0;
        if (functor == "delta")
          ms = time_split(n, m, multisplit::delta_buckets<std::uint32_t>::spanning(m), pairs, method, &ran);
        else
          ms = time_split(n, m, multisplit::identity_buckets<std::uint32_t>(), pairs, method, &ran);
        bool ok = true;
        if (method == multisplit::Method::SortBased) {
          CHECK(cudaMemcpy(ref_keys_->ptr, keys_out_->ptr, std::size_t{n} * 4, cudaMemcpyDeviceToDevice));
          if (pairs)
            CHECK(cudaMemcpy(ref_values_->ptr, values_out_->ptr, std::size_t{n} * 4, cudaMemcpyDeviceToDevice));
        } else {
          ok = same_as_reference(n, pairs);
        }
        add(name, multisplit::to_string(ran), ms, ok);
      };
      run_method(multisplit::Method::SortBased, "sort");
      run_method(multisplit::Method::Direct, "direct");
      run_method(multisplit::Method::Warp, "warp");
      run_method(multisplit::Method::Block, "block");
      run_method(multisplit::Method::Auto, "auto");
      add("cub_sort_32bit", "cub", full_sort_ms, true);
      add("cub_sort_top_bits", "cub", time_cub_sort(n, pairs, std::max(1, ceil_log2(m))), true);
      if (m == 2 && !pairs && functor == "delta") add("cub_partition", "cub", time_partition(n, m), true);
      const double rb = row["sort"].rate;
      bool all_ok = true;
      for (auto& [name, r] : row) {
        r.vs_rb = r.rate / rb;
        all_ok = all_ok && r.ok;
        records_.push_back(r);
      }
      auto cell = [&](const std::string& name, bool with_ran) {
        if (!row.count(name)) return std::string("-");
        const Record& r = row[name];
        char buf[96];
        if (with_ran && r.ran != name)
          std::snprintf(buf, sizeof buf, "%6.1f %4.2fx %3.0f%% >%s", r.rate, r.vs_rb, 100 * r.sol, r.ran.c_str());
        else
          std::snprintf(buf, sizeof buf, "%6.1f %4.2fx %3.0f%%", r.rate, r.vs_rb, 100 * r.sol);
        return std::string(buf);
      };
      std::printf("%6u | %-22s | %-22s | %-22s | %-14s | %-20s | %-14s | %-14s | %-14s | %s\n", m,
                  cell("direct", true).c_str(), cell("warp", true).c_str(), cell("block", true).c_str(),
                  cell("sort", false).c_str(), cell("auto", true).c_str(), cell("cub_sort_32bit", false).c_str(),
                  cell("cub_sort_top_bits", false).c_str(), cell("cub_partition", false).c_str(),
                  all_ok ? "yes" : "MISMATCH");
      std::fflush(stdout);
    }
    std::printf("\n");
  }

  void write_json() const {
    nlohmann::json out;
    out["device"] = device_;
    out["copy_gbps"] = copy_gbps_;
    out["copy_ms"] = copy_ms_;
    out["runs"] = opt_.runs;
    out["warmup"] = opt_.warmup;
    nlohmann::json rows = nlohmann::json::array();
    for (const Record& r : records_) {
      rows.push_back({{"n", r.n},
                      {"buckets", r.m},
                      {"functor", r.functor},
                      {"kind", r.kind},
                      {"method", r.method},
                      {"method_ran", r.ran},
                      {"median_ms", r.ms},
                      {"g_items_per_s", r.rate},
                      {"speedup_vs_rb_sort", r.vs_rb},
                      {"speed_of_light_fraction", r.sol},
                      {"matches_rb_sort", r.ok}});
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
  std::unique_ptr<Buffer<std::uint32_t>> keys_in_, keys_out_, ref_keys_, values_in_, values_out_, ref_values_,
      offsets_;
  std::unique_ptr<Buffer<unsigned long long>> mismatches_;
  RawBuffer temp_;
  std::vector<Record> records_;
};

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  po::options_description desc("multisplit_bench options");
  desc.add_options()("help,h", "show this help")(
      "n-log2", po::value<std::vector<int>>(&opt.n_log2)->multitoken(), "input sizes as powers of two (25 28)")(
      "buckets", po::value<std::vector<std::uint32_t>>(&opt.buckets)->multitoken(),
      "bucket counts (2 4 ... 256 40 100 361 1024 4096)")(
      "functors", po::value<std::vector<std::string>>(&opt.functors)->multitoken(), "delta and/or identity")(
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
    for (const auto m : opt.buckets)
      if (m == 0 || m > 65536) throw std::invalid_argument("--buckets must be in 1..65536");
    for (const auto& f : opt.functors)
      if (f != "delta" && f != "identity") throw std::invalid_argument("--functors: delta or identity, not " + f);
    for (const auto& k : opt.kinds)
      if (k != "keys" && k != "pairs") throw std::invalid_argument("--kinds: keys or pairs, not " + k);
    if (opt.runs < 1 || opt.warmup < 0) throw std::invalid_argument("--runs >= 1, --warmup >= 0");
  } catch (const std::exception& e) {
    std::cerr << "multisplit_bench: " << e.what() << "\n" << desc << "\n";
    return 2;
  }
  try {
    Bench(opt).run();
  } catch (const std::exception& e) {
    std::cerr << "multisplit_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
