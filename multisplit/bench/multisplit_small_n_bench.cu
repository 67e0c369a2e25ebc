// multisplit_small_n_bench: latency of small splits (target:
// 2^16 keys into 10 buckets in <= 8 us end to end).
//
// For n = 2^10 .. 2^22 uniform random 32-bit keys (or pairs with 32-bit
// values), delta buckets (`spanning(m)`), m = 10 by default, it times
// stream-ordered, back-to-back calls: CUDA events around a batch of --batch
// calls (after one untimed warm-up batch), median over --batches batches,
// reported as microseconds per split, for
//   auto       Method::Auto (the column says which method ran),
//   small-n    Method::SmallN where it applies at this n ("-" where it hands
//              over: n past the device's co-resident capacity),
//   block      Method::Block (the three-phase BMS: pre-scan, scan, offsets,
//              post-scan launches),
//   auto dc    Method::Auto with a device-side count (d_num_items = n,
//              max_items = n),
//   cub top    cub::DeviceRadixSort::SortKeys / SortPairs over the top
//              ceil(log2 m) bits (as multisplit_bench's "CUB sort top bits");
//   in-kernel  multisplit::GridMultisplit (256 threads x 8 items, one block
//              per SM, at most one per tile) inside one cooperative kernel
//              that runs the batch's splits one after another: a split's cost
//              where the caller's kernel is already running (no launch).
// Every multisplit output is checked against Block's on the device ("ok").
// The host-side cost of a call counts too: if the host cannot issue calls
// as fast as the GPU runs them, the batch time shows it.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.cuh"
#include "multisplit/grid_multisplit.cuh"
#include "multisplit/multisplit.cuh"

namespace {

using namespace multisplit_bench;

constexpr int kGridThreads = 256;
constexpr int kGridItems = 8;
constexpr int kGridMaxBuckets = 256;
template <class Value>
using GridSplit = multisplit::GridMultisplit<std::uint32_t, Value, kGridThreads, kGridItems, kGridMaxBuckets>;

// `reps` splits of the same input, back to back, by the whole grid.
template <class Value>
__global__ void __launch_bounds__(kGridThreads) grid_split_kernel(const std::uint32_t* keys_in, const Value* values_in,
                                                                  std::uint32_t* keys_out, Value* values_out,
                                                                  const std::uint32_t* d_n, std::uint32_t m,
                                                                  multisplit::delta_buckets<std::uint32_t> fn,
                                                                  std::uint32_t* offsets, std::uint32_t* scratch,
                                                                  int reps) {
  __shared__ typename GridSplit<Value>::TempStorage temp;
  GridSplit<Value> split(temp, scratch);
  const std::uint32_t n = *d_n;
  for (int r = 0; r < reps; ++r) {
    if constexpr (GridSplit<Value>::HAS_VALUES) {
      split.Split(keys_in, values_in, keys_out, values_out, n, fn, m, offsets);
    } else {
      split.Split(keys_in, keys_out, n, fn, m, offsets);
    }
  }
}

struct Options : RunOptions {
  std::vector<int> n_log2 = {10, 12, 14, 16, 18, 20, 22};
  std::vector<std::uint32_t> buckets = {10};
  std::vector<std::string> kinds = {"keys"};
  int batch = 100;
  int batches = 7;
};

struct Record {
  std::uint32_t n = 0, m = 0;
  std::string kind, method, ran;
  double us = 0;  // per split; < 0: not applicable
  bool ok = true;
};

class Bench {
 public:
  explicit Bench(const Options& opt) : opt_(opt) {
    BENCH_CHECK(cudaEventCreate(&start_));
    BENCH_CHECK(cudaEventCreate(&stop_));
    BENCH_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~Bench() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaStreamDestroy(stream_);
  }

