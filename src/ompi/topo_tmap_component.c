/* mca_topo_tmap: an Open MPI topo component (the framework TopoMatch's
 * treematch lives in). Open MPI selects it per communicator with
 * `--mca topo tmap,basic` (or by its priority) and reorders the four
 * constructors (cart, graph, dist graph and adjacent); every binding and
 * mpi4py end here, Fortran's included, which a PMPI preload cannot see.
 *
 * The component decides nothing itself: the reordering is libtmap-mpi's
 * (src/mpi/orders.hpp), computed on the communicator with PMPI calls, and
 * the topology is then built by the framework's base functions on the
 * renumbered communicator with reorder = false. Whatever fails, the base
 * behaviour follows: never an abort, nothing printed unless asked.
 *
 * Its MCA parameters (topo_tmap_machine, _node, _host_names, _strategy, _verbose, _dist_graph;
 * `ompi_info --param topo tmap`) are the TMAP_* environment's, which fills
 * whatever they leave unset. Processes are located with Open MPI's own
 * hwloc topology and each one's binding, in hwloc's logical numbering.
 *
 * Written against the framework's public headers (ompi/mca/topo/topo.h,
 * ompi/mca/topo/base/base.h) as Debian's libopenmpi-dev ships them; the
 * structure follows Open MPI's basic component. */
#include <stddef.h>
#include <stdlib.h>

#include "mpi/orders.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/topo/base/base.h"
#include "ompi/mca/topo/topo.h"
#include "ompi_config.h"
#include "opal/mca/hwloc/base/base.h"

static int init_query(bool enable_progress_threads, bool enable_mpi_threads);
static struct mca_topo_base_module_t* comm_query(const ompi_communicator_t* comm, int* priority, uint32_t type);
static int tmap_register(void);

/* The MCA priority (basic is 0, treematch 5 by default): above both, so
 * `--mca topo tmap,basic` and an installed component are enough. */
static int tmap_priority = 30;

/* The settings as MCA parameters; NULL (or verbose -1): the environment's. */
static char* tmap_machine = NULL;
static char* tmap_strategy = NULL;
static int tmap_verbose = -1;
static char* tmap_dist_graph = NULL;
static char* tmap_node = NULL;
static char* tmap_host_names = NULL;
static char* tmap_preset = NULL;
static char* tmap_config = NULL;
static char* tmap_objective = NULL;
static char* tmap_pe = NULL;

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

static void register_string(const char* name, const char* help, char** storage) {
  (void)mca_base_component_var_register(&mca_topo_tmap_component.topoc_version, name, help, MCA_BASE_VAR_TYPE_STRING,
                                        NULL, 0, 0, OPAL_INFO_LVL_1, MCA_BASE_VAR_SCOPE_READONLY, storage);
}

