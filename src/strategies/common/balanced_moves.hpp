// Ranks of unequal weight balanced by load (--imbalance): each PE may hold
// ranks weighing at most Constraints::load_limit() and at most capacity()
// of them. The slot searches (candidate_search, the dense tabu) swap ranks
// between slots, which keeps counts but not loads; here ranks move one at a
// time onto PEs with room, the k-way refinement of graph partitioners
// (KaMinPar's label propagation, Mt-KaHyPar's FM) with the machine's
// distances in the gain: moving rank r from PE p to PE q gains
// sum_j s_rj (d(p, pe_j) - d(q, pe_j)). Where PEs are full, r may trade
// places with a partner on another PE when both loads stay within the limit.
//
// Candidates of r are the PEs of its partners and, where PEs of a node are
// interchangeable (Topology::node_uniform_distance), the other PEs of those
// nodes: the places that bring r closer to whom it talks to. Sequential,
// ranks in id order, ties to the lowest PE: deterministic.
#pragma once

#include <cstdint>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"
#include "util/int128.hpp"

namespace tmap::strategies {

struct BalancedMoveStats {
  std::int64_t repaired = 0;  ///< ranks moved off PEs above their limits
  std::int64_t passes = 0;
  std::int64_t moves = 0;   ///< improving moves (a swap with a partner counts once)
  std::int64_t swaps = 0;   ///< of which swaps
  bool searched = false;    ///< a small job's tabu search ran before the passes
  detail::Int128 gain = 0;  ///< hop-bytes the improving moves saved (repairs may cost)
};

/// Brings every PE within its load limit and count (the ranks that cost
/// least to move, each onto the PE with room where it costs least: its
/// partners' PEs first, else the PE with room nearest to where it was),
/// then, with `max_passes` > 0, moves ranks while a move within the limits
/// lowers hop-bytes, at most `max_passes` passes over the ranks; in small
/// jobs (ranks x PEs up to 16,384) a tabu search of moves and swaps to any
/// PE comes first. `sym` is
/// the symmetrised traffic with the ranks' weights. InputError when a PE
/// stays above its limit (the weights do not pack: no rank of it fits
/// anywhere else).
BalancedMoveStats balance_and_refine(const CommMatrix& sym, const Topology& topology, const Constraints& constraints,
                                     Mapping& mapping, std::int64_t max_passes);

}  // namespace tmap::strategies
