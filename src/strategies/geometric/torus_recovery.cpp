// Periodic stencils: every rank has 2d partners and no rank is a corner.
// Rank 0's partners pair into axes (the two ends of an axis share no
// partner but rank 0; two perpendicular ones also share their diagonal),
// then each rank's neighbours by direction spread from a known neighbour c
// along direction t: back to c is -t, the step along another axis s is the
// one common partner of u and c's s-neighbour other than c (the square
// c, u, w, c+s), and the partner left is +t. Axes shorter than 5 are not
// recognised (their ends share a second partner).
#include <algorithm>

#include "strategies/geometric/grid_recovery.hpp"

namespace tmap::strategies {

std::vector<Rank> common_partners(const CommMatrix& sym, Rank a, Rank b, Rank skip) {
  std::vector<Rank> both;
  const auto x = sym.targets(a);
  const auto y = sym.targets(b);
  std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(both));
  both.erase(std::remove(both.begin(), both.end(), skip), both.end());
  return both;
}

std::optional<RecoveredGrid> recover_torus(const CommMatrix& sym) {
  const Rank n = sym.num_ranks();
  const auto degree = static_cast<std::int64_t>(sym.targets(0).size());
  if (degree < 2 || degree > 6 || degree % 2 != 0) return std::nullopt;
  const auto axes = static_cast<std::size_t>(degree / 2);
  const auto directions = static_cast<std::size_t>(degree);
  // Directions: 2k = +k, 2k + 1 = -k; axes in the order of their lower end.
  std::vector<Rank> table(static_cast<std::size_t>(n) * directions, -1);
  const auto nb = [&](Rank v, std::size_t dir) -> Rank& {
    return table[static_cast<std::size_t>(v) * directions + dir];
  };
  {
    const auto first = sym.targets(0);
    std::vector<char> paired(first.size(), 0);
    std::size_t axis = 0;
    for (std::size_t i = 0; i < first.size(); ++i) {
      if (paired[i]) continue;
      std::int64_t opposite = -1;
      for (std::size_t j = i + 1; j < first.size(); ++j) {
        if (!paired[j] && common_partners(sym, first[i], first[j], 0).empty()) {
          if (opposite >= 0) return std::nullopt;  // two candidates: not a torus of axes >= 5
          opposite = static_cast<std::int64_t>(j);
        }
      }
      if (opposite < 0 || axis >= axes) return std::nullopt;
      paired[i] = paired[static_cast<std::size_t>(opposite)] = 1;
      nb(0, 2 * axis) = first[i];
      nb(0, 2 * axis + 1) = first[static_cast<std::size_t>(opposite)];
      ++axis;
    }
  }
  // Spread the tables from rank 0.
  std::vector<char> known(static_cast<std::size_t>(n), 0);
  known[0] = 1;
  std::vector<Rank> queue{0};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Rank c = queue[head];
    for (std::size_t t = 0; t < directions; ++t) {
      const Rank u = nb(c, t);
      if (known[static_cast<std::size_t>(u)]) continue;
      if (static_cast<std::int64_t>(sym.targets(u).size()) != degree) return std::nullopt;
      nb(u, t ^ 1U) = c;
      for (std::size_t s = 0; s < directions; ++s) {
        if (s / 2 == t / 2) continue;
        const auto corner = common_partners(sym, u, nb(c, s), c);
        if (corner.size() != 1) return std::nullopt;
        nb(u, s) = corner.front();
      }
      std::int64_t left = -1;
      for (const Rank w : sym.targets(u)) {
        bool assigned = false;
        for (std::size_t s = 0; s < directions && !assigned; ++s) assigned = s != t && nb(u, s) == w;
        if (assigned) continue;
        if (left >= 0) return std::nullopt;
        left = w;
      }
      if (left < 0) return std::nullopt;
      nb(u, t) = left;
      known[static_cast<std::size_t>(u)] = 1;
      queue.push_back(u);
    }
  }
  if (static_cast<Rank>(queue.size()) != n) return std::nullopt;
  RecoveredGrid grid;
  grid.periodic = true;
  for (std::size_t k = 0; k < axes; ++k) {  // walk +k from rank 0 back to it
    std::int64_t length = 1;
    for (Rank v = nb(0, 2 * k); v != 0; v = nb(v, 2 * k)) {
      if (++length > n) return std::nullopt;
    }
    if (length < 5) return std::nullopt;
    grid.extent.push_back(length);
  }
  // Coordinates: rank 0 at the origin, one step per direction (mod extent).
  grid.coordinates.assign(static_cast<std::size_t>(n) * axes, -1);
  std::fill_n(grid.coordinates.begin(), axes, 0);
  for (const Rank c : queue) {
    for (std::size_t t = 0; t < directions; ++t) {
      const Rank u = nb(c, t);
      if (grid.coordinates[static_cast<std::size_t>(u) * axes] >= 0) continue;
      for (std::size_t k = 0; k < axes; ++k) {
        auto x = grid.coordinates[static_cast<std::size_t>(c) * axes + k];
        if (k == t / 2) x = (x + (t % 2 == 0 ? 1 : grid.extent[k] - 1)) % grid.extent[k];
        grid.coordinates[static_cast<std::size_t>(u) * axes + k] = x;
      }
    }
  }
  if (!is_exactly_the_grid(sym, grid)) return std::nullopt;
  return grid;
}

}  // namespace tmap::strategies
