// libtmap-mpi: makes `reorder = 1` real in MPI's topology constructors
// through the MPI profiling interface. Loaded with LD_PRELOAD (or linked
// before MPI), it defines MPI_Cart_create, MPI_Graph_create,
// MPI_Dist_graph_create_adjacent and MPI_Dist_graph_create; each gathers
// the communicator's graph on its rank 0, asks tmap which process should
// play each vertex on the machine named by TMAP_TOPOLOGY, renumbers the
// processes with MPI_Comm_split, and lets MPI build the topology on the
// renumbered communicator with reorder = 0. So rank k of the result is the
// graph's vertex k, and every neighbourhood query is MPI's own answer.
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

// The wrappers are the library's only exported symbols.
#define TMAP_MPI_EXPORT __attribute__((visibility("default")))

extern "C" {

TMAP_MPI_EXPORT int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                                    MPI_Comm* comm_cart) {
  const auto process_of_vertex = cart_order(comm_old, ndims, dims, periods, reorder);
  if (process_of_vertex.empty()) return PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart);
  return create_renumbered(comm_old, process_of_vertex, comm_cart, [&](MPI_Comm split, MPI_Comm* out) {
    return PMPI_Cart_create(split, ndims, dims, periods, 0, out);
  });
}

TMAP_MPI_EXPORT int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                                     MPI_Comm* comm_graph) {
  int size = 0;
  if (comm_old != MPI_COMM_NULL) PMPI_Comm_size(comm_old, &size);
  if (!wanted(comm_old, reorder) || nnodes < 1 || nnodes > size) {
    return PMPI_Graph_create(comm_old, nnodes, index, edges, reorder, comm_graph);
  }
  // Vertices [first, last) with their edges (MPI's index/edges arrays).
  const auto graph_part = [&](int first, int last) {
    Graph g;
    g.vertices = nnodes;
    for (int v = first; v < last; ++v) {
      for (int e = v == 0 ? 0 : index[v - 1]; e < index[v]; ++e) {
        if (edges[e] >= 0 && edges[e] < nnodes) add_edge(g, v, edges[e], 1);
      }
    }
    return g;
  };
  GraphSource source;
  source.vertices = nnodes;
  source.gather = on_rank_zero(comm_old, [&] { return graph_part(0, nnodes); });
  source.mine = [&] {
    const auto [first, last] = own_block(comm_old, nnodes);
    return graph_part(first, last).edges;
  };
  const auto process_of_vertex = tmap::mpi::decide(comm_old, "MPI_Graph_create", source);
  if (process_of_vertex.empty()) return PMPI_Graph_create(comm_old, nnodes, index, edges, reorder, comm_graph);
  return create_renumbered(comm_old, process_of_vertex, comm_graph, [&](MPI_Comm split, MPI_Comm* out) {
    return PMPI_Graph_create(split, nnodes, index, edges, 0, out);
  });
}

TMAP_MPI_EXPORT int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                                   const int sourceweights[], int outdegree, const int destinations[],
                                                   const int destweights[], MPI_Info info, int reorder,
                                                   MPI_Comm* comm_dist_graph) {
  if (!wanted(comm_old, reorder)) {
    return PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree, destinations,
                                           destweights, info, reorder, comm_dist_graph);
  }
  int rank = 0;
  int size = 0;
  PMPI_Comm_rank(comm_old, &rank);
  PMPI_Comm_size(comm_old, &size);
  // Every process's out-edges (its in-edges are another's out-edges).
  std::vector<int> mine;
  for (int k = 0; k < outdegree; ++k) mine.insert(mine.end(), {rank, destinations[k], weight_at(destweights, k)});
  const auto process_of_vertex =
      tmap::mpi::decide(comm_old, "MPI_Dist_graph_create_adjacent", edge_source(comm_old, mine));
  if (process_of_vertex.empty()) {
    return PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree, destinations,
                                           destweights, info, reorder, comm_dist_graph);
  }
  // Vertex k's neighbourhood goes from old rank k to the process that plays k.
  int my_vertex = -1;
  for (int k = 0; k < size; ++k) {
    if (process_of_vertex[static_cast<std::size_t>(k)] == rank) my_vertex = k;
  }
  const bool weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
  std::vector<int> out;  // indegree, outdegree, sources, sourceweights, destinations, destweights
  out.push_back(indegree);
  out.push_back(outdegree);
  for (int k = 0; k < indegree; ++k) out.push_back(sources[k]);
  for (int k = 0; k < indegree; ++k) out.push_back(weighted ? sourceweights[k] : 1);
  for (int k = 0; k < outdegree; ++k) out.push_back(destinations[k]);
  for (int k = 0; k < outdegree; ++k) out.push_back(weighted ? destweights[k] : 1);
  const int to = process_of_vertex[static_cast<std::size_t>(rank)];
  int out_size = static_cast<int>(out.size());
  int in_size = 0;
  PMPI_Sendrecv(&out_size, 1, MPI_INT, to, 0, &in_size, 1, MPI_INT, my_vertex, 0, comm_old, MPI_STATUS_IGNORE);
  std::vector<int> in(static_cast<std::size_t>(in_size));
  PMPI_Sendrecv(out.data(), out_size, MPI_INT, to, 1, in.data(), in_size, MPI_INT, my_vertex, 1, comm_old,
                MPI_STATUS_IGNORE);
  const int in_degree = in[0];
  const int out_degree = in[1];
  const int* p = in.data() + 2;
  // Sources, their weights, destinations, their weights, one after another.
  const std::ptrdiff_t ins = in_degree;
  const std::ptrdiff_t outs = out_degree;
  return create_renumbered(comm_old, process_of_vertex, comm_dist_graph, [&](MPI_Comm split, MPI_Comm* made) {
    return PMPI_Dist_graph_create_adjacent(split, in_degree, p, weighted ? p + ins : MPI_UNWEIGHTED, out_degree,
                                           p + 2 * ins, weighted ? p + 2 * ins + outs : MPI_UNWEIGHTED, info, 0, made);
  });
}

TMAP_MPI_EXPORT int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                          const int destinations[], const int weights[], MPI_Info info, int reorder,
                                          MPI_Comm* comm_dist_graph) {
  if (!wanted(comm_old, reorder)) {
    return PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info, reorder, comm_dist_graph);
  }
  int rank = 0;
  int size = 0;
  PMPI_Comm_rank(comm_old, &rank);
  PMPI_Comm_size(comm_old, &size);
  // Every process may give any edges: gather them all as (from, to, weight).
  std::vector<int> mine;
  for (int i = 0, at = 0; i < n; ++i) {
    for (int k = 0; k < degrees[i]; ++k, ++at) {
      mine.push_back(sources[i]);
      mine.push_back(destinations[at]);
      mine.push_back(weight_at(weights, at));
    }
  }
  const auto process_of_vertex = tmap::mpi::decide(comm_old, "MPI_Dist_graph_create", edge_source(comm_old, mine));
  if (process_of_vertex.empty()) {
    return PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info, reorder, comm_dist_graph);
  }
  // The edges name vertices, which are now the ranks of the renumbered communicator.
  return create_renumbered(comm_old, process_of_vertex, comm_dist_graph, [&](MPI_Comm split, MPI_Comm* out) {
    return PMPI_Dist_graph_create(split, n, sources, degrees, destinations, weights, info, 0, out);
  });
}

}  // extern "C"
