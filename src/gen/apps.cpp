// Application-like communication patterns (tm-gen cg, bt, sp, lu, mg, ft,
// sweep3d, snap): who talks to whom as the NPB 3.3 MPI codes and the two
// transport codes of the OHTMA paper do, with bytes per iteration from the
// class's problem size. Models and assumptions are listed in docs/formats.md.
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <string>

#include "tmap/error.hpp"
#include "tmap/generators.hpp"

namespace tmap::gen {

namespace {

struct ClassSizes {
  std::int64_t cg_na;      ///< CG matrix order
  std::int64_t grid;       ///< BT, SP and LU grid points per side
  std::int64_t mg_grid;    ///< MG grid points per side
  std::int64_t ft_points;  ///< FT grid points (nx * ny * nz)
};

/// NPB's problem sizes per class (the NPB 3.4 reports), one row each.
struct ClassRow {
  char name;
  ClassSizes sizes;
};
constexpr ClassRow kClasses[] = {
    {'S', {1400, 12, 32, 64LL * 64 * 64}},
    {'W', {7000, 24, 128, 128LL * 128 * 32}},
    {'A', {14000, 64, 256, 256LL * 256 * 128}},
    {'B', {75000, 102, 256, 512LL * 256 * 256}},
    {'C', {150000, 162, 512, 512LL * 512 * 512}},
    {'D', {1500000, 408, 1024, 2048LL * 1024 * 1024}},
    {'E', {9000000, 1020, 2048, 4096LL * 2048 * 2048}},
};

ClassSizes class_sizes(char npb_class) {
  for (const auto& row : kClasses) {
    if (row.name == npb_class) return row.sizes;
  }
  throw InputError(std::string("unknown NPB class '") + npb_class + "' (S, W, A, B, C, D or E)");
}

bool power_of_two(Rank p) {
  return p > 0 && std::has_single_bit(static_cast<std::uint64_t>(p));
}

/// The most square px x py = p with px >= py (px = 2 py or px = py for
/// powers of two, as NPB's LU chooses).
std::pair<std::int64_t, std::int64_t> grid2(Rank p) {
  auto py = static_cast<std::int64_t>(std::sqrt(static_cast<double>(p)));
  while (py > 1 && p % py != 0) --py;
  return {p / py, py};
}

class Builder {
 public:
  explicit Builder(Rank n) : n_(n) {}
  /// Both directions, `bytes` each (a symmetric exchange).
  void exchange(Rank a, Rank b, Volume bytes) {
    if (a == b || bytes <= 0) return;
    entries_.push_back({a, b, bytes});
    entries_.push_back({b, a, bytes});
  }
  void send(Rank a, Rank b, Volume bytes) {
    if (a != b && bytes > 0) entries_.push_back({a, b, bytes});
  }
  CommMatrix build() { return CommMatrix::from_entries(n_, std::move(entries_)); }

