/* Many kinds of MPI traffic for the recorder's checks (recording.sh):
 *   many_calls p2p:  point-to-point in every mode on a split communicator
 *                    (ranks renumbered: the recorder translates them to
 *                    MPI_COMM_WORLD's); its E lines must equal Open MPI's
 *                    monitoring's;
 *   many_calls coll: blocking and nonblocking collectives on MPI_COMM_WORLD
 *                    (no communicator is made: Open MPI's coll monitoring
 *                    would count the collectives MPI runs to make one); its
 *                    C lines must equal monitoring's (not scatterv, which
 *                    monitoring also counts from the root to itself, nor
 *                    allgatherv, whose inner collectives it counts too);
 *   many_calls hand E_FILE S_FILE R_FILE C_FILE: persistent sends (which
 *                    Open MPI's monitoring misses), one-sided puts, gets
 *                    and accumulates on the split communicator's window and
 *                    a neighbourhood alltoall on a Cartesian grid; rank 0
 *                    writes the E, S, R and C matrices they must give, as
 *                    "i j bytes" lines, computed here by hand. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where world rank w sits in the split communicator of n processes: the
 * halves me % 2, each numbered backwards (key n - me). */
static int half_size(int w, int n) {
  return (n - w % 2 + 1) / 2;
}
static int half_rank(int w, int n) {
  return (half_size(w, n) - 1) - w / 2;
}
static int world_of(int half, int r, int n) {
  return (half_size(half, n) - 1 - r) * 2 + half;
}

static void point_to_point(MPI_Comm half, int r, int size, double* data, double* in) {
  const int next = (r + 1) % size, prev = (r + size - 1) % size;
  MPI_Status status;
  MPI_Sendrecv(data, 10 + r, MPI_DOUBLE, next, 1, in, 4096, MPI_DOUBLE, prev, 1, half, &status);
  if (r % 2 == 0) {
    MPI_Ssend(data, 7, MPI_INT, next, 2, half);
    MPI_Recv(in, 4096, MPI_INT, prev, 2, half, &status);
  } else {
    MPI_Recv(in, 4096, MPI_INT, prev, 2, half, &status);
    MPI_Ssend(data, 7, MPI_INT, next, 2, half);
  }
  int attached = 1 << 16;
  void* buffer = malloc((size_t)attached);
  MPI_Buffer_attach(buffer, attached);
  MPI_Bsend(data, 33, MPI_CHAR, prev, 3, half);
  MPI_Recv(in, 4096, MPI_CHAR, next, 3, half, &status);
  MPI_Buffer_detach(&buffer, &attached);
  free(buffer);
  MPI_Sendrecv_replace(in, 2, MPI_LONG, prev, 5, next, 5, half, &status);
}

static void collectives(int me, int n, double* data, double* in) {
  MPI_Comm world = MPI_COMM_WORLD;
  MPI_Status status;
  int* counts = malloc(sizeof(int) * (size_t)n);
  int* displs = malloc(sizeof(int) * (size_t)n);
  int* mine = malloc(sizeof(int) * (size_t)n); /* what each sends here: its counts[me] */
  int* threes = malloc(sizeof(int) * (size_t)n);
  for (int k = 0; k < n; ++k) {
    counts[k] = k + 1;
    displs[k] = k * 64;
    mine[k] = me + 1;
    threes[k] = 3;
  }
  MPI_Bcast(data, 12, MPI_DOUBLE, 1 % n, world);
  MPI_Reduce(data, in, 9, MPI_INT, MPI_SUM, 0, world);
  MPI_Gather(data, 3, MPI_DOUBLE, in, 3, MPI_DOUBLE, 0, world);
  MPI_Gatherv(data, 3, MPI_DOUBLE, in, threes, displs, MPI_DOUBLE, 0, world);
  MPI_Scatter(data, 5, MPI_DOUBLE, in, 5, MPI_DOUBLE, 2 % n, world);
  MPI_Allgather(data, 2, MPI_INT, in, 2, MPI_INT, world);
  MPI_Alltoallv(data, counts, displs, MPI_DOUBLE, in, mine, displs, MPI_DOUBLE, world);
  MPI_Reduce_scatter_block(data, in, 4, MPI_DOUBLE, MPI_SUM, world);
  MPI_Scan(data, in, 6, MPI_DOUBLE, MPI_SUM, world);
  MPI_Exscan(data, in, 2, MPI_DOUBLE, MPI_SUM, world);
  MPI_Barrier(world);
  MPI_Request coll;
  MPI_Iallreduce(data, in, 11, MPI_DOUBLE, MPI_SUM, world, &coll);
  MPI_Wait(&coll, &status);
  MPI_Ialltoall(data, 3, MPI_INT, in, 3, MPI_INT, world, &coll);
  MPI_Wait(&coll, &status);
  free(counts);
  free(displs);
  free(mine);
  free(threes);
}

