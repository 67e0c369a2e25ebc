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
// q = n / d for 32-bit n and a divisor fixed in advance: one multiply-high,
// a subtraction, an add and two shifts instead of the ~20-instruction integer
// division (Granlund & Montgomery, "Division by invariant integers using
// multiplication", PLDI 1994, figure 4.1; exact for every 32-bit n, d >= 1).
// The bucket functor runs twice per key, so this matters: with a plain
// division delta buckets ran markedly slower than identity buckets
// (docs/TUNING.md, "Delta buckets").
struct InvariantDivisor {
  std::uint32_t magic = 1;
  std::uint32_t shift1 = 0;
  std::uint32_t shift2 = 0;

  InvariantDivisor() = default;
  MULTISPLIT_HD explicit InvariantDivisor(std::uint32_t d) {
    std::uint32_t l = 0;  // ceil(log2(d))
    while (l < 32 && (std::uint64_t{1} << l) < d) ++l;
    magic = static_cast<std::uint32_t>(((std::uint64_t{1} << 32) * ((std::uint64_t{1} << l) - d)) / d + 1);
    shift1 = l < 1 ? l : 1;
    shift2 = l > 0 ? l - 1 : 0;
  }
  MULTISPLIT_HD std::uint32_t divide(std::uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const std::uint32_t t = __umulhi(magic, n);
#else
    const std::uint32_t t = static_cast<std::uint32_t>((static_cast<std::uint64_t>(magic) * n) >> 32);
#endif
    return (t + ((n - t) >> shift1)) >> shift2;
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
    if constexpr (kFastDivide) divisor_ = detail::InvariantDivisor(static_cast<std::uint32_t>(bucket_width));
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
    if (key < lower_) return 0;
    if constexpr (kFastDivide) {
      const std::uint32_t q = divisor_.divide(static_cast<std::uint32_t>(key - lower_));
      return q >= last_ ? last_ : q;
    } else {
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
