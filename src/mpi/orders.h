/* tmap's orders for MPI's topology constructors, callable from C (Open MPI's
 * topo component, src/ompi). Collective over `comm`. Returns 1 when tmap
 * reorders (then *key is this process's rank in the new communicator, or
 * MPI_UNDEFINED when it plays no vertex), 0 when MPI's own behaviour should
 * follow. Never throws, aborts or prints (verbose aside). */
#ifndef TMAP_MPI_ORDERS_H
#define TMAP_MPI_ORDERS_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the caller was asked (Open MPI's MCA parameters); a NULL pointer or
 * field, or verbose < 0, leaves it to the TMAP_* environment. Rank 0's
 * settings decide for the communicator. */
struct tmap_orders_settings {
  const char* topology;   /* the machine, any tm-map -t value (TMAP_TOPOLOGY) */
  const char* strategy;   /* NAME or NAME:REFINE (TMAP_STRATEGY), over the config */
  int verbose;            /* 1: one line per decision on rank 0; 2: also why not (TMAP_VERBOSE) */
  const char* dist_graph; /* "processes" (keep declared edges) or "ranks" (TMAP_DIST_GRAPH) */
  void* hwloc_topology;   /* this machine's hwloc_topology_t (Open MPI's), or NULL: tmap loads one */
  const char* node;       /* what each node of a network holds, as tm-map --node (TMAP_NODE) */
  const char* host_names; /* the network's host names in node order, a Slurm host list (TMAP_HOST_NAMES) */
  const char* preset;     /* fast, default or quality, as tm-map -P (TMAP_PRESET) */
  const char* config;     /* a tm-map --dump-config file (TMAP_CONFIG), over the preset */
  const char* objective;  /* hop-bytes, congestion or time, as tm-map --objective (TMAP_OBJECTIVE) */
  const char* pe;         /* cpu or gpu: what a PE is, as tm-map --pe (TMAP_PE) */
};

/* The weighted flag of a declaration (its first int): 0 when the program
 * passed MPI_UNWEIGHTED; else TMAP_WEIGHTED, with a bit for each weights
 * array that was MPI_WEIGHTS_EMPTY (a weighted graph with no edges there:
 * MPI_Dist_graph_neighbors_count still reports it weighted). */
#define TMAP_WEIGHTED 1
#define TMAP_WEIGHTS_EMPTY 2      /* the weights (MPI_Dist_graph_create), or the source weights */
#define TMAP_DEST_WEIGHTS_EMPTY 4 /* MPI_Dist_graph_create_adjacent's destination weights */

/* The weights argument to pass again: MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY, or
 * `given` (the declaration's own array), as the program passed it. */
static inline const int* tmap_orders_weights(int flag, int empty_bit, const int* given) {
  if (flag == 0) return MPI_UNWEIGHTED;
  if ((flag & empty_bit) != 0) return MPI_WEIGHTS_EMPTY;
  return given;
}

int tmap_orders_cart(const struct tmap_orders_settings* settings, MPI_Comm comm, int ndims, const int dims[],
                     const int periods[], int reorder, int* key);
int tmap_orders_graph(const struct tmap_orders_settings* settings, MPI_Comm comm, int nnodes, const int index[],
                      const int edges[], int reorder, int* key);
/* On 1, *declared (free it with tmap_orders_free) holds what this process
 * passes to MPI_Dist_graph_create on the renumbered communicator: weighted
 * flag, n, edge count, sources[n], degrees[n], destinations, weights
 * (weights only when TMAP_WEIGHTED and not TMAP_WEIGHTS_EMPTY). */
int tmap_orders_dist_graph(const struct tmap_orders_settings* settings, MPI_Comm comm, int n, const int sources[],
                           const int degrees[], const int destinations[], const int weights[], int reorder, int* key,
                           int** declared);
/* On 1, *declared (free it with tmap_orders_free) holds what this process
 * passes to MPI_Dist_graph_create_adjacent on the renumbered communicator:
 * weighted flag, indegree, outdegree, sources, source weights,
 * destinations, destination weights (weights only when weighted; an
 * array that was MPI_WEIGHTS_EMPTY holds its degree's worth of ones). */
int tmap_orders_dist_graph_adjacent(const struct tmap_orders_settings* settings, MPI_Comm comm, int indegree,
                                    const int sources[], const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[], int reorder, int* key,
                                    int** declared);
void tmap_orders_free(int* declared);

#ifdef __cplusplus
}
#endif

#endif /* TMAP_MPI_ORDERS_H */
