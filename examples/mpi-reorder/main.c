/* Rank reordering inside an MPI program with tmap.
 *
 * Each rank declares its traffic (here: a ring where neighbours 2 apart talk
 * much more than direct neighbours, so the natural order is a poor
 * placement), rank 0 gathers the matrix, asks tmap where each logical rank
 * should run, and every process then takes the logical rank that belongs on
 * its own PE: MPI_Comm_split with that rank as key builds the reordered
 * communicator. Processes are assumed to sit on PEs 0..n-1 in launch order
 * (mpirun's default in-order placement).
 *
 *   mpirun -np 8 ./tmap-mpi-reorder 'tleaf 2 2 10 4 1'
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tmap/tmap.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* machine = argc > 1 ? argv[1] : "tleaf 2 2 10 4 1";

  /* 1. What this rank sends to each other rank (bytes). */
  int64_t* row = calloc((size_t)size, sizeof(int64_t));
  row[(rank + 2) % size] += 100000;
  row[(rank + size - 2) % size] += 100000;
  row[(rank + 1) % size] += 10;
  row[(rank + size - 1) % size] += 10;

  /* 2. Rank 0 gathers the matrix and maps it. */
  int64_t* matrix = rank == 0 ? malloc((size_t)size * (size_t)size * sizeof(int64_t)) : NULL;
  MPI_Gather(row, size, MPI_INT64_T, matrix, size, MPI_INT64_T, 0, MPI_COMM_WORLD);
  int64_t* sigma = calloc((size_t)size, sizeof(int64_t)); /* logical rank -> PE */
  int status = 0;
  if (rank == 0) {
    char* error = NULL;
    tmap_topology* topology = NULL;
    tmap_comm* comm = NULL;
    tmap_result* before = NULL;
    tmap_result* after = NULL;
    if (tmap_topology_load(machine, &topology, &error) != TMAP_OK ||
        tmap_comm_from_dense(size, matrix, &comm, &error) != TMAP_OK ||
        tmap_map(topology, comm, NULL, "inorder", NULL, &before, &error) != TMAP_OK ||
        tmap_map(topology, comm, NULL, "scotch", NULL, &after, &error) != TMAP_OK) {
      fprintf(stderr, "tmap: %s\n", error != NULL ? error : "error");
      tmap_string_free(error);
      status = 1;
    } else {
      for (int r = 0; r < size; ++r) sigma[r] = tmap_result_mapping(after)[r];
      printf("hop_bytes in order %lld, reordered %lld\n", (long long)tmap_result_hop_bytes(before),
             (long long)tmap_result_hop_bytes(after));
    }
    tmap_result_free(before);
    tmap_result_free(after);
    tmap_comm_free(comm);
    tmap_topology_free(topology);
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (status != 0) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Bcast(sigma, size, MPI_INT64_T, 0, MPI_COMM_WORLD);

  /* 3. This process sits on PE `rank`: it becomes the logical rank mapped there. */
  int logical = -1;
  for (int r = 0; r < size; ++r) {
    if (sigma[r] == rank) logical = r;
  }
  MPI_Comm reordered;
  MPI_Comm_split(MPI_COMM_WORLD, 0, logical, &reordered);
  int new_rank = 0;
  MPI_Comm_rank(reordered, &new_rank);

  /* 4. The heavy partners (new rank +-2) and where they run now. */
  int partner = (new_rank + 2) % size;
  int partner_pe = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, partner, 0, &partner_pe, 1, MPI_INT, (new_rank + size - 2) % size, 0, reordered,
               MPI_STATUS_IGNORE);
  printf("process %d -> rank %d; rank %d's heavy partner %d runs on PE %d\n", rank, new_rank, new_rank,
         (new_rank + size - 2) % size, partner_pe);
  MPI_Comm_free(&reordered);
  free(row);
  free(matrix);
  free(sigma);
  MPI_Finalize();
  return new_rank == logical ? 0 : 1;
}
