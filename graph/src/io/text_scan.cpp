#include "text_scan.hpp"

#include <charconv>
#include <system_error>

namespace graph::io::detail {

const char* read_real_weight(const char* text, const char* p, const char* end, bool check_range, float& weight) {
  const char* start = p;
  if (p != end && *p == '+') ++p;  // from_chars does not take a leading '+'
  double value = 0;
  // libstdc++ (GCC >= 12) implements from_chars for double with the
  // Eisel-Lemire / fast_float algorithm: exact rounding, no allocation.
  const auto [stop, ec] = std::from_chars(p, end, value, std::chars_format::general);
  if ((ec != std::errc() && ec != std::errc::result_out_of_range) || (stop == p) || !at_token_end(stop, end))
    fail_at(text, start, InputErrorKind::BadToken, "expected a real weight, found " + token_text(start, end));
  if (!check_range) {
    weight = 0;
    return stop;
  }
  if (ec == std::errc::result_out_of_range) {
    // Out of double's range: huge magnitudes overflow, tiny ones underflow.
    bool huge = false;
    for (const char* q = p; q != stop; ++q) {
      if (*q == 'e' || *q == 'E') {
        huge = q + 1 != stop && q[1] != '-';
        break;
      }
    }
    if (*p == '-' && huge)
      fail_at(text, start, InputErrorKind::BadWeight, "weight " + token_text(start, end) + " is negative");
    if (huge)
      fail_at(text, start, InputErrorKind::Overflow,
              "weight " + token_text(start, end) + " is beyond float range (real weights are stored as float)");
    value = 0;  // underflow: below every float
  }
  if (std::isnan(value) || std::isinf(value))
    fail_at(text, start, InputErrorKind::BadWeight,
            "weight " + token_text(start, end) + " is not a finite number");
  if (value < 0)
    fail_at(text, start, InputErrorKind::BadWeight,
            "weight " + token_text(start, end) + " is negative (shortest paths need weights >= 0)");
  if (value > static_cast<double>(std::numeric_limits<float>::max()))
    fail_at(text, start, InputErrorKind::Overflow,
            "weight " + token_text(start, end) + " is beyond float range (real weights are stored as float)");
  weight = static_cast<float>(value) + 0.0f;  // + 0.0f turns -0 into +0
  return stop;
}

}  // namespace graph::io::detail