static int tmap_register(void) {
  (void)mca_base_component_var_register(
      &mca_topo_tmap_component.topoc_version, "priority", "Priority of the tmap topo component (basic 0, treematch 5)",
      MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY, &tmap_priority);
  register_string("machine",
                  "The machine to map on, any tm-map -t value (a .tgt, tianhe3:..., 'tleaf ...', an hwloc .xml); "
                  "unset: TMAP_TOPOLOGY; neither: ranks are never reordered",
                  &tmap_machine);
  register_string("node",
                  "What each node of a network machine holds, any tm-map --node value (an hwloc synthetic "
                  "'package:2 core:8', an lstopo XML, 'this'); unset: TMAP_NODE, else a PE a node",
                  &tmap_node);
  register_string("pe",
                  "What a PE is, as tm-map --pe: cpu, or gpu (each GPU a PE; a process sits on the GPU its "
                  "CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES or ZE_AFFINITY_MASK names); unset: TMAP_PE, else cpu",
                  &tmap_pe);
  register_string("host_names",
                  "The network's host names in node order, a Slurm host list ('cn[01-16]'); unset: "
                  "TMAP_HOST_NAMES, else cn<node>",
                  &tmap_host_names);
  register_string("preset", "fast, default or quality, as tm-map -P; unset: TMAP_PRESET, else default", &tmap_preset);
  register_string("config",
                  "A tm-map --dump-config file (strategy, seed, every option), over the preset; unset: TMAP_CONFIG",
                  &tmap_config);
  register_string("strategy",
                  "The strategy, NAME or NAME:REFINE (treematch, ohtma+, scotch:tabu, ptscotch), over the config; "
                  "unset: TMAP_STRATEGY, else the config's, else tm-map's default (auto)",
                  &tmap_strategy);
  register_string("objective",
                  "What the mapping minimises: hop-bytes, congestion or time, as tm-map --objective; unset: "
                  "TMAP_OBJECTIVE, else the config's, else hop-bytes",
                  &tmap_objective);
  (void)mca_base_component_var_register(
      &mca_topo_tmap_component.topoc_version, "verbose",
      "1: rank 0 prints hop-bytes before and after each reordering; 2: also why a call was not reordered; "
      "-1: TMAP_VERBOSE",
      MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_1, MCA_BASE_VAR_SCOPE_READONLY, &tmap_verbose);
  register_string("dist_graph",
                  "What reordering a dist graph means: 'processes' (each keeps the edges it declared, renumbered, "
                  "as treematch does) or 'ranks' (new rank k takes the edges declared for old rank k); "
                  "unset: TMAP_DIST_GRAPH, else processes",
                  &tmap_dist_graph);
  return OMPI_SUCCESS;
}

/* The MCA parameters and Open MPI's hwloc topology, for tmap_orders_*. */
static struct tmap_orders_settings settings(void) {
  struct tmap_orders_settings s = {tmap_machine,    tmap_strategy, tmap_verbose, tmap_dist_graph, NULL,   tmap_node,
                                   tmap_host_names, tmap_preset,   tmap_config,  tmap_objective,  tmap_pe};
  if (opal_hwloc_topology != NULL || opal_hwloc_base_get_topology() == OPAL_SUCCESS)
    s.hwloc_topology = opal_hwloc_topology;
  return s;
}

static int init_query(bool enable_progress_threads, bool enable_mpi_threads) {
  (void)enable_progress_threads;
  (void)enable_mpi_threads;
  return OMPI_SUCCESS;
}

/* The renumbered communicator for `key` (MPI_UNDEFINED: this process plays
 * no vertex and gets MPI_COMM_NULL, as MPI gives it). */
static int renumbered(ompi_communicator_t* old_comm, int key, MPI_Comm* split) {
  *split = MPI_COMM_NULL;
  return PMPI_Comm_split(old_comm, key == MPI_UNDEFINED ? MPI_UNDEFINED : 0, key, split);
}

