/* mca_topo_tmap: an Open MPI topo component (the framework TopoMatch's
 * treematch lives in). Open MPI selects it per communicator with
 * `--mca topo tmap,basic` (or by its priority); every language binding and
 * mpi4py end here, Fortran's included, which a PMPI preload cannot see.
 *
 * The component decides nothing itself: the reordering is libtmap-mpi's
 * (src/mpi/orders.hpp), computed on the communicator with PMPI calls, and
 * the topology is then built by the framework's base functions on the
 * renumbered communicator with reorder = false. Whatever fails, the base
 * behaviour follows: never an abort, nothing printed unless TMAP_VERBOSE.
 *
 * Written against the framework's public headers (ompi/mca/topo/topo.h,
 * ompi/mca/topo/base/base.h) as Debian's libopenmpi-dev ships them; the
 * structure follows Open MPI's basic component. */
#include <stdlib.h>

#include "mpi/orders.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/topo/base/base.h"
#include "ompi/mca/topo/topo.h"
#include "ompi_config.h"

static int init_query(bool enable_progress_threads, bool enable_mpi_threads);
static struct mca_topo_base_module_t* comm_query(const ompi_communicator_t* comm, int* priority, uint32_t type);
static int tmap_register(void);

/* The MCA priority (basic is 0, treematch 5 by default): above both, so
 * `--mca topo tmap,basic` and an installed component are enough. */
static int tmap_priority = 30;

OMPI_MODULE_DECLSPEC extern mca_topo_base_component_2_2_0_t mca_topo_tmap_component;

mca_topo_base_component_2_2_0_t mca_topo_tmap_component = {
    .topoc_version =
        {
            MCA_TOPO_BASE_VERSION_2_2_0,
            .mca_component_name = "tmap",
            .mca_component_major_version = OMPI_MAJOR_VERSION,
            .mca_component_minor_version = OMPI_MINOR_VERSION,
            .mca_component_release_version = OMPI_RELEASE_VERSION,
            .mca_register_component_params = tmap_register,
        },
    .topoc_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .topoc_init_query = init_query,
    .topoc_comm_query = comm_query,
};

static int tmap_register(void) {
  (void)mca_base_component_var_register(
      &mca_topo_tmap_component.topoc_version, "priority", "Priority of the tmap topo component (basic 0, treematch 5)",
      MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY, &tmap_priority);
  return OMPI_SUCCESS;
}

static int init_query(bool enable_progress_threads, bool enable_mpi_threads) {
  (void)enable_progress_threads;
  (void)enable_mpi_threads;
  return OMPI_SUCCESS;
}

/* MPI_Cart_create: tmap's order, then the base function on it. */
static int tmap_cart_create(mca_topo_base_module_t* module, ompi_communicator_t* old_comm, int ndims, const int* dims,
                            const int* periods, bool reorder, ompi_communicator_t** comm_topo) {
  int key = 0;
  if (tmap_orders_cart(old_comm, ndims, dims, periods, reorder ? 1 : 0, &key) != 1) {
    return mca_topo_base_cart_create(module, old_comm, ndims, dims, periods, reorder, comm_topo);
  }
  MPI_Comm split = MPI_COMM_NULL;
  int rc = PMPI_Comm_split(old_comm, key == MPI_UNDEFINED ? MPI_UNDEFINED : 0, key, &split);
  if (rc != MPI_SUCCESS) return rc;
  if (split == MPI_COMM_NULL) { /* a process outside the grid, as MPI gives it */
    *comm_topo = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  rc = mca_topo_base_cart_create(module, split, ndims, dims, periods, false, comm_topo);
  PMPI_Comm_free(&split);
  return rc;
}

static struct mca_topo_base_module_t* comm_query(const ompi_communicator_t* comm, int* priority, uint32_t type) {
  (void)comm;
  /* Zeroed, as basic does: the framework copies the base functions into the
   * slots left NULL. */
  mca_topo_base_module_t* module = calloc(1, sizeof(mca_topo_base_module_t));
  if (module == NULL) return NULL;
  OBJ_CONSTRUCT(module, mca_topo_base_module_t);
  *priority = tmap_priority;
  module->type = type;
  if (type == OMPI_COMM_CART) module->topo.cart.cart_create = tmap_cart_create;
  return module;
}
