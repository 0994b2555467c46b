// The Scotch strategy's face to the code built on it (the ptscotch
// strategy's MPI driver, distributed/ptscotch_map.cpp, which cuts the graph
// with PT-Scotch and maps each part the way scotch maps): the machine's
// terminals and their order, and a small traffic mapped onto some
// terminals through libscotch with exact distances, overfull terminals
// repaired. Terminals and ranks in, terminal indices out: no libscotch type
// and none of the strategy's internals (targets, runs, repair) show. Code
// that calls libscotch itself (PT-Scotch's distributed graph) owns its
// objects through strategies/scotch/libscotch.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "strategies/scotch/terminals.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/mapper.hpp"
#include "tmap/topology.hpp"

namespace tmap::scotchmap {

/// The most terminals map_onto_terminals takes (a distance table's).
[[nodiscard]] std::int64_t max_mapped_terminals();

/// What edge loads are divided by so that libscotch's sums of loads times
/// distances stay within its SCOTCH_Num, for traffic of `total` bytes.
[[nodiscard]] std::int64_t load_divisor(std::int64_t total);

enum class TerminalsEffort {
  /// Scotch's quality setting at zero imbalance.
  Quality,
  /// That and gmap's 1 % balance, on all the terminals and, with fewer ranks
  /// than slots, on a compact run of them (Scotch spreads ranks over every
  /// terminal); the lowest hop-bytes kept (ties: the first).
  Portfolio,
};

/// Each rank of `traffic` (symmetric, ranks 0..n-1) on a terminal of
/// `target` (its index there), mapped by libscotch onto a table of the
/// machine's exact distances between the terminals' representatives, seeded
/// from context.seed, on one libscotch thread; where the slots hold every
/// rank, overfull terminals are repaired.
[[nodiscard]] std::vector<std::int64_t> map_onto_terminals(const CommMatrix& traffic, const Topology& topology,
                                                           const Terminals& target, const Context& context,
                                                           TerminalsEffort effort);

}  // namespace tmap::scotchmap
