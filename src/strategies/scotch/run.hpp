// One libscotch static mapping, and the two-level mapping of machines whose
// terminals fall into groups with uniform distances (Tianhe-3's chip halves).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strategies/scotch/libscotch.hpp"
#include "strategies/scotch/terminals.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/mapper.hpp"
#include "tmap/topology.hpp"
#include "util/int128.hpp"

namespace tmap::scotchmap {

/// Scotch strategy flags and imbalance ratio (SCOTCH_stratGraphMapBuild),
/// or a strategy string for libscotch's own parser (gmap's -m) when given.
struct Setting {
  SCOTCH_Num flags;
  double imbalance;
  std::string strategy;
};

/// The traffic graph in libscotch's compressed rows (edge loads scaled).
struct SourceGraph {
  std::vector<SCOTCH_Num> verttab{0};
  std::vector<SCOTCH_Num> edgetab;
  std::vector<SCOTCH_Num> edlotab;
  /// Vertex loads (the ranks' weights), empty when every rank weighs 1.
  std::vector<SCOTCH_Num> velotab;

  [[nodiscard]] SCOTCH_Num vertices() const noexcept { return static_cast<SCOTCH_Num>(verttab.size()) - 1; }
};

/// The symmetrised traffic in libscotch's rows: each load divided by
/// `scale` (rounded, at least 1); loads below `cutoff` dropped (an edge
/// stays iff its load does, so the graph stays symmetric). The ranks'
/// weights become vertex loads, divided alike (rounded) when their sum
/// does not fit SCOTCH_Num.
SourceGraph source_graph(const CommMatrix& sym, detail::Int128 scale = 1, Volume cutoff = 0);

/// How a run executes: a deterministic libscotch context with its own
/// generator seeded from `seed`, on `threads` threads; 0 = as many as
/// scotch_gmap starts (SCOTCH_PTHREAD_NUMBER, else every core), because
/// libscotch's "deterministic" results still move with its thread count on
/// some targets (cmplt, measured).
struct RunOptions {
  std::uint64_t seed = 0;
  int threads = 1;
};

/// What SCOTCH_graphMap returns for every vertex: the target's own
/// terminal numbers (a deco's labels, a native kind's terminal numbers).
/// The strategy is built for `parts` parts, as scotch_gmap builds it for
/// SCOTCH_archSize of its target.
/// With `log`, also what scotch_gmap -vs and -vm print, from libscotch
/// itself (SCOTCH_stratSave, SCOTCH_graphMapView of the computed mapping).
std::vector<std::int64_t> map_terminal_numbers(const SourceGraph& source, const Arch& arch, std::int64_t parts,
                                               const Setting& setting, const RunOptions& run,
                                               ScotchGmapLog* log = nullptr);

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
