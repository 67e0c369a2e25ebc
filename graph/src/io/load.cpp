// load_graph: format detection, the text readers, CSR building and the
// binary cache, glued together with timings for the report.
#include "graph/load.hpp"

#include <omp.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "graph/error.hpp"
#include "graph/io/binary_cache.hpp"
#include "graph/io/file_data.hpp"
#include "graph/io/readers.hpp"
#include "edge_text.hpp"

namespace graph {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// build_csr takes no thread count: limit OpenMP's default for this thread
// while loading, and restore it afterwards.
class ThreadLimit {
 public:
  explicit ThreadLimit(int threads) : saved_(omp_get_max_threads()) {
    if (threads > 0) omp_set_num_threads(threads);
  }
  ~ThreadLimit() { omp_set_num_threads(saved_); }
  ThreadLimit(const ThreadLimit&) = delete;
  ThreadLimit& operator=(const ThreadLimit&) = delete;

 private:
  int saved_;
};

template <class Weight>
Coo<Weight> to_coo(Csr<Weight>&& g) {
  Coo<Weight> coo;
  coo.num_vertices = g.num_vertices;
  coo.sources.resize(g.num_arcs());
  for (vertex_id v = 0; v < g.num_vertices; ++v)
    std::fill(coo.sources.begin() + static_cast<std::ptrdiff_t>(g.offsets[v]),
              coo.sources.begin() + static_cast<std::ptrdiff_t>(g.offsets[v + 1]), v);
  coo.targets = std::move(g.targets);
  coo.weights = std::move(g.weights);
  g = Csr<Weight>{};
  return coo;
}

// Applies --undirected and a weight override to a graph read from a cache
// file given directly (Format::Binary); a cache found beside a text file
// already matches the options.
AnyCsr adapt_binary(AnyCsr graph, const LoadOptions& options, LoadReport& report) {
  if (options.undirected && !report.symmetric) {
    graph = std::visit(
        [&](auto& g) -> AnyCsr {
          BuildStats stats;
          auto sym = build_csr(to_coo(std::move(g)), BuildOptions{true, true}, &stats);
          report.build.duplicates_dropped += stats.duplicates_dropped;
          report.build.arcs = stats.arcs;
          return sym;
        },
        graph);
    report.symmetric = true;
  }
  if (options.weights.kind != WeightRule::Kind::File) {
    graph = std::visit(
        [&](auto& g) -> AnyCsr {
          IntCsr out;
          out.num_vertices = g.num_vertices;
          out.offsets = std::move(g.offsets);
          out.targets = std::move(g.targets);
          out.weights.resize(out.targets.size());
          const auto n = static_cast<std::int64_t>(out.num_vertices);
#pragma omp parallel for schedule(dynamic, 1024)
          for (std::int64_t v = 0; v < n; ++v) {
            const auto u = static_cast<vertex_id>(v);
            for (edge_offset k = out.offsets[u]; k < out.offsets[u + 1]; ++k)
              out.weights[k] = options.weights.random_weight(u, out.targets[k]);
          }
          return out;
        },
        graph);
    report.weight_rule = options.weights.describe();
  }
  return graph;
}

void fill_from_cache(LoadReport& report, const io::CacheInfo& info) {
  report.id_base = info.id_base;
  report.symmetric = info.symmetric;
  report.file_has_weights = info.file_has_weights;
  report.weight_rule = info.weight_rule;
  report.build = info.build;
  report.from_cache = true;
}

}  // namespace

Format parse_format(const std::string& name) {
  if (name == "auto") return Format::Auto;
  if (name == "mtx") return Format::MatrixMarket;
  if (name == "gr") return Format::Dimacs;
  if (name == "el") return Format::EdgeList;
  if (name == "bin") return Format::Binary;
  if (name == "csv") return Format::Csv;
  throw InputError(InputErrorKind::BadArgument, "--format", 0,
                   "unknown format '" + name + "' (expected auto, mtx, gr, el, csv or bin)");
}

const char* to_string(Format f) {
  switch (f) {
    case Format::Auto: return "auto";
    case Format::MatrixMarket: return "mtx";
    case Format::Dimacs: return "gr";
    case Format::EdgeList: return "el";
    case Format::Binary: return "bin";
    case Format::Csv: return "csv";
  }
  return "?";
}

