// load_bench: how fast graph::load_graph reads Matrix Market text.
//
//   load_bench [--mb 300] [--threads 1,0] [--runs 3] [--file FILE.mtx] [--keep]
//
// Without --file it writes an R-MAT-like integer-weighted .mtx of about
// --mb megabytes into a temporary directory: R-MAT edges (Chakrabarti, Zhan,
// Faloutsos 2004; Graph500 parameters a=.57 b=.19 c=.19), edge factor ~16,
// ids scrambled by a bijection so that they have the digit counts of real
// large graphs, weights uniform in 1..1000. Then, per thread count (0 = all
// cores), it loads the file --runs times and prints the median
//   parse MB/s = file bytes / (read + parse time)      (the reader alone)
//   total MB/s = file bytes / (read + parse + CSR build time)
// and finally the same file through the binary cache (a cache hit).
// The file is read once before timing, so every run reads from the page
// cache: this measures parsing, not the disk.
#include <omp.h>
#include <unistd.h>

#include <boost/program_options.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "graph/error.hpp"
#include "graph/load.hpp"
#include "graph/weights.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

// A bijection on [0, 2^scale): odd multiplier and xor-shift, both invertible.
std::uint32_t scramble(std::uint32_t v, int scale) {
  const std::uint32_t mask = (1u << scale) - 1;
  v = (v * 0x9E3779B1u) & mask;
  v ^= v >> 11;
  v = (v * 0x85EBCA77u) & mask;
  return v;
}

// One R-MAT edge from a 64-bit random stream (SplitMix64).
std::pair<std::uint32_t, std::uint32_t> rmat_edge(std::uint64_t& state, int scale) {
  std::uint32_t u = 0, v = 0;
  std::uint64_t bits = 0;
  int left = 0;
  for (int level = 0; level < scale; ++level) {
    if (left < 10) {
      state += 0x9E3779B97F4A7C15ull;
      bits = graph::splitmix64(state);
      left = 64;
    }
    const auto r = static_cast<std::uint32_t>(bits & 1023);  // 10 bits: probabilities in 1/1024
    bits >>= 10;
    left -= 10;
    // a = .57, b = .19, c = .19, d = .05
    const std::uint32_t quadrant = r < 584 ? 0 : r < 778 ? 1 : r < 973 ? 2 : 3;
    u = (u << 1) | (quadrant >> 1);
    v = (v << 1) | (quadrant & 1);
  }
  return {scramble(u, scale), scramble(v, scale)};
}

