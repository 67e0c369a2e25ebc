// GpuSolver<Weight>: its Impl (the device's graph and the batch solver
// over it) and the member functions, which forward to single_solve.cuh and
// batch_solve.cuh. Included by one .cu file per weight type, which
// instantiates it.
#pragma once

#include <cuda_runtime.h>

#include <limits>
#include <memory>
#include <vector>

#include "sssp/batch_solve.cuh"
#include "sssp/device_graph.cuh"
#include "sssp/graph_checks.cuh"
#include "sssp/single_solve.cuh"
#include "sssp/solver.hpp"

namespace sssp {

template <class Weight>
struct GpuSolver<Weight>::Impl {
  template <class Graph>
  Impl(const Graph& g, const SolverOptions& options) : graph(g, options), batch(graph) {}
  detail::DeviceGraph<Weight> graph;
  detail::BatchSolver<Weight> batch;  // holds a reference to graph (declared first)
};

template <class Weight>
GpuSolver<Weight>::GpuSolver(const graph::Csr<Weight>& graph, const SolverOptions& options)
    : impl_(std::make_unique<Impl>(graph, options)) {}
template <class Weight>
GpuSolver<Weight>::GpuSolver(const DeviceCsrView<Weight>& graph, const SolverOptions& options)
    : impl_(std::make_unique<Impl>(graph, options)) {}

template <class Weight>
GpuSolver<Weight>::~GpuSolver() = default;

template <class Weight>
double GpuSolver<Weight>::upload_ms() const {
  return impl_->graph.upload_ms;
}

template <class Weight>
VertexOrdering GpuSolver<Weight>::vertex_ordering() const {
  return impl_->graph.ordering;
}

template <class Weight>
double GpuSolver<Weight>::reorder_ms() const {
  return impl_->graph.reorder_ms;
}

template <class Weight>
std::uint64_t GpuSolver<Weight>::device_bytes() const {
  return impl_->graph.device_bytes;
}

template <class Weight>
std::uint64_t GpuSolver<Weight>::graph_device_bytes() const {
  return impl_->graph.graph_device_bytes;
}
template <class Weight>
DeviceCsrView<Weight> GpuSolver<Weight>::device_graph() const {
  DeviceCsrView<Weight> g;
  g.offsets = impl_->graph.offsets.template as<std::uint64_t>();
  g.targets = impl_->graph.targets.template as<std::uint32_t>();
  g.weights = impl_->graph.weights.template as<Weight>();
  g.num_vertices = impl_->graph.n;
  g.num_arcs = impl_->graph.m;
  return g;
}


template <class Weight>
LoadBalance GpuSolver<Weight>::load_balance() const {
  return impl_->graph.plan.load_balance;
}

template <class Weight>
double GpuSolver<Weight>::heavy_arc_share() const {
  return impl_->graph.plan.heavy_arc_share;
}

template <class Weight>
const ExecutionPlan& GpuSolver<Weight>::plan() const {
  return impl_->graph.plan;
}

template <class Weight>
void GpuSolver<Weight>::rewrite_arcs(graph::edge_offset first, const std::vector<graph::vertex_id>& targets,
                                     const std::vector<Weight>& weights) {
  impl_->graph.rewrite_arcs(first, targets, weights);
}

template <class Weight>
SolveResult<Weight> GpuSolver<Weight>::solve(graph::vertex_id source, Strategy strategy) {
  return detail::solve(impl_->graph, source, strategy, impl_->graph.options.delta);
}

template <class Weight>
SolveResult<Weight> GpuSolver<Weight>::solve(graph::vertex_id source, Strategy strategy, double delta) {
  return detail::solve(impl_->graph, source, strategy, delta);
}

template <class Weight>
SolveResult<Weight> GpuSolver<Weight>::solve_and_read_off(graph::vertex_id source, Strategy strategy, double delta,
                                                          const DeviceReadOff& read_off) {
  return detail::solve(impl_->graph, source, strategy, delta, &read_off);
}

template <class Weight>
BatchSolveResult<Weight> GpuSolver<Weight>::solve_batch(const std::vector<graph::vertex_id>& sources,
                                                        Strategy strategy, double delta) {
  return impl_->batch.solve(sources, strategy, delta);
}

template <class Weight>
std::uint32_t GpuSolver<Weight>::batch_capacity() {
  SSSP_CUDA_CHECK(cudaSetDevice(impl_->graph.options.device));
  return static_cast<std::uint32_t>(impl_->batch.chunk(std::numeric_limits<std::uint32_t>::max()));
}

template <class Weight>
BatchSolveResult<Weight> GpuSolver<Weight>::solve_batch_and_read_off(const std::vector<graph::vertex_id>& rows,
                                                                     Strategy strategy, double delta,
                                                                     const BatchReadOff& read_off) {
  return impl_->batch.solve(rows, strategy, delta, &read_off);
}

}  // namespace sssp
