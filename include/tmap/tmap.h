/* tmap C API: topology-aware process mapping for runtimes and applications.
 *
 * Plain C, opaque handles, status codes. Every function that can fail
 * returns a tmap_status and, when `error` is not NULL, stores a message the
 * caller owns and frees with tmap_string_free (NULL on success). No C++
 * exception crosses this boundary.
 *
 * Ownership: every *_create / *_load / tmap_map result is owned by the
 * caller and freed with the matching *_free (NULL is accepted and ignored).
 * Inputs are copied: arrays passed in may be freed right after the call.
 *
 * Thread safety: handles are immutable once created. Any number of threads
 * may use the same topology, matrix, constraints and options handles at
 * once, including in concurrent tmap_map calls; a result belongs to one
 * thread at a time. Results do not depend on the thread count.
 */
#ifndef TMAP_TMAP_H
#define TMAP_TMAP_H
/* A C header: C's typedefs, <stdint.h> and snake_case type names, not C++'s. */
/* NOLINTBEGIN(modernize-use-using,modernize-deprecated-headers,readability-identifier-naming) */

#include <stdint.h>

#include "tmap/export.h"

TMAP_API_BEGIN

#ifdef __cplusplus
extern "C" {
#endif

/* One status per error category (tmap/error.hpp). */
typedef enum tmap_status {
  TMAP_OK = 0,
  TMAP_ERROR_INTERNAL = 1,                   /* a bug: please report */
  TMAP_ERROR_INPUT = 2,                      /* bad input data (a file, a matrix): the message names it */
  TMAP_ERROR_PARAMETER = 3,                  /* a NULL handle, an argument out of range, a bad option value */
  TMAP_ERROR_UNSUPPORTED = 4,                /* valid, but this strategy, machine or build cannot do it */
  TMAP_ERROR_RESOURCE = 5,                   /* over a bound tmap keeps (a table's memory, 64-bit sums) */
  TMAP_ERROR_SYSTEM = 6,                     /* the system failed: out of memory, a write error */
  TMAP_ERROR_ARGUMENT = TMAP_ERROR_PARAMETER /* the name before 0.2 */
} tmap_status;

typedef struct tmap_topology tmap_topology;
typedef struct tmap_comm tmap_comm;
typedef struct tmap_constraints tmap_constraints;
typedef struct tmap_options tmap_options;
typedef struct tmap_result tmap_result;
typedef struct tmap_job tmap_job;

/* "MAJOR.MINOR.PATCH" of the library. */
const char* tmap_version(void);
/* Frees a message returned through an `error` argument. */
void tmap_string_free(char* message);

/* ---- Topologies ---------------------------------------------------------- */
/* What tm-map's -t takes: a Scotch .tgt file, an inline Scotch target
 * ("mesh2D 8 8"), a built-in spec ("tianhe3:4x4,cores=64"), a .dist file or
 * an hwloc .xml file. */
tmap_status tmap_topology_load(const char* spec, tmap_topology** out, char** error);
/* An hwloc XML file (lstopo's output), as TopoMatch's -x. */
tmap_status tmap_topology_load_hwloc_xml(const char* path, tmap_topology** out, char** error);
/* Inside a batch job, the machine it runs on: Slurm's switch tree
 * (topology/tree, from slurmctld or the topology.conf beside slurm.conf),
 * else the job's nodes under one switch; each node `node` (an hwloc
 * synthetic string or lstopo XML, as tm-map --node; NULL = this node as
 * hwloc sees it). TMAP_ERROR_INPUT outside a job. */
tmap_status tmap_topology_from_scheduler(const char* node, tmap_topology** out, char** error);
int64_t tmap_topology_size(const tmap_topology* topology);
int64_t tmap_topology_distance(const tmap_topology* topology, int64_t a, int64_t b);
void tmap_topology_free(tmap_topology* topology);

/* ---- Communication matrices (A[i][j] = bytes rank i sends to rank j) ------ */
/* Most ranks a matrix may have (2^24), and most a dense one may have (2^16:
 * n^2 entries are read). Larger n gives TMAP_ERROR_ARGUMENT before any
 * array is read. */
#define TMAP_MAX_RANKS (INT64_C(1) << 24)
#define TMAP_MAX_DENSE_RANKS (INT64_C(1) << 16)

/* CSR: row i holds columns[row_begin[i] .. row_begin[i+1]) with volumes;
 * any order, duplicates summed, diagonal ignored, volumes >= 0. */
tmap_status tmap_comm_from_csr(int64_t n, const int64_t* row_begin, const int64_t* columns, const int64_t* volumes,
                               tmap_comm** out, char** error);
/* Dense, row-major n x n. */
tmap_status tmap_comm_from_dense(int64_t n, const int64_t* matrix, tmap_comm** out, char** error);
/* Dense affinities as doubles (TopoMatch's affinity matrix): finite and
 * >= 0; scaled uniformly to integers (the largest becomes 2^40), which
 * leaves every mapping decision unchanged. Metrics are then in those units. */
tmap_status tmap_comm_from_dense_double(int64_t n, const double* matrix, tmap_comm** out, char** error);
/* A file in any tm-map format; `format` NULL = from the extension. */
tmap_status tmap_comm_load(const char* path, const char* format, tmap_comm** out, char** error);
int64_t tmap_comm_ranks(const tmap_comm* comm);
void tmap_comm_free(tmap_comm* comm);

/* ---- Constraints ---------------------------------------------------------- */
/* Allowed PEs (`pes` NULL = all of them) with `oversubscription` ranks each;
 * a negative `count` is TMAP_ERROR_ARGUMENT. */
tmap_status tmap_constraints_create(const tmap_topology* topology, const int64_t* pes, int64_t count,
                                    int64_t oversubscription, tmap_constraints** out, char** error);
/* The PEs of a scheduler's allocation: `nodes` a Slurm host list
 * ("cn[01-04]", the machine's host names) or node ids ("0-3"), NULL = the
 * job's own (SLURM_JOB_NODELIST and the CPUs Slurm gave it, else
 * PBS_NODEFILE; TMAP_ERROR_INPUT outside a job). Every PE of those nodes,
 * or of the CPUs the job holds there, `oversubscription` ranks each. The
 * constraints keep the hosts' spelling for tmap_launch_file. */
tmap_status tmap_constraints_from_allocation(const tmap_topology* topology, const char* nodes, int64_t oversubscription,
                                             tmap_constraints** out, char** error);
void tmap_constraints_free(tmap_constraints* constraints);

/* ---- Options (all optional; defaults: seed 0, 1 thread) ------------------- */
tmap_options* tmap_options_create(void);
void tmap_options_set_seed(tmap_options* options, uint64_t seed);
/* Any option by key, as tm-map's --KEY VALUE takes it: the run's ("strategy",
 * "seed", "threads", "refine", "refine-iters", "time-limit", "objective",
 * "link-bw") and
 * each strategy's ("ohtma-loop", "sparse-factor", "tau", ...: the strategy
 * table lists them; tmap/config.hpp's context_options() all of them).
 * TMAP_ERROR_PARAMETER naming the key for an unknown key, a bad value or
 * NULL arguments. */
tmap_status tmap_options_set(tmap_options* options, const char* key, const char* value, char** error);
/* tm-map's configuration path: a preset ("fast", "default", "quality", as
 * -P; it replaces every option), then a config file tm-map --dump-config
 * saved (read over the current options, as --config). The mapping is then
 * tm-map's with the same preset and file. */
tmap_status tmap_options_set_preset(tmap_options* options, const char* name, char** error);
tmap_status tmap_options_load_config(tmap_options* options, const char* path, char** error);
void tmap_options_set_threads(tmap_options* options, int threads);
/* Deprecated: tmap_options_set(o, "ohtma-loop", "N", &err) sets it (and
 * says why a value is refused); kept for programs built against 0.1. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((deprecated("use tmap_options_set(options, \"ohtma-loop\", value, &error)")))
#endif
void tmap_options_set_ohtma_loop(tmap_options* options, int64_t loop);
/* Refinement after the strategy: "none", "swap", "tabu" or "multilevel" (tm-map --refine);
 * iterations < 0 = the default budget. TMAP_ERROR_PARAMETER for another kind. */
tmap_status tmap_options_set_refine(tmap_options* options, const char* kind, int64_t iterations, char** error);
/* Progress of a run, as the C++ RunHooks::progress reports it. The strings
 * are valid during the call only. */
typedef struct tmap_progress {
  const char* stage;  /* a strategy's name, "best", "refine swap", "refine tabu" */
  const char* detail; /* one line of text */
  double fraction;    /* 0..1 when known, else -1 */
  int64_t hop_bytes;  /* the best mapping's so far, when known, else -1 */
  double elapsed_s;   /* since tmap_map started */
  int done;           /* nonzero when the stage ended */
} tmap_progress;
/* Called from the mapping's thread as the run goes; return 0 to stop it: it
 * ends at its next step with the best mapping found so far (a valid one;
 * tmap_result_partial says so). NULL = no reports. */
typedef int (*tmap_progress_callback)(const tmap_progress* progress, void* user_data);
void tmap_options_set_progress(tmap_options* options, tmap_progress_callback callback, void* user_data);
void tmap_options_free(tmap_options* options);

/* Number of strategies and their names ("scotch", "ohtma", ...). */
int tmap_strategy_count(void);
const char* tmap_strategy_name(int index);

/* ---- Mapping ------------------------------------------------------------- */
/* Maps with `strategy` (NULL = the options' "strategy", by default auto); `constraints` NULL = every PE
 * once; `options` NULL = defaults. */
tmap_status tmap_map(const tmap_topology* topology, const tmap_comm* comm, const tmap_constraints* constraints,
                     const char* strategy, const tmap_options* options, tmap_result** out, char** error);
/* Improves a mapping made elsewhere (start[rank] = PE, n = tmap_comm_ranks(comm) entries, e.g. an
 * earlier result or another mapper's) by the stages that follow a strategy: the options' refinement
 * (multilevel unless one was set with tmap_options_set_refine or the "refine" key), then the
 * options' objective; never worse. TMAP_ERROR_INPUT when start breaks the constraints. */
tmap_status tmap_refine(const tmap_topology* topology, const tmap_comm* comm, const tmap_constraints* constraints,
                        const int64_t* start, int64_t n, const tmap_options* options, tmap_result** out, char** error);
int64_t tmap_result_ranks(const tmap_result* result);
/* sigma[rank] = PE, tmap_result_ranks() entries, valid until the result is freed. */
const int64_t* tmap_result_mapping(const tmap_result* result);
int64_t tmap_result_hop_bytes(const tmap_result* result);
double tmap_result_avg_hops(const tmap_result* result);
int64_t tmap_result_max_com(const tmap_result* result);
double tmap_result_time(const tmap_result* result);
/* Nonzero when the progress callback stopped the run (the mapping is the best found by then). */
int tmap_result_partial(const tmap_result* result);
void tmap_result_free(tmap_result* result);

/* ---- Launcher files -------------------------------------------------------- */
/* The file a launcher reads to start `result`'s ranks where they were mapped:
 * `format` "rankfile" (Open MPI), "hostfile", "machinefile" (MPICH) or
 * "hydra" (a Hydra -configfile; `program` the program and its arguments).
 * Hosts and CPUs are the allocation's where `constraints` came from one
 * (NULL = the machine's own names); on CPUs a scheduler gave, ranks of one
 * node may trade PEs of equal cost so that srun's order binds them as
 * written, as tm-map does. *text is owned by the caller
 * (tmap_string_free), as tm-map --format FORMAT would write it. */
tmap_status tmap_launch_file(const tmap_topology* topology, const tmap_result* result,
                             const tmap_constraints* constraints, const char* format, const char* program, char** text,
                             char** error);

/* ---- Jobs ------------------------------------------------------------------ */
/* A whole job as tm-map's command line gives it, field by field: the same
 * machine, allocation, configuration and output, assembled by the library as
 * for tm-map, so the mapping and the launcher file are tm-map's. Keys are
 * tm-map's flags without "--": machine (-t), hwloc-xml (-x), node (repeatable;
 * entries between ';'), host-names, hosts, host-pattern, pes-per-node, pe
 * (cpu or gpu), comm
 * (a file; or tmap_job_set_comm), comm-format, alloc (a host list or id
 * ranges), alloc-from-env ("1": the scheduler's allocation), constraints (a
 * file of PE ids), oversubscription (-o), cpus-per-rank, het-group, preset,
 * config, strategy (NAME[:REFINE]), format (perm, json, rankfile, hostfile,
 * machinefile, hydra, ...), slots (core or pu: --rankfile-slots), program,
 * and every option key tmap_options_set takes (seed, objective, refine, ...).
 * TMAP_ERROR_PARAMETER naming the key for an unknown key or a bad value;
 * the machine and traffic are read at tmap_job_run. A job is used by one
 * thread at a time. */
tmap_job* tmap_job_create(void);
tmap_status tmap_job_set(tmap_job* job, const char* key, const char* value, char** error);
/* The traffic from a matrix in memory (copied), instead of "comm". */
tmap_status tmap_job_set_comm(tmap_job* job, const tmap_comm* comm, char** error);
/* Maps the job (tm-map's run): the result holds its mapping, figures and report. */
tmap_status tmap_job_run(tmap_job* job, tmap_result** out, char** error);
/* What tm-map --format FORMAT writes for `result` (the job's "format"):
 * hosts, CPUs and the scheduler's order as tm-map writes them. *text is
 * owned by the caller (tmap_string_free). */
tmap_status tmap_job_output(tmap_job* job, const tmap_result* result, char** text, char** error);
void tmap_job_free(tmap_job* job);

/* ---- TopoMatch-style one call ---------------------------------------------- */
/* What a TopoMatch caller has at hand: a topology file, an n x n affinity
 * matrix of doubles (row-major), binding constraints (allowed PE ids, NULL
 * for none) and an oversubscription factor. Writes sigma[rank] = PE into
 * `sigma` (n entries). `strategy` NULL = the default. */
tmap_status tmap_topomatch(const char* topology_file, const double* affinity, int64_t n, const int64_t* constraints,
                           int64_t constraint_count, int64_t oversubscription, const char* strategy, int64_t* sigma,
                           char** error);

#ifdef __cplusplus
}
#endif

TMAP_API_END

/* NOLINTEND(modernize-use-using,modernize-deprecated-headers,readability-identifier-naming) */
#endif /* TMAP_TMAP_H */
