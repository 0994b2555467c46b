/* SNAP's communication (KBA sweeps on a px x py grid of ranks, as square
 * as possible, no wrap; weak scaling: 16 x 16 cells per rank face, 16
 * planes, 48 angles per octant, 30 energy groups), per iteration as
 * tm-gen's `snap` pattern counts it: each octant sweeps its groups one
 * after the other, the planes in chunks of --ichunk (default 4): a face of
 * 16 x ichunk x 48 doubles per step; then the inner iterations' convergence
 * tests, 5 recursive-doubling all-reduces of 30 groups x 1000 values.
 * --iterations K (default 1). */
#include "proxy.h"

enum { kFace = 16, kPlanes = 16, kAngles = 48, kGroups = 30, kInner = 5 };

int main(int argc, char** argv) {
  static const char* const keys[] = {"--ichunk", "--iterations", NULL};
  proxy_t proxy;
  proxy_init(&proxy, "snap", &argc, &argv, keys);
  const long long ichunk = proxy_arg("snap", argc, argv, "--ichunk", 4, 1, kPlanes);
  if (kPlanes % ichunk != 0) proxy_refuse("snap", "--ichunk must divide 16");
  const long long iterations = proxy_arg("snap", argc, argv, "--iterations", 1, 1, 1000000);
  int px = 1;
  int py = 1;
  proxy_grid2(proxy.size, &px, &py);
  const long long bytes = kFace * ichunk * kAngles * 8;
  const long long reduce = kGroups * 1000 * 8;
  const long long largest = bytes > reduce ? bytes : reduce;
  char* in = calloc((size_t)largest * 2, 1);
  char* out = calloc((size_t)largest * 2, 1);
  for (long long it = 0; it < iterations; ++it) {
    proxy_kba(&proxy, px, py, kGroups * (kPlanes / ichunk), bytes, in, out);
    for (int inner = 0; inner < kInner; ++inner) proxy_allreduce(&proxy, reduce, in, out);
  }
  free(in);
  free(out);
  proxy_finish(&proxy);
  return 0;
}
