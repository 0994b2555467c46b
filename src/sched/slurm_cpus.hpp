// Which CPUs a Slurm job holds on each node. Slurm's environment says how
// many (SLURM_JOB_CPUS_PER_NODE), never which; the controller knows
// (`scontrol show job -d` prints it as CPU_IDs). This asks it through
// libslurm (Debian's libslurm-dev): a library call, not a parsed command
// output, with Slurm's own host names and CPU numbering.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tmap::sched {

struct SlurmJobCpus {
  /// Host name -> the CPU ids (Slurm's numbering of the node's CPUs,
  /// sorted) the jobs hold there; a host in several jobs has their union.
  std::map<std::string, std::vector<std::int64_t>> by_host;
  /// Why the controller could not be asked (empty on success): tmap built
  /// without libslurm, no controller reachable, an unknown job id.
  std::string unavailable;
};

/// The CPU ids of the jobs `job_ids` (one per heterogeneous group mapped).
[[nodiscard]] SlurmJobCpus slurm_job_cpus(const std::vector<std::string>& job_ids);

/// "0-2,4-5" (Slurm's CPU list) -> 0 1 2 4 5; empty on a malformed list.
[[nodiscard]] std::vector<std::int64_t> parse_cpu_list(const std::string& text);

}  // namespace tmap::sched