// Writes about `megabytes` of .mtx text; returns the entry count. The scale
// gives an edge factor near Graph500's 16 at about 20 bytes per line.
std::uint64_t generate_mtx(const std::string& path, double megabytes, int threads) {
  const auto target = static_cast<std::size_t>(megabytes * 1e6);
  const int scale = std::clamp(static_cast<int>(std::lround(std::log2(megabytes * 1e6 / 20 / 16))), 8, 28);
  const int parts = std::max(1, threads) * 4;
  std::vector<std::string> bodies(static_cast<std::size_t>(parts));
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(parts), 0);
#pragma omp parallel for num_threads(std::max(1, threads)) schedule(dynamic, 1)
  for (int p = 0; p < parts; ++p) {
    std::string& out = bodies[static_cast<std::size_t>(p)];
    const std::size_t budget = target / static_cast<std::size_t>(parts);
    out.reserve(budget + 64);
    // Independent streams: hashed, not consecutive, starting points.
    std::uint64_t state = graph::splitmix64(0x5EEDull * 1000003 + static_cast<std::uint64_t>(p));
    char line[64];
    while (out.size() < budget) {
      const auto [u, v] = rmat_edge(state, scale);
      state += 0x9E3779B97F4A7C15ull;
      const auto w = 1 + static_cast<std::uint32_t>(graph::splitmix64(state) % 1000);
      char* q = std::to_chars(line, line + 20, u + 1).ptr;
      *q++ = ' ';
      q = std::to_chars(q, q + 20, v + 1).ptr;
      *q++ = ' ';
      q = std::to_chars(q, q + 20, w).ptr;
      *q++ = '\n';
      out.append(line, static_cast<std::size_t>(q - line));
      ++counts[static_cast<std::size_t>(p)];
    }
  }
  std::uint64_t entries = 0;
  for (auto c : counts) entries += c;
  std::ofstream file(path, std::ios::binary);
  file << "%%MatrixMarket matrix coordinate integer general\n"
       << "% load_bench: R-MAT scale " << scale << " (a=.57 b=.19 c=.19), scrambled ids, weights 1..1000\n"
       << (1u << scale) << " " << (1u << scale) << " " << entries << "\n";
  for (const auto& body : bodies) file.write(body.data(), static_cast<std::streamsize>(body.size()));
  if (!file) throw std::runtime_error("cannot write " + path);
  return entries;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::vector<int> parse_threads(const std::string& list) {
  std::vector<int> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    int t = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), t);
    if (ec != std::errc() || ptr != item.data() + item.size() || t < 0)
      throw std::runtime_error("bad --threads entry '" + item + "' (expected a list like 1,4,0; 0 = all cores)");
    out.push_back(t == 0 ? omp_get_max_threads() : t);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  po::options_description desc("load_bench: Matrix Market parsing speed of graph::load_graph");
  desc.add_options()("help,h", "this help")                                             //
      ("file", po::value<std::string>(), "time this file instead of a generated one")  //
      ("mb", po::value<double>()->default_value(300), "size of the generated .mtx, in MB")  //
      ("threads", po::value<std::string>()->default_value("1,0"), "thread counts to time (0 = all cores)")  //
      ("runs", po::value<int>()->default_value(3), "runs per configuration (the median is printed)")  //
      ("keep", "keep the generated file and its cache");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "load_bench: " << e.what() << "\n" << desc;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc;
    return 0;
  }

  try {
    const int runs = std::max(1, vm["runs"].as<int>());
    const std::vector<int> thread_counts = parse_threads(vm["threads"].as<std::string>());
    const fs::path dir = fs::temp_directory_path() / ("load_bench_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::string path;
    if (vm.count("file")) {
      path = vm["file"].as<std::string>();
    } else {
      path = (dir / "rmat.mtx").string();
      std::printf("generating %.0f MB of R-MAT .mtx text in %s ...\n", vm["mb"].as<double>(), path.c_str());
      std::fflush(stdout);
      const std::uint64_t entries = generate_mtx(path, vm["mb"].as<double>(), omp_get_max_threads());
      std::printf("  %llu entries\n", static_cast<unsigned long long>(entries));
    }
    {  // Warm the page cache, so that runs time parsing and not the disk.
      std::ifstream warm(path, std::ios::binary);
      std::vector<char> block(1 << 20);
      while (warm.read(block.data(), static_cast<std::streamsize>(block.size())) || warm.gcount() > 0) {
      }
    }
    const double mb = static_cast<double>(fs::file_size(path)) / 1e6;
    std::printf("file %s: %.1f MB; %d cores available; median of %d runs\n\n", path.c_str(), mb,
                omp_get_max_threads(), runs);
    std::printf("%-14s %8s %9s %9s %9s %11s %11s\n", "load", "threads", "parse_s", "build_s", "total_s",
                "parse_MB/s", "total_MB/s");

    graph::LoadReport last;
    graph::vertex_id vertices = 0;
    for (int threads : thread_counts) {
      std::vector<double> parse, build, total;
      for (int r = 0; r < runs; ++r) {
        graph::LoadOptions options;
        options.threads = threads;
        options.progress = false;
        graph::LoadReport report;
        const auto g = graph::load_graph(path, options, &report);
        parse.push_back(report.parse_seconds);
        build.push_back(report.build_seconds);
        total.push_back(report.total_seconds);
        last = report;
        vertices = graph::num_vertices(g);
      }
      std::printf("%-14s %8d %9.3f %9.3f %9.3f %11.1f %11.1f\n", "text", threads, median(parse), median(build),
                  median(total), mb / median(parse), mb / median(total));
      std::fflush(stdout);
    }

    // The binary cache: one load writes it, then the hits are timed.
    graph::LoadOptions cached;
    cached.threads = thread_counts.back();
    cached.progress = false;
    cached.use_cache = true;
    cached.cache_path = (dir / "bench.bin.cache").string();
    graph::LoadReport written;
    graph::load_graph(path, cached, &written);
    std::vector<double> hit, saved;
    for (int r = 0; r < runs; ++r) {
      graph::LoadReport report;
      graph::load_graph(path, cached, &report);
      if (!report.from_cache) throw std::runtime_error("the cache was not used");
      hit.push_back(report.total_seconds);
      saved.push_back(report.cache_saved_seconds);
    }
    std::printf("%-14s %8d %9s %9s %9.3f %11s %11.1f\n", "binary cache", cached.threads, "-", "-", median(hit), "-",
                mb / median(hit));
    std::printf("\ngraph: %u vertices, %llu arcs (%llu entries; %llu self-loops, %llu duplicates dropped); "
                "cache %.1f MB, saves %.2f s per load\n",
                static_cast<unsigned>(vertices), static_cast<unsigned long long>(last.build.arcs),
                static_cast<unsigned long long>(last.build.input_entries),
                static_cast<unsigned long long>(last.build.self_loops_dropped),
                static_cast<unsigned long long>(last.build.duplicates_dropped),
                static_cast<double>(fs::file_size(cached.cache_path)) / 1e6, median(saved));
    if (!vm.count("keep")) fs::remove_all(dir);
  } catch (const graph::InputError& e) {
    std::cerr << "load_bench: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "load_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
