// Splitting a set of ranks in two parts of exact sizes with little traffic
// between them: greedy graph growing from a few seeds, then
// Fiduccia-Mattheyses passes of paired moves (sizes stay exact), the best
// result kept. Used top-down by the treematch and rb strategies.
#pragma once

#include <cstdint>
#include <vector>

#include "tmap/comm_matrix.hpp"

namespace tmap::strategies {

/// Splits `ranks` (ids of `sym`, the symmetrised traffic) into a first part
/// of `first_size` ranks and the rest; only traffic inside `ranks` counts
/// (ranks outside are equally far from both parts in a tree). Returns the
/// two parts, each in increasing rank order. Deterministic. `fm_passes`:
/// Fiduccia-Mattheyses passes per seed (0 = greedy growing only); below 0,
/// 12, or 4 on sets above 50,000 ranks.
std::pair<std::vector<Rank>, std::vector<Rank>> bisect(const CommMatrix& sym, const std::vector<Rank>& ranks,
                                                       std::int64_t first_size, int fm_passes = -1);

}  // namespace tmap::strategies
