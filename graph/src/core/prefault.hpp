// Internal to graph/src (core and io): sizing large vectors without a serial page-fault storm.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace graph::detail {

// v.resize(n) for a large n, with the page faults taken in parallel first.
// A fresh multi-hundred-MB vector is otherwise zero-filled by one thread,
// page fault by page fault, which took 0.1 s of a 0.17 s 16-thread parse of
// 300 MB. The storage is reserved (untouched), asked for transparent huge
// pages, and populated by the threads with madvise(MADV_POPULATE_WRITE)
// (Linux >= 5.14; elsewhere the calls fail harmlessly and resize faults
// as usual); the madvise calls touch no element, resize then only writes.
template <class T>
void resize_prefaulted(std::vector<T>& v, std::size_t n, int threads) {
  constexpr std::uintptr_t kPage = 4096, kHuge = 2u << 20;
  const std::size_t bytes = n * sizeof(T);
  if (bytes >= 8 * kHuge && v.capacity() < n) {
    v.reserve(n);
    const auto base = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t first = (base + kPage - 1) & ~(kPage - 1);
    const std::uintptr_t last = (base + bytes) & ~(kPage - 1);
    ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    const std::uintptr_t first_huge = (first + kHuge - 1) & ~(kHuge - 1);
    const auto slices = static_cast<std::int64_t>((last - first_huge) / kHuge + 2);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = 0; i < slices; ++i) {
      // Slice 0 is the unaligned head; the others are 2 MB-aligned.
      const std::uintptr_t from = i == 0 ? first : first_huge + static_cast<std::uintptr_t>(i - 1) * kHuge;
      const std::uintptr_t to = std::min(last, i == 0 ? first_huge : from + kHuge);
      if (from < to) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
    }
  }
  v.resize(n);
}

}  // namespace graph::detail
