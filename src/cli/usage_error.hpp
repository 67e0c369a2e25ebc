// A bad or conflicting command-line option. Every front end (sssp,
// sssp_bench, cpu_sssp_bench) prints its message as one line and exits with
// status 2, the status bad input has everywhere.
#pragma once

#include <stdexcept>

namespace cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cli
