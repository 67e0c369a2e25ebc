#include "graph/weights.hpp"

#include <charconv>

#include "graph/error.hpp"

namespace graph {

namespace {

bool parse_u32(const std::string& text, std::uint32_t& out) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc() && ptr == last && !text.empty();
}

[[noreturn]] void bad_rule(const std::string& spec, const std::string& why) {
  throw InputError(InputErrorKind::BadArgument, "--weights", 0,
                   "bad weight rule '" + spec + "': " + why +
                       " (expected file, unit, random or random:LO:HI)");
}

}  // namespace

WeightRule WeightRule::parse(const std::string& spec, std::uint64_t seed) {
  WeightRule rule;
  rule.seed = seed;
  if (spec == "file") return rule;
  if (spec == "unit") {
    rule.kind = Kind::Unit;
    return rule;
  }
  if (spec == "random") {
    rule.kind = Kind::Random;
    return rule;
  }
  const std::string prefix = "random:";
  if (spec.compare(0, prefix.size(), prefix) != 0) bad_rule(spec, "unknown rule");
  const std::string rest = spec.substr(prefix.size());
  const auto colon = rest.find(':');
  if (colon == std::string::npos) bad_rule(spec, "missing HI");
  std::uint32_t lo = 0, hi = 0;
  if (!parse_u32(rest.substr(0, colon), lo) || !parse_u32(rest.substr(colon + 1), hi))
    bad_rule(spec, "LO and HI must be non-negative 32-bit integers");
  if (lo > hi) bad_rule(spec, "LO is greater than HI");
  rule.kind = Kind::Random;
  rule.lo = lo;
  rule.hi = hi;
  return rule;
}

std::string WeightRule::describe() const {
  switch (kind) {
    case Kind::File: return "file";
    case Kind::Unit: return "unit";
    case Kind::Random:
      return "random:" + std::to_string(lo) + ":" + std::to_string(hi) + " seed=" + std::to_string(seed);
  }
  return "?";
}

WeightRule WeightRule::for_pattern_file() const {
  if (kind != Kind::File) return *this;
  WeightRule rule = *this;
  rule.kind = Kind::Random;
  rule.lo = 1;
  rule.hi = 1000;
  return rule;
}

std::uint32_t WeightRule::random_weight(vertex_id u, vertex_id v) const {
  if (kind == Kind::Unit) return 1;
  const vertex_id a = u < v ? u : v;
  const vertex_id b = u < v ? v : u;
  const std::uint64_t h = splitmix64(splitmix64(seed) ^ ((static_cast<std::uint64_t>(a) << 32) | b));
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - lo + 1;
  return lo + static_cast<std::uint32_t>(h % span);
}

}  // namespace graph
