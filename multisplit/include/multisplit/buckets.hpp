// Ready-made bucket functors for multisplit::split_keys / split_pairs.
//
// A bucket functor is any copyable callable `std::uint32_t(Key)` usable on the
// host and the device; it must return a value below the number of buckets
// (the library clamps larger values to num_buckets - 1 so that memory stays in
// bounds, but such output is not meaningful). Functors may hold device
// pointers.
//
// Optional shared-memory hook (used by range_buckets): a functor that defines
//   std::size_t shared_bytes() const;                   // host side
//   __device__ Fn bind_shared(void* smem) const;         // all threads call it
// gets `shared_bytes()` bytes of 16-byte aligned shared memory per block; every
// thread of the block calls bind_shared, the kernel then issues __syncthreads()
// and uses the returned copy (which reads its tables from shared memory).
//
// This header is plain C++ as well, so CPU tests and the CPU reference can use
// the same functors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__CUDACC__)
#define MULTISPLIT_HD __host__ __device__ __forceinline__
#else
#define MULTISPLIT_HD inline
#endif

namespace multisplit {

namespace detail {
// q = n / d for 32-bit n and a divisor fixed in advance, as one 32x32->64-bit
// multiply-add and a shift: q = (n * magic + addend) >> 32 >> shift
// (Robison, "N-bit unsigned division via N-bit multiply-add", ARITH 2005).
// For d = 2^s + e, 0 < e < 2^s, either magic = ceil(2^(32+s) / d) (round up,
// addend 0) or magic = floor(2^(32+s) / d) with addend = magic (round down,
// numerator + 1) is exact for every 32-bit n, and one of the two always
// applies; powers of two take magic = 2^31. On sm_90 ptxas emits one IMAD.HI
// (with the 64-bit addend) and one shift, where Granlund & Montgomery's
// 33-bit magic needs a multiply-high, two adds and two shifts. The bucket functor runs three
// times per key (pre-scan, ranking, write-out), so this matters: with a plain
// division delta buckets ran about 30% slower than identity buckets
// (docs/TUNING.md, "Delta buckets"). The addend is 64 bits wide so that a
// caller can fold a constant subtraction from n into it (delta_buckets).
struct InvariantDivisor {
  // d = 1 until constructed: (n + 1) * (2^32 - 1) >> 32 = n.
  std::uint32_t magic = 0xFFFFFFFFu;
  std::uint32_t shift = 0;
  std::uint64_t addend = 0xFFFFFFFFu;

  InvariantDivisor() = default;
  MULTISPLIT_HD explicit InvariantDivisor(std::uint32_t d) {
    std::uint32_t s = 0;  // floor(log2(d))
    while (s < 31 && (d >> (s + 1)) != 0) ++s;
    if ((d & (d - 1)) == 0) {
      // n / 2^s = n * 2^31 >> (32 + s - 1); d = 1 needs the round-down form.
      if (s == 0) {
        magic = 0xFFFFFFFFu;  // floor(2^32 / 1) - 1 = 2^32 - 1, numerator + 1
        addend = magic;
        shift = 0;
      } else {
        magic = 0x80000000u;
        addend = 0;
        shift = s - 1;
      }
      return;
    }
    const std::uint64_t power = std::uint64_t{1} << (32 + s);
    const std::uint64_t down = power / d;  // < 2^32 because d > 2^s
    const std::uint64_t rem = power % d;   // > 0 because d is no power of two
    shift = s;
    if (d - rem <= (std::uint64_t{1} << s)) {  // round up: error d - rem
      magic = static_cast<std::uint32_t>(down + 1);
      addend = 0;
    } else {  // round down, numerator + 1: error rem <= 2^s
      magic = static_cast<std::uint32_t>(down);
      addend = magic;
    }
  }
  // floor((n * magic + addend) / 2^(32 + shift)); `addend` may be any 64-bit
  // value for which the true sum stays below 2^64 (the arithmetic wraps).
  // On the device the high word comes from PTX's multiply-add pair through
  // the carry (mad.lo.cc, madc.hi), which ptxas turns into the one IMAD.HI;
  // from the 64-bit C++ expression it emitted the same IMAD.HI plus an add
  // of a uniform zero inside the unrolled post-scan loops, one instruction
  // more per call (docs/TUNING.md, "Delta buckets").
  MULTISPLIT_HD std::uint32_t divide(std::uint32_t n) const {
#if defined(__CUDA_ARCH__)
    // The low word starts as the addend's and ends as the product's; only
    // the carry out of it is wanted.
    std::uint32_t low = static_cast<std::uint32_t>(addend), high;
    asm("mad.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.u32 %1, %2, %3, %4;"
        : "+r"(low), "=r"(high)
        : "r"(n), "r"(magic), "r"(static_cast<std::uint32_t>(addend >> 32)));
    return high >> shift;
#else
    const std::uint64_t product = static_cast<std::uint64_t>(n) * magic + addend;
    return static_cast<std::uint32_t>(product >> 32) >> shift;
#endif
  }
};
}  // namespace detail

// Uniform-width buckets: bucket = floor((key - lower) / width), keys below
// `lower` go to bucket 0 and keys past the last bucket to `num_buckets - 1`
// (the SSSP use: bucket = floor(distance / delta) with an overflow bucket).
// 32-bit unsigned keys divide by multiplication (detail::InvariantDivisor);
// other key types divide plainly. The constants are derived from the
// constructor's arguments, hence the read-only accessors.
template <class Key = std::uint32_t>
struct delta_buckets {
  delta_buckets() = default;
  // width >= 1, buckets >= 1.
  MULTISPLIT_HD delta_buckets(Key lower_bound, Key bucket_width, std::uint32_t buckets)
      : lower_(lower_bound), width_(bucket_width), num_buckets_(buckets), last_(buckets - 1) {
    if constexpr (kFastDivide) {
      // (key - lower) * magic + addend = key * magic + (addend - lower * magic),
      // all modulo 2^64: the subtraction folds into the multiply-add's addend.
      divisor_ = detail::InvariantDivisor(static_cast<std::uint32_t>(bucket_width));
      divisor_.addend -= static_cast<std::uint64_t>(lower_bound) * divisor_.magic;
    }
  }

