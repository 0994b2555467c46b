/* A halo exchange for the recorder's overhead (recorder_overhead.py): the
 * processes form a ring and each iteration every process sends BYTES to
 * both neighbours and receives theirs (MPI_Isend/MPI_Irecv, MPI_Waitall).
 * Rank 0 prints the median over rounds of the seconds per iteration, the
 * first round left out (warm-up).
 *
 *   halo_overhead BYTES ITERATIONS_PER_ROUND ROUNDS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const int bytes = argc > 1 ? atoi(argv[1]) : 1024;
  const int iterations = argc > 2 ? atoi(argv[2]) : 10000;
  const int rounds = argc > 3 ? atoi(argv[3]) : 11;
  char* out = calloc((size_t)bytes * 2, 1);
  char* in = calloc((size_t)bytes * 2, 1);
  const int left = (me + n - 1) % n, right = (me + 1) % n;
  double* seconds = malloc(sizeof(double) * (size_t)rounds);
  for (int round = 0; round < rounds; ++round) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int k = 0; k < iterations; ++k) {
      MPI_Request requests[4];
      MPI_Status statuses[4];
      MPI_Irecv(in, bytes, MPI_BYTE, left, 0, MPI_COMM_WORLD, &requests[0]);
      MPI_Irecv(in + bytes, bytes, MPI_BYTE, right, 1, MPI_COMM_WORLD, &requests[1]);
      MPI_Isend(out, bytes, MPI_BYTE, right, 0, MPI_COMM_WORLD, &requests[2]);
      MPI_Isend(out + bytes, bytes, MPI_BYTE, left, 1, MPI_COMM_WORLD, &requests[3]);
      MPI_Waitall(4, requests, statuses);
    }
    double elapsed = MPI_Wtime() - start;
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    seconds[round] = elapsed / iterations;
  }
  if (me == 0) {
    qsort(seconds + 1, (size_t)rounds - 1, sizeof(double), by_value);
    printf("seconds_per_iteration %.9g\n", seconds[1 + (rounds - 1) / 2]);
  }
  free(seconds);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
