// gpu_sssp._core: the bindings only. Python (python/gpu_sssp/) checks and
// converts user input; this layer moves arrays and maps C++ errors to
// Python exceptions (bad input: ValueError, with the file and line the
// reader names).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <limits>
#include <type_traits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graph/error.hpp"
#include "graph/load.hpp"
#include "graph/weights.hpp"
#include "multisplit/multisplit_ops.hpp"
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

// A one-dimensional, contiguous CUDA array of `want` (or of `also`, the
// same bits read another way: int64 offsets as uint64, int32 ids as
// uint32), from DLPack; std::invalid_argument naming it otherwise. Python
// (_graph.py, multisplit.py) checks first with friendlier messages; this is
// the backstop that keeps a wrong pointer from reaching a kernel.
struct DeviceArray {
  void* data = nullptr;
  std::size_t size = 0;
  int device = 0;
};

DeviceArray device_1d(const nb::ndarray<>& a, const char* name, nb::dlpack::dtype want, nb::dlpack::dtype also) {
  if (a.device_type() != nb::device::cuda::value)
    throw std::invalid_argument(std::string(name) + " must be a CUDA device array (CuPy or PyTorch), not host memory");
  if (a.ndim() != 1) throw std::invalid_argument(std::string(name) + " must be one-dimensional");
  if (a.shape(0) > 1 && a.stride(0) != 1) throw std::invalid_argument(std::string(name) + " must be contiguous");
  if (!(a.dtype() == want) && !(a.dtype() == also)) throw std::invalid_argument(std::string(name) + ": wrong dtype");
  return {a.data(), a.shape(0), a.device_id()};
}

template <class Weight>
std::shared_ptr<PyGraph> from_device(const nb::ndarray<>& offsets, const nb::ndarray<>& targets,
                                     const nb::ndarray<>& weights) {
  const DeviceArray o = device_1d(offsets, "offsets", nb::dtype<std::uint64_t>(), nb::dtype<std::int64_t>());
  const DeviceArray t = device_1d(targets, "targets", nb::dtype<std::uint32_t>(), nb::dtype<std::int32_t>());
  const DeviceArray w = std::is_same_v<Weight, float>
                            ? device_1d(weights, "weights", nb::dtype<float>(), nb::dtype<float>())
                            : device_1d(weights, "weights", nb::dtype<std::uint32_t>(), nb::dtype<std::int32_t>());
  if (o.size == 0) throw std::invalid_argument("offsets must have num_vertices + 1 entries (at least one)");
  if (t.size != w.size) throw std::invalid_argument("targets and weights differ in length");
  if (o.device != t.device || o.device != w.device)
    throw std::invalid_argument("offsets, targets and weights are on different CUDA devices");
  if (o.size - 1 > std::numeric_limits<std::uint32_t>::max() - 1)
    throw std::invalid_argument("too many vertices for 32-bit ids");
  sssp::DeviceCsrView<Weight> view;
  view.offsets = static_cast<const std::uint64_t*>(o.data);
  view.targets = static_cast<const std::uint32_t*>(t.data);
  view.weights = static_cast<const Weight*>(w.data);
  view.num_vertices = static_cast<std::uint32_t>(o.size - 1);
  view.num_arcs = t.size;
  nb::gil_scoped_release release;
  return pysssp::from_device_csr<Weight>(view, o.device);
}

pysssp::ms::KeyType key_type(const nb::ndarray<>& a) {
  if (a.dtype() == nb::dtype<std::uint32_t>()) return pysssp::ms::KeyType::U32;
  if (a.dtype() == nb::dtype<std::int32_t>()) return pysssp::ms::KeyType::I32;
  if (a.dtype() == nb::dtype<float>()) return pysssp::ms::KeyType::F32;
  throw std::invalid_argument("keys must be uint32, int32 or float32");
}

