// Which rank a launcher started this process as, from the variables
// launchers set (Open MPI, PMIx, Hydra's PMI, Slurm, Cray's PALS and ALPS):
// what tm-bind binds by, and how the MPI library knows which process
// speaks for all before MPI is up.
#pragma once

#include <cstdint>
#include <string>

namespace tmap::detail {

struct LaunchRank {
  std::int64_t rank = -1;  ///< the rank in the job, or -1
  /// Without one: the rank among this host's processes (-1: none either).
  std::int64_t local_rank = -1;
  std::string variable;  ///< the variable it came from
};

/// The variables read, in order: TMAP_RANK (set by hand), then
/// OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID, PALS_RANKID,
/// ALPS_APP_PE (global), then OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID,
/// SLURM_LOCALID, PALS_LOCAL_RANKID (local). InputError naming a variable
/// whose value is not a rank.
[[nodiscard]] LaunchRank launch_rank();
/// The variables launch_rank reads, for help texts and messages.
[[nodiscard]] std::string launch_rank_variables();

}  // namespace tmap::detail
