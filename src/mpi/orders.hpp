// The graphs MPI's topology constructors describe and tmap's order for
// them (process k of the result plays vertex k), shared by the preload
// library and Open MPI's topo component. Every function is collective over
// the communicator where it says so, and never throws into MPI code except
// through decide()'s documented failures (callers catch).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "mpi/decide.hpp"

namespace tmap::mpi {

/// Whether reordering is asked for and possible on this communicator: the
/// same answer on every process (reorder and TMAP_TOPOLOGY as rank 0 has
/// them). Collective.
bool wanted(MPI_Comm comm, int reorder);
/// An edge of weight > 0 between distinct vertices.
void add_edge(Graph& g, int from, int to, int weight);
/// The Cartesian grid as a graph (row-major, wrapped where periodic),
/// vertices [first, last) only.
Graph cartesian_graph(int ndims, const int dims[], const int periods[], int first, int last);
/// This process's block of `vertices`, blocks in process order.
std::pair<int, int> own_block(MPI_Comm comm, int vertices);
/// A graph built on rank 0 alone.
std::function<Graph()> on_rank_zero(MPI_Comm comm, std::function<Graph()> build);
/// An edge weight, 1 when unweighted.
int weight_at(const int weights[], int k);
/// The dist-graph constructors' graph from (from, to, weight) triples each
/// process gives (`mine` must outlive the source).
GraphSource edge_source(MPI_Comm comm, const std::vector<int>& mine);

/// MPI_Cart_create's order: which process plays each grid vertex, or empty
/// when MPI's own behaviour should follow (no TMAP_TOPOLOGY, reorder = 0, a
/// grid larger than the communicator, any tmap failure). Collective.
std::vector<int> cart_order(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder);
/// MPI_Graph_create's order (as cart_order).
std::vector<int> graph_order(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder);
/// MPI_Dist_graph_create's order: the edges name vertices, so each process
/// keeps the arguments it gave (as cart_order).
std::vector<int> dist_graph_order(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                  const int destinations[], const int weights[], int reorder);

/// A vertex's neighbourhood as MPI_Dist_graph_create_adjacent takes it:
/// data = weighted flag, indegree, outdegree, sources, source weights,
/// destinations, destination weights.
struct Neighbourhood {
  std::vector<int> data;
  [[nodiscard]] bool weighted() const { return data[0] != 0; }
  [[nodiscard]] int indegree() const { return data[1]; }
  [[nodiscard]] int outdegree() const { return data[2]; }
  [[nodiscard]] const int* sources() const { return data.data() + 3; }
  [[nodiscard]] const int* sourceweights() const { return weighted() ? sources() + indegree() : MPI_UNWEIGHTED; }
  [[nodiscard]] const int* destinations() const { return sources() + 2 * static_cast<std::ptrdiff_t>(indegree()); }
  [[nodiscard]] const int* destweights() const { return weighted() ? destinations() + outdegree() : MPI_UNWEIGHTED; }
};
/// MPI_Dist_graph_create_adjacent's order, and the neighbourhood this
/// process now declares: the process that plays vertex k declares vertex
/// k's (old rank k's) edges, so rank k of the result is vertex k.
struct AdjacentOrder {
  std::vector<int> process_of_vertex;  ///< empty: MPI's own behaviour
  Neighbourhood neighbourhood;
};
AdjacentOrder adjacent_order(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                             int outdegree, const int destinations[], const int destweights[], int reorder);

/// This process's rank in the renumbered communicator, MPI_UNDEFINED when
/// it plays no vertex.
int new_rank(MPI_Comm comm, const std::vector<int>& process_of_vertex);

}  // namespace tmap::mpi
