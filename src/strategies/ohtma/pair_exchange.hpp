// OHTMA phase 2 (Algorithm 1, lines 20-36): pair exchange with status marks
// and backtracking to the best prefix.
//
// Each iteration swaps the unmarked pair (i, j) with the largest exact
// decrease of hop-bytes (even when negative), marks both, and goes on; at the
// end every swap after the best prefix of gains is undone. The gain is the
// exact change of eq. (1) with the symmetrised traffic S = A + A^T:
//   g(i,j) = D_i(p_i) - D_i(p_j) + D_j(p_j) - D_j(p_i) - 2 S_ij d(p_i, p_j),
//   D_a(p) = sum_l S_al d(p, p_l),
// where the last term removes the i-j pair, whose distance a swap keeps.
// (The paper prints a simplified formula without that term and with A only.)
//
// Speed: the full gain table G (n x n) is built once in O(n^2 deg); after a
// swap only rows and columns of the unmarked neighbours U of i and j change,
// each entry by w_u (e_u - e_b) with w_u = S_ui - S_uj and
// e_b = d(p_b, p_j) - d(p_b, p_i), so an iteration costs O(|U| n) plus the
// rows whose best partner changed. Row maxima are kept per row; the global
// choice breaks ties by (gain, lowest i, lowest j), so results do not depend
// on the thread count.
#pragma once

#include <vector>

#include "refine/slots.hpp"
#include "tmap/comm_matrix.hpp"
#include "util/int128.hpp"

namespace tmap::ohtma {

struct Swap {
  Rank i;
  Rank j;
  std::int64_t gain;
};

struct PassResult {
  /// Every swap the pass made, in order (before backtracking).
  std::vector<Swap> swaps;
  /// How many of them were kept (the best prefix).
  std::int64_t kept = 0;
  /// Decrease of hop-bytes of the kept prefix (>= 0).
  detail::Int128 gain = 0;
};

/// Bytes the gain table of this problem needs.
std::int64_t gain_table_bytes(const CommMatrix& sym, Distance max_distance);
/// Throws InputError when the table would not fit in memory or exact 64-bit
/// gains are impossible (exchange_pass checks this too).
void check_gain_table(const CommMatrix& sym, Distance max_distance);

/// Runs one pass of at most `loop` swaps on sigma (rank -> slot) and
/// backtracks. Throws InputError when the table would not fit in memory.
template <typename Distances>
PassResult exchange_pass(const CommMatrix& sym, const refine::SlotSpace& slots, const Distances& distances,
                         Distance max_distance, std::vector<std::int64_t>& sigma, std::int64_t loop, int threads);

}  // namespace tmap::ohtma
