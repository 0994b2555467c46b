// Congruent tiles of a periodic 2D lattice (lattice.hpp). A sublattice of
// centres with `size` points a cell, in Hermite normal form (A, 0), (B, D):
// A D = size, 0 <= B < A, and it must contain the periods (else its cells
// do not close around the torus). Few pass that (31 for a 64 x 64 torus in
// 16 tiles). Each residue class modulo the centres takes the offset of its
// points nearest the origin (lattice distance, then the smaller offset);
// those offsets are one cell, and a rank's tile is its point minus its
// class's offset, a centre, named modulo the periods.
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "strategies/geometric/lattice.hpp"

namespace tmap::strategies {

namespace {

/// The cell of `centres`: for each residue class, the offset nearest the
/// origin; nothing when some class has none within `reach` (a cell too
/// long and thin to be worth it: its cut is larger than a round one's).
std::optional<std::vector<std::array<std::int64_t, 2>>> cell(const Lattice2D& lattice, const LatticeBasis& centres,
                                                             std::int64_t reach) {
  const auto size = centres.a * centres.d;
  using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // distance, dx, dy
  constexpr auto kNone = std::numeric_limits<std::int64_t>::max();
  std::vector<Key> best(static_cast<std::size_t>(size), Key{kNone, 0, 0});
  for (std::int64_t dy = -reach; dy <= reach; ++dy) {
    for (std::int64_t dx = -reach; dx <= reach; ++dx) {
      auto& b = best[static_cast<std::size_t>(centres.residue(dx, dy))];
      b = std::min(b, Key{lattice.distance(dx, dy), dx, dy});
    }
  }
  std::vector<std::array<std::int64_t, 2>> offsets(static_cast<std::size_t>(size));
  for (std::size_t c = 0; c < best.size(); ++c) {
    const auto& [distance, dx, dy] = best[c];
    // Beyond `reach` a point is farther than `reach` away: the class's
    // nearest offset is certain only within it.
    if (distance > reach) return std::nullopt;
    offsets[c] = {dx, dy};
  }
  return offsets;
}

}  // namespace

std::vector<LatticeTiles> tile_lattice(const Lattice2D& lattice, const CommMatrix& pattern, std::int64_t size,
                                       std::size_t most) {
  const auto n = static_cast<std::int64_t>(lattice.x.size());
  const auto& periods = lattice.periods;
  if (size < 1 || size > kLargestTile || n % size != 0 || n / size < 2) return {};
  const auto reach = 2 * static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(size)))) + 2;
  std::vector<LatticeTiles> best;  // of equal cut
  std::vector<std::int64_t> tile_of_centre(static_cast<std::size_t>(n));
  for (std::int64_t a = 1; a <= size; ++a) {
    if (size % a != 0) continue;
    for (std::int64_t b = 0; b < a; ++b) {
      const LatticeBasis centres{a, b, size / a};
      if (!centres.contains(periods.a, 0) || !centres.contains(periods.b, periods.d)) continue;
      const auto offsets = cell(lattice, centres, reach);
      if (!offsets) continue;
      LatticeTiles tiles;
      tiles.centres = centres;
      tiles.tile.resize(static_cast<std::size_t>(n));
      tiles.place.resize(static_cast<std::size_t>(n));
      std::fill(tile_of_centre.begin(), tile_of_centre.end(), -1);
      std::int64_t count = 0;
      for (std::size_t r = 0; r < tiles.tile.size(); ++r) {
        const auto place = centres.residue(lattice.x[r], lattice.y[r]);
        const auto& o = (*offsets)[static_cast<std::size_t>(place)];
        auto& id = tile_of_centre[static_cast<std::size_t>(periods.residue(lattice.x[r] - o[0], lattice.y[r] - o[1]))];
        if (id < 0) id = count++;
        tiles.tile[r] = id;
        tiles.place[r] = place;
      }
      if (count != n / size) continue;  // not congruent cells after all: never seen, but not trusted
      for (Rank v = 0; v < pattern.num_ranks(); ++v) {
        const auto targets = pattern.targets(v);
        const auto volumes = pattern.volumes(v);
        for (std::size_t k = 0; k < targets.size(); ++k) {
          if (tiles.tile[static_cast<std::size_t>(v)] != tiles.tile[static_cast<std::size_t>(targets[k])] &&
              __builtin_add_overflow(tiles.cut, volumes[k], &tiles.cut)) {
            tiles.cut = std::numeric_limits<Volume>::max();  // compared only: saturated is enough
          }
        }
      }
      if (!best.empty() && tiles.cut < best.front().cut) best.clear();
      if ((best.empty() || tiles.cut == best.front().cut) && best.size() < most) best.push_back(std::move(tiles));
    }
  }
  return best;
}

}  // namespace tmap::strategies
