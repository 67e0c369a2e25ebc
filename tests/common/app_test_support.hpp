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
