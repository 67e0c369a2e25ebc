// The multisplit library instantiated for gpu_sssp.multisplit: 4-byte keys
// (uint32, int32, float32) with the rules that make sense for them, keys
// alone or with 4-byte values (multisplit_ops.hpp).
#include "multisplit_ops.hpp"

#include <cuda_runtime.h>

#include <multisplit/buckets.hpp>
#include <multisplit/histogram.cuh>
#include <multisplit/multisplit.cuh>

#include <stdexcept>
#include <string>

namespace pysssp::ms {

namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    throw std::runtime_error(std::string("multisplit: ") + what + ": " + cudaGetErrorString(err));
  }
}

[[noreturn]] void no_kernels(const char* rule, const char* key) {
  throw std::invalid_argument(std::string("multisplit: bucket rule '") + rule + "' does not take " + key + " keys");
}

// fn(bucket functor) for the key type's rule.
template <class Key, class Fn>
void with_rule(const BucketRule& r, std::uint32_t num_buckets, Fn fn) {
  switch (r.rule) {
    case Rule::Delta:
      fn(multisplit::delta_buckets<Key>(static_cast<Key>(r.lower), static_cast<Key>(r.width), num_buckets));
      return;
    case Rule::Range:
      fn(multisplit::range_buckets<Key>(static_cast<const Key*>(r.splitters), r.num_splitters));
      return;
    case Rule::Identity:
      if constexpr (std::is_same_v<Key, std::uint32_t>) {
        fn(multisplit::identity_buckets<Key>{});
        return;
      } else {
        no_kernels("identity", std::is_same_v<Key, float> ? "float32" : "int32 (read as uint32)");
      }
    case Rule::Bits:
      if constexpr (std::is_same_v<Key, std::uint32_t>) {
        fn(multisplit::bit_buckets<Key>(r.shift, r.num_bits));
        return;
      } else {
        no_kernels("bits", std::is_same_v<Key, float> ? "float32" : "int32 (read as uint32)");
      }
  }
  throw std::invalid_argument("multisplit: unknown bucket rule");
}

// Identity and bits read an int32 key's bits as uint32: the uint32 kernels.
KeyType kernel_key(KeyType key, Rule rule) {
  return key == KeyType::I32 && (rule == Rule::Identity || rule == Rule::Bits) ? KeyType::U32 : key;
}

template <class Fn>
void with_key(KeyType key, Rule rule, Fn fn) {
  switch (kernel_key(key, rule)) {
    case KeyType::U32: fn(std::uint32_t{}); return;
    case KeyType::I32: fn(std::int32_t{}); return;
    case KeyType::F32: fn(float{}); return;
  }
  throw std::invalid_argument("multisplit: unknown key type");
}

__global__ void iota_kernel(std::uint32_t* out, std::uint32_t n) {
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<std::uint32_t>(i);
}

template <class T>
__global__ void gather_kernel(const T* in, T* out, const std::uint32_t* positions, std::uint32_t n) {
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
    out[i] = in[positions[i]];
}

unsigned grid(std::uint32_t n) { return n == 0 ? 1u : std::min(4096u, (n + 255u) / 256u); }

cudaStream_t as_stream(std::uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }

}  // namespace

std::size_t split_temp_bytes(KeyType key, bool with_values, std::uint32_t n, std::uint32_t num_buckets,
                             const BucketRule& rule, int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  std::size_t bytes = 0;
  with_key(key, rule.rule, [&](auto k) {
    using Key = decltype(k);
    with_rule<Key>(rule, num_buckets, [&](auto fn) {
      if (with_values)
        check(multisplit::split_pairs<Key, std::uint32_t>(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n,
                                                          num_buckets, fn, nullptr),
              "split_pairs (size query)");
      else
        check(multisplit::split_keys<Key>(nullptr, bytes, nullptr, nullptr, n, num_buckets, fn, nullptr),
              "split_keys (size query)");
    });
  });
  return bytes;
}

void split(KeyType key, const void* keys_in, void* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
           std::uint32_t n, std::uint32_t num_buckets, const BucketRule& rule, std::uint32_t* offsets, void* temp,
           std::size_t temp_bytes, std::uintptr_t stream, int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  with_key(key, rule.rule, [&](auto k) {
    using Key = decltype(k);
    with_rule<Key>(rule, num_buckets, [&](auto fn) {
      std::size_t bytes = temp_bytes;
      if (values_in)
        check(multisplit::split_pairs<Key, std::uint32_t>(temp, bytes, static_cast<const Key*>(keys_in),
                                                          static_cast<Key*>(keys_out), values_in, values_out, n,
                                                          num_buckets, fn, offsets, as_stream(stream)),
              "split_pairs");
      else
        check(multisplit::split_keys<Key>(temp, bytes, static_cast<const Key*>(keys_in), static_cast<Key*>(keys_out), n,
                                          num_buckets, fn, offsets, as_stream(stream)),
              "split_keys");
    });
  });
}

void fill_iota(std::uint32_t* out, std::uint32_t n, std::uintptr_t stream, int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  iota_kernel<<<grid(n), 256, 0, as_stream(stream)>>>(out, n);
  check(cudaGetLastError(), "iota");
}

void gather(const void* in, void* out, std::size_t value_bytes, const std::uint32_t* positions, std::uint32_t n,
            std::uintptr_t stream, int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  if (value_bytes == 8)
    gather_kernel<<<grid(n), 256, 0, as_stream(stream)>>>(static_cast<const unsigned long long*>(in),
                                                          static_cast<unsigned long long*>(out), positions, n);
  else if (value_bytes == 4)
    gather_kernel<<<grid(n), 256, 0, as_stream(stream)>>>(static_cast<const std::uint32_t*>(in),
                                                          static_cast<std::uint32_t*>(out), positions, n);
  else if (value_bytes == 2)
    gather_kernel<<<grid(n), 256, 0, as_stream(stream)>>>(static_cast<const unsigned short*>(in),
                                                          static_cast<unsigned short*>(out), positions, n);
  else if (value_bytes == 1)
    gather_kernel<<<grid(n), 256, 0, as_stream(stream)>>>(static_cast<const unsigned char*>(in),
                                                          static_cast<unsigned char*>(out), positions, n);
  else
    throw std::invalid_argument("multisplit: values of " + std::to_string(value_bytes) + " bytes");
  check(cudaGetLastError(), "gather");
}

std::size_t histogram_temp_bytes(KeyType key, std::uint32_t n, std::uint32_t num_buckets, const BucketRule& rule,
                                 int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  std::size_t bytes = 0;
  with_key(key, rule.rule, [&](auto k) {
    using Key = decltype(k);
    with_rule<Key>(rule, num_buckets, [&](auto fn) {
      check(multisplit::histogram<Key>(nullptr, bytes, nullptr, n, num_buckets, fn, nullptr), "histogram (size query)");
    });
  });
  return bytes;
}

void histogram(KeyType key, const void* keys, std::uint32_t n, std::uint32_t num_buckets, const BucketRule& rule,
               std::uint32_t* counts, void* temp, std::size_t temp_bytes, std::uintptr_t stream, int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  with_key(key, rule.rule, [&](auto k) {
    using Key = decltype(k);
    with_rule<Key>(rule, num_buckets, [&](auto fn) {
      std::size_t bytes = temp_bytes;
      check(multisplit::histogram<Key>(temp, bytes, static_cast<const Key*>(keys), n, num_buckets, fn, counts,
                                       as_stream(stream)),
            "histogram");
    });
  });
}

}  // namespace pysssp::ms
