// The one gain state of every local search in tmap: where each rank is, and
// the cached cost of each rank's traffic at its place,
//   D_a = sum over partners l of S_al * d(place(a), place(l)),
// kept exact (128-bit) and up to date as ranks move. From it:
//   move gain  D_a - D_a(p)                          (one sum, not two)
//   swap gain  D_a + D_b - D_a(p_b) - D_b(p_a), with the a-b pair, which
//              keeps its distance, left out of every term (one sum per rank).
// ohtma+'s and --refine's candidate search, umpa-wh/umpa-mc (Deveci et al.)
// and the Scotch repair of overfull terminals all score and apply moves
// here; what differs between them is only which candidates they try.
//
// A "place" is whatever the caller's distance knows: a local PE (candidate
// search), a site (umpa), a Scotch terminal (repair). Capacities and slots
// stay with the caller.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "util/int128.hpp"

namespace tmap::refine {

/// `Distances`: a callable d(place, place) -> integer distance; held by
/// reference, so it must outlive the RankCosts.
template <typename Distances>
class RankCosts {
 public:
  using Int128 = detail::Int128;

  /// `sym`: the symmetrised traffic (each pair in both rows); `place_of[r]`:
  /// rank r's place.
  RankCosts(const CommMatrix& sym, std::vector<std::int64_t> place_of, const Distances& d)
      : sym_(sym), d_(d), place_(std::move(place_of)), current_(place_.size(), 0) {
    for (Rank a = 0; a < static_cast<Rank>(place_.size()); ++a)
      current_[static_cast<std::size_t>(a)] = cost_at(a, place(a));
  }

  [[nodiscard]] std::int64_t place(Rank r) const noexcept { return place_[static_cast<std::size_t>(r)]; }
  [[nodiscard]] const std::vector<std::int64_t>& places() const noexcept { return place_; }

  /// D_a at its own place (cached).
  [[nodiscard]] Int128 current(Rank a) const noexcept { return current_[static_cast<std::size_t>(a)]; }

  /// Hop-bytes of the whole placement: sum over i < j of S_ij d, which is the
  /// sum over ordered pairs of A_ij d.
  [[nodiscard]] Int128 total() const noexcept {
    Int128 sum = 0;
    for (const auto c : current_) sum += c;
    return sum / 2;
  }

  /// D_a(p): a's traffic cost if it sat at place p, the others staying.
  [[nodiscard]] Int128 cost_at(Rank a, std::int64_t p) const {
    Int128 sum = 0;
    const auto targets = sym_.targets(a);
    const auto volumes = sym_.volumes(a);
    for (std::size_t e = 0; e < targets.size(); ++e) {
      sum += static_cast<Int128>(volumes[e]) * d_(p, place(targets[e]));
    }
    return sum;
  }

  /// Decrease of hop-bytes when a moves to place p.
  [[nodiscard]] Int128 move_gain(Rank a, std::int64_t p) const {
    if (p == place(a)) return 0;
    return current(a) - cost_at(a, p);
  }

  /// Decrease of hop-bytes when a and b exchange places.
  [[nodiscard]] Int128 swap_gain(Rank a, Rank b) const {
    const std::int64_t pa = place(a);
    const std::int64_t pb = place(b);
    if (pa == pb) return 0;
    // The a-b pair keeps its distance: take it out of both sides.
    const auto [a_there, ab] = cost_at_without(a, pb, b);
    const auto [b_there, ba] = cost_at_without(b, pa, a);
    const Int128 pair = static_cast<Int128>(ab) * d_(pa, pb) + static_cast<Int128>(ba) * d_(pb, pa);
    return current(a) + current(b) - pair - a_there - b_there;
  }

  /// Moves a to place p and updates every cached cost it changes.
  void move(Rank a, std::int64_t p) {
    const std::int64_t from = place(a);
    if (from == p) return;
    const auto targets = sym_.targets(a);
    const auto volumes = sym_.volumes(a);
    Int128 mine = 0;
    for (std::size_t e = 0; e < targets.size(); ++e) {
      const std::int64_t pl = place(targets[e]);
      const auto v = static_cast<Int128>(volumes[e]);
      // S is symmetric: partner l sees a's volume in its own row too.
      current_[static_cast<std::size_t>(targets[e])] += v * (d_(p, pl) - d_(from, pl));
      mine += v * d_(p, pl);
    }
    place_[static_cast<std::size_t>(a)] = p;
    current_[static_cast<std::size_t>(a)] = mine;
  }

  void swap(Rank a, Rank b) {
    const std::int64_t pa = place(a);
    move(a, place(b));
    move(b, pa);
  }

  /// The distance between two places, as the gains use it.
  [[nodiscard]] auto distance(std::int64_t p, std::int64_t q) const { return d_(p, q); }

  /// D_a(p) without the pair a-skip, and the volume S_a,skip that was left out.
  [[nodiscard]] std::pair<Int128, std::int64_t> cost_at_without(Rank a, std::int64_t p, Rank skip) const {
    Int128 sum = 0;
    std::int64_t left_out = 0;
    const auto targets = sym_.targets(a);
    const auto volumes = sym_.volumes(a);
    for (std::size_t e = 0; e < targets.size(); ++e) {
      if (targets[e] == skip) {
        left_out += volumes[e];
        continue;
      }
      sum += static_cast<Int128>(volumes[e]) * d_(p, place(targets[e]));
    }
    return {sum, left_out};
  }

 private:
  const CommMatrix& sym_;
  const Distances& d_;
  std::vector<std::int64_t> place_;
  std::vector<Int128> current_;
};

}  // namespace tmap::refine
