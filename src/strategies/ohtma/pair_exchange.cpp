#include "strategies/ohtma/pair_exchange.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "core/distance_oracle.hpp"
#include "tmap/error.hpp"
#include "util/parallel.hpp"

namespace tmap::ohtma {

namespace {

using detail::Int128;

/// The table may use at most this much memory.
constexpr std::int64_t kMaxTableBytes = std::int64_t{8} << 30;

/// |gain| <= 6 * (largest row sum of S) * (largest distance).
Int128 gain_bound(const CommMatrix& sym, Distance max_distance) {
  Int128 largest_row = 0;
  for (Rank a = 0; a < sym.num_ranks(); ++a) {
    Int128 row = 0;
    for (const Volume v : sym.volumes(a)) row += v;
    largest_row = std::max(largest_row, row);
  }
  return 6 * largest_row * std::max<Distance>(max_distance, 1);
}

template <typename Gain, typename Distances>
class GainTable {
 public:
  GainTable(const CommMatrix& sym, const refine::SlotSpace& slots, const Distances& d, std::vector<std::int64_t>& sigma,
            int threads)
      : s_(sym), slots_(slots), d_(d), sigma_(sigma), threads_(threads), n_(sym.num_ranks()) {
    pe_.resize(static_cast<std::size_t>(n_));
    for (Rank a = 0; a < n_; ++a) pe_[a] = slots_.pe_of(sigma_[a]);
    g_.assign(static_cast<std::size_t>(n_ * n_), 0);
    build();
    alive_.assign(static_cast<std::size_t>(n_), 1);
    alive_list_.resize(static_cast<std::size_t>(n_));
    for (Rank a = 0; a < n_; ++a) alive_list_[a] = a;
    best_.resize(static_cast<std::size_t>(n_));
    best_gain_.resize(static_cast<std::size_t>(n_));
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads_)
    for (Rank a = 0; a < n_; ++a) rescan(a);
    e_.assign(static_cast<std::size_t>(n_), 0);
    w_.assign(static_cast<std::size_t>(n_), 0);
    in_u_.assign(static_cast<std::size_t>(n_), 0);
  }

  PassResult run(std::int64_t loop) {
    PassResult result;
    for (std::int64_t k = 0; k < loop && alive_list_.size() >= 2; ++k) {
      const Swap chosen = pick();
      result.swaps.push_back(chosen);
      apply(chosen.i, chosen.j);
    }
    // Backtrack: keep the shortest prefix with the largest positive sum.
    Int128 sum = 0;
    Int128 best = 0;
    std::int64_t kept = 0;
    for (std::size_t t = 0; t < result.swaps.size(); ++t) {
      sum += result.swaps[t].gain;
      if (sum > best) {
        best = sum;
        kept = static_cast<std::int64_t>(t) + 1;
      }
    }
    for (auto t = static_cast<std::int64_t>(result.swaps.size()); t-- > kept;) {
      std::swap(sigma_[result.swaps[t].i], sigma_[result.swaps[t].j]);
    }
    result.kept = kept;
    result.gain = best;
    return result;
  }

 private:
  Gain& at(Rank a, Rank b) noexcept {
    return g_[static_cast<std::size_t>(a * n_ + b)];
  }

