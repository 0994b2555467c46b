// Recovering a periodic 2D lattice (lattice.hpp). Square lattices are the
// periodic 2-axis grids recover_torus finds. Triangular ones (6 partners
// each) are walked like the torus: rank 0's partners form a ring of six
// (each shares two partners with its ring neighbours), which names the six
// directions (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1) in turn; a
// rank u reached from c along direction t then knows three of its own:
// back to c is t + 3, and c's ring neighbours t + 1 and t - 1 are u's t + 2
// and t - 2 (direction t+1 = t + (t+2) on this ring); the ring walk gives
// t + 1 and t - 1, and the partner left is t. Coordinates spread from rank
// 0; every way back to a rank already placed is a period.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <span>

#include "strategies/geometric/grid_recovery.hpp"
#include "strategies/geometric/lattice.hpp"

namespace tmap::strategies {

namespace {

constexpr std::array<std::array<std::int64_t, 2>, 6> kTriangularSteps{
    {{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}};

/// Coordinates and periods past this are refused (no lattice of ranks gets
/// near it; it keeps every product below 2^63).
constexpr std::int64_t kLargestEntry = std::int64_t{1} << 31;

std::int64_t floor_div(std::int64_t p, std::int64_t q) {
  const auto r = p / q;
  return (p % q != 0 && ((p < 0) != (q < 0))) ? r - 1 : r;
}

std::int64_t floor_mod(std::int64_t p, std::int64_t q) {
  return p - floor_div(p, q) * q;
}

bool partners(const CommMatrix& sym, Rank a, Rank b) {
  const auto row = sym.targets(a);
  return std::binary_search(row.begin(), row.end(), b);
}

/// Each rank's neighbour in each of the six directions, or nothing.
std::optional<std::vector<Rank>> triangular_table(const CommMatrix& sym) {
  const Rank n = sym.num_ranks();
  for (Rank v = 0; v < n; ++v) {
    if (sym.targets(v).size() != 6) return std::nullopt;
  }
  std::vector<Rank> table(static_cast<std::size_t>(n) * 6, -1);
  const auto nb = [&](Rank v, std::size_t dir) -> Rank& { return table[static_cast<std::size_t>(v) * 6 + dir % 6]; };
  // Rank 0's ring: from its lowest partner, each next the ring neighbour
  // not yet walked (the lower of the two at the start).
  const auto first = sym.targets(0);
  std::vector<Rank> ring{first[0]};
  while (ring.size() < 6) {
    std::vector<Rank> next;
    for (const Rank w : first) {
      if (partners(sym, ring.back(), w) && std::find(ring.begin(), ring.end(), w) == ring.end()) next.push_back(w);
    }
    if (next.empty() || (ring.size() > 1 && next.size() != 1) || next.size() > 2) return std::nullopt;
    ring.push_back(next.front());
  }
  if (!partners(sym, ring.back(), ring.front())) return std::nullopt;
  for (std::size_t k = 0; k < 6; ++k) nb(0, k) = ring[k];
  std::vector<char> known(static_cast<std::size_t>(n), 0);
  known[0] = 1;
  std::vector<Rank> queue{0};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Rank c = queue[head];
    for (std::size_t t = 0; t < 6; ++t) {
      const Rank u = nb(c, t);
      if (known[static_cast<std::size_t>(u)]) continue;
      nb(u, t + 3) = c;
      nb(u, t + 2) = nb(c, t + 1);
      nb(u, t + 4) = nb(c, t + 5);
      for (const std::size_t side : {t + 2, t + 4}) {
        const auto next = common_partners(sym, u, nb(u, side), c);
        if (next.size() != 1) return std::nullopt;
        nb(u, side == t + 2 ? t + 1 : t + 5) = next.front();
      }
      std::int64_t left = -1;
      for (const Rank w : sym.targets(u)) {
        bool assigned = false;
        for (std::size_t s = 0; s < 6 && !assigned; ++s) assigned = s != t && nb(u, s) == w;
        if (assigned) continue;
        if (left >= 0) return std::nullopt;
        left = w;
      }
      if (left < 0) return std::nullopt;
      nb(u, t) = static_cast<Rank>(left);
      known[static_cast<std::size_t>(u)] = 1;
      queue.push_back(u);
    }
  }
  if (static_cast<Rank>(queue.size()) != n) return std::nullopt;
  // Every direction a partner and its opposite the way back.
  for (Rank v = 0; v < n; ++v) {
    for (std::size_t k = 0; k < 6; ++k) {
      const Rank u = nb(v, k);
      if (u < 0 || u == v || !partners(sym, v, u) || nb(u, k + 3) != v) return std::nullopt;
    }
  }
  return table;
}

/// Coordinates by the steps from rank 0 and the lattice of periods; nothing
/// unless the coordinates are a bijection onto the torus they define.
std::optional<Lattice2D> place(Lattice2D lattice, const std::vector<Rank>& table, std::size_t directions,
                               std::span<const std::array<std::int64_t, 2>> steps, Rank n) {
  lattice.x.assign(static_cast<std::size_t>(n), 0);
  lattice.y.assign(static_cast<std::size_t>(n), 0);
  std::vector<char> placed(static_cast<std::size_t>(n), 0);
  placed[0] = 1;
  std::vector<Rank> queue{0};
  std::vector<std::array<std::int64_t, 2>> periods;
  std::optional<LatticeBasis> basis;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Rank c = queue[head];
    for (std::size_t t = 0; t < directions; ++t) {
      const Rank u = table[static_cast<std::size_t>(c) * directions + t];
      const auto x = lattice.x[static_cast<std::size_t>(c)] + steps[t][0];
      const auto y = lattice.y[static_cast<std::size_t>(c)] + steps[t][1];
      if (std::max(std::abs(x), std::abs(y)) > kLargestEntry) return std::nullopt;
      if (!placed[static_cast<std::size_t>(u)]) {
        placed[static_cast<std::size_t>(u)] = 1;
        lattice.x[static_cast<std::size_t>(u)] = x;
        lattice.y[static_cast<std::size_t>(u)] = y;
        queue.push_back(u);
        continue;
      }
      const auto px = x - lattice.x[static_cast<std::size_t>(u)];
      const auto py = y - lattice.y[static_cast<std::size_t>(u)];
      if ((px == 0 && py == 0) || (basis && basis->contains(px, py))) continue;
      // Until two independent periods are known, the same wrap comes back edge after edge.
      const auto repeats = [&](const std::array<std::int64_t, 2>& p) {
        return (p[0] == px && p[1] == py) || (p[0] == -px && p[1] == -py);
      };
      if (std::any_of(periods.begin(), periods.end(), repeats)) continue;
      periods.push_back({px, py});
      basis = lattice_of(periods);
    }
  }
  if (!basis || basis->a * basis->d != n) return std::nullopt;
  lattice.periods = *basis;
  std::vector<char> taken(static_cast<std::size_t>(n), 0);
  for (Rank r = 0; r < n; ++r) {
    auto& slot = taken[static_cast<std::size_t>(
        basis->residue(lattice.x[static_cast<std::size_t>(r)], lattice.y[static_cast<std::size_t>(r)]))];
    if (slot) return std::nullopt;
    slot = 1;
  }
  return lattice;
}

}  // namespace