 private:
  Rank n_;
  std::vector<CommEntry> entries_;
};

void need(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

/// A recursive-doubling all-reduce of `bytes` per step (partners 2^k apart;
/// a count that is not a power of two folds its extra ranks in first).
void allreduce(Builder& b, Rank p, Volume bytes) {
  const auto pow2 = static_cast<Rank>(std::bit_floor(static_cast<std::uint64_t>(p)));
  for (Rank r = pow2; r < p; ++r) b.exchange(r, r - pow2, bytes);
  for (Rank r = 0; r < pow2; ++r) {
    for (Rank step = 1; step < pow2; step <<= 1) b.send(r, r ^ step, bytes);
  }
}

CommMatrix cg(Rank p, const ClassSizes& c) {
  need(power_of_two(p), "cg: the number of ranks must be a power of two (NPB's CG)");
  // nprows x npcols, npcols = nprows or 2 nprows; rank = row * npcols + col.
  const auto log = std::countr_zero(static_cast<std::uint64_t>(p));
  const std::int64_t nprows = std::int64_t{1} << (log / 2);
  const std::int64_t npcols = p / nprows;
  Builder b(p);
  // Per CG iteration (25 inner steps): log2(npcols) recursive-doubling
  // exchanges in the row of na / nprows doubles, and one exchange with the
  // transpose partner of na / npcols doubles.
  const Volume reduce = 25 * (c.cg_na / nprows) * 8;
  const Volume transpose = 25 * (c.cg_na / npcols) * 8;
  for (Rank r = 0; r < p; ++r) {
    const auto row = r / npcols;
    const auto col = r % npcols;
    for (std::int64_t step = 1; step < npcols; step <<= 1) b.send(r, row * npcols + (col ^ step), reduce);
    const auto prow = col % nprows;
    const auto pcol = row + nprows * (col / nprows);
    b.send(r, prow * npcols + pcol, transpose);
  }
  return b.build();
}

/// BT and SP: multi-partition on a q x q grid of processes, q cells each;
/// predecessor/successor in x, y and the diagonal z direction (NPB's
/// make_set), faces of (N/q)^2 points per cell.
CommMatrix multipartition(Rank p, const ClassSizes& c, int doubles_per_face, const char* name) {
  const auto q = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(p))));
  need(q * q == p, std::string(name) + ": the number of ranks must be a square (NPB's multi-partition)");
  const auto cell = std::max<std::int64_t>(1, c.grid / q);
  // Per iteration and direction: q cells x a face of cell^2 points, forward
  // and back substitution, plus the copy_faces halo (2 layers x 5 values).
  const Volume sweep = q * cell * cell * doubles_per_face * 8;
  const Volume halo = q * cell * cell * 2 * 5 * 8;
  Builder b(p);
  for (Rank r = 0; r < p; ++r) {
    const auto i = r % q;
    const auto j = r / q;
    const auto at = [q](std::int64_t x, std::int64_t y) { return ((y % q + q) % q) * q + (x % q + q) % q; };
    b.send(r, at(i + 1, j), sweep + halo);      // successor(1)
    b.send(r, at(i, j + 1), sweep + halo);      // successor(2)
    b.send(r, at(i + 1, j - 1), sweep + halo);  // successor(3)
    b.send(r, at(i - 1, j), sweep + halo);      // predecessor(1)
    b.send(r, at(i, j - 1), sweep + halo);      // predecessor(2)
    b.send(r, at(i - 1, j + 1), sweep + halo);  // predecessor(3)
  }
  return b.build();
}

/// LU: SSOR wavefronts on a px x py grid (non-periodic): per k-plane one
/// message of 5 doubles per boundary point to the east/south and back, two
/// sweeps per iteration.
CommMatrix lu(Rank p, const ClassSizes& c) {
  need(power_of_two(p), "lu: the number of ranks must be a power of two (NPB's LU)");
  const auto [px, py] = grid2(p);
  Builder b(p);
  for (Rank r = 0; r < p; ++r) {
    const auto x = r % px;
    const auto y = r / px;
    const Volume along_x = Volume{2} * c.grid * (c.grid / py) * 5 * 8;  // messages across x faces
    const Volume along_y = Volume{2} * c.grid * (c.grid / px) * 5 * 8;
    if (x + 1 < px) b.exchange(r, r + 1, along_x);
    if (y + 1 < py) b.exchange(r, r + px, along_y);
  }
  allreduce(b, p, Volume{5} * 8);  // the residual norms (l2norm)
  return b.build();
}

