// Synthetic graph generators: R-MAT / Kronecker, 2D grids, uniform random.
//
// Determinism: every random choice for generated edge i is drawn from a
// counter-based stream keyed by (seed, i) -- SplitMix64 of the key, then the
// SplitMix64 sequence from there (Steele, Lea, Flood, OOPSLA 2014). No state
// is shared between edges, so the OpenMP loops below produce the same COO,
// and build_csr the same CSR, for any thread count and any schedule.
#include "graph/generators.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graph/memory_budget.hpp"
#include "graph/error.hpp"

namespace graph {

namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

// Salts keep the streams of different generators (and of the vertex
// permutation) independent even for the same user seed.
constexpr std::uint64_t kRmatSalt = 0x524D4154ull;     // "RMAT"
constexpr std::uint64_t kUrandSalt = 0x55524E44ull;    // "URND"
constexpr std::uint64_t kPermuteSalt = 0x5045524Dull;  // "PERM"

// The counter-based stream of edge `index`: draw(k) is its k-th 64-bit number.
class EdgeStream {
 public:
  EdgeStream(std::uint64_t key, std::uint64_t index) : state_(splitmix64(key ^ splitmix64(index))) {}
  std::uint64_t next() {
    const std::uint64_t out = splitmix64(state_);
    state_ += kGolden;
    return out;
  }

 private:
  std::uint64_t state_;
};

// ---- spec parsing -------------------------------------------------------

[[noreturn]] void bad_spec(const std::string& spec, const std::string& why) {
  throw InputError(InputErrorKind::BadArgument, "--generate", 0,
                   "bad generator spec '" + spec + "': " + why +
                       " (expected rmat:SCALE:EF, rmat:SCALE:EF:A:B:C:D, grid:ROWS:COLS or urand:N:DEG)");
}

std::vector<std::string> split_colons(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) return parts;
    start = colon + 1;
  }
}

std::uint32_t parse_count(const std::string& spec, const std::string& token, const char* what) {
  std::uint32_t value = 0;
  const char* first = token.data();
  const char* last = first + token.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (token.empty() || ec == std::errc::invalid_argument || ptr != last)
    bad_spec(spec, std::string(what) + " '" + token + "' is not a non-negative integer");
  if (ec == std::errc::result_out_of_range)
    bad_spec(spec, std::string(what) + " '" + token + "' does not fit in 32 bits");
  if (value == 0) bad_spec(spec, std::string(what) + " must be at least 1");
  return value;
}

double parse_probability(const std::string& spec, const std::string& token, const char* what) {
  double value = 0;
  const char* first = token.data();
  const char* last = first + token.size();
  const auto [ptr, ec] = std::from_chars(first, last, value, std::chars_format::general);
  if (token.empty() || ec != std::errc() || ptr != last || !std::isfinite(value))
    bad_spec(spec, std::string(what) + " '" + token + "' is not a number");
  if (value < 0 || value > 1) bad_spec(spec, std::string(what) + " '" + token + "' is not in [0, 1]");
  return value;
}

std::string shortest(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

// ---- R-MAT vertex permutation -------------------------------------------

// A keyed bijection on [0, 2^scale): rounds of multiply by an odd constant,
// xor-shift right and add, each invertible modulo 2^scale. Graph500 permutes
// vertex ids after Kronecker generation so that the hubs (which R-MAT puts at
// ids 0, 1, 2, ... where the quadrant probabilities are largest) land at
// random ids; a solver then cannot benefit from hubs sitting together at the
// front of the arrays. A bijection gives the same effect without storing or
// shuffling a permutation array, and in parallel.
class VertexPermutation {
 public:
  VertexPermutation(std::uint32_t scale, std::uint64_t seed)
      : mask_(scale >= 64 ? ~0ull : (1ull << scale) - 1), shift_(scale / 2 > 0 ? scale / 2 : 1) {
    std::uint64_t key = splitmix64(seed ^ kPermuteSalt);
    for (int r = 0; r < kRounds; ++r) {
      key = splitmix64(key);
      multiplier_[r] = key | 1;  // odd: invertible modulo 2^scale
      key = splitmix64(key);
      addend_[r] = key;
    }
  }
  std::uint64_t operator()(std::uint64_t x) const {
    for (int r = 0; r < kRounds; ++r) {
      x = (x * multiplier_[r]) & mask_;
      x ^= x >> shift_;
      x = (x + addend_[r]) & mask_;
    }
    return x;
  }

 private:
  static constexpr int kRounds = 4;
  std::uint64_t mask_;
  std::uint32_t shift_;
  std::uint64_t multiplier_[kRounds] = {};
  std::uint64_t addend_[kRounds] = {};
};

// ---- generators -----------------------------------------------------------

// Below this many items a parallel region costs more than it saves (and on a
// loaded machine waking a thread team can take milliseconds).
constexpr std::uint64_t kParallelMin = std::uint64_t{1} << 16;

// Fills COO entries [0, count) in parallel; make(i, u, v) chooses edge i.
template <class MakeEdge>
Coo<std::uint32_t> fill_coo(vertex_id n, std::uint64_t count, const WeightRule& rule, MakeEdge make) {
  Coo<std::uint32_t> coo;
  coo.num_vertices = n;
  coo.sources.resize(count);
  coo.targets.resize(count);
  coo.weights.resize(count);
  const auto count_signed = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) if (count > kParallelMin)
  for (std::int64_t i = 0; i < count_signed; ++i) {
    vertex_id u = 0, v = 0;
    make(static_cast<std::uint64_t>(i), u, v);
    coo.sources[i] = u;
    coo.targets[i] = v;
    // random_weight depends on {u, v} only: both directions weigh the same.
    coo.weights[i] = rule.random_weight(u, v);
  }
  return coo;
}

