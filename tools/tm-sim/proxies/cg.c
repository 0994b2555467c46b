/* NPB CG's communication (nprows x npcols ranks, npcols = nprows or
 * 2 nprows, rank = row x npcols + col), per iteration as tm-gen's `cg`
 * pattern counts it: 25 inner steps, each a recursive-doubling exchange
 * within the row (log2(npcols) partners, na / nprows doubles each: the
 * sparse matrix-vector product's sum) followed by one exchange with the
 * transpose partner (na / npcols doubles). na is the class's matrix order
 * (--class S..E, default D: 1,500,000). --iterations K (default 1). The
 * ranks must be a power of two (as NPB's CG). */
#include "proxy.h"

int main(int argc, char** argv) {
  static const char* const keys[] = {"--class", "--iterations", NULL};
  proxy_t proxy;
  proxy_init(&proxy, "cg", &argc, &argv, keys);
  if ((proxy.size & (proxy.size - 1)) != 0) proxy_refuse("cg", "the number of ranks must be a power of two (NPB's CG)");
  const char* c = proxy_text(argc, argv, "--class");
  if (c == NULL) c = "D";
  const char* letters = "SWABCDE";
  const long long orders[] = {1400, 7000, 14000, 75000, 150000, 1500000, 9000000};
  long long na = 0;
  for (int k = 0; k < 7; ++k) {
    if (c[0] == letters[k] && c[1] == '\0') na = orders[k];
  }
  if (na == 0) proxy_refuse("cg", "--class must be S, W, A, B, C, D or E");
  const long long iterations = proxy_arg("cg", argc, argv, "--iterations", 1, 1, 1000000);
  int log = 0;
  while ((1 << (log + 1)) <= proxy.size) ++log;
  const int nprows = 1 << (log / 2);
  const int npcols = proxy.size / nprows;
  const int row = proxy.rank / npcols;
  const int col = proxy.rank % npcols;
  const int transpose = (col % nprows) * npcols + row + nprows * (col / nprows);
  const long long reduce = na / nprows * 8;
  const long long exchange = na / npcols * 8;
  const long long largest = reduce > exchange ? reduce : exchange;
  char* in = calloc((size_t)largest, 1);
  char* out = calloc((size_t)largest, 1);
  for (long long it = 0; it < iterations; ++it) {
    for (int step = 0; step < 25; ++step) {
      for (int bit = 1; bit < npcols; bit <<= 1) {
        const int partner = row * npcols + (col ^ bit);
        proxy_sent(&proxy, partner, reduce);
        PROXY_COMM(&proxy, MPI_Sendrecv(out, (int)reduce, MPI_CHAR, partner, 1, in, (int)reduce, MPI_CHAR, partner, 1,
                                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      }
      if (transpose != proxy.rank) {
        proxy_sent(&proxy, transpose, exchange);
        PROXY_COMM(&proxy, MPI_Sendrecv(out, (int)exchange, MPI_CHAR, transpose, 2, in, (int)exchange, MPI_CHAR,
                                        transpose, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      }
    }
  }
  free(in);
  free(out);
  proxy_finish(&proxy);
  return 0;
}
