/* The program libtmap-mpi is tested with: it uses only MPI. It builds a
 * communicator with reorder = 1 by one of the four constructors, checks
 * that each new rank k answers the neighbourhood queries as the standard
 * says (cart and graph: as vertex k of the graph; dist graphs: as the edges
 * this process declared, renumbered, or with TMAP_DIST_GRAPH=ranks as
 * vertex k's), and writes (rank 0 of the new communicator) the graph
 * as "i j bytes" lines and where each vertex runs: the world rank of the
 * process playing it, one per line (processes sit on PEs in launch order,
 * so that is its PE).
 *
 *   topology_reorder cart|graph|adjacent|dist GRAPH_FILE PLACEMENT_FILE [processes|ranks]
 *
 * cart: a 2 x (n/2) grid, not periodic. The others: a ring visited in a
 * scrambled order (vertex v's neighbours are the ring's next and previous
 * after v in the order (7v+3) mod n), so the identity placement is poor. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n_vertices;
static int* order;    /* order[i]: the i-th vertex around the ring */
static int* position; /* position[v]: where v is around the ring */

static void make_ring(int n) {
  order = malloc(sizeof(int) * (size_t)n);
  position = malloc(sizeof(int) * (size_t)n);
  /* 7 is coprime with the sizes used (12, 16): a permutation. */
  for (int i = 0; i < n; ++i) order[i] = (7 * i + 3) % n;
  for (int i = 0; i < n; ++i) position[order[i]] = i;
}

/* Vertex v's ring neighbours, next then previous; weight 100 each way. */
static void ring_neighbours(int v, int out[2]) {
  out[0] = order[(position[v] + 1) % n_vertices];
  out[1] = order[(position[v] + n_vertices - 1) % n_vertices];
}

