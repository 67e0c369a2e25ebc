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

static std::string format_message(const std::string& file, std::uint64_t line, const std::string& what) {
  std::string out = file;
  if (line != 0) out += ":" + std::to_string(line);
  out += ": " + what;
  return out;
}

InputError::InputError(InputErrorKind kind, std::string file, std::uint64_t line, const std::string& what)
    : std::runtime_error(format_message(file, line, what)), kind_(kind), file_(std::move(file)), line_(line) {}

}  // namespace graph
