#include "cli/values.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "cli/usage_error.hpp"

namespace cli {

std::uint64_t parse_u64(const std::string& text, const std::string& option) {
  std::uint64_t value = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != last)
    throw UsageError("--" + option + ": '" + text + "' is not a non-negative integer");
  if (ec == std::errc::result_out_of_range) throw UsageError("--" + option + ": '" + text + "' is too large");
  return value;
}

std::uint64_t parse_u64_in(const std::string& text, const std::string& option, std::uint64_t lo,
                           std::uint64_t hi) {
  const std::uint64_t value = parse_u64(text, option);
  if (value < lo || value > hi)
    throw UsageError("--" + option + ": " + text + " is out of range (" + std::to_string(lo) + " to " +
                     std::to_string(hi) + ")");
  return value;
}

bool parse_finite_double(const std::string& text, double& out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

double parse_positive(const std::string& text, const std::string& option) {
  double value = 0;
  if (!parse_finite_double(text, value) || !(value > 0))
    throw UsageError("--" + option + ": '" + text + "' is not a positive number");
  return value;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

}  // namespace cli
