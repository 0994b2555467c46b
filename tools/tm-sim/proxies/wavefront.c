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
  static const char* const keys[] = {"--bytes", "--sweeps", "--px", NULL};
  proxy_t proxy;
  proxy_init(&proxy, "wavefront", &argc, &argv, keys);
  const long long bytes = proxy_arg("wavefront", argc, argv, "--bytes", 1000000, 1, 1LL << 30);
  const long long sweeps = proxy_arg("wavefront", argc, argv, "--sweeps", 1, 1, 1000000000);
  const int px = (int)proxy_arg("wavefront", argc, argv, "--px", 2, 1, proxy.size);
  if (proxy.size % px != 0) proxy_refuse("wavefront", "the number of ranks must be a multiple of --px");
  const int py = proxy.size / px;
  const int x = proxy.rank % px;
  const int y = proxy.rank / px;
  char* in = calloc((size_t)bytes * 2, 1);
  char* out = calloc((size_t)bytes * 2, 1);
  for (long long s = 0; s < sweeps && proxy.rank < px * py; ++s) {
    /* Both inflows posted at once: each starts as soon as its sender sends. */
    proxy_wave_step(&proxy, x > 0 ? proxy.rank - 1 : -1, y > 0 ? proxy.rank - px : -1, x + 1 < px ? proxy.rank + 1 : -1,
                    y + 1 < py ? proxy.rank + px : -1, bytes, bytes, in, out);
  }
  free(in);
  free(out);
  proxy_finish(&proxy);
  return 0;
}
