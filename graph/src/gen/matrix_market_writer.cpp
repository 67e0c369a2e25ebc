#include "graph/matrix_market_writer.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/atomic_file.hpp"

namespace graph {

namespace {

// Arcs per formatting chunk: big enough to amortise the ordered hand-off,
// small enough (about 8 MB of text) that every thread has its own buffer.
constexpr edge_offset kChunkArcs = edge_offset{1} << 18;
// "4294967295 4294967295 4294967295\n"
constexpr std::size_t kMaxLineBytes = 3 * 10 + 3;

char* put_line(char* out, std::uint64_t row, std::uint64_t col, std::uint32_t weight) {
  char* const end = out + kMaxLineBytes;
  out = std::to_chars(out, end, row).ptr;
  *out++ = ' ';
  out = std::to_chars(out, end, col).ptr;
  *out++ = ' ';
  out = std::to_chars(out, end, weight).ptr;
  *out++ = '\n';
  return out;
}

}  // namespace

bool is_symmetric(const IntCsr& graph) {
  bool symmetric = true;
  const auto n = static_cast<std::int64_t>(graph.num_vertices);
#pragma omp parallel for schedule(dynamic, 1024) reduction(&& : symmetric) if (graph.num_arcs() > kChunkArcs)
  for (std::int64_t u = 0; u < n; ++u) {
    for (edge_offset k = graph.offsets[u]; k < graph.offsets[u + 1] && symmetric; ++k) {
      const vertex_id v = graph.targets[k];
      // Rows are sorted by target (Csr's invariant): binary search for u.
      const auto first = graph.targets.begin() + static_cast<std::ptrdiff_t>(graph.offsets[v]);
      const auto last = graph.targets.begin() + static_cast<std::ptrdiff_t>(graph.offsets[v + 1]);
      const auto it = std::lower_bound(first, last, static_cast<vertex_id>(u));
      symmetric = it != last && *it == static_cast<vertex_id>(u) &&
                  graph.weights[static_cast<std::size_t>(it - graph.targets.begin())] == graph.weights[k];
    }
  }
  return symmetric;
}

void write_matrix_market(const std::string& path, const IntCsr& graph, const MatrixMarketWriteOptions& options) {
  if (options.symmetric && !is_symmetric(graph))
    throw std::invalid_argument("write_matrix_market(" + path +
                                "): 'symmetric' requested but the graph has an arc without an equal-weight mirror");
  const vertex_id n = graph.num_vertices;
  // Symmetric files hold the lower triangle, diagonal included (a CSR built
  // with drop_self_loops = false may have self-loops).
  edge_offset entries = graph.num_arcs();
  if (options.symmetric) {
    entries = 0;
    const auto vertices = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : entries) if (graph.num_arcs() > kChunkArcs)
    for (std::int64_t u = 0; u < vertices; ++u)
      for (edge_offset k = graph.offsets[u]; k < graph.offsets[u + 1]; ++k)
        entries += graph.targets[k] <= static_cast<vertex_id>(u);
  }

  std::string header = "%%MatrixMarket matrix coordinate integer ";
  header += options.symmetric ? "symmetric\n" : "general\n";
  std::size_t line_start = 0;
  while (!options.comment.empty() && line_start <= options.comment.size()) {
    const std::size_t newline = options.comment.find('\n', line_start);
    const std::size_t end = newline == std::string::npos ? options.comment.size() : newline;
    header += "% " + options.comment.substr(line_start, end - line_start) + "\n";
    if (newline == std::string::npos) break;
    line_start = newline + 1;
  }
  header += std::to_string(n) + " " + std::to_string(n) + " " + std::to_string(entries) + "\n";

  detail::AtomicFile out(path);
  out.write(header);

  // Chunk c covers the vertices whose arcs start in [c * kChunkArcs, (c+1) * kChunkArcs).
  const edge_offset arcs = graph.num_arcs();
  const std::int64_t chunks = static_cast<std::int64_t>((arcs + kChunkArcs - 1) / kChunkArcs);
  std::vector<vertex_id> chunk_begin(static_cast<std::size_t>(chunks) + 1, n);
  for (std::int64_t c = 0; c < chunks; ++c) {
    const auto it = std::lower_bound(graph.offsets.begin(), graph.offsets.end() - 1,
                                     static_cast<edge_offset>(c) * kChunkArcs);
    chunk_begin[static_cast<std::size_t>(c)] = static_cast<vertex_id>(it - graph.offsets.begin());
  }
  if (chunks > 0) chunk_begin[0] = 0;

  // Threads format chunks into their own buffers; the ordered section writes
  // them in file order while the other threads format ahead.
  std::vector<std::string> buffers(static_cast<std::size_t>(omp_get_max_threads()));
  std::exception_ptr error;
#pragma omp parallel for ordered schedule(dynamic, 1) if (chunks > 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    std::string& buffer = buffers[static_cast<std::size_t>(omp_get_thread_num())];
    const vertex_id first = chunk_begin[static_cast<std::size_t>(c)];
    const vertex_id last = chunk_begin[static_cast<std::size_t>(c) + 1];
    const edge_offset chunk_arcs = graph.offsets[last] - graph.offsets[first];
    buffer.resize(static_cast<std::size_t>(chunk_arcs) * kMaxLineBytes);
    char* out_ptr = buffer.data();
    for (vertex_id u = first; u < last; ++u) {
      for (edge_offset k = graph.offsets[u]; k < graph.offsets[u + 1]; ++k) {
        const vertex_id v = graph.targets[k];
        if (options.symmetric && v > u) continue;
        out_ptr = put_line(out_ptr, std::uint64_t{u} + 1, std::uint64_t{v} + 1, graph.weights[k]);
      }
    }
    const auto used = static_cast<std::size_t>(out_ptr - buffer.data());
#pragma omp ordered
    {
      if (!error) {
        try {
          out.write(buffer.data(), used);
        } catch (...) {
          error = std::current_exception();
        }
      }
    }
  }
  if (error) std::rethrow_exception(error);
  out.commit();
}

}  // namespace graph
