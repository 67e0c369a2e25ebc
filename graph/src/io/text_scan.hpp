// Internal to graph/src/io: the scanning primitives and the parallel chunk
// driver shared by the text readers.
//
// Speed comes from three things: no allocation per token (numbers are read
// straight from the file's bytes), one pass that writes entries directly to
// their final place in the COO, and OpenMP over chunks split at line
// boundaries. Each chunk gets an output window whose size is an upper bound
// on its entries (its newline count, and at most bytes / shortest entry line),
// so no chunk waits for another; windows are closed up afterwards only when a
// chunk held blank or comment lines. Errors carry a byte offset; the line
// number is computed from it (by counting newlines) only on the error path.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "graph/csr.hpp"
#include "graph/csr_check.hpp"
#include "graph/error.hpp"
#include "graph/memory_budget.hpp"
#include "../core/prefault.hpp"

namespace graph::io::detail {

// A vertex count must stay below kNoVertex (2^32 - 1), which marks "no vertex".
inline constexpr std::uint64_t kMaxVertices = std::numeric_limits<vertex_id>::max() - 1ull;

// ---------------------------------------------------------------- errors

// A problem found while parsing, located by byte offset into the text.
struct ParseFailure {
  std::size_t offset = 0;
  InputErrorKind kind = InputErrorKind::BadToken;
  std::string message;
  bool need_float = false;  // edge lists: not an error, a request to re-read with float weights
};

[[noreturn]] inline void fail_at(const char* text, const char* at, InputErrorKind kind, std::string message) {
  throw ParseFailure{static_cast<std::size_t>(at - text), kind, std::move(message), false};
}

// Newlines in [p, end), at memory speed (SSE2 where available).
std::uint64_t count_newlines(const char* p, const char* end);

// 1-based line number of a byte offset (counts newlines before it).
inline std::uint64_t line_of(const char* text, std::size_t offset) { return 1 + count_newlines(text, text + offset); }

[[noreturn]] inline void throw_failure(const std::string& name, const char* text, const ParseFailure& f) {
  throw InputError(f.kind, name, line_of(text, f.offset), f.message);
}

// The token starting at p, for messages (at most 40 characters).
inline std::string token_text(const char* p, const char* end) {
  const char* q = p;
  while (q != end && *q != '\n' && *q != ' ' && *q != '\t' && *q != '\r' && q - p < 40) ++q;
  if (q == p) return p == end || *p == '\n' ? std::string("end of line") : std::string(1, *p);
  return "'" + std::string(p, q) + "'";
}

// ---------------------------------------------------------------- scanning

// Spaces, tabs and carriage returns (CRLF files) separate tokens.
inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

inline const char* skip_blanks(const char* p, const char* end) {
  while (p != end && is_blank(*p)) ++p;
  return p;
}

// Just past the next newline, or end.
inline const char* next_line(const char* p, const char* end) {
  const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
  return nl ? static_cast<const char*>(nl) + 1 : end;
}

inline bool at_token_end(const char* p, const char* end) { return p == end || *p == '\n' || is_blank(*p); }

// The hot readers below inline only the common case (a short run of digits
// followed by a blank or the line end); anything else, errors included,
// goes to an out-of-line slow path so that the parse loop stays small.
#define GRAPH_IO_INLINE inline __attribute__((always_inline))
#define GRAPH_IO_UNLIKELY(x) __builtin_expect(!!(x), 0)

// Slow paths (text_scan.cpp): each returns the end of the token or throws
// ParseFailure with the right kind.
const char* read_u64_slow(const char* text, const char* start, const char* end, std::uint64_t& value,
                          const char* what);
const char* read_int_weight_slow(const char* text, const char* start, const char* end, bool check_range,
                                 std::uint32_t& weight);
[[noreturn]] void fail_id_range(const char* text, const char* at, std::uint64_t value, std::uint64_t limit,
                                const char* what);
[[noreturn]] void fail_missing(const char* text, const char* line, bool at_file_end, const char* what);
[[noreturn]] void fail_extra(const char* text, const char* at, const char* end, const char* expected);
[[noreturn]] void fail_window(const char* text, const char* line);  // a chunk window too small: a bug

// An unsigned decimal integer token. Fails with BadToken when p does not
// start a number or the number runs into other characters ("12a"), with
// Overflow beyond 2^64 - 1.
GRAPH_IO_INLINE const char* read_u64(const char* text, const char* p, const char* end, std::uint64_t& value,
                                     const char* what) {
  const char* start = p;
  std::uint64_t v = 0;
  while (p != end && is_digit(*p)) {
    v = v * 10 + static_cast<std::uint64_t>(*p - '0');
    ++p;
  }
  // 19 digits always fit in 64 bits; longer tokens are re-read with checks.
  if (GRAPH_IO_UNLIKELY(p == start || p - start > 19 || !at_token_end(p, end)))
    return read_u64_slow(text, start, end, value, what);
  value = v;
  return p;
}

// A 1-based id in [1, limit] (limit >= 1); returns it 0-based.
GRAPH_IO_INLINE const char* read_id1(const char* text, const char* p, const char* end, std::uint64_t limit,
                                     vertex_id& id, const char* what) {
  std::uint64_t v = 0;
  const char* q = read_u64(text, p, end, v, what);
  if (GRAPH_IO_UNLIKELY(v - 1 >= limit)) fail_id_range(text, p, v, limit, what);  // v == 0 wraps
  id = static_cast<vertex_id>(v - 1);
  return q;
}

// An integer weight: optional sign, must fit in uint32 and not be negative
// ("-0" is zero). With check_range false, only the syntax is checked.
GRAPH_IO_INLINE const char* read_int_weight(const char* text, const char* p, const char* end, bool check_range,
                                            std::uint32_t& weight) {
  const char* start = p;
  std::uint32_t v = 0;
  while (p != end && is_digit(*p)) {
    v = v * 10 + static_cast<std::uint32_t>(*p - '0');
    ++p;
  }
  // Up to 9 digits always fit in 32 bits; signs and longer tokens go slow.
  if (GRAPH_IO_UNLIKELY(p == start || p - start > 9 || !at_token_end(p, end)))
    return read_int_weight_slow(text, start, end, check_range, weight);
  weight = v;
  return p;
}

// Whether [p, end) starts a token of the form [+-]digits followed by a
// token end: integers among real-valued tokens.
inline bool is_integer_token(const char* p, const char* end) {
  if (p != end && (*p == '-' || *p == '+')) ++p;
  const char* start = p;
  while (p != end && is_digit(*p)) ++p;
  return p != start && at_token_end(p, end);
}

// The power of ten of a decimal number's leading non-zero digit, read from
// its text ("120" -> 2, "0.05e3" -> 1, "1e-400" -> -400); INT64_MIN for zero.
// [p, end) must already be a valid from_chars number.
std::int64_t decimal_magnitude(const char* p, const char* end);

// A real weight, stored as float. NaN, infinities and negative values are
// BadWeight; finite values beyond float's range are Overflow. Values below
// float's smallest subnormal round to 0.
const char* read_real_weight(const char* text, const char* p, const char* end, bool check_range, float& weight);

// After a token: at least one blank, then the next token. A line that ends
// instead is missing a value: Truncated when the file itself ends there
// (a cut file), BadToken otherwise.
GRAPH_IO_INLINE const char* expect_more(const char* text, const char* p, const char* end, const char* line,
                                        const char* what) {
  const char* q = skip_blanks(p, end);
  if (GRAPH_IO_UNLIKELY(q == end || *q == '\n')) fail_missing(text, line, q == end, what);
  return q;
}

// The end of an entry line: trailing blanks, then newline or end of file.
GRAPH_IO_INLINE const char* expect_line_end(const char* text, const char* p, const char* end,
                                            const char* expected) {
  p = skip_blanks(p, end);
  if (p == end) return p;
  if (GRAPH_IO_UNLIKELY(*p != '\n')) fail_extra(text, p, end, expected);
  return p + 1;
}

// Case-insensitive comparison with a lower-case ASCII word.
inline bool iequals(const char* p, std::size_t n, const char* lower_word) {
  if (std::strlen(lower_word) != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    char c = p[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower_word[i]) return false;
  }
  return true;
}

// Splits one header line [p, line_end) into blank-separated tokens, at
// most max_tokens + 1 of them: enough to tell "too many" from the right
// count, without a token list as large as a 100 MB line.
struct Token {
  const char* p;
  std::size_t n;
  // For messages: at most 40 characters.
  std::string str() const { return n <= 40 ? std::string(p, n) : std::string(p, 37) + "..."; }
};
inline std::vector<Token> split_tokens(const char* p, const char* line_end, std::size_t max_tokens) {
  std::vector<Token> out;
  while (out.size() <= max_tokens) {
    while (p != line_end && (is_blank(*p) || *p == '\n')) ++p;
    if (p == line_end) break;
    const char* start = p;
    while (p != line_end && !is_blank(*p) && *p != '\n') ++p;
    out.push_back({start, static_cast<std::size_t>(p - start)});
  }
  return out;
}

// "N" when a line held exactly the tokens counted, "more than MAX" when
// split_tokens stopped early.
inline std::string token_count(const std::vector<Token>& tokens, std::size_t max_tokens) {
  return tokens.size() > max_tokens ? "more than " + std::to_string(max_tokens) : std::to_string(tokens.size());
}

// A header number: unsigned decimal, the whole token.
inline std::optional<std::uint64_t> parse_header_u64(const Token& t, bool* overflow) {
  std::uint64_t v = 0;
  *overflow = false;
  if (t.n == 0) return std::nullopt;
  for (std::size_t i = 0; i < t.n; ++i) {
    if (!is_digit(t.p[i])) return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(t.p[i] - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
      *overflow = true;
      return std::nullopt;
    }
    v = v * 10 + digit;
  }
  return v;
}

// ---------------------------------------------------------------- progress

// Progress on stderr for parses that run longer than about a second.
class Progress {
 public:
  Progress(bool enabled, std::string label, std::uint64_t total_bytes)
      : enabled_(enabled), label_(std::move(label)), total_(total_bytes), start_(Clock::now()) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() { finish(); }

