/* A 2D wavefront (the dependency of LU's SSOR sweeps and of Sweep3D's
 * diagonal sweeps): ranks on a --px x --py grid (rank = x + px y); in each
 * of --sweeps sweeps a rank waits for --bytes S from its west and south
 * neighbours (both receives posted at once), then sends S east and north
 * (both at once). A sweep reaches
 * the far corner after px + py - 2 stages; with every message on its own
 * idle link of latency L (h hops) and bandwidth B, one sweep takes
 * (px + py - 2)(h L + S / B). The hand-computed check of tm-sim. */
#include "proxy.h"

int main(int argc, char** argv) {
  proxy_t proxy;
  proxy_init(&proxy, "wavefront", &argc, &argv);
  const long long bytes = proxy_arg("wavefront", argc, argv, "--bytes", 1000000, 1, 1LL << 30);
  const long long sweeps = proxy_arg("wavefront", argc, argv, "--sweeps", 1, 1, 1000000000);
  const int px = (int)proxy_arg("wavefront", argc, argv, "--px", 2, 1, proxy.size);
  if (proxy.size % px != 0) proxy_refuse("wavefront", "the number of ranks must be a multiple of --px");
  const int py = proxy.size / px;
  const int x = proxy.rank % px;
  const int y = proxy.rank / px;
  char* in = calloc((size_t)bytes + 1, 1);
  char* in2 = calloc((size_t)bytes + 1, 1);
  char* out = calloc((size_t)bytes + 1, 1);
  for (long long s = 0; s < sweeps && proxy.rank < px * py; ++s) {
    /* Both inflows posted at once: each starts as soon as its sender sends. */
    MPI_Request requests[2];
    int count = 0;
    if (x > 0) MPI_Irecv(in, (int)bytes, MPI_CHAR, proxy.rank - 1, 0, MPI_COMM_WORLD, &requests[count++]);
    if (y > 0) MPI_Irecv(in2, (int)bytes, MPI_CHAR, proxy.rank - px, 0, MPI_COMM_WORLD, &requests[count++]);
    PROXY_COMM(&proxy, MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
    count = 0;
    if (x + 1 < px) {
      proxy_sent(&proxy, proxy.rank + 1, bytes);
      MPI_Isend(out, (int)bytes, MPI_CHAR, proxy.rank + 1, 0, MPI_COMM_WORLD, &requests[count++]);
    }
    if (y + 1 < py) {
      proxy_sent(&proxy, proxy.rank + px, bytes);
      MPI_Isend(out, (int)bytes, MPI_CHAR, proxy.rank + px, 0, MPI_COMM_WORLD, &requests[count++]);
    }
    PROXY_COMM(&proxy, MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
  }
  free(in);
  free(in2);
  free(out);
  proxy_finish(&proxy);
  return 0;
}
