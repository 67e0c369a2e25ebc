// Distance files: "id distance" per line, '#' comment lines, -1 = unreachable
// (the format of the test graphs' reference .dist files and of `sssp --output`).
#include "graph/distance_io.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
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

template <class Dist>
void write_distances(const std::string& path, const std::vector<Dist>& dist, Dist infinity, std::uint32_t id_base) {
  detail::AtomicFile out(path);
  // Integers as integers; floats in the shortest form that reads back to the
  // same value (std::to_chars' guarantee, never more than max_digits10 digits).
  constexpr std::size_t kMaxLine = 24 + 1 + 32 + 1;
  constexpr std::size_t kBlockBytes = std::size_t{1} << 20;
  std::string buffer(kBlockBytes + kMaxLine, '\0');
  std::size_t used = 0;
  for (std::size_t v = 0; v < dist.size(); ++v) {
    char* p = buffer.data() + used;
    char* const end = buffer.data() + buffer.size();
    p = std::to_chars(p, end, static_cast<std::uint64_t>(v) + id_base).ptr;
    *p++ = ' ';
    if (dist[v] == infinity) {
      *p++ = '-';
      *p++ = '1';
    } else {
      p = std::to_chars(p, end, dist[v]).ptr;
    }
    *p++ = '\n';
    used = static_cast<std::size_t>(p - buffer.data());
    if (used >= kBlockBytes) {
      out.write(buffer.data(), used);
      used = 0;
    }
  }
  out.write(buffer.data(), used);
  out.commit();
}

template void write_distances(const std::string&, const std::vector<std::uint64_t>&, std::uint64_t, std::uint32_t);
template void write_distances(const std::string&, const std::vector<std::uint32_t>&, std::uint32_t, std::uint32_t);
template void write_distances(const std::string&, const std::vector<float>&, float, std::uint32_t);
template void write_distances(const std::string&, const std::vector<double>&, double, std::uint32_t);

}  // namespace graph
