// Distance files: "id distance" per line, '#' comment lines, -1 = unreachable
// (the format of the test graphs' reference .dist files and of `sssp --output`).
#include "graph/distance_io.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/atomic_file.hpp"
#include "graph/error.hpp"

namespace graph {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

struct Entry {
  std::uint64_t id;
  double distance;
  std::uint64_t line;
};

}  // namespace

std::vector<double> read_distances(const std::string& path, std::uint32_t id_base) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(InputErrorKind::CannotOpen, path, 0, "cannot open distance file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(InputErrorKind::CannotOpen, path, 0, "read error");

  std::vector<Entry> entries;
  std::uint64_t line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    ++line_number;
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const char* p = text.data() + pos;
    const char* const line_end = text.data() + end;
    pos = end + 1;
    const auto error = [&](InputErrorKind kind, const std::string& what) {
      return InputError(kind, path, line_number, what);
    };

    while (p < line_end && is_space(*p)) ++p;
    if (p == line_end || *p == '#') continue;  // blank or comment line

    std::uint64_t id = 0;
    auto parsed = std::from_chars(p, line_end, id);
    if (parsed.ec == std::errc::result_out_of_range)
      throw error(InputErrorKind::Overflow, "vertex id does not fit in 64 bits");
    if (parsed.ec != std::errc() || (parsed.ptr < line_end && !is_space(*parsed.ptr)))
      throw error(InputErrorKind::BadToken, "expected 'id distance', the id is not a non-negative integer");
    p = parsed.ptr;
    while (p < line_end && is_space(*p)) ++p;
    if (p == line_end) throw error(InputErrorKind::BadToken, "expected 'id distance', the distance is missing");

    double distance = 0;
    const char* const token = p;
    parsed = std::from_chars(p, line_end, distance, std::chars_format::general);
    if (parsed.ec == std::errc::result_out_of_range)
      throw error(InputErrorKind::Overflow, "distance is out of the range of a double");
    if (parsed.ec != std::errc() || (parsed.ptr < line_end && !is_space(*parsed.ptr)))
      throw error(InputErrorKind::BadToken, "the distance '" + std::string(token, parsed.ptr) +
                                                "' is not a number");
    if (std::isnan(distance) || std::isinf(distance))
      throw error(InputErrorKind::BadToken, "the distance is not finite (write -1 for unreachable)");
    if (distance < 0 && distance != -1.0)
      throw error(InputErrorKind::BadToken, "negative distance other than -1 (unreachable)");
    p = parsed.ptr;
    while (p < line_end && is_space(*p)) ++p;
    if (p != line_end) throw error(InputErrorKind::BadToken, "extra text after 'id distance'");

    if (id < id_base)
      throw error(InputErrorKind::IdOutOfRange,
                  "vertex id " + std::to_string(id) + " is below the id base " + std::to_string(id_base));
    entries.push_back({id - id_base, distance, line_number});
  }

  // The file lists every vertex exactly once, so n = number of entries and
  // ids must cover base .. base + n - 1; an id beyond that means another
  // vertex is missing.
  const std::uint64_t n = entries.size();
  std::vector<double> dist(n, 0.0);
  std::vector<std::uint64_t> first_line(n, 0);
  for (const Entry& e : entries) {
    if (e.id >= n)
      throw InputError(InputErrorKind::IdOutOfRange, path, e.line,
                       "vertex id " + std::to_string(e.id + id_base) + " is beyond the " + std::to_string(n) +
                           " vertices listed (ids " + std::to_string(id_base) + ".." +
                           std::to_string(n - 1 + id_base) + "): a vertex is missing or the id is wrong");
    if (first_line[e.id] != 0)
      throw InputError(InputErrorKind::CountMismatch, path, e.line,
                       "vertex id " + std::to_string(e.id + id_base) + " listed twice (first at line " +
                           std::to_string(first_line[e.id]) + ")");
    first_line[e.id] = e.line;
    dist[e.id] = e.distance;
  }
  return dist;
}

