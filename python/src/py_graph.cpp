#include "py_graph.hpp"

#include <utility>

#include "graph/build_csr.hpp"

namespace pysssp {

std::shared_ptr<PyGraph> load_file(const std::string& path, const graph::LoadOptions& options) {
  graph::LoadReport report;
  auto g = std::make_shared<PyGraph>();
  g->csr = graph::load_graph(path, options, &report);
  g->symmetric = report.symmetric;
  g->id_base = report.id_base;
  g->description = path;
  g->weight_rule = report.weight_rule;
  return g;
}

template <class Weight>
std::shared_ptr<PyGraph> from_arcs(graph::vertex_id n, const std::uint32_t* src, const std::uint32_t* dst,
                                   const Weight* weights, std::size_t arcs, bool directed) {
  graph::Coo<Weight> coo;
  coo.num_vertices = n;
  coo.sources.assign(src, src + arcs);
  coo.targets.assign(dst, dst + arcs);
  coo.weights.assign(weights, weights + arcs);
  graph::BuildOptions build;
  build.symmetrize = !directed;
  auto g = std::make_shared<PyGraph>();
  g->csr = graph::build_csr(std::move(coo), build);
  g->symmetric = !directed;
  g->description = "arrays";
  g->weight_rule = "given";
  return g;
}

template std::shared_ptr<PyGraph> from_arcs(graph::vertex_id, const std::uint32_t*, const std::uint32_t*,
                                            const std::uint32_t*, std::size_t, bool);
template std::shared_ptr<PyGraph> from_arcs(graph::vertex_id, const std::uint32_t*, const std::uint32_t*,
                                            const float*, std::size_t, bool);

}  // namespace pysssp
