// The four topology constructors with `reorder` made real (the bodies of
// libtmap-mpi's MPI_* wrappers): shared by the C wrappers and the Fortran
// entry points, which call them directly rather than through the PLT.
#pragma once

#include <mpi.h>

namespace tmap::mpi {

int reordering_cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                           MPI_Comm* comm_cart);
int reordering_graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                            MPI_Comm* comm_graph);
int reordering_dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                          const int sourceweights[], int outdegree, const int destinations[],
                                          const int destweights[], MPI_Info info, int reorder,
                                          MPI_Comm* comm_dist_graph);
int reordering_dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                 const int destinations[], const int weights[], MPI_Info info, int reorder,
                                 MPI_Comm* comm_dist_graph);

}  // namespace tmap::mpi
