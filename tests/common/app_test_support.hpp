// Runs the sssp command in-process (app::run_sssp) and captures its streams.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "app/app.hpp"

namespace test_support {

struct SsspRun {
  int code = -1;
  std::string out;
  std::string err;
};

// A report with its wrapped lines joined (the default report wraps at 100
// columns, continuing under the value column), for phrases that may wrap.
inline std::string unwrapped(std::string text) {
  const std::string continuation = "\n              ";
  for (std::size_t at = text.find(continuation); at != std::string::npos; at = text.find(continuation, at))
    text.replace(at, continuation.size(), " ");
  return text;
}

inline SsspRun run_sssp(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"sssp"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  SsspRun r;
  r.code = app::run_sssp(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

}  // namespace test_support
