/* NPB BT's and SP's communication (multi-partition on a q x q grid of
 * ranks, q cells each; the successor and predecessor in x, y and the
 * diagonal z direction as NPB's make_set gives them), per iteration as
 * tm-gen's `bt` and `sp` patterns count it:
 *  - copy_faces: every rank swaps a 2-layer halo of 5 values per point of
 *    its q cells' faces with all six neighbours at once;
 *  - x, y and z solves: q stages of forward elimination, each sending the
 *    rank's face to the successor while the predecessor's arrives (a stage
 *    starts when the one before has both), then q stages of back
 *    substitution the other way; a face is cell^2 points x `doubles`
 *    values (BT's 5x5 blocks: 30, SP: 10).
 * N is the class's grid (--class S..E, default D: 408); cell = N / q.
 * --iterations K (default 1). The ranks must be a square. */
#include "proxy.h"

static int mp_at(int q, int x, int y) {
  return ((y % q + q) % q) * q + (x % q + q) % q;
}

static int multipartition_main(const char* name, int doubles, int argc, char** argv) {
  static const char* const keys[] = {"--class", "--iterations", NULL};
  proxy_t proxy;
  proxy_init(&proxy, name, &argc, &argv, keys);
  int q = 1;
  while ((q + 1) * (q + 1) <= proxy.size) ++q;
  if (q * q != proxy.size) proxy_refuse(name, "the number of ranks must be a square (NPB's multi-partition)");
  const long long n = proxy_npb_grid(name, argc, argv);
  const long long iterations = proxy_arg(name, argc, argv, "--iterations", 1, 1, 1000000);
  const long long cell = n / q > 0 ? n / q : 1;
  const long long face = cell * cell * doubles * 8;
  const long long halo = q * cell * cell * 2 * 5 * 8;
  const int i = proxy.rank % q;
  const int j = proxy.rank / q;
  /* successor(1..3) and predecessor(1..3) */
  const int succ[3] = {mp_at(q, i + 1, j), mp_at(q, i, j + 1), mp_at(q, i + 1, j - 1)};
  const int pred[3] = {mp_at(q, i - 1, j), mp_at(q, i, j - 1), mp_at(q, i - 1, j + 1)};
  const long long largest = halo > face ? halo : face;
  char* in = calloc((size_t)largest * 6, 1);
  char* out = calloc((size_t)largest, 1);
  for (long long it = 0; it < iterations && q > 1; ++it) {
    MPI_Request requests[12];
    int count = 0;
    for (int d = 0; d < 3; ++d) {
      MPI_Irecv(in + (2 * d) * largest, (int)halo, MPI_CHAR, pred[d], 10 + d, MPI_COMM_WORLD, &requests[count++]);
      MPI_Irecv(in + (2 * d + 1) * largest, (int)halo, MPI_CHAR, succ[d], 20 + d, MPI_COMM_WORLD, &requests[count++]);
    }
    for (int d = 0; d < 3; ++d) {
      proxy_sent(&proxy, succ[d], halo);
      MPI_Isend(out, (int)halo, MPI_CHAR, succ[d], 10 + d, MPI_COMM_WORLD, &requests[count++]);
      proxy_sent(&proxy, pred[d], halo);
      MPI_Isend(out, (int)halo, MPI_CHAR, pred[d], 20 + d, MPI_COMM_WORLD, &requests[count++]);
    }
    PROXY_COMM(&proxy, MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
    for (int d = 0; d < 3; ++d) {
      for (int back = 0; back < 2; ++back) {
        const int to = back ? pred[d] : succ[d];
        const int from = back ? succ[d] : pred[d];
        for (int stage = 0; stage < q; ++stage) {
          /* This stage's face goes on while the predecessor's arrives for the next. */
          MPI_Request pair[2];
          MPI_Irecv(in, (int)face, MPI_CHAR, from, 30 + d, MPI_COMM_WORLD, &pair[0]);
          proxy_sent(&proxy, to, face);
          MPI_Isend(out, (int)face, MPI_CHAR, to, 30 + d, MPI_COMM_WORLD, &pair[1]);
          PROXY_COMM(&proxy, MPI_Waitall(2, pair, MPI_STATUSES_IGNORE));
        }
      }
    }
  }
  free(in);
  free(out);
  proxy_finish(&proxy);
  return 0;
}