  void run() {
    const cudaDeviceProp prop = device_properties();
    device_ = prop.name;
    const int max_log2 = *std::max_element(opt_.n_log2.begin(), opt_.n_log2.end());
    const std::uint32_t max_n = 1u << max_log2;
    buf_ = std::make_unique<KeyValueBuffers>(max_n);
    offsets_ = std::make_unique<DeviceBuffer<std::uint32_t>>(70000);
    count_ = std::make_unique<DeviceBuffer<std::uint32_t>>(1);
    sms_ = static_cast<std::uint32_t>(prop.multiProcessorCount);
    std::printf("device: %s, %d SMs; small-n latency, us per split (batches of %d back-to-back calls on one "
                "stream, median of %d batches)\n\n",
                prop.name, prop.multiProcessorCount, opt_.batch, opt_.batches);
    for (const auto& kind : opt_.kinds) table(kind);
    if (!opt_.json_path.empty()) write_json();
  }

 private:
  // Microseconds per call: events around `calls` calls (default: a batch),
  // median of batches.
  template <class Call>
  double time_batches(const Call& call, int calls = 0) {
    if (calls == 0) calls = opt_.batch;
    for (int i = 0; i < calls; ++i) BENCH_CHECK(call());  // warm-up batch
    BENCH_CHECK(cudaStreamSynchronize(stream_));
    std::vector<float> ms(static_cast<std::size_t>(opt_.batches));
    for (auto& t : ms) {
      BENCH_CHECK(cudaEventRecord(start_, stream_));
      for (int i = 0; i < calls; ++i) BENCH_CHECK(call());
      BENCH_CHECK(cudaEventRecord(stop_, stream_));
      BENCH_CHECK(cudaEventSynchronize(stop_));
      BENCH_CHECK(cudaEventElapsedTime(&t, start_, stop_));
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t mid = ms.size() / 2;
    const double median = ms.size() % 2 ? ms[mid] : 0.5 * (ms[mid - 1] + ms[mid]);
    return median * 1000.0 / calls;
  }

  double time_split(std::uint32_t n, std::uint32_t m, bool pairs, multisplit::Method method, bool device_count,
                    multisplit::Method* ran) {
    KeyValueBuffers& b = *buf_;
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    std::size_t bytes = 0;
    auto call = [&](void* temp, multisplit::Method* report) {
      if (device_count) {
        if (pairs)
          return multisplit::split_pairs(temp, bytes, b.keys_in.ptr, b.keys_out.ptr, b.values_in.ptr,
                                         b.values_out.ptr, count_->ptr, n, m, fn, offsets_->ptr, stream_, method,
                                         report);
        return multisplit::split_keys(temp, bytes, b.keys_in.ptr, b.keys_out.ptr, count_->ptr, n, m, fn,
                                      offsets_->ptr, stream_, method, report);
      }
      if (pairs)
        return multisplit::split_pairs(temp, bytes, b.keys_in.ptr, b.keys_out.ptr, b.values_in.ptr, b.values_out.ptr,
                                       n, m, fn, offsets_->ptr, stream_, method, report);
      return multisplit::split_keys(temp, bytes, b.keys_in.ptr, b.keys_out.ptr, n, m, fn, offsets_->ptr, stream_,
                                    method, report);
    };
    BENCH_CHECK(call(nullptr, ran));
    temp_.reserve(bytes);
    return time_batches([&] { return call(temp_.ptr, nullptr); });
  }

  // Microseconds per split inside one cooperative launch of `batch` splits.
  double time_grid_split(std::uint32_t n, std::uint32_t m, bool pairs) {
    KeyValueBuffers& b = *buf_;
    const auto fn = multisplit::delta_buckets<std::uint32_t>::spanning(m);
    const std::uint32_t tiles = (n + GridSplit<std::uint32_t>::TILE_ITEMS - 1) / GridSplit<std::uint32_t>::TILE_ITEMS;
    const int blocks = static_cast<int>(std::max<std::uint32_t>(1, std::min<std::uint32_t>(sms_, tiles)));
    scratch_.reserve(GridSplit<std::uint32_t>::ScratchWords(static_cast<std::uint32_t>(blocks)) * 4);
    std::uint32_t* scratch = blocks > 1 ? static_cast<std::uint32_t*>(scratch_.ptr) : nullptr;
    const std::uint32_t* d_n = count_->ptr;
    std::uint32_t* offsets = offsets_->ptr;
    const int reps = opt_.batch;
    auto launch = [&](auto kernel, auto* values_in, auto* values_out) {
      const std::uint32_t* keys_in = b.keys_in.ptr;
      std::uint32_t* keys_out = b.keys_out.ptr;
      std::uint32_t mm = m;
      auto f = fn;
      int r = reps;
      void* args[] = {&keys_in, &values_in, &keys_out, &values_out, &d_n, &mm, &f, &offsets, &scratch, &r};
      return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(blocks), dim3(kGridThreads), args,
                                         0, stream_);
    };
    const auto call = [&] {
      if (pairs) {
        const std::uint32_t* vi = b.values_in.ptr;
        std::uint32_t* vo = b.values_out.ptr;
        return launch(grid_split_kernel<std::uint32_t>, vi, vo);
      }
      const cub::NullType* vi = nullptr;
      cub::NullType* vo = nullptr;
      return launch(grid_split_kernel<cub::NullType>, vi, vo);
    };
    return time_batches(call, 1) / reps;  // one launch holds the batch's splits
  }

