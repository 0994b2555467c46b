// The four topology constructors as a Fortran binding calls them (every
// argument by reference, LOGICAL true when nonzero, handles as MPI_Fint,
// the weights sentinels as addresses of the MPI's Fortran constants),
// converted as the MPI's own binding does and handed to the reordering
// constructors. The per-MPI files (fortran_open_mpi.cpp, fortran_mpich.cpp)
// export them under the names each MPI's Fortran layer calls.
#pragma once

#include <mpi.h>

namespace tmap::mpi::fortran {

// Fortran INTEGER and LOGICAL (gfortran's defaults) are C ints in both MPIs.
static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint is an int on this ABI");
using Logical = int;

/// Where an MPI keeps Fortran's MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY: the
/// exported symbol names (up to four manglings), looked up when used.
struct WeightSentinels {
  const char* unweighted[4];
  const char* weights_empty[4];
};

void cart_create(MPI_Fint* comm_old, MPI_Fint* ndims, MPI_Fint* dims, Logical* periods, Logical* reorder,
                 MPI_Fint* comm_cart, MPI_Fint* ierr);
void graph_create(MPI_Fint* comm_old, MPI_Fint* nnodes, MPI_Fint* index, MPI_Fint* edges, Logical* reorder,
                  MPI_Fint* comm_graph, MPI_Fint* ierr);
void dist_graph_create_adjacent(const WeightSentinels& sentinels, MPI_Fint* comm_old, MPI_Fint* indegree,
                                MPI_Fint* sources, MPI_Fint* sourceweights, MPI_Fint* outdegree, MPI_Fint* destinations,
                                MPI_Fint* destweights, MPI_Fint* info, Logical* reorder, MPI_Fint* comm_dist_graph,
                                MPI_Fint* ierr);
void dist_graph_create(const WeightSentinels& sentinels, MPI_Fint* comm_old, MPI_Fint* n, MPI_Fint* sources,
                       MPI_Fint* degrees, MPI_Fint* destinations, MPI_Fint* weights, MPI_Fint* info, Logical* reorder,
                       MPI_Fint* comm_dist_graph, MPI_Fint* ierr);

}  // namespace tmap::mpi::fortran
