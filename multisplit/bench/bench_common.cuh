// bench_common.cuh: the harness shared by the four multisplit benchmarks
// (multisplit_bench, sort_bench, histogram_bench, reduce_bench), so that each
// benchmark file holds only what it measures and how it prints it (the GAP
// benchmark suite's shape: one shared harness for runs, timing and options;
// Beamer et al., The GAP Benchmark Suite, arXiv:1508.03619).
//
// What lives here is what the four had word for word: the CUDA error check,
// device buffers and the two-phase temporary storage, the hash-based fills,
// the on-device comparison of outputs, the CUDA-event timer (warm-up, then
// the median of the timed runs), the device-to-device copy measurement that
// sets the speed of light, the --runs/--warmup/--json options, the option
// checks and the main() boilerplate (exit 2: bad options; 1: failed run), and
// the JSON file writer. Every benchmark is its own executable, so the kernels
// are templates (no unused-function warnings, no ODR trouble) and the host
// helpers are inline.
#pragma once

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace multisplit_bench {

namespace po = boost::program_options;

inline void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

// Throws std::runtime_error naming the failed call and CUDA's reason.
#define BENCH_CHECK(call) ::multisplit_bench::check((call), #call)

// count elements of T in device memory (at least one element is allocated, so
// ptr is valid even for count 0).
template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  explicit DeviceBuffer(std::size_t n) : count(n) {
    BENCH_CHECK(cudaMalloc(&ptr, std::max<std::size_t>(n, 1) * sizeof(T)));
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// Temporary storage for two-phase (CUB-style) calls: grows, never shrinks, so
// one allocation serves every measurement and none happens while timing.
struct TempStorage {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  TempStorage() = default;
  TempStorage(const TempStorage&) = delete;
  TempStorage& operator=(const TempStorage&) = delete;
  void reserve(std::size_t want) {
    if (want <= bytes) return;
    cudaFree(ptr);
    ptr = nullptr;
    BENCH_CHECK(cudaMalloc(&ptr, want));
    bytes = want;
  }
  ~TempStorage() { cudaFree(ptr); }
};

template <class T>
std::vector<T> download(const T* device_ptr, std::size_t count) {
  std::vector<T> host(count);
  BENCH_CHECK(cudaMemcpy(host.data(), device_ptr, count * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

// Smallest b with 2^b >= m (0 for m <= 1).
inline int ceil_log2(std::uint32_t m) {
  int b = 0;
  while ((1ull << b) < m) ++b;
  return b;
}

// A 32-bit integer hash (two xor-shift-multiply rounds, the "lowbias32"
// constants of Chris Wellons' hash prospector): index i -> mix(i * golden + seed)
// gives reproducible, well-spread random inputs without a random-number state.
__device__ __forceinline__ std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}

// keys[i] = uniform random 32-bit value, or that value % modulo (modulo != 0).
template <class Key>
__global__ void fill_uniform(Key* keys, std::uint32_t n, std::uint32_t seed, std::uint32_t modulo) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t k = mix(i * 2654435761u + seed);
    keys[i] = static_cast<Key>(modulo != 0 ? k % modulo : k);
  }
}

// values[i] = i
template <class Value>
__global__ void fill_iota(Value* values, std::uint32_t n) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    values[i] = static_cast<Value>(i);
}

// *mismatches += number of i < n with a[i] != b[i]
template <class T>
__global__ void count_mismatches(const T* a, const T* b, std::uint32_t n, unsigned long long* mismatches) {
  unsigned int local = 0;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    local += a[i] != b[i];
  if (local != 0) atomicAdd(mismatches, static_cast<unsigned long long>(local));
}

// Input, output and reference copies of n 32-bit keys and values, for the
// benchmarks that permute keys (and values) and check every method's output
// against a reference method's on the device.
struct KeyValueBuffers {
  DeviceBuffer<std::uint32_t> keys_in, keys_out, ref_keys, values_in, values_out, ref_values;
  DeviceBuffer<unsigned long long> mismatches{1};

  explicit KeyValueBuffers(std::size_t n)
      : keys_in(n), keys_out(n), ref_keys(n), values_in(n), values_out(n), ref_values(n) {}

  // The current output becomes the reference (values too where pairs).
  void save_reference(std::uint32_t n, bool pairs) {
    BENCH_CHECK(cudaMemcpy(ref_keys.ptr, keys_out.ptr, std::size_t{n} * 4, cudaMemcpyDeviceToDevice));
    if (pairs) BENCH_CHECK(cudaMemcpy(ref_values.ptr, values_out.ptr, std::size_t{n} * 4, cudaMemcpyDeviceToDevice));
  }

  // Whether the first n output keys (and values, where pairs) equal the reference.
  bool output_matches_reference(std::uint32_t n, bool pairs) {
    BENCH_CHECK(cudaMemset(mismatches.ptr, 0, sizeof(unsigned long long)));
    count_mismatches<<<1024, 256>>>(keys_out.ptr, ref_keys.ptr, n, mismatches.ptr);
    if (pairs) count_mismatches<<<1024, 256>>>(values_out.ptr, ref_values.ptr, n, mismatches.ptr);
    BENCH_CHECK(cudaGetLastError());
    unsigned long long bad = 0;
    BENCH_CHECK(cudaMemcpy(&bad, mismatches.ptr, sizeof(bad), cudaMemcpyDeviceToHost));
    return bad == 0;
  }
};

class Timer {
 public:
  Timer() {
    BENCH_CHECK(cudaEventCreate(&start_));
    BENCH_CHECK(cudaEventCreate(&stop_));
  }
  ~Timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // Median milliseconds of `runs` timed calls after `warmup` untimed ones.
  // Each timed call is bracketed by its own pair of events on the default
  // stream and waited for, so a run's time is its own, not an average; the
  // median (mean of the middle two for an even count) ignores the odd
  // outlier (clock ramp-up, a context switch).
  double median_ms(const std::function<void()>& call, int warmup, int runs) {
    for (int i = 0; i < warmup; ++i) call();
    BENCH_CHECK(cudaDeviceSynchronize());
    std::vector<float> ms(static_cast<std::size_t>(runs));
    for (auto& t : ms) {
      BENCH_CHECK(cudaEventRecord(start_));
      call();
      BENCH_CHECK(cudaEventRecord(stop_));
      BENCH_CHECK(cudaEventSynchronize(stop_));
      BENCH_CHECK(cudaEventElapsedTime(&t, start_, stop_));
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t mid = ms.size() / 2;
    return ms.size() % 2 ? ms[mid] : 0.5 * (ms[mid - 1] + ms[mid]);
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

// Times a two-phase call `call(temp, bytes) -> cudaError_t`: the size query
// and the allocation happen before, untimed.
template <class Call>
double time_two_phase(Timer& timer, TempStorage& temp, const Call& call, int warmup, int runs) {
  std::size_t bytes = 0;
  BENCH_CHECK(call(nullptr, bytes));
  temp.reserve(bytes);
  return timer.median_ms([&] { BENCH_CHECK(call(temp.ptr, bytes)); }, warmup, runs);
}

inline cudaDeviceProp device_properties(int device = 0) {
  cudaDeviceProp prop{};
  BENCH_CHECK(cudaGetDeviceProperties(&prop, device));
  return prop;
}

struct CopyBandwidth {
  double ms = 0;    // median time of one n * 4-byte device-to-device copy
  double gbps = 0;  // bytes read + written per second, / 1e9
};

// The speed of light: the device-to-device copy bandwidth of n random 32-bit
// words (src is filled first; dst is overwritten).
inline CopyBandwidth measure_copy(Timer& timer, std::uint32_t* src, std::uint32_t* dst, std::uint32_t n, int warmup,
                                  int runs) {
  fill_uniform<<<1024, 256>>>(src, n, 1, 0);
  BENCH_CHECK(cudaGetLastError());
  CopyBandwidth copy;
  copy.ms = timer.median_ms(
      [&] { BENCH_CHECK(cudaMemcpyAsync(dst, src, std::size_t{n} * 4, cudaMemcpyDeviceToDevice)); }, warmup, runs);
  copy.gbps = 2.0 * n * 4 / (copy.ms * 1e-3) / 1e9;
  return copy;
}

// The options every benchmark takes, last in its --help.
struct RunOptions {
  int runs = 20;
  int warmup = 3;
  std::string json_path;
};

inline void add_run_options(po::options_description& desc, RunOptions& opt) {
  desc.add_options()("runs", po::value<int>(&opt.runs),
                     "timed runs per measurement, median reported (>= 20 recommended)")(
      "warmup", po::value<int>(&opt.warmup), "untimed runs first")("json", po::value<std::string>(&opt.json_path),
                                                                   "also write all results to this JSON file");
}

inline void require_n_log2(int n_log2) {
  if (n_log2 < 10 || n_log2 > 30) throw std::invalid_argument("--n-log2 must be in 10..30");
}

inline void require_buckets(const std::vector<std::uint32_t>& buckets) {
  for (const auto m : buckets)
    if (m == 0 || m > 65536) throw std::invalid_argument("--buckets must be in 1..65536");
}

// Every value of `option` is one of `allowed`; the message lists them as
// "a, b or c".
inline void require_one_of(const char* option, const std::vector<std::string>& values,
                           std::initializer_list<const char*> allowed) {
  for (const auto& v : values) {
    if (std::find(allowed.begin(), allowed.end(), v) != allowed.end()) continue;
    std::string list;
    std::size_t i = 0;
    for (const char* a : allowed) {
      list += i == 0 ? "" : (i + 1 == allowed.size() ? " or " : ", ");
      list += a;
      ++i;
    }
    throw std::invalid_argument(std::string(option) + ": " + list + ", not " + v);
  }
}

inline void require_run_options(const RunOptions& opt) {
  if (opt.runs < 1 || opt.warmup < 0) throw std::invalid_argument("--runs >= 1, --warmup >= 0");
}

// The options of the benchmarks over one input size, a list of bucket counts
// and a list of input distributions (histogram_bench, reduce_bench).
struct SweepOptions : RunOptions {
  int n_log2 = 25;
  std::vector<std::uint32_t> buckets = {2, 4, 8, 16, 32, 64, 128, 256};
  std::vector<std::string> dists;
};

// --n-log2, --buckets and --dists, then the run options; `items` names what
// 2^n-log2 counts ("samples", "pairs").
inline void add_sweep_options(po::options_description& desc, SweepOptions& opt, const std::string& items,
                              const char* dists_help) {
  desc.add_options()("n-log2", po::value<int>(&opt.n_log2), (items + " = 2^this (25)").c_str())(
      "buckets", po::value<std::vector<std::uint32_t>>(&opt.buckets)->multitoken(),
      "bucket counts, 1..65536 (2 4 8 16 32 64 128 256)")(
      "dists", po::value<std::vector<std::string>>(&opt.dists)->multitoken(), dists_help);
  add_run_options(desc, opt);
}

inline void require_sweep_options(const SweepOptions& opt, std::initializer_list<const char*> dists) {
  require_n_log2(opt.n_log2);
  require_buckets(opt.buckets);
  require_one_of("--dists", opt.dists, dists);
  require_run_options(opt);
}

// main() of every benchmark: parses `desc` (--help prints it, exit 0), runs
// `validate` (throws std::invalid_argument: message and help on stderr, exit
// 2), then `run` (any exception: message on stderr, exit 1).
template <class Validate, class Run>
int bench_main(const char* name, int argc, char** argv, const po::options_description& desc, Validate validate,
               Run run) {
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, desc), vm);
    if (vm.count("help")) {
      std::cout << desc << "\n";
      return 0;
    }
    po::notify(vm);
    validate();
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << "\n" << desc << "\n";
    return 2;
  }
  try {
    run();
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}

// The fields every results file starts with.
inline nlohmann::json json_header(const std::string& device, const RunOptions& opt) {
  nlohmann::json out;
  out["device"] = device;
  out["runs"] = opt.runs;
  out["warmup"] = opt.warmup;
  return out;
}

inline void write_json_file(const std::string& path, const nlohmann::json& out) {
  std::ofstream file(path);
  if (!file) throw std::runtime_error("cannot write " + path);
  file << out.dump(1) << "\n";
}

// Writes `out` plus "results": one row(record) per record, in order.
template <class Record, class Row>
void write_results_json(const std::string& path, nlohmann::json out, const std::vector<Record>& records,
                        const Row& row) {
  nlohmann::json rows = nlohmann::json::array();
  for (const Record& r : records) rows.push_back(row(r));
  out["results"] = rows;
  write_json_file(path, out);
}

}  // namespace multisplit_bench
