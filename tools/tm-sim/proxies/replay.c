/* The user's own job, replayed from its traffic: tm-sim writes the
 * matrix of -c (bytes per pair and, from Open MPI monitoring output, the
 * messages that carried them) into the run's folder as `replay.txt`, and
 * every rank sends what its row says.
 *
 * Order and overlap. An iteration (--iterations K, default 1) is P phases.
 * A traffic in phases (a .phases file) gives them: its phases one after
 * another, each run REPEAT times, each run one message of the phase's
 * bytes per pair. Otherwise P is the most messages any pair recorded (1
 * for a plain matrix) and a pair's messages spread evenly over the
 * iteration, as an application's time steps repeat the same exchange. A
 * pair's m messages over the S phases from F: the j-th goes in phase
 * F + floor(j S / m). In a phase each rank posts the receives it expects
 * (by source rank), then its sends (by destination), then waits for them;
 * it moves to the next phase when its own messages are done (no barrier).
 * So with a plain matrix an iteration is one round of the whole matrix,
 * every message in flight at once (as --simulate), and with recorded
 * counts or phases a sequence of smaller rounds. What a matrix does not
 * record (which messages wait for which, computation) is not there. A pair's
 * bytes are split evenly over its messages (the remainder on the first);
 * messages above 1 GiB are split further (MPI counts are ints).
 *
 * replay.txt: a line "tmap-replay 3 <ranks> <phases>", then <ranks> lines
 * of 20 digits and a newline, rank r's section's byte offset in the file;
 * a section is "<rank> <sends> <receives>" then a line "<peer> <bytes>
 * <messages> <first phase> <phases>" per send and per receive. Each rank
 * reads its own section only. Buffers are SMPI's shared memory (SMPI_SHARED_MALLOC): the bytes
 * are timed, not stored. */
#include "proxy.h"

#define REPLAY_OFFSET_DIGITS 20
#define REPLAY_MOST_BYTES (1LL << 30)

typedef struct {
  int peer;
  long long bytes, messages, first, span;
} replay_pair_t;

/* Reads n "<peer> <bytes> <messages> <first> <span>" lines; refuses what
 * tm-sim would not write. */
static replay_pair_t* replay_read_pairs(FILE* in, long long n, int size, long long phases) {
  replay_pair_t* pairs = malloc((size_t)(n > 0 ? n : 1) * sizeof *pairs);
  if (pairs == NULL) proxy_refuse("replay", "out of memory");
  for (long long k = 0; k < n; ++k) {
    if (fscanf(in, "%d %lld %lld %lld %lld", &pairs[k].peer, &pairs[k].bytes, &pairs[k].messages, &pairs[k].first,
               &pairs[k].span) != 5 ||
        pairs[k].peer < 0 || pairs[k].peer >= size || pairs[k].bytes < 0 || pairs[k].messages < 1 ||
        pairs[k].first < 0 || pairs[k].span < 1 || pairs[k].first + pairs[k].span > phases) {
      proxy_refuse("replay", "replay.txt: a malformed pair line");
    }
  }
  return pairs;
}

/* Messages a pair's bytes travel in: its recorded count, more where one
 * would pass REPLAY_MOST_BYTES (phases then hold several). */
static long long replay_messages(const replay_pair_t* pair) {
  const long long least = (pair->bytes + REPLAY_MOST_BYTES - 1) / REPLAY_MOST_BYTES;
  return pair->messages > least ? pair->messages : least;
}

/* The size of message k of a pair's m (the remainder on the first). */
static long long replay_size(const replay_pair_t* pair, long long m, long long k) {
  return pair->bytes / m + (k == 0 ? pair->bytes % m : 0);
}

/* Posts the messages of `pairs` due in `phase` (next[k]: the pair's next
 * message); returns the new request count. */
