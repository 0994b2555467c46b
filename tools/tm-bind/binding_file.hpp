// tm-bind's input: the binding file tm-map writes (--format binding).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tmap::bind {

/// What the slots of a binding file count: the host's cores or its
/// hardware threads (PUs), in hwloc's logical order; or, for GPU PEs, the
/// OS numbers of the CPUs near the rank's GPU.
enum class SlotKind { Core, Pu, Gpu };

struct Placement {
  std::string host;
  /// Logical indices of the host's cores or PUs; for GPU PEs the OS CPU
  /// numbers (empty: bind to no CPU).
  std::vector<std::int64_t> slots;
  /// GPU PEs: the variable that gives the rank its GPU, and the GPU.
  std::string device_variable;
  std::int64_t device = -1;
};

struct BindingFile {
  SlotKind kind = SlotKind::Core;
  std::vector<Placement> ranks;  ///< rank r's host and slots
};

/// "RANK HOST SLOTS" lines (SLOTS a CPU list: "3", "2-3", "0,4"), `#`
/// comments, "# tmap binding pe=core|pu" saying what the slots count (by
/// default cores); with "pe=gpu", "RANK HOST CPUS VARIABLE=GPU" lines (CPUS
/// OS numbers or "-", VARIABLE CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES or
/// ZE_AFFINITY_MASK); or the rankfile tm-map writes ("rank R=HOST slot=CPUS",
/// its slots the host's cores, or with --rankfile-slots pu its threads:
/// give those as a binding file).
/// InputError naming the file and line for a malformed line, a rank twice
/// or missing, or no rank.
[[nodiscard]] BindingFile parse_binding_file(std::string_view text, const std::string& origin);

}  // namespace tmap::bind
