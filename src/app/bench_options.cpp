#include "app/bench_options.hpp"

#include <sstream>

#include "app/options.hpp"
#include "cli/values.hpp"

namespace app {

namespace {

namespace po = boost::program_options;

po::options_description bench_description() {
  po::options_description desc("sssp bench options");
  desc.add_options()
      ("help,h", "print this help and exit")
      ("strategy", po::value<std::string>()->value_name("NAME,..."),
       "GPU strategies to time, comma separated: near-far, bucket-sort, bucket-multisplit, bellman-ford, "
       "or all (default all); the CPU delta-stepping is the baseline row")
      ("load-balance", po::value<std::string>()->value_name("LB,..."),
       "GPU relax load balancing, comma separated: auto, three-stage, binned, merge-path (default auto); "
       "several: one row set each")
      ("no-cpu", po::bool_switch(), "skip timing the CPU delta-stepping (it still provides the reference)")
      ("cpu-delta-c", po::value<std::string>()->value_name("C,..."),
       "the CPU baseline runs at the fastest of auto_delta_cpu and c x mean weight / mean out-degree for "
       "each c (a short probe per graph)")
      ("markdown", po::value<std::string>()->value_name("FILE"), "write the table here too");
  return desc;
}

// Old names, parsed but not printed.
po::options_description bench_aliases() {
  po::options_description desc;
  desc.add_options()("strategies", po::value<std::string>(), "old name of --strategy");
  return desc;
}

std::vector<sssp::Strategy> gpu_strategies(const std::string& text) {
  const std::vector<std::string> names = cli::split_commas(text);
  if (names.size() == 1 && names.front() == "all") return sssp::all_strategies();
  std::vector<sssp::Strategy> strategies;
  for (const std::string& name : names) {
    const Algorithm a = parse_algorithm(name);  // sssp's names and message
    if (uses_hierarchy(a))
      throw UsageError("--strategy: the bench does not time phast (contraction_bench does, against the same baselines)");
    if (!runs_on_gpu(a))
      throw UsageError("--strategy: '" + name + "' is not a GPU strategy (the bench times near-far, bucket-sort, "
                       "bucket-multisplit and bellman-ford against the CPU delta-stepping)");
    strategies.push_back(sssp::parse_strategy(name));
  }
  return strategies;
}

}  // namespace

cli::FrontEnd bench_front_end() {
  using cli::Common;
  cli::FrontEnd fe;
  fe.options = {Common::Graph, Common::Generate, Common::Undirected, Common::Weights, Common::Seed,
                Common::RandomSources, Common::Threads, Common::Runs, Common::Delta, Common::DeltaC,
                Common::Buckets, Common::Predecessors, Common::Json};
  fe.max_thread_counts = 1;
  fe.max_deltas = 1;
  fe.default_runs = 5;
  fe.default_threads = "0";
  fe.default_delta_c = "";  // the GPU's rule, as sssp uses it (sssp::choose_delta_c)
  fe.aliases = {{Common::RandomSources, "sources"}, {Common::Threads, "cpu-threads"}};
  return fe;
}

BenchOptions parse_bench_options(int argc, const char* const* argv) {
  const cli::FrontEnd fe = bench_front_end();
  po::options_description all;
  all.add(cli::common_options_description(fe))
      .add(cli::alias_options_description(fe))
      .add(bench_description())
      .add(bench_aliases());
  const po::variables_map vm = cli::parse_command_line(argc, argv, all);
  BenchOptions o;
  if (vm.count("help")) {
    o.help = true;
    return o;
  }
  o.common = cli::read_common_options(vm, fe);
  if (o.common.random_sources > 0) o.sources = o.common.random_sources;
  o.cpu = !vm["no-cpu"].as<bool>();
  if (vm.count("cpu-delta-c")) {
    if (!o.common.deltas.empty()) throw UsageError("--cpu-delta-c and --delta conflict: --delta fixes the CPU's delta too");
    for (const std::string& c : cli::split_commas(vm["cpu-delta-c"].as<std::string>()))
      o.cpu_delta_c.push_back(cli::parse_positive(c, "cpu-delta-c"));
  }
  if (vm.count("strategy") && vm.count("strategies"))
    throw UsageError("--strategies is the old name of --strategy: give one of them");
  for (const char* name : {"strategy", "strategies"})
    if (vm.count(name)) o.strategies = gpu_strategies(vm[name].as<std::string>());
  if (vm.count("load-balance")) {
    o.load_balances.clear();
    for (const std::string& name : cli::split_commas(vm["load-balance"].as<std::string>()))
      o.load_balances.push_back(parse_load_balance_option(name));
    o.name_load_balance = true;
  }
  if (vm.count("markdown")) {
    o.markdown_path = vm["markdown"].as<std::string>();
    if (o.markdown_path.empty()) throw UsageError("--markdown: empty file name");
  }
  return o;
}

std::string bench_help_text() {
  std::ostringstream text;
  text << "sssp bench (also the sssp_bench binary): every GPU strategy and the CPU delta-stepping on the same\n"
          "graphs and sources; one markdown table on stdout, progress on stderr.\n\n"
          "Usage: sssp bench (--graph FILE... | --generate SPEC...) [options]\n\n"
       << cli::common_options_description(bench_front_end()) << "\n"
       << bench_description()
       << "\nExamples:\n"
          "  sssp bench --generate rmat:20:16 --generate grid:2048:2048 --graph road/DE.gr --runs 5\n"
          "  sssp_bench --generate rmat:20:16 --no-cpu --delta-c 2,8,32,128 --json sweep.json\n\n"
          "Exit status: 0 all results valid, 3 some result invalid, 1 runtime failure (no GPU), "
          "2 bad options.\n";
  return text.str();
}

}  // namespace app
