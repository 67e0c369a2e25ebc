// Strict parsing of option values, shared by every front end. Values are
// taken as strings and parsed here instead of by Boost's lexical_cast, which
// accepts "-1" for an unsigned option (and wraps it) and leading blanks.
// Every failure throws UsageError naming the option ("--runs: ...").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cli {

// A decimal integer >= 0 using all of `text`. `option` is the name without
// dashes, for the message.
std::uint64_t parse_u64(const std::string& text, const std::string& option);

// parse_u64 within [lo, hi].
std::uint64_t parse_u64_in(const std::string& text, const std::string& option, std::uint64_t lo,
                           std::uint64_t hi);

// A finite number using all of `text` (strtod syntax; "nan" and "inf" are
// refused). False on anything else; no message, callers know the context.
bool parse_finite_double(const std::string& text, double& out);

// A finite number > 0, or UsageError "--OPTION: 'TEXT' is not a positive number".
double parse_positive(const std::string& text, const std::string& option);

// "a,b,c" -> {"a", "b", "c"}; empty items are kept ("a,,b" has three), so
// callers refuse them with a message instead of skipping them silently.
std::vector<std::string> split_commas(const std::string& text);

}  // namespace cli
