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
  static const char* const keys[] = {"--mk", "--mmi", "--iterations", NULL};
  proxy_t proxy;
  proxy_init(&proxy, "sweep3d", &argc, &argv, keys);
  const long long mk = proxy_arg("sweep3d", argc, argv, "--mk", 10, 1, kPlanes);
  const long long mmi = proxy_arg("sweep3d", argc, argv, "--mmi", 3, 1, kAngles);
  if (kPlanes % mk != 0 || kAngles % mmi != 0) proxy_refuse("sweep3d", "--mk must divide 400 and --mmi divide 6");
  const long long iterations = proxy_arg("sweep3d", argc, argv, "--iterations", 1, 1, 1000000);
  int px = 1;
  int py = 1;
  proxy_grid2(proxy.size, &px, &py);
  const long long bytes = kBlock * mk * mmi * 8;
  char* in = calloc((size_t)bytes * 2, 1);
  char* out = calloc((size_t)bytes * 2, 1);
  for (long long it = 0; it < iterations; ++it) {
    proxy_kba(&proxy, px, py, (kPlanes / mk) * (kAngles / mmi), bytes, in, out);
    proxy_allreduce(&proxy, 8, in, out);
  }
  free(in);
  free(out);
  proxy_finish(&proxy);
  return 0;
}
