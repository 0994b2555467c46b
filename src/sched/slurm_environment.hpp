// Slurm's words for a job's CPUs, read by the Slurm scheduler
// (src/sched/schedulers.cpp) and its tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/allocation.hpp"

namespace tmap::sched {

/// SLURM_JOB_CPUS_PER_NODE's "72(x2),36": one count per node (72 72 36).
/// InputError naming `origin` for a malformed list.
[[nodiscard]] std::vector<std::int64_t> expand_slurm_counts(std::string_view text, const std::string& origin);

/// Asks Slurm's controller which CPUs the allocation's jobs hold on each
/// node and records them (Allocation::cpu_ids). Where it cannot, keeps the
/// counts and returns a note saying why; empty otherwise, and for
/// allocations that are not Slurm's.
[[nodiscard]] std::string add_slurm_cpu_ids(Allocation& allocation);

}  // namespace tmap::sched
