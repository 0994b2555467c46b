/* Ping-pong between ranks 0 and 1 (others idle): --iterations K round
 * trips of --bytes S. On an idle route of h hops, latency L per hop and
 * bandwidth B, each message takes h L + S / B, the round trip twice that:
 * time = 2 K (h L + S / B). The hand-computed check of tm-sim. */
#include "proxy.h"

int main(int argc, char** argv) {
  static const char* const keys[] = {"--bytes", "--iterations", NULL};
  proxy_t proxy;
  proxy_init(&proxy, "pingpong", &argc, &argv, keys);
  const long long bytes = proxy_arg("pingpong", argc, argv, "--bytes", 1000000, 1, 1LL << 30);
  const long long iterations = proxy_arg("pingpong", argc, argv, "--iterations", 10, 1, 1000000000);
  char* buffer = calloc((size_t)bytes + 1, 1);
  for (long long k = 0; k < iterations && proxy.size > 1; ++k) {
    if (proxy.rank == 0) {
      proxy_sent(&proxy, 1, bytes);
      PROXY_COMM(&proxy, MPI_Send(buffer, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD));
      PROXY_COMM(&proxy, MPI_Recv(buffer, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else if (proxy.rank == 1) {
      PROXY_COMM(&proxy, MPI_Recv(buffer, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      proxy_sent(&proxy, 0, bytes);
      PROXY_COMM(&proxy, MPI_Send(buffer, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD));
    }
  }
  free(buffer);
  proxy_finish(&proxy);
  return 0;
}
