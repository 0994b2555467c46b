// Launching a mapping: which host and CPUs each rank gets, and the files
// launchers read (Open MPI's rankfile, hostfiles, MPICH's machinefile and
// Hydra configfile). With an allocation (tmap/allocation.hpp) the hosts are
// the scheduler's, spelled as it spelled them, and the CPUs those it gave
// the job; srun's own placement is kept where it costs nothing (Slurm's
// order). The tools, the C API and the MPI layer all launch through here.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/allocation.hpp"
#include "tmap/export.h"
#include "tmap/mapping.hpp"
#include "tmap/report.hpp"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

class Topology;
class CommMatrix;

/// A hosts file (`--hosts`): one host name per line in node order, `#`
/// comments. InputError naming `origin` and the line for a line of two
/// words, a control byte, a host listed twice, or a count other than
/// `nodes`.
[[nodiscard]] std::vector<std::string> parse_hosts_file(std::string_view text, const std::string& origin, NodeId nodes);

/// The hosts an allocation on this machine may name, host -> node label:
/// `listed` (a hosts file's names, in node order) when given, else the
/// machine's own names where it has them (--host-names, a topology.conf,
/// an hwloc node's host); empty where the machine calls its nodes
/// cn<label>, and any host's trailing number is then its node.
[[nodiscard]] HostIds allocation_host_ids(const Topology& topology, const std::vector<std::string>& listed);

/// The host each PE is launched on: the scheduler's spelling where the
/// allocation names its node, else `listed`'s name (node order), else the
/// machine's (host_layout.hpp). The function refers to `topology`.
[[nodiscard]] std::function<std::string(PE)> launch_host_names(const Topology& topology, const Allocation* allocation,
                                                               std::vector<std::string> listed);

/// Where on its node each rank may run when a scheduler gave the job CPUs:
/// the CPU ids Slurm's controller names (or, without them, the node's first
/// CPUs as many as SLURM_JOB_CPUS_PER_NODE counts), grouped by the CPUs
/// each rank takes (cpus-per-task). The mapping sees one PE per group, the
/// group's first CPU; launcher files name the whole group.
struct RankSlots {
  /// The PE standing for each group -> the group's CPU ids (PE indices in
  /// its node: Slurm numbers a node's CPUs as tmap numbers its PEs).
  std::map<PE, std::vector<std::int64_t>> cpus_of;
  /// Where the scheduler gave more CPUs than the machine model's node has
  /// (for the caller to say; said again if the ranks then do not fit);
  /// empty otherwise.
  std::string shortfall;

  /// What a rankfile's slot= says for `pe`: its group's CPU list ("2-3").
  [[nodiscard]] std::string slot_text(PE pe) const;
};

/// The groups of `allocation` (every node of the machine when it is
/// absent) with `cpus_per_rank` CPUs each. InputError naming the host and
/// CPU when the scheduler's CPU id is not a PE of the model's node.
[[nodiscard]] RankSlots rank_slots(const Topology& topology, const Allocation* allocation, std::int64_t cpus_per_rank);

/// The rank slots of a job on `allocation` (nullptr: the whole machine)
/// with `cpus_per_rank` CPUs each, where the scheduler gave parts of nodes
/// or ranks take several CPUs; empty (whole nodes, a PE a rank) otherwise.
[[nodiscard]] RankSlots job_rank_slots(const Topology& topology, const Allocation* allocation,
                                       std::int64_t cpus_per_rank);

/// The PEs a job on `allocation` (nullptr: the whole machine) may use,
/// `oversubscription` ranks each: one per rank slot where `slots` has them
/// (job_rank_slots), else every PE of the allocation's nodes.
[[nodiscard]] Constraints job_constraints(const Topology& topology, const Allocation* allocation,
                                          const RankSlots& slots, Rank oversubscription);

/// "1-3,5": a CPU list as rankfiles and Slurm write them.
[[nodiscard]] std::string cpu_list_text(const std::vector<std::int64_t>& cpus);

/// The launcher's order: srun and mpirun bind a node's tasks, in rank
/// order, to the job's CPU groups there in increasing order. Where the
/// node's PEs are interchangeable (Topology::node_uniform_distance), the
/// mapping's ranks on each node are put on its groups in that order (same
/// cost), so a hostfile launch binds every rank to the CPUs the rankfile
/// names.
void keep_launch_order(Mapping& mapping, const Topology& topology, const RankSlots& slots);

/// Where a node's ranks run when a launcher binds them itself (a hostfile,
/// machinefile or Hydra configfile names only hosts): each node's ranks,
/// in rank order, on the node's allowed PEs in increasing order (what
/// mpirun --bind-to core and srun's block binding do).
[[nodiscard]] Mapping launcher_order_mapping(std::span<const PE> mapping, const Topology& topology,
                                             const Constraints& constraints);

/// The ranks in the order of their PEs (ties in rank order): the order a
/// Cray rank order file lists them in.
[[nodiscard]] std::vector<Rank> ranks_in_pe_order(std::span<const PE> mapping);

/// True for the formats a launcher reads (rankfile, hostfile, machinefile,
/// hydra, rank-order, binding).
[[nodiscard]] bool is_launch_format(MappingFormat format) noexcept;

/// The launcher file of `format` for ranks on `mapping`'s PEs: a rankfile
/// names each rank's host and slot, a hostfile a host per rank, a
/// machinefile `host:count` per run of ranks on one host, a Hydra
/// configfile `-n count -host host program` (ParameterError without a
/// program), a rank order Cray MPICH's MPICH_RANK_ORDER, a binding file
/// `RANK HOST SLOTS` lines after `# tmap binding pe=SLOT_KIND` (tm-bind's
/// input; slot_kind "core" or "pu").
[[nodiscard]] std::string format_launch_file(MappingFormat format, std::span<const PE> mapping,
                                             const std::function<std::string(PE)>& host_of,
                                             const std::function<std::string(PE)>& slot_of, const std::string& program,
                                             const std::string& slot_kind = "core");

}  // namespace tmap

TMAP_API_END