  void build() {
    // E[a][b] = D_a(p_b) = sum_l S_al d(p_b, p_l), in the table's storage.
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads_)
    for (Rank a = 0; a < n_; ++a) {
      Gain* row = &at(a, 0);
      const auto targets = s_.targets(a);
      const auto volumes = s_.volumes(a);
      for (std::size_t e = 0; e < targets.size(); ++e) {
        const std::int64_t pl = pe_[targets[e]];
        const Volume w = volumes[e];
        for (Rank b = 0; b < n_; ++b) row[b] = static_cast<Gain>(row[b] + w * d_(pl, pe_[b]));
      }
    }
    std::vector<Gain> diag(static_cast<std::size_t>(n_));
    for (Rank a = 0; a < n_; ++a) diag[a] = at(a, a);
    // G[a][b] = D_a(p_a) - D_a(p_b) + D_b(p_b) - D_b(p_a), in 64 x 64 tiles;
    // task A owns tiles (A, B) and (B, A) for B >= A, so tasks never overlap.
    constexpr Rank kTile = 64;
    const Rank tiles = (n_ + kTile - 1) / kTile;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_)
    for (Rank ta = 0; ta < tiles; ++ta) {
      for (Rank tb = ta; tb < tiles; ++tb) {
        for (Rank a = ta * kTile; a < std::min(n_, (ta + 1) * kTile); ++a) {
          for (Rank b = std::max(tb * kTile, a + 1); b < std::min(n_, (tb + 1) * kTile); ++b) {
            const auto value = static_cast<Gain>(diag[a] - at(a, b) + diag[b] - at(b, a));
            at(a, b) = value;
            at(b, a) = value;
          }
        }
      }
    }
    // Minus 2 S_ab d(p_a, p_b): a swap keeps the distance of the pair itself.
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads_)
    for (Rank a = 0; a < n_; ++a) {
      at(a, a) = 0;
      const auto targets = s_.targets(a);
      const auto volumes = s_.volumes(a);
      for (std::size_t e = 0; e < targets.size(); ++e) {
        at(a, targets[e]) = static_cast<Gain>(at(a, targets[e]) - 2 * volumes[e] * d_(pe_[a], pe_[targets[e]]));
      }
    }
  }

  static bool better(Gain gain, Rank b, Gain best_gain, Rank best) noexcept {
    return best < 0 || gain > best_gain || (gain == best_gain && b < best);
  }

  /// Best unmarked partner of row a.
  void rescan(Rank a) {
    Rank best = -1;
    Gain best_gain = 0;
    const Gain* row = &at(a, 0);
    for (const Rank b : alive_list_) {
      if (b != a && better(row[b], b, best_gain, best)) {
        best = b;
        best_gain = row[b];
      }
    }
    best_[a] = best;
    best_gain_[a] = best_gain;
  }

  /// The unmarked pair with the largest gain, ties to the lowest (i, j).
  [[nodiscard]] Swap pick() const {
    Swap s{-1, -1, 0};
    for (const Rank c : alive_list_) {
      const Rank i = std::min(c, best_[c]);
      const Rank j = std::max(c, best_[c]);
      const std::int64_t gain = best_gain_[c];
      if (s.i < 0 || gain > s.gain || (gain == s.gain && (i < s.i || (i == s.i && j < s.j)))) s = {i, j, gain};
    }
    return s;
  }

  void apply(Rank i, Rank j) {
    const std::int64_t pi = pe_[i];
    const std::int64_t pj = pe_[j];
    std::swap(sigma_[i], sigma_[j]);
    std::swap(pe_[i], pe_[j]);
    alive_[i] = 0;
    alive_[j] = 0;
    std::erase_if(alive_list_, [&](Rank r) { return r == i || r == j; });
    if (alive_list_.empty()) return;

    // U: unmarked neighbours of i or j whose D changes (w_u != 0).
    u_.clear();
    auto touch = [&](Rank center, std::int64_t sign) {
      const auto targets = s_.targets(center);
      const auto volumes = s_.volumes(center);
      for (std::size_t e = 0; e < targets.size(); ++e) {
        const Rank u = targets[e];
        if (alive_[u] == 0) continue;
        if (in_u_[u] == 0) {
          in_u_[u] = 1;
          u_.push_back(u);
        }
        w_[u] += sign * volumes[e];
      }
    };
    touch(i, +1);
    touch(j, -1);
    std::erase_if(u_, [&](Rank u) {
      if (w_[u] != 0) return false;
      in_u_[u] = 0;
      return true;
    });
    std::sort(u_.begin(), u_.end());

    const auto alive_n = static_cast<std::int64_t>(alive_list_.size());
    const bool wide = alive_n > 2048;
#pragma omp parallel for schedule(static) num_threads(threads_) if (wide)
    for (std::int64_t k = 0; k < alive_n; ++k) {
      const Rank b = alive_list_[k];
      e_[b] = d_(pe_[b], pj) - d_(pe_[b], pi);  // p_b to j's old place minus to i's old place
    }
    if (!u_.empty()) {
      // Rows of U: G[u][b] += w_u (e_u - e_b), each thread on its share of columns.
#pragma omp parallel num_threads(threads_) if (wide)
      {
        const auto t = detail::thread_index();
        const auto count = detail::thread_count();
        const std::int64_t lo = alive_n * t / count;
        const std::int64_t hi = alive_n * (t + 1) / count;
        for (const Rank u : u_) {
          Gain* row = &at(u, 0);
          const std::int64_t wu = w_[u];
          const std::int64_t eu = e_[u];
          for (std::int64_t k = lo; k < hi; ++k) {
            const Rank b = alive_list_[k];
            if (b != u) row[b] = static_cast<Gain>(row[b] + wu * (eu - e_[b]));
          }
        }
      }
    }
    // Columns of U in every row, then each row's best partner.
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads_) if (wide)
    for (std::int64_t k = 0; k < alive_n; ++k) {
      const Rank c = alive_list_[k];
      Gain* row = &at(c, 0);
      const std::int64_t ec = e_[c];
      for (const Rank u : u_) {
        if (u != c) row[u] = static_cast<Gain>(row[u] + w_[u] * (e_[u] - ec));
      }
      const Rank old = best_[c];
      if (in_u_[c] != 0 || old == i || old == j || (old >= 0 && in_u_[old] != 0)) {
        rescan(c);
      } else {
        for (const Rank u : u_) {
          if (u != c && better(row[u], u, best_gain_[c], best_[c])) {
            best_[c] = u;
            best_gain_[c] = row[u];
          }
        }
      }
    }
    for (const Rank u : u_) {
      in_u_[u] = 0;
      w_[u] = 0;
    }
  }

  const CommMatrix& s_;
  const refine::SlotSpace& slots_;
  const Distances& d_;
  std::vector<std::int64_t>& sigma_;
  int threads_;
  Rank n_;
  std::vector<std::int64_t> pe_;  ///< local PE of each rank's slot
  std::vector<Gain> g_;
  std::vector<char> alive_;  ///< status[] == 0
  std::vector<Rank> alive_list_;
  std::vector<Rank> best_;
  std::vector<Gain> best_gain_;
  std::vector<std::int64_t> e_;
  std::vector<std::int64_t> w_;
  std::vector<char> in_u_;
  std::vector<Rank> u_;
};

}  // namespace

