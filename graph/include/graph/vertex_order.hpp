// Vertex orders that improve locality, and relabelling a CSR by one.
//
// A shortest-path solver on a high-diameter graph (roads, grids, meshes)
// works on a wave of vertices that are close in the graph; numbered in file
// order they can be far apart in memory, so each round touches one cache
// line per vertex and per arc. Reverse Cuthill-McKee (Cuthill & McKee, 1969;
// George & Liu, "Computer Solution of Large Sparse Positive Definite
// Systems", 1981) numbers vertices breadth first from a pseudo-peripheral
// vertex, so a BFS level, and with it a wave, occupies a contiguous range of
// ids and neighbours get nearby ids (small bandwidth).
//
// Orders are computed on the undirected view of the graph (out-arcs and
// in-arcs), so one-way streets do not cut a road network into pieces, and
// every weakly connected component is numbered in turn.
#pragma once

#include <vector>

#include "graph/csr.hpp"
#include "graph/types.hpp"

namespace graph {

// A permutation of a graph's vertices, kept both ways.
struct VertexOrder {
  std::vector<vertex_id> new_id;  // new_id[old vertex] = its id in the relabelled graph
  std::vector<vertex_id> old_id;  // old_id[new vertex] = its id in the input graph

  bool empty() const { return new_id.empty(); }
};

// The identity order of n vertices.
VertexOrder identity_order(vertex_id n);

// Reverse Cuthill-McKee: each weakly connected component (in the order a
// scan by increasing id meets them) is numbered breadth first from a
// pseudo-peripheral vertex (George-Liu: BFS again from a smallest-degree
// vertex of the last level while the eccentricity grows), each vertex's
// unnumbered neighbours in increasing degree; then the whole numbering is
// reversed. Degrees are undirected degrees.
template <class Weight>
VertexOrder reverse_cuthill_mckee(const Csr<Weight>& g);

// Vertices by decreasing out-degree, ties by id (hubs first: the vertices
// most rounds touch share cache lines). A counting sort, linear time.
template <class Weight>
VertexOrder degree_order(const Csr<Weight>& g);

// The graph with vertex v renamed order.new_id[v]: arcs keep their weights,
// each vertex's arcs sorted by new target id (Csr's invariant).
template <class Weight>
Csr<Weight> relabel(const Csr<Weight>& g, const VertexOrder& order);

// The largest |new_id[u] - new_id[v]| over arcs (u, v): the bandwidth of the
// graph's adjacency matrix under the order (small = neighbours are close).
template <class Weight>
vertex_id order_bandwidth(const Csr<Weight>& g, const VertexOrder& order);

}  // namespace graph
