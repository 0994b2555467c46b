// tmap's multilevel mapping engine. The traffic graph and the machine are
// coarsened in step (pairing.hpp: same shapes level by level), the coarsest
// clusters are placed on the coarsest groups (coarsest.hpp), and the
// placement is carried down level by level, each level refined by swaps of
// clusters between groups on the machine's distances (level_search.hpp):
// moving a cluster at a coarse level moves a whole block of ranks, which
// undoes the twists and folds that rank swaps cannot. A V-cycle does the
// same from a given mapping: the traffic is coarsened along the mapping
// (clusters = what the groups hold), so it starts where the mapping is.
//
// Slots as in refine/slots.hpp: each allowed PE holds K, PE-major.
#pragma once

#include <cstdint>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

namespace tmap::multilevel {

/// V-cycles after a mapping, at most (a cycle that gains nothing ends them).
inline constexpr int kDefaultCycles = 3;
/// A cycle that gains less than this share of the cost is the last: the
/// next gains less still (4,096 random ranks on a torus: 5.6 %, 0.42 %,
/// then 0.05 % for 15 % of the quality mode's time).
inline constexpr double kLastCycleGain = 0.01;

struct Options {
  std::uint64_t seed = 0;
  int threads = 1;
  /// Coarsening stops at this many groups.
  std::int64_t coarsest = 64;
  /// Most swap passes per level.
  int passes = 16;
  /// Tabu moves at the coarsest level of a fresh mapping. When that level
  /// is the whole problem (at most `coarsest` slots) the search is the
  /// mapping: QAPLIB's instances up to n = 64 have a mean gap of 0.49 % with
  /// 20,000 moves, 0.87 % with 5,000. Above, each finer level's search
  /// follows, and 5,000 gave the same hop-bytes in 8 of 9 cases of 1,024
  /// ranks (lower in the 9th) in 25-40 % less time.
  std::int64_t whole_iterations = 20000;
  std::int64_t coarsest_iterations = 5000;
  /// Tabu moves at the coarsest level of each V-cycle (which starts from a
  /// placement already refined).
  std::int64_t cycle_iterations = 2000;
};

struct Stats {
  std::int64_t levels = 0;    ///< levels, the finest included
  std::int64_t coarsest = 0;  ///< groups at the coarsest level
  std::int64_t before = -1;   ///< hop-bytes before a V-cycle
  std::int64_t after = 0;     ///< hop-bytes at the end
};

/// A fresh mapping of the ranks of `sym` (symmetrised traffic): sigma[rank] = slot.
std::vector<std::int64_t> map_slots(const CommMatrix& sym, const Topology& topology, const Constraints& constraints,
                                    const Options& options, Stats* stats = nullptr);

/// `cycles` V-cycles from sigma (rank -> slot); sigma changes only to a
/// placement of lower hop-bytes.
void refine_slots(const CommMatrix& sym, const Topology& topology, const Constraints& constraints,
                  std::vector<std::int64_t>& sigma, int cycles, const Options& options, Stats* stats = nullptr);

/// The same on distances among the allowed PEs the caller built
/// (core/distance_oracle.hpp; refine_slots builds them for the machine).
template <typename Distances>
void refine_slots_on(const CommMatrix& sym, const Topology& topology, const Constraints& constraints,
                     const Distances& d, std::vector<std::int64_t>& sigma, int cycles, const Options& options,
                     Stats* stats = nullptr);

}  // namespace tmap::multilevel
