#include "refine/dense_search.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "util/int128.hpp"
#include "util/random.hpp"

namespace tmap::refine {

namespace {

/// The move table and the current solution.
class MoveTable {
 public:
  MoveTable(const DenseProblem& p, std::vector<std::int64_t>& pos)
      : p_(p), pos_(pos), n_(p.n), f_(static_cast<std::size_t>(p.n)), g_(static_cast<std::size_t>(p.n)) {
    // dp_[a * n + b] = d(pos[a], pos[b]): the distances between items, kept
    // current under swaps (O(n) each), so that a move's value is a sum over
    // two contiguous rows instead of gathers through pos.
    dp_.resize(static_cast<std::size_t>(n_ * n_));
    for (std::int64_t a = 0; a < n_; ++a) {
      for (std::int64_t b = 0; b < n_; ++b) dp_[static_cast<std::size_t>(a * n_ + b)] = dist(pos_[a], pos_[b]);
    }
    delta_.assign(static_cast<std::size_t>(n_ * n_), 0);
    for (std::int64_t r = 0; r < n_; ++r) {
      for (std::int64_t s = r + 1; s < n_; ++s) set(r, s, compute(r, s));
    }
    cost_ = 0;
    for (std::int64_t i = 0; i < n_; ++i) {
      for (std::int64_t j = i + 1; j < n_; ++j) cost_ += w(i, j) * dist(pos_[i], pos_[j]);
    }
  }

  [[nodiscard]] std::int64_t cost() const { return cost_; }
  [[nodiscard]] std::int64_t delta(std::int64_t r, std::int64_t s) const {
    return delta_[static_cast<std::size_t>(std::min(r, s) * n_ + std::max(r, s))];
  }
  /// Is swapping r and s a real move (different PEs, not two silent items)?
  [[nodiscard]] bool useful(std::int64_t r, std::int64_t s) const {
    return p_.pe[pos_[r]] != p_.pe[pos_[s]] && !(p_.silent[r] && p_.silent[s]);
  }

  void swap(std::int64_t r, std::int64_t s) {
    const auto pr = pos_[r];
    const auto ps = pos_[s];
    cost_ += delta(r, s);
    // For pairs without r and s the update factors into
    //   delta'(u, v) = delta(u, v) + (f_v - f_u)(g_v - g_u)
    // with f_k = W_sk - W_rk and g_k = d(p_k, p_s) - d(p_k, p_r) at the old
    // positions (see the header's formula).
    const auto* wr = p_.w.data() + r * n_;
    const auto* ws = p_.w.data() + s * n_;
    const auto* dr = dp_.data() + r * n_;
    const auto* ds = dp_.data() + s * n_;
    for (std::int64_t k = 0; k < n_; ++k) {
      f_[static_cast<std::size_t>(k)] = ws[k] - wr[k];
      g_[static_cast<std::size_t>(k)] = ds[k] - dr[k];
    }
    for (std::int64_t u = 0; u < n_; ++u) {
      if (u == r || u == s) continue;
      const auto fu = f_[static_cast<std::size_t>(u)];
      const auto gu = g_[static_cast<std::size_t>(u)];
      auto* row = delta_.data() + u * n_;
      for (std::int64_t v = u + 1; v < n_; ++v) {
        row[v] += (f_[static_cast<std::size_t>(v)] - fu) * (g_[static_cast<std::size_t>(v)] - gu);
      }
    }
    pos_[r] = ps;
    pos_[s] = pr;
    // The item distances follow: rows r and s trade places, then columns
    // (d(p_r, p_s) and the zero diagonal stay where they are).
    std::swap_ranges(dp_.begin() + r * n_, dp_.begin() + (r + 1) * n_, dp_.begin() + s * n_);
    for (std::int64_t k = 0; k < n_; ++k)
      std::swap(dp_[static_cast<std::size_t>(k * n_ + r)], dp_[static_cast<std::size_t>(k * n_ + s)]);
    // Pairs with r or s: recomputed (the loop above changed them wrongly).
    for (std::int64_t u = 0; u < n_; ++u) {
      if (u != r) set(r, u, compute(r, u));
      if (u != s && u != r) set(s, u, compute(s, u));
    }
  }

 private:
  [[nodiscard]] std::int64_t w(std::int64_t a, std::int64_t b) const {
    return p_.w[static_cast<std::size_t>(a * n_ + b)];
  }
  [[nodiscard]] std::int64_t dist(std::int64_t a, std::int64_t b) const {
    return p_.d[static_cast<std::size_t>(a * n_ + b)];
  }
  void set(std::int64_t r, std::int64_t s, std::int64_t value) {
    delta_[static_cast<std::size_t>(std::min(r, s) * n_ + std::max(r, s))] = value;
  }
  [[nodiscard]] std::int64_t compute(std::int64_t r, std::int64_t s) const {
    // Summed over every k without branches; the k = r and k = s terms add
    // up to -2 W_rs d(p_r, p_s), taken back at the end.
    const auto* wr = p_.w.data() + r * n_;
    const auto* ws = p_.w.data() + s * n_;
    const auto* dr = dp_.data() + r * n_;
    const auto* ds = dp_.data() + s * n_;
    std::int64_t sum = 0;
    for (std::int64_t k = 0; k < n_; ++k) sum += (wr[k] - ws[k]) * (ds[k] - dr[k]);
    return sum + 2 * wr[s] * dr[s];
  }

