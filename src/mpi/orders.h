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

#ifdef __cplusplus
}
#endif

#endif /* TMAP_MPI_ORDERS_H */
