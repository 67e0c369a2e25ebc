// `sssp --help` (one screen: what a newcomer needs), `--help-all` (every
// option, grouped) and `--version`.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <boost/make_shared.hpp>
#include <boost/program_options.hpp>

#include "app/json_report.hpp"
#include "app/options.hpp"

namespace app {

namespace po = boost::program_options;

namespace {

// Wide enough that no help text wraps inside a word, narrow enough for a
// 100-column terminal.
constexpr unsigned kHelpWidth = 100;
constexpr unsigned kDescriptionColumn = 34;

struct Group {
  const char* caption;
  std::vector<const char*> names;
};

// --help-all's groups, in the order a user meets the questions.
const std::vector<Group>& groups() {
  static const std::vector<Group> kGroups{
      {"Input", {"graph", "generate", "format", "labels", "undirected", "weights", "seed", "cache"}},
      {"Query",
       {"source", "sources", "random-sources", "targets", "path-to", "strategy", "device", "delta", "delta-sweep",
        "contract", "batch", "threads", "runs", "predecessors"}},
      {"Output",
       {"output", "json", "json-distances", "validate", "verbose", "quiet", "help", "help-all", "version"}},
      {"GPU tuning", {"buckets", "load-balance", "vertex-order", "gpu-memory-limit"}},
  };
  return kGroups;
}

std::string cuda_version(int v) {
  if (v <= 0) return "none";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

std::string help_text() {
  return "sssp: single-source shortest paths on the GPU, and on the CPU where there is none\n"
         "\n"
         "Usage: sssp (--graph FILE | --graph - --format F | --generate SPEC) [options]\n"
         "\n"
         "Common options:\n"
         "  -g, -f, --graph FILE|-     .mtx, .gr, .el, .wel, .csv, .txt, .edges (optionally .gz) or .bin;\n"
         "                             - reads standard input (give --format)\n"
         "  --generate SPEC            rmat:SCALE:EF, grid:ROWS:COLS or urand:N:DEG (default rmat:16:16)\n"
         "  --format F                 mtx|gr|el|wel|csv|bin when the file name does not tell\n"
         "  --labels                   edge list vertices are names: --source and the outputs use them\n"
         "  -s, --source ID[,ID...]    source vertices, ids as in the file (default: the first vertex)\n"
         "  --sources FILE             source ids, one per line; --random-sources K: K seeded ones\n"
         "  --strategy NAME            auto (default), near-far, bellman-ford, bucket-sort,\n"
         "                             bucket-multisplit, phast (GPU); delta-stepping, dijkstra,\n"
         "                             phast-cpu (CPU); a comma list; all\n"
         "  --validate                 check every result against CPU Dijkstra (exit 1 on a mismatch)\n"
         "  -o, --output FILE|-        distances, 'id distance' lines; - writes them to stdout\n"
         "  --predecessors             shortest-path trees too: --output writes 'id distance predecessor'\n"
         "  --path-to ID               the distance to ID (and the path, with --predecessors)\n"
         "  --json FILE|-              the whole run as JSON; --json-distances adds the distances\n"
         "  -r, -n, --runs N           timed runs after one warm-up (default 1)\n"
         "  -v, --verbose              the full report: every counter, one row per source\n"
         "  -q, --quiet                stdout carries only the data asked for\n"
         "  --help-all                 every option, grouped; --version: version, commit, CUDA\n"
         "\n"
         "Examples:\n"
         "  sssp --graph road.gr --source 1 --validate\n"
         "  sssp -f road.gr -s 1 --output - -q | sort -k2,2n | head     the nearest vertices\n"
         "  zcat g.el.gz | sssp --graph - --format el --output dist.txt\n"
         "  sssp --graph road.gr --source 1 --path-to 49109 --predecessors\n"
         "  sssp --graph road.gr --sources depots.txt --targets 1,49109 --output table.txt\n"
         "  sssp --generate rmat:20:16 --random-sources 8 --runs 5 --json results.json\n"
         "  sssp --graph road.gr --strategy all --validate              every strategy, compared\n"
         "\n"
         "Exit status: 0 success, 1 runtime failure or validation mismatch, 2 bad input or options.\n"
         "Benchmarks: sssp bench --help (GPU); build/graph/cpu_sssp_bench --help (CPU).\n";
}

std::string help_all_text() {
  const po::options_description all = sssp_options_description();
  std::vector<std::string> listed;
  std::ostringstream text;
  text << "sssp: single-source shortest paths on the GPU, and on the CPU where there is none\n\n"
          "Usage: sssp (--graph FILE | --graph - --format F | --generate SPEC) [options]\n"
          "(docs/USAGE.md explains every rule and output format.)\n";
  for (const Group& group : groups()) {
    po::options_description desc(group.caption, kHelpWidth, kDescriptionColumn);
    for (const char* name : group.names) {
      const po::option_description* option = all.find_nothrow(name, false);
      if (!option) continue;  // an option another front end has
      desc.add(boost::make_shared<po::option_description>(*option));
      listed.emplace_back(name);
    }
    text << "\n" << desc;
  }
  // An option added without a group still shows, under "Other".
  po::options_description other("Other", kHelpWidth, kDescriptionColumn);
  bool any_other = false;
  for (const auto& option : all.options()) {
    if (std::find(listed.begin(), listed.end(), option->long_name()) != listed.end()) continue;
    other.add(option);
    any_other = true;
  }
  if (any_other) text << "\n" << other;
  text << "\nGAP spellings: -f FILE is --graph FILE, -n N is --runs N; .wel files are weighted edge lists.\n"
          "Exit status: 0 success, 1 runtime failure or validation mismatch, 2 bad input or options.\n";
  return text.str();
}

std::string version_text() {
  int runtime = 0, driver = 0;
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  std::ostringstream text;
  text << "sssp " << tool_version() << "\n"
       << "git commit    " << git_commit() << "\n"
       << "CUDA          built with " << cuda_version(CUDART_VERSION) << ", runtime " << cuda_version(runtime)
       << ", driver supports " << (driver > 0 ? cuda_version(driver) : std::string("none (no CUDA driver)")) << "\n";
  return text.str();
}

}  // namespace app