namespace {

// Where the formatted bytes go: an output file (finished by the writer,
// committed by its caller) or a stream.
struct Sink {
  detail::AtomicFile* file = nullptr;
  std::ostream* stream = nullptr;
  void write(const char* data, std::size_t bytes) {
    if (file) {
      file->write(data, bytes);
    } else {
      stream->write(data, static_cast<std::streamsize>(bytes));
      if (!*stream) throw std::runtime_error("write to the output stream failed");
    }
  }
  void finish() {
    if (file) {
      file->finish();
    } else {
      stream->flush();
      if (!*stream) throw std::runtime_error("write to the output stream failed");
    }
  }
};

// Formatted lines gathered in 1 MiB blocks before they go to the sink.
// Integers as integers; floats in the shortest form that reads back to the
// same value (std::to_chars' guarantee, never more than max_digits10 digits);
// the infinity of the distance type as -1, and so is "no predecessor".
class LineWriter {
 public:
  explicit LineWriter(Sink out) : out_(out), buffer_(kBlockBytes + kMaxItem, '\0') {}

  void text(const std::string& s) {
    for (const char c : s) put(c);
  }
  void id(std::uint64_t v) {
    room();
    used_ = static_cast<std::size_t>(std::to_chars(at(), end(), v).ptr - buffer_.data());
  }
  template <class Dist>
  void distance(Dist d, Dist infinity) {
    room();
    if (d == infinity) {
      put('-');
      put('1');
    } else {
      used_ = static_cast<std::size_t>(std::to_chars(at(), end(), d).ptr - buffer_.data());
    }
  }
  // " p" after a distance: the predecessor's id as the user sees it, -1 for
  // none (the source itself, unreachable vertices).
  void predecessor(vertex_id p, std::uint32_t id_base) {
    put(' ');
    if (p == kNoVertex) {
      put('-');
      put('1');
    } else {
      id(std::uint64_t{p} + id_base);
    }
  }
  void put(char c) {
    room();
    buffer_[used_++] = c;
  }
  // Writes what is left and finishes the sink; committing a file is the caller's.
  void finish() {
    out_.write(buffer_.data(), used_);
    used_ = 0;
    out_.finish();
  }

 private:
  static constexpr std::size_t kBlockBytes = std::size_t{1} << 20;
  static constexpr std::size_t kMaxItem = 40;  // one id, distance or character, with room to spare
  char* at() { return buffer_.data() + used_; }
  char* end() { return buffer_.data() + buffer_.size(); }
  // Flushes a full block, so the next item always fits.
  void room() {
    if (used_ < kBlockBytes) return;
    out_.write(buffer_.data(), used_);
    used_ = 0;
  }

  Sink out_;
  std::string buffer_;
  std::size_t used_ = 0;
};

void check_predecessor_rows(const char* who, const PredecessorRows* predecessors, std::size_t rows,
                            std::size_t length) {
  if (!predecessors) return;
  if (predecessors->size() != rows)
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(predecessors->size()) +
                                " predecessor rows for " + std::to_string(rows) + " sources");
  for (const auto& row : *predecessors)
    if (row.size() != length)
      throw std::invalid_argument(std::string(who) + ": a predecessor row of " + std::to_string(row.size()) +
                                  " for " + std::to_string(length) + " entries");
}

template <class Dist>
void put_distances(Sink sink, const std::vector<Dist>& dist, Dist infinity, std::uint32_t id_base,
                   const std::vector<vertex_id>* predecessors) {
  if (predecessors && predecessors->size() != dist.size())
    throw std::invalid_argument("write_distances: " + std::to_string(predecessors->size()) + " predecessors for " +
                                std::to_string(dist.size()) + " distances");
  LineWriter out(sink);
  for (std::size_t v = 0; v < dist.size(); ++v) {
    out.id(static_cast<std::uint64_t>(v) + id_base);
    out.put(' ');
    out.distance(dist[v], infinity);
    if (predecessors) out.predecessor((*predecessors)[v], id_base);
    out.put('\n');
  }
  out.finish();
}

