// multisplit_bench: paper-style throughput tables for every multisplit method
// against CUB, in one process (Ashkiani et al., GPU Multisplit, section 6).
//
// For n uniform random 32-bit keys (or with --keys constant all equal, every
// key in bucket 0: the skewed extreme; key-value pairs with 32-bit values),
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
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.cuh"
#include "multisplit/multisplit.cuh"

namespace {

using namespace multisplit_bench;

struct BucketZero {
  multisplit::delta_buckets<std::uint32_t> fn;
  __host__ __device__ bool operator()(std::uint32_t k) const { return fn(k) == 0; }
};

struct Options : RunOptions {
  std::vector<int> n_log2 = {25, 28};
  std::vector<std::uint32_t> buckets = {2, 4, 8, 16, 32, 64, 128, 256, 40, 100, 361, 1024, 4096};
  std::vector<std::string> functors = {"delta", "identity"};
  std::string keys = "uniform";
  std::vector<std::string> kinds = {"keys", "pairs"};
  std::vector<std::string> methods = {"direct", "warp", "block", "auto", "cub"};
};

struct Record {
  std::uint32_t n = 0, m = 0;
  std::string functor, kind, method, ran;
  double ms = 0, rate = 0, vs_rb = 0, sol = 0;
  bool ok = true;
};

class Bench {
 public:
  explicit Bench(const Options& opt) : opt_(opt) {}

