#include "mpi/fortran_calls.hpp"

#include <dlfcn.h>

#include <cstddef>
#include <vector>

#include "mpi/reordering_constructors.hpp"

namespace tmap::mpi::fortran {
namespace {

/// True when `address` is the constant exported under one of `names` (the
/// dynamic linker resolves each name to one definition: the one Fortran
/// code passes).
bool is_constant(const MPI_Fint* address, const char* const (&names)[4]) {
  if (address == nullptr) return false;
  for (const char* name : names) {
    if (name != nullptr && dlsym(RTLD_DEFAULT, name) == static_cast<const void*>(address)) return true;
  }
  return false;
}

/// A Fortran weights argument as C sees it.
const int* c_weights(const WeightSentinels& sentinels, const MPI_Fint* weights) {
  if (is_constant(weights, sentinels.unweighted)) return MPI_UNWEIGHTED;
  if (is_constant(weights, sentinels.weights_empty)) return MPI_WEIGHTS_EMPTY;
  return weights;
}

int c_logical(const Logical* value) {
  return *value != 0 ? 1 : 0;
}

/// The Fortran results: the error code when the caller asked for it (an
/// absent OPTIONAL ierror is a null pointer), the handle on success.
void finish(int rc, MPI_Comm made, MPI_Fint* comm_out, MPI_Fint* ierr) {
  if (ierr != nullptr) *ierr = rc;
  if (rc == MPI_SUCCESS) *comm_out = PMPI_Comm_c2f(made);
}

}  // namespace

void cart_create(MPI_Fint* comm_old, MPI_Fint* ndims, MPI_Fint* dims, Logical* periods, Logical* reorder,
                 MPI_Fint* comm_cart, MPI_Fint* ierr) {
  std::vector<int> c_periods(static_cast<std::size_t>(*ndims > 0 ? *ndims : 0));
  for (std::size_t d = 0; d < c_periods.size(); ++d) c_periods[d] = c_logical(&periods[d]);
  MPI_Comm made = MPI_COMM_NULL;
  const int rc =
      reordering_cart_create(PMPI_Comm_f2c(*comm_old), *ndims, dims, c_periods.data(), c_logical(reorder), &made);
  finish(rc, made, comm_cart, ierr);
}

void graph_create(MPI_Fint* comm_old, MPI_Fint* nnodes, MPI_Fint* index, MPI_Fint* edges, Logical* reorder,
                  MPI_Fint* comm_graph, MPI_Fint* ierr) {
  MPI_Comm made = MPI_COMM_NULL;
  const int rc = reordering_graph_create(PMPI_Comm_f2c(*comm_old), *nnodes, index, edges, c_logical(reorder), &made);
  finish(rc, made, comm_graph, ierr);
}

void dist_graph_create_adjacent(const WeightSentinels& sentinels, MPI_Fint* comm_old, MPI_Fint* indegree,
                                MPI_Fint* sources, MPI_Fint* sourceweights, MPI_Fint* outdegree, MPI_Fint* destinations,
                                MPI_Fint* destweights, MPI_Fint* info, Logical* reorder, MPI_Fint* comm_dist_graph,
                                MPI_Fint* ierr) {
  MPI_Comm made = MPI_COMM_NULL;
  const int rc = reordering_dist_graph_create_adjacent(
      PMPI_Comm_f2c(*comm_old), *indegree, sources, c_weights(sentinels, sourceweights), *outdegree, destinations,
      c_weights(sentinels, destweights), PMPI_Info_f2c(*info), c_logical(reorder), &made);
  finish(rc, made, comm_dist_graph, ierr);
}

void dist_graph_create(const WeightSentinels& sentinels, MPI_Fint* comm_old, MPI_Fint* n, MPI_Fint* sources,
                       MPI_Fint* degrees, MPI_Fint* destinations, MPI_Fint* weights, MPI_Fint* info, Logical* reorder,
                       MPI_Fint* comm_dist_graph, MPI_Fint* ierr) {
  MPI_Comm made = MPI_COMM_NULL;
  const int rc =
      reordering_dist_graph_create(PMPI_Comm_f2c(*comm_old), *n, sources, degrees, destinations,
                                   c_weights(sentinels, weights), PMPI_Info_f2c(*info), c_logical(reorder), &made);
  finish(rc, made, comm_dist_graph, ierr);
}

}  // namespace tmap::mpi::fortran