template <class Dist>
void put_distance_table(Sink sink, const std::vector<std::uint64_t>& source_ids,
                        const std::vector<std::vector<Dist>>& rows, Dist infinity, std::uint32_t id_base,
                        const PredecessorRows* predecessors) {
  if (rows.size() != source_ids.size())
    throw std::invalid_argument("write_distance_table: " + std::to_string(rows.size()) + " rows for " +
                                std::to_string(source_ids.size()) + " sources");
  const std::size_t n = rows.empty() ? 0 : rows.front().size();
  for (const auto& row : rows)
    if (row.size() != n) throw std::invalid_argument("write_distance_table: rows of different lengths");
  check_predecessor_rows("write_distance_table", predecessors, rows.size(), n);
  LineWriter out(sink);
  out.text("# id");
  for (const std::uint64_t s : source_ids) {
    out.text(" d(");
    out.id(s);
    out.put(')');
    if (predecessors) {
      out.text(" p(");
      out.id(s);
      out.put(')');
    }
  }
  out.put('\n');
  for (std::size_t v = 0; v < n; ++v) {
    out.id(static_cast<std::uint64_t>(v) + id_base);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      out.put(' ');
      out.distance(rows[i][v], infinity);
      if (predecessors) out.predecessor((*predecessors)[i][v], id_base);
    }
    out.put('\n');
  }
  out.finish();
}

template <class Dist>
void put_target_distances(Sink sink, const std::vector<std::uint64_t>& source_ids,
                          const std::vector<std::uint64_t>& target_ids,
                          const std::vector<std::vector<Dist>>& distances, Dist infinity,
                          const PredecessorRows* predecessors, std::uint32_t id_base) {
  if (distances.size() != source_ids.size())
    throw std::invalid_argument("write_target_distances: " + std::to_string(distances.size()) + " rows for " +
                                std::to_string(source_ids.size()) + " sources");
  for (const auto& row : distances)
    if (row.size() != target_ids.size())
      throw std::invalid_argument("write_target_distances: a row of " + std::to_string(row.size()) + " for " +
                                  std::to_string(target_ids.size()) + " targets");
  check_predecessor_rows("write_target_distances", predecessors, distances.size(), target_ids.size());
  LineWriter out(sink);
  out.text(predecessors ? "# source target distance predecessor\n" : "# source target distance\n");
  for (std::size_t i = 0; i < source_ids.size(); ++i) {
    for (std::size_t j = 0; j < target_ids.size(); ++j) {
      out.id(source_ids[i]);
      out.put(' ');
      out.id(target_ids[j]);
      out.put(' ');
      out.distance(distances[i][j], infinity);
      if (predecessors) out.predecessor((*predecessors)[i][j], id_base);
      out.put('\n');
    }
  }
  out.finish();
}

Sink file_sink(detail::AtomicFile& file) { return Sink{&file, nullptr}; }
Sink stream_sink(std::ostream& stream) { return Sink{nullptr, &stream}; }

}  // namespace

template <class Dist>
void write_distances(detail::AtomicFile& file, const std::vector<Dist>& dist, Dist infinity, std::uint32_t id_base,
                     const std::vector<vertex_id>* predecessors) {
  put_distances(file_sink(file), dist, infinity, id_base, predecessors);
}

template <class Dist>
void write_distances(std::ostream& out, const std::vector<Dist>& dist, Dist infinity, std::uint32_t id_base,
                     const std::vector<vertex_id>* predecessors) {
  put_distances(stream_sink(out), dist, infinity, id_base, predecessors);
}

template <class Dist>
void write_distance_table(detail::AtomicFile& file, const std::vector<std::uint64_t>& source_ids,
                          const std::vector<std::vector<Dist>>& rows, Dist infinity, std::uint32_t id_base,
                          const PredecessorRows* predecessors) {
  put_distance_table(file_sink(file), source_ids, rows, infinity, id_base, predecessors);
}

template <class Dist>
void write_distance_table(std::ostream& out, const std::vector<std::uint64_t>& source_ids,
                          const std::vector<std::vector<Dist>>& rows, Dist infinity, std::uint32_t id_base,
                          const PredecessorRows* predecessors) {
  put_distance_table(stream_sink(out), source_ids, rows, infinity, id_base, predecessors);
}

