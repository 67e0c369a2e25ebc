#include "text_scan.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <charconv>
#include <system_error>

namespace graph::io::detail {

std::uint64_t count_newlines(const char* p, const char* end) {
  std::uint64_t total = 0;
#if defined(__SSE2__)
  // Byte-wise compare, accumulated in 8-bit lanes for at most 255 blocks
  // (no lane can overflow), then summed with SAD: about 16 bytes per cycle,
  // where std::count manages a few bytes per cycle.
  const __m128i newline = _mm_set1_epi8('\n');
  while (end - p >= 16) {
    const std::size_t blocks = std::min<std::size_t>(255, static_cast<std::size_t>(end - p) / 16);
    __m128i lanes = _mm_setzero_si128();
    for (std::size_t b = 0; b < blocks; ++b, p += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(bytes, newline));  // a match is -1
    }
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
    total += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
#endif
  for (; p != end; ++p) total += *p == '\n';
  return total;
}

const char* read_u64_slow(const char* text, const char* start, const char* end, std::uint64_t& value,
                          const char* what) {
  const char* p = start;
  std::uint64_t v = 0;
  while (p != end && is_digit(*p)) {
    const auto digit = static_cast<std::uint64_t>(*p - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
      fail_at(text, start, InputErrorKind::Overflow,
              std::string(what) + " " + token_text(start, end) + " does not fit in 64 bits");
    v = v * 10 + digit;
    ++p;
  }
  if (p == start || !at_token_end(p, end))
    fail_at(text, start, InputErrorKind::BadToken,
            "expected " + std::string(what) + " (a non-negative integer), found " + token_text(start, end));
  value = v;
  return p;
}

const char* read_int_weight_slow(const char* text, const char* start, const char* end, bool check_range,
                                 std::uint32_t& weight) {
  const char* p = start;
  bool negative = false;
  if (p != end && (*p == '-' || *p == '+')) {
    negative = *p == '-';
    ++p;
  }
  std::uint64_t v = 0;
  bool too_big = false;
  const char* q = p;
  while (q != end && is_digit(*q)) {
    if (!too_big) {
      v = v * 10 + static_cast<std::uint64_t>(*q - '0');
      too_big = v > std::numeric_limits<std::uint32_t>::max();
    }
    ++q;
  }
  if (q == p || !at_token_end(q, end))
    fail_at(text, start, InputErrorKind::BadToken, "expected an integer weight, found " + token_text(start, end));
  if (check_range && negative && (v != 0 || too_big))
    fail_at(text, start, InputErrorKind::BadWeight,
            "weight " + token_text(start, end) + " is negative (shortest paths need weights >= 0)");
  if (check_range && too_big)
    fail_at(text, start, InputErrorKind::Overflow,
            "weight " + token_text(start, end) + " does not fit in 32 bits (integer weights are uint32)");
  weight = too_big || negative ? 0 : static_cast<std::uint32_t>(v);
  return q;
}

void fail_id_range(const char* text, const char* at, std::uint64_t value, std::uint64_t limit, const char* what) {
  fail_at(text, at, InputErrorKind::IdOutOfRange,
          std::string(what) + " " + std::to_string(value) + " is out of range 1.." + std::to_string(limit));
}

void fail_missing(const char* text, const char* line, bool at_file_end, const char* what) {
  if (at_file_end)
    fail_at(text, line, InputErrorKind::Truncated,
            "file ends in the middle of an entry (missing " + std::string(what) + ")");
  fail_at(text, line, InputErrorKind::BadToken, "line ends early: missing " + std::string(what));
}

void fail_window(const char* text, const char* line) {
  fail_at(text, line, InputErrorKind::BadToken, "internal error: more entries than the chunk's line count");
}

void fail_extra(const char* text, const char* at, const char* end, const char* expected) {
  fail_at(text, at, InputErrorKind::BadToken,
          "extra token " + token_text(at, end) + " (expected " + std::string(expected) + ")");
}

std::int64_t decimal_magnitude(const char* p, const char* end) {
  if (p != end && (*p == '-' || *p == '+')) ++p;
  // The mantissa: position of its first non-zero digit relative to the point.
  std::int64_t integer_digits = 0, leading_fraction_zeros = 0;
  bool seen_nonzero = false, after_point = false;
  for (; p != end && (is_digit(*p) || *p == '.'); ++p) {
    if (*p == '.') {
      after_point = true;
      continue;
    }
    if (!seen_nonzero && *p == '0') {
      if (after_point) ++leading_fraction_zeros;
      continue;
    }
    seen_nonzero = true;
    if (!after_point) ++integer_digits;
  }
  if (!seen_nonzero) return std::numeric_limits<std::int64_t>::min();  // zero
  std::int64_t magnitude = integer_digits > 0 ? integer_digits - 1 : -(leading_fraction_zeros + 1);
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool negative = false;
    if (p != end && (*p == '-' || *p == '+')) negative = *p++ == '-';
    // Saturate: an exponent of a thousand digits is still just huge or tiny.
    constexpr std::int64_t kCap = std::int64_t{1} << 40;
    std::int64_t exponent = 0;
    for (; p != end && is_digit(*p); ++p) exponent = std::min(kCap, exponent * 10 + (*p - '0'));
    magnitude += negative ? -exponent : exponent;
  }
  return magnitude;
}

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
    // Out of double's range: judged by the value's magnitude, not by how it
    // is spelled ("1" and 309 zeros overflows as surely as "1e309").
    const bool huge = decimal_magnitude(p, stop) >= 0;
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
