// Writing a mapping for people and launchers: the output formats of tm-map
// (contract section 4) and the report that goes with a mapping (strategy,
// metrics, link metrics, refinement, host names). Not part of the core API
// (tmap/tmap.hpp): include it where mappings are written.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/export.h"
#include "tmap/mapper.hpp"
#include "tmap/mapping.hpp"
#include "tmap/metrics.hpp"
#include "tmap/routing.hpp"

TMAP_API_BEGIN

namespace tmap {

/// Mapping output formats. The launcher formats need host names:
/// Rankfile = Open MPI "rank R=HOST slot=CORE", Hostfile = one host per line
/// in rank order (SLURM_HOSTFILE with --distribution=arbitrary),
/// Machinefile = MPICH/Hydra "host:count" runs in rank order (Hydra starts
/// one proxy per line, so a host whose ranks are not consecutive gets
/// several); Hydra = a Hydra -configfile, "-n COUNT -host HOST PROGRAM"
/// per run in rank order, which Hydra serves with one proxy per host;
/// RankOrder = Cray MPICH's MPICH_RANK_ORDER (MPICH_RANK_REORDER_METHOD=3):
/// the ranks in the order of the slots they take, node after node;
/// Binding = "RANK HOST CPUS" per rank, what tm-bind binds each rank to
/// under any launcher.
enum class MappingFormat { Perm, Json, TopoMatch, Scotch, Rankfile, Hostfile, Machinefile, Hydra, RankOrder, Binding };
[[nodiscard]] MappingFormat mapping_format_from_name(std::string_view name);
[[nodiscard]] std::string_view mapping_format_name(MappingFormat format);
/// Every format's name, in the table's order (what --format accepts).
[[nodiscard]] std::vector<std::string> mapping_format_names();

/// How the ranks' weights fall on the PEs, where a job is balanced by load
/// (--imbalance) or its ranks carry weights: JSON "loads".
struct LoadReport {
  Volume limit = 0;        ///< the most a PE may hold (0: no load limit)
  Volume max_load = 0;     ///< the heaviest PE's load
  double average = 0.0;    ///< total weight / allowed PEs
  double imbalance = 0.0;  ///< max_load / average - 1
  double asked = -1.0;     ///< --imbalance's EPS, negative when not given
};

/// What goes along with a mapping in the richer formats.
struct MappingReport {
  std::string strategy;
  std::string topology;
  std::int64_t num_pes = 0;
  Metrics metrics;
  /// Link metrics when the topology has a routing model.
  std::optional<RouteMetrics> routes;
  /// The refinement after the strategy, when one ran (--refine).
  std::optional<RefineStats> refine;
  /// The objective's refinement after that, when the objective is not
  /// hop-bytes; JSON "objective" {name, before, after, swaps, seconds}.
  std::optional<ObjectiveRefineStats> objective_refine;
  /// The objective the run minimised (JSON "objective"'s name).
  Objective objective = Objective::HopBytes;
  /// The one-round flow model's time (tmap/objective.hpp) where the machine
  /// has routes; JSON "predicted_time_s".
  std::optional<double> predicted_time_s;
  double time_s = 0.0;
  std::uint64_t seed = 0;
  /// The thread budget the run had (results do not depend on it).
  int threads = 1;
  /// The run's whole configuration (tmap/config.hpp's option_values): the
  /// JSON's "config" object, which tm-map --config reads back to repeat the
  /// run. Empty for mappings tmap did not compute.
  std::vector<std::pair<std::string, std::string>> config;
  /// The run was stopped (RunHooks::progress returned false): the mapping is
  /// the best found by then; the JSON says "partial": true.
  bool partial = false;
  /// Bytes each used node exchanges with other nodes (sent and received;
  /// a graph edge counts at both ends), by node index: where two mappings
  /// of one allocation differ. The JSON's "node_traffic": [[node, bytes]].
  std::vector<std::pair<NodeId, Volume>> node_traffic;
  /// The PEs' loads, where ranks carry weights or --imbalance was given.
  std::optional<LoadReport> loads;
  /// What the run said a user must know (e.g. scotch repaired Scotch's
  /// overfull PEs); the JSON's "notes".
  std::vector<std::string> notes;
  /// The strategy that really mapped when the one asked for could not run
  /// here (geometric off a grid: "scotch"); empty otherwise. JSON
  /// "fell_back_to".
  std::string fell_back_to;
  /// tm-map --simulate: the simulated time of the mapping's communication
  /// rounds (SimGrid), in seconds; JSON "sim_time_s".
  std::optional<double> sim_time_s;
  /// For the launcher formats: a PE's host name and its slot on that host
  /// (a core index, or the CPU list a rank of several CPUs takes: "2-3").
  std::function<std::string(PE)> host_of;
  std::function<std::string(PE)> slot_of;
  /// What slot_of's numbers are, for the binding format: "core" (the
  /// host's cores in hwloc's logical order) or "pu" (its hardware threads,
  /// so also Slurm's CPU ids).
  std::string slot_kind = "core";
  /// For the Hydra format: the program and its arguments, as one line.
  std::string program;
  /// For the Scotch format: the terminal a PE belongs to (unset: the PE).
  std::function<std::int64_t(PE)> scotch_terminal_of;
};

/// Bytes each used node exchanges with other nodes (sent and received; a
/// matrix entry counts at both ends), by node id: MappingReport::node_traffic.
[[nodiscard]] std::vector<std::pair<NodeId, Volume>> node_traffic(const CommMatrix& comm, const Topology& topology,
                                                                  std::span<const PE> mapping);

/// A report of what a mapping costs: the topology, hop-bytes and the other
/// metrics, node traffic and, when `routing` is given (with the run's link
/// bandwidths set), the link metrics and the predicted time. What the tools
/// print for any mapping, theirs or a file's; the run's own fields
/// (strategy, time, configuration, refinement) are the caller's. With
/// `threads` above 1 the routed metrics are computed beside the others
/// (the same report).
[[nodiscard]] MappingReport describe_mapping(const Problem& problem, std::span<const PE> mapping,
                                             const RoutingModel* routing, std::string_view link_bandwidths,
                                             int threads = 1);

/// Renders a mapping; every format ends with a newline.
[[nodiscard]] std::string format_mapping(MappingFormat format, std::span<const PE> mapping,
                                         const MappingReport& report);
/// The JSON object of one result (keys of contract section 4).
[[nodiscard]] std::string mapping_json(std::span<const PE> mapping, const MappingReport& report);

/// Receives a report as a tree, field by field, with the JSON report's
/// names and in its order: how a binding builds its own objects from a
/// report with no text in between (Python's tmap.Report). A key comes
/// before each member of an object; integers() is a run of integers (the
/// mapping) in one call.
class ReportWriter {
 public:
  virtual ~ReportWriter() = default;
  virtual void begin_object() = 0;
  virtual void end_object() = 0;
  virtual void begin_array() = 0;
  virtual void end_array() = 0;
  virtual void key(std::string_view name) = 0;
  virtual void null() = 0;
  virtual void boolean(bool value) = 0;
  virtual void integer(std::int64_t value) = 0;
  /// An integer above INT64_MAX (a count the JSON holds unsigned).
  virtual void unsigned_integer(std::uint64_t value) = 0;
  virtual void real(double value) = 0;
  virtual void text(std::string_view value) = 0;
  virtual void integers(std::span<const std::int64_t> values) {
    begin_array();
    for (const auto v : values) integer(v);
    end_array();
  }
};

/// mapping_json's object, handed to `out` as a tree.
void write_mapping_report(std::span<const PE> mapping, const MappingReport& report, ReportWriter& out);

}  // namespace tmap

TMAP_API_END