Format detect_format(const std::string& path) {
  std::string name = lower(std::filesystem::path(path).filename().string());
  const bool gz = ends_with(name, ".gz");
  if (gz) name.resize(name.size() - 3);
  if (ends_with(name, ".bin") || ends_with(name, ".bin.cache")) {
    if (gz)
      throw InputError(InputErrorKind::BadArgument, path, 0, "binary graph caches are never gzip-compressed");
    return Format::Binary;
  }
  if (ends_with(name, ".mtx")) return Format::MatrixMarket;
  if (ends_with(name, ".gr")) return Format::Dimacs;
  // .wel: GAP's weighted edge list, "U V W" on every line.
  if (ends_with(name, ".el") || ends_with(name, ".wel") || ends_with(name, ".txt") || ends_with(name, ".edges"))
    return Format::EdgeList;
  if (ends_with(name, ".csv")) return Format::Csv;
  if (path == "-")
    throw InputError(InputErrorKind::BadArgument, "stdin", 0,
                     "standard input has no file name to tell its format: name it with --format mtx|gr|el");
  throw InputError(InputErrorKind::BadArgument, path, 0,
                   "cannot tell the graph format from the file name (expected .mtx, .gr, .el, .wel, .txt, .edges, .csv, "
                   "optionally .gz, or .bin); name it with --format mtx|gr|el|bin");
}

namespace {

// Whether a path names something (a symlink loop or a permission problem
// counts as nothing usable; std::filesystem::exists would throw for it).
bool names_a_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// The cached graph when `cache_path` holds one built from this very source
// content with these options; nothing when it does not exist or is stale.
// A file there that is not a cache, or is damaged, is an error (CorruptCache).
std::optional<AnyCsr> read_fresh_cache(const std::string& path, const std::string& cache_path, Format format,
                                       const LoadOptions& options, const std::string& key, io::CacheInfo& info) {
  if (!names_a_file(cache_path)) return std::nullopt;
  const io::CacheFile cache(cache_path);
  const io::CacheInfo& h = cache.info();
  if (h.version != io::kCacheVersion || h.undirected_option != options.undirected || h.rule_key != key ||
      h.source_format != format)
    return std::nullopt;
  // Size and time say nothing about content (an edit can restore both):
  // the cache is used only for the bytes it was built from.
  io::FileIdentity source;
  const std::uint64_t hash = io::hash_file(path, &source);
  if (source.bytes != h.source_bytes || hash != h.source_hash) return std::nullopt;
  AnyCsr graph = cache.read();
  info = h;
  return graph;
}

}  // namespace

std::string cache_path_for(const std::string& path, const std::string& cache_path) {
  return cache_path.empty() ? path + ".bin.cache" : cache_path;
}

