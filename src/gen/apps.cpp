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

/// Collects a pattern phase by phase: what is sent after phase(k) is sent
/// in each of k runs of that phase, one after another.
class Builder {
 public:
  explicit Builder(Rank n) : n_(n) {}
  /// Starts the next phase, run `repeat` times in a row.
  void phase(std::int64_t repeat = 1) { phases_.push_back({repeat, {}}); }
  /// Both directions, `bytes` each (a symmetric exchange).
  void exchange(Rank a, Rank b, Volume bytes) {
    send(a, b, bytes);
    send(b, a, bytes);
  }
  void send(Rank a, Rank b, Volume bytes) {
    if (phases_.empty()) phase();
    if (a != b && bytes > 0) phases_.back().entries.push_back({a, b, bytes});
  }
  /// The matrix of one iteration; with its phases (empty ones left out), or
  /// their sum alone.
  CommMatrix build(bool with_phases) {
    if (!with_phases) {
      std::vector<CommEntry> all;
      for (auto& phase : phases_) {
        for (auto e : phase.entries) all.push_back({e.from, e.to, e.bytes * phase.repeat});
      }
      return CommMatrix::from_entries(n_, std::move(all));
    }
    std::vector<CommPhase> phases;
    for (auto& phase : phases_) {
      if (!phase.entries.empty())
        phases.push_back({CommMatrix::from_entries(n_, std::move(phase.entries)), phase.repeat});
    }
    return CommMatrix::from_phases(n_, std::move(phases));
  }

 private:
  struct Phase {
    std::int64_t repeat;
    std::vector<CommEntry> entries;
  };
  Rank n_;
  std::vector<Phase> phases_;
};

void need(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

/// `times` recursive-doubling all-reduces of `bytes` per step (partners
/// 2^k apart; a count that is not a power of two folds its extra ranks in
/// first and gets the result back last): a phase per step.
void allreduce(Builder& b, Rank p, Volume bytes, std::int64_t times = 1) {
  const auto pow2 = static_cast<Rank>(std::bit_floor(static_cast<std::uint64_t>(p)));
  if (pow2 < p) {
    b.phase(times);
    for (Rank r = pow2; r < p; ++r) b.send(r, r - pow2, bytes);
  }
  for (Rank step = 1; step < pow2; step <<= 1) {
    b.phase(times);
    for (Rank r = 0; r < pow2; ++r) b.send(r, r ^ step, bytes);
  }
  if (pow2 < p) {
    b.phase(times);
    for (Rank r = pow2; r < p; ++r) b.send(r - pow2, r, bytes);
  }
}

CommMatrix cg(Rank p, const ClassSizes& c, bool with_phases) {
  need(power_of_two(p), "cg: the number of ranks must be a power of two (NPB's CG)");
  // nprows x npcols, npcols = nprows or 2 nprows; rank = row * npcols + col.
  const auto log = std::countr_zero(static_cast<std::uint64_t>(p));
  const std::int64_t nprows = std::int64_t{1} << (log / 2);
  const std::int64_t npcols = p / nprows;
  Builder b(p);
  // Per CG iteration (25 inner steps): log2(npcols) recursive-doubling
  // exchanges in the row of na / nprows doubles, and one exchange with the
  // transpose partner of na / npcols doubles: a phase each.
  constexpr std::int64_t kInner = 25;
  const Volume reduce = (c.cg_na / nprows) * 8;
  const Volume transpose = (c.cg_na / npcols) * 8;
  for (std::int64_t step = 1; step < npcols; step <<= 1) {
    b.phase(kInner);
    for (Rank r = 0; r < p; ++r) b.send(r, (r / npcols) * npcols + ((r % npcols) ^ step), reduce);
  }
  b.phase(kInner);
  for (Rank r = 0; r < p; ++r) {
    const auto row = r / npcols;
    const auto col = r % npcols;
    const auto prow = col % nprows;
    const auto pcol = row + nprows * (col / nprows);
    b.send(r, prow * npcols + pcol, transpose);
  }
  return b.build(with_phases);
}

/// BT and SP: multi-partition on a q x q grid of processes, q cells each;
/// predecessor/successor in x, y and the diagonal z direction (NPB's
/// make_set), faces of (N/q)^2 points per cell.
CommMatrix multipartition(Rank p, const ClassSizes& c, int doubles_per_face, const char* name, bool with_phases) {
  const auto q = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(p))));
  need(q * q == p, std::string(name) + ": the number of ranks must be a square (NPB's multi-partition)");
  const auto cell = std::max<std::int64_t>(1, c.grid / q);
  // Per iteration: the copy_faces halo (2 layers x 5 values of q cells'
  // faces) with all six neighbours at once, then in each direction q
  // pipelined stages of a cell^2 face to the successor (forward
  // elimination) and q back to the predecessor (back substitution).
  const Volume face = cell * cell * doubles_per_face * 8;
  const Volume halo = q * cell * cell * 2 * 5 * 8;
  const auto at = [q](std::int64_t x, std::int64_t y) { return ((y % q + q) % q) * q + (x % q + q) % q; };
  // successor(d) = (i, j) + kSteps[d], predecessor(d) = (i, j) - kSteps[d] (NPB's make_set).
  constexpr std::array<std::array<int, 2>, 3> kSteps{{{1, 0}, {0, 1}, {1, -1}}};
  Builder b(p);
  b.phase();
  for (Rank r = 0; r < p; ++r) {
    for (const auto& [dx, dy] : kSteps) {
      b.send(r, at(r % q + dx, r / q + dy), halo);
      b.send(r, at(r % q - dx, r / q - dy), halo);
    }
  }
  for (const auto& [dx, dy] : kSteps) {
    for (const std::int64_t sign : {1, -1}) {
      b.phase(q);
      for (Rank r = 0; r < p; ++r) b.send(r, at(r % q + sign * dx, r / q + sign * dy), face);
    }
  }
  return b.build(with_phases);
}

