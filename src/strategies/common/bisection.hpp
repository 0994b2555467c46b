// Splitting a set of ranks in two parts of exact sizes with little traffic
// between them: greedy graph growing from a few seeds, then
// Fiduccia-Mattheyses passes of paired moves (sizes stay exact), the best
// result kept; or, for large sets of large jobs, multilevel bisection
// (bisection_graph.hpp). Used top-down by the treematch and rb strategies.
#pragma once

#include <cstdint>
#include <vector>

#include "tmap/comm_matrix.hpp"

namespace tmap::strategies {

/// How sets are split: flat (growing and FM over the whole set), by
/// multilevel bisection (sets above 256 ranks), or auto (multilevel in jobs
/// above 262,144 ranks: a million ranks in half the time, for 3-13 %
/// more hop-bytes on stencils).
enum class Bisection { Auto, Flat, Multilevel };

/// Whether bisect splits the large sets of a job of `ranks` ranks by
/// multilevel bisection.
[[nodiscard]] bool splits_multilevel(Bisection how, std::int64_t ranks);

/// Splits `ranks` (ids of `sym`, the symmetrised traffic; ids past its
/// ranks are silent objects, without traffic) into a first part
/// of `first_size` ranks and the rest; only traffic inside `ranks` counts
/// (ranks outside are equally far from both parts in a tree). Returns the
/// two parts, each in increasing rank order. Deterministic. `fm_passes`:
/// Fiduccia-Mattheyses passes per seed of the flat path (0 = greedy growing
/// only, never multilevel); below 0, 12, or 4 on sets above 50,000 ranks.
/// The job's size is `sym`'s.
std::pair<std::vector<Rank>, std::vector<Rank>> bisect(const CommMatrix& sym, const std::vector<Rank>& ranks,
                                                       std::int64_t first_size, int fm_passes = -1,
                                                       Bisection how = Bisection::Auto);

/// Fiduccia-Mattheyses passes of paired moves (the sizes kept) from a given
/// split: side[k] (0 or 1) is ranks[k]'s part. At most `passes` passes,
/// each keeping its best prefix; stops when one gains nothing. With
/// `multilevel`, a V-cycle from the split first (multilevel_refine in
/// bisection_graph.hpp; sets above 16 ranks), the split unchanged unless
/// the passes after it end lower. Returns the traffic cut before and after.
/// Deterministic.
std::pair<Volume, Volume> refine_split(const CommMatrix& sym, const std::vector<Rank>& ranks, std::vector<char>& side,
                                       int passes, bool multilevel = false);

/// The same by the ranks' weights (sym.rank_weight), without paired passes:
/// a V-cycle whose moves keep side 0's weight between `least` and `most`,
/// kept where it cuts less (and weighs within them). Returns the traffic
/// cut before and after. Deterministic.
std::pair<Volume, Volume> refine_split_by_weight(const CommMatrix& sym, const std::vector<Rank>& ranks,
                                                 std::vector<char>& side, Volume least, Volume most);

/// Splits `ranks` by the ranks' weights (sym.rank_weight): a first part
/// weighing `first_weight` give or take `window`, the rest second, with
/// little traffic between them (multilevel bisection, thorough passes at
/// every level). Deterministic.
struct WeightedCut {
  /// Other than 0: the set's vertices numbered in a shuffled order (seeded)
  /// before coarsening, which takes another path to another cut.
  std::uint64_t order_seed = 0;
  /// Each pass may go the whole level past its best prefix (else a fifth):
  /// slower, another cut.
  bool whole_level_passes = false;
};
std::pair<std::vector<Rank>, std::vector<Rank>> bisect_by_weight(const CommMatrix& sym, const std::vector<Rank>& ranks,
                                                                 Volume first_weight, Volume window,
                                                                 WeightedCut how = {});

}  // namespace tmap::strategies