template <class Dist>
void write_target_distances(detail::AtomicFile& file, const std::vector<std::uint64_t>& source_ids,
                            const std::vector<std::uint64_t>& target_ids,
                            const std::vector<std::vector<Dist>>& distances, Dist infinity,
                            const PredecessorRows* predecessors, std::uint32_t id_base) {
  put_target_distances(file_sink(file), source_ids, target_ids, distances, infinity, predecessors, id_base);
}

template <class Dist>
void write_target_distances(std::ostream& out, const std::vector<std::uint64_t>& source_ids,
                            const std::vector<std::uint64_t>& target_ids,
                            const std::vector<std::vector<Dist>>& distances, Dist infinity,
                            const PredecessorRows* predecessors, std::uint32_t id_base) {
  put_target_distances(stream_sink(out), source_ids, target_ids, distances, infinity, predecessors, id_base);
}

// The path forms: open, write, put in place.
template <class Dist>
void write_distances(const std::string& path, const std::vector<Dist>& dist, Dist infinity, std::uint32_t id_base) {
  detail::AtomicFile file(path);
  write_distances(file, dist, infinity, id_base);
  file.commit();
}

template <class Dist>
void write_distance_table(const std::string& path, const std::vector<std::uint64_t>& source_ids,
                          const std::vector<std::vector<Dist>>& rows, Dist infinity, std::uint32_t id_base) {
  detail::AtomicFile file(path);
  write_distance_table(file, source_ids, rows, infinity, id_base);
  file.commit();
}

template <class Dist>
void write_target_distances(const std::string& path, const std::vector<std::uint64_t>& source_ids,
                            const std::vector<std::uint64_t>& target_ids,
                            const std::vector<std::vector<Dist>>& distances, Dist infinity) {
  detail::AtomicFile file(path);
  write_target_distances(file, source_ids, target_ids, distances, infinity);
  file.commit();
}

#define GRAPH_DISTANCE_PATH_WRITERS(Dist)                                                                   \
  template void write_distances(const std::string&, const std::vector<Dist>&, Dist, std::uint32_t);          \
  template void write_distance_table(const std::string&, const std::vector<std::uint64_t>&,                  \
                                     const std::vector<std::vector<Dist>>&, Dist, std::uint32_t);            \
  template void write_target_distances(const std::string&, const std::vector<std::uint64_t>&,                \
                                       const std::vector<std::uint64_t>&, const std::vector<std::vector<Dist>>&, \
                                       Dist);
#define GRAPH_DISTANCE_WRITERS(Out, Dist)                                                                    \
  template void write_distances(Out, const std::vector<Dist>&, Dist, std::uint32_t, const std::vector<vertex_id>*); \
  template void write_distance_table(Out, const std::vector<std::uint64_t>&, const std::vector<std::vector<Dist>>&, \
                                     Dist, std::uint32_t, const PredecessorRows*);                           \
  template void write_target_distances(Out, const std::vector<std::uint64_t>&, const std::vector<std::uint64_t>&,  \
                                       const std::vector<std::vector<Dist>>&, Dist, const PredecessorRows*,  \
                                       std::uint32_t);
#define GRAPH_DISTANCE_ALL_WRITERS(Dist)            \
  GRAPH_DISTANCE_PATH_WRITERS(Dist)                 \
  GRAPH_DISTANCE_WRITERS(detail::AtomicFile&, Dist) \
  GRAPH_DISTANCE_WRITERS(std::ostream&, Dist)
GRAPH_DISTANCE_ALL_WRITERS(std::uint64_t)
GRAPH_DISTANCE_ALL_WRITERS(std::uint32_t)
GRAPH_DISTANCE_ALL_WRITERS(float)
GRAPH_DISTANCE_ALL_WRITERS(double)
#undef GRAPH_DISTANCE_ALL_WRITERS
#undef GRAPH_DISTANCE_PATH_WRITERS
#undef GRAPH_DISTANCE_WRITERS

}  // namespace graph