/// LU: SSOR wavefronts on a px x py grid (non-periodic): per k-plane one
/// message of 5 doubles per boundary point to the east and north (the lower
/// sweep), then back (the upper sweep); then the residual's halo (NPB's
/// exchange_3: the whole face with each neighbour, pairs in two turns per
/// axis) and the residual norms' all-reduce.
CommMatrix lu(Rank p, const ClassSizes& c, bool with_phases) {
  need(power_of_two(p), "lu: the number of ranks must be a power of two (NPB's LU)");
  const auto [px, py] = grid2(p);
  const Volume x_edge = (c.grid / py) * 5 * 8;  // a plane's message across an x face
  const Volume y_edge = (c.grid / px) * 5 * 8;
  Builder b(p);
  for (const int sign : {1, -1}) {
    b.phase(c.grid);
    for (Rank r = 0; r < p; ++r) {
      const auto x = r % px + sign;
      const auto y = r / px + sign;
      if (x >= 0 && x < px) b.send(r, r + sign, x_edge);
      if (y >= 0 && y < py) b.send(r, r + sign * px, y_edge);
    }
  }
  for (const int turn : {0, 1}) {
    b.phase();
    for (Rank r = 0; r < p; ++r) {
      if (r % px % 2 == turn && r % px + 1 < px) b.exchange(r, r + 1, c.grid * x_edge);
    }
  }
  for (const int turn : {0, 1}) {
    b.phase();
    for (Rank r = 0; r < p; ++r) {
      if (r / px % 2 == turn && r / px + 1 < py) b.exchange(r, r + px, c.grid * y_edge);
    }
  }
  allreduce(b, p, Volume{5} * 8);  // the residual norms (l2norm)
  return b.build(with_phases);
}

/// MG: a periodic px x py x pz grid; face exchanges at every level of the
/// V-cycle, about 4/3 of the finest face, down and up.
CommMatrix mg(Rank p, const ClassSizes& c, bool with_phases) {
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
  return b.build(with_phases);
}

