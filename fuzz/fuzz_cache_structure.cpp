// libFuzzer harness for what the binary cache's checksum cannot catch: a
// well-formed file (written by a buggy or foreign writer) whose CSR is not.
// fuzz_cache feeds raw bytes, which almost never pass the checksum; here the
// input is decoded into a small CSR, deliberately not sanitised (arbitrary
// offsets, unsorted rows, duplicate arcs, self-loops, targets out of range,
// NaN, infinite, negative, subnormal and huge float weights), written with
// graph::io::write_cache (which writes whatever it is given, checksum
// included) and read back with graph::io::read_cache.
//
// Oracle: read_cache either throws InputError(CorruptCache) naming the file,
// or returns exactly the arrays written, and then
//  - the CSR can be read safely (n + 1 non-decreasing offsets spanning the
//    arcs, targets in range, float weights finite and >= 0);
//  - no reachable vertex's true distance overflows float (such a graph has
//    no right answer, so it must be refused);
//  - Dijkstra, delta-stepping (the input picks delta and threads) and, for
//    integer weights, the chain contraction's query (core solved by
//    Dijkstra and by PHAST over a hierarchy of the core) and PHAST over a
//    hierarchy of the whole graph all give the distances of an independent
//    Dijkstra (tests/common/reference_dijkstra.hpp) over the arcs as stored.
// A violation prints what and aborts; a crash or sanitizer report is a
// finding too.
//
// Input layout (a missing byte reads as 0):
//   flags   bit 0 float weights; bits 1-2 offsets: 0/1 from per-vertex
//           degrees, 2 raw bytes, 3 degrees with one offset overwritten by
//           a 32-bit value; bit 3 delta-stepping on 2 threads; bits 4-5
//           delta: auto_delta_cpu, smallest positive weight, one bucket,
//           auto_delta; bit 6 a second source (last byte)
//   n       vertices, byte % 65
//   offsets degrees: n bytes, degree = byte % 8; raw: arcs = byte % 129,
//           then n + 1 bytes; mode 3: degrees, then index byte and 4 bytes
//   arcs    per arc: target byte (>= 0xF0: n, n + 1, 2^31 - 1 or 2^32 - 1),
//           then a weight: integer: byte < 0xC0: byte % 16; < 0xE0: one of
//           0, 1, 2, 1000, 2^16, 2^31, 2^32 - 2, 2^32 - 1; else 4 bytes.
//           float: byte < 0xA0: (byte % 16) / 4; < 0xD0: one of 16 special
//           values (0, -0, subnormal, FLT_MIN, ..., FLT_MAX, inf, NaN, -1);
//           else 4 bytes as the float's bits.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "graph/contraction.hpp"
#include "graph/error.hpp"
#include "graph/hierarchy.hpp"
#include "graph/io/binary_cache.hpp"
#include "graph/reference.hpp"
#include "reference_dijkstra.hpp"

