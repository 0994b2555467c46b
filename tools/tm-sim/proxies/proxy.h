/* What every proxy application shares: argument parsing, the clocks, and
 * the report tm-sim reads. A proxy is the communication skeleton of an
 * application (its partners, message sizes and dependencies), built with
 * smpicc and run under smpirun on the platform tm-sim writes, so MPI_Wtime
 * is simulated time.
 *
 * No global state: SMPI runs every rank in one process (tm-sim runs it
 * without privatisation, which would copy the program once per rank), so
 * a rank's state is a proxy_t on its own stack.
 *
 * Each MPI call goes through PROXY_COMM(p, ...), which adds its duration to
 * the rank's communication time; proxy_sent counts what a rank sends to whom;
 * with --matrix FILE rank 0 writes those counts as a .coo (i j bytes), the
 * traffic the proxy really sent, to compare with the matrix tm-gen models.
 *
 * proxy_init (MPI_Init, the clock) opens a proxy and proxy_finish (the
 * report, MPI_Finalize) closes it. Report (rank 0, one line on stdout):
 *   tmap-proxy: <name> ranks <P> time <s> comm <s> messages <M> bytes <B>
 * time: the latest rank's end (all start at 0 after MPI_Init); comm: the
 * largest per-rank time inside MPI calls; messages, bytes: sums over ranks.
 * Before it, rank 0 prints its clock as it goes (proxy_progress):
 *   tmap-proxy-progress: <s>
 * each line a lower bound of that time, for tm-sim to report when its time
 * limit stops a run.
 */
#ifndef TMAP_PROXY_H
#define TMAP_PROXY_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char* name;
  int rank, size;
  double start, comm;
  long long messages, bytes;
  long long* sent; /* bytes to each rank */
  const char* matrix;
  char** env_argv; /* the arguments read from TMAP_PROXY_ARGS (freed at the end) */
  char* env_words;
  double progress_next; /* rank 0: its clock at the next progress line */
} proxy_t;

/* Stops the job on a bad argument: tm-sim reads the line and exits 2. */
static inline void proxy_refuse(const char* name, const char* what) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    printf("tmap-proxy-error: %s: %s\n", name, what);
    fflush(stdout);
  }
  MPI_Abort(MPI_COMM_WORLD, 2);
}

/* The value of "--key VALUE" in argv, a whole number in [lo, hi], or
 * `fallback` when the key is absent. */
static inline long long proxy_arg(const char* name, int argc, char** argv, const char* key, long long fallback,
                                  long long lo, long long hi) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (strcmp(argv[i], key) == 0) {
      char* end = NULL;
      const long long value = strtoll(argv[i + 1], &end, 10);
      if (end == argv[i + 1] || *end != '\0' || value < lo || value > hi) {
        char what[200];
        snprintf(what, sizeof what, "%s must be a whole number between %lld and %lld, not '%s'", key, lo, hi,
                 argv[i + 1]);
        proxy_refuse(name, what);
      }
      return value;
    }
  }
  return fallback;
}

static inline const char* proxy_text(int argc, char** argv, const char* key) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (strcmp(argv[i], key) == 0) return argv[i + 1];
  }
  return NULL;
}

/* Refuses any argument but "--KEY VALUE" pairs of the proxy's `keys` (a
 * NULL-terminated list) and --matrix: a misspelt option must not be
 * silently ignored. */
static inline void proxy_check_args(const char* name, int argc, char** argv, const char* const* keys) {
  for (int i = 1; i < argc; i += 2) {
    int known = strcmp(argv[i], "--matrix") == 0;
    for (const char* const* k = keys; *k != NULL && !known; ++k) known = strcmp(argv[i], *k) == 0;
    char what[300];
    if (!known) {
      snprintf(what, sizeof what, "unknown argument '%.100s'", argv[i]);
      proxy_refuse(name, what);
    }
    if (i + 1 >= argc) {
      snprintf(what, sizeof what, "%.100s needs a value", argv[i]);
      proxy_refuse(name, what);
    }
  }
}

/* tm-sim passes the arguments in TMAP_PROXY_ARGS (words separated by one
 * space), not on smpirun's command line: smpirun is a shell script that
 * would expand their wildcards and take any --cfg= among them as its own.
 * With the variable set, its words replace argv[1..]. */
static inline void proxy_env_args(proxy_t* p, int* argc, char*** argv) {
  const char* text = getenv("TMAP_PROXY_ARGS");
  if (text == NULL) return;
  const size_t length = strlen(text);
  p->env_words = malloc(length + 1);
  p->env_argv = malloc((length / 2 + 3) * sizeof(char*));
  if (p->env_words == NULL || p->env_argv == NULL) proxy_refuse("proxy", "out of memory");
  memcpy(p->env_words, text, length + 1);
  int count = 0;
  p->env_argv[count++] = (*argv)[0];
  for (char* at = p->env_words; *at != '\0';) {
    while (*at == ' ') *at++ = '\0';
    if (*at == '\0') break;
    p->env_argv[count++] = at;
    while (*at != '\0' && *at != ' ') ++at;
  }
  p->env_argv[count] = NULL;
  *argc = count;
  *argv = p->env_argv;
}

