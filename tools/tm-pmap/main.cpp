// tm-pmap: the ptscotch strategy, run under mpirun. Each process reads its
// share of a .coo traffic file, PT-Scotch maps the distributed graph onto
// the machine (SCOTCH_dgraphMap) and rank 0 writes the mapping:
//   mpirun -np 4 tm-pmap -t 'torus3D 64 64 16' -c job.coo --output job.perm
#include <fmt/format.h>
#include <mpi.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "cli.hpp"
#include "distributed/gathered_map.hpp"
#include "distributed/map_distributed.hpp"
#include "distributed/read_share.hpp"
#include "tmap/config.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/io.hpp"
#include "tmap/job.hpp"
#include "tmap/machine.hpp"
#include "tmap/report.hpp"
#include "tmap/topology.hpp"

namespace {

struct Options {
  /// The allocation options, read as tm-map reads them.
  tmap::cli::InputOptions in;
  std::string comm;
  std::int64_t oversub = 1;
  std::uint64_t seed = 0;
  std::string format = "perm";
  std::string program;  ///< --format hydra's program
  std::string rankfile_slots = "core";
  std::string preset = "default";
  std::string config;
  std::string objective;
  std::string output;
  bool quiet = false;
  /// auto: the job's order or its grid when better (as tm-map's default
  /// chooses); ptscotch: PT-Scotch's mapping alone.
  std::string strategy = "auto";
  /// auto: graphs up to this many symmetrised entries are gathered on
  /// process 0 for the sequential default.
  std::int64_t gather_entries = tmap::dist::kGatheredEntries;
};

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

/// FNV-1a over the text: the same on every process of one binary.
std::uint64_t fingerprint(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

/// Runs `check` on every process; if it fails anywhere, every process
/// throws the first failing process's InputError, so they fail together
/// with one message (a process alone in error would leave the others
/// waiting in the next collective).
void agree(const std::function<void()>& check) {
  std::string message;
  try {
    check();
  } catch (const tmap::Error& e) {  // input, parameter (an output path), unsupported, ...
    message = e.what();
    if (message.empty()) message = "input error";
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (!message.empty() && rank != 0) message = fmt::format("process {}: {}", rank, message);
  tmap::dist::agree_on_errors(MPI_COMM_WORLD, message);
}

/// Every process must have been given the same arguments (an MPMD launch
/// may differ): compared by fingerprint, and the first difference named.
void check_same_arguments(const std::vector<std::string>& args) {
  std::string joined;
  for (const auto& a : args) joined += a + '\0';
  const std::uint64_t mine = fingerprint(joined);
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  MPI_Allreduce(&mine, &low, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &high, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (low == high) return;
  // Rank 0's arguments to everyone; each process then knows whether it differs.
  int length = static_cast<int>(joined.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::string first = rank == 0 ? joined : std::string(static_cast<std::size_t>(length), '\0');
  MPI_Bcast(first.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  agree([&] {
    if (first == joined) return;
    std::vector<std::string> theirs;
    std::string item;
    for (const char c : first) {
      if (c == '\0') {
        theirs.push_back(item);
        item.clear();
      } else {
        item += c;
      }
    }
    std::size_t k = 0;
    while (k < args.size() && k < theirs.size() && args[k] == theirs[k]) ++k;
    const auto at = [](const std::vector<std::string>& v, std::size_t i) {
      return i < v.size() ? "'" + v[i] + "'" : std::string("nothing");
    };
    throw tmap::InputError(
        fmt::format("the processes were started with different arguments: argument {} is {} here and {} on process 0 "
                    "(every process must get the same machine, matrix and options)",
                    k + 1, at(args, k), at(theirs, k)));
  });
}

int run(const Options& o, int rank, int size) {
  const auto start = std::chrono::steady_clock::now();
  // Before any work: outputs that would destroy an input, or two outputs
  // on one file, or an output folder that is missing, fail everywhere.
  agree([&] {
    if (std::filesystem::path(o.comm).extension() == ".phases") {
      throw tmap::InputError(
          o.comm, "tm-pmap reads .coo: map the phases' sum (tm-gen convert --from " + o.comm + " --output FILE.coo)");
    }
    auto inputs = o.in.files();
    inputs.push_back(o.comm);
    tmap::cli::protect_inputs(inputs);
    tmap::cli::check_outputs({o.output == "-" ? std::string() : o.output});
  });
  // The machine, where ranks may go and the configuration, as tm-map's
  // job has them (the traffic stays in shares: no process reads it whole).
  auto spec = o.in.job_spec();
  spec.traffic = {};
  spec.allocation.oversubscription = o.oversub;
  spec.context.preset = o.preset;
  spec.context.config_file = o.config;
  spec.context.options.emplace_back("seed", std::to_string(o.seed));
  if (!o.objective.empty()) spec.context.options.emplace_back("objective", o.objective);
  spec.output.format = tmap::mapping_format_from_name(o.format);
  spec.output.slots = o.rankfile_slots == "pu" ? tmap::SlotKind::Pu : tmap::SlotKind::Core;
  spec.output.program = o.program;
  tmap::Job job(std::move(spec), rank == 0 ? tmap::cli::printed_notes() : tmap::NoteSink{});
  const auto* topology = &job.machine();
  const auto& constraints = job.constraints();
  const auto& context = job.context();
  const auto graph = tmap::dist::read_share(MPI_COMM_WORLD, o.comm);
  tmap::dist::DistributedStats stats;
  const auto mapping =
      o.strategy == "ptscotch"
          ? tmap::dist::map_ptscotch(MPI_COMM_WORLD, graph, *topology, constraints, context, &stats.halo)
          : tmap::dist::map_distributed(MPI_COMM_WORLD, graph, *topology, constraints, context, &stats,
                                        o.gather_entries);
  const auto hop_bytes = tmap::dist::distributed_hop_bytes(MPI_COMM_WORLD, graph, *topology, mapping);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double rss = peak_rss_mb();
  double rss_max = 0;
  double rss_sum = 0;
  MPI_Reduce(&rss, &rss_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&rss, &rss_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank != 0) return 0;
  tmap::ReportedMapping result;
  result.mapping = mapping;
  auto& report = result.report;
  report.strategy = "ptscotch";
  report.topology = topology->description();
  report.num_pes = topology->size();
  report.metrics.hop_bytes = hop_bytes;
  report.time_s = seconds;
  report.seed = o.seed;
  // Hosts, CPUs and the scheduler's order as tm-map writes them.
  job.prepare_output(result);
  const auto text = job.output(result);
  if (o.output.empty() || o.output == "-") {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      std::cerr << "tm-pmap: error: stdout: write failed\n";
      return 1;
    }
  } else {
    try {
      tmap::cli::emit(text, o.output);
    } catch (const tmap::Error& e) {
      std::cerr << "tm-pmap: error: " << e.what() << "\n";
      return tmap::cli::exit_code(e.kind());
    } catch (const std::exception& e) {
      std::cerr << "tm-pmap: error: " << e.what() << "\n";
      return 1;
    }
  }
  if (!o.quiet) {
    std::cerr << fmt::format("tm-pmap: {} ranks on {} ({} processes), strategy ptscotch{}\n", graph.n,
                             topology->description(), size, o.strategy == "ptscotch" ? "" : " (auto)");
    if (!stats.kept.empty()) std::cerr << fmt::format("tm-pmap: kept {}: {}\n", stats.kept, stats.why);
    if (stats.halo.before > 0) {
      std::cerr << fmt::format("tm-pmap: ptscotch refined across blocks: {} -> {} hop-bytes ({} round{}, {:.1f} s)\n",
                               stats.halo.before, stats.halo.after, stats.halo.rounds,
                               stats.halo.rounds == 1 ? "" : "s", stats.halo.seconds);
    }
    std::cerr << fmt::format(
        "tm-pmap: hop_bytes {}  time {:.3f} s  peak RSS per process {:.0f} MB (max), {:.0f} MB "
        "(all)\n",
        hop_bytes, seconds, rss_max, rss_sum);
  }
  return 0;
}

}  // namespace

/// auto and the strategy table's distributed rows (ptscotch).
std::vector<std::string> distributed_strategies() {
  std::vector<std::string> names{"auto"};
  for (const auto& row : tmap::strategy_table()) {
    if (row.has(tmap::kDistributed)) names.emplace_back(row.name);
  }
  return names;
}

/// Under mpirun every process parses the same arguments: only the first
/// says what is wrong (before MPI_Init, so that --help needs no MPI).
bool first_process() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
    if (const char* value = std::getenv(name)) return std::string(value) == "0";
  }
  return true;
}

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "tm-pmap: maps a traffic graph with PT-Scotch under mpirun (mpirun -np P tm-pmap -t MACHINE -c FILE.coo "
      "--output FILE); each process reads its share of the .coo and holds only its vertices' edges; rank 0 writes "
      "the whole mapping."};
  app.add_option("-t,--topology", o.in.topology, "Machine (as tm-map -t)")->required();
  app.add_option("--node", o.in.node_args, "What each node of a network holds (as tm-map's; repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--host-names", o.in.host_name_list, "The nodes of a network by name (as tm-map's)");
  app.add_option("--pes-per-node", o.in.pes_per_node, "PEs of one host of a bare tleaf (as tm-map's)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_option("-c,--comm", o.comm, "Traffic as .coo ('i j bytes' lines, optional first line n)")->required();
  auto* b = app.add_option("-b,--constraints", o.in.constraints_file, "File of allowed PE ids (as tm-map's)");
  auto* a =
      app.add_option("--alloc", o.in.alloc, "Allowed nodes: a Slurm host list or id ranges (as tm-map's)")->excludes(b);
  app.add_flag("--alloc-from-env", o.in.alloc_from_env, "Allowed nodes from SLURM_JOB_NODELIST (or PBS_NODEFILE)")
      ->excludes(b)
      ->excludes(a);
  app.add_option("--host-pattern", o.in.host_pattern, "Host name pattern (as tm-map's)");
  app.add_option("--hosts", o.in.hosts_file, "Host names in node order (as tm-map's)");
  app.add_option("-o,--oversub", o.oversub, "Ranks per PE")->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 24));
  app.add_option("--seed", o.seed, "Seed of libscotch's generator");
  app.add_option("--format", o.format, "Output format (as tm-map's: every one of them)")
      ->check(CLI::IsMember(tmap::mapping_format_names()));
  app.add_option("--program", o.program, "--format hydra: the program and its arguments, e.g. './app -x 4'");
  app.add_option("--rankfile-slots", o.rankfile_slots, "What a rankfile's slot= names: core or pu (as tm-map's)")
      ->check(CLI::IsMember({"core", "pu"}));
  app.add_option("-P,--preset", o.preset, "The configuration's preset (as tm-map's; the gathered mapping uses it)")
      ->check(CLI::IsMember(tmap::preset_names()));
  app.add_option("--config", o.config, "A configuration file (as tm-map's --config)");
  app.add_option("--objective", o.objective, "What the gathered mapping minimises (as tm-map's --objective)");
  app.add_option("--output", o.output, "Output file (whole or not at all; default stdout)");
  app.add_flag("-q,--quiet", o.quiet, "No summary on stderr");
  app.add_option("--gather-entries", o.gather_entries,
                 "auto: a graph of at most this many symmetrised entries (both directions of a pair) is gathered on "
                 "process 0 and gets the sequential default's mapping (default 4194304; 0: never, PT-Scotch where the "
                 "graph lives, faster where libscotch is slow on the whole machine)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 40));
  app.add_option("-s,--strategy", o.strategy,
                 "auto (default): the job's own order or its stencil grid when either is better or optimal, else "
                 "the sequential default on the gathered graph (up to --gather-entries) or PT-Scotch's mapping "
                 "refined across block borders; ptscotch: PT-Scotch's mapping alone")
      ->check(CLI::IsMember(distributed_strategies()));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return first_process() ? app.exit(e) : 0;  // --help, --version
    if (first_process()) (void)app.exit(e);
    return 2;
  }
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = 0;
  try {
    check_same_arguments(std::vector<std::string>(argv + 1, argv + argc));
    if (o.format == "hydra" && o.program.empty()) {  // before any work, on every process alike
      throw tmap::ParameterError(
          "--format hydra writes a Hydra -configfile and needs the program: give --program 'CMD ARGS'");
    }
    code = run(o, rank, size);
  } catch (const tmap::Error& e) {
    if (e.kind() == tmap::ErrorKind::Internal) {
      std::cerr << "tm-pmap: internal error (process " << rank << "): " << e.what() << "\n";
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    // Input errors are agreed by every process (the same message).
    if (rank == 0) std::cerr << "tm-pmap: error: " << e.what() << "\n";
    code = tmap::cli::exit_code(e.kind());
  } catch (const std::exception& e) {
    std::cerr << "tm-pmap: error (process " << rank << "): " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 1);  // the others may wait in a collective
  }
  MPI_Finalize();
  return code;
}
