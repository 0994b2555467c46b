// The distributed path's mapping, chosen as the sequential default chooses
// (strategies/auto): the job's own order when it is provably optimal, a
// stencil's geometry laid into the machine (recovered where the graph
// lives) when that is, else the lowest of the own order, the geometry and
// either the sequential default on the graph gathered on process 0, up to
// kGatheredEntries (gathered_map.hpp), or above it PT-Scotch's mapping
// refined across block borders (ptscotch_map.hpp). Large graphs are never
// gathered: a structured job of a million ranks is laid out in
// O(ranks / P + diameter) per process instead of being cut blind.
#pragma once

#include <mpi.h>

#include <string>

#include "distributed/gathered_map.hpp"
#include "distributed/ptscotch_map.hpp"

namespace tmap::dist {

struct DistributedStats {
  std::string kept;  ///< "inorder", "geometric", "sequential" or "ptscotch"
  std::string why;   ///< a sentence on the choice
  HaloStats halo;    ///< the refinement across blocks, when PT-Scotch ran
};

/// Collective over `comm`: the whole mapping on every process (as
/// map_ptscotch). Deterministic for a seed and a number of processes.
/// Graphs of at most `gather_entries` symmetrised entries are gathered for
/// the sequential default (0: never).
[[nodiscard]] Mapping map_distributed(MPI_Comm comm, const LocalGraph& graph, const Topology& topology,
                                      const Constraints& constraints, const Context& context,
                                      DistributedStats* stats = nullptr,
                                      std::int64_t gather_entries = kGatheredEntries);

}  // namespace tmap::dist
