// What a batch scheduler allocated: node ids and the host names as the
// scheduler spelled them (contract sections 2 and 4).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tmap/error.hpp"
#include "tmap/export.h"
#include "tmap/machine.hpp"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

class Topology;

/// Host names a user listed in machine order (--hosts): name -> node label.
using HostIds = std::unordered_map<std::string, NodeId>;

struct Allocation {
  /// Node ids in the order given.
  std::vector<NodeId> nodes;
  /// Host names as spelled (empty for id ranges), same order as nodes.
  std::vector<std::string> hosts;
  /// Where it came from, for messages ("--alloc", "SLURM_JOB_NODELIST", ...).
  std::string origin = "--alloc";
  /// CPUs the job holds on each node (same order as nodes) when the
  /// scheduler gave parts of nodes (SLURM_JOB_CPUS_PER_NODE); empty = whole
  /// nodes.
  std::vector<std::int64_t> cpus;
  /// The CPU ids the job holds on each node (same order as nodes) when the
  /// scheduler said which (Slurm's controller, through libslurm); empty =
  /// not known, and the node's first `cpus` CPUs stand for them.
  std::vector<std::vector<std::int64_t>> cpu_ids;
  /// CPUs each rank takes on its node (Slurm's cpus-per-task, `-c`): the
  /// ranks of an MPI+OpenMP job, each with its threads on one node.
  std::int64_t cpus_per_rank = 1;
  /// Where cpus_per_rank came from, for messages (empty: the default).
  std::string cpus_per_rank_origin;
  /// The scheduler's job ids behind the allocation (Slurm: one per
  /// heterogeneous group mapped), to ask it which CPUs the job holds.
  std::vector<std::string> jobs;

  /// Turns the node ids as users wrote them (host numbers, Topology::
  /// node_label) into the topology's node indices, in place. InputError
  /// naming the offending entry for a node the topology does not have or
  /// one listed twice.
  void resolve(const Topology& topology);
  /// The same checks without changing anything.
  void check(const Topology& topology) const;
};

/// Expands a Slurm host list: "cn[0012-0040,0100],gpu[1-3]", "n[1-2]-ib[0-1]",
/// "a1,a2". Zero padding is kept; several bracket groups multiply out.
/// InputError for unbalanced brackets or bad ranges.
[[nodiscard]] std::vector<std::string> expand_hostlist(std::string_view list, const std::string& origin = "--alloc");

/// A node id from a host name: the trailing integer (cn0012 -> 12), or the
/// first capture group of `host_pattern` (a regular expression matching the
/// whole name) when given. InputError naming the host otherwise.
/// A host in `known` (when given) takes the id listed there; with `known`
/// and no pattern, any other host is refused (InputError): a machine whose
/// hosts are listed has no others.
[[nodiscard]] NodeId node_of_host(std::string_view host, const std::string& host_pattern = {},
                                  const std::string& origin = "--alloc", const HostIds* known = nullptr);

/// Where `allocation` named hosts of a machine whose hosts have no names
/// (each read by its trailing number as a node id, counting from 0), what
/// each became and how to name the hosts instead; empty where every host
/// is the machine's own name (cn<id>) or the allocation gave ids.
[[nodiscard]] std::string host_number_note(const Allocation& allocation, const Topology& topology);

/// `--alloc`: id ranges ("0-95,192-287") or a Slurm host list.
/// Hosts may be separated by commas, white space or newlines.
[[nodiscard]] Allocation parse_allocation(std::string_view list, const std::string& host_pattern = {},
                                          const std::string& origin = "--alloc", const HostIds* known = nullptr);

}  // namespace tmap

TMAP_API_END