/* MPI_Cart_create: tmap's order, then the base function on it. */
static int tmap_cart_create(mca_topo_base_module_t* module, ompi_communicator_t* old_comm, int ndims, const int* dims,
                            const int* periods, bool reorder, ompi_communicator_t** comm_topo) {
  int key = 0;
  const struct tmap_orders_settings given = settings();
  if (tmap_orders_cart(&given, old_comm, ndims, dims, periods, reorder ? 1 : 0, &key) != 1) {
    return mca_topo_base_cart_create(module, old_comm, ndims, dims, periods, reorder, comm_topo);
  }
  MPI_Comm split;
  int rc = renumbered(old_comm, key, &split);
  if (rc != MPI_SUCCESS) return rc;
  if (split == MPI_COMM_NULL) { /* a process outside the grid, as MPI gives it */
    *comm_topo = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  rc = mca_topo_base_cart_create(module, split, ndims, dims, periods, false, comm_topo);
  PMPI_Comm_free(&split);
  return rc;
}

/* MPI_Graph_create: tmap's order, then the base function on it. */
static int tmap_graph_create(mca_topo_base_module_t* module, ompi_communicator_t* old_comm, int nnodes,
                             const int* index, const int* edges, bool reorder, ompi_communicator_t** new_comm) {
  int key = 0;
  const struct tmap_orders_settings given = settings();
  if (tmap_orders_graph(&given, old_comm, nnodes, index, edges, reorder ? 1 : 0, &key) != 1) {
    return mca_topo_base_graph_create(module, old_comm, nnodes, index, edges, reorder, new_comm);
  }
  MPI_Comm split;
  int rc = renumbered(old_comm, key, &split);
  if (rc != MPI_SUCCESS) return rc;
  if (split == MPI_COMM_NULL) {
    *new_comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  rc = mca_topo_base_graph_create(module, split, nnodes, index, edges, false, new_comm);
  PMPI_Comm_free(&split);
  return rc;
}

/* MPI_Dist_graph_create: each process declares what tmap_orders_dist_graph
 * says (its edges renumbered, or its arguments as they were). */
static int tmap_dist_graph_create(mca_topo_base_module_t* module, ompi_communicator_t* old_comm, int n,
                                  const int nodes[], const int degrees[], const int targets[], const int weights[],
                                  opal_info_t* info, int reorder, ompi_communicator_t** new_comm) {
  int key = 0;
  int* declared = NULL;
  const struct tmap_orders_settings given = settings();
  if (tmap_orders_dist_graph(&given, old_comm, n, nodes, degrees, targets, weights, reorder, &key, &declared) != 1) {
    return mca_topo_base_dist_graph_create(module, old_comm, n, nodes, degrees, targets, weights, info, reorder,
                                           new_comm);
  }
  MPI_Comm split;
  int rc = renumbered(old_comm, key, &split);
  if (rc == MPI_SUCCESS) {
    const int weighted = declared[0];
    const int count = declared[1];
    const int edges = declared[2];
    const int* sources = declared + 3;
    const int* destinations = sources + 2 * (ptrdiff_t)count;
    rc = mca_topo_base_dist_graph_create(module, split, count, sources, sources + count, destinations,
                                         tmap_orders_weights(weighted, TMAP_WEIGHTS_EMPTY, destinations + edges), info,
                                         0, new_comm);
    PMPI_Comm_free(&split);
  }
  tmap_orders_free(declared);
  return rc;
}

/* MPI_Dist_graph_create_adjacent: each process declares what
 * tmap_orders_dist_graph_adjacent says (its neighbourhood renumbered, or
 * the one of the vertex it now plays). */
static int tmap_dist_graph_create_adjacent(mca_topo_base_module_t* module, ompi_communicator_t* old_comm, int indegree,
                                           const int sources[], const int sourceweights[], int outdegree,
                                           const int destinations[], const int destweights[], opal_info_t* info,
                                           int reorder, ompi_communicator_t** new_comm) {
  int key = 0;
  int* declared = NULL;
  const struct tmap_orders_settings given = settings();
  if (tmap_orders_dist_graph_adjacent(&given, old_comm, indegree, sources, sourceweights, outdegree, destinations,
                                      destweights, reorder, &key, &declared) != 1) {
    return mca_topo_base_dist_graph_create_adjacent(module, old_comm, indegree, sources, sourceweights, outdegree,
                                                    destinations, destweights, info, reorder, new_comm);
  }
  MPI_Comm split;
  int rc = renumbered(old_comm, key, &split);
  if (rc == MPI_SUCCESS) {
    const int weighted = declared[0];
    const int in = declared[1];
    const int out = declared[2];
    const int* src = declared + 3;
    const int* dst = src + 2 * (ptrdiff_t)in;
    rc = mca_topo_base_dist_graph_create_adjacent(
        module, split, in, src, tmap_orders_weights(weighted, TMAP_WEIGHTS_EMPTY, src + in), out, dst,
        tmap_orders_weights(weighted, TMAP_DEST_WEIGHTS_EMPTY, dst + out), info, 0, new_comm);
    PMPI_Comm_free(&split);
  }
  tmap_orders_free(declared);
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
  if (type == OMPI_COMM_GRAPH) module->topo.graph.graph_create = tmap_graph_create;
  if (type == OMPI_COMM_DIST_GRAPH) {
    module->topo.dist_graph.dist_graph_create = tmap_dist_graph_create;
    module->topo.dist_graph.dist_graph_create_adjacent = tmap_dist_graph_create_adjacent;
  }
  return module;
}
