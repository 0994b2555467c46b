// tm-bind's input: the binding file tm-map writes (--format binding), and
// which rank the launcher started this process as.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tmap::bind {

/// What the slots of a binding file count: the host's cores or its
/// hardware threads (PUs), in hwloc's logical order.
enum class SlotKind { Core, Pu };

struct Placement {
  std::string host;
  std::vector<std::int64_t> slots;  ///< logical indices of the host's cores or PUs
};

struct BindingFile {
  SlotKind kind = SlotKind::Core;
  std::vector<Placement> ranks;  ///< rank r's host and slots
};

/// "RANK HOST SLOTS" lines (SLOTS a CPU list: "3", "2-3", "0,4"), `#`
/// comments, "# tmap binding pe=core|pu" saying what the slots count (by
/// default cores); or the rankfile tm-map writes ("rank R=HOST slot=CPUS",
/// its slots the host's cores, or with --rankfile-slots pu its threads:
/// give those as a binding file).
/// InputError naming the file and line for a malformed line, a rank twice
/// or missing, or no rank.
[[nodiscard]] BindingFile parse_binding_file(std::string_view text, const std::string& origin);

/// A launcher's rank of this process, from the variables launchers set.
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
/// The variables launch_rank reads, for the help and messages.
[[nodiscard]] std::string launch_rank_variables();

}  // namespace tmap::bind