AnyCsr load_graph(const std::string& path, const LoadOptions& options, LoadReport* report_out) {
  const auto start = Clock::now();
  const ThreadLimit limit(options.threads);
  LoadReport report;
  report.path = path;
  const Format format = options.format == Format::Auto ? detect_format(path) : options.format;
  // "-" is standard input, named so in messages ("stdin:12: ...").
  const bool from_stdin = path == "-";
  const std::string name = from_stdin ? "stdin" : path;
  if (from_stdin && format == Format::Binary)
    throw InputError(InputErrorKind::BadArgument, name, 0, "a binary cache is read from a file, not from stdin");
  if (options.labels && format != Format::EdgeList && format != Format::Csv)
    throw InputError(InputErrorKind::BadArgument, name, 0,
                     std::string("labels are read from edge lists (.el, .wel, .txt, .edges, .csv), not from ") +
                         to_string(format) + " files");

  if (format == Format::Binary) {
    const io::CacheFile cache(path);
    AnyCsr graph = cache.read();
    report.format = Format::Binary;
    report.file_bytes = cache.file_bytes();
    fill_from_cache(report, cache.info());
    graph = adapt_binary(std::move(graph), options, report);
    report.total_seconds = seconds_since(start);
    if (report_out) *report_out = std::move(report);
    return graph;
  }

  // Only a regular file can be cached: a pipe cannot be read twice.
  struct stat source_stat {};
  if ((from_stdin ? ::fstat(0, &source_stat) : ::stat(path.c_str(), &source_stat)) != 0)
    throw InputError(InputErrorKind::CannotOpen, name, 0, std::string("cannot open: ") + std::strerror(errno));
  const bool cacheable =
      !from_stdin && !options.labels && options.use_cache && S_ISREG(source_stat.st_mode) && source_stat.st_size > 0;
  report.file_bytes = static_cast<std::uint64_t>(source_stat.st_size);
  const std::string cache_path = cache_path_for(path, options.cache_path);
  const std::string key = io::rule_key(options.weights);
  if (cacheable) {
    // A cache written over its own source would destroy the input.
    struct stat cache_stat {};
    if (::stat(cache_path.c_str(), &cache_stat) == 0 && cache_stat.st_dev == source_stat.st_dev &&
        cache_stat.st_ino == source_stat.st_ino)
      throw InputError(InputErrorKind::BadArgument, cache_path, 0,
                       "the binary cache path names the graph file itself (" + path + ")");
    io::CacheInfo info;
    if (std::optional<AnyCsr> cached = read_fresh_cache(path, cache_path, format, options, key, info)) {
      report.format = Format::Binary;
      fill_from_cache(report, info);
      report.total_seconds = seconds_since(start);
      report.cache_saved_seconds = info.original_seconds - report.total_seconds;
      if (options.progress && info.original_seconds > 1.0)
        std::fprintf(stderr, "%s: loaded from cache %s in %.2f s (reading the text took %.2f s)\n",
                     printable(path).c_str(), printable(cache_path).c_str(), report.total_seconds,
                     info.original_seconds);
      if (report_out) *report_out = std::move(report);
      return std::move(*cached);
    }
  }

  io::ParsedGraph parsed;
  io::FileIdentity source;
  std::uint64_t source_hash = 0;
  {
    io::FileData file = io::FileData::open(path, options.progress, cacheable);
    source = file.identity();
    source_hash = file.source_hash();
    // CSV and labels are rewritten line for line into "U V [W]" first.
    if (format == Format::Csv || options.labels) {
      std::string text;
      if (format == Format::Csv) text = io::detail::csv_to_edge_list(file.data(), file.size(), name);
      if (options.labels)
        text = format == Format::Csv ? io::detail::number_labels(text.data(), text.size(), name, report.labels)
                                     : io::detail::number_labels(file.data(), file.size(), name, report.labels);
      file.check_unchanged();
      file = io::FileData::from_text(path, text, file.file_bytes());
    }
    io::ReadOptions read_options;
    read_options.weights = options.weights;
    read_options.threads = options.threads;
    read_options.progress = options.progress;
    try {
      switch (format) {
        case Format::MatrixMarket: parsed = io::read_matrix_market(file, name, read_options); break;
        case Format::Dimacs: parsed = io::read_dimacs(file, name, read_options); break;
        case Format::EdgeList:
        case Format::Csv: parsed = io::read_edge_list(file, name, read_options); break;
        default: throw InputError(InputErrorKind::BadArgument, name, 0, "no reader for this format");
      }
    } catch (const InputError&) {
      file.check_unchanged();  // a file cut short while parsing is the error to tell
      throw;
    }
    file.check_unchanged();
    report.file_bytes = file.file_bytes();
  }  // the file's bytes are released before building
  report.parse_seconds = seconds_since(start);
  report.format = format;
  report.id_base = parsed.id_base;
  report.file_has_weights = parsed.has_weights;
  report.weight_rule = parsed.weight_rule;
  report.symmetric = parsed.symmetric || options.undirected;

  const auto build_start = Clock::now();
  const bool announce = options.progress && report.parse_seconds > 1.0;
  if (announce) std::fprintf(stderr, "%s: building CSR ...", printable(name).c_str());
  BuildOptions build_options;
  build_options.symmetrize = report.symmetric;
  AnyCsr graph = std::visit(
      [&](auto& coo) -> AnyCsr { return build_csr(std::move(coo), build_options, &report.build); }, parsed.coo);
  report.build_seconds = seconds_since(build_start);
  if (announce) std::fprintf(stderr, " %.2f s\n", report.build_seconds);

  if (cacheable) {
    io::CacheInfo info;
    info.id_base = report.id_base;
    info.symmetric = report.symmetric;
    info.undirected_option = options.undirected;
    info.file_has_weights = report.file_has_weights;
    info.source_format = format;
    info.source_bytes = source.bytes;
    info.source_mtime_ns = source.mtime_ns;
    info.source_hash = source_hash;
    info.source_inode = source.inode;
    info.source_device = source.device;
    info.build = report.build;
    info.original_seconds = seconds_since(start);
    info.rule_key = key;
    info.weight_rule = report.weight_rule;
    try {
      io::write_cache(cache_path, graph, info);
      report.cache_written = true;
    } catch (const InputError& e) {
      // A cache is an optimisation: failing to write one never fails the load.
      std::fprintf(stderr, "warning: %s\n", e.what());
    }
  }
  report.total_seconds = seconds_since(start);
  if (report_out) *report_out = std::move(report);
  return graph;
}

}  // namespace graph
