// libtmap-mpi-mpich's Fortran entry points. MPICH's mpif.h and `use mpi`
// bindings call MPI_Cart_create & co., which the C wrappers catch; its
// `use mpi_f08` procedures (MPI_Cart_create_f08, exported as
// mpi_cart_create_f08_) call PMPI_* directly, so the preload library
// defines those. Their arguments are those of mpif.h under gfortran: every
// argument by reference, TYPE(MPI_Comm) and TYPE(MPI_Info) one INTEGER, an
// absent OPTIONAL ierror a null pointer (fortran_calls.hpp).
#include <mpi.h>

#include "mpi/fortran_calls.hpp"

using tmap::mpi::fortran::Logical;

namespace {

// MPICH's mpi_f08 MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY: module variables of
// mpi_f08_link_constants, exported by libmpichfort.
constexpr tmap::mpi::fortran::WeightSentinels kMpichF08 = {
    {"__mpi_f08_link_constants_MOD_mpi_unweighted", nullptr, nullptr, nullptr},
    {"__mpi_f08_link_constants_MOD_mpi_weights_empty", nullptr, nullptr, nullptr}};

}  // namespace

#define TMAP_MPI_EXPORT __attribute__((visibility("default")))

// NOLINTBEGIN(readability-identifier-naming): the names gfortran gives MPICH's procedures.
extern "C" {

TMAP_MPI_EXPORT void mpi_cart_create_f08_(MPI_Fint* c, MPI_Fint* nd, MPI_Fint* d, Logical* p, Logical* r, MPI_Fint* o,
                                          MPI_Fint* e) {
  tmap::mpi::fortran::cart_create(c, nd, d, p, r, o, e);
}

TMAP_MPI_EXPORT void mpi_graph_create_f08_(MPI_Fint* c, MPI_Fint* nn, MPI_Fint* ix, MPI_Fint* ed, Logical* r,
                                           MPI_Fint* o, MPI_Fint* e) {
  tmap::mpi::fortran::graph_create(c, nn, ix, ed, r, o, e);
}

TMAP_MPI_EXPORT void mpi_dist_graph_create_adjacent_f08_(MPI_Fint* c, MPI_Fint* in, MPI_Fint* s, MPI_Fint* sw,
                                                         MPI_Fint* out, MPI_Fint* d, MPI_Fint* dw, MPI_Fint* i,
                                                         Logical* r, MPI_Fint* o, MPI_Fint* e) {
  tmap::mpi::fortran::dist_graph_create_adjacent(kMpichF08, c, in, s, sw, out, d, dw, i, r, o, e);
}

TMAP_MPI_EXPORT void mpi_dist_graph_create_f08_(MPI_Fint* c, MPI_Fint* n, MPI_Fint* s, MPI_Fint* dg, MPI_Fint* d,
                                                MPI_Fint* w, MPI_Fint* i, Logical* r, MPI_Fint* o, MPI_Fint* e) {
  tmap::mpi::fortran::dist_graph_create(kMpichF08, c, n, s, dg, d, w, i, r, o, e);
}

}  // extern "C"
// NOLINTEND(readability-identifier-naming)