std::int64_t gain_table_bytes(const CommMatrix& sym, Distance max_distance) {
  const Int128 bound = gain_bound(sym, max_distance);
  const std::int64_t entry = bound < std::numeric_limits<std::int32_t>::max() ? 4 : 8;
  return sym.num_ranks() * sym.num_ranks() * entry;
}

void check_gain_table(const CommMatrix& sym, Distance max_distance) {
  if (gain_bound(sym, max_distance) >= (Int128{1} << 62)) {
    throw ResourceError("ohtma: volumes times distances are too large for exact 64-bit swap gains");
  }
  const auto bytes = gain_table_bytes(sym, max_distance);
  if (bytes > kMaxTableBytes) {
    throw ResourceError("ohtma: " + std::to_string(sym.num_ranks()) + " ranks need a " + std::to_string(bytes >> 20) +
                        " MiB gain table (limit " + std::to_string(kMaxTableBytes >> 20) +
                        " MiB); use ohtma+, which scales with candidate lists");
  }
}

template <typename Distances>
PassResult exchange_pass(const CommMatrix& sym, const refine::SlotSpace& slots, const Distances& distances,
                         Distance max_distance, std::vector<std::int64_t>& sigma, std::int64_t loop, int threads) {
  if (sym.num_ranks() < 2 || loop <= 0) return {};
  check_gain_table(sym, max_distance);
  if (gain_bound(sym, max_distance) < std::numeric_limits<std::int32_t>::max()) {
    return GainTable<std::int32_t, Distances>(sym, slots, distances, sigma, threads).run(loop);
  }
  return GainTable<std::int64_t, Distances>(sym, slots, distances, sigma, threads).run(loop);
}

#define TMAP_INSTANTIATE(Oracle)                                                                                  \
  template PassResult exchange_pass<Oracle>(const CommMatrix&, const refine::SlotSpace&, const Oracle&, Distance, \
                                            std::vector<std::int64_t>&, std::int64_t, int);
TMAP_FOR_EACH_DISTANCE_ORACLE(TMAP_INSTANTIATE)
#undef TMAP_INSTANTIATE

}  // namespace tmap::ohtma
