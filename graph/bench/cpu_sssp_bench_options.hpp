// The cpu_sssp_bench command line: the common options (src/cli) plus its
// own --sweep, apart from main() so the tests can parse with it.
#pragma once

#include <string>
#include <vector>

#include "cli/common_options.hpp"

namespace cpu_bench {

struct CpuBenchOptions {
  cli::CommonOptions common;
  std::vector<int> threads;  // common.threads with 0 resolved to max_threads, duplicates dropped
  bool help = false;
};

// The common options cpu_sssp_bench takes, with its defaults (thread counts
// 1, 2 and all of the machine's `max_threads`).
cli::FrontEnd cpu_bench_front_end(int max_threads);

// Parses and checks argv (argv[0] is the program name). --sweep becomes
// common.delta_cs = 1/32, 1/16, ..., 256. Throws cli::UsageError.
CpuBenchOptions parse_cpu_bench_options(int argc, const char* const* argv, int max_threads);

std::string cpu_bench_help(int max_threads);

}  // namespace cpu_bench