/// MG: a periodic px x py x pz grid; face exchanges at every level of the
/// V-cycle, about 4/3 of the finest face, down and up.
CommMatrix mg(Rank p, const ClassSizes& c) {
  need(power_of_two(p), "mg: the number of ranks must be a power of two (NPB's MG)");
  std::int64_t d[3] = {1, 1, 1};
  for (Rank rest = p, k = 0; rest > 1; rest /= 2, k = (k + 1) % 3) d[k] *= 2;
  const std::int64_t n = c.mg_grid;
  Builder b(p);
  for (Rank r = 0; r < p; ++r) {
    const std::int64_t coord[3] = {r % d[0], (r / d[0]) % d[1], r / (d[0] * d[1])};
    for (int k = 0; k < 3; ++k) {
      if (d[k] == 1) continue;
      const auto face = (n / d[(k + 1) % 3]) * (n / d[(k + 2) % 3]);
      const Volume bytes = 2 * face * 8 * 4 / 3;
      auto next = std::array<std::int64_t, 3>{coord[0], coord[1], coord[2]};
      next[k] = (next[k] + 1) % d[k];
      const Rank other = next[0] + d[0] * (next[1] + d[1] * next[2]);
      b.exchange(r, other, bytes);
    }
  }
  return b.build();
}

/// FT: one all-to-all transpose of the complex grid per iteration.
CommMatrix ft(Rank p, const ClassSizes& c) {
  const Volume bytes = std::max<Volume>(1, c.ft_points * 16 / (p * p));
  Builder b(p);
  for (Rank a = 0; a < p; ++a) {
    for (Rank z = 0; z < p; ++z) b.send(a, z, bytes);
  }
  return b.build();
}

/// Sweep3D and SNAP: KBA wavefront sweeps on a px x py process grid
/// (non-periodic), weak scaling: each rank keeps its block. Per iteration
/// every octant pipelines its angles through the block's faces.
CommMatrix sweep(Rank p, std::int64_t block, std::int64_t planes, std::int64_t angles, std::int64_t groups,
                 Volume reduction) {
  const auto [px, py] = grid2(p);
  // 8 octants, half of them crossing a given face in each direction.
  const Volume bytes = 4 * block * planes * angles * groups * 8;
  Builder b(p);
  for (Rank r = 0; r < p; ++r) {
    const auto x = r % px;
    const auto y = r / px;
    if (x + 1 < px) b.exchange(r, r + 1, bytes);
    if (y + 1 < py) b.exchange(r, r + px, bytes);
  }
  allreduce(b, p, reduction);
  return b.build();
}

}  // namespace

const std::vector<std::string>& app_patterns() {
  static const std::vector<std::string> names{"cg", "bt", "sp", "lu", "mg", "ft", "sweep3d", "snap"};
  return names;
}

CommMatrix app_pattern(std::string_view name, Rank ranks, char npb_class) {
  need(ranks >= 1 && ranks <= (std::int64_t{1} << 20), "the number of ranks must be between 1 and 2^20");
  const auto c = class_sizes(npb_class);
  if (name == "cg") return cg(ranks, c);
  if (name == "bt") return multipartition(ranks, c, 30, "bt");  // 5x5 block + 5 values per point
  if (name == "sp") return multipartition(ranks, c, 10, "sp");  // scalar pentadiagonal: 2 x 5 values
  if (name == "lu") return lu(ranks, c);
  if (name == "mg") return mg(ranks, c);
  if (name == "ft") {
    need(ranks <= 16384, "ft: all-to-all above 16384 ranks has more than 2^28 entries");
    return ft(ranks, c);
  }
  // Sweep3D: 16 x 16 columns of 400 cells per rank, 6 angles per octant; one
  // small reduction (the flux error) per iteration.
  if (name == "sweep3d") return sweep(ranks, 16, 400, 6, 1, 8);
  // SNAP: 16 x 16 cells per rank face, 48 angles per octant, 30 groups; its
  // inner/outer convergence tests reduce a value per group each inner
  // iteration (5 assumed), which spreads traffic over ranks 2^k apart.
  if (name == "snap") return sweep(ranks, 16, 16, 48, 30, Volume{30} * 8 * 5 * 1000);
  throw InputError("unknown pattern '" + std::string(name) + "'");
}

}  // namespace tmap::gen
