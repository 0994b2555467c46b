// One libscotch static mapping, and the two-level mapping of machines whose
// terminals fall into groups with uniform distances (Tianhe-3's chip halves).
#pragma once

#include <cstdint>
#include <vector>

#include "strategies/scotch/libscotch.hpp"
#include "strategies/scotch/terminals.hpp"
#include "tmap/topology.hpp"

namespace tmap::scotchmap {

/// Scotch strategy flags and imbalance ratio (SCOTCH_stratGraphMapBuild).
struct Setting {
  SCOTCH_Num flags;
  double imbalance;
};

/// The traffic graph in libscotch's compressed rows (edge loads scaled).
struct SourceGraph {
  std::vector<SCOTCH_Num> verttab{0};
  std::vector<SCOTCH_Num> edgetab;
  std::vector<SCOTCH_Num> edlotab;

  [[nodiscard]] SCOTCH_Num vertices() const noexcept { return static_cast<SCOTCH_Num>(verttab.size()) - 1; }
};

/// How a run executes: a deterministic libscotch context with its own
/// generator seeded from `seed`, on `threads` threads.
struct RunOptions {
  std::uint64_t seed = 0;
  int threads = 1;
};

/// Scotch's label (a terminal index in [0, terminals)) of every vertex.
std::vector<std::int64_t> map_labels(const SourceGraph& source, const Arch& arch, std::int64_t terminals,
                                     const Setting& setting, const RunOptions& run);

/// Two levels, exact when distances between terminals of different groups
/// depend only on the groups and terminals of one group are equally far
/// apart (Tianhe-3: a node's distance to another node is 1 within its chip
/// half, and 1 + side + 2 row + 2 column by halves otherwise): Scotch maps
/// the graph onto the groups (`group_arch`, a deco 0 of group
/// capacities and distances), what overfills a group is repaired, then each
/// group's ranks are mapped onto its terminals as a complete weighted graph
/// (their cut is all that is left to decide). `group_of[t]` is terminal t's
/// group in [0, groups). Returns the terminal of every rank.
std::vector<std::int64_t> map_two_level(const SourceGraph& source, const CommMatrix& sym, const Topology& topology,
                                        const Terminals& terminals, const std::vector<std::int64_t>& group_of,
                                        const Terminals& groups, const Arch& group_arch, const Setting& setting,
                                        const RunOptions& run);

}  // namespace tmap::scotchmap
