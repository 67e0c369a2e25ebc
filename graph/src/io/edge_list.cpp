// Edge lists (.el, .txt, .edges; the SNAP and GAP text formats):
//
//   # comment  or  % comment
//   U V        or  U V W       0-based ids, blank (space/tab) separated
//
// The graph has max id + 1 vertices. Every line has the same number of
// columns: two (no weights: the rule's weights, as for a pattern file) or
// three. Weights are integers (IntCsr) when every weight token is an
// integer, else real (FloatCsr). The file is first read as integer; the
// first non-integer weight stops that pass and the file is read again as
// real, which costs little because such a token usually comes early.
#include <string>

#include "graph/io/readers.hpp"
#include "graph/memory_budget.hpp"
#include "text_scan.hpp"

namespace graph::io {

namespace {

using namespace detail;
using namespace graph::detail;  // memory_budget.hpp

// The largest id: the vertex count, id + 1, must stay below kNoVertex.
constexpr std::uint64_t kMaxId = kMaxVertices - 1;

struct ChunkInfo {
  std::uint64_t max_id = 0;
  int first_columns = 0;             // of the chunk's first entry line; 0: no entries
  std::size_t first_entry = 0;       // offset of that line
};

enum class WeightMode {
  Integer,   // weight tokens kept as uint32; a non-integer asks for the real pass
  Real,      // weight tokens kept as float
  Override,  // weight tokens checked (as reals), rule weights stored
};

[[noreturn, gnu::cold, gnu::noinline]] void fail_id_too_large(const char* text, const char* at, std::uint64_t v,
                                                             const char* what) {
  fail_at(text, at, InputErrorKind::Overflow,
          std::string(what) + " " + std::to_string(v) + " is too large: at most " + std::to_string(kMaxId) +
              " (32-bit vertex ids)");
}

GRAPH_IO_INLINE const char* read_id0(const char* text, const char* p, const char* end, vertex_id& id,
                                     std::uint64_t& max_id, const char* what) {
  std::uint64_t v = 0;
  const char* q = read_u64(text, p, end, v, what);
  if (GRAPH_IO_UNLIKELY(v > kMaxId)) fail_id_too_large(text, p, v, what);
  if (v > max_id) max_id = v;
  id = static_cast<vertex_id>(v);
  return q;
}

bool is_comment_or_blank(const char* q, const char* end) { return q == end || *q == '\n' || *q == '#' || *q == '%'; }

template <WeightMode kMode, class Weight>
std::uint64_t parse_chunk(const char* text, const char* p, const char* end, const WeightRule& fill_rule,
                          EntrySink<Weight>& sink, ChunkInfo& info) {
  std::uint64_t k = 0;
  while (p != end) {
    const char* line = p;
    p = skip_blanks(p, end);
    if (p == end) break;
    if (is_comment_or_blank(p, end)) {
      p = next_line(p, end);
      continue;
    }
    vertex_id u = 0, v = 0;
    p = read_id0(text, p, end, u, info.max_id, "source id");
    p = expect_more(text, p, end, line, "target id");
    p = read_id0(text, p, end, v, info.max_id, "target id");
    p = skip_blanks(p, end);
    const int columns = (p == end || *p == '\n') ? 2 : 3;
    if (info.first_columns == 0) {
      info.first_columns = columns;
      info.first_entry = static_cast<std::size_t>(line - text);
    } else if (columns != info.first_columns) {
      fail_at(text, line, InputErrorKind::BadToken,
              "this line has " + std::to_string(columns) + " columns but earlier lines have " +
                  std::to_string(info.first_columns) + " (every line must be 'U V' or every line 'U V W')");
    }
    Weight w{};
    if (columns == 2) {
      w = static_cast<Weight>(fill_rule.random_weight(u, v));
    } else if constexpr (kMode == WeightMode::Integer) {
      if (!is_integer_token(p, end)) {
        ParseFailure f{static_cast<std::size_t>(p - text), InputErrorKind::BadToken, "non-integer weight", true};
        throw f;
      }
      p = read_int_weight(text, p, end, true, w);
    } else if constexpr (kMode == WeightMode::Real) {
      p = read_real_weight(text, p, end, true, w);
    } else {
      float ignored = 0;
      p = read_real_weight(text, p, end, false, ignored);
      w = static_cast<Weight>(fill_rule.random_weight(u, v));
    }
    p = expect_line_end(text, p, end, columns == 2 ? "'U V'" : "'U V W'");
    sink.put(k++, u, v, w, text, line);
  }
  return k;
}

// Offset of the first entry line holding `id` (the file is known to parse).
std::size_t offset_of_id(const char* text, std::size_t size, std::uint64_t id) {
  const char* end = text + size;
  for (const char* p = text; p != end;) {
    const char* line = p;
    const char* line_end = next_line(p, end);
    p = skip_blanks(p, line_end);
    if (!is_comment_or_blank(p, end)) {
      std::uint64_t u = 0, v = 0;
      p = read_u64(text, p, end, u, "source id");
      p = read_u64(text, skip_blanks(p, end), end, v, "target id");
      if (u == id || v == id) return static_cast<std::size_t>(line - text);
    }
    p = line_end;
  }
  return 0;
}

struct Outcome {
  bool need_float = false;
  int columns = 0;
};

// One pass over the file in the given mode. Throws the first error in file
// order; returns need_float when the integer pass met a real weight first.
template <WeightMode kMode, class Weight>
Outcome read_pass(const std::string& name, const FileData& file, const WeightRule& fill_rule,
                  const ReadOptions& options, Coo<Weight>& coo) {
  const char* text = file.data();
  const int threads = resolve_threads(options.threads);
  Progress progress(options.progress, "reading " + name, file.size());
  constexpr std::size_t kMinEntryBytes = 4;  // "0 1\n"
  auto body = parse_body<Weight, ChunkInfo>(
      name, text, 0, file.size(), kMinEntryBytes, threads, progress,
      [&](const char* begin, const char* stop, EntrySink<Weight>& sink, ChunkInfo& info) {
        return parse_chunk<kMode, Weight>(text, begin, stop, fill_rule, sink, info);
      });

  // The file's column count is that of its first entry line. A chunk whose
  // first entry line differs is an error at that line; failures inside a
  // chunk are at or after its first entry line, so the earliest of all
  // candidates in file order is the one to report.
  const ParseFailure* first = body.first_failure();
  int columns = 0;
  for (std::size_t c = 0; c < body.chunks.size(); ++c) {
    const ChunkInfo& info = body.results[c].info;
    if (first && body.chunks[c].begin > first->offset) break;
    if (info.first_columns == 0) continue;
    if (columns == 0) {
      columns = info.first_columns;
    } else if (info.first_columns != columns) {
      throw InputError(InputErrorKind::BadToken, name, line_of(text, info.first_entry),
                       "this line has " + std::to_string(info.first_columns) + " columns but earlier lines have " +
                           std::to_string(columns) + " (every line must be 'U V' or every line 'U V W')");
    }
  }
  if (first) {
    if (first->need_float) return Outcome{true, columns};
    throw_failure(name, text, *first);
  }
  if (body.coo.num_entries() == 0)
    throw InputError(InputErrorKind::Truncated, name, 0,
                     file.size() == 0 ? "empty file: expected lines 'U V' or 'U V W'"
                                      : "no edges in the file (only comments or blank lines)");
  std::uint64_t max_id = 0;
  for (const auto& r : body.results) max_id = std::max(max_id, r.info.max_id);
  // One line "0 4294967293" makes 2^32 - 2 vertices: refuse what cannot be
  // built, naming the line with the largest id (found again only on this path).
  if (csr_build_bytes(max_id + 1, body.coo.num_entries(), false) > host_memory_budget())
    check_graph_fits(name, line_of(text, offset_of_id(text, file.size(), max_id)), max_id + 1,
                     body.coo.num_entries(), false);
  if constexpr (kMode == WeightMode::Real)
    check_float_paths(name, text, body, max_id + 1, [](const char* line, const char* line_end) {
      return !is_comment_or_blank(skip_blanks(line, line_end), line_end);
    });
  coo = std::move(body.coo);
  coo.num_vertices = static_cast<vertex_id>(max_id + 1);
  return Outcome{false, columns};
}

}  // namespace

ParsedGraph read_edge_list(const FileData& file, const std::string& name, const ReadOptions& options) {
  ParsedGraph out;
  out.symmetric = false;
  out.id_base = 0;
  const WeightRule fill_rule = options.weights.for_pattern_file();
  if (options.weights.kind != WeightRule::Kind::File) {
    Coo<std::uint32_t> coo;
    const Outcome o = read_pass<WeightMode::Override, std::uint32_t>(name, file, fill_rule, options, coo);
    out.has_weights = o.columns == 3;
    out.weight_rule = options.weights.describe();
    out.coo = std::move(coo);
    return out;
  }
  Coo<std::uint32_t> int_coo;
  const Outcome o = read_pass<WeightMode::Integer, std::uint32_t>(name, file, fill_rule, options, int_coo);
  if (!o.need_float) {
    out.has_weights = o.columns == 3;
    out.weight_rule = out.has_weights ? options.weights.describe() : fill_rule.describe();
    out.coo = std::move(int_coo);
    return out;
  }
  Coo<float> float_coo;
  read_pass<WeightMode::Real, float>(name, file, fill_rule, options, float_coo);
  out.has_weights = true;
  out.weight_rule = options.weights.describe();
  out.coo = std::move(float_coo);
  return out;
}

}  // namespace graph::io
