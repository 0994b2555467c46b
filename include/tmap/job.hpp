// One door: a mapping job as every front end describes it (tmap::JobSpec)
// and the library's assembly of it (tmap::Job). tm-map, tm-pmap, tm-eval,
// tm-sim, the C API, the Python module and the MPI layer each translate
// their own words (flags, arguments, TMAP_* variables) into a JobSpec and
// ask the Job for the machine, the traffic, where ranks may go, the
// configuration, the run and the launcher file: one assembly, so the same
// job gives the same mapping and the same rankfile through every door.
// Errors come back in the front end's words (JobWords).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tmap/allocation.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/compare.hpp"
#include "tmap/export.h"
#include "tmap/io.hpp"
#include "tmap/launch.hpp"
#include "tmap/mapper.hpp"
#include "tmap/report.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"

TMAP_API_BEGIN

namespace tmap {

/// What a front end calls each field of a job, for its messages. The
/// library's messages are written in tm-map's words (the defaults); a Job
/// says them in these.
struct JobWords {
  std::string topology = "-t";
  std::string node = "--node";
  std::string host_names = "--host-names";
  std::string hosts_file = "--hosts";
  std::string host_pattern = "--host-pattern";
  std::string alloc = "--alloc";
  std::string scheduler = "--alloc-from-env";
  std::string constraints = "--constraints";
  std::string oversubscription = "-o";
  std::string imbalance = "--imbalance";
  std::string cpus_per_rank = "--cpus-per-rank";
  std::string pes_per_node = "--pes-per-node";
  std::string het_group = "--het-group";
  std::string pe = "--pe";
  /// How a configuration option KEY is named: --KEY (flags), KEY (a
  /// keyword argument) or TMAP_KEY (topo_tmap_key) (variables).
  enum class Options { Flags, Arguments, Variables };
  Options options = Options::Flags;

