// libtmap-mpi's Fortran entry points for Open MPI. Open MPI's Fortran
// bindings call PMPI_* directly (mpif.h and `use mpi` through
// mpi_cart_create_, `use mpi_f08` through pmpi_cart_create_), past the C
// wrappers, so the preload library also defines those symbols, converting
// as Open MPI's mpif-h binding does (fortran_calls.hpp).
#include <mpi.h>

#include "mpi/fortran_calls.hpp"

using tmap::mpi::fortran::Logical;

namespace {

// Open MPI's Fortran MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY: common blocks,
// exported by libmpi under every Fortran mangling.
constexpr tmap::mpi::fortran::WeightSentinels kOpenMpi = {
    {"mpi_fortran_unweighted_", "mpi_fortran_unweighted__", "mpi_fortran_unweighted", "MPI_FORTRAN_UNWEIGHTED"},
    {"mpi_fortran_weights_empty_", "mpi_fortran_weights_empty__", "mpi_fortran_weights_empty",
     "MPI_FORTRAN_WEIGHTS_EMPTY"}};

}  // namespace

// One hidden definition per routine; the exported names below are aliases.
extern "C" {

__attribute__((visibility("hidden"))) void tmap_ompi_f_cart(MPI_Fint* c, MPI_Fint* nd, MPI_Fint* d, Logical* p,
                                                            Logical* r, MPI_Fint* o, MPI_Fint* e) {
  tmap::mpi::fortran::cart_create(c, nd, d, p, r, o, e);
}
__attribute__((visibility("hidden"))) void tmap_ompi_f_graph(MPI_Fint* c, MPI_Fint* nn, MPI_Fint* ix, MPI_Fint* ed,
                                                             Logical* r, MPI_Fint* o, MPI_Fint* e) {
  tmap::mpi::fortran::graph_create(c, nn, ix, ed, r, o, e);
}
__attribute__((visibility("hidden"))) void tmap_ompi_f_adjacent(MPI_Fint* c, MPI_Fint* in, MPI_Fint* s, MPI_Fint* sw,
                                                                MPI_Fint* out, MPI_Fint* d, MPI_Fint* dw, MPI_Fint* i,
                                                                Logical* r, MPI_Fint* o, MPI_Fint* e) {
  tmap::mpi::fortran::dist_graph_create_adjacent(kOpenMpi, c, in, s, sw, out, d, dw, i, r, o, e);
}
__attribute__((visibility("hidden"))) void tmap_ompi_f_dist(MPI_Fint* c, MPI_Fint* n, MPI_Fint* s, MPI_Fint* dg,
                                                            MPI_Fint* d, MPI_Fint* w, MPI_Fint* i, Logical* r,
                                                            MPI_Fint* o, MPI_Fint* e) {
  tmap::mpi::fortran::dist_graph_create(kOpenMpi, c, n, s, dg, d, w, i, r, o, e);
}

using CartCreate = void(MPI_Fint*, MPI_Fint*, MPI_Fint*, Logical*, Logical*, MPI_Fint*, MPI_Fint*);
using GraphCreate = void(MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, Logical*, MPI_Fint*, MPI_Fint*);
using AdjacentCreate = void(MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                            Logical*, MPI_Fint*, MPI_Fint*);
using DistCreate = void(MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, Logical*,
                        MPI_Fint*, MPI_Fint*);

// Every mangling Open MPI exports for a routine: lower case with one, two
// or no trailing underscores, upper case, and the same for pmpi_ (which
// `use mpi_f08` calls). Names with two underscores are reserved to C++
// implementations, but they are what Fortran compilers call (clang's
// -Wreserved-identifier, cmake/TmapWarnings.cmake, is silenced here only).
#ifdef __clang__
#pragma clang diagnostic ignored "-Wreserved-identifier"
#endif
#define TMAP_EXPORT_AS(type, name, target) __attribute__((visibility("default"), alias(#target))) type name;
#define TMAP_OPEN_MPI_FORTRAN(type, lower, upper, target) \
  TMAP_EXPORT_AS(type, lower##_, target)                  \
  TMAP_EXPORT_AS(type, lower##__, target)                 \
  TMAP_EXPORT_AS(type, lower, target)                     \
  TMAP_EXPORT_AS(type, upper, target)                     \
  TMAP_EXPORT_AS(type, p##lower##_, target)               \
  TMAP_EXPORT_AS(type, p##lower##__, target)              \
  TMAP_EXPORT_AS(type, p##lower, target)                  \
  TMAP_EXPORT_AS(type, P##upper, target)

TMAP_OPEN_MPI_FORTRAN(CartCreate, mpi_cart_create, MPI_CART_CREATE, tmap_ompi_f_cart)
TMAP_OPEN_MPI_FORTRAN(GraphCreate, mpi_graph_create, MPI_GRAPH_CREATE, tmap_ompi_f_graph)
TMAP_OPEN_MPI_FORTRAN(AdjacentCreate, mpi_dist_graph_create_adjacent, MPI_DIST_GRAPH_CREATE_ADJACENT,
                      tmap_ompi_f_adjacent)
TMAP_OPEN_MPI_FORTRAN(DistCreate, mpi_dist_graph_create, MPI_DIST_GRAPH_CREATE, tmap_ompi_f_dist)

}  // extern "C"
