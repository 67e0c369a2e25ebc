// Even-width buckets for floating-point keys, parametrised like
// cub::DeviceHistogram::HistogramEven (lower level, upper level, bucket
// count) and computed the same way: bucket = (key - lower) * scale with
// scale = num_buckets / (upper - lower) precomputed, one subtraction and one
// multiplication instead of delta_buckets<float>'s division. For keys in
// [lower, upper) the result equals CUB's bin bit for bit (same formula, same
// rounding), so the benchmark can compare outputs.
//
// Out-of-range keys are clamped like every multisplit functor (CUB drops
// them instead): below `lower`, NaN included, to bucket 0; at or above the
// last bucket, +inf included, to num_buckets - 1.
//
// Plain C++ (despite the .cuh name, which keeps it beside the histogram
// headers): the CPU reference and CPU tests use the same functor.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../buckets.hpp"

namespace multisplit {

template <class Key = float>
struct even_buckets {
  static_assert(std::is_floating_point<Key>::value, "even_buckets is for float and double keys");

  even_buckets() = default;
  // upper > lower, buckets >= 1.
  MULTISPLIT_HD even_buckets(Key lower_level, Key upper_level, std::uint32_t buckets)
      : lower_(lower_level),
        scale_(static_cast<Key>(buckets) / (upper_level - lower_level)),
        last_(buckets > 0 ? buckets - 1 : 0),
        last_as_key_(static_cast<Key>(buckets > 0 ? buckets - 1 : 0)) {}

  MULTISPLIT_HD std::uint32_t operator()(Key key) const {
    if (!(key >= lower_)) return 0;  // also NaN
    const Key scaled = (key - lower_) * scale_;
    // Compare before converting: a float past 2^32 converts undefinedly.
    return scaled >= last_as_key_ ? last_ : static_cast<std::uint32_t>(scaled);
  }

  MULTISPLIT_HD Key lower() const { return lower_; }
  MULTISPLIT_HD Key scale() const { return scale_; }

 private:
  Key lower_{0};
  Key scale_{1};
  std::uint32_t last_{0};
  Key last_as_key_{0};
};

}  // namespace multisplit
