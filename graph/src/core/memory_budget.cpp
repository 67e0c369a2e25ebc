#include "graph/memory_budget.hpp"

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
constexpr const char* kVariable = "SSSP_HOST_MEMORY_LIMIT";

// "123", "64M", "2G": bytes. Anything else is refused: a limit that is
// silently ignored is no limit.
std::uint64_t parse_bytes(const std::string& text) {
  std::uint64_t value = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    value = value > (kMax - digit) / 10 ? kMax : value * 10 + digit;
  }
  std::uint64_t scale = 1;
  if (i > 0 && i + 1 == text.size()) {
    switch (text[i]) {
      case 'k': case 'K': scale = 1ull << 10; ++i; break;
      case 'm': case 'M': scale = 1ull << 20; ++i; break;
      case 'g': case 'G': scale = 1ull << 30; ++i; break;
      case 't': case 'T': scale = 1ull << 40; ++i; break;
      default: break;
    }
  }
  if (i == 0 || i != text.size() || value == 0)
    throw InputError(InputErrorKind::BadArgument, kVariable, 0,
                     "'" + text + "' is not a memory size (expected a positive whole number of bytes, "
                     "optionally with a K, M, G or T suffix, e.g. 512M)");
  return mul_add_sat(value, scale, 0);
}

std::string gigabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g GB", static_cast<double>(bytes) / 1e9);
  return text;
}

}  // namespace

std::uint64_t mul_add_sat(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  if (b != 0 && a > (kMax - c) / b) return kMax;
  return a * b + c;
}

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
  if (const char* env = std::getenv(kVariable)) budget = std::min(budget, parse_bytes(env));
  return budget;
}

void check_host_bytes(const std::string& name, std::uint64_t line, std::uint64_t bytes, const std::string& what) {
  const std::uint64_t budget = host_memory_budget();
  if (bytes > budget)
    throw InputError(InputErrorKind::Overflow, name, line,
                     what + " needs about " + gigabytes(bytes) + " of host memory, more than the " +
                         gigabytes(budget) + " this process may use (physical memory, ulimit -v/-d, " + kVariable +
                         ")");
}

void check_graph_fits(const std::string& name, std::uint64_t line, std::uint64_t vertices, std::uint64_t entries,
                      bool symmetric) {
  check_host_bytes(name, line, csr_build_bytes(vertices, entries, symmetric),
                   "building a graph of " + std::to_string(vertices) + " vertices and " + std::to_string(entries) +
                       " entries");
}

}  // namespace graph::detail