/* Persistent sends of 5 doubles to the next rank of the half, started
 * twice (Open MPI's monitoring does not count persistent sends); one-sided
 * on the half's window: 13 doubles put to the next rank, 6 got from the
 * previous one, 3 accumulated into the previous one; then
 * 8 doubles to each neighbour of a 2 x (n/2) grid, periodic in its second
 * dimension (n even). */
static void by_hand(MPI_Comm half, int r, int size, int n, double* data, double* in) {
  const int next = (r + 1) % size, prev = (r + size - 1) % size;
  MPI_Status status;
  MPI_Request send, recv;
  MPI_Send_init(data, 5, MPI_DOUBLE, next, 4, half, &send);
  MPI_Recv_init(in, 4096, MPI_DOUBLE, prev, 4, half, &recv);
  for (int round = 0; round < 2; ++round) {
    MPI_Start(&recv);
    MPI_Start(&send);
    MPI_Wait(&send, &status);
    MPI_Wait(&recv, &status);
  }
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
  MPI_Win win;
  MPI_Win_create(in, 4096 * sizeof(double), sizeof(double), MPI_INFO_NULL, half, &win);
  MPI_Win_fence(0, win);
  MPI_Put(data, 13, MPI_DOUBLE, next, 0, 13, MPI_DOUBLE, win);
  MPI_Get(data + 100, 6, MPI_DOUBLE, prev, 200, 6, MPI_DOUBLE, win);
  MPI_Accumulate(data, 3, MPI_DOUBLE, prev, 300, 3, MPI_DOUBLE, MPI_SUM, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  MPI_Comm grid;
  int dims[2] = {2, n / 2}, periods[2] = {0, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Neighbor_alltoall(data, 8, MPI_DOUBLE, in, 8, MPI_DOUBLE, grid);
  MPI_Comm_free(&grid);
}

/* The E, S, R and C matrices by_hand must give, from world rank w's view. */
static void write_by_hand(int n, const char* e_path, const char* s_path, const char* r_path, const char* c_path) {
  FILE* e = fopen(e_path, "w");
  FILE* s = fopen(s_path, "w");
  FILE* r = fopen(r_path, "w");
  FILE* c = fopen(c_path, "w");
  const int d = (int)sizeof(double);
  for (int w = 0; w < n; ++w) {
    const int half = w % 2, size = half_size(w, n), hr = half_rank(w, n);
    if (size > 1) {
      const int next = world_of(half, (hr + 1) % size, n), prev = world_of(half, (hr + size - 1) % size, n);
      fprintf(e, "%d %d %d\n", w, next, 2 * 5 * d);
      if (next == prev) {
        fprintf(s, "%d %d %d\n", w, next, 16 * d);
      } else {
        fprintf(s, "%d %d %d\n", w, next, 13 * d);
        fprintf(s, "%d %d %d\n", w, prev, 3 * d);
      }
      fprintf(r, "%d %d %d\n", prev, w, 6 * d); /* got from prev: prev's data reaches w */
    }
    /* Grid neighbours of w = (row, col) in a 2 x (n/2) grid, row-major. */
    const int cols = n / 2, row = w / cols, col = w % cols;
    int bytes[64] = {0};
    bytes[(1 - row) * cols + col] += 8 * d; /* the other row, once (not periodic) */
    if (cols > 1) {
      bytes[row * cols + (col + 1) % cols] += 8 * d;
      bytes[row * cols + (col + cols - 1) % cols] += 8 * d;
    }
    for (int t = 0; t < n; ++t) {
      if (bytes[t] > 0 && t != w) fprintf(c, "%d %d %d\n", w, t, bytes[t]);
    }
  }
  fclose(e);
  fclose(s);
  fclose(r);
  fclose(c);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  double* data = calloc(4096, sizeof(double));
  double* in = calloc(4096, sizeof(double));
  const char* mode = argc > 1 ? argv[1] : "p2p";
  if (strcmp(mode, "coll") == 0) {
    collectives(me, n, data, in);
  } else {
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, n - me, &half);
    int r, size;
    MPI_Comm_rank(half, &r);
    MPI_Comm_size(half, &size);
    if (r != half_rank(me, n) || size != half_size(me, n)) {
      fprintf(stderr, "rank %d: half rank %d of %d, expected %d of %d\n", me, r, size, half_rank(me, n),
              half_size(me, n));
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (strcmp(mode, "hand") == 0 && n % 2 == 0 && n <= 64 && argc > 5) {
      by_hand(half, r, size, n, data, in);
      if (me == 0) write_by_hand(n, argv[2], argv[3], argv[4], argv[5]);
    } else {
      point_to_point(half, r, size, data, in);
    }
    MPI_Comm_free(&half);
  }
  free(data);
  free(in);
  MPI_Finalize();
  return 0;
}
