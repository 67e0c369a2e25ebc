// gpu_sssp._core: the bindings only. Python (python/gpu_sssp/) checks and
// converts user input; this layer moves arrays and maps C++ errors to
// Python exceptions (bad input: ValueError, with the file and line the
// reader names).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graph/error.hpp"
#include "graph/load.hpp"
#include "graph/weights.hpp"
#include "py_graph.hpp"
#include "py_solve.hpp"
#include "sssp/solver.hpp"

namespace nb = nanobind;
using pysssp::PyGraph;

namespace {

template <class T>
using In1d = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// A numpy array that owns `v` (moved, no copy).
template <class T>
nb::object to_numpy(std::vector<T>&& v, std::size_t rows, std::size_t cols, bool two_d) {
  auto* owned = new std::vector<T>(std::move(v));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  if (two_d) {
    std::size_t shape[2] = {rows, cols};
    return nb::cast(nb::ndarray<nb::numpy, T>(owned->data(), 2, shape, owner));
  }
  std::size_t shape[1] = {owned->size()};
  return nb::cast(nb::ndarray<nb::numpy, T>(owned->data(), 1, shape, owner));
}

template <class T>
std::vector<T> copy_of(const std::vector<T>& v) {
  return v;
}

template <class Weight>
std::shared_ptr<PyGraph> from_arcs(std::uint32_t n, In1d<std::uint32_t> src, In1d<std::uint32_t> dst, In1d<Weight> w,
                                   bool directed) {
  if (src.shape(0) != dst.shape(0) || src.shape(0) != w.shape(0))
    throw std::invalid_argument("sources, targets and weights differ in length");
  const std::uint32_t* s = src.data();
  const std::uint32_t* d = dst.data();
  const Weight* ww = w.data();
  const std::size_t m = src.shape(0);
  nb::gil_scoped_release release;
  return pysssp::from_arcs<Weight>(n, s, d, ww, m, directed);
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "gpu_sssp's C++ core: use the gpu_sssp package, not this module";

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const graph::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::out_of_range& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  nb::class_<PyGraph>(m, "Graph")
      .def_prop_ro("num_vertices", [](const PyGraph& g) { return graph::num_vertices(g.csr); })
      .def_prop_ro("num_arcs", [](const PyGraph& g) { return graph::num_arcs(g.csr); })
      .def_prop_ro("weight_type",
                   [](const PyGraph& g) { return graph::has_float_weights(g.csr) ? "float32" : "uint32"; })
      .def_prop_ro("symmetric", [](const PyGraph& g) { return g.symmetric; })
      .def_prop_ro("id_base", [](const PyGraph& g) { return g.id_base; })
      .def_prop_ro("description", [](const PyGraph& g) { return g.description; })
      .def_prop_ro("weight_rule", [](const PyGraph& g) { return g.weight_rule; })
      .def("csr", [](const PyGraph& g) {
        return std::visit(
            [](const auto& c) {
              const std::size_t n = c.num_vertices, a = c.num_arcs();
              return nb::make_tuple(to_numpy(copy_of(c.offsets), n + 1, 0, false),
                                    to_numpy(copy_of(c.targets), a, 0, false), to_numpy(copy_of(c.weights), a, 0, false));
            },
            g.csr);
      });

  m.def(
      "load",
      [](const std::string& path, const std::string& format, bool undirected, const std::string& weights,
         std::uint64_t seed, bool cache, const std::string& cache_path) {
        graph::LoadOptions o;
        o.format = graph::parse_format(format);
        o.undirected = undirected;
        o.weights = graph::WeightRule::parse(weights, seed);
        o.use_cache = cache;
        o.cache_path = cache_path;
        o.progress = false;
        nb::gil_scoped_release release;
        return pysssp::load_file(path, o);
      },
      nb::arg("path"), nb::arg("format"), nb::arg("undirected"), nb::arg("weights"), nb::arg("seed"),
      nb::arg("cache"), nb::arg("cache_path"));
  m.def("from_arcs_uint32", &from_arcs<std::uint32_t>);
  m.def("from_arcs_float32", &from_arcs<float>);

  m.def(
      "solve",
      [](PyGraph& g, In1d<std::uint32_t> sources, const std::string& strategy, double delta, bool predecessors,
         const std::string& device, const std::string& contract) {
        pysssp::SolveRequest r;
        r.sources.assign(sources.data(), sources.data() + sources.shape(0));
        r.strategy = strategy;
        r.delta = delta;
        r.predecessors = predecessors;
        r.device = device;
        r.contract = contract;
        pysssp::SolveOutput out;
        {
          nb::gil_scoped_release release;
          out = pysssp::solve(g, r);
        }
        nb::dict d;
        const std::size_t rows = out.rows, n = out.vertices;
        if (!out.int_distances.empty() || (out.float_distances.empty() && !graph::has_float_weights(g.csr)))
          d["distances"] = to_numpy(std::move(out.int_distances), rows, n, true);
        else
          d["distances"] = to_numpy(std::move(out.float_distances), rows, n, true);
        if (predecessors) d["predecessors"] = to_numpy(std::move(out.predecessors), rows, n, true);
        nb::list per_source;
        for (const auto& s : out.per_source) {
          nb::dict e;
          e["solve_ms"] = s.solve_ms;
          e["relaxations"] = s.relaxations;
          e["iterations"] = s.iterations;
          per_source.append(e);
        }
        d["per_source"] = per_source;
        d["strategy"] = out.strategy;
        d["strategy_reason"] = out.strategy_reason;
        d["device"] = out.device;
        d["device_description"] = out.device_description;
        d["fallback_reason"] = out.fallback_reason;
        d["delta"] = out.delta;
        d["delta_rule"] = out.delta_rule;
        d["contracted"] = out.contracted;
        d["contraction_reason"] = out.contraction_reason;
        d["batched"] = out.batched;
        d["batch_ms"] = out.batch_ms;
        d["setup_ms"] = out.setup_ms;
        d["total_ms"] = out.total_ms;
        return d;
      },
      nb::arg("graph"), nb::arg("sources"), nb::arg("strategy"), nb::arg("delta"), nb::arg("predecessors"),
      nb::arg("device"), nb::arg("contract"));

  m.def("gpu_available", []() {
    std::string why;
    const bool ok = pysssp::gpu_usable(&why);
    return nb::make_tuple(ok, why);
  });
  m.def("gpu_description", []() { return sssp::gpu_description(0); });
}
