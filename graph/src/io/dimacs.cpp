// DIMACS shortest-path graphs (.gr), as defined for the 9th DIMACS
// Implementation Challenge (Demetrescu, Goldberg, Johnson, 2006):
//
//   c comment
//   p sp N M        N nodes, M arcs; exactly one, before any arc
//   a U V W         arc U -> V with integer weight W; 1-based ids
//
// Weights must be non-negative and fit in 32 bits. The number of `a` lines
// must equal M. Blank lines are tolerated.
#include <string>

#include "graph/io/readers.hpp"
#include "graph/memory_budget.hpp"
#include "text_scan.hpp"

namespace graph::io {

namespace {

using namespace detail;
using namespace graph::detail;  // memory_budget.hpp

struct Problem {
  std::uint64_t nodes = 0, arcs = 0;
  std::size_t line = 0;        // offset of the p line
  std::size_t body_begin = 0;  // offset just past it
};

[[noreturn]] void header_error(const std::string& name, const char* text, const char* at, InputErrorKind kind,
                               const std::string& what) {
  throw InputError(kind, name, line_of(text, static_cast<std::size_t>(at - text)), what);
}

// A line of the given type: its first token is exactly `letter`.
bool line_is(const char* q, const char* end, char letter) {
  return q != end && *q == letter && (q + 1 == end || q[1] == '\n' || is_blank(q[1]));
}

Problem read_problem_line(const std::string& name, const char* text, std::size_t size) {
  const char* end = text + size;
  const char* p = text;
  if (size == 0) throw InputError(InputErrorKind::BadHeader, name, 1, "empty file: expected 'p sp NODES ARCS'");
  while (true) {
    if (p == end)
      header_error(name, text, p, InputErrorKind::BadHeader, "no problem line 'p sp NODES ARCS' in the file");
    const char* q = skip_blanks(p, end);
    if (q == end || *q == '\n' || line_is(q, end, 'c')) {
      p = next_line(p, end);
      continue;
    }
    if (line_is(q, end, 'a'))
      header_error(name, text, p, InputErrorKind::BadHeader, "arc line before the problem line 'p sp NODES ARCS'");
    if (!line_is(q, end, 'p'))
      header_error(name, text, p, InputErrorKind::BadHeader,
                   "expected the problem line 'p sp NODES ARCS', found " + token_text(q, end));
    break;
  }
  Problem pr;
  pr.line = static_cast<std::size_t>(p - text);
  const char* line_end = next_line(p, end);
  const auto tokens = split_tokens(p, line_end, 4);
  if (tokens.size() >= 2 && !iequals(tokens[1].p, tokens[1].n, "sp"))
    header_error(name, text, p, InputErrorKind::Unsupported,
                 "problem type '" + tokens[1].str() + "' is not a shortest-path graph (expected 'p sp NODES ARCS')");
  if (tokens.size() != 4)
    header_error(name, text, p, InputErrorKind::BadHeader,
                 "malformed problem line: expected 'p sp NODES ARCS', found " + token_count(tokens, 4) +
                     " words");
  std::uint64_t values[2];
  const char* labels[2] = {"NODES", "ARCS"};
  for (int i = 0; i < 2; ++i) {
    bool overflow = false;
    const Token& t = tokens[static_cast<std::size_t>(2 + i)];
    const auto v = parse_header_u64(t, &overflow);
    if (overflow)
      header_error(name, text, p, InputErrorKind::Overflow,
                   std::string("problem line: ") + labels[i] + " '" + t.str() + "' does not fit in 64 bits");
    if (!v)
      header_error(name, text, p, InputErrorKind::BadHeader,
                   std::string("malformed problem line: ") + labels[i] + " '" + t.str() +
                       "' is not a non-negative integer");
    values[i] = *v;
  }
  pr.nodes = values[0];
  pr.arcs = values[1];
  if (pr.nodes > kMaxVertices)
    header_error(name, text, p, InputErrorKind::Overflow,
                 "problem line: " + std::to_string(pr.nodes) + " nodes; at most " + std::to_string(kMaxVertices) +
                     " (32-bit vertex ids) are supported");
  pr.body_begin = static_cast<std::size_t>(line_end - text);
  return pr;
}

struct NoInfo {};

// kOverride: weights come from the rule; the file's are checked for syntax only.
template <bool kOverride>
std::uint64_t parse_chunk(const char* text, const char* p, const char* end, std::uint64_t nodes,
                          const WeightRule& rule, EntrySink<std::uint32_t>& sink) {
  std::uint64_t k = 0;
  while (p != end) {
    const char* line = p;
    p = skip_blanks(p, end);
    if (p == end) break;
    if (*p == '\n' || line_is(p, end, 'c')) {
      p = next_line(p, end);
      continue;
    }
    if (!line_is(p, end, 'a')) {
      if (line_is(p, end, 'p')) fail_at(text, line, InputErrorKind::BadHeader, "a second problem line");
      fail_at(text, p, InputErrorKind::BadToken,
              "unknown line type " + token_text(p, end) + " (expected 'a U V W', 'c ...' or a blank line)");
    }
    p = expect_more(text, p + 1, end, line, "source id");
    vertex_id u = 0, v = 0;
    p = read_id1(text, p, end, nodes, u, "source id");
    p = expect_more(text, p, end, line, "target id");
    p = read_id1(text, p, end, nodes, v, "target id");
    p = expect_more(text, p, end, line, "weight");
    std::uint32_t w = 0;
    p = read_int_weight(text, p, end, !kOverride, w);
    if constexpr (kOverride) w = rule.random_weight(u, v);
    p = expect_line_end(text, p, end, "'a U V W'");
    sink.put(k++, u, v, w, text, line);
  }
  return k;
}

}  // namespace

DeclaredSize read_dimacs_header(const std::string& name, const char* text, std::size_t size) {
  const Problem pr = read_problem_line(name, text, size);
  return {pr.nodes, line_of(text, pr.line)};
}

ParsedGraph read_dimacs(const FileData& file, const std::string& name, const ReadOptions& options) {
  const char* text = file.data();
  const Problem pr = read_problem_line(name, text, file.size());
  const bool override_weights = options.weights.kind != WeightRule::Kind::File;
  const int threads = resolve_threads(options.threads);
  Progress progress(options.progress, "reading " + name, file.size() - pr.body_begin);
  // Shortest arc line: "a 1 1 0\n".
  constexpr std::size_t kMinEntryBytes = 8;
  auto body = parse_body<std::uint32_t, NoInfo>(
      name, text, pr.body_begin, file.size(), kMinEntryBytes, threads, progress,
      [&](const char* begin, const char* stop, EntrySink<std::uint32_t>& sink, NoInfo&) {
        return override_weights ? parse_chunk<true>(text, begin, stop, pr.nodes, options.weights, sink)
                                : parse_chunk<false>(text, begin, stop, pr.nodes, options.weights, sink);
      });
  if (const ParseFailure* f = body.first_failure()) throw_failure(name, text, *f);

  const std::uint64_t found = body.coo.num_entries();
  if (found < pr.arcs)
    throw InputError(InputErrorKind::CountMismatch, name, line_of(text, pr.line),
                     "the problem line declares " + std::to_string(pr.arcs) + " arcs, but the file has only " +
                         std::to_string(found) + " 'a' lines (truncated file?)");
  if (found > pr.arcs) {
    auto is_arc = [](const char* line, const char* line_end) { return line_is(skip_blanks(line, line_end), line_end, 'a'); };
    const std::size_t at = offset_of_global_entry(text, body, pr.arcs, is_arc);
    throw InputError(InputErrorKind::CountMismatch, name, line_of(text, at),
                     "more arcs than the " + std::to_string(pr.arcs) + " declared on line " +
                         std::to_string(line_of(text, pr.line)));
  }
  check_graph_fits(name, line_of(text, pr.line), pr.nodes, found, false);
  body.coo.num_vertices = static_cast<vertex_id>(pr.nodes);

  ParsedGraph out;
  out.coo = std::move(body.coo);
  out.symmetric = false;
  out.has_weights = true;
  out.id_base = 1;
  out.weight_rule = options.weights.describe();
  return out;
}

}  // namespace graph::io
