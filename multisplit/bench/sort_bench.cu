// sort_bench: the multisplit radix sort (multisplit/sort.cuh) against
// cub::DeviceRadixSort::SortKeys / SortPairs in the same process
// (Ashkiani et al., GPU Multisplit, section 6.3, compared multisplit-sort
// with CUB's radix sort the same way).
//
// For n uniform random 32-bit keys (and pairs with 32-bit values), all 32
// bits, it times CUB and, for every digit width r asked for (--radix-bits):
//   block    : the library's pre-scan and BMS post-scan (counting_prescan.cuh,
//              block_postscan.cuh) with the library's own tiles for each
//              pass's bucket count (what the default runs at its r)
//   block-tN : the same with one fixed warp-ranked BMS tile of N keys per
//              thread in every pass, chunks of consecutive tiles (16; 24
//              and 32 for r >= 6)
//   warp     : WMS post-scan (r <= 5 only: WMS keeps per-warp tables and
//              slows down quickly past 32 buckets)
// and the public sort_keys / sort_pairs ("default"). Times are CUDA events
// around each call after --warmup untimed calls, median of --runs. "vs CUB"
// is the rate divided by CUB's. "pass GB/s" is the traffic model of the
// three-phase multisplit, 12 B per key per pass (read by the pre-scan, read
// and written by the post-scan; 20 B per pair), over the time; the
// device-to-device copy bandwidth measured in the same run bounds it.
// Every output is compared with CUB's on the device (column "ok").
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_common.cuh"
#include "multisplit/sort.cuh"

namespace {

using namespace multisplit_bench;
using multisplit::Method;
using multisplit::detail::SortTuning;

struct Options : RunOptions {
  std::vector<int> n_log2 = {25, 28};
  std::vector<int> radix_bits = {4, 5, 6, 7, 8};
  std::vector<std::string> kinds = {"keys", "pairs"};
};

struct Variant {
  std::string name;  // block, block-t16, block-t24, block-t32, warp, default
  int r = 0;         // 0: the default's choice
  bool is_default = false;
  SortTuning tuning;
  int block_items = multisplit::detail::kLibraryBlockItems;  // fixed BMS tile: keys per thread (256 threads)
};

// The fixed BMS tile sizes sort_bench can run (each one a kernel instantiation).
constexpr int kBlockItemsChoices[] = {16, 24, 32};

template <class Value>
cudaError_t run_tuned(const Variant& v, void* temp, std::size_t& bytes, const std::uint32_t* k_in, std::uint32_t* k_out,
                      const Value* v_in, Value* v_out, std::uint32_t n) {
  using multisplit::detail::radix_sort;
  switch (v.block_items) {
    case 24:
      return radix_sort<std::uint32_t, Value, 24>(temp, bytes, k_in, k_out, v_in, v_out, n, 0, 32, 0, v.tuning);
    case 32:
      return radix_sort<std::uint32_t, Value, 32>(temp, bytes, k_in, k_out, v_in, v_out, n, 0, 32, 0, v.tuning);
    case 16:
      return radix_sort<std::uint32_t, Value, 16>(temp, bytes, k_in, k_out, v_in, v_out, n, 0, 32, 0, v.tuning);
    default:
      return radix_sort<std::uint32_t, Value>(temp, bytes, k_in, k_out, v_in, v_out, n, 0, 32, 0, v.tuning);
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
    const cudaDeviceProp prop = device_properties();
    device_ = prop.name;
    const std::uint32_t max_n = 1u << *std::max_element(opt_.n_log2.begin(), opt_.n_log2.end());
    buf_ = std::make_unique<KeyValueBuffers>(max_n);

    copy_gbps_ = measure_copy(timer_, buf_->keys_in.ptr, buf_->keys_out.ptr, max_n, opt_.warmup, opt_.runs).gbps;
    BENCH_CHECK((multisplit::detail::wide_pair_passes<std::uint32_t, std::uint32_t>(wide_pairs_)));
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
      variants.push_back({"block", r, false, block});
      variants.push_back({"block-t16", r, false, block, 16});
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
    }
    for (const int lg : opt_.n_log2)
      for (const auto& kind : opt_.kinds) table(1u << lg, kind == "pairs", variants);
    if (!opt_.json_path.empty()) write_json();
  }

 private:
  // Times `call(temp, bytes)` (a two-phase CUB-style call).
  double time_two_phase(const std::function<cudaError_t(void*, std::size_t&)>& call) {
    return multisplit_bench::time_two_phase(timer_, temp_, call, opt_.warmup, opt_.runs);
  }