static int check_list(const char* what, int k, const int* got, int got_count, const int* want, int want_count) {
  int bad = got_count != want_count;
  for (int i = 0; !bad && i < want_count; ++i) {
    int found = 0;
    for (int j = 0; j < got_count; ++j) found |= got[j] == want[i];
    bad |= !found;
  }
  if (bad) fprintf(stderr, "rank %d: wrong %s\n", k, what);
  return bad;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  n_vertices = n;
  make_ring(n);
  const char* mode = argc > 1 ? argv[1] : "cart";
  MPI_Comm comm = MPI_COMM_NULL;
  int errors = 0;
  int dims[2] = {2, n / 2};
  const int periods[2] = {0, 0};
  if (strcmp(mode, "cart") == 0) {
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &comm);
  } else if (strcmp(mode, "graph") == 0) {
    int* index = malloc(sizeof(int) * (size_t)n);
    int* edges = malloc(sizeof(int) * 2 * (size_t)n);
    for (int v = 0; v < n; ++v) {
      ring_neighbours(v, edges + 2 * v);
      index[v] = 2 * (v + 1);
    }
    MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 1, &comm);
    free(index);
    free(edges);
  } else if (strcmp(mode, "adjacent") == 0) {
    int nb[2];
    const int weights[2] = {100, 100};
    ring_neighbours(world_rank, nb);
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, nb, weights, 2, nb, weights, MPI_INFO_NULL, 1, &comm);
  } else {
    /* Rank 0 declares every edge; the others none, with MPI_WEIGHTS_EMPTY
     * (a weighted graph with no edges here, as MPICH's distgraph1 does): the
     * graph stays weighted on every process. */
    int count = world_rank == 0 ? n : 0;
    int* sources = malloc(sizeof(int) * (size_t)n);
    int* degrees = malloc(sizeof(int) * (size_t)n);
    int* targets = malloc(sizeof(int) * 2 * (size_t)n);
    int* weights = malloc(sizeof(int) * 2 * (size_t)n);
    for (int v = 0; v < n; ++v) {
      sources[v] = v;
      degrees[v] = 2;
      ring_neighbours(v, targets + 2 * v);
      weights[2 * v] = weights[2 * v + 1] = 100;
    }
    MPI_Dist_graph_create(MPI_COMM_WORLD, count, sources, degrees, targets,
                          world_rank == 0 ? weights : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 1, &comm);
    free(sources);
    free(degrees);
    free(targets);
    free(weights);
  }
  int k = -1;
  MPI_Comm_rank(comm, &k);
  /* Rank k must be vertex k. */
  if (strcmp(mode, "cart") == 0) {
    int coords[2];
    MPI_Cart_coords(comm, k, 2, coords);
    errors += coords[0] != k / dims[1] || coords[1] != k % dims[1];
    for (int d = 0; d < 2; ++d) {
      int source, dest;
      MPI_Cart_shift(comm, d, 1, &source, &dest);
      int up[2] = {coords[0], coords[1]}, down[2] = {coords[0], coords[1]};
      up[d] += 1;
      down[d] -= 1;
      const int want_dest = up[d] < dims[d] ? up[0] * dims[1] + up[1] : MPI_PROC_NULL;
      const int want_source = down[d] >= 0 ? down[0] * dims[1] + down[1] : MPI_PROC_NULL;
      if (source != want_source || dest != want_dest) {
        fprintf(stderr, "rank %d: wrong shift along %d\n", k, d);
        ++errors;
      }
    }
  } else if (strcmp(mode, "graph") == 0) {
    int count = 0, got[8], want[2];
    MPI_Graph_neighbors_count(comm, k, &count);
    MPI_Graph_neighbors(comm, k, count < 8 ? count : 8, got);
    ring_neighbours(k, want);
    errors += check_list("graph neighbours", k, got, count, want, 2);
  } else {
    int in = 0, out = 0, weighted = 0, got_in[8], got_out[8], w_in[8], w_out[8], want[2];
    MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    MPI_Dist_graph_neighbors(comm, in < 8 ? in : 8, got_in, w_in, out < 8 ? out : 8, got_out, w_out);
    if (!weighted) {
      fprintf(stderr, "rank %d: the %s graph was declared with weights but reads unweighted\n", k, mode);
      ++errors;
    }
    /* What the dist graph's edges mean after reordering: the 4th argument, else TMAP_DIST_GRAPH. */
    const char* meaning = argc > 4 ? argv[4] : getenv("TMAP_DIST_GRAPH");
    if (meaning != NULL && strcmp(meaning, "ranks") == 0) {
      ring_neighbours(k, want); /* new rank k took vertex k's edges */
    } else {
      /* This process keeps the edges it declared: the same processes, by their new ranks. */
      int declared[2];
      ring_neighbours(world_rank, declared);
      MPI_Group world_group, group;
      MPI_Comm_group(MPI_COMM_WORLD, &world_group);
      MPI_Comm_group(comm, &group);
      MPI_Group_translate_ranks(world_group, 2, declared, group, want);
      MPI_Group_free(&world_group);
      MPI_Group_free(&group);
    }
    errors += check_list("sources", k, got_in, in, want, 2);
    errors += check_list("destinations", k, got_out, out, want, 2);
  }
  /* Where each vertex runs, and the graph, written by the new rank 0. */
  int* world_of = malloc(sizeof(int) * (size_t)n);
  MPI_Gather(&world_rank, 1, MPI_INT, world_of, 1, MPI_INT, 0, comm);
  int total_errors = 0;
  MPI_Reduce(&errors, &total_errors, 1, MPI_INT, MPI_SUM, 0, comm);
  if (k == 0 && argc > 3) {
    FILE* graph = fopen(argv[2], "w");
    FILE* placement = fopen(argv[3], "w");
    fprintf(graph, "%d\n", n);
    for (int v = 0; v < n; ++v) {
      if (strcmp(mode, "cart") == 0) {
        const int r = v / dims[1], c = v % dims[1];
        if (c + 1 < dims[1]) fprintf(graph, "%d %d 1\n%d %d 1\n", v, v + 1, v + 1, v);
        if (r + 1 < dims[0]) fprintf(graph, "%d %d 1\n%d %d 1\n", v, v + dims[1], v + dims[1], v);
      } else {
        int nb[2];
        ring_neighbours(v, nb);
        fprintf(graph, "%d %d 100\n%d %d 100\n", v, nb[0], v, nb[1]);
      }
      fprintf(placement, "%d\n", world_of[v]);
    }
    fclose(graph);
    fclose(placement);
    printf("%s: %d neighbourhood errors\n", mode, total_errors);
  }
  free(world_of);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return total_errors != 0;
}