  // The paper's delta buckets: the whole unsigned key range cut into
  // `num_buckets` equal slices, width = ceil(2^bits / num_buckets).
  static delta_buckets spanning(std::uint32_t num_buckets) {
    static_assert(std::is_integral<Key>::value && std::is_unsigned<Key>::value,
                  "spanning() needs an unsigned integer key");
    // ceil(2^bits / m) = floor((2^bits - 1) / m) + 1; for m == 1 any width
    // works (everything clamps to bucket 0), so take the largest key.
    const Key range = std::numeric_limits<Key>::max();
    if (num_buckets <= 1) return delta_buckets(Key{0}, range, 1);
    return delta_buckets(Key{0}, static_cast<Key>(range / num_buckets + 1), num_buckets);
  }

  MULTISPLIT_HD std::uint32_t operator()(Key key) const {
    if constexpr (kFastDivide) {
      // max, multiply-add, shift, min: keys below `lower` become `lower`
      // (bucket 0) rather than taking a branch.
      const std::uint32_t clamped = key < lower_ ? lower_ : key;
      const std::uint32_t q = divisor_.divide(clamped);
      return q >= last_ ? last_ : q;
    } else {
      if (key < lower_) return 0;
      const Key q = static_cast<Key>((key - lower_) / width_);
      return q >= static_cast<Key>(last_) ? last_ : static_cast<std::uint32_t>(q);
    }
  }

  MULTISPLIT_HD Key lower() const { return lower_; }
  MULTISPLIT_HD Key width() const { return width_; }
  MULTISPLIT_HD std::uint32_t num_buckets() const { return num_buckets_; }

 private:
  static constexpr bool kFastDivide = std::is_same<Key, std::uint32_t>::value;
  Key lower_{};
  Key width_{1};
  std::uint32_t num_buckets_{1};
  std::uint32_t last_{0};
  detail::InvariantDivisor divisor_{};
};

// bucket = key (the key already is a bucket id below num_buckets).
template <class Key = std::uint32_t>
struct identity_buckets {
  MULTISPLIT_HD std::uint32_t operator()(Key key) const { return static_cast<std::uint32_t>(key); }
};

// bucket = digit of `num_bits` bits starting at bit `shift` (a radix digit).
template <class Key = std::uint32_t>
struct bit_buckets {
  std::uint32_t shift{0};
  std::uint32_t num_bits{1};

  bit_buckets() = default;
  MULTISPLIT_HD bit_buckets(std::uint32_t shift_, std::uint32_t num_bits_) : shift(shift_), num_bits(num_bits_) {}

  MULTISPLIT_HD std::uint32_t operator()(Key key) const {
    const std::uint64_t bits = static_cast<std::uint64_t>(key) >> shift;
    const std::uint64_t mask = num_bits >= 32 ? 0xFFFFFFFFull : ((std::uint64_t{1} << num_bits) - 1);
    return static_cast<std::uint32_t>(bits & mask);
  }
};

// Buckets bounded by sorted splitters s[0] <= s[1] <= ... <= s[k-1]
// (num_buckets = k + 1): bucket b holds keys with s[b-1] <= key < s[b]
// (upper bound by binary search). `splitters` points to device memory for
// device use (host memory for the CPU reference). On the device the splitters
// are copied to shared memory once per block (bind_shared), so the
// log2(k) dependent probes of each key hit shared memory, not L1/L2.
template <class Key = std::uint32_t>
struct range_buckets {
  const Key* splitters{nullptr};
  std::uint32_t num_splitters{0};

  range_buckets() = default;
  MULTISPLIT_HD range_buckets(const Key* splitters_, std::uint32_t num_splitters_)
      : splitters(splitters_), num_splitters(num_splitters_) {}

  MULTISPLIT_HD std::uint32_t operator()(Key key) const {
    std::uint32_t lo = 0, hi = num_splitters;  // first splitter > key, in [lo, hi]
    while (lo < hi) {
      const std::uint32_t mid = (lo + hi) >> 1;
      if (splitters[mid] <= key) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  std::size_t shared_bytes() const { return static_cast<std::size_t>(num_splitters) * sizeof(Key); }

#if defined(__CUDACC__)
  __device__ range_buckets bind_shared(void* smem) const {
    Key* shared_splitters = static_cast<Key*>(smem);
    for (std::uint32_t i = threadIdx.x; i < num_splitters; i += blockDim.x) shared_splitters[i] = splitters[i];
    return range_buckets(shared_splitters, num_splitters);
  }
#endif
};

}  // namespace multisplit
