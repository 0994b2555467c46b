// What the tm-* tools share: error handling with the contract's exit codes,
// output written whole to stdout or a file, and the common input options.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "tmap/job.hpp"
#include "tmap/launch.hpp"
#include "tmap/tmap.hpp"

namespace tmap::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
/// Invalid input or parameter, unsupported request, over a limit (the
/// message says which file, option or limit).
inline constexpr int kExitInput = 2;
/// The system failed (a write error, out of memory): nothing was written.
inline constexpr int kExitSystem = 4;
/// A partial result: Ctrl-C (SIGINT) or SIGTERM stopped the run and the best
/// mapping found by then was written (JSON "partial": true).
inline constexpr int kExitPartial = 3;
/// Interrupted before any result existed: nothing written (128 + SIGINT,
/// as a shell reports a program Ctrl-C ended).
inline constexpr int kExitInterrupted = 130;

/// Prints "TOOL: note: MESSAGE" on stderr (what a user must know about an
/// input tmap adjusted).
void note(const std::string& message);

/// A job's note sink that prints each note as note() does.
[[nodiscard]] NoteSink printed_notes();

/// The whole text of an input file (bounded; InputError naming it).
[[nodiscard]] std::string read_text(const std::string& path);

/// The exit code of an error's category (tmap/error.hpp's table).
[[nodiscard]] int exit_code(ErrorKind kind) noexcept;

/// Runs a tool body: parses with CLI11 and maps every error to a message on
/// stderr ("NAME: error: ...") and the contract's exit code.
int run(const char* name, CLI::App& app, int argc, char** argv, const std::function<int()>& body);

/// Validators that read an option's text strictly, before CLI11 converts it
/// (CLI11 alone saturates 2^64 and lets NaN through a range): a whole number
/// in [lo, hi] written in decimal, or a finite real number in [lo, hi].
[[nodiscard]] CLI::Validator whole_number(std::int64_t lo, std::int64_t hi);
[[nodiscard]] CLI::Validator unsigned_number();
[[nodiscard]] CLI::Validator real_number(double lo, double hi);

/// Most ranks one PE may hold (-o): as many as a job may have ranks.
inline constexpr std::int64_t kMaxOversubscription = kMaxRanks;
/// Most threads -p accepts; the library uses at most the machine's.
inline constexpr std::int64_t kMaxThreads = 4096;

/// An option naming a file: refuses an empty name (`--output ''` would
/// otherwise mean standard output silently).
[[nodiscard]] CLI::Validator file_name();

/// Checks every output path given (empty ones are standard output) before
/// any work, so a run that cannot write fails first and writes nothing.
void check_outputs(const std::vector<std::string>& paths);

/// Registers the files a run reads: emit() then refuses to write over any
/// of them (`--output comm.mat` would destroy the input).
void protect_inputs(const std::vector<std::string>& paths);

/// Writes to stdout, or to `path` atomically when it is not empty.
void emit(const std::string& content, const std::string& path);

/// A communication-matrix input with its format and, for Open MPI
/// monitoring output, which lines count (tm-map, tm-eval, tm-gen convert).
struct CommInput {
  std::string path;
  std::string format;
  MonitoringSelection monitoring;
  std::string monitoring_count = "bytes";
  std::string weights;

  /// `names`: the option's flags, e.g. "-c,--comm".
  void add_to(CLI::App& app, const std::string& names);
  [[nodiscard]] CommMatrix load() const;
  /// As a job's traffic source.
  [[nodiscard]] TrafficSource source() const;
  /// Whether it names Open MPI monitoring output (a prefix, one of its
  /// files, their folder, or --comm-format prof).
  [[nodiscard]] bool is_monitoring() const;
  /// The files it reads (every rank file of monitoring output).
  [[nodiscard]] std::vector<std::string> files() const;
};

/// Options naming the inputs shared by tm-map, tm-eval, tm-sim and
/// tm-pmap: the tool's flags, translated into a JobSpec (tmap/job.hpp),
/// whose Job assembles the machine, the traffic and where ranks may go.
struct InputOptions {
  std::string topology;
  std::string hwloc_xml;
  /// --node (repeatable: SPEC for every node, HOSTS=SPEC for some) and
  /// --host-names: a network's nodes (tmap::MachineSpec).
  std::vector<std::string> node_args;
  std::string host_name_list;
  CommInput comm;
  std::string constraints_file;
  std::optional<std::string> alloc;
  std::string host_pattern;
  std::string hosts_file;
  bool alloc_from_env = false;
  std::int64_t oversub = 1;
  std::optional<double> imbalance;
  /// --cpus-per-rank (over SLURM_CPUS_PER_TASK), --het-group.
  std::optional<std::int64_t> cpus_per_rank;
  std::optional<int> het_group;
  /// --pes-per-node: which level of a tleaf is a host.
  std::optional<std::int64_t> pes_per_node;
  std::string pe;

  void add_to(CLI::App& app);
  /// --node's node for every node (empty: none given); ParameterError when
  /// two are given without hosts.
  [[nodiscard]] std::string default_node() const;
  /// --node HOSTS=SPEC: (host list, node) pairs.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> nodes_by_hosts() const;
  /// The job these flags describe (machine, traffic, allocation), in
  /// tm-map's words.
  [[nodiscard]] JobSpec job_spec() const;
  /// The files named by these options that exist (for protect_inputs).
  [[nodiscard]] std::vector<std::string> files() const;
  /// Was a machine given: -t, -x, or the scheduler's (--alloc-from-env
  /// with neither: Slurm's switch tree, each node as hwloc sees this one)?
  [[nodiscard]] bool has_topology() const { return !topology.empty() || !hwloc_xml.empty() || alloc_from_env; }
  [[nodiscard]] bool has_constraints() const {
    return !constraints_file.empty() || alloc.has_value() || alloc_from_env;
  }
};

/// Checks a mapping read from `file` against the problem it claims to solve:
/// one PE per rank, PEs inside the topology, and (when given) the allowed
/// PEs and capacities. InputError naming the file otherwise.
/// `matrix` names the communication matrix in the message.
void check_mapping_file(const Mapping& mapping, const std::string& file, Rank ranks, const std::string& matrix,
                        const Topology& topology, const Constraints* constraints);

/// --link-bw and --link-loads, shared by tm-map and tm-eval.
struct RoutingOptions {
  std::string bandwidths;
  std::string loads_file;

  void add_to(CLI::App& app);
  /// InputError when --link-loads asks for the loads of a machine without
  /// routes (the job's routing(), which has the --link-bw bandwidths).
  void check(const Topology& topology, const RoutingModel* routing) const;
  /// Writes --link-loads when asked.
  void write_loads(const RoutingModel* routing, const std::optional<RouteMetrics>& metrics) const;
};

/// The link metrics as text lines ("th 20\nwh 100\n...").
[[nodiscard]] std::string route_metrics_text(const RouteMetrics& m);

}  // namespace tmap::cli