  // Thread-safe; called as chunks complete.
  void add(std::uint64_t bytes) {
    const std::uint64_t done = done_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    if (!enabled_) return;
    const auto now = Clock::now();
    if (now - start_ < std::chrono::seconds(1)) return;
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || (printed_ && now - last_ < std::chrono::milliseconds(250))) return;
    last_ = now;
    printed_ = true;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "\r%s: %3.0f%% of %.1f MB, %.0f MB/s   ", label_.c_str(),
                 total_ ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0,
                 static_cast<double>(total_) / 1e6, static_cast<double>(done) / 1e6 / seconds);
    std::fflush(stderr);
  }

  void finish() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!printed_) return;
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    std::fprintf(stderr, "\r%s: parsed %.1f MB in %.2f s (%.0f MB/s)      \n", label_.c_str(),
                 static_cast<double>(total_) / 1e6, seconds, static_cast<double>(total_) / 1e6 / seconds);
    printed_ = false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  std::string label_;
  std::uint64_t total_;
  Clock::time_point start_, last_;
  std::atomic<std::uint64_t> done_{0};
  std::mutex mutex_;
  bool printed_ = false;
};

// ---------------------------------------------------------------- chunk driver

inline int resolve_threads(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

struct ChunkRange {
  std::size_t begin = 0, end = 0;  // byte offsets, at line starts
  std::uint64_t base = 0;          // first slot of this chunk's output window
  std::uint64_t capacity = 0;      // window size: an upper bound on its entries
};

// Output of one chunk: entries written and what the format wants to know.
template <class Info>
struct ChunkResult {
  std::uint64_t count = 0;
  Info info{};
  std::optional<ParseFailure> failure;
};

template <class Weight, class Info>
struct BodyResult {
  Coo<Weight> coo;                         // entries in file order (valid when no failure)
  std::vector<ChunkRange> chunks;
  std::vector<ChunkResult<Info>> results;  // one per chunk
  // The first failure in file order, if any.
  const ParseFailure* first_failure() const {
    for (const auto& r : results)
      if (r.failure) return &*r.failure;
    return nullptr;
  }
};

// Splits [begin, end) into chunks that start at line starts. Chunks are a
// few MB so that work spreads evenly and progress can be shown, yet large
// enough that per-chunk overhead does not matter.
inline std::vector<ChunkRange> split_chunks(const char* text, std::size_t begin, std::size_t end, int threads,
                                            std::size_t min_entry_bytes) {
  constexpr std::size_t kMaxChunk = 8u << 20, kMinChunk = 256u << 10;
  const std::size_t bytes = end - begin;
  const std::size_t target = std::clamp<std::size_t>(bytes / (4 * static_cast<std::size_t>(threads) + 1),
                                                     kMinChunk, kMaxChunk);
  std::vector<ChunkRange> chunks;
  std::size_t at = begin;
  while (at < end) {
    std::size_t stop = end;
    if (end - at > target + target / 2) {
      const char* nl = next_line(text + at + target, text + end);
      stop = static_cast<std::size_t>(nl - text);
    }
    chunks.push_back({at, stop, 0, 0});
    at = stop;
  }
  // Window sizes: a chunk holds at most one entry per line, and an entry line
  // takes at least min_entry_bytes including its newline (the last line of
  // the file may lack it, hence + 1). The second bound keeps memory
  // proportional to the file even for a file of empty lines.
  std::vector<std::uint64_t> lines(chunks.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (std::int64_t c = 0; c < static_cast<std::int64_t>(chunks.size()); ++c) {
    const auto& ch = chunks[static_cast<std::size_t>(c)];
    lines[static_cast<std::size_t>(c)] = count_newlines(text + ch.begin, text + ch.end) + 1;
  }
  std::uint64_t base = 0;
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    const std::uint64_t by_bytes = (chunks[c].end - chunks[c].begin) / min_entry_bytes + 1;
    chunks[c].capacity = std::min<std::uint64_t>(lines[c], by_bytes);
    chunks[c].base = base;
    base += chunks[c].capacity;
  }
  return chunks;
}

// Where a chunk parser writes its entries.
template <class Weight>
struct EntrySink {
  vertex_id* sources;
  vertex_id* targets;
  Weight* weights;
  std::uint64_t capacity;

  // Stores entry k (the chunk's k-th) read from `line`; k must stay below
  // capacity, which the chunk window guarantees (else a bug: fail_window).
  void put(std::uint64_t k, vertex_id u, vertex_id v, Weight w, const char* text, const char* line) const {
    if (GRAPH_IO_UNLIKELY(k == capacity)) fail_window(text, line);
    sources[k] = u;
    targets[k] = v;
    weights[k] = w;
  }
};

// Parses [body_begin, body_end) of file `name` in parallel. parse_chunk(begin, end, sink,
// info) returns the number of entries written and throws ParseFailure on
// the first problem in its chunk; it must not throw anything else. On
// success the COO holds all entries in file order; on failure it is empty
// and first_failure() tells the first problem in file order.
template <class Weight, class Info, class ParseChunk>
BodyResult<Weight, Info> parse_body(const std::string& name, const char* text, std::size_t body_begin,
                                    std::size_t body_end, std::size_t min_entry_bytes, int threads,
                                    Progress& progress, ParseChunk&& parse_chunk) {
  BodyResult<Weight, Info> out;
  out.chunks = split_chunks(text, body_begin, body_end, threads, min_entry_bytes);
  out.results.resize(out.chunks.size());
  const std::uint64_t slots = out.chunks.empty() ? 0 : out.chunks.back().base + out.chunks.back().capacity;
  // The windows are sized before parsing, from line counts: a file of blank
  // lines asks for several times its size. Held to the budget with the text.
  graph::detail::check_host_bytes(
      name, 0, graph::detail::mul_add_sat(slots, 2 * sizeof(vertex_id) + sizeof(Weight), body_end),
      "parsing this file (an entry slot per line)");
  graph::detail::resize_prefaulted(out.coo.sources, slots, threads);
  graph::detail::resize_prefaulted(out.coo.targets, slots, threads);
  graph::detail::resize_prefaulted(out.coo.weights, slots, threads);
  // Index of the first chunk that failed so far: chunks after it cannot
  // hold the first failure in file order, so they are skipped.
  std::atomic<std::int64_t> first_failed{std::numeric_limits<std::int64_t>::max()};
  auto note_failure = [&first_failed](std::int64_t c) {
    std::int64_t seen = first_failed.load(std::memory_order_relaxed);
    while (c < seen && !first_failed.compare_exchange_weak(seen, c, std::memory_order_relaxed)) {
    }
  };

#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (std::int64_t c = 0; c < static_cast<std::int64_t>(out.chunks.size()); ++c) {
    const ChunkRange& ch = out.chunks[static_cast<std::size_t>(c)];
    auto& result = out.results[static_cast<std::size_t>(c)];
    if (first_failed.load(std::memory_order_relaxed) < c) continue;
    EntrySink<Weight> sink{out.coo.sources.data() + ch.base, out.coo.targets.data() + ch.base,
                           out.coo.weights.data() + ch.base, ch.capacity};
    try {
      result.count = parse_chunk(text + ch.begin, text + ch.end, sink, result.info);
    } catch (ParseFailure& f) {
      result.failure = std::move(f);
      note_failure(c);
    } catch (std::exception& e) {  // e.g. bad_alloc building a message: never let it escape the region
      result.failure = ParseFailure{ch.begin, InputErrorKind::BadToken, e.what(), false};
      note_failure(c);
    }
    progress.add(ch.end - ch.begin);
  }
  progress.finish();

  if (first_failed.load() != std::numeric_limits<std::int64_t>::max()) {
    out.coo = Coo<Weight>{};
    return out;
  }
  // Close the gaps left by blank and comment lines (none in most files).
  std::uint64_t total = 0;
  for (std::size_t c = 0; c < out.chunks.size(); ++c) {
    const std::uint64_t from = out.chunks[c].base, n = out.results[c].count;
    if (from != total && n > 0) {
      std::memmove(out.coo.sources.data() + total, out.coo.sources.data() + from, n * sizeof(vertex_id));
      std::memmove(out.coo.targets.data() + total, out.coo.targets.data() + from, n * sizeof(vertex_id));
      std::memmove(out.coo.weights.data() + total, out.coo.weights.data() + from, n * sizeof(Weight));
    }
    total += n;
  }
  out.coo.sources.resize(total);
  out.coo.targets.resize(total);
  out.coo.weights.resize(total);
  return out;
}

