// A partial placement of ranks onto sites, and the site choices the greedy
// constructions (Hoefler-Snir greedy, Deveci et al.'s Algorithm 1) share.
#pragma once

#include <queue>
#include <tuple>
#include <vector>

#include "strategies/common/sites.hpp"
#include "tmap/comm_matrix.hpp"

namespace tmap::strategies {

class Placement {
 public:
  /// `sym` is the symmetrised traffic (A + A^T).
  Placement(const CommMatrix& sym, const SiteSpace& sites);

  [[nodiscard]] Site site_of(Rank r) const noexcept { return site_of_[static_cast<std::size_t>(r)]; }
  [[nodiscard]] bool placed(Rank r) const noexcept { return site_of(r) >= 0; }
  [[nodiscard]] bool empty() const noexcept { return placed_ == 0; }
  [[nodiscard]] const std::vector<Site>& site_of_rank() const noexcept { return site_of_; }
  /// Puts r on s and adds r's traffic to its unplaced partners' connection.
  void place(Rank r, Site s);
  /// The unplaced rank with the most traffic to placed ranks (ties: more
  /// total traffic, then the lower id); -1 when no unplaced rank has any.
  [[nodiscard]] Rank pop_most_connected();
  /// The unplaced rank with the most total traffic (lowest id on ties).
  [[nodiscard]] Rank heaviest_unplaced();
  /// Total traffic (send + receive) of each rank.
  [[nodiscard]] const std::vector<Volume>& weights() const noexcept { return weight_; }

  /// How to rank the open sites for a rank with placed partners.
  enum class Rule {
    Cost,           ///< least added hop-bytes (Hoefler-Snir's "closest to its partners")
    LevelThenCost,  ///< nearest to any partner's site first (a BFS level), then least cost (Deveci's GETBESTNODE)
  };
  /// The open site for r by `rule` (ties: lowest site id). r must have a
  /// placed partner.
  [[nodiscard]] Site best_site(Rank r, Rule rule);
  [[nodiscard]] bool has_placed_partner(Rank r) const;
  /// The open site with the least total distance to all sites (a centre).
  [[nodiscard]] Site central_site() const;
  /// The open site farthest from every used site (max of the min distance).
  [[nodiscard]] Site farthest_open_site() const;
  /// The open site nearest to s.
  [[nodiscard]] Site nearest_open_site(Site s) const;

 private:
  const CommMatrix& sym_;
  const SiteSpace& sites_;
  std::vector<Site> site_of_;
  std::vector<std::int64_t> load_;
  std::vector<Site> open_;  ///< sites with a free slot (any order)
  std::vector<Site> used_;  ///< sites holding a rank
  std::int64_t placed_ = 0;
  std::vector<Volume> weight_;
  std::vector<Volume> conn_;
  /// Lazy max-heap of (conn, weight, -rank); stale entries are skipped.
  std::priority_queue<std::tuple<Volume, Volume, Rank>> heap_;
  std::vector<Rank> by_weight_;  ///< ranks by decreasing weight, lazily built
  std::size_t next_heaviest_ = 0;
  // Scratch for best_site: partner weight per site.
  std::vector<Volume> weight_on_;
  std::vector<Site> touched_;
  std::vector<Site> candidates_;
  [[nodiscard]] bool is_open(Site s) const noexcept { return load_[static_cast<std::size_t>(s)] < sites_.capacity(s); }
};

}  // namespace tmap::strategies