bool LatticeBasis::contains(std::int64_t x, std::int64_t y) const noexcept {
  if (floor_mod(y, d) != 0) return false;
  return floor_mod(x - (y / d) * b, a) == 0;
}

std::int64_t LatticeBasis::residue(std::int64_t x, std::int64_t y) const noexcept {
  const auto j = floor_div(y, d);
  return (y - j * d) * a + floor_mod(x - j * b, a);
}

std::optional<LatticeBasis> lattice_of(const std::vector<std::array<std::int64_t, 2>>& vectors) {
  // Euclid on the y entries leaves one vector (b, d) with y = gcd; the
  // others' x entries (y now 0) have gcd a.
  std::array<std::int64_t, 2> pivot{0, 0};
  std::int64_t a = 0;
  for (auto v : vectors) {
    if (std::max(std::abs(v[0]), std::abs(v[1])) > kLargestEntry) return std::nullopt;
    while (v[1] != 0) {
      if (pivot[1] == 0) {
        std::swap(pivot, v);
        continue;
      }
      if (std::abs(v[1]) < std::abs(pivot[1])) std::swap(pivot, v);
      const auto q = v[1] / pivot[1];
      v[0] -= q * pivot[0];
      v[1] -= q * pivot[1];
      if (a != 0) v[0] = floor_mod(v[0], a);  // kept small: a divides every x with y = 0
    }
    a = std::gcd(a, v[0]);
    if (a != 0) pivot[0] = floor_mod(pivot[0], a);
  }
  if (a == 0 || pivot[1] == 0) return std::nullopt;
  if (pivot[1] < 0) pivot = {-pivot[0], -pivot[1]};
  return LatticeBasis{a, floor_mod(pivot[0], a), pivot[1]};
}

std::int64_t Lattice2D::distance(std::int64_t dx, std::int64_t dy) const noexcept {
  if (kind == Kind::Triangular && (dx < 0) != (dy < 0) && dx != 0 && dy != 0) {
    return std::max(std::abs(dx), std::abs(dy));
  }
  return std::abs(dx) + std::abs(dy);
}

std::optional<Lattice2D> recover_lattice(const CommMatrix& sym) {
  const Rank n = sym.num_ranks();
  if (n < 9) return std::nullopt;
  const auto degree = sym.targets(0).size();
  if (degree == 4) {
    const auto torus = recover_torus(sym);
    if (!torus || torus->axes() != 2) return std::nullopt;
    Lattice2D lattice;
    lattice.kind = Lattice2D::Kind::Square;
    lattice.periods = LatticeBasis{torus->extent[0], 0, torus->extent[1]};
    for (Rank r = 0; r < n; ++r) {
      lattice.x.push_back(torus->coordinates[static_cast<std::size_t>(r) * 2]);
      lattice.y.push_back(torus->coordinates[static_cast<std::size_t>(r) * 2 + 1]);
    }
    return lattice;
  }
  if (degree != 6) return std::nullopt;
  const auto table = triangular_table(sym);
  if (!table) return std::nullopt;
  Lattice2D lattice;
  lattice.kind = Lattice2D::Kind::Triangular;
  return place(std::move(lattice), *table, 6, kTriangularSteps, n);
}

}  // namespace tmap::strategies
