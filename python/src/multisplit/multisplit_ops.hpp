// gpu_sssp.multisplit's device work: the multisplit library's split and
// histogram over raw device pointers, with its ready-made bucket rules. Plain
// C++ (no nanobind, no CUDA types) so the bindings (module.cpp) need no CUDA
// compiler; multisplit_ops.cu instantiates the templates once.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pysssp::ms {

enum class KeyType { U32, I32, F32 };
enum class Rule { Identity, Delta, Range, Bits };

// A bucket rule and its parameters (buckets.hpp):
//   Identity  bucket = the key as uint32 (uint32 and int32 keys; an int32
//             key's bits read as uint32, so negatives are large);
//   Delta     bucket = floor((key - lower) / width), below lower: 0;
//   Range     bucket = number of splitters <= key (splitters: sorted, on
//             the device, of the key type, num_splitters = num_buckets - 1);
//   Bits      bucket = the num_bits bits from bit `shift` (uint32 and int32
//             keys, two's complement bits).
// The library clamps every bucket id past the last to num_buckets - 1.
struct BucketRule {
  Rule rule = Rule::Identity;
  double lower = 0, width = 1;             // Delta, converted to the key type
  const void* splitters = nullptr;         // Range
  std::uint32_t num_splitters = 0;
  std::uint32_t shift = 0, num_bits = 1;   // Bits
};

// Throws std::invalid_argument for a rule the key type has no kernels for
// (identity and bits on float keys) and std::runtime_error on a CUDA error.
// All calls are ordered on `stream` (a cudaStream_t as an integer) and do not
// synchronise; `temp` holds at least temp_bytes(...) bytes. values_in may be
// null (keys only); with values they are 4-byte words moved with their keys.
std::size_t split_temp_bytes(KeyType key, bool with_values, std::uint32_t n, std::uint32_t num_buckets,
                             const BucketRule& rule, int device);
void split(KeyType key, const void* keys_in, void* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
           std::uint32_t n, std::uint32_t num_buckets, const BucketRule& rule, std::uint32_t* offsets, void* temp,
           std::size_t temp_bytes, std::uintptr_t stream, int device);
// 8-byte values move through a permutation: split the keys with their
// positions (values_in = iota, written by fill_iota), then gather.
void fill_iota(std::uint32_t* out, std::uint32_t n, std::uintptr_t stream, int device);
void gather(const void* in, void* out, std::size_t value_bytes, const std::uint32_t* positions, std::uint32_t n,
            std::uintptr_t stream, int device);

std::size_t histogram_temp_bytes(KeyType key, std::uint32_t n, std::uint32_t num_buckets, const BucketRule& rule,
                                 int device);
void histogram(KeyType key, const void* keys, std::uint32_t n, std::uint32_t num_buckets, const BucketRule& rule,
               std::uint32_t* counts, void* temp, std::size_t temp_bytes, std::uintptr_t stream, int device);

}  // namespace pysssp::ms