/// FT: one all-to-all transpose of the complex grid per iteration.
CommMatrix ft(Rank p, const ClassSizes& c, bool with_phases) {
  const Volume bytes = std::max<Volume>(1, c.ft_points * 16 / (p * p));
  Builder b(p);
  for (Rank a = 0; a < p; ++a) {
    for (Rank z = 0; z < p; ++z) b.send(a, z, bytes);
  }
  return b.build(with_phases);
}

/// Sweep3D and SNAP: KBA wavefront sweeps on a px x py process grid
/// (non-periodic), weak scaling: each rank keeps its block. Per iteration
/// each of the 8 octants (from the four corners in turn, twice: the two z
/// directions) pipelines `steps` faces of `face` bytes to the downstream x
/// and y neighbours; then `reductions` all-reduces of `reduce` bytes.
CommMatrix sweep(Rank p, std::int64_t steps, Volume face, Volume reduce, std::int64_t reductions, bool with_phases) {
  const auto [px, py] = grid2(p);
  Builder b(p);
  for (int octant = 0; octant < 8; ++octant) {
    const int dx = (octant & 1) != 0 ? -1 : 1;
    const int dy = (octant & 2) != 0 ? -1 : 1;
    b.phase(steps);
    for (Rank r = 0; r < p; ++r) {
      const auto x = r % px + dx;
      const auto y = r / px + dy;
      if (x >= 0 && x < px) b.send(r, r + dx, face);
      if (y >= 0 && y < py) b.send(r, r + dy * px, face);
    }
  }
  allreduce(b, p, reduce, reductions);
  return b.build(with_phases);
}

}  // namespace

const std::vector<std::string>& app_patterns() {
  static const std::vector<std::string> names{"cg", "bt", "sp", "lu", "mg", "ft", "sweep3d", "snap"};
  return names;
}

CommMatrix app_pattern(std::string_view name, Rank ranks, char npb_class, bool with_phases) {
  need(ranks >= 1 && ranks <= (std::int64_t{1} << 20), "the number of ranks must be between 1 and 2^20");
  const auto c = class_sizes(npb_class);
  if (name == "cg") return cg(ranks, c, with_phases);
  if (name == "bt") return multipartition(ranks, c, 30, "bt", with_phases);  // 5x5 block + 5 values per point
  if (name == "sp") return multipartition(ranks, c, 10, "sp", with_phases);  // scalar pentadiagonal: 2 x 5 values
  if (name == "lu") return lu(ranks, c, with_phases);
  if (name == "mg") return mg(ranks, c, with_phases);
  if (name == "ft") {
    need(ranks <= 16384, "ft: all-to-all above 16384 ranks has more than 2^28 entries");
    return ft(ranks, c, with_phases);
  }
  // Sweep3D: 16 x 16 columns of 400 cells per rank, 6 angles per octant,
  // in blocks of 10 planes and 3 angles (mk, mmi): 80 steps of 16 x 10 x 3
  // doubles; one small reduction (the flux error) per iteration.
  if (name == "sweep3d")
    return sweep(ranks, std::int64_t{400 / 10} * (6 / 3), Volume{16} * 10 * 3 * 8, 8, 1, with_phases);
  // SNAP: 16 x 16 cells per rank face, 16 planes in chunks of 4, 48 angles
  // per octant, 30 groups one after another: 120 steps of 16 x 4 x 48
  // doubles; its inner iterations' convergence tests (5 assumed) reduce
  // 1000 values per group, which spreads traffic over ranks 2^k apart.
  if (name == "snap") {
    return sweep(ranks, std::int64_t{30} * (16 / 4), Volume{16} * 4 * 48 * 8, Volume{30} * 1000 * 8, 5, with_phases);
  }
  throw InputError("unknown pattern '" + std::string(name) + "'");
}

}  // namespace tmap::gen
