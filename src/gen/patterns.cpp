#include <algorithm>
#include <array>
#include <numeric>
#include <string>

#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "util/random.hpp"

namespace tmap::gen {

CommMatrix stencil(const std::vector<std::int64_t>& dims, int points, Volume volume, bool periodic,
                   const std::vector<Volume>& axis_volumes) {
  const auto nd = dims.size();
  if (nd != 2 && nd != 3) throw InputError("stencil: give 2 or 3 dimensions");
  const bool ok = nd == 2 ? (points == 5 || points == 9) : (points == 7 || points == 27);
  if (!ok)
    throw InputError("stencil: " + std::to_string(nd) + "D stencils have " + (nd == 2 ? "5 or 9" : "7 or 27") +
                     " points");
  if (volume < 0) throw InputError("stencil: the volume must be non-negative");
  if (!axis_volumes.empty() && axis_volumes.size() != nd) {
    throw InputError("stencil: give one axis volume per dimension (" + std::to_string(nd) + ")");
  }
  for (const auto v : axis_volumes) {
    if (v < 0) throw InputError("stencil: axis volumes must be non-negative");
  }
  Rank n = 1;
  for (const auto d : dims) {
    if (d < 1 || d > (std::int64_t{1} << 20)) throw InputError("stencil: every dimension must be between 1 and 2^20");
    n *= d;
  }
  if (n > kMaxRanks) throw InputError("stencil: more than " + std::to_string(kMaxRanks) + " ranks");
  const bool diagonals = points == 9 || points == 27;
  // Neighbour offsets: faces only, or the whole 3^d cube.
  std::vector<std::array<int, 3>> offsets;
  for (int dz = (nd == 3 ? -1 : 0); dz <= (nd == 3 ? 1 : 0); ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
        if (nonzero == 0 || (!diagonals && nonzero != 1)) continue;
        offsets.push_back({dx, dy, dz});
      }
    }
  }
  const std::int64_t X = dims[0];
  const std::int64_t Y = dims[1];
  const std::int64_t Z = nd == 3 ? dims[2] : 1;
  std::vector<CommEntry> entries;
  entries.reserve(static_cast<std::size_t>(n) * offsets.size());
  for (std::int64_t z = 0; z < Z; ++z) {
    for (std::int64_t y = 0; y < Y; ++y) {
      for (std::int64_t x = 0; x < X; ++x) {
        const Rank self = x + X * (y + Y * z);
        for (const auto& o : offsets) {
          std::int64_t c[3] = {x + o[0], y + o[1], z + o[2]};
          const std::int64_t size[3] = {X, Y, Z};
          bool inside = true;
          for (int k = 0; k < 3; ++k) {
            if (c[k] < 0 || c[k] >= size[k]) {
              if (!periodic) inside = false;
              c[k] = (c[k] + size[k]) % size[k];
            }
          }
          if (!inside) continue;
          const Rank other = c[0] + X * (c[1] + Y * c[2]);
          // Face neighbours along axis k carry axis_volumes[k] when given.
          Volume v = volume;
          const int nonzero = (o[0] != 0) + (o[1] != 0) + (o[2] != 0);
          if (!axis_volumes.empty() && nonzero == 1) v = axis_volumes[o[0] != 0 ? 0 : (o[1] != 0 ? 1 : 2)];
          if (other != self && v > 0) entries.push_back({self, other, v});
        }
      }
    }
  }
  // A periodic dimension of size 1 or 2 reaches the same neighbour twice:
  // from_entries sums such duplicates, which is what the traffic is.
  return CommMatrix::from_entries(n, std::move(entries));
}

CommMatrix random_sparse(Rank n, std::int64_t degree, Volume max_volume, std::uint64_t seed) {
  if (n < 1 || n > kMaxRanks)
    throw InputError("random: the number of ranks must be between 1 and " + std::to_string(kMaxRanks));
  if (degree < 0 || (n > 1 && degree > n - 1) || (n == 1 && degree > 0)) {
    throw InputError("random: the degree must be between 0 and ranks-1");
  }
  if (max_volume < 1) throw InputError("random: the volume must be at least 1");
  // Bounded memory: 2 entries per pick, 24 bytes each.
  constexpr std::int64_t kMaxPicks = std::int64_t{1} << 25;
  if (n * degree > kMaxPicks) {
    throw InputError("random: ranks x degree = " + std::to_string(n * degree) + " partners; at most " +
                     std::to_string(kMaxPicks) + " (about 1.6 GB)");
  }
  detail::Random rng(seed, 1);
  std::vector<CommEntry> entries;
  entries.reserve(static_cast<std::size_t>(n * degree * 2));
  std::vector<Rank> picked;
  std::vector<char> taken(static_cast<std::size_t>(n), 0);  // this rank's partners, O(1) each
  for (Rank i = 0; i < n; ++i) {
    for (const Rank j : picked) taken[static_cast<std::size_t>(j)] = 0;
    picked.clear();
    while (static_cast<std::int64_t>(picked.size()) < degree) {
      const auto j = static_cast<Rank>(rng.below(static_cast<std::uint64_t>(n)));
      if (j == i || taken[static_cast<std::size_t>(j)] != 0) continue;
      taken[static_cast<std::size_t>(j)] = 1;
      picked.push_back(j);
      const auto v = static_cast<Volume>(1 + rng.below(static_cast<std::uint64_t>(max_volume)));
      entries.push_back({i, j, v});
      entries.push_back({j, i, v});
    }
  }
  return CommMatrix::from_entries(n, std::move(entries));
}

std::vector<Rank> shuffle_permutation(Rank n, std::uint64_t seed) {
  std::vector<Rank> pi(static_cast<std::size_t>(n));
  std::iota(pi.begin(), pi.end(), Rank{0});
  detail::Random rng(seed, 2);
  rng.shuffle(std::span<Rank>(pi));
  return pi;
}

namespace {

CommMatrix renumbered(const CommMatrix& comm, const std::vector<Rank>& pi) {
  std::vector<CommEntry> entries;
  entries.reserve(static_cast<std::size_t>(comm.num_entries()));
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    for (std::size_t k = 0; k < comm.targets(i).size(); ++k) {
      entries.push_back({pi[i], pi[comm.targets(i)[k]], comm.volumes(i)[k]});
    }
  }
  return CommMatrix::from_entries(comm.num_ranks(), std::move(entries));
}

}  // namespace

CommMatrix shuffle_ranks(const CommMatrix& comm, std::uint64_t seed) {
  const auto pi = shuffle_permutation(comm.num_ranks(), seed);
  // The same job renumbered: its phases and its weights too.
  std::vector<Volume> weights;
  if (!comm.rank_weights().empty()) {
    weights.resize(comm.rank_weights().size());
    for (Rank i = 0; i < comm.num_ranks(); ++i) weights[pi[i]] = comm.rank_weight(i);
  }
  if (comm.phases().empty()) return renumbered(comm, pi).with_rank_weights(std::move(weights));
  std::vector<CommPhase> phases;
  for (const auto& phase : comm.phases()) phases.push_back({renumbered(phase.traffic, pi), phase.repeat});
  return CommMatrix::from_phases(comm.num_ranks(), std::move(phases)).with_rank_weights(std::move(weights));
}

}  // namespace tmap::gen
