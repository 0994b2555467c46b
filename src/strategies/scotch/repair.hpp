// What libscotch overfills, emptied: Scotch's static mapping can put more
// ranks on a terminal than its capacity (even with zero imbalance), and
// tmap's mappings are always valid.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "strategies/scotch/terminals.hpp"
#include "tmap/comm_matrix.hpp"

namespace tmap::scotchmap {

/// Candidate (rank, terminal) pairs scored exactly; above it each rank
/// tries only the terminals with room nearest to its own in `order`.
inline constexpr std::int64_t kExactRepairPairs = std::int64_t{1} << 24;

/// Empties terminals holding more than their capacity by least-loss moves:
/// repeatedly, of all (rank on an overfull terminal, terminal with room)
/// pairs, apply the move that raises the cost of that rank's traffic (sym,
/// the symmetrised matrix) least; ties to the lowest rank, then terminal.
/// Each rank's best move is cached and rescored only when a partner moves or
/// its terminal fills, so a repair costs about (ranks to check) x (terminals
/// with room) gains, not that per move. When that product exceeds
/// `exact_pairs` and `order_of` is given (it returns the terminals in
/// bisection order, near ones together), a rank considers only the `window`
/// terminals with room on either side of its own in that order. `distance` works on
/// terminal indices. Returns how many ranks moved.
std::int64_t repair_overfull(const CommMatrix& sym, const Terminals& terminals, std::vector<std::int64_t>& terminal_of,
                             const std::function<Distance(std::int64_t, std::int64_t)>& distance,
                             const std::function<std::vector<std::int64_t>()>& order_of = {},
                             std::int64_t exact_pairs = kExactRepairPairs, std::int64_t window = 32);

/// repair_overfull with the machine's distances between the terminals'
/// representatives and its bisection order of the terminals.
std::int64_t repair_on_machine(const Topology& topology, const CommMatrix& sym, const Terminals& terminals,
                               std::vector<std::int64_t>& terminal_of);

}  // namespace tmap::scotchmap