static int replay_post(proxy_t* p, replay_pair_t* pairs, long long n, long long* next, long long phase, int sending,
                       char* buffer, MPI_Request* requests, int count) {
  for (long long k = 0; k < n; ++k) {
    const long long m = replay_messages(&pairs[k]);
    /* Message j goes in phase F + floor(j S / m); several when m > S. */
    while (next[k] < m && pairs[k].first + (next[k] * pairs[k].span) / m <= phase) {
      const long long size = replay_size(&pairs[k], m, next[k]);
      if (sending) {
        proxy_sent(p, pairs[k].peer, size);
        MPI_Isend(buffer, (int)size, MPI_CHAR, pairs[k].peer, 3, MPI_COMM_WORLD, &requests[count++]);
      } else {
        MPI_Irecv(buffer, (int)size, MPI_CHAR, pairs[k].peer, 3, MPI_COMM_WORLD, &requests[count++]);
      }
      ++next[k];
    }
  }
  return count;
}

int main(int argc, char** argv) {
  static const char* const keys[] = {"--traffic", "--iterations", NULL};
  proxy_t proxy;
  proxy_init(&proxy, "replay", &argc, &argv, keys);
  const char* path = proxy_text(argc, argv, "--traffic");
  if (path == NULL) path = "replay.txt";
  const long long iterations = proxy_arg("replay", argc, argv, "--iterations", 1, 1, 1000000);
  FILE* in = fopen(path, "r");
  if (in == NULL) proxy_refuse("replay", "replay.txt: cannot be read (tm-sim writes it from -c)");
  int ranks = 0;
  long long phases = 0;
  if (fscanf(in, "tmap-replay 3 %d %lld", &ranks, &phases) != 2 || ranks != proxy.size || phases < 1) {
    proxy_refuse("replay", "replay.txt: not the traffic of this many ranks");
  }
  const long header = ftell(in) + 1; /* the newline after the first line */
  long long offset = 0;
  if (fseek(in, header + (long)proxy.rank * (REPLAY_OFFSET_DIGITS + 1), SEEK_SET) != 0 ||
      fscanf(in, "%lld", &offset) != 1 || fseek(in, (long)offset, SEEK_SET) != 0) {
    proxy_refuse("replay", "replay.txt: no section for this rank");
  }
  int rank = -1;
  long long n_sends = 0, n_receives = 0;
  if (fscanf(in, "%d %lld %lld", &rank, &n_sends, &n_receives) != 3 || rank != proxy.rank || n_sends < 0 ||
      n_receives < 0) {
    proxy_refuse("replay", "replay.txt: a malformed section");
  }
  replay_pair_t* sends = replay_read_pairs(in, n_sends, proxy.size, phases);
  replay_pair_t* receives = replay_read_pairs(in, n_receives, proxy.size, phases);
  fclose(in);

  /* The most requests one phase can hold, and the largest message. */
  long long most_requests = 0, largest = 1;
  for (long long k = 0; k < n_sends + n_receives; ++k) {
    const replay_pair_t* pair = k < n_sends ? &sends[k] : &receives[k - n_sends];
    const long long m = replay_messages(pair);
    most_requests += (m + pair->span - 1) / pair->span;
    if (replay_size(pair, m, 0) > largest) largest = replay_size(pair, m, 0);
  }
  MPI_Request* requests = malloc((size_t)(most_requests > 0 ? most_requests : 1) * sizeof(MPI_Request));
  long long* next = calloc((size_t)(n_sends + n_receives + 1), sizeof(long long));
  char* buffer = SMPI_SHARED_MALLOC((size_t)largest);
  if (requests == NULL || next == NULL || buffer == NULL) proxy_refuse("replay", "out of memory");
  for (long long it = 0; it < iterations; ++it) {
    memset(next, 0, (size_t)(n_sends + n_receives + 1) * sizeof(long long));
    for (long long phase = 0; phase < phases; ++phase) {
      int count = replay_post(&proxy, receives, n_receives, next + n_sends, phase, 0, buffer, requests, 0);
      count = replay_post(&proxy, sends, n_sends, next, phase, 1, buffer, requests, count);
      if (count > 0) PROXY_COMM(&proxy, MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
    }
  }
  SMPI_SHARED_FREE(buffer);
  free(next);
  free(requests);
  free(sends);
  free(receives);
  proxy_finish(&proxy);
  return 0;
}
