/* Sweep3D's communication (KBA wavefronts on a px x py grid of ranks, as
 * square as possible, no wrap; weak scaling: each rank keeps a block of
 * 16 x 16 columns of 400 cells), per iteration as tm-gen's `sweep3d`
 * pattern counts it: 8 octants, each sweeping from one corner of the rank
 * grid to the opposite one (two octants per corner: the two z directions);
 * along a sweep the 400 planes go in blocks of --mk planes (default 10) and
 * the 6 angles in blocks of --mmi (default 3): for each block a rank
 * waits for the upstream x and y faces (16 x mk x mmi doubles each), then
 * sends its downstream faces. Then a recursive-doubling all-reduce of 8
 * bytes (the flux error). --iterations K (default 1). */
#include "proxy.h"

enum { kBlock = 16, kPlanes = 400, kAngles = 6 };

int main(int argc, char** argv) {
  proxy_t proxy;
  proxy_init(&proxy, "sweep3d", &argc, &argv);
  const long long mk = proxy_arg("sweep3d", argc, argv, "--mk", 10, 1, kPlanes);
  const long long mmi = proxy_arg("sweep3d", argc, argv, "--mmi", 3, 1, kAngles);
  if (kPlanes % mk != 0 || kAngles % mmi != 0) proxy_refuse("sweep3d", "--mk must divide 400 and --mmi divide 6");
  const long long iterations = proxy_arg("sweep3d", argc, argv, "--iterations", 1, 1, 1000000);
  int px = 1;
  int py = 1;
  proxy_grid2(proxy.size, &px, &py);
  const int x = proxy.rank % px;
  const int y = proxy.rank / px;
  const long long bytes = kBlock * mk * mmi * 8;
  char* in = calloc((size_t)bytes * 2, 1);
  char* out = calloc((size_t)bytes * 2, 1);
  for (long long it = 0; it < iterations; ++it) {
    for (int octant = 0; octant < 8; ++octant) {
      const int dx = (octant & 1) ? -1 : 1; /* the sweep's direction along x and y */
      const int dy = (octant & 2) ? -1 : 1;
      const int from_x = x - dx >= 0 && x - dx < px ? proxy.rank - dx : -1;
      const int from_y = y - dy >= 0 && y - dy < py ? proxy.rank - dy * px : -1;
      const int to_x = x + dx >= 0 && x + dx < px ? proxy.rank + dx : -1;
      const int to_y = y + dy >= 0 && y + dy < py ? proxy.rank + dy * px : -1;
      for (long long block = 0; block < (kPlanes / mk) * (kAngles / mmi); ++block) {
        MPI_Request requests[2];
        int count = 0;
        if (from_x >= 0) MPI_Irecv(in, (int)bytes, MPI_CHAR, from_x, 1, MPI_COMM_WORLD, &requests[count++]);
        if (from_y >= 0) MPI_Irecv(in + bytes, (int)bytes, MPI_CHAR, from_y, 2, MPI_COMM_WORLD, &requests[count++]);
        PROXY_COMM(&proxy, MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
        count = 0;
        if (to_x >= 0) {
          proxy_sent(&proxy, to_x, bytes);
          MPI_Isend(out, (int)bytes, MPI_CHAR, to_x, 1, MPI_COMM_WORLD, &requests[count++]);
        }
        if (to_y >= 0) {
          proxy_sent(&proxy, to_y, bytes);
          MPI_Isend(out + bytes, (int)bytes, MPI_CHAR, to_y, 2, MPI_COMM_WORLD, &requests[count++]);
        }
        PROXY_COMM(&proxy, MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
      }
    }
    proxy_allreduce(&proxy, 8, in, out);
  }
  free(in);
  free(out);
  proxy_finish(&proxy);
  return 0;
}