  /// tm-map's flags (the defaults).
  [[nodiscard]] static JobWords flags() { return {}; }
  /// The Python module's arguments (machine=, node=, host_names=, ...).
  [[nodiscard]] static JobWords python();
  /// The MPI layer's variables and Open MPI's parameters (TMAP_TOPOLOGY
  /// (topo_tmap_topology), ...).
  [[nodiscard]] static JobWords mpi();
  /// `message` (a library error) in these words.
  [[nodiscard]] std::string say(std::string message) const;
  /// The word for a field's key (set_job_field's: "machine" is -t,
  /// machine, TMAP_TOPOLOGY (topo_tmap_topology)), else option(key).
  [[nodiscard]] std::string field(std::string_view key) const;
  /// The word for configuration option `key` ("--seed", "seed", "TMAP_SEED (topo_tmap_seed)").
  [[nodiscard]] std::string option(std::string_view key) const;
};

/// The machine: a -t value (or an hwloc XML file), what a network's nodes
/// hold (each SPEC, or HOSTS=SPEC for some), their host names, a hosts file
/// or pattern that reads host names, and which PEs make a host of a tleaf.
/// With nothing given and a scheduler allocation, the scheduler's machine.
struct MachineSource {
  std::string topology;
  std::string hwloc_xml;
  std::vector<std::string> nodes;
  std::string host_names;
  std::string hosts_file;
  std::string host_pattern;
  std::optional<std::int64_t> pes_per_node;
  /// What a PE is: "" or "cpu" (the nodes' PUs), "gpu" (their GPUs).
  std::string pe;
  /// A machine already built (Python's tmap.Machine): used as it is.
  std::shared_ptr<const Topology> built;
};

/// The traffic: a file (any -c format, Open MPI monitoring output) or a
/// matrix already in memory.
struct TrafficSource {
  std::string path;
  std::string format;  ///< a comm_format_names() name; empty: told by the path
  MonitoringSelection monitoring;
  std::optional<CommMatrix> matrix;
  /// A file of the ranks' weights (read_rank_weights), replacing any the
  /// traffic carries; empty: the traffic's own (a graph's vertex loads).
  std::string weights;
  /// The ranks' weights given in memory (Python's weights=), in rank
  /// order: replace the traffic's and the file's. Empty: none given.
  std::vector<Volume> weight_values;
};

/// Where ranks may go: everywhere, the nodes of a host list or id ranges,
/// the scheduler's allocation (Slurm's, PBS's), a file of PE ids, or PE ids
/// given; with `oversubscription` ranks per PE, or balanced by load
/// (`imbalance`: Constraints::balanced, -o's K then a count cap when above 1).
struct AllocationSource {
  enum class Kind { Everywhere, Hosts, Scheduler, PeFile, Pes };
  Kind kind = Kind::Everywhere;
  std::string hosts;    ///< Hosts: "cn[01-04]" or "0-3"
  std::string pe_file;  ///< PeFile: white-space separated PE ids
  std::vector<PE> pes;  ///< Pes
  std::int64_t oversubscription = 1;
  std::optional<double> imbalance;
  std::optional<std::int64_t> cpus_per_rank;
  std::optional<int> het_group;  ///< Scheduler: one group of a heterogeneous job
};

/// The configuration, as tm-map builds it: a preset, then a config file,
/// then each option by key (config.hpp's keys: strategy, seed, objective,
/// refine, ... and each strategy's), then the strategy as NAME[:REFINE].
struct ContextSource {
  std::string preset;
  std::string config_file;
  std::vector<std::pair<std::string, std::string>> options;
  std::string strategy;  ///< NAME[:REFINE]; empty: the configuration's
  /// The Context itself, when a front end built it (the C API's options):
  /// replaces preset and config file; `options` and `strategy` go on top.
  std::optional<Context> base;
};

/// What a launcher file's slot names: the logical core (Open MPI's
/// default) or the hardware thread (mpirun --use-hwthread-cpus).
enum class SlotKind { Core, Pu };

struct OutputSpec {
  MappingFormat format = MappingFormat::Perm;
  SlotKind slots = SlotKind::Core;
  std::string program;  ///< --format hydra's program and arguments
};

struct JobSpec {
  MachineSource machine;
  TrafficSource traffic;
  AllocationSource allocation;
  ContextSource context;
  OutputSpec output;
  JobWords words;
};

/// The traffic of `source`: its matrix, or its file read as tm-map's -c
/// reads it (InputError naming the file, and --comm-format for an
/// extension that does not tell).
[[nodiscard]] CommMatrix read_traffic(const TrafficSource& source);

/// Sets a field by its key, the same keys for every front end that holds
/// a job as text (the C API's tmap_job_set, the MPI layer's variables):
/// machine, hwloc-xml, node (appends), host-names, hosts, host-pattern,
/// pes-per-node, pe (cpu or gpu), comm, comm-format, weights (a file), alloc (a host list), alloc-from-env
/// ("1"), constraints (a file), oversubscription, imbalance, cpus-per-rank,
/// het-group, preset, config, strategy, format, slots (core or pu),
/// program, and any configuration option key (seed, objective, refine,
/// ...). ParameterError naming the key for an unknown key or a bad value.
void set_job_field(JobSpec& spec, std::string_view key, std::string_view value);

/// What a job tells its front end as it is assembled (a host read by its
/// number, a node choice, a CPU shortfall, a launcher's order): notes the
/// tools print and libraries keep.
using NoteSink = std::function<void(const std::string&)>;

/// A job assembled from its spec, each part built once when first asked.
/// Errors are the library's (InputError, ParameterError, ...) in the
/// spec's words.
class Job {
 public:
  explicit Job(JobSpec spec, NoteSink notes = {});
  ~Job();
  Job(Job&&) noexcept;
  Job& operator=(Job&&) noexcept;
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  [[nodiscard]] const JobSpec& spec() const noexcept;
  [[nodiscard]] const Topology& machine();
  /// The machine, to keep beyond the job (Python's tmap.Machine).
  [[nodiscard]] std::shared_ptr<const Topology> machine_shared();
  [[nodiscard]] const CommMatrix& traffic();
  /// The allocation of a host list or the scheduler, resolved on the machine.
  [[nodiscard]] const std::optional<Allocation>& allocation();
  /// The CPUs each rank takes where the scheduler gave parts of nodes or a
  /// rank takes several CPUs; empty otherwise.
  [[nodiscard]] const RankSlots& rank_slots();
  [[nodiscard]] const Constraints& constraints();
  [[nodiscard]] const Context& context();
  /// The machine's routes with the configuration's link bandwidths, or null.
  [[nodiscard]] const RoutingModel* routing();
  /// The problem, checked: the ranks fit (InputError saying why not and
  /// what would make them fit) and the traffic is sound.
  [[nodiscard]] Problem problem();

  /// Runs the configuration's strategy (or `strategy`, NAME[:REFINE]).
  [[nodiscard]] ReportedMapping run(RunHooks hooks = {}, std::string_view strategy = {});
  /// Improves `start` (another mapper's) with the configuration's refinement.
  [[nodiscard]] ReportedMapping refine(Mapping start, RunHooks hooks = {}, std::string_view name = "initial");
  /// Makes a result ready to be written: host names and CPU slots in its
  /// report, the scheduler's launch order kept on each node, and the notes
  /// a launcher file needs (shared cores, ranks sharing CPUs, a launcher's
  /// own order).
  void prepare_output(ReportedMapping& result);
  /// The result in the spec's output format (prepare_output first).
  [[nodiscard]] std::string output(const ReportedMapping& result);
  /// A launcher file for `mapping` (`output`: rankfile, hostfile,
  /// machinefile or hydra, its slots and program): prepare_output's hosts,
  /// slots and order. ParameterError for another format or a PE off the
  /// machine. Once the machine, allocation and constraints are built (ask
  /// for constraints() first), calls from several threads are safe.
  [[nodiscard]] std::string launch_file(const Mapping& mapping, const OutputSpec& output);

  /// The parts built so far (the library's own: src/job/job_state.hpp).
  struct State;

 private:
  void prepare(ReportedMapping& result, const OutputSpec& output);
  std::unique_ptr<State> state_;
};

}  // namespace tmap

TMAP_API_END
