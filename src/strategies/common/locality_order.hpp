// A numbering of the ranks that keeps talking ranks close in id, for the
// bisections of a huge job: they walk each set's edges in id order, and on
// a shuffled million-rank stencil every step missed the cache (the
// grouping took 3.5x its time in natural order). A breadth-first order
// puts each rank's partners within a front's width of it; it is taken only
// where it beats the numbering the job came with, which a stencil's
// natural order (partners 1, X and X*Y apart) usually does not.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tmap/comm_matrix.hpp"

namespace tmap::strategies {

/// How far apart in id each pair of partners is: the sum over the entries
/// of the bit width of |u - v| (lower: more local), with rank r numbered
/// new_of[r] (or r when new_of is empty).
[[nodiscard]] std::int64_t id_spread(const CommMatrix& g, std::span<const Rank> new_of = {});

/// The ranks in breadth-first order: old_of[new id]. The component of rank
/// 0 from a vertex far from rank 0 (the front then sweeps the traffic's
/// shape from one end), every other component from its lowest rank;
/// partners in row order. Deterministic, O(ranks + entries).
[[nodiscard]] std::vector<Rank> breadth_first_order(const CommMatrix& g);

/// g with rank old_of[k] numbered k (rows sorted again).
[[nodiscard]] CommMatrix renumbered(const CommMatrix& g, std::span<const Rank> old_of);

/// The breadth-first order of g when its id spread is below g's own
/// numbering's, else nothing (the numbering g has is kept).
[[nodiscard]] std::optional<std::vector<Rank>> more_local_order(const CommMatrix& g);

}  // namespace tmap::strategies
