/* The C API in a plain C program: an 8x8 stencil onto an 8x8 mesh, mapped
 * with two strategies, then the same through the TopoMatch-style call. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tmap/tmap.h>

static int check(tmap_status status, char* error) {
  if (status == TMAP_OK) return 0;
  fprintf(stderr, "tmap-c: %s\n", error != NULL ? error : "error");
  tmap_string_free(error);
  return 1;
}

int main(void) {
  enum { SIDE = 8, N = SIDE * SIDE };
  static int64_t matrix[N * N];
  static double affinity[N * N];
  for (int y = 0; y < SIDE; ++y) {
    for (int x = 0; x < SIDE; ++x) {
      const int r = x + SIDE * y;
      if (x + 1 < SIDE) matrix[r * N + r + 1] = matrix[(r + 1) * N + r] = 1000;
      if (y + 1 < SIDE) matrix[r * N + r + SIDE] = matrix[(r + SIDE) * N + r] = 1000;
    }
  }
  for (int k = 0; k < N * N; ++k) affinity[k] = (double)matrix[k];

  char* error = NULL;
  tmap_topology* mesh = NULL;
  tmap_comm* comm = NULL;
  if (check(tmap_topology_load("mesh2D 8 8", &mesh, &error), error)) return 1;
  if (check(tmap_comm_from_dense(N, matrix, &comm, &error), error)) return 1;
  tmap_options* options = tmap_options_create();
  tmap_options_set_seed(options, 1);
  const char* strategies[] = {"inorder", "ohtma", "scotch"};
  for (int s = 0; s < 3; ++s) {
    tmap_result* result = NULL;
    if (check(tmap_map(mesh, comm, NULL, strategies[s], options, &result, &error), error)) return 1;
    printf("%s hop_bytes %lld\n", strategies[s], (long long)tmap_result_hop_bytes(result));
    tmap_result_free(result);
  }
  static int64_t sigma[N];
  if (check(tmap_topomatch("mesh2D 8 8", affinity, N, NULL, 0, 1, "scotch", sigma, &error), error)) return 1;
  printf("topomatch-style rank 0 -> PE %lld\n", (long long)sigma[0]);
  /* A bad input is a status and a message, never a crash. */
  tmap_topology* bad = NULL;
  if (tmap_topology_load("mesh2D 8", &bad, &error) == TMAP_ERROR_INPUT) {
    printf("refused: %s\n", error);
    tmap_string_free(error);
  }
  tmap_options_free(options);
  tmap_comm_free(comm);
  tmap_topology_free(mesh);
  return 0;
}
