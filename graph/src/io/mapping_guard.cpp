#include "mapping_guard.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <utility>

namespace graph::io::detail {

namespace {

// A fixed table, so the handler touches no lock and no allocation: a range
// is published by storing `end` last and withdrawn by clearing `begin` first.
struct Range {
  std::atomic<std::uintptr_t> begin{0}, end{0};
  std::atomic<bool> hit{false};
  std::atomic<bool> used{false};
};
constexpr int kSlots = 64;
Range ranges[kSlots];
struct sigaction previous;

void on_sigbus(int signal, siginfo_t* info, void* context) {
  const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (Range& r : ranges) {
    const std::uintptr_t begin = r.begin.load(std::memory_order_acquire);
    const std::uintptr_t end = r.end.load(std::memory_order_acquire);
    if (begin == 0 || at < begin || at >= end) continue;
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const std::uintptr_t from = at & ~(page - 1);
    // mmap is a plain system call here: safe in a handler on Linux.
    if (::mmap(reinterpret_cast<void*>(from), end - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
               0) != MAP_FAILED) {
      r.hit.store(true, std::memory_order_release);
      return;  // the access is retried and now reads zeros
    }
    break;
  }
  // Not ours: what would have happened without this handler.
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction) return previous.sa_sigaction(signal, info, context);
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    return previous.sa_handler(signal);
  }
  ::signal(SIGBUS, SIG_DFL);  // the faulting access repeats and ends the process as before
}

void install_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &previous);
  });
}

}  // namespace

MappingGuard::MappingGuard(const void* begin, std::size_t bytes) {
  if (!begin || bytes == 0) return;
  install_once();
  for (int s = 0; s < kSlots; ++s) {
    bool expected = false;
    if (!ranges[s].used.compare_exchange_strong(expected, true)) continue;
    const auto b = reinterpret_cast<std::uintptr_t>(begin);
    ranges[s].hit.store(false);
    ranges[s].begin.store(b, std::memory_order_release);
    ranges[s].end.store(b + bytes, std::memory_order_release);
    slot_ = s;
    return;
  }
  // More than kSlots inputs mapped at once: this one is unguarded, as before.
}

MappingGuard::MappingGuard(MappingGuard&& other) noexcept : slot_(std::exchange(other.slot_, -1)) {}

MappingGuard& MappingGuard::operator=(MappingGuard&& other) noexcept {
  if (this != &other) {
    release();
    slot_ = std::exchange(other.slot_, -1);
  }
  return *this;
}

MappingGuard::~MappingGuard() { release(); }

bool MappingGuard::hit() const { return slot_ >= 0 && ranges[slot_].hit.load(std::memory_order_acquire); }

void MappingGuard::release() noexcept {
  if (slot_ < 0) return;
  Range& r = ranges[slot_];
  r.begin.store(0, std::memory_order_release);
  r.end.store(0, std::memory_order_release);
  r.used.store(false, std::memory_order_release);
  slot_ = -1;
}

}  // namespace graph::io::detail
