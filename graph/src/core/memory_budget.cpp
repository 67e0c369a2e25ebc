#include "memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "graph/error.hpp"

namespace graph::detail {

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// a * b + c, saturating at 2^64 - 1 (a header may declare 2^64 - 1 entries).
std::uint64_t mul_add_sat(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  if (b != 0 && a > (kMax - c) / b) return kMax;
  return a * b + c;
}

// "123", "64M", "2G": bytes; 0 (no limit) for anything else.
std::uint64_t parse_bytes(const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text) return 0;
  std::uint64_t scale = 1;
  switch (*end) {
    case 'k': case 'K': scale = 1ull << 10; ++end; break;
    case 'm': case 'M': scale = 1ull << 20; ++end; break;
    case 'g': case 'G': scale = 1ull << 30; ++end; break;
    default: break;
  }
  if (*end != '\0') return 0;
  return mul_add_sat(value, scale, 0);
}

std::string gigabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g GB", static_cast<double>(bytes) / 1e9);
  return text;
}

}  // namespace

std::uint64_t csr_build_bytes(std::uint64_t vertices, std::uint64_t entries, bool symmetric) {
  const std::uint64_t per_vertex = mul_add_sat(vertices + 1, 40, 0);
  const std::uint64_t arcs = mul_add_sat(entries, symmetric ? 2 : 1, 0);
  const std::uint64_t per_entry = mul_add_sat(entries, 12, 0);
  const std::uint64_t per_arc = mul_add_sat(arcs, 16, 0);
  std::uint64_t total = per_vertex;
  for (std::uint64_t part : {per_entry, per_arc}) total = total > kMax - part ? kMax : total + part;
  return total;
}

std::uint64_t host_memory_budget() {
  std::uint64_t budget = kMax;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page_bytes = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_bytes > 0)
    budget = mul_add_sat(static_cast<std::uint64_t>(pages), static_cast<std::uint64_t>(page_bytes), 0);
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit limit {};
    if (::getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      budget = std::min<std::uint64_t>(budget, limit.rlim_cur);
  }
  if (const char* env = std::getenv("SSSP_HOST_MEMORY_LIMIT")) {
    const std::uint64_t limit = parse_bytes(env);
    if (limit > 0) budget = std::min(budget, limit);
  }
  return budget;
}

void check_graph_fits(const std::string& name, std::uint64_t line, std::uint64_t vertices, std::uint64_t entries,
                      bool symmetric) {
  const std::uint64_t needed = csr_build_bytes(vertices, entries, symmetric);
  const std::uint64_t budget = host_memory_budget();
  if (needed > budget)
    throw InputError(InputErrorKind::Overflow, name, line,
                     std::to_string(vertices) + " vertices and " + std::to_string(entries) +
                         " entries need about " + gigabytes(needed) + " of host memory to build the graph, more than the " +
                         gigabytes(budget) +
                         " this process may use (physical memory, ulimit -v/-d, SSSP_HOST_MEMORY_LIMIT)");
}

}  // namespace graph::detail