  const DenseProblem& p_;
  std::vector<std::int64_t>& pos_;
  std::int64_t n_;
  std::vector<std::int64_t> dp_;     ///< distances between the items' places
  std::vector<std::int64_t> delta_;  ///< upper triangle, row-major
  std::vector<std::int64_t> f_, g_;  ///< scratch of swap()
  std::int64_t cost_ = 0;
};

}  // namespace

bool dense_fits(const DenseProblem& p) {
  // |delta| <= max over r of sum_k |W_rk - W_sk| x 2 max d <= 4 max row sum x max d;
  // the cost <= sum W x max d. Both must stay below 2^62.
  detail::Int128 row_max = 0;
  detail::Int128 total = 0;
  for (std::int64_t r = 0; r < p.n; ++r) {
    detail::Int128 row = 0;
    for (std::int64_t k = 0; k < p.n; ++k) row += p.w[static_cast<std::size_t>(r * p.n + k)];
    row_max = std::max(row_max, row);
    total += row;
  }
  std::int64_t dmax = 0;
  for (const auto v : p.d) dmax = std::max(dmax, v);
  const detail::Int128 limit = detail::Int128{1} << 62;
  return 4 * row_max * dmax < limit && total * dmax < limit;
}

SearchStats dense_descent(const DenseProblem& problem, std::vector<std::int64_t>& pos) {
  MoveTable table(problem, pos);
  SearchStats stats;
  stats.start_cost = table.cost();
  for (;;) {
    std::int64_t best = 0;
    std::int64_t br = -1;
    std::int64_t bs = -1;
    for (std::int64_t r = 0; r < problem.n; ++r) {
      for (std::int64_t s = r + 1; s < problem.n; ++s) {
        if (table.delta(r, s) < best && table.useful(r, s)) {
          best = table.delta(r, s);
          br = r;
          bs = s;
        }
      }
    }
    ++stats.iterations;
    if (br < 0) break;
    table.swap(br, bs);
    ++stats.swaps;
  }
  stats.best_cost = table.cost();
  return stats;
}

SearchStats robust_tabu(const DenseProblem& problem, std::vector<std::int64_t>& pos, std::int64_t iterations,
                        double seconds, std::uint64_t seed, const StepReport& on_step,
                        std::int64_t aspiration_squares) {
  const auto n = problem.n;
  MoveTable table(problem, pos);
  SearchStats stats;
  stats.start_cost = table.cost();
  stats.best_cost = table.cost();
  auto best_pos = pos;
  if (n < 2) return stats;
  detail::Random rng(seed, 77);
  // left[item * n + place]: the iteration when the item last left the place.
  // Never-visited places count as left long ago, staggered so that forced
  // moves start only after about (aspiration_squares - 1) N^2 iterations
  // (Taillard's initialisation, with 5).
  std::vector<std::int64_t> left(static_cast<std::size_t>(n * n));
  for (std::int64_t k = 0; k < n * n; ++k) left[static_cast<std::size_t>(k)] = -(k + 1);
  // The same by place (left_at[place * n + item]) for contiguous scans.
  std::vector<std::int64_t> left_at(left.size());
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t p = 0; p < n; ++p)
      left_at[static_cast<std::size_t>(p * n + i)] = left[static_cast<std::size_t>(i * n + p)];
  }
  const auto t_min = std::max<std::int64_t>(2, (9 * n) / 10);
  const auto t_max = std::max<std::int64_t>(t_min + 1, (11 * n + 9) / 10);
  const std::int64_t aspiration = std::max<std::int64_t>(1, aspiration_squares) * n * n;
  std::int64_t tenure = t_min;
  const auto start = std::chrono::steady_clock::now();
  for (std::int64_t it = 0; it < iterations; ++it) {
    if (it % (2 * t_max) == 0)
      tenure = t_min + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(t_max - t_min + 1)));
    if (seconds > 0 && (it & 63) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) {
      break;
    }
    if (on_step && (it & 1023) == 1023 && !on_step(it, stats.best_cost)) break;
    std::int64_t br = -1;
    std::int64_t bs = -1;
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    bool forced = false;
    const auto cost = table.cost();
    for (std::int64_t r = 0; r < n && !forced; ++r) {
      const auto* left_r = left.data() + r * n;
      const auto* left_at_r = left_at.data() + pos[r] * n;
      for (std::int64_t s = r + 1; s < n; ++s) {
        if (!table.useful(r, s)) continue;
        const auto back_r = left_r[pos[s]];
        const auto back_s = left_at_r[s];
        if (back_r < it - aspiration && back_s < it - aspiration) {
          // Long-term aspiration: a forced, diversifying move.
          br = r;
          bs = s;
          forced = true;
          break;
        }
        const auto delta = table.delta(r, s);
        if (delta >= best) continue;
        const bool tabu = back_r >= it - tenure && back_s >= it - tenure;
        if (tabu && cost + delta >= stats.best_cost) continue;  // aspiration by a new best
        best = delta;
        br = r;
        bs = s;
      }
    }
    if (br < 0) break;
    left[static_cast<std::size_t>(br * n + pos[br])] = it;
    left[static_cast<std::size_t>(bs * n + pos[bs])] = it;
    left_at[static_cast<std::size_t>(pos[br] * n + br)] = it;
    left_at[static_cast<std::size_t>(pos[bs] * n + bs)] = it;
    table.swap(br, bs);
    ++stats.swaps;
    stats.iterations = it + 1;
    if (table.cost() < stats.best_cost) {
      stats.best_cost = table.cost();
      best_pos = pos;
    }
  }
  pos = best_pos;
  return stats;
}

}  // namespace tmap::refine