namespace {

using graph::Csr;
using graph::edge_offset;
using graph::vertex_id;

[[noreturn]] void violated(const std::string& what) {
  std::fprintf(stderr, "fuzz oracle: %s\n", what.c_str());
  std::abort();
}

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t u8() { return at_ < size_ ? data_[at_++] : 0; }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(u8()) << (8 * i);
    return v;
  }
  // The last byte, for an input's trailing options, without consuming the arcs'.
  std::uint8_t last() const { return size_ ? data_[size_ - 1] : 0; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

std::uint32_t decode_weight(Bytes& in, std::uint32_t*) {
  const std::uint8_t b = in.u8();
  if (b < 0xC0) return b % 16;
  static const std::uint32_t special[] = {0, 1, 2, 1000, 1u << 16, 1u << 31, 0xFFFFFFFEu, 0xFFFFFFFFu};
  if (b < 0xE0) return special[b % 8];
  return in.u32();
}

float decode_weight(Bytes& in, float*) {
  const std::uint8_t b = in.u8();
  if (b < 0xA0) return static_cast<float>(b % 16) / 4;
  static const float special[] = {0.0f,    -0.0f,          std::numeric_limits<float>::denorm_min(),
                                  FLT_MIN, 1e-30f,         1.0f,
                                  1e30f,   16777217.0f,    FLT_MAX / 4,
                                  FLT_MAX / 2, 3e38f,      FLT_MAX,
                                  std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::quiet_NaN(), -1.0f};
  if (b < 0xD0) return special[b % 16];
  const std::uint32_t bits = in.u32();
  float w;
  std::memcpy(&w, &bits, sizeof w);
  return w;
}

template <class W>
Csr<W> decode_csr(Bytes& in, std::uint8_t flags) {
  Csr<W> g;
  const std::uint32_t n = in.u8() % 65;
  g.num_vertices = n;
  g.offsets.assign(n + 1, 0);
  const int mode = (flags >> 1) & 3;
  std::uint64_t m = 0;
  if (mode == 2) {
    m = in.u8() % 129;
    for (auto& o : g.offsets) o = in.u8();
  } else {
    for (std::uint32_t v = 0; v < n; ++v) g.offsets[v + 1] = g.offsets[v] + in.u8() % 8;
    m = g.offsets[n];
    if (mode == 3) {
      const std::uint32_t index = in.u8() % (n + 1);
      g.offsets[index] = in.u32();
    }
  }
  for (std::uint64_t k = 0; k < m; ++k) {
    const std::uint8_t t = in.u8();
    const vertex_id far[] = {n, n + 1, 0x7FFFFFFFu, 0xFFFFFFFFu};
    g.targets.push_back(t < 0xF0 ? (n ? t % n : 0) : far[t % 4]);
    g.weights.push_back(decode_weight(in, static_cast<W*>(nullptr)));
  }
  return g;
}

template <class W>
bool same_bits(const std::vector<W>& a, const std::vector<W>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(W)) == 0);
}

// What read_cache promises of any graph it returns: a solver can index it.
template <class W>
void check_readable(const Csr<W>& g) {
  const std::uint64_t n = g.num_vertices;
  if (g.offsets.size() != n + 1 || g.offsets.front() != 0 || g.offsets.back() != g.targets.size() ||
      g.weights.size() != g.targets.size())
    violated("read_cache accepted offsets that do not span the arcs");
  for (std::uint64_t v = 0; v < n; ++v)
    if (g.offsets[v] > g.offsets[v + 1]) violated("read_cache accepted decreasing offsets");
  for (const vertex_id t : g.targets)
    if (t >= n) violated("read_cache accepted an arc target out of range");
  if constexpr (std::is_same_v<W, float>)
    for (const float w : g.weights)
      if (!(w >= 0.0f) || std::isinf(w)) violated("read_cache accepted a negative or non-finite weight");
}

template <class D>
void expect_same(const char* solver, vertex_id source, const D* got, const std::vector<D>& want) {
  for (std::size_t v = 0; v < want.size(); ++v) {
    if (got[v] == want[v]) continue;
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, " got %.9g, expected %.9g", static_cast<double>(got[v]),
                  static_cast<double>(want[v]));
    violated(std::string(solver) + " from source " + std::to_string(source) + ": vertex " + std::to_string(v) +
             numbers);
  }
}

template <class W>
double pick_delta(const Csr<W>& g, std::uint8_t flags) {
  double smallest = 0, heaviest = 1;
  for (const W w : g.weights) {
    const auto x = static_cast<double>(w);
    if (x > 0 && (smallest == 0 || x < smallest)) smallest = x;
    heaviest = std::max(heaviest, x);
  }
  switch ((flags >> 4) & 3) {
    case 0: return graph::auto_delta_cpu(g);
    case 1: return smallest > 0 ? smallest : 1.0;
    case 2: return heaviest * (g.num_vertices + 1.0);
    default: return graph::auto_delta(g);
  }
}

