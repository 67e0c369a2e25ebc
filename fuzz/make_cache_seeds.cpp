// Writes valid binary caches of the small fixtures into a directory: the
// seed corpus of fuzz_cache (a cache must carry a correct checksum, so it
// cannot be written by hand). Usage: make_cache_seeds FIXTURES_DIR OUT_DIR
#include <cstdio>
#include <filesystem>
#include <string>

#include "graph/error.hpp"
#include "graph/load.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_cache_seeds FIXTURES_DIR OUT_DIR\n");
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path out = argv[2];
  fs::create_directories(out);
  const char* files[] = {"small.gr", "small_integer_general.mtx", "small_pattern_symmetric.mtx",
                         "small_real_general.mtx", "small_weighted.el", "small_unweighted.edges"};
  for (const char* name : files) {
    graph::LoadOptions options;
    options.use_cache = true;
    options.progress = false;
    options.cache_path = (out / (std::string(name) + ".bin")).string();
    try {
      graph::load_graph((fs::path(argv[1]) / name).string(), options);
    } catch (const graph::InputError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
  }
  return 0;
}
