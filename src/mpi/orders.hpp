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
#include "mpi/orders.h"
#include "mpi/settings.hpp"

namespace tmap::mpi {

/// Whether reordering is asked for and possible on this communicator, and
/// what a dist graph's edges mean: the same answer on every process (reorder
/// and the settings as rank 0 has them). Collective.
struct Wanted {
  bool yes = false;
  DistGraphEdges edges = DistGraphEdges::processes;
};
Wanted wanted(MPI_Comm comm, int reorder, const Settings& settings);
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
std::vector<int> cart_order(const Settings& settings, MPI_Comm comm_old, int ndims, const int dims[],
                            const int periods[], int reorder);
/// MPI_Graph_create's order (as cart_order).
std::vector<int> graph_order(const Settings& settings, MPI_Comm comm_old, int nnodes, const int index[],
                             const int edges[], int reorder);

/// What a process passes to MPI_Dist_graph_create on the renumbered
/// communicator: data = weighted flag, n, edge count, sources[n],
/// degrees[n], destinations, weights.
struct EdgeDeclaration {
  std::vector<int> data;
  [[nodiscard]] bool weighted() const { return data[0] != 0; }
  [[nodiscard]] int n() const { return data[1]; }
  [[nodiscard]] int edges() const { return data[2]; }
  [[nodiscard]] const int* sources() const { return data.data() + 3; }
  [[nodiscard]] const int* degrees() const { return sources() + n(); }
  [[nodiscard]] const int* destinations() const { return degrees() + n(); }
  [[nodiscard]] const int* weights() const {
    return tmap_orders_weights(data[0], TMAP_WEIGHTS_EMPTY, destinations() + edges());
  }
};
/// MPI_Dist_graph_create's order and what this process declares on the
/// renumbered communicator: its edges with every rank renumbered
/// (DistGraphEdges::processes), or its arguments unchanged (ranks: the
/// edges name vertices, which are now the new ranks).
struct DistGraphOrder {
  std::vector<int> process_of_vertex;  ///< empty: MPI's own behaviour
  EdgeDeclaration declared;
};
DistGraphOrder dist_graph_order(const Settings& settings, MPI_Comm comm_old, int n, const int sources[],
                                const int degrees[], const int destinations[], const int weights[], int reorder);

/// A vertex's neighbourhood as MPI_Dist_graph_create_adjacent takes it:
/// data = weighted flag, indegree, outdegree, sources, source weights,
/// destinations, destination weights.
struct Neighbourhood {
  std::vector<int> data;
  [[nodiscard]] bool weighted() const { return data[0] != 0; }
  [[nodiscard]] int indegree() const { return data[1]; }
  [[nodiscard]] int outdegree() const { return data[2]; }
  [[nodiscard]] const int* sources() const { return data.data() + 3; }
  [[nodiscard]] const int* sourceweights() const {
    return tmap_orders_weights(data[0], TMAP_WEIGHTS_EMPTY, sources() + indegree());
  }
  [[nodiscard]] const int* destinations() const { return sources() + 2 * static_cast<std::ptrdiff_t>(indegree()); }
  [[nodiscard]] const int* destweights() const {
    return tmap_orders_weights(data[0], TMAP_DEST_WEIGHTS_EMPTY, destinations() + outdegree());
  }
};
/// MPI_Dist_graph_create_adjacent's order, and the neighbourhood this
/// process now declares: its own, renumbered (DistGraphEdges::processes:
/// MPI_Dist_graph_neighbors names the same processes as before), or vertex
/// k's (old rank k's) for the process that plays k (ranks).
struct AdjacentOrder {
  std::vector<int> process_of_vertex;  ///< empty: MPI's own behaviour
  Neighbourhood neighbourhood;
};
AdjacentOrder adjacent_order(const Settings& settings, MPI_Comm comm_old, int indegree, const int sources[],
                             const int sourceweights[], int outdegree, const int destinations[],
                             const int destweights[], int reorder);

/// This process's rank in the renumbered communicator, MPI_UNDEFINED when
/// it plays no vertex.
int new_rank(MPI_Comm comm, const std::vector<int>& process_of_vertex);
/// Every old rank's new rank (process_of_vertex inverted; MPI_UNDEFINED for
/// a process that plays no vertex).
std::vector<int> new_ranks(const std::vector<int>& process_of_vertex, int size);

}  // namespace tmap::mpi
