#include "graph/random_sources.hpp"

#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>

#include "graph/weights.hpp"

namespace graph {

std::uint64_t vertices_with_out_arcs(const std::vector<edge_offset>& offsets) {
  const std::uint64_t n = offsets.empty() ? 0 : offsets.size() - 1;
  std::uint64_t count = 0;
  for (std::uint64_t v = 0; v < n; ++v) count += offsets[v + 1] > offsets[v] ? 1 : 0;
  return count;
}

std::vector<vertex_id> choose_random_sources(const std::vector<edge_offset>& offsets, std::uint32_t k,
                                             std::uint64_t seed) {
  const std::uint64_t n = offsets.empty() ? 0 : offsets.size() - 1;
  const std::uint64_t candidates = vertices_with_out_arcs(offsets);
  if (candidates < k)
    throw std::invalid_argument("only " + std::to_string(candidates) + " vertices have out-edges");

  // Draw i of the stream: SplitMix64 of a seed-derived base plus i (counter
  // based, so no state beyond the counter).
  const std::uint64_t base = splitmix64(seed ^ 0x736F757263657321ull);  // "sources!"
  std::uint64_t draw = 0;
  const auto next = [&](std::uint64_t range) { return splitmix64(base + draw++) % range; };

  std::vector<vertex_id> chosen;
  chosen.reserve(k);
  if (candidates * 8 >= n) {
    // At least 1 in 8 vertices qualifies: rejection sampling needs no list
    // of candidates (which would cost 4 bytes per vertex on huge graphs).
    std::unordered_set<vertex_id> taken;
    while (chosen.size() < k) {
      const auto v = static_cast<vertex_id>(next(n));
      if (offsets[v + 1] > offsets[v] && taken.insert(v).second) chosen.push_back(v);
    }
  } else {
    // Few qualify: partial Fisher-Yates over the list of candidates.
    std::vector<vertex_id> list;
    list.reserve(candidates);
    for (std::uint64_t v = 0; v < n; ++v)
      if (offsets[v + 1] > offsets[v]) list.push_back(static_cast<vertex_id>(v));
    for (std::uint32_t i = 0; i < k; ++i) {
      const std::uint64_t j = i + next(list.size() - i);
      std::swap(list[i], list[j]);
      chosen.push_back(list[i]);
    }
  }
  return chosen;
}

}  // namespace graph
