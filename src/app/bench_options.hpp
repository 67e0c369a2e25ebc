// The command line of `sssp bench` (also the `sssp_bench` binary): the
// common options (src/cli/common_options.hpp) plus the benchmark's own.
#pragma once

#include <string>
#include <vector>

#include "cli/common_options.hpp"
#include "sssp/solver.hpp"

namespace app {

struct BenchOptions {
  cli::CommonOptions common;
  std::uint32_t sources = 1;  // --random-sources, at least one per graph
  bool cpu = true;            // time the CPU delta-stepping (--no-cpu: it only gives the reference)
  // The CPU baseline's delta: graph::auto_delta_cpu, or with these c values
  // also c * mean weight / mean degree each, the fastest of them on a probe.
  std::vector<double> cpu_delta_c;
  std::vector<sssp::Strategy> strategies = sssp::all_strategies();
  // Relax load balancing, one solver (and row set) per entry; the rows name
  // it when it was asked for explicitly.
  std::vector<sssp::LoadBalance> load_balances{sssp::LoadBalance::Auto};
  bool name_load_balance = false;
  std::string markdown_path;
  bool help = false;
};

// The common options the bench takes: several graphs, one thread count and
// one delta, five runs by default, auto delta by the GPU's rule
// (sssp::choose_delta_c) unless --delta-c lists c values; the
// old names --sources and --cpu-threads still work.
cli::FrontEnd bench_front_end();

// Parses and checks argv (argv[0] is the program name). Throws UsageError.
BenchOptions parse_bench_options(int argc, const char* const* argv);

std::string bench_help_text();

}  // namespace app
