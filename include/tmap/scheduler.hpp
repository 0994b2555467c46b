// The batch scheduler a job runs under, as one interface: whether this
// process runs inside one of its jobs, the job's allocation (hosts, the
// CPUs it holds on each, the CPUs each task takes), the CPU ids its
// controller knows, and the job's machine when none is given. tmap knows
// Slurm and PBS, and "none" outside any job; another scheduler (Flux, LSF,
// PBS Pro's own variables) is one more implementation in src/sched, with
// no change to the front ends: they ask job_scheduler().
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tmap/allocation.hpp"
#include "tmap/error.hpp"
#include "tmap/export.h"
#include "tmap/machine.hpp"

TMAP_API_BEGIN

namespace tmap {

/// A scheduler's allocation asked for outside any of its jobs (an
/// InputError like any other, told apart by its type).
class NoSchedulerError : public InputError {
 public:
  using InputError::InputError;
};

/// What the caller knows when asking for the job's allocation: how host
/// names read as nodes (a pattern, or the machine's own names), one group
/// of a heterogeneous job, and whether it sets the CPUs per task itself (a
/// flag overrides the scheduler's variable, which is then not read).
struct AllocationRequest {
  std::string host_pattern;
  const HostIds* known = nullptr;
  std::optional<int> het_group;
  bool cpus_per_rank_given = false;
};

/// The machine a job runs on when none is given: the scheduler's switch
/// tree where it has one, else the job's nodes under one switch; each node
/// holds `node` (empty: "this", the node tmap runs on as hwloc sees it),
/// the nodes of `node_by_hosts`' host lists theirs. `note` says where the
/// machine came from, for the caller to show.
struct SchedulerMachine {
  MachineSpec spec;
  std::string note;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  /// "slurm", "pbs", "none".
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;
  /// This process runs inside one of its jobs (its environment says so).
  [[nodiscard]] virtual bool in_job() const = 0;
  /// The job's allocation: its hosts (resolved later on a machine), the
  /// CPUs it holds on each where the scheduler says, the CPUs per task.
  /// InputError naming the variable that is malformed; NoSchedulerError
  /// outside a job.
  [[nodiscard]] virtual Allocation allocation(const AllocationRequest& request) const = 0;
  /// Records which CPUs the allocation's jobs hold on each node where the
  /// scheduler's controller can say (Allocation::cpu_ids); otherwise keeps
  /// the counts and returns a note saying why (empty when there is nothing
  /// to ask).
  [[nodiscard]] virtual std::string add_cpu_ids(Allocation& allocation) const;
  /// The job's machine (SchedulerMachine). InputError outside a job.
  [[nodiscard]] SchedulerMachine machine(const std::string& node,
                                         std::vector<std::pair<std::string, std::string>> node_by_hosts,
                                         const AllocationRequest& request) const;

 protected:
  /// The scheduler's switch tree as topology.conf text and where it came
  /// from, or (text empty) why there is none.
  struct SwitchTree {
    std::string text;
    std::string origin;
    std::string unavailable;
  };
  [[nodiscard]] virtual SwitchTree switch_tree() const;
};

/// The scheduler whose job this process runs in: Slurm (SLURM_JOB_NODELIST,
/// or a heterogeneous job's SLURM_JOB_NODELIST_HET_GROUP_0), else PBS
/// (PBS_NODEFILE), else "none", whose allocation is a NoSchedulerError.
[[nodiscard]] const Scheduler& job_scheduler();

}  // namespace tmap

TMAP_API_END
