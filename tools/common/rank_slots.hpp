// Where on its node each rank may run when a scheduler gave the job CPUs:
// the CPU ids Slurm's controller names (or, without them, the node's first
// CPUs as many as SLURM_JOB_CPUS_PER_NODE counts), grouped by the CPUs
// each rank takes (cpus-per-task). The mapping sees one PE per group, the
// group's first CPU; launcher files name the whole group.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tmap/allocation.hpp"
#include "tmap/mapping.hpp"
#include "tmap/types.hpp"

namespace tmap {
class Topology;
}

namespace tmap::cli {

struct RankSlots {
  /// The PE standing for each group -> the group's CPU ids (PE indices in
  /// its node: Slurm numbers a node's CPUs as tmap numbers its PEs).
  std::map<PE, std::vector<std::int64_t>> cpus_of;
  /// Where the scheduler gave more CPUs than the machine model's node has
  /// (said again if the ranks then do not fit); empty otherwise.
  std::string shortfall;

  /// What a rankfile's slot= says for `pe`: its group's CPU list ("2-3").
  [[nodiscard]] std::string slot_text(PE pe) const;
};

/// The groups of `allocation` (every node of the machine when it is
/// absent) with `cpus_per_rank` CPUs each. InputError naming the host and
/// CPU when the scheduler's CPU id is not a PE of the model's node.
[[nodiscard]] RankSlots rank_slots(const Topology& topology, const Allocation* allocation, std::int64_t cpus_per_rank);

/// "1-3,5": a CPU list as rankfiles and Slurm write them.
[[nodiscard]] std::string cpu_list_text(const std::vector<std::int64_t>& cpus);

/// Asks Slurm's controller which CPUs the allocation's jobs hold on each
/// node and records them (Allocation::cpu_ids); notes why not when it
/// cannot, keeping the counts.
void add_slurm_cpu_ids(Allocation& allocation);

/// Slurm's order: srun binds a node's tasks (in rank order) to the job's
/// CPU groups there in increasing order. Where the node's PEs are
/// interchangeable (Topology::node_uniform_distance), the mapping's ranks on
/// each node are put on its groups in that order (same cost), so a
/// hostfile launch binds every rank to the CPUs the rankfile names.
void keep_slurm_order(Mapping& mapping, const Topology& topology, const RankSlots& slots);

}  // namespace tmap::cli