// R-MAT (Chakrabarti, Zhan, Faloutsos, SDM 2004) as in Graph500's Kronecker
// generator: each edge descends `scale` levels of the adjacency matrix,
// choosing quadrant a (top-left), b (top-right), c (bottom-left) or d with
// those probabilities. Two levels use one 64-bit draw (32 bits each).
Coo<std::uint32_t> make_rmat(const GeneratorSpec& spec, const WeightRule& rule, std::uint64_t seed) {
  const vertex_id n = static_cast<vertex_id>(1ull << spec.scale);
  const std::uint64_t edges = static_cast<std::uint64_t>(spec.edge_factor) << spec.scale;
  const double unit = 4294967296.0;  // 2^32
  const auto threshold = [&](double p) {
    return static_cast<std::uint64_t>(std::llround(std::fmin(p, 1.0) * unit));
  };
  const std::uint64_t t_a = threshold(spec.a);
  const std::uint64_t t_ab = threshold(spec.a + spec.b);
  const std::uint64_t t_abc = threshold(spec.a + spec.b + spec.c);
  const std::uint64_t key = splitmix64(seed ^ kRmatSalt);
  const VertexPermutation permute(spec.scale, seed);
  const std::uint32_t scale = spec.scale;
  return fill_coo(n, edges, rule, [&](std::uint64_t i, vertex_id& u, vertex_id& v) {
    EdgeStream stream(key, i);
    std::uint64_t row = 0, col = 0, bits = 0;
    for (std::uint32_t level = 0; level < scale; ++level) {
      if ((level & 1) == 0) bits = stream.next();
      const std::uint64_t r = (level & 1) == 0 ? (bits & 0xFFFFFFFFull) : (bits >> 32);
      // Quadrant a: neither bit; b: the column's; c: the row's; d: both.
      // Without branches: each level's quadrant is a coin toss the branch
      // predictor loses, and the mispredictions were most of the generator's
      // time (3x, docs/TUNING.md, "R-MAT without branches").
      row |= static_cast<std::uint64_t>(r >= t_ab) << level;
      col |= static_cast<std::uint64_t>((r >= t_a) & ((r < t_ab) | (r >= t_abc))) << level;
    }
    u = static_cast<vertex_id>(permute(row));
    v = static_cast<vertex_id>(permute(col));
  });
}

// rows x cols lattice, vertex r * cols + c; each undirected edge generated
// once (right and down neighbours) and mirrored by build_csr.
Coo<std::uint32_t> make_grid(const GeneratorSpec& spec, const WeightRule& rule) {
  const std::uint64_t rows = spec.rows, cols = spec.cols;
  const std::uint64_t horizontal = rows * (cols - 1);
  const std::uint64_t vertical = (rows - 1) * cols;
  return fill_coo(static_cast<vertex_id>(rows * cols), horizontal + vertical, rule,
                  [&](std::uint64_t i, vertex_id& u, vertex_id& v) {
                    if (i < horizontal) {
                      const std::uint64_t r = i / (cols - 1), c = i % (cols - 1);
                      u = static_cast<vertex_id>(r * cols + c);
                      v = u + 1;
                    } else {
                      u = static_cast<vertex_id>(i - horizontal);
                      v = static_cast<vertex_id>(u + cols);
                    }
                  });
}

// Uniform random (Erdos-Renyi style, as GAP's -u): n * degree edges with both
// endpoints uniform in [0, n), mirrored, so the mean out-degree is about
// 2 * degree, as in GAP (`-u 20 -k 16` gives 33.6M arcs on 2^20 vertices).
Coo<std::uint32_t> make_uniform(const GeneratorSpec& spec, const WeightRule& rule, std::uint64_t seed) {
  const std::uint64_t n = spec.n;
  const std::uint64_t edges = n * spec.degree;
  const std::uint64_t key = splitmix64(seed ^ kUrandSalt);
  return fill_coo(static_cast<vertex_id>(n), edges, rule, [&](std::uint64_t i, vertex_id& u, vertex_id& v) {
    EdgeStream stream(key, i);
    const std::uint64_t r = stream.next();
    // Multiply-shift maps 32 random bits onto [0, n) (Lemire 2019); the bias
    // is below n / 2^32 and irrelevant here.
    u = static_cast<vertex_id>(((r & 0xFFFFFFFFull) * n) >> 32);
    v = static_cast<vertex_id>(((r >> 32) * n) >> 32);
  });
}

