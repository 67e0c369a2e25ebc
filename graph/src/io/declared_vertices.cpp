#include "graph/declared_vertices.hpp"

#include <sys/stat.h>
#include <zlib.h>

#include <exception>
#include <string>

#include "graph/error.hpp"
#include "graph/io/readers.hpp"

namespace graph {

namespace {

// Headers sit in the first lines; comments above them rarely pass a few KiB.
constexpr unsigned kPeekBytes = 1u << 20;

// The file's first kPeekBytes (inflated when gzip: zlib reads plain files
// as they are), cut after its last whole line; nothing when unreadable.
std::optional<std::string> read_head(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) return std::nullopt;
  std::string head(kPeekBytes, '\0');
  const int got = gzread(file, head.data(), kPeekBytes);
  gzclose(file);
  if (got < 0) return std::nullopt;
  head.resize(static_cast<std::size_t>(got));
  // A line cut at the window's end is not read: its last number is cut short.
  if (head.size() == kPeekBytes) {
    const std::size_t last = head.find_last_of('\n');
    head.resize(last == std::string::npos ? 0 : last + 1);
  }
  return head;
}

}  // namespace

std::optional<DeclaredVertices> declared_vertices(const std::string& path, Format format) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  try {
    if (format == Format::Auto) format = detect_format(path);
    if (format != Format::Dimacs && format != Format::MatrixMarket) return std::nullopt;
    const std::optional<std::string> head = read_head(path);
    if (!head || head->empty()) return std::nullopt;
    const io::DeclaredSize size = format == Format::Dimacs
                                      ? io::read_dimacs_header(path, head->data(), head->size())
                                      : io::read_matrix_market_header(path, head->data(), head->size());
    return DeclaredVertices{size.vertices, size.line};
  } catch (const std::exception&) {
    return std::nullopt;  // the loader reports it, in its own words
  }
}

}  // namespace graph