template <class W>
void solve_and_compare(const Csr<W>& g, vertex_id s, std::uint8_t flags) {
  using Dist = graph::distance_t<W>;
  const std::uint32_t n = g.num_vertices;
  std::vector<test_support::RefArc<W>> arcs;
  for (vertex_id u = 0; u < n; ++u)
    for (edge_offset k = g.offsets[u]; k < g.offsets[u + 1]; ++k) arcs.push_back({u, g.targets[k], g.weights[k]});
  const test_support::ReferenceGraph<W> ref(n, arcs);
  const std::vector<Dist> want = ref.distances(s);
  const std::vector<bool> reach = ref.reachable(s);
  for (vertex_id v = 0; v < n; ++v)
    if (reach[v] && want[v] == test_support::ref_infinity<W>())
      violated("read_cache accepted float weights whose shortest path length overflows to infinity (vertex " +
               std::to_string(v) + ")");

  expect_same("dijkstra", s, graph::dijkstra(g, s).data(), want);
  const int threads = flags & 8 ? 2 : 1;
  expect_same("delta_stepping", s, graph::delta_stepping(g, s, pick_delta(g, flags), threads).data(), want);

  if constexpr (std::is_same_v<W, std::uint32_t>) {
    const graph::ChainContraction c = graph::contract_chains(g);
    graph::ContractionQuery q(c, g);
    q.start(s);
    if (q.fits()) {
      graph::IntCsr core = c.core;
      q.apply_entry(core);
      const std::vector<std::uint64_t> core_dist = graph::dijkstra(core, q.core_source());
      std::vector<std::uint64_t> dist(n);
      q.expand(core_dist.data(), nullptr, dist.data(), nullptr, 1);
      expect_same("contraction + dijkstra", s, dist.data(), want);
      const graph::Hierarchy core_hierarchy = graph::build_hierarchy(c.core);
      std::vector<std::uint64_t> phast_core(c.core.num_vertices);
      graph::phast(core_hierarchy, graph::core_seeds(c, q), phast_core.data());
      q.expand(phast_core.data(), nullptr, dist.data(), nullptr, 1);
      expect_same("contraction + phast (phast-cpu)", s, dist.data(), want);
    }
    const graph::Hierarchy h = graph::build_hierarchy(g);
    std::vector<std::uint64_t> dist(n);
    graph::phast(h, {{s, 0}}, dist.data());
    expect_same("phast (whole graph)", s, dist.data(), want);
  }
}

template <class W>
void run(Bytes& in, std::uint8_t flags, const std::string& path) {
  const Csr<W> written = decode_csr<W>(in, flags);
  graph::io::CacheInfo info;
  info.rule_key = "fuzz";
  graph::io::write_cache(path, graph::AnyCsr(written), info);
  graph::AnyCsr loaded;
  try {
    loaded = graph::io::read_cache(path);
    std::remove(path.c_str());  // before solving: a crash must not leave it behind
  } catch (const graph::InputError& e) {
    std::remove(path.c_str());
    if (e.kind() != graph::InputErrorKind::CorruptCache)
      violated(std::string("refused, but not as CorruptCache: ") + e.what());
    if (e.file() != path || std::string(e.what()).rfind(path + ":", 0) != 0)
      violated(std::string("the error does not name the file: ") + e.what());
    return;
  }
  if (!std::holds_alternative<Csr<W>>(loaded)) violated("read_cache changed the weight type");
  const Csr<W>& g = std::get<Csr<W>>(loaded);
  if (g.num_vertices != written.num_vertices || g.offsets != written.offsets || g.targets != written.targets ||
      !same_bits(g.weights, written.weights))
    violated("read_cache returned other arrays than were written");
  check_readable(g);
  if (g.num_vertices == 0) return;
  solve_and_compare(g, 0, flags);
  if (flags & 64) solve_and_compare(g, in.last() % g.num_vertices, flags);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // One OpenMP thread wherever the library picks the team (the cache
  // reader's checks, the hierarchy builder): results do not depend on it,
  // and spinning teams would slow each input several times over while
  // scripts/fuzz.sh runs two harnesses on two cores. Delta-stepping still
  // gets two threads when the input asks.
  omp_set_num_threads(1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // One file per process, written and removed by every input.
  static const std::string path = [] {
    const std::filesystem::path shm = "/dev/shm";
    const std::filesystem::path dir = std::filesystem::is_directory(shm) ? shm : std::filesystem::temp_directory_path();
    return (dir / ("fuzz_cache_structure." + std::to_string(::getpid()) + ".bin")).string();
  }();
  Bytes in(data, size);
  const std::uint8_t flags = in.u8();
  if (flags & 1)
    run<float>(in, flags, path);
  else
    run<std::uint32_t>(in, flags, path);
  return 0;
}
