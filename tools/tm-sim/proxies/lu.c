/* NPB LU's communication (SSOR on a px x py grid of ranks, px = py or
 * 2 py, no wrap), per iteration as tm-gen's `lu` pattern counts it:
 *  - the lower sweep: for each of the N k-planes, wait for the plane's
 *    edge from the west and the south (5 doubles per edge point), then
 *    send it east and north: a wavefront of small messages, pipelined over
 *    the planes, whose time is latency along the dependency chain;
 *  - the upper sweep: the same from the north-east corner back;
 *  - the halo exchange of the residual (NPB's exchange_3): one message of
 *    the whole face (N planes x edge x 5 doubles) with each neighbour;
 *  - the residual norms: a recursive-doubling all-reduce of 5 doubles.
 * N is the class's grid (--class S..E, default D: 408); --iterations K
 * (default 1). The ranks must be a power of two (as NPB's LU). */
#include "proxy.h"

/* One SSOR sweep: N k-planes, each a wavefront step from the (dx, dy) side. */
static void lu_sweep(proxy_t* p, int px, int py, long long planes, int dx, int dy, long long x_bytes, long long y_bytes,
                     char* in, char* out) {
  const int from_x = proxy_grid_neighbour(p, px, py, -dx, 0);
  const int from_y = proxy_grid_neighbour(p, px, py, 0, -dy);
  const int to_x = proxy_grid_neighbour(p, px, py, dx, 0);
  const int to_y = proxy_grid_neighbour(p, px, py, 0, dy);
  for (long long k = 0; k < planes; ++k) proxy_wave_step(p, from_x, from_y, to_x, to_y, x_bytes, y_bytes, in, out);
}

static void lu_halo(proxy_t* p, int neighbour, long long bytes, char* in, char* out) {
  if (neighbour < 0) return;
  proxy_sent(p, neighbour, bytes);
  PROXY_COMM(p, MPI_Sendrecv(out, (int)bytes, MPI_CHAR, neighbour, 3, in, (int)bytes, MPI_CHAR, neighbour, 3,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

int main(int argc, char** argv) {
  static const char* const keys[] = {"--class", "--iterations", NULL};
  proxy_t proxy;
  proxy_init(&proxy, "lu", &argc, &argv, keys);
  if ((proxy.size & (proxy.size - 1)) != 0) proxy_refuse("lu", "the number of ranks must be a power of two (NPB's LU)");
  const long long n = proxy_npb_grid("lu", argc, argv);
  const long long iterations = proxy_arg("lu", argc, argv, "--iterations", 1, 1, 1000000);
  int px = 1;
  int py = 1;
  proxy_grid2(proxy.size, &px, &py);
  const long long x_edge = n / py * 5 * 8; /* a plane's x-face: the rank's rows */
  const long long y_edge = n / px * 5 * 8;
  const long long face = n * (x_edge > y_edge ? x_edge : y_edge);
  char* in = calloc((size_t)face + 64, 1);
  char* out = calloc((size_t)face + 64, 1);
  const int x = proxy.rank % px;
  const int y = proxy.rank / px;
  for (long long it = 0; it < iterations; ++it) {
    lu_sweep(&proxy, px, py, n, 1, 1, x_edge, y_edge, in, out);   /* lower: from (0, 0) */
    lu_sweep(&proxy, px, py, n, -1, -1, x_edge, y_edge, in, out); /* upper: back */
    /* exchange_3: x-neighbours first, then y, each pair in a fixed order. */
    for (int side = 0; side < 2; ++side) {
      const int partner_x = (x % 2 == side) ? (x + 1 < px ? proxy.rank + 1 : -1) : (x > 0 ? proxy.rank - 1 : -1);
      lu_halo(&proxy, partner_x, n * x_edge, in, out);
    }
    for (int side = 0; side < 2; ++side) {
      const int partner_y = (y % 2 == side) ? (y + 1 < py ? proxy.rank + px : -1) : (y > 0 ? proxy.rank - px : -1);
      lu_halo(&proxy, partner_y, n * y_edge, in, out);
    }
    proxy_allreduce(&proxy, 5 * 8, in, out);
  }
  free(in);
  free(out);
  proxy_finish(&proxy);
  return 0;
}
