// Refinement across block borders for the distributed path: each block of
// the machine (a region of PEs) is mapped on its own, blind to where its
// neighbours' ranks went; here every region's ranks are refined on the
// region's PEs with the ranks they talk to elsewhere fixed in place (a
// halo), so boundary ranks move towards their partners across the border.
//
// The regions are coloured so that no two of a colour exchange traffic
// (greedy, from the region pairs the graph's edges join). One round is a
// phase per colour: each process takes the colour's regions (region r on
// process r mod P), receives the edges of the ranks placed there (one
// all-to-all), runs the candidate search (refine/candidate_search.hpp) on
// each with its halo fixed, and the moves are gathered everywhere before
// the next colour: a phase cannot raise the hop-bytes. Regions that talk
// to too many others (random traffic) refine all at once against the
// round's start instead, and such a round is kept only when the
// distributed hop-bytes fall: refinement never makes the mapping worse.
// Graph data stays with the processes that refine it; only moves (rank,
// PE) are gathered, as the mapping itself is.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>

#include "distributed/local_graph.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

namespace tmap::dist {

struct HaloStats {
  std::int64_t rounds = 0;   ///< rounds kept
  std::int64_t before = 0;   ///< hop-bytes before
  std::int64_t after = 0;    ///< hop-bytes after
  std::int64_t colours = 0;  ///< colour classes refined in turn (0: every region at once)
  double seconds = 0;        ///< wall time of the refinement
};

/// Collective over `comm`: improves `mapping` (the same on every process)
/// by up to `rounds` rounds; `region_of_pe[u]`: the region of allowed PE u
/// (constraints.allowed_pes() order), every PE in one. Deterministic for a
/// number of processes: each region's search is sequential.
HaloStats refine_across_regions(MPI_Comm comm, const LocalGraph& graph, const Topology& topology,
                                const Constraints& constraints, std::span<const std::int64_t> region_of_pe,
                                Mapping& mapping, int rounds);

}  // namespace tmap::dist
