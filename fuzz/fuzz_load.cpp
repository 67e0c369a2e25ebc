// libFuzzer harness for one graph reader, chosen at compile time with
// SSSP_FUZZ_FORMAT (a graph::Format). The input bytes go through exactly the
// path `sssp --graph FILE` takes: they are written to a memory file
// (memfd_create) and loaded with graph::load_graph under its /proc/self/fd
// name, so stat, mmap, gzip detection, the parallel reader, the memory
// check and build_csr (or the binary cache reader) all run.
//
// Oracle: load_graph either returns a CSR that satisfies every invariant a
// solver relies on (checked below; a violation aborts), or throws
// graph::InputError whose message starts with "FILE:" (and "FILE:LINE: "
// when it names a line). Anything else (a crash, an ASan/UBSan report, another
// exception escaping, an allocation beyond -malloc_limit_mb) is a finding.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <variant>

#include "graph/error.hpp"
#include "graph/load.hpp"

#ifndef SSSP_FUZZ_FORMAT
#error "define SSSP_FUZZ_FORMAT (MatrixMarket, Dimacs, EdgeList or Binary)"
#endif

namespace {

[[noreturn]] void violated(const char* what) {
  std::fprintf(stderr, "fuzz oracle: %s\n", what);
  std::abort();
}

template <class Weight>
void check_csr(const graph::Csr<Weight>& g) {
  const std::uint64_t n = g.num_vertices;
  if (g.offsets.size() != n + 1) violated("offsets.size() != n + 1");
  if (g.offsets.front() != 0 || g.offsets.back() != g.targets.size()) violated("offsets do not span the arcs");
  if (g.weights.size() != g.targets.size()) violated("weights.size() != targets.size()");
  for (std::uint64_t v = 0; v < n; ++v) {
    if (g.offsets[v] > g.offsets[v + 1]) violated("offsets decrease");
    for (std::uint64_t k = g.offsets[v]; k < g.offsets[v + 1]; ++k) {
      if (g.targets[k] >= n) violated("arc target out of range");
      if (g.targets[k] == v) violated("self-loop kept");
      if (k > g.offsets[v] && g.targets[k - 1] >= g.targets[k]) violated("row not sorted or has duplicates");
      if constexpr (std::is_same_v<Weight, float>) {
        if (!(g.weights[k] >= 0.0f) || std::isinf(g.weights[k])) violated("negative or non-finite weight");
      }
    }
  }
}

int memory_file() {
  static const int fd = [] {
    const int created = ::memfd_create("sssp_fuzz_input", MFD_CLOEXEC);
    if (created < 0) violated("memfd_create failed");
    return created;
  }();
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Graphs the harness may build: about 200k vertices, so that one input
  // costs microseconds, not a 6M-vertex build (which ran 10x slower). Larger
  // declared sizes must be refused (InputError Overflow) by the readers'
  // memory check, not allocated; -malloc_limit_mb catches any that is not.
  ::setenv("SSSP_HOST_MEMORY_LIMIT", "8M", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int fd = memory_file();
  if (::ftruncate(fd, 0) != 0) violated("ftruncate failed");
  for (std::size_t done = 0; done < size;) {
    const ssize_t put = ::pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (put <= 0) violated("pwrite failed");
    done += static_cast<std::size_t>(put);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);

  graph::LoadOptions options;
  options.format = graph::Format::SSSP_FUZZ_FORMAT;
  options.progress = false;
  options.threads = 1;
  // The length picks the weight rule and --undirected, so all reader modes
  // (file weights, replaced weights, mirrored) are reached from one corpus.
  const std::size_t mode = size % 6;
  options.weights.kind = mode % 3 == 0   ? graph::WeightRule::Kind::File
                         : mode % 3 == 1 ? graph::WeightRule::Kind::Unit
                                         : graph::WeightRule::Kind::Random;
  options.undirected = mode >= 3;
  try {
    graph::LoadReport report;
    const graph::AnyCsr g = graph::load_graph(path, options, &report);
    std::visit([](const auto& csr) { check_csr(csr); }, g);
  } catch (const graph::InputError& e) {
    const std::string what = e.what();
    if (e.file() != path) violated("InputError names another file");
    if (what.compare(0, path.size() + 1, path + ":") != 0) violated("message does not start with FILE:");
    if (e.line() > 0 && what.compare(0, path.size() + 2 + std::to_string(e.line()).size(),
                                     path + ":" + std::to_string(e.line()) + ":") != 0)
      violated("message does not name its line as FILE:LINE:");
    if (e.line() > 0 && e.line() > 1 + static_cast<std::uint64_t>(std::count(data, data + size, '\n')) &&
        options.format != graph::Format::Binary && !(size >= 2 && data[0] == 0x1f && data[1] == 0x8b))
      violated("error line beyond the end of the file");
  }
  return 0;
}
