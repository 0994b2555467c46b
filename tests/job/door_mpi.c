/* The MPI layer's door to a job: every process reads the traffic (.coo,
 * first line n), declares its row as a weighted dist graph with reorder,
 * and new rank 0 writes which process plays each vertex: under the
 * preload library with processes in launch order (process p on PE p),
 * the mapping PE for PE.
 * Usage: mpirun -np N door-mpi TRAFFIC.coo OUT */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  FILE* in = argc > 2 ? fopen(argv[1], "r") : NULL;
  int n = 0;
  if (in == NULL || fscanf(in, "%d", &n) != 1 || n != size) {
    fprintf(stderr, "door-mpi: cannot read %s, or its ranks are not %d\n", argc > 1 ? argv[1] : "(none)", size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int sources[4096], source_weights[4096], destinations[4096], destination_weights[4096];
  int in_degree = 0;
  int out_degree = 0;
  long i = 0, j = 0, bytes = 0;
  while (fscanf(in, "%ld %ld %ld", &i, &j, &bytes) == 3) {
    if (i == rank && out_degree < 4096) {
      destinations[out_degree] = (int)j;
      destination_weights[out_degree++] = (int)bytes;
    }
    if (j == rank && in_degree < 4096) {
      sources[in_degree] = (int)i;
      source_weights[in_degree++] = (int)bytes;
    }
  }
  fclose(in);
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, in_degree, sources, source_weights, out_degree, destinations,
                                 destination_weights, MPI_INFO_NULL, 1, &graph);
  int vertex = 0;
  MPI_Comm_rank(graph, &vertex);
  int* process_of = rank == 0 || vertex == 0 ? malloc(sizeof(int) * (size_t)size) : NULL;
  MPI_Gather(&rank, 1, MPI_INT, process_of, 1, MPI_INT, 0, graph);
  if (vertex == 0) {
    FILE* out = fopen(argv[2], "w");
    for (int v = 0; v < size; ++v) fprintf(out, "%d\n", process_of[v]);
    fclose(out);
  }
  free(process_of);
  MPI_Comm_free(&graph);
  MPI_Finalize();
  return 0;
}
