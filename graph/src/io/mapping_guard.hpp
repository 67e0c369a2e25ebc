// Internal to graph/src/io: survives a mapped input that shrinks while it
// is read.
//
// Touching a page of a file mapping beyond the file's current end raises
// SIGBUS, which kills the process without a word. While a MappingGuard
// lives, a SIGBUS inside its range instead maps zero-filled pages over the
// rest of the range, notes the hit and lets the faulting access go on: the
// reader sees zeros, and its owner turns hit() into one clear error line.
// SIGBUS anywhere else keeps its previous disposition.
#pragma once

#include <cstddef>

namespace graph::io::detail {

class MappingGuard {
 public:
  MappingGuard() = default;
  MappingGuard(const void* begin, std::size_t bytes);
  MappingGuard(MappingGuard&& other) noexcept;
  MappingGuard& operator=(MappingGuard&& other) noexcept;
  MappingGuard(const MappingGuard&) = delete;
  MappingGuard& operator=(const MappingGuard&) = delete;
  ~MappingGuard();

  // Whether a read of the range faulted (the file shrank under it).
  bool hit() const;

 private:
  void release() noexcept;
  int slot_ = -1;
};

}  // namespace graph::io::detail