pysssp::ms::BucketRule bucket_rule(const std::string& rule, double lower, double width, std::uintptr_t splitters,
                                   std::uint32_t num_splitters, std::uint32_t shift, std::uint32_t num_bits) {
  pysssp::ms::BucketRule r;
  if (rule == "identity") r.rule = pysssp::ms::Rule::Identity;
  else if (rule == "delta") r.rule = pysssp::ms::Rule::Delta;
  else if (rule == "range") r.rule = pysssp::ms::Rule::Range;
  else if (rule == "bits") r.rule = pysssp::ms::Rule::Bits;
  else throw std::invalid_argument("bucket must be 'identity', 'delta', 'range' or 'bits', not '" + rule + "'");
  r.lower = lower;
  r.width = width;
  r.splitters = reinterpret_cast<const void*>(splitters);
  r.num_splitters = num_splitters;
  r.shift = shift;
  r.num_bits = num_bits;
  return r;
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
      .def_prop_ro("num_vertices", [](const PyGraph& g) { return g.vertices(); })
      .def_prop_ro("num_arcs", [](const PyGraph& g) { return g.arcs(); })
      .def_prop_ro("on_device", [](const PyGraph& g) { return g.on_device; })
      .def_prop_ro("device", [](const PyGraph& g) { return g.device; })
      .def_prop_ro("weight_type",
                   [](const PyGraph& g) { return graph::has_float_weights(g.csr) ? "float32" : "uint32"; })
      .def_prop_ro("symmetric", [](const PyGraph& g) { return g.symmetric; })
      .def_prop_ro("id_base", [](const PyGraph& g) { return g.id_base; })
      .def_prop_ro("description", [](const PyGraph& g) { return g.description; })
      .def_prop_ro("weight_rule", [](const PyGraph& g) { return g.weight_rule; })
      .def("csr", [](const PyGraph& g) {
        if (g.on_device)
          throw std::invalid_argument("a graph from device arrays (from_device_csr) keeps no host copy to return");
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

  m.def("from_device_csr_uint32", &from_device<std::uint32_t>, nb::arg("offsets"), nb::arg("targets"),
        nb::arg("weights"));
  m.def("from_device_csr_float32", &from_device<float>, nb::arg("offsets"), nb::arg("targets"), nb::arg("weights"));

  m.def(
      "compare",
      [](PyGraph& g, std::uint32_t source, const std::vector<std::string>& strategies, int runs, double delta,
         const std::string& contract) {
        pysssp::CompareRequest c;
        c.source = source;
        c.strategies = strategies;
        c.runs = runs;
        c.delta = delta;
        c.contract = contract;
        std::vector<pysssp::StrategyRun> out;
        {
          nb::gil_scoped_release release;
          out = pysssp::compare(g, c);
        }
        nb::list rows;
        for (const auto& r : out) {
          nb::dict d;
          d["strategy"] = r.strategy;
          d["device"] = r.device;
          d["strategy_reason"] = r.strategy_reason;
          d["solve_ms"] = r.solve_ms;
          d["median_ms"] = r.median_ms;
          d["min_ms"] = r.min_ms;
          d["max_ms"] = r.max_ms;
          d["mteps"] = r.mteps;
          d["rounds"] = r.rounds;
          d["relaxations"] = r.relaxations;
          d["reached_vertices"] = r.reached_vertices;
          d["reached_arcs"] = r.reached_arcs;
          d["delta"] = r.delta;
          d["delta_rule"] = r.delta_rule;
          d["contracted"] = r.contracted;
          d["mismatches"] = r.mismatches;
          d["validation"] = r.validation;
          rows.append(d);
        }
        return rows;
      },
      nb::arg("graph"), nb::arg("source"), nb::arg("strategies"), nb::arg("runs"), nb::arg("delta"),
      nb::arg("contract"));

  // gpu_sssp.multisplit: arrays allocated by the caller's framework, work
  // ordered on its stream (an integer cudaStream_t).
  m.def(
      "multisplit_temp_bytes",
      [](const std::string& op, const nb::ndarray<>& keys, bool with_values, std::uint32_t num_buckets,
         const std::string& rule, double lower, double width, std::uintptr_t splitters, std::uint32_t num_splitters,
         std::uint32_t shift, std::uint32_t num_bits) {
        const auto k = key_type(keys);
        const auto r = bucket_rule(rule, lower, width, splitters, num_splitters, shift, num_bits);
        const auto n = static_cast<std::uint32_t>(keys.shape(0));
        return op == "histogram" ? pysssp::ms::histogram_temp_bytes(k, n, num_buckets, r, keys.device_id())
                                 : pysssp::ms::split_temp_bytes(k, with_values, n, num_buckets, r, keys.device_id());
      });
  m.def("multisplit_split", [](const nb::ndarray<>& keys, const nb::ndarray<>& keys_out, std::uintptr_t values_in,
                               std::uintptr_t values_out, std::uint32_t num_buckets, const std::string& rule,
                               double lower, double width, std::uintptr_t splitters, std::uint32_t num_splitters,
                               std::uint32_t shift, std::uint32_t num_bits, const nb::ndarray<>& offsets,
                               const nb::ndarray<>& temp, std::uintptr_t stream) {
    const auto any = nb::dtype<std::uint8_t>();
    const DeviceArray kin = device_1d(keys, "keys", keys.dtype(), keys.dtype());
    const DeviceArray kout = device_1d(keys_out, "keys_out", keys.dtype(), keys.dtype());
    const DeviceArray off = device_1d(offsets, "offsets", nb::dtype<std::uint32_t>(), nb::dtype<std::int32_t>());
    const DeviceArray tmp = device_1d(temp, "temp", any, nb::dtype<std::int8_t>());
    if (kout.size != kin.size || off.size != std::size_t{num_buckets} + 1)
      throw std::invalid_argument("multisplit: output sizes do not match");
    const auto r = bucket_rule(rule, lower, width, splitters, num_splitters, shift, num_bits);
    pysssp::ms::split(key_type(keys), kin.data, kout.data, reinterpret_cast<const std::uint32_t*>(values_in),
                      reinterpret_cast<std::uint32_t*>(values_out), static_cast<std::uint32_t>(kin.size), num_buckets,
                      r, static_cast<std::uint32_t*>(off.data), tmp.data, tmp.size, stream, kin.device);
  });
  m.def("multisplit_histogram", [](const nb::ndarray<>& keys, std::uint32_t num_buckets, const std::string& rule,
                                   double lower, double width, std::uintptr_t splitters, std::uint32_t num_splitters,
                                   std::uint32_t shift, std::uint32_t num_bits, const nb::ndarray<>& counts,
                                   const nb::ndarray<>& temp, std::uintptr_t stream) {
    const DeviceArray kin = device_1d(keys, "keys", keys.dtype(), keys.dtype());
    const DeviceArray cnt = device_1d(counts, "counts", nb::dtype<std::uint32_t>(), nb::dtype<std::int32_t>());
    const DeviceArray tmp = device_1d(temp, "temp", nb::dtype<std::uint8_t>(), nb::dtype<std::int8_t>());
    if (cnt.size != num_buckets) throw std::invalid_argument("multisplit: counts must have num_buckets entries");
    const auto r = bucket_rule(rule, lower, width, splitters, num_splitters, shift, num_bits);
    pysssp::ms::histogram(key_type(keys), kin.data, static_cast<std::uint32_t>(kin.size), num_buckets, r,
                          static_cast<std::uint32_t*>(cnt.data), tmp.data, tmp.size, stream, kin.device);
  });
  m.def("multisplit_iota", [](const nb::ndarray<>& out, std::uintptr_t stream) {
    const DeviceArray o = device_1d(out, "positions", nb::dtype<std::uint32_t>(), nb::dtype<std::int32_t>());
    pysssp::ms::fill_iota(static_cast<std::uint32_t*>(o.data), static_cast<std::uint32_t>(o.size), stream, o.device);
  });
  m.def("multisplit_gather", [](const nb::ndarray<>& in, const nb::ndarray<>& out, const nb::ndarray<>& positions,
                                std::uintptr_t stream) {
    const DeviceArray i = device_1d(in, "values", in.dtype(), in.dtype());
    const DeviceArray o = device_1d(out, "values_out", in.dtype(), in.dtype());
    const DeviceArray p = device_1d(positions, "positions", nb::dtype<std::uint32_t>(), nb::dtype<std::int32_t>());
    if (i.size != o.size || i.size != p.size) throw std::invalid_argument("multisplit: gather sizes differ");
    pysssp::ms::gather(i.data, o.data, in.dtype().bits / 8, static_cast<const std::uint32_t*>(p.data),
                       static_cast<std::uint32_t>(i.size), stream, i.device);
  });

  m.def("gpu_available", []() {
    std::string why;
    const bool ok = pysssp::gpu_usable(&why);
    return nb::make_tuple(ok, why);
  });
  m.def("gpu_description", []() { return sssp::gpu_description(0); });
}
