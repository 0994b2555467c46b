// Which of its candidates auto keeps (see auto.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "strategies/auto/auto.hpp"

namespace tmap::strategies {

namespace {

/// Values within this fraction of each other are equal: sums of the same
/// loads in another order differ in their last bits.
constexpr double kSameValue = 1e-9;

}  // namespace

std::size_t choose_candidate(std::span<const ObjectiveScore> scores, std::optional<std::int64_t> most_hop_bytes,
                             double same_within) {
  const auto eligible = [&](std::size_t k) { return !most_hop_bytes || scores[k].hop_bytes <= *most_hop_bytes; };
  // The least value, then the candidates within `same_within` of it: the
  // fewest hop-bytes among them, ties to the earliest.
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < scores.size(); ++k) {
    if (eligible(k)) least = std::min(least, scores[k].value);
  }
  const double bound = least + std::max(same_within, kSameValue) * std::abs(least);
  std::size_t best = scores.size();
  for (std::size_t k = 0; k < scores.size(); ++k) {
    if (!eligible(k) || scores[k].value > bound) continue;
    if (best == scores.size() || scores[k].hop_bytes < scores[best].hop_bytes) best = k;
  }
  if (best == scores.size()) throw std::logic_error("auto: no candidate within the hop-bytes ceiling");
  return best;
}

std::vector<std::size_t> at_or_below(std::span<const ObjectiveScore> scores, std::span<const std::size_t> references) {
  std::vector<std::size_t> found;
  for (std::size_t k = 0; k < scores.size(); ++k) {
    const bool below_all = std::ranges::all_of(references, [&](std::size_t r) {
      return scores[k].hop_bytes <= scores[r].hop_bytes &&
             scores[k].value <= scores[r].value + kSameValue * std::abs(scores[r].value);
    });
    if (below_all) found.push_back(k);
  }
  return found;
}

std::size_t choose_no_regret(std::span<const ObjectiveScore> scores, std::span<const std::size_t> references,
                             double same_within, double dominance) {
  // Never above the first reference (in-order: at or below itself) in
  // either; among those, the candidates also at or below the others when
  // one of them is within `dominance` of the fastest.
  const auto among = [&](std::span<const std::size_t> indices) {
    std::vector<ObjectiveScore> some;
    for (const auto k : indices) some.push_back(scores[k]);
    return indices[choose_candidate(some, std::nullopt, same_within)];
  };
  const auto below_first = at_or_below(scores, references.first(1));
  double fastest = std::numeric_limits<double>::infinity();
  for (const auto k : below_first) fastest = std::min(fastest, scores[k].value);
  std::vector<std::size_t> below_all;
  for (const auto k : at_or_below(scores, references)) {
    if (scores[k].value <= fastest + std::max({dominance, same_within, kSameValue}) * std::abs(fastest)) {
      below_all.push_back(k);
    }
  }
  return below_all.empty() ? among(below_first) : among(below_all);
}

}  // namespace tmap::strategies
