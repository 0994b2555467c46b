// The graphs MPI's topology constructors describe and tmap's order for
// them (process k of the result plays vertex k), shared by the preload
// library and Open MPI's topo component. Every function is collective over
// the communicator where it says so, and never throws into MPI code except
// through decide()'s documented failures (callers catch).
#pragma once

#include <mpi.h>

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
/// This process's rank in the renumbered communicator, MPI_UNDEFINED when
/// it plays no vertex.
int new_rank(MPI_Comm comm, const std::vector<int>& process_of_vertex);

}  // namespace tmap::mpi
