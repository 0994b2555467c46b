/* A known point-to-point pattern for the monitoring reader's test: rank s
 * sends (s+1)*(t+1)*10 bytes, in s%3+1 messages, to each of its targets
 * t = (s+1)%n and (3s+2)%n (t != s); one MPI_Allreduce adds collective
 * traffic (lines I and C, not E). Rank 0 writes the expected E matrix as
 * "i j bytes" lines (argv[1]) and the expected message counts (argv[2]). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int targets(int s, int n, int out[2]) {
  int count = 0;
  const int a = (s + 1) % n, b = (3 * s + 2) % n;
  if (a != s) out[count++] = a;
  if (b != s && b != a) out[count++] = b;
  return count;
}

static int bytes(int s, int t) {
  return (s + 1) * (t + 1) * 10;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  char* buffer = calloc((size_t)n * 4 * 1000, 1);
  MPI_Request* requests = malloc(sizeof(MPI_Request) * (size_t)n * 16);
  int pending = 0;
  /* Receive what each source sends here, message by message. */
  for (int s = 0; s < n; ++s) {
    int t[2];
    const int k = targets(s, n, t);
    for (int e = 0; e < k; ++e) {
      if (t[e] != me) continue;
      const int messages = s % 3 + 1, total = bytes(s, me);
      for (int m = 0; m < messages; ++m) {
        const int size = total / messages + (m < total % messages ? 1 : 0);
        MPI_Irecv(buffer + (size_t)s * 4000, size, MPI_CHAR, s, m, MPI_COMM_WORLD, &requests[pending++]);
      }
    }
  }
  int t[2];
  const int k = targets(me, n, t);
  for (int e = 0; e < k; ++e) {
    const int messages = me % 3 + 1, total = bytes(me, t[e]);
    for (int m = 0; m < messages; ++m) {
      const int size = total / messages + (m < total % messages ? 1 : 0);
      MPI_Isend(buffer, size, MPI_CHAR, t[e], m, MPI_COMM_WORLD, &requests[pending++]);
    }
  }
  MPI_Status* statuses = malloc(sizeof(MPI_Status) * (size_t)n * 16);
  MPI_Waitall(pending, requests, statuses);
  free(statuses);
  int x = me;
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && argc > 2) {
    FILE* expected_bytes = fopen(argv[1], "w");
    FILE* expected_messages = fopen(argv[2], "w");
    for (int s = 0; s < n; ++s) {
      int u[2];
      const int ks = targets(s, n, u);
      for (int e = 0; e < ks; ++e) {
        fprintf(expected_bytes, "%d %d %d\n", s, u[e], bytes(s, u[e]));
        fprintf(expected_messages, "%d %d %d\n", s, u[e], s % 3 + 1);
      }
    }
    fclose(expected_bytes);
    fclose(expected_messages);
  }
  free(requests);
  free(buffer);
  MPI_Finalize();
  return 0;
}
