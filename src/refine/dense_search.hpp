// Swap searches over every pair of positions, for problems small enough to
// keep the full move table (N <= kMaxDensePositions, N = slots): a descent to
// a 2-opt local optimum and Taillard's robust tabu search (RoTS, 1991).
//
// Items are the ranks plus one silent item per free slot (so a swap with a
// silent item is a move onto a free slot). Cost = sum_{i<j} W_ij d(p_i, p_j)
// = hop-bytes, W = A + A^T. The move table holds the exact change of every
// swap, delta(r, s) = sum_{k != r,s} (W_rk - W_sk)(d(p_s, p_k) - d(p_r, p_k)),
// kept up to date after a swap of (r, s) in O(1) per unaffected pair:
//   delta'(u, v) = delta(u, v) + (W_ru - W_rv + W_sv - W_su)
//                  x (d(p_v, p_s) - d(p_u, p_s) + d(p_u, p_r) - d(p_v, p_r))
// (old positions p_r, p_s), and in O(N) for pairs that contain r or s.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "refine/slots.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

namespace tmap::refine {

inline constexpr std::int64_t kMaxDensePositions = 1024;
/// The descent (unbounded number of O(N^2) steps) uses the table up to here;
/// above, the candidate-list search is faster.
inline constexpr std::int64_t kMaxDenseDescent = 256;
// Tabu budgets, all here (the refine-iters option quotes kTabuBudgetHelp).
/// A dense tabu move costs N^2 table updates; about 3e8 took 2 s before the
/// vector kernels (2.5-3.4x faster since).
inline constexpr std::int64_t kMaxTableUpdates = 300'000'000;
/// best's finalists share about 6e7 updates (half a second at 1024 slots).
inline constexpr std::int64_t kPortfolioTableUpdates = 60'000'000;
/// Above the dense table, the candidate-list tabu takes this many steps per rank.
inline constexpr std::int64_t kCandidateTabuStepsPerRank = 12;
inline constexpr const char* kTabuBudgetHelp =
    "Tabu moves (default 200 x slots, at most 3e8 / slots^2; above 1024 slots 12 steps per rank; after multilevel "
    "1e7 / slots^2, up to 256 slots; at most 1e9; 'default' for it)";

/// Default tabu moves for N positions: 200 N, at most kMaxTableUpdates
/// table updates, so that any size ends in about 2 s.
[[nodiscard]] inline std::int64_t default_tabu_iterations(std::int64_t n) {
  const std::int64_t by_work = kMaxTableUpdates / std::max<std::int64_t>(1, n * n);
  return std::max<std::int64_t>(1, std::min(200 * n, by_work));
}

/// best's shared dense budget: kPortfolioTableUpdates in all, or 500 moves
/// per slot while that stays under kMaxTableUpdates. Small problems thus get
/// many moves (QAPLIB's chr20c needs ~1e6 for its optimum).
[[nodiscard]] inline std::int64_t portfolio_tabu_iterations(std::int64_t slots) {
  const auto square = std::max<std::int64_t>(1, slots * slots);
  return std::max<std::int64_t>(kPortfolioTableUpdates / square,
                                std::min<std::int64_t>(500 * slots, kMaxTableUpdates / square));
}

/// Table updates of the tabu search after the multilevel V-cycles (about
/// 0.01-0.03 s here): the quality mode's budget at most 256 slots, where the
/// goal is twice scotch_gmap's time plus 0.05 s.
inline constexpr std::int64_t kQualityTableUpdates = 10'000'000;

/// Tabu moves after the multilevel V-cycles on a problem of the descent's
/// size (at most 256 slots): kQualityTableUpdates table updates (2,441
/// moves at 64 slots, 152 at 256), with forced moves from N^2 on
/// (aspiration_squares 1). The V-cycles end in a swap-local optimum that
/// the descent cannot leave; on 64 random ranks of a tleaf Taillard's
/// schedule (forced moves after 5 N^2) needed 32,000 moves (0.36 s) for
/// 1.4 % lower hop-bytes and found nothing in 16,000; with forced moves
/// from N^2 on, 2,000 moves find 0.9 % (below SharedMap's and Mt-KaHyPar's
/// process mapping; every 64-rank row of benchmarks/results/peers.md stays
/// at or below its best peer).
[[nodiscard]] inline std::int64_t multilevel_tabu_iterations(std::int64_t slots) {
  const auto square = std::max<std::int64_t>(1, slots * slots);
  return std::max<std::int64_t>(1, kQualityTableUpdates / square);
}

/// Forced moves of the quality mode's short tabu search start after this
/// many N^2 moves (robust_tabu's aspiration_squares).
inline constexpr std::int64_t kQualityAspirationSquares = 1;

/// Default steps of the candidate-list tabu for n ranks.
[[nodiscard]] inline std::int64_t candidate_tabu_iterations(std::int64_t ranks) {
  return kCandidateTabuStepsPerRank * ranks;
}

struct DenseProblem {
  std::int64_t n = 0;            ///< positions = items
  std::vector<std::int64_t> w;   ///< n x n symmetric traffic (silent items: 0)
  std::vector<std::int64_t> d;   ///< n x n distances between positions
  std::vector<std::int64_t> pe;  ///< position -> its PE (swaps within one PE change nothing)
  std::vector<char> silent;      ///< item is a free slot
};

struct SearchStats {
  std::int64_t iterations = 0;
  std::int64_t swaps = 0;
  std::int64_t start_cost = 0;
  std::int64_t best_cost = 0;
};

/// The dense problem of ranks with traffic `sym` (symmetrized) on the
/// slots of `constraints` (capacity slots a PE, in allowed_pes order):
/// items are the ranks, then one silent item per slot left free.
[[nodiscard]] DenseProblem dense_problem(const CommMatrix& sym, const Topology& topology,
                                         const Constraints& constraints);

/// True when every move value fits in int64 for this problem (else the
/// caller falls back to the sparse search, which sums in 128 bits).
[[nodiscard]] bool dense_fits(const DenseProblem& problem);

/// Best-improvement swaps until none lowers the cost. pos[item] = position.
SearchStats dense_descent(const DenseProblem& problem, std::vector<std::int64_t>& pos);

/// RoTS for `iterations` moves (or until `seconds` pass when > 0): the best
/// non-tabu swap each time, tabu = both items return to places they left
/// within the tenure (redrawn in [0.9 N, 1.1 N] every 2.2 N moves), aspiration
/// by a new best and by places not visited for `aspiration_squares` N^2
/// moves (Taillard's 5; a short search wants its forced, diversifying moves
/// within its budget: 1). Returns with pos = the best solution seen. Same
/// seed and iterations = same result.
SearchStats robust_tabu(const DenseProblem& problem, std::vector<std::int64_t>& pos, std::int64_t iterations,
                        double seconds, std::uint64_t seed, const StepReport& on_step = {},
                        std::int64_t aspiration_squares = 5);

}  // namespace tmap::refine