  void run() {
    const cudaDeviceProp prop = device_properties();
    device_ = prop.name;
    const int max_log2 = *std::max_element(opt_.n_log2.begin(), opt_.n_log2.end());
    const std::uint32_t max_n = 1u << max_log2;
    buf_ = std::make_unique<KeyValueBuffers>(max_n);
    offsets_ = std::make_unique<DeviceBuffer<std::uint32_t>>(70000);

    const CopyBandwidth copy =
        measure_copy(timer_, buf_->keys_in.ptr, buf_->keys_out.ptr, max_n, opt_.warmup, opt_.runs);
    copy_gbps_ = copy.gbps;
    copy_ms_ = copy.ms;
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
  template <class Fn>
  double time_split(std::uint32_t n, std::uint32_t m, const Fn& fn, bool pairs, multisplit::Method method,
                    multisplit::Method* ran) {
    KeyValueBuffers& b = *buf_;
    auto call = [&](void* temp, std::size_t& bytes) {
      if (pairs)
        return multisplit::split_pairs(temp, bytes, b.keys_in.ptr, b.keys_out.ptr, b.values_in.ptr, b.values_out.ptr, n,
                                       m, fn, offsets_->ptr, 0, method, ran);
      return multisplit::split_keys(temp, bytes, b.keys_in.ptr, b.keys_out.ptr, n, m, fn, offsets_->ptr, 0, method,
                                    ran);
    };
    return time_two_phase(timer_, temp_, call, opt_.warmup, opt_.runs);
  }

  double time_cub_sort(std::uint32_t n, bool pairs, int end_bit) {
    KeyValueBuffers& b = *buf_;
    auto call = [&](void* temp, std::size_t& bytes) {
      const int begin_bit = 32 - end_bit;
      if (pairs)
        return cub::DeviceRadixSort::SortPairs(temp, bytes, b.keys_in.ptr, b.keys_out.ptr, b.values_in.ptr,
                                               b.values_out.ptr, n, begin_bit, 32);
      return cub::DeviceRadixSort::SortKeys(temp, bytes, b.keys_in.ptr, b.keys_out.ptr, n, begin_bit, 32);
    };
    return time_two_phase(timer_, temp_, call, opt_.warmup, opt_.runs);
  }

  double time_partition(std::uint32_t n, std::uint32_t m) {
    const BucketZero select{multisplit::delta_buckets<std::uint32_t>::spanning(m)};
    auto call = [&](void* temp, std::size_t& bytes) {
      return cub::DevicePartition::If(temp, bytes, buf_->keys_in.ptr, buf_->keys_out.ptr, offsets_->ptr, n, select);
    };
    return time_two_phase(timer_, temp_, call, opt_.warmup, opt_.runs);
  }

  void table(std::uint32_t n, const std::string& functor, const std::string& kind) {
    const bool pairs = kind == "pairs";
    const double bytes_per_item = pairs ? 20.0 : 12.0;
    const double sol_rate = copy_gbps_ / bytes_per_item;  // G items / s
    const char* unit = pairs ? "Gpairs/s" : "Gkeys/s";
    std::printf("n = 2^%d, %s buckets, %s%s (%s; x rb = speed-up over RB-sort; sol = fraction of %.0f %s)\n",
                ceil_log2(n), functor.c_str(), kind.c_str(), opt_.keys == "constant" ? ", constant keys" : "", unit,
                sol_rate, unit);
    std::printf("%6s | %-22s | %-22s | %-22s | %-14s | %-20s | %-14s | %-14s | %-14s | %s\n", "m", "direct (DMS)",
                "warp (WMS)", "block (BMS)", "sort (RB-sort)", "auto", "cub sort 32b", "cub top bits", "partition",
                "ok");
    fill_iota<<<1024, 256>>>(buf_->values_in.ptr, n);
    BENCH_CHECK(cudaGetLastError());
    if (functor == "delta") {
      fill_uniform<<<1024, 256>>>(buf_->keys_in.ptr, n, 12345, opt_.keys == "constant" ? 1u : 0u);
      BENCH_CHECK(cudaGetLastError());
    }
    const bool with_cub = std::find(opt_.methods.begin(), opt_.methods.end(), "cub") != opt_.methods.end();
    const double full_sort_ms = with_cub ? time_cub_sort(n, pairs, 32) : 0.0;
    for (const std::uint32_t m : opt_.buckets) {
      if (functor == "identity") {
        fill_uniform<<<1024, 256>>>(buf_->keys_in.ptr, n, 12345, opt_.keys == "constant" ? 1u : m);
        BENCH_CHECK(cudaGetLastError());
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
        if (method == multisplit::Method::SortBased)
          buf_->save_reference(n, pairs);
        else
          ok = buf_->output_matches_reference(n, pairs);
        add(name, multisplit::to_string(ran), ms, ok);
      };
      auto wanted = [&](const char* name) {
        return std::find(opt_.methods.begin(), opt_.methods.end(), name) != opt_.methods.end();
      };
      run_method(multisplit::Method::SortBased, "sort");  // the reference every other output is checked against
      if (wanted("direct")) run_method(multisplit::Method::Direct, "direct");
      if (wanted("warp")) run_method(multisplit::Method::Warp, "warp");
      if (wanted("block")) run_method(multisplit::Method::Block, "block");
      if (wanted("auto")) run_method(multisplit::Method::Auto, "auto");
      if (wanted("cub")) {
        add("cub_sort_32bit", "cub", full_sort_ms, true);
        add("cub_sort_top_bits", "cub", time_cub_sort(n, pairs, std::max(1, ceil_log2(m))), true);
        if (m == 2 && !pairs && functor == "delta") add("cub_partition", "cub", time_partition(n, m), true);
      }
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
    nlohmann::json out = json_header(device_, opt_);
    out["copy_gbps"] = copy_gbps_;
    out["copy_ms"] = copy_ms_;
    write_results_json(opt_.json_path, out, records_, [](const Record& r) -> nlohmann::json {
      return {{"n", r.n},
              {"buckets", r.m},
              {"functor", r.functor},
              {"kind", r.kind},
              {"method", r.method},
              {"method_ran", r.ran},
              {"median_ms", r.ms},
              {"g_items_per_s", r.rate},
              {"speedup_vs_rb_sort", r.vs_rb},
              {"speed_of_light_fraction", r.sol},
              {"matches_rb_sort", r.ok}};
    });
  }

  Options opt_;
  Timer timer_;
  std::string device_;
  double copy_gbps_ = 0, copy_ms_ = 0;
  std::unique_ptr<KeyValueBuffers> buf_;
  std::unique_ptr<DeviceBuffer<std::uint32_t>> offsets_;
  TempStorage temp_;
  std::vector<Record> records_;
};

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  po::options_description desc("multisplit_bench options");
  desc.add_options()("help,h", "show this help")("n-log2", po::value<std::vector<int>>(&opt.n_log2)->multitoken(),
                                                 "input sizes as powers of two (25 28)")(
      "buckets", po::value<std::vector<std::uint32_t>>(&opt.buckets)->multitoken(),
      "bucket counts (2 4 ... 256 40 100 361 1024 4096)")(
      "functors", po::value<std::vector<std::string>>(&opt.functors)->multitoken(), "delta and/or identity")(
      "kinds", po::value<std::vector<std::string>>(&opt.kinds)->multitoken(), "keys and/or pairs")(
      "keys", po::value<std::string>(&opt.keys), "uniform (default) or constant (every key in bucket 0)")(
      "methods", po::value<std::vector<std::string>>(&opt.methods)->multitoken(),
      "methods to time besides RB-sort, the reference: direct warp block auto cub (all)");
  add_run_options(desc, opt);
  auto validate = [&] {
    for (const int lg : opt.n_log2) require_n_log2(lg);
    require_buckets(opt.buckets);
    require_one_of("--functors", opt.functors, {"delta", "identity"});
    require_one_of("--kinds", opt.kinds, {"keys", "pairs"});
    require_one_of("--keys", std::vector<std::string>{opt.keys}, {"uniform", "constant"});
    require_one_of("--methods", opt.methods, {"direct", "warp", "block", "auto", "cub"});
    require_run_options(opt);
  };
  return bench_main("multisplit_bench", argc, argv, desc, validate, [&] { Bench(opt).run(); });
}