/* MPI_Init and the rank's state, the arguments checked against `keys`;
 * the clock starts here. */
static inline void proxy_init(proxy_t* p, const char* name, int* argc, char*** argv, const char* const* keys) {
  MPI_Init(argc, argv);
  memset(p, 0, sizeof *p);
  proxy_env_args(p, argc, argv);
  proxy_check_args(name, *argc, *argv, keys);
  MPI_Comm_rank(MPI_COMM_WORLD, &p->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p->size);
  p->name = name;
  p->sent = calloc((size_t)p->size, sizeof(long long));
  p->matrix = proxy_text(*argc, *argv, "--matrix");
  p->start = MPI_Wtime();
}

/* Counts a message of `bytes` to `to` (call beside each send). */
static inline void proxy_sent(proxy_t* p, int to, long long bytes) {
  p->sent[to] += bytes;
  p->messages += 1;
  p->bytes += bytes;
}

/* Rank 0's clock, on stdout whenever it passed the last line's by 1 %
 * (and by 10 us), flushed at once so that a run killed at tm-sim's time
 * limit leaves it: every rank starts at 0 and the application's time is the
 * latest rank's end, so the last line is a lower bound of it. At most a few
 * thousand lines, and no simulated time: computation is not simulated. */
static inline void proxy_progress(proxy_t* p) {
  if (p->rank != 0) return;
  const double now = MPI_Wtime() - p->start;
  if (now <= 0 || now < p->progress_next) return; /* 0 bounds nothing */
  printf("tmap-proxy-progress: %.9e\n", now);
  fflush(stdout);
  p->progress_next = now * 1.01 + 1e-5;
}

#define PROXY_COMM(p, call)               \
  do {                                    \
    double proxy_t0_ = MPI_Wtime();       \
    call;                                 \
    (p)->comm += MPI_Wtime() - proxy_t0_; \
    proxy_progress(p);                    \
  } while (0)

/* The most square px x py = p with px >= py (as tm-gen's grid2 and NPB's
 * LU choose: px = py or 2 py for powers of two). */
static inline void proxy_grid2(int p, int* px, int* py) {
  int y = 1;
  while ((y + 1) * (y + 1) <= p) ++y;
  while (y > 1 && p % y != 0) --y;
  *py = y;
  *px = p / y;
}

/* A recursive-doubling all-reduce of `bytes` per step, sent explicitly so
 * that it is the traffic tm-gen models: ranks past the largest power of
 * two fold in first (and get the result back), then partners 2^k apart. */
