#include "cpu_sssp_bench_options.hpp"

#include <algorithm>
#include <sstream>

namespace cpu_bench {

namespace {

namespace po = boost::program_options;

po::options_description own_options() {
  po::options_description desc("cpu_sssp_bench options");
  desc.add_options()("help,h", "print this help")(
      "sweep", po::bool_switch(),
      "with --delta auto: try c = 1/32, 1/16, ..., 256 (instead of --delta-c)");
  return desc;
}

}  // namespace

cli::FrontEnd cpu_bench_front_end(int max_threads) {
  using cli::Common;
  cli::FrontEnd fe;
  fe.options = {Common::Graph, Common::Generate, Common::Undirected, Common::Weights, Common::Seed, Common::Source,
                Common::SourcesFile, Common::Threads, Common::Runs, Common::Delta, Common::DeltaC, Common::Json};
  fe.max_sources = 1;
  fe.default_generate = "rmat:16:16,grid:256:256";
  fe.default_runs = 5;
  fe.default_threads = "1,2," + std::to_string(std::max(1, max_threads));
  // auto_delta_cpu(g) is always tried too, as "cpu-auto". Small c suits
  // CPUs on power-law graphs (GAP runs kron with delta 2 for weights
  // 1..255), 32 is the GPU's rule.
  fe.default_delta_c = "0.125,0.5,2,8,32";
  fe.default_source = "a seeded random vertex with out-arcs";
  return fe;
}

CpuBenchOptions parse_cpu_bench_options(int argc, const char* const* argv, int max_threads) {
  const cli::FrontEnd fe = cpu_bench_front_end(max_threads);
  po::options_description all;
  all.add(cli::common_options_description(fe)).add(own_options());
  const po::variables_map vm = cli::parse_command_line(argc, argv, all);
  CpuBenchOptions options;
  if (vm.count("help")) {
    options.help = true;
    return options;
  }
  options.common = cli::read_common_options(vm, fe);
  for (const int t : options.common.threads) {
    const int threads = t == 0 ? std::max(1, max_threads) : t;
    if (std::find(options.threads.begin(), options.threads.end(), threads) == options.threads.end())
      options.threads.push_back(threads);
  }
  if (vm["sweep"].as<bool>()) {
    if (!options.common.deltas.empty()) throw cli::UsageError("--sweep needs --delta auto");
    if (vm.count("delta-c")) throw cli::UsageError("--sweep and --delta-c conflict: the sweep chooses the c values");
    options.common.delta_cs.clear();
    for (double c = 1.0 / 32; c <= 256; c *= 2) options.common.delta_cs.push_back(c);
  }
  return options;
}

std::string cpu_bench_help(int max_threads) {
  std::ostringstream text;
  text << "Usage: cpu_sssp_bench [--generate SPEC[,SPEC...]] [--graph FILE[,FILE...]] [options]\n"
          "Times Dijkstra and parallel delta-stepping (median of --runs after one warm-up).\n\n"
       << cli::common_options_description(cpu_bench_front_end(max_threads)) << "\n"
       << own_options();
  return text.str();
}

}  // namespace cpu_bench
