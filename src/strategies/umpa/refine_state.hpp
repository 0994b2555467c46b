// The state Deveci et al.'s refinements (Algorithms 2 and 3) work on: ranks
// on sites, exact gains of swaps and moves, and the BFS-ordered candidates
// for a rank (sites by their distance to the rank's partners' sites).
#pragma once

#include <vector>

#include "refine/rank_costs.hpp"
#include "strategies/common/sites.hpp"
#include "tmap/comm_matrix.hpp"
#include "util/int128.hpp"

namespace tmap::strategies::umpa {

/// A swap partner: another rank, or a free slot on `site` (rank = -1).
struct Candidate {
  Rank rank = -1;
  Site site = -1;
};

class RefineState {
 public:
  RefineState(const CommMatrix& sym, const SiteSpace& sites, std::vector<Site> start);

  [[nodiscard]] Site site_of(Rank r) const noexcept { return costs_.place(r); }
  [[nodiscard]] const std::vector<Site>& site_of_rank() const noexcept { return costs_.places(); }
  [[nodiscard]] const SiteSpace& sites() const noexcept { return sites_; }

  /// sum_j sym[t][j] * d(t, j): the weighted hops rank t is responsible for.
  [[nodiscard]] detail::Int128 incurred(Rank t) const noexcept { return costs_.current(t); }
  /// Change of sum_t incurred(t) / 2 (= hop-bytes) if c's rank and t swap
  /// sites, or t moves to c's free slot.
  [[nodiscard]] detail::Int128 delta(Rank t, const Candidate& c) const;
  /// Carries the swap or move out.
  void apply(Rank t, const Candidate& c);

  /// The first `limit` candidates for t: sites other than t's by increasing
  /// distance to the nearest site of a partner of t (a multi-source BFS
  /// level), then by id, among the partner sites and their nearest sites
  /// (SiteSpace::nearest: the BFS's early exit); on each, its ranks by id,
  /// then one free slot if it has one.
  [[nodiscard]] std::vector<Candidate> candidates(Rank t, std::size_t limit);

 private:
  struct SiteDistance {
    const SiteSpace* sites;
    Distance operator()(Site s, Site t) const noexcept { return sites->distance(s, t); }
  };

  const CommMatrix& sym_;
  const SiteSpace& sites_;
  SiteDistance distance_;
  refine::RankCosts<SiteDistance> costs_;  ///< each rank's site and cached weighted hops
  std::vector<std::vector<Rank>> ranks_on_;
  // Scratch for candidates().
  std::vector<Distance> level_;
  std::vector<Site> order_;
  std::vector<char> partner_site_;
  std::vector<char> seen_;
  std::vector<Site> partner_sites_;
};

}  // namespace tmap::strategies::umpa