std::uint64_t generated_vertices(const GeneratorSpec& spec) {
  switch (spec.kind) {
    case GeneratorSpec::Kind::Rmat: return std::uint64_t{1} << spec.scale;
    case GeneratorSpec::Kind::Grid: return std::uint64_t{spec.rows} * spec.cols;
    case GeneratorSpec::Kind::Uniform: return spec.n;
  }
  return 0;
}

// COO entries the generator writes before build_csr (mirroring doubles them).
std::uint64_t generated_entries(const GeneratorSpec& spec) {
  switch (spec.kind) {
    case GeneratorSpec::Kind::Rmat: return std::uint64_t{spec.edge_factor} << spec.scale;
    case GeneratorSpec::Kind::Grid: {
      const std::uint64_t rows = spec.rows, cols = spec.cols;
      return rows * (cols - 1) + (rows - 1) * cols;
    }
    case GeneratorSpec::Kind::Uniform: return std::uint64_t{spec.n} * spec.degree;
  }
  return 0;
}

}  // namespace

GeneratorSpec GeneratorSpec::parse(const std::string& spec) {
  const std::vector<std::string> parts = split_colons(spec);
  GeneratorSpec out;
  const std::string& kind = parts[0];
  if (kind == "rmat") {
    if (parts.size() != 3 && parts.size() != 7)
      bad_spec(spec, "rmat takes SCALE:EF or SCALE:EF:A:B:C:D");
    out.kind = Kind::Rmat;
    out.scale = parse_count(spec, parts[1], "SCALE");
    // 2^32 vertices would need the id kNoVertex; 31 is the largest scale.
    if (out.scale > 31) bad_spec(spec, "SCALE must be at most 31");
    out.edge_factor = parse_count(spec, parts[2], "EF");
    if (parts.size() == 7) {
      out.a = parse_probability(spec, parts[3], "A");
      out.b = parse_probability(spec, parts[4], "B");
      out.c = parse_probability(spec, parts[5], "C");
      out.d = parse_probability(spec, parts[6], "D");
      const double sum = out.a + out.b + out.c + out.d;
      if (std::fabs(sum - 1.0) > 1e-9) bad_spec(spec, "A + B + C + D must be 1, not " + shortest(sum));
    }
  } else if (kind == "grid") {
    if (parts.size() != 3) bad_spec(spec, "grid takes ROWS:COLS");
    out.kind = Kind::Grid;
    out.rows = parse_count(spec, parts[1], "ROWS");
    out.cols = parse_count(spec, parts[2], "COLS");
    if (static_cast<std::uint64_t>(out.rows) * out.cols >= kNoVertex)
      bad_spec(spec, "ROWS * COLS must be below 2^32 - 1");
  } else if (kind == "urand") {
    if (parts.size() != 3) bad_spec(spec, "urand takes N:DEG");
    out.kind = Kind::Uniform;
    out.n = parse_count(spec, parts[1], "N");
    if (out.n == kNoVertex) bad_spec(spec, "N must be below 2^32 - 1");
    out.degree = parse_count(spec, parts[2], "DEG");
  } else {
    bad_spec(spec, "unknown generator '" + kind + "'");
  }
  return out;
}

std::string GeneratorSpec::describe() const {
  switch (kind) {
    case Kind::Rmat:
      return "rmat:" + std::to_string(scale) + ":" + std::to_string(edge_factor) + ":" + shortest(a) + ":" +
             shortest(b) + ":" + shortest(c) + ":" + shortest(d);
    case Kind::Grid: return "grid:" + std::to_string(rows) + ":" + std::to_string(cols);
    case Kind::Uniform: return "urand:" + std::to_string(n) + ":" + std::to_string(degree);
  }
  return "?";
}

IntCsr generate(const GeneratorSpec& spec, const WeightRule& weights, std::uint64_t seed, BuildStats* stats) {
  // Validate specs built in code as strictly as parsed ones.
  const std::string described = spec.describe();
  const GeneratorSpec checked = GeneratorSpec::parse(described);
  (void)checked;
  const WeightRule rule = weights.for_pattern_file();
  // Refuse before allocating: rmat:30:16 asks for 2^34 entries (about 440 GB
  // to build), and with overcommit a plain allocation "succeeds" and the
  // process dies later without a word.
  detail::check_graph_fits("--generate " + described, 0, generated_vertices(spec), generated_entries(spec),
                           spec.kind == GeneratorSpec::Kind::Grid || spec.undirected);
  BuildOptions options;
  options.drop_self_loops = true;
  options.symmetrize = true;
  Coo<std::uint32_t> coo;
  switch (spec.kind) {
    case GeneratorSpec::Kind::Rmat:
      coo = make_rmat(spec, rule, seed);
      options.symmetrize = spec.undirected;
      break;
    case GeneratorSpec::Kind::Grid:
      coo = make_grid(spec, rule);
      break;
    case GeneratorSpec::Kind::Uniform:
      coo = make_uniform(spec, rule, seed);
      options.symmetrize = spec.undirected;
      break;
  }
  return build_csr(std::move(coo), options, stats);
}

}  // namespace graph
