/* tmap's orders for MPI's topology constructors, callable from C (Open MPI's
 * topo component, src/ompi). Collective over `comm`. Returns 1 when tmap
 * reorders (then *key is this process's rank in the new communicator, or
 * MPI_UNDEFINED when it plays no vertex), 0 when MPI's own behaviour should
 * follow. Never throws, aborts or prints (TMAP_VERBOSE aside). */
#ifndef TMAP_MPI_ORDERS_H
#define TMAP_MPI_ORDERS_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

int tmap_orders_cart(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder, int* key);
int tmap_orders_graph(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder, int* key);
int tmap_orders_dist_graph(MPI_Comm comm, int n, const int sources[], const int degrees[], const int destinations[],
                           const int weights[], int reorder, int* key);
/* On 1, *neighbourhood (free it with tmap_orders_free) holds what this
 * process declares to MPI_Dist_graph_create_adjacent on the renumbered
 * communicator: weighted flag, indegree, outdegree, sources, source
 * weights, destinations, destination weights (weights only when weighted). */
int tmap_orders_dist_graph_adjacent(MPI_Comm comm, int indegree, const int sources[], const int sourceweights[],
                                    int outdegree, const int destinations[], const int destweights[], int reorder,
                                    int* key, int** neighbourhood);
void tmap_orders_free(int* neighbourhood);

#ifdef __cplusplus
}
#endif

#endif /* TMAP_MPI_ORDERS_H */
