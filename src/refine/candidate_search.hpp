// The scalable refinement (ohtma+'s, and --refine's above the dense table): swaps and moves restricted to candidate
// lists, so no n x n table is needed (VieM's "communication neighbourhood").
//
// For each rank a (in id order), the candidates are the slots on the nodes
// of a's communication partners (at most kNodeCandidates PEs per node) and
// the slots of its partners' partners: the places that bring a closer to
// whom it talks to. A candidate slot holding
// rank b is a swap (exact gain as in pair_exchange.hpp); a free slot is a
// move (gain D_a(p_a) - D_a(p_t)). The best candidate with a positive gain
// (ties to the lowest slot) is applied at once. Passes repeat until one
// improves nothing or `max_passes` is reached. Sequential, so deterministic.
#pragma once

#include <span>
#include <vector>

#include "refine/slots.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"
#include "util/int128.hpp"

namespace tmap::refine {

/// What a search may change: ranks [0, ranks) and slots [0, slots). The
/// other ranks stay where they are and their slots are never candidates (a
/// halo: the neighbours of a region, fixed in place, which the region's
/// ranks are drawn towards); the other slots are never moved to. -1: all.
struct Movable {
  Rank ranks = -1;
  std::int64_t slots = -1;
};

struct SearchResult {
  std::int64_t passes = 0;
  std::int64_t swaps = 0;
  std::int64_t moves = 0;
  detail::Int128 gain = 0;
};

/// Improves sigma (rank -> slot) in place; never makes hop-bytes worse.
/// `node_of_pe[u]` numbers the node of local PE u (0..nodes-1); PEs of one
/// node are candidates together.
template <typename Distances>
SearchResult candidate_search(const CommMatrix& sym, const SlotSpace& slots, const Distances& distances,
                              std::span<const std::int64_t> node_of_pe, std::vector<std::int64_t>& sigma,
                              std::int64_t max_passes, const StepReport& on_step = {}, Movable movable = {});

/// Tabu search on the same candidate lists, for inputs too large for the
/// dense move table: first candidate_search to a local optimum, then
/// `iterations` steps over the ranks in turn, each applying the best
/// admissible candidate of the rank even when it worsens hop-bytes; a rank
/// may not return to the PE it last left for 7-14 steps (random, from
/// `seed`) unless that gives a new best. sigma ends at the best seen.
template <typename Distances>
SearchResult candidate_tabu(const CommMatrix& sym, const SlotSpace& slots, const Distances& distances,
                            std::span<const std::int64_t> node_of_pe, std::vector<std::int64_t>& sigma,
                            std::int64_t iterations, std::uint64_t seed, const StepReport& on_step = {},
                            Movable movable = {});

/// Local node numbers of the allowed PEs (increasing with the topology's
/// node ids).
std::vector<std::int64_t> local_nodes(const Topology& topology, std::span<const PE> pes);

}  // namespace tmap::refine
