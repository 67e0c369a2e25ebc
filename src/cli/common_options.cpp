#include "cli/common_options.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "cli/id_file.hpp"
#include "cli/values.hpp"
#include "graph/error.hpp"
#include "graph/generators.hpp"
#include "graph/weights.hpp"

namespace cli {

namespace {

struct OptionText {
  Common option;
  const char* name;   // Boost spelling: "graph,g"
  const char* value;  // value name; nullptr: a switch
};

// One row per common option: its spelling and value name. The help texts
// are in help_for, since some name the front end's default.
constexpr OptionText kOptions[] = {
    {Common::Graph, "graph,g", "FILE"},
    {Common::Generate, "generate", "SPEC"},
    {Common::Undirected, "undirected", nullptr},
    {Common::Weights, "weights,w", "RULE"},
    {Common::Seed, "seed", "S"},
    {Common::Source, "source,s", "ID"},
    {Common::RandomSources, "random-sources", "K"},
    {Common::SourcesFile, "sources", "FILE"},
    {Common::Threads, "threads,t", "T"},
    {Common::Runs, "runs,r", "N"},
    {Common::Delta, "delta,d", "auto|VALUE"},
    {Common::DeltaC, "delta-c", "C,C..."},
    {Common::Buckets, "buckets", "B"},
    {Common::Predecessors, "predecessors", nullptr},
    {Common::Json, "json", "FILE"},
};

const OptionText& text_of(Common option) {
  for (const OptionText& t : kOptions)
    if (t.option == option) return t;
  return kOptions[0];  // unreachable: every enumerator has a row
}

std::string list_note(std::size_t max) { return max == 1 ? "" : "; comma separated or repeated, several allowed"; }

std::string help_for(Common option, const FrontEnd& fe) {
  switch (option) {
    case Common::Graph:
      return "graph file: .mtx, .gr, .el/.wel/.csv/.txt/.edges (optionally .gz) or .bin cache; FILE@RULE gives the file "
             "its own weight rule (see --weights)" + list_note(fe.max_graphs);
    case Common::Generate:
      return "generate a graph instead: rmat:SCALE:EF[:A:B:C:D], grid:ROWS:COLS or urand:N:DEG" +
             list_note(fe.max_graphs) +
             (fe.default_generate.empty() ? std::string()
                                          : " (default when neither --graph nor --generate: " + fe.default_generate + ")");
    case Common::Undirected: return "treat a directed file as undirected (mirror every arc)";
    case Common::Weights:
      return "file|unit|random|random:LO:HI (default file: the file's own weights; files without weights and "
             "generated graphs get random:1:1000)";
    case Common::Seed: return "seed of weights, generators and random sources (default 1)";
    case Common::Source:
      return std::string(fe.max_sources == 1 ? "source vertex" : "source vertices, comma separated or repeated") +
             ", ids as in the file (1-based for .mtx/.gr, 0-based for .el and generated graphs); default: " +
             fe.default_source;
    case Common::RandomSources: return "K distinct sources chosen (seeded) among vertices with out-arcs";
    case Common::SourcesFile:
      return "source vertices from a file: one id per line, ids as in the graph file; blank lines and lines "
             "starting with # are skipped";
    case Common::Threads:
      return std::string("CPU threads for loading and delta-stepping, 0: all cores") +
             (fe.max_thread_counts == 1 ? "" : "; a comma list measures each") + " (default " + fe.default_threads + ")";
    case Common::Runs: return "timed runs per measurement, after one warm-up run (default " + std::to_string(fe.default_runs) + ")";
    case Common::Delta:
      return std::string("bucket width") + (fe.max_deltas == 1 ? "" : "s to try, comma separated,") +
             " or auto: c x mean weight / mean out-degree on the GPU (after Davidson et al., c = 16, or 128 on graphs of"
             " high hop diameter" +
             (fe.takes(Common::DeltaC) ? ", or each --delta-c" : "") +
             "), the CPU's own rule (graph::auto_delta_cpu) on the CPU (default auto)";
    case Common::DeltaC:
      return "c values of the auto delta c x mean weight / mean out-degree to try, comma separated (default " +
             (fe.default_delta_c.empty() ? std::string("the GPU's rule: 16, or 128 on graphs of high hop diameter")
                                         : fe.default_delta_c) +
             ")";
    case Common::Buckets: return "bucketing strategies: number of buckets, 2 to 4096 (default 10)";
    case Common::Predecessors:
      return "also compute shortest-path trees; checked wherever distances are (sssp --validate, every result of "
             "sssp bench)";
    case Common::Json: return "write the results as JSON to FILE";
  }
  return "";
}

void add_option(po::options_description& desc, const char* name, const OptionText& text, const std::string& help) {
  // Lists (graph, generate, source) may be repeated; every other value once.
  const bool repeatable = text.option == Common::Graph || text.option == Common::Generate || text.option == Common::Source;
  if (!text.value) {
    desc.add_options()(name, po::bool_switch(), help.c_str());
  } else if (repeatable) {
    desc.add_options()(name, po::value<std::vector<std::string>>()->composing()->value_name(text.value), help.c_str());
  } else {
    desc.add_options()(name, po::value<std::string>()->value_name(text.value), help.c_str());
  }
}

// The option's values as typed (a repeatable one joined with commas), from
// its name or, if absent, its alias. Null when neither was given.
struct Given {
  bool present = false;
  std::string text;
  std::vector<std::string> items;  // comma-separated items of every occurrence
};

Given given(const po::variables_map& vm, Common option, const FrontEnd& fe) {
  const std::string name = option_name(option);
  std::string alias;
  for (const auto& [o, old_name] : fe.aliases)
    if (o == option) alias = old_name;
  const bool main_given = vm.count(name) && !vm[name].defaulted();
  const bool alias_given = !alias.empty() && vm.count(alias) && !vm[alias].defaulted();
  if (main_given && alias_given)
    throw UsageError("--" + alias + " is the old name of --" + name + ": give one of them");
  Given g;
  const std::string& key = main_given ? name : alias;
  if (!main_given && !alias_given) return g;
  g.present = true;
  const po::variable_value& value = vm[key];
  if (value.value().type() == typeid(bool)) return g;
  std::vector<std::string> occurrences;
  if (value.value().type() == typeid(std::vector<std::string>)) occurrences = value.as<std::vector<std::string>>();
  else occurrences.push_back(value.as<std::string>());
  for (const std::string& occurrence : occurrences) {
    g.text += (g.text.empty() ? "" : ",") + occurrence;
    for (std::string& item : split_commas(occurrence)) g.items.push_back(std::move(item));
  }
  return g;
}

bool switch_set(const po::variables_map& vm, Common option) {
  const auto it = vm.find(option_name(option));
  return it != vm.end() && it->second.as<bool>();
}

void check_count(std::size_t count, std::size_t max, const std::string& what, const std::string& option) {
  if (count > max)
    throw UsageError("--" + option + ": this command takes " + (max == 1 ? "one " : std::to_string(max) + " ") + what +
                     ", got " + std::to_string(count));
}

bool is_generator_spec(const std::string& text) {
  try {
    (void)graph::GeneratorSpec::parse(text);
    return true;
  } catch (const graph::InputError&) {
    return false;
  }
}

// FILE or FILE@RULE: the rule after the last '@' of the file name (not of
// a directory), checked like --weights.
GraphFile graph_file(const std::string& item, const std::string& weights, std::uint64_t seed) {
  if (item.empty()) throw UsageError("--graph: empty file name");
  // cpu_sssp_bench's -g once meant --generate; -g is --graph everywhere now.
  std::error_code ignored;  // a symlink loop is not a generator spec either: the loader names the problem
  if (!std::filesystem::exists(item, ignored) && is_generator_spec(item))
    throw UsageError("--graph " + item + ": no such file; a generator spec goes with --generate");
  const auto slash = item.find_last_of('/');
  const auto at = item.find_last_of('@');
  if (at == std::string::npos || (slash != std::string::npos && at < slash)) return {item, weights, false};
  GraphFile file{item.substr(0, at), item.substr(at + 1), true};
  if (file.path.empty()) throw UsageError("--graph: empty file name in '" + item + "'");
  try {
    (void)graph::WeightRule::parse(file.weights, seed);
  } catch (const graph::InputError&) {
    throw UsageError("--graph " + item + ": '" + file.weights +
                     "' after '@' is not a weight rule (expected file, unit, random or random:LO:HI)");
  }
  return file;
}

std::vector<double> positive_list(const Given& g, const std::string& option) {
  std::vector<double> values;
  for (const std::string& item : g.items) values.push_back(parse_positive(item, option));
  return values;
}

}  // namespace

const char* option_name(Common option) {
  switch (option) {
    case Common::Graph: return "graph";
    case Common::Generate: return "generate";
    case Common::Undirected: return "undirected";
    case Common::Weights: return "weights";
    case Common::Seed: return "seed";
    case Common::Source: return "source";
    case Common::RandomSources: return "random-sources";
    case Common::SourcesFile: return "sources";
    case Common::Threads: return "threads";
    case Common::Runs: return "runs";
    case Common::Delta: return "delta";
    case Common::DeltaC: return "delta-c";
    case Common::Buckets: return "buckets";
    case Common::Predecessors: return "predecessors";
    case Common::Json: return "json";
  }
  return "?";
}

bool FrontEnd::takes(Common option) const {
  return std::find(options.begin(), options.end(), option) != options.end();
}

po::options_description common_options_description(const FrontEnd& fe, const std::string& caption) {
  po::options_description desc(caption);
  for (const OptionText& text : kOptions)
    if (fe.takes(text.option)) add_option(desc, text.name, text, help_for(text.option, fe));
  return desc;
}

po::options_description alias_options_description(const FrontEnd& fe) {
  po::options_description desc("Old option names");
  for (const auto& [option, old_name] : fe.aliases)
    for (const Common taken : fe.options)
      if (old_name == option_name(taken))
        throw std::logic_error("cli: the old name --" + old_name + " is also an option of this front end");
  for (const auto& [option, old_name] : fe.aliases)
    add_option(desc, old_name.c_str(), text_of(option), std::string("old name of --") + option_name(option));
  return desc;
}

po::variables_map parse_command_line(int argc, const char* const* argv, const po::options_description& all) {
  po::variables_map vm;
  try {
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    // An empty positional description makes any stray word an error.
    const po::positional_options_description no_positionals;
    po::store(po::command_line_parser(argc, argv).options(all).positional(no_positionals).style(style).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return vm;
}

CommonOptions read_common_options(const po::variables_map& vm, const FrontEnd& fe) {
  CommonOptions o;
  o.runs = fe.default_runs;
  auto get = [&](Common option) { return fe.takes(option) ? given(vm, option, fe) : Given{}; };

  // Seed first: the weight rules are checked with it.
  if (const Given g = get(Common::Seed); g.present) o.seed = parse_u64(g.text, "seed");
  if (const Given g = get(Common::Weights); g.present) {
    try {
      (void)graph::WeightRule::parse(g.text, o.seed);
    } catch (const graph::InputError& e) {
      throw UsageError(e.what());  // "--weights: bad weight rule ..."
    }
    o.weights = g.text;
  }

  // ---- Graphs.
  const Given graphs = get(Common::Graph);
  const Given generate = get(Common::Generate);
  if (fe.max_graphs == 1 && graphs.present && generate.present)
    throw UsageError("--graph and --generate conflict: give one of them");
  for (const std::string& item : graphs.items) o.graphs.push_back(graph_file(item, o.weights, o.seed));
  for (const std::string& spec : generate.items) {
    if (spec.empty()) throw UsageError("--generate: empty generator spec");
    try {
      (void)graph::GeneratorSpec::parse(spec);
    } catch (const graph::InputError& e) {
      throw UsageError(e.what());  // "--generate: ..."
    }
    o.generate.push_back(spec);
  }
  check_count(o.graphs.size() + o.generate.size(), fe.max_graphs, "graph", graphs.present ? "graph" : "generate");
  if (!graphs.present && !generate.present && !fe.default_generate.empty()) {
    o.generate = split_commas(fe.default_generate);
    o.generate_defaulted = true;
  }
  o.undirected = fe.takes(Common::Undirected) && switch_set(vm, Common::Undirected);

  // ---- Sources.
  const Given sources = get(Common::Source);
  for (const std::string& id : sources.items) o.sources.push_back(parse_u64(id, "source"));
  check_count(o.sources.size(), fe.max_sources, "source", "source");
  if (const Given g = get(Common::SourcesFile); g.present) {
    if (sources.present) throw UsageError("--source and --sources conflict: give one of them");
    o.sources_file = g.text;
    o.sources_from_file = read_id_file(g.text, "sources");
    o.sources = o.sources_from_file.ids;
    check_count(o.sources.size(), fe.max_sources, "source", "sources");
  }
  if (const Given g = get(Common::RandomSources); g.present) {
    if (sources.present) throw UsageError("--source and --random-sources conflict: give one of them");
    if (!o.sources_file.empty()) throw UsageError("--sources and --random-sources conflict: give one of them");
    o.random_sources = static_cast<std::uint32_t>(parse_u64_in(g.text, "random-sources", 1, 1u << 20));
  }

  // ---- Measurement.
  const Given threads = get(Common::Threads);
  o.threads.clear();
  for (const std::string& t : threads.present ? threads.items : split_commas(fe.default_threads))
    o.threads.push_back(static_cast<int>(parse_u64_in(t, "threads", 0, 4096)));
  check_count(o.threads.size(), fe.max_thread_counts, "thread count", "threads");
  if (const Given g = get(Common::Runs); g.present)
    o.runs = static_cast<std::uint32_t>(parse_u64_in(g.text, "runs", 1, 100000));

  // ---- Delta.
  if (const Given g = get(Common::Delta); g.present) {
    o.delta_given = true;
    if (g.text != "auto") {
      for (const std::string& item : g.items) {
        double delta = 0;
        if (item == "auto") throw UsageError("--delta: 'auto' cannot be combined with values ('" + g.text + "')");
        if (!parse_finite_double(item, delta) || !(delta > 0))
          throw UsageError("--delta: '" + item + "' is not 'auto' or a positive number");
        o.deltas.push_back(delta);
      }
      check_count(o.deltas.size(), fe.max_deltas, "delta", "delta");
    }
  }
  if (fe.takes(Common::DeltaC)) {
    const Given g = get(Common::DeltaC);
    Given defaults;
    if (!fe.default_delta_c.empty()) defaults.items = split_commas(fe.default_delta_c);  // empty: the front end's rule
    o.delta_cs = positive_list(g.present ? g : defaults, "delta-c");
  }
  // 2 to 4096: the GPU bucketing strategies' range (kMaxBuckets in
  // src/sssp/workspace.cuh); checked here so a bad value fails before the run.
  if (const Given g = get(Common::Buckets); g.present)
    o.buckets = static_cast<std::uint32_t>(parse_u64_in(g.text, "buckets", 2, 4096));

  // ---- Outputs.
  o.predecessors = fe.takes(Common::Predecessors) && switch_set(vm, Common::Predecessors);
  if (const Given g = get(Common::Json); g.present) {
    if (g.text.empty()) throw UsageError("--json: empty file name");
    o.json_path = g.text;
  }
  return o;
}

}  // namespace cli