  double time_cub_sort(std::uint32_t n, bool pairs, int end_bit) {
    KeyValueBuffers& b = *buf_;
    const int begin_bit = 32 - end_bit;
    std::size_t bytes = 0;
    auto call = [&](void* temp) {
      if (pairs)
        return cub::DeviceRadixSort::SortPairs(temp, bytes, b.keys_in.ptr, b.keys_out.ptr, b.values_in.ptr,
                                               b.values_out.ptr, n, begin_bit, 32, stream_);
      return cub::DeviceRadixSort::SortKeys(temp, bytes, b.keys_in.ptr, b.keys_out.ptr, n, begin_bit, 32, stream_);
    };
    BENCH_CHECK(call(nullptr));
    temp_.reserve(bytes);
    return time_batches([&] { return call(temp_.ptr); });
  }

  void table(const std::string& kind) {
    const bool pairs = kind == "pairs";
    std::printf("%s, delta buckets, us per split (auto: method that ran)\n\n", kind.c_str());
    std::printf("| n | m | auto | small-n | block | auto, device count | cub top bits | in-kernel (grid) | ok |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    for (const int lg : opt_.n_log2) {
      const std::uint32_t n = 1u << lg;
      fill_uniform<<<1024, 256>>>(buf_->keys_in.ptr, n, 12345, 0);
      fill_iota<<<1024, 256>>>(buf_->values_in.ptr, n);
      BENCH_CHECK(cudaGetLastError());
      BENCH_CHECK(cudaMemcpy(count_->ptr, &n, sizeof(n), cudaMemcpyHostToDevice));
      BENCH_CHECK(cudaDeviceSynchronize());
      for (const std::uint32_t m : opt_.buckets) {
        auto add = [&](const std::string& method, multisplit::Method ran, double us, bool ok) {
          Record r;
          r.n = n;
          r.m = m;
          r.kind = kind;
          r.method = method;
          r.ran = multisplit::to_string(ran);
          r.us = us;
          r.ok = ok;
          records_.push_back(r);
          return r;
        };
        multisplit::Method ran = multisplit::Method::Block;
        const double block_us = time_split(n, m, pairs, multisplit::Method::Block, false, &ran);
        BENCH_CHECK(cudaStreamSynchronize(stream_));
        buf_->save_reference(n, pairs);
        const Record block = add("block", ran, block_us, true);

        auto measured = [&](const std::string& name, multisplit::Method method, bool device_count) {
          multisplit::Method used = method;
          const double us = time_split(n, m, pairs, method, device_count, &used);
          BENCH_CHECK(cudaStreamSynchronize(stream_));
          return add(name, used, us, buf_->output_matches_reference(n, pairs));
        };
        const Record automatic = measured("auto", multisplit::Method::Auto, false);
        multisplit::Method small_ran = multisplit::Method::Block;
        BENCH_CHECK(multisplit::method_for<std::uint32_t>(
            multisplit::Method::SmallN, n, m, multisplit::delta_buckets<std::uint32_t>::spanning(m), &small_ran));
        Record small;
        small.us = -1;
        if (small_ran == multisplit::Method::SmallN) small = measured("small_n", multisplit::Method::SmallN, false);
        const Record dc = measured("auto_device_count", multisplit::Method::Auto, true);
        const Record cub = add("cub_sort_top_bits", multisplit::Method::Auto,
                               time_cub_sort(n, pairs, std::max(1, ceil_log2(m))), true);
        const double grid_us = time_grid_split(n, m, pairs);
        BENCH_CHECK(cudaStreamSynchronize(stream_));
        const Record grid = add("grid_in_kernel", multisplit::Method::Auto, grid_us,
                                m <= static_cast<std::uint32_t>(kGridMaxBuckets) &&
                                    buf_->output_matches_reference(n, pairs));
        records_.back().ran = "GridMultisplit";
        auto cell = [](const Record& r, bool with_ran) {
          if (r.us < 0) return std::string("-");
          char text[64];
          if (with_ran)
            std::snprintf(text, sizeof text, "%.1f (%s)", r.us, r.ran.c_str());
          else
            std::snprintf(text, sizeof text, "%.1f", r.us);
          return std::string(text);
        };
        const bool ok = automatic.ok && dc.ok && (small.us < 0 || small.ok) && grid.ok;
        std::printf("| 2^%d | %u | %s | %s | %s | %s | %s | %s | %s |\n", lg, m, cell(automatic, true).c_str(),
                    cell(small, false).c_str(), cell(block, false).c_str(), cell(dc, true).c_str(),
                    cell(cub, false).c_str(), cell(grid, false).c_str(), ok ? "yes" : "MISMATCH");
        std::fflush(stdout);
      }
    }
    std::printf("\n");
  }

