// The machine as a libscotch architecture, chosen by size:
// - every PE allowed on a kind Scotch knows with the same distances: Scotch's
//   own kind (cmplt, hcub, mesh2D/3D, torus, tleaf);
// - up to kMaxTableTerminals terminals: a deco 0 with the exact distance of
//   every pair (its text grows as T^2 / 2);
// - beyond, on Tianhe-3: two levels (run.hpp), a deco 0 over the chip
//   halves and then each half's nodes, exact because distances only depend
//   on halves;
// - beyond, elsewhere: a graph-defined target (SCOTCH_archBuild2, deco 2) over the
//   machine's distance graph, the allowed terminals listed, switches and
//   unallocated places kept for paths. Scotch measures distances in it by
//   bounded searches between domains, so the terminal-level distances it
//   uses are the machine's (x the graph's scale) and memory stays linear.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "strategies/scotch/libscotch.hpp"
#include "strategies/scotch/terminals.hpp"
#include "tmap/mapper.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"

namespace tmap::scotchmap {

/// Largest deco 0 (terminals) built: at 6,144 Tianhe-3 nodes it maps 262,144
/// ranks in 22 s and 0.86 GB (a deco 2 there: 194 s, 12 % more hop-bytes);
/// larger machines use two levels (Tianhe-3) or a deco 2.
inline constexpr std::int64_t kMaxTableTerminals = 6144;

/// Largest deco 0 built when asked for one (--scotch-target table).
inline constexpr std::int64_t kMaxForcedTableTerminals = 16384;

enum class TargetKind { Native, Table, Grouped, MachineGraph };

/// Loads Scotch target text into `arch` as SCOTCH_archLoad reads a file;
/// false when libscotch refuses it.
bool try_load_target(Arch& arch, const std::string& text);

/// Terminals in groups with uniform distances: every terminal's group, and
/// the groups as terminals (their PEs, summed capacities, a representative).
struct TerminalGroups {
  std::vector<std::int64_t> group_of;
  Terminals groups;
};

/// The machine's groups of uniform distances (ScotchView::uniform_group:
/// Tianhe-3's chip halves) when the terminals are nodes; nothing elsewhere.
std::optional<TerminalGroups> uniform_groups(const Topology& topology, const Terminals& terminals);

/// Builds the architectures of one machine for sets of terminals (the
/// allocation, a compact block of it), building its distance graph once.
class TargetBuilder {
 public:
  explicit TargetBuilder(const Topology& topology) : topology_(topology) {}

  /// The kind these terminals get, by size, or `choice` (native, table,
  /// grouped, graph; "auto" picks); an InputError when it does not fit.
  TargetKind plan(const Terminals& terminals, std::string_view choice = "auto");
  /// How many times the machine's distances Scotch sees with this kind
  /// (for keeping Scotch's sums of load x distance in range).
  [[nodiscard]] Distance scale(TargetKind kind) const;
  /// Builds the architecture; the labels Scotch returns are terminal
  /// indices (PE ids for a native kind, which covers every PE in order), or
  /// group indices for Grouped (a deco 0 over the groups).
  void build(Arch& arch, TargetKind kind, const Terminals& terminals, const Run& context) const;

 private:
  const Topology& topology_;
  std::optional<DistanceGraph> graph_;
  bool graph_tried_ = false;
};

}  // namespace tmap::scotchmap
