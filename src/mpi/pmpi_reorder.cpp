// libtmap-mpi: makes `reorder = 1` real in MPI's topology constructors
// through the MPI profiling interface. Loaded with LD_PRELOAD (or linked
// before MPI), it defines MPI_Cart_create, MPI_Graph_create,
// MPI_Dist_graph_create_adjacent and MPI_Dist_graph_create; each gathers
// the communicator's graph on its rank 0, asks tmap which process should
// play each vertex on the machine named by TMAP_TOPOLOGY, renumbers the
// processes with MPI_Comm_split, and lets MPI build the topology on the
// renumbered communicator with reorder = 0. So rank k of a Cartesian or
// graph result is the graph's vertex k; a dist graph's processes keep the
// edges they declared, renumbered (TMAP_DIST_GRAPH=ranks: rank k takes
// vertex k's); every neighbourhood query is MPI's own answer.
//
// Without TMAP_TOPOLOGY, with reorder = 0, on MPI_COMM_NULL or
// intercommunicators, or on any tmap error, it calls the MPI routine
// unchanged: it never aborts, exits or prints (TMAP_VERBOSE=1 prints one
// line on rank 0 per reordering, TMAP_VERBOSE=2 also why it did not).
#include <mpi.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "mpi/decide.hpp"
#include "mpi/orders.hpp"
#include "mpi/reordering_constructors.hpp"
#include "mpi/settings.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace {

using namespace tmap::mpi;

/// The renumbered communicator: the process playing vertex k gets rank k;
/// processes that play no vertex get MPI_COMM_NULL.
int renumbered(MPI_Comm comm, const std::vector<int>& process_of_vertex, MPI_Comm* out) {
  const int key = new_rank(comm, process_of_vertex);
  return PMPI_Comm_split(comm, key != MPI_UNDEFINED ? 0 : MPI_UNDEFINED, key, out);
}

/// Builds the topology on the renumbered communicator: `create(split, out)`
/// is the MPI routine with reorder = 0. Processes that play no vertex get
/// MPI_COMM_NULL, as MPI gives them.
template <typename Create>
int create_renumbered(MPI_Comm comm_old, const std::vector<int>& process_of_vertex, MPI_Comm* out, Create&& create) {
  MPI_Comm split = MPI_COMM_NULL;
  if (const int rc = renumbered(comm_old, process_of_vertex, &split); rc != MPI_SUCCESS) return rc;
  if (split == MPI_COMM_NULL) {
    *out = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  const int rc = create(split, out);
  PMPI_Comm_free(&split);
  return rc;
}

}  // namespace

namespace tmap::mpi {

int reordering_cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                           MPI_Comm* comm_cart) {
  const auto process_of_vertex = cart_order(settings_from(nullptr), comm_old, ndims, dims, periods, reorder);
  if (process_of_vertex.empty()) return PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart);
  return create_renumbered(comm_old, process_of_vertex, comm_cart, [&](MPI_Comm split, MPI_Comm* out) {
    return PMPI_Cart_create(split, ndims, dims, periods, 0, out);
  });
}

int reordering_graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                            MPI_Comm* comm_graph) {
  const auto process_of_vertex = graph_order(settings_from(nullptr), comm_old, nnodes, index, edges, reorder);
  if (process_of_vertex.empty()) return PMPI_Graph_create(comm_old, nnodes, index, edges, reorder, comm_graph);
  return create_renumbered(comm_old, process_of_vertex, comm_graph, [&](MPI_Comm split, MPI_Comm* out) {
    return PMPI_Graph_create(split, nnodes, index, edges, 0, out);
  });
}

int reordering_dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                          const int sourceweights[], int outdegree, const int destinations[],
                                          const int destweights[], MPI_Info info, int reorder,
                                          MPI_Comm* comm_dist_graph) {
  const auto order = adjacent_order(settings_from(nullptr), comm_old, indegree, sources, sourceweights, outdegree,
                                    destinations, destweights, reorder);
  if (order.process_of_vertex.empty()) {
    return PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree, destinations,
                                           destweights, info, reorder, comm_dist_graph);
  }
  const auto& n = order.neighbourhood;
  return create_renumbered(comm_old, order.process_of_vertex, comm_dist_graph, [&](MPI_Comm split, MPI_Comm* made) {
    return PMPI_Dist_graph_create_adjacent(split, n.indegree(), n.sources(), n.sourceweights(), n.outdegree(),
                                           n.destinations(), n.destweights(), info, 0, made);
  });
}

int reordering_dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                 const int destinations[], const int weights[], MPI_Info info, int reorder,
                                 MPI_Comm* comm_dist_graph) {
  const auto order =
      dist_graph_order(settings_from(nullptr), comm_old, n, sources, degrees, destinations, weights, reorder);
  if (order.process_of_vertex.empty()) {
    return PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info, reorder, comm_dist_graph);
  }
  const auto& d = order.declared;
  return create_renumbered(comm_old, order.process_of_vertex, comm_dist_graph, [&](MPI_Comm split, MPI_Comm* out) {
    return PMPI_Dist_graph_create(split, d.n(), d.sources(), d.degrees(), d.destinations(), d.weights(), info, 0, out);
  });
}

}  // namespace tmap::mpi

// The wrappers (and the Fortran entry points, fortran_open_mpi.cpp) are the
// library's only exported symbols.
#define TMAP_MPI_EXPORT __attribute__((visibility("default")))

extern "C" {

TMAP_MPI_EXPORT int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                                    MPI_Comm* comm_cart) {
  return tmap::mpi::reordering_cart_create(comm_old, ndims, dims, periods, reorder, comm_cart);
}

TMAP_MPI_EXPORT int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                                     MPI_Comm* comm_graph) {
  return tmap::mpi::reordering_graph_create(comm_old, nnodes, index, edges, reorder, comm_graph);
}

TMAP_MPI_EXPORT int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                                   const int sourceweights[], int outdegree, const int destinations[],
                                                   const int destweights[], MPI_Info info, int reorder,
                                                   MPI_Comm* comm_dist_graph) {
  return tmap::mpi::reordering_dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree,
                                                          destinations, destweights, info, reorder, comm_dist_graph);
}

TMAP_MPI_EXPORT int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                          const int destinations[], const int weights[], MPI_Info info, int reorder,
                                          MPI_Comm* comm_dist_graph) {
  return tmap::mpi::reordering_dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info, reorder,
                                                 comm_dist_graph);
}

}  // extern "C"
