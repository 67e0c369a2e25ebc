// Matrix Market coordinate files (Boisvert, Pozo, Remington: "The Matrix
// Market Exchange Formats: Initial Design", NIST 1996).
//
//   %%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>
//   % comments
//   ROWS COLS ENTRIES
//   ROW COL [VALUE]        1-based; entry (i, j) is the arc i -> j
//
// The banner is matched case-insensitively, as the specification asks.
// `general` is a directed graph; `symmetric` stores each undirected edge
// once (its lower triangle) and is mirrored by build_csr, diagonal entries
// once. `array`, `complex`, `hermitian` and `skew-symmetric` have no meaning
// as a shortest-path graph and are refused. Blank lines and % comment lines
// are tolerated anywhere after the banner (also between entries, which the
// specification does not allow but some writers produce). The field
// 'double' is read as 'real', as fast_matrix_market does.
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "graph/io/readers.hpp"
#include "graph/memory_budget.hpp"
#include "text_scan.hpp"

namespace graph::io {

namespace {

using namespace detail;
using namespace graph::detail;  // memory_budget.hpp

enum class Field { Real, Integer, Pattern };

struct Header {
  Field field = Field::Real;
  bool symmetric = false;
  std::uint64_t rows = 0, cols = 0, entries = 0;
  std::size_t size_line = 0;   // offset of the size line
  std::size_t body_begin = 0;  // offset just past it
};

[[noreturn]] void header_error(const std::string& name, const char* text, const char* at, InputErrorKind kind,
                               const std::string& what) {
  throw InputError(kind, name, line_of(text, static_cast<std::size_t>(at - text)), what);
}

Header read_header(const std::string& name, const char* text, std::size_t size) {
  const char* end = text + size;
  const char* p = text;
  if (size >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;  // UTF-8 byte order mark
  if (p == end)
    throw InputError(InputErrorKind::BadHeader, name, 1, "empty file: expected a %%MatrixMarket banner");

  const char* banner_end = next_line(p, end);
  const auto tokens = split_tokens(p, banner_end, 5);
  // One '%' instead of two is accepted: unambiguous, and real files have it
  // (the METIS documentation's copter2.mtx among the shared datasets).
  if (tokens.empty() ||
      !(iequals(tokens[0].p, tokens[0].n, "%%matrixmarket") || iequals(tokens[0].p, tokens[0].n, "%matrixmarket")))
    header_error(name, text, p, InputErrorKind::BadHeader,
                 "missing banner: the first line must be "
                 "'%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>'");
  if (tokens.size() != 5)
    header_error(name, text, p, InputErrorKind::BadHeader,
                 "malformed banner: expected 5 words ('%%MatrixMarket matrix coordinate FIELD SYMMETRY'), found " +
                     token_count(tokens, 5));
  const Token& object = tokens[1];
  const Token& format = tokens[2];
  const Token& field = tokens[3];
  const Token& symmetry = tokens[4];
  if (iequals(object.p, object.n, "vector"))
    header_error(name, text, p, InputErrorKind::Unsupported, "'vector' files are not graphs; expected 'matrix'");
  if (!iequals(object.p, object.n, "matrix"))
    header_error(name, text, p, InputErrorKind::BadHeader, "unknown object '" + object.str() + "'; expected 'matrix'");
  if (iequals(format.p, format.n, "array"))
    header_error(name, text, p, InputErrorKind::Unsupported,
                 "'array' (dense) files are not supported; a graph needs the 'coordinate' format");
  if (!iequals(format.p, format.n, "coordinate"))
    header_error(name, text, p, InputErrorKind::BadHeader,
                 "unknown format '" + format.str() + "'; expected 'coordinate'");

  Header h;
  if (iequals(field.p, field.n, "real") || iequals(field.p, field.n, "double")) {
    h.field = Field::Real;
  } else if (iequals(field.p, field.n, "integer")) {
    h.field = Field::Integer;
  } else if (iequals(field.p, field.n, "pattern")) {
    h.field = Field::Pattern;
  } else if (iequals(field.p, field.n, "complex")) {
    header_error(name, text, p, InputErrorKind::Unsupported,
                 "'complex' weights are not supported (shortest paths need real, integer or pattern)");
  } else {
    header_error(name, text, p, InputErrorKind::BadHeader,
                 "unknown field '" + field.str() + "'; expected real, integer or pattern");
  }
  if (iequals(symmetry.p, symmetry.n, "general")) {
    h.symmetric = false;
  } else if (iequals(symmetry.p, symmetry.n, "symmetric")) {
    h.symmetric = true;
  } else if (iequals(symmetry.p, symmetry.n, "hermitian") || iequals(symmetry.p, symmetry.n, "skew-symmetric")) {
    header_error(name, text, p, InputErrorKind::Unsupported,
                 "'" + symmetry.str() + "' matrices are not supported (expected general or symmetric)");
  } else {
    header_error(name, text, p, InputErrorKind::BadHeader,
                 "unknown symmetry '" + symmetry.str() + "'; expected general or symmetric");
  }

  // Comments and blank lines, then the size line.
  p = banner_end;
  while (true) {
    if (p == end)
      header_error(name, text, p, InputErrorKind::Truncated, "file ends before the size line 'ROWS COLS ENTRIES'");
    const char* q = skip_blanks(p, end);
    if (q == end || *q == '\n' || *q == '%') {
      p = next_line(p, end);
      continue;
    }
    break;
  }
  h.size_line = static_cast<std::size_t>(p - text);
  const char* size_end = next_line(p, end);
  const auto sizes = split_tokens(p, size_end, 3);
  if (sizes.size() != 3)
    header_error(name, text, p, InputErrorKind::BadHeader,
                 "malformed size line: expected 'ROWS COLS ENTRIES' (3 integers), found " +
                     token_count(sizes, 3) + " values");
  std::uint64_t values[3];
  const char* labels[3] = {"ROWS", "COLS", "ENTRIES"};
  for (int i = 0; i < 3; ++i) {
    bool overflow = false;
    const auto v = parse_header_u64(sizes[static_cast<std::size_t>(i)], &overflow);
    if (overflow)
      header_error(name, text, p, InputErrorKind::Overflow,
                   std::string("size line: ") + labels[i] + " '" + sizes[static_cast<std::size_t>(i)].str() +
                       "' does not fit in 64 bits");
    if (!v)
      header_error(name, text, p, InputErrorKind::BadHeader,
                   std::string("malformed size line: ") + labels[i] + " '" + sizes[static_cast<std::size_t>(i)].str() +
                       "' is not a non-negative integer");
    values[i] = *v;
  }
  h.rows = values[0];
  h.cols = values[1];
  h.entries = values[2];
  // Rows != cols: a rectangular matrix is read as a graph on max(rows, cols)
  // vertices (entry (i, j) is still the arc i -> j); the vertex count must
  // stay below kNoVertex.
  if (h.rows > kMaxVertices || h.cols > kMaxVertices)
    header_error(name, text, p, InputErrorKind::Overflow,
                 "size line: " + std::to_string(std::max(h.rows, h.cols)) +
                     " vertices; at most " + std::to_string(kMaxVertices) + " (32-bit vertex ids) are supported");
  if (h.symmetric && h.rows != h.cols)
    header_error(name, text, p, InputErrorKind::BadHeader,
                 "a symmetric matrix must be square, but the size line says " + std::to_string(h.rows) + " x " +
                     std::to_string(h.cols));
  h.body_begin = static_cast<std::size_t>(size_end - text);
  return h;
}

// How the third column is read and what weight is stored.
enum class WeightMode {
  PatternRule,    // no weight column; rule weights
  IntFile,        // integer column kept (uint32)
  RealFile,       // real column kept (float)
  IntOverride,    // integer column checked, rule weights stored
  RealOverride,   // real column checked, rule weights stored
};

struct NoInfo {};

template <WeightMode kMode, class Weight>
std::uint64_t parse_chunk(const char* text, const char* p, const char* end, const Header& h, const WeightRule& rule,
                          EntrySink<Weight>& sink) {
  constexpr bool kHasColumn = kMode != WeightMode::PatternRule;
  std::uint64_t k = 0;
  while (p != end) {
    const char* line = p;
    p = skip_blanks(p, end);
    if (p == end) break;
    if (*p == '\n' || *p == '%') {  // blank or comment line
      p = next_line(p, end);
      continue;
    }
    vertex_id u = 0, v = 0;
    p = read_id1(text, p, end, h.rows, u, "row");
    p = expect_more(text, p, end, line, "column");
    p = read_id1(text, p, end, h.cols, v, "column");
    Weight w{};
    if constexpr (kHasColumn) {
      p = expect_more(text, p, end, line, "value");
      if constexpr (kMode == WeightMode::IntFile) {
        p = read_int_weight(text, p, end, true, w);
      } else if constexpr (kMode == WeightMode::RealFile) {
        p = read_real_weight(text, p, end, true, w);
      } else if constexpr (kMode == WeightMode::IntOverride) {
        std::uint32_t ignored = 0;
        p = read_int_weight(text, p, end, false, ignored);
      } else {
        float ignored = 0;
        p = read_real_weight(text, p, end, false, ignored);
      }
    }
    if constexpr (kMode == WeightMode::PatternRule || kMode == WeightMode::IntOverride ||
                  kMode == WeightMode::RealOverride) {
      w = rule.random_weight(u, v);
    }
    p = expect_line_end(text, p, end, kHasColumn ? "ROW COL VALUE" : "ROW COL");
    sink.put(k++, u, v, w, text, line);
  }
  return k;
}

template <WeightMode kMode, class Weight>
Coo<Weight> read_body(const std::string& name, const FileData& file, const Header& h, const WeightRule& rule,
                      const ReadOptions& options) {
  const char* text = file.data();
  const int threads = resolve_threads(options.threads);
  Progress progress(options.progress, "reading " + name, file.size() - h.body_begin);
  // Shortest entry line: "1 1\n", or "1 1 1\n" with a value.
  const std::size_t min_entry_bytes = kMode == WeightMode::PatternRule ? 4 : 6;
  auto body = parse_body<Weight, NoInfo>(
      name, text, h.body_begin, file.size(), min_entry_bytes, threads, progress,
      [&](const char* begin, const char* stop, EntrySink<Weight>& sink, NoInfo&) {
        return parse_chunk<kMode, Weight>(text, begin, stop, h, rule, sink);
      });
  if (const ParseFailure* f = body.first_failure()) throw_failure(name, text, *f);

  const std::uint64_t found = body.coo.num_entries();
  if (found < h.entries)
    throw InputError(InputErrorKind::CountMismatch, name, line_of(text, h.size_line),
                     "the size line declares " + std::to_string(h.entries) + " entries, but the file has only " +
                         std::to_string(found) + " (truncated file?)");
  if (found > h.entries) {
    auto is_entry = [](const char* line, const char* line_end) {
      const char* q = skip_blanks(line, line_end);
      return q != line_end && *q != '\n' && *q != '%';
    };
    const std::size_t at = offset_of_global_entry(text, body, h.entries, is_entry);
    throw InputError(InputErrorKind::CountMismatch, name, line_of(text, at),
                     "more entries than the " + std::to_string(h.entries) + " declared on line " +
                         std::to_string(line_of(text, h.size_line)));
  }
  if constexpr (std::is_same_v<Weight, float>) {
    auto is_entry = [](const char* line, const char* line_end) {
      const char* q = skip_blanks(line, line_end);
      return q != line_end && *q != '\n' && *q != '%';
    };
    check_float_paths(name, text, body, std::max(h.rows, h.cols), is_entry);
  }
  // A size line may declare 2^32 - 2 vertices over one entry: refuse what
  // cannot be built rather than let build_csr's allocation take the machine.
  check_graph_fits(name, line_of(text, h.size_line), std::max(h.rows, h.cols), found, h.symmetric);
  body.coo.num_vertices = static_cast<vertex_id>(std::max(h.rows, h.cols));
  return std::move(body.coo);
}

}  // namespace

DeclaredSize read_matrix_market_header(const std::string& name, const char* text, std::size_t size) {
  const Header h = read_header(name, text, size);
  return {std::max(h.rows, h.cols), line_of(text, h.size_line)};
}

ParsedGraph read_matrix_market(const FileData& file, const std::string& name, const ReadOptions& options) {
  const Header h = read_header(name, file.data(), file.size());
  ParsedGraph out;
  out.symmetric = h.symmetric;
  out.id_base = 1;
  out.has_weights = h.field != Field::Pattern;
  const bool override_weights = options.weights.kind != WeightRule::Kind::File;
  if (h.field == Field::Pattern) {
    const WeightRule rule = options.weights.for_pattern_file();
    out.weight_rule = rule.describe();
    out.coo = read_body<WeightMode::PatternRule, std::uint32_t>(name, file, h, rule, options);
  } else if (override_weights) {
    out.weight_rule = options.weights.describe();
    if (h.field == Field::Integer)
      out.coo = read_body<WeightMode::IntOverride, std::uint32_t>(name, file, h, options.weights, options);
    else
      out.coo = read_body<WeightMode::RealOverride, std::uint32_t>(name, file, h, options.weights, options);
  } else {
    out.weight_rule = options.weights.describe();
    if (h.field == Field::Integer)
      out.coo = read_body<WeightMode::IntFile, std::uint32_t>(name, file, h, options.weights, options);
    else
      out.coo = read_body<WeightMode::RealFile, float>(name, file, h, options.weights, options);
  }
  return out;
}

}  // namespace graph::io
