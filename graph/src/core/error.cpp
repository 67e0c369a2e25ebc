#include "graph/error.hpp"

namespace graph {

const char* to_string(InputErrorKind kind) {
  switch (kind) {
    case InputErrorKind::CannotOpen: return "cannot open";
    case InputErrorKind::BadHeader: return "bad header";
    case InputErrorKind::Unsupported: return "unsupported";
    case InputErrorKind::BadToken: return "bad token";
    case InputErrorKind::CountMismatch: return "count mismatch";
    case InputErrorKind::IdOutOfRange: return "id out of range";
    case InputErrorKind::Overflow: return "overflow";
    case InputErrorKind::BadWeight: return "bad weight";
    case InputErrorKind::Truncated: return "truncated";
    case InputErrorKind::CorruptCache: return "corrupt cache";
    case InputErrorKind::BadArgument: return "bad argument";
  }
  return "input error";
}

std::string printable(std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  auto escape = [&](unsigned char c) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  };
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p != end) {
    const unsigned char c = *p;
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) escape(c); else out += static_cast<char>(c);
      ++p;
      continue;
    }
    // A well-formed UTF-8 sequence is kept unless it encodes a C1 control
    // (U+0080..U+009F, which terminals may act on); anything else is escaped
    // byte by byte.
    const int length = c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
    bool valid = length > 0 && end - p >= length;
    for (int i = 1; valid && i < length; ++i) valid = (p[i] & 0xc0) == 0x80;
    if (valid && length == 3) valid = !(c == 0xe0 && p[1] < 0xa0) && !(c == 0xed && p[1] >= 0xa0);
    if (valid && length == 4) valid = !(c == 0xf0 && p[1] < 0x90) && !(c == 0xf4 && p[1] >= 0x90);
    if (valid && length == 2 && c == 0xc2 && p[1] < 0xa0) valid = false;  // C1 control
    if (!valid) {
      escape(c);
      ++p;
      continue;
    }
    out.append(reinterpret_cast<const char*>(p), static_cast<std::size_t>(length));
    p += length;
  }
  return out;
}

static std::string format_message(const std::string& file, std::uint64_t line, const std::string& what) {
  // Names and tokens come from the input: what reaches a terminal is escaped.
  std::string out = printable(file);
  if (line != 0) out += ":" + std::to_string(line);
  out += ": " + printable(what);
  return out;
}

InputError::InputError(InputErrorKind kind, std::string file, std::uint64_t line, const std::string& what)
    : std::runtime_error(format_message(file, line, what)), kind_(kind), file_(std::move(file)), line_(line) {}

}  // namespace graph