  void write_json() const {
    nlohmann::json out = json_header(device_, opt_);
    out["batch"] = opt_.batch;
    out["batches"] = opt_.batches;
    write_results_json(opt_.json_path, out, records_, [](const Record& r) -> nlohmann::json {
      return {{"n", r.n},           {"buckets", r.m},       {"kind", r.kind},
              {"method", r.method}, {"method_ran", r.ran},  {"us_per_split", r.us},
              {"matches_block", r.ok}};
    });
  }

  Options opt_;
  cudaEvent_t start_{}, stop_{};
  cudaStream_t stream_{};
  std::string device_;
  std::unique_ptr<KeyValueBuffers> buf_;
  std::unique_ptr<DeviceBuffer<std::uint32_t>> offsets_, count_;
  TempStorage temp_, scratch_;
  std::uint32_t sms_ = 0;
  std::vector<Record> records_;
};

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  po::options_description desc("multisplit_small_n_bench options");
  desc.add_options()("help,h", "show this help")("n-log2", po::value<std::vector<int>>(&opt.n_log2)->multitoken(),
                                                 "input sizes as powers of two (10 12 14 16 18 20 22)")(
      "buckets", po::value<std::vector<std::uint32_t>>(&opt.buckets)->multitoken(), "bucket counts (10)")(
      "kinds", po::value<std::vector<std::string>>(&opt.kinds)->multitoken(), "keys and/or pairs (keys)")(
      "batch", po::value<int>(&opt.batch), "back-to-back calls per timed batch (100)")(
      "batches", po::value<int>(&opt.batches), "timed batches, median reported (7)");
  add_run_options(desc, opt);
  auto validate = [&] {
    for (const int lg : opt.n_log2) require_n_log2(lg);
    require_buckets(opt.buckets);
    require_one_of("--kinds", opt.kinds, {"keys", "pairs"});
    require_run_options(opt);
    if (opt.batch < 1 || opt.batches < 1) throw std::invalid_argument("--batch >= 1, --batches >= 1");
  };
  return bench_main("multisplit_small_n_bench", argc, argv, desc, validate, [&] { Bench(opt).run(); });
}