  void table(std::uint32_t n, bool pairs, const std::vector<Variant>& variants) {
    const std::string kind = pairs ? "pairs" : "keys";
    const char* unit = pairs ? "Gpairs/s" : "Gkeys/s";
    const double bytes_per_pass = pairs ? 20.0 : 12.0;
    fill_uniform<<<1024, 256>>>(buf_->keys_in.ptr, n, 12345, 0);
    fill_iota<<<1024, 256>>>(buf_->values_in.ptr, n);
    BENCH_CHECK(cudaGetLastError());
    std::uint32_t* k_in = buf_->keys_in.ptr;
    std::uint32_t* k_out = buf_->keys_out.ptr;
    std::uint32_t* v_in = buf_->values_in.ptr;
    std::uint32_t* v_out = buf_->values_out.ptr;

    const double cub_ms = time_two_phase([&](void* temp, std::size_t& bytes) {
      if (pairs) return cub::DeviceRadixSort::SortPairs(temp, bytes, k_in, k_out, v_in, v_out, static_cast<int>(n));
      return cub::DeviceRadixSort::SortKeys(temp, bytes, k_in, k_out, static_cast<int>(n));
    });
    buf_->save_reference(n, pairs);
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
      BENCH_CHECK(cudaMemset(k_out, 0xA5, std::size_t{n} * 4));
      if (pairs) BENCH_CHECK(cudaMemset(v_out, 0xA5, std::size_t{n} * 4));
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
      const SortTuning default_tuning =
          pairs ? multisplit::detail::default_sort_tuning<std::uint32_t, std::uint32_t>(n, wide_pairs_)
                : multisplit::detail::default_sort_tuning<std::uint32_t, NullValue>(n, false);
      const SortTuning tuning = v.is_default ? default_tuning : v.tuning;
      const int default_items =
          pairs ? multisplit::detail::default_block_items<std::uint32_t, std::uint32_t>(n, wide_pairs_)
                : multisplit::detail::default_block_items<std::uint32_t, NullValue>(n, false);
      const std::string default_name =
          default_items == multisplit::detail::kLibraryBlockItems ? "block" : "block-t" + std::to_string(default_items);
      r.variant = v.is_default ? "default (" + default_name + ")" : v.name;
      r.r = tuning.max_radix_bits;
      r.digits = digit_list(32, tuning.max_radix_bits);
      r.passes = multisplit::detail::DigitPlan::make(32, tuning.max_radix_bits).passes;
      r.ms = ms;
      r.ok = buf_->output_matches_reference(n, pairs);
      emit(r);
    }
    std::printf("\n");
  }

  void write_json() const {
    nlohmann::json out = json_header(device_, opt_);
    out["copy_gbps"] = copy_gbps_;
    out["cub_version"] = std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION) + "." +
                         std::to_string(CUB_SUBMINOR_VERSION);
    write_results_json(opt_.json_path, out, records_, [](const Record& r) -> nlohmann::json {
      return {{"n", r.n},
              {"kind", r.kind},
              {"variant", r.variant},
              {"radix_bits", r.r},
              {"digit_bits", r.digits},
              {"passes", r.passes},
              {"median_ms", r.ms},
              {"g_items_per_s", r.rate},
              {"ratio_to_cub", r.vs_cub},
              {"pass_model_gbps", r.pass_gbps},
              {"matches_cub", r.ok}};
    });
  }

  Options opt_;
  Timer timer_;
  std::string device_;
  double copy_gbps_ = 0;
  bool wide_pairs_ = false;  // this device sorts pairs with the 512-thread pair tile's rules (sort.cuh)
  std::unique_ptr<KeyValueBuffers> buf_;
  TempStorage temp_;
  std::vector<Record> records_;
};

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  po::options_description desc("sort_bench options");
  desc.add_options()("help,h", "show this help")("n-log2", po::value<std::vector<int>>(&opt.n_log2)->multitoken(),
                                                 "input sizes as powers of two (25 28)")(
      "radix-bits", po::value<std::vector<int>>(&opt.radix_bits)->multitoken(), "digit widths r to try (4 5 6 7 8)")(
      "kinds", po::value<std::vector<std::string>>(&opt.kinds)->multitoken(), "keys and/or pairs");
  add_run_options(desc, opt);
  auto validate = [&] {
    for (const int lg : opt.n_log2) require_n_log2(lg);
    for (const int r : opt.radix_bits)
      if (r < 1 || r > 8) throw std::invalid_argument("--radix-bits must be in 1..8");
    require_one_of("--kinds", opt.kinds, {"keys", "pairs"});
    require_run_options(opt);
  };
  return bench_main("sort_bench", argc, argv, desc, validate, [&] { Bench(opt).run(); });
}