static inline void proxy_allreduce(proxy_t* p, long long bytes, char* buffer, char* scratch) {
  int pow2 = 1;
  while (pow2 * 2 <= p->size) pow2 *= 2;
  if (p->rank >= pow2) {
    proxy_sent(p, p->rank - pow2, bytes);
    PROXY_COMM(p, MPI_Sendrecv(buffer, (int)bytes, MPI_CHAR, p->rank - pow2, 7, scratch, (int)bytes, MPI_CHAR,
                               p->rank - pow2, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    return;
  }
  const int extra = p->rank + pow2 < p->size ? p->rank + pow2 : -1;
  if (extra >= 0) {
    PROXY_COMM(p, MPI_Recv(scratch, (int)bytes, MPI_CHAR, extra, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
  for (int step = 1; step < pow2; step <<= 1) {
    proxy_sent(p, p->rank ^ step, bytes);
    PROXY_COMM(p, MPI_Sendrecv(buffer, (int)bytes, MPI_CHAR, p->rank ^ step, 8, scratch, (int)bytes, MPI_CHAR,
                               p->rank ^ step, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
  if (extra >= 0) {
    proxy_sent(p, extra, bytes);
    PROXY_COMM(p, MPI_Send(buffer, (int)bytes, MPI_CHAR, extra, 7, MPI_COMM_WORLD));
  }
}

/* One step of a wavefront: wait for the upstream faces (from_x, from_y;
 * -1: none), both receives posted at once, then send the downstream faces
 * (to_x, to_y) at once. `in` and `out` hold x_bytes + y_bytes. */
static inline void proxy_wave_step(proxy_t* p, int from_x, int from_y, int to_x, int to_y, long long x_bytes,
                                   long long y_bytes, char* in, char* out) {
  MPI_Request requests[2];
  int count = 0;
  if (from_x >= 0) MPI_Irecv(in, (int)x_bytes, MPI_CHAR, from_x, 1, MPI_COMM_WORLD, &requests[count++]);
  if (from_y >= 0) MPI_Irecv(in + x_bytes, (int)y_bytes, MPI_CHAR, from_y, 2, MPI_COMM_WORLD, &requests[count++]);
  PROXY_COMM(p, MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
  count = 0;
  if (to_x >= 0) {
    proxy_sent(p, to_x, x_bytes);
    MPI_Isend(out, (int)x_bytes, MPI_CHAR, to_x, 1, MPI_COMM_WORLD, &requests[count++]);
  }
  if (to_y >= 0) {
    proxy_sent(p, to_y, y_bytes);
    MPI_Isend(out + x_bytes, (int)y_bytes, MPI_CHAR, to_y, 2, MPI_COMM_WORLD, &requests[count++]);
  }
  PROXY_COMM(p, MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
}

/* A rank's neighbour at (x + dx, y + dy) on a px x py grid (no wrap), or -1. */
static inline int proxy_grid_neighbour(const proxy_t* p, int px, int py, int dx, int dy) {
  const int x = p->rank % px + dx;
  const int y = p->rank / px + dy;
  return x >= 0 && x < px && y >= 0 && y < py ? x + px * y : -1;
}

/* KBA sweeps (Sweep3D, SNAP): 8 octants, each from one corner of the px x
 * py grid to the opposite one (two octants per corner, the two z
 * directions), `blocks` pipelined steps per octant, faces of `bytes`. */
static inline void proxy_kba(proxy_t* p, int px, int py, long long blocks, long long bytes, char* in, char* out) {
  for (int octant = 0; octant < 8; ++octant) {
    const int dx = (octant & 1) ? -1 : 1;
    const int dy = (octant & 2) ? -1 : 1;
    const int from_x = proxy_grid_neighbour(p, px, py, -dx, 0);
    const int from_y = proxy_grid_neighbour(p, px, py, 0, -dy);
    const int to_x = proxy_grid_neighbour(p, px, py, dx, 0);
    const int to_y = proxy_grid_neighbour(p, px, py, 0, dy);
    for (long long block = 0; block < blocks; ++block) {
      proxy_wave_step(p, from_x, from_y, to_x, to_y, bytes, bytes, in, out);
    }
  }
}

/* NPB's grid points per side of BT, SP and LU for a class letter. */
static inline long long proxy_npb_grid(const char* name, int argc, char** argv) {
  const char* c = proxy_text(argc, argv, "--class");
  if (c == NULL) c = "D";
  const char* letters = "SWABCDE";
  const long long sides[] = {12, 24, 64, 102, 162, 408, 1020};
  for (int k = 0; k < 7; ++k) {
    if (c[0] == letters[k] && c[1] == '\0') return sides[k];
  }
  proxy_refuse(name, "--class must be S, W, A, B, C, D or E");
  return 0;
}

static inline void proxy_finish(proxy_t* p) {
  proxy_t proxy = *p;
  double mine[2] = {MPI_Wtime() - proxy.start, proxy.comm};
  double most[2] = {0, 0};
  long long counts[2] = {proxy.messages, proxy.bytes};
  long long sums[2] = {0, 0};
  MPI_Reduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(counts, sums, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  long long* all = NULL;
  if (proxy.matrix != NULL && proxy.rank == 0)
    all = malloc((size_t)proxy.size * (size_t)proxy.size * sizeof(long long));
  if (proxy.matrix != NULL) {
    MPI_Gather(proxy.sent, proxy.size, MPI_LONG_LONG, all, proxy.size, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  }
  if (proxy.rank == 0) {
    if (all != NULL) {
      FILE* out = fopen(proxy.matrix, "w");
      if (out == NULL) {
        fprintf(stderr, "%s: %s: cannot be written\n", proxy.name, proxy.matrix);
      } else {
        fprintf(out, "%d\n", proxy.size);
        for (int i = 0; i < proxy.size; ++i) {
          for (int j = 0; j < proxy.size; ++j) {
            if (all[(size_t)i * (size_t)proxy.size + (size_t)j] > 0) {
              fprintf(out, "%d %d %lld\n", i, j, all[(size_t)i * (size_t)proxy.size + (size_t)j]);
            }
          }
        }
        if (fclose(out) != 0) fprintf(stderr, "%s: %s: write failed\n", proxy.name, proxy.matrix);
      }
      free(all);
    }
    printf("tmap-proxy: %s ranks %d time %.9e comm %.9e messages %lld bytes %lld\n", proxy.name, proxy.size, most[0],
           most[1], sums[0], sums[1]);
    fflush(stdout);
  }
  free(p->sent);
  free(p->env_argv);
  free(p->env_words);
  MPI_Finalize();
}

#endif