// Byte offset of the k-th (0-based) entry of a chunk, by re-scanning it with
// is_entry(line_begin, line_end) telling entry lines from the others. Used
// only on the error path ("more entries than declared").
template <class IsEntry>
std::size_t offset_of_entry(const char* text, const ChunkRange& chunk, std::uint64_t k, IsEntry&& is_entry) {
  const char* p = text + chunk.begin;
  const char* end = text + chunk.end;
  while (p != end) {
    const char* line_end = next_line(p, end);
    if (is_entry(p, line_end)) {
      if (k == 0) return static_cast<std::size_t>(p - text);
      --k;
    }
    p = line_end;
  }
  return chunk.end;
}

// Offset of the global entry with index `index` (0-based, in file order).
template <class Weight, class Info, class IsEntry>
std::size_t offset_of_global_entry(const char* text, const BodyResult<Weight, Info>& body, std::uint64_t index,
                                   IsEntry&& is_entry) {
  for (std::size_t c = 0; c < body.chunks.size(); ++c) {
    if (index < body.results[c].count) return offset_of_entry(text, body.chunks[c], index, is_entry);
    index -= body.results[c].count;
  }
  return body.chunks.empty() ? 0 : body.chunks.back().end;
}

// Float distances must not overflow to infinity, which means "unreachable":
// a wrong answer, not an error. Graphs whose float_path_bound exceeds
// FLT_MAX are refused, naming the line of the largest weight: no reachable
// vertex can then get an infinite distance, on the CPU or on the GPU (same
// float additions).
template <class Info, class IsEntry>
void check_float_paths(const std::string& name, const char* text, const BodyResult<float, Info>& body,
                       std::uint64_t vertices, IsEntry&& is_entry) {
  const std::vector<float>& w = body.coo.weights;
  if (w.empty() || vertices < 2) return;
  const auto heaviest = std::max_element(w.begin(), w.end());
  double sum = 0;
  for (const float x : w) sum += x;
  const double bound = float_path_bound(static_cast<double>(*heaviest), sum, vertices);
  if (bound <= static_cast<double>(std::numeric_limits<float>::max())) return;
  const auto index = static_cast<std::uint64_t>(heaviest - w.begin());
  const std::size_t at = offset_of_global_entry(text, body, index, is_entry);
  char numbers[160];
  std::snprintf(numbers, sizeof(numbers), "weight %g with %llu vertices: a computed path length could reach %g, ",
                static_cast<double>(*heaviest), static_cast<unsigned long long>(vertices), bound);
  throw InputError(InputErrorKind::Overflow, name, line_of(text, at),
                   std::string(numbers) +
                       "beyond float range (3.4e38, rounding included); scale the weights down");
}

}  // namespace graph::io::detail
