// Errors raised on bad input. Every message names the file and, where there
// is one, the line: "FILE:LINE: what is wrong".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace graph {

// What kind of problem was found; tests assert on it, front ends may map it
// to exit codes (the `sssp` command exits with 2 for any InputError).
enum class InputErrorKind {
  CannotOpen,       // missing or unreadable file
  BadHeader,        // banner / problem line missing or malformed
  Unsupported,      // a valid format variant we refuse (array, complex, ...)
  BadToken,         // non-numeric or malformed token
  CountMismatch,    // declared sizes disagree with the entries
  IdOutOfRange,     // vertex id 0 (1-based formats) or beyond the declared size
  Overflow,         // a number or count that does not fit its type
  BadWeight,        // negative, NaN or infinite weight
  Truncated,        // file ends early
  CorruptCache,     // binary cache fails its checks
  BadArgument,      // a bad option value (generator spec, weight rule, ...)
};

const char* to_string(InputErrorKind kind);

// text with control bytes (C0, DEL, C1) and malformed UTF-8 escaped as \xNN,
// so that bytes from an input file or cache cannot drive a terminal.
std::string printable(std::string_view text);

class InputError : public std::runtime_error {
 public:
  // line == 0 means "no particular line".
  InputError(InputErrorKind kind, std::string file, std::uint64_t line, const std::string& what);

  InputErrorKind kind() const noexcept { return kind_; }
  const std::string& file() const noexcept { return file_; }
  std::uint64_t line() const noexcept { return line_; }

 private:
  InputErrorKind kind_;
  std::string file_;
  std::uint64_t line_;
};

}  // namespace graph
