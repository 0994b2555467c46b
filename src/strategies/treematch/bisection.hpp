// Splitting a set of ranks in two parts of exact sizes with little traffic
// between them: greedy graph growing from a few seeds, then
// Fiduccia-Mattheyses passes of paired moves (sizes stay exact), the best
// result kept. Used top-down by the treematch strategy.
#pragma once

#include <cstdint>
#include <vector>

#include "tmap/comm_matrix.hpp"

namespace tmap::treematch {

/// Splits `ranks` (ids of `sym`, the symmetrised traffic) into a first part
/// of `first_size` ranks and the rest; only traffic inside `ranks` counts
/// (ranks outside are equally far from both parts in a tree). Returns the
/// two parts, each in increasing rank order. Deterministic.
std::pair<std::vector<Rank>, std::vector<Rank>> bisect(const CommMatrix& sym, const std::vector<Rank>& ranks,
                                                       std::int64_t first_size);

}  // namespace tmap::treematch
