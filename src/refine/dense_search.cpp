#include "refine/dense_search.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "util/int128.hpp"
#include "util/random.hpp"

namespace tmap::refine {

namespace {

// The loops every move runs (O(N) sums for the pairs with a moved item,
// O(N^2) row updates for the others, and the scan's two row passes), built
// for AVX2 as well and chosen at load time where the CPU has it (integer
// sums and comparisons: the same results either way). With 32-bit traffic
// and distances a product is one vpmuldq.
// (Not under the sanitizers: their runtimes start after ifunc resolvers run.)
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define TMAP_SANITIZED 1
#endif
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(TMAP_SANITIZED)
#define TMAP_MOVE_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define TMAP_MOVE_KERNEL
#endif

/// sum_k (wr[k] - ws[k]) (ds[k] - dr[k]).
template <typename T>
std::int64_t difference_products(const T* wr, const T* ws, const T* dr, const T* ds, std::int64_t n) {
  std::int64_t sum = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    sum += static_cast<std::int64_t>(wr[k] - ws[k]) * static_cast<std::int64_t>(ds[k] - dr[k]);
  }
  return sum;
}
TMAP_MOVE_KERNEL std::int64_t difference_products_of(const std::int32_t* wr, const std::int32_t* ws,
                                                     const std::int32_t* dr, const std::int32_t* ds, std::int64_t n) {
  return difference_products(wr, ws, dr, ds, n);
}
TMAP_MOVE_KERNEL std::int64_t difference_products_of(const std::int64_t* wr, const std::int64_t* ws,
                                                     const std::int64_t* dr, const std::int64_t* ds, std::int64_t n) {
  return difference_products(wr, ws, dr, ds, n);
}

/// row[v] += (f[v] - fu)(g[v] - gu) for v in [from, n).
template <typename T>
void add_products(std::int64_t* row, const T* f, const T* g, T fu, T gu, std::int64_t from, std::int64_t n) {
  for (std::int64_t v = from; v < n; ++v) {
    row[v] += static_cast<std::int64_t>(f[v] - fu) * static_cast<std::int64_t>(g[v] - gu);
  }
}
TMAP_MOVE_KERNEL void add_products_of(std::int64_t* row, const std::int32_t* f, const std::int32_t* g, std::int32_t fu,
                                      std::int32_t gu, std::int64_t from, std::int64_t n) {
  add_products(row, f, g, fu, gu, from, n);
}
TMAP_MOVE_KERNEL void add_products_of(std::int64_t* row, const std::int64_t* f, const std::int64_t* g, std::int64_t fu,
                                      std::int64_t gu, std::int64_t from, std::int64_t n) {
  add_products(row, f, g, fu, gu, from, n);
}

/// Whether some s in [from, n) makes a forced swap with an item whose
/// place's departures are back_s and PE pe_r (see tabu_search): both left
/// before `before`, different PEs, not two free slots. Branch-free, so one
/// quick pass when none does.
TMAP_MOVE_KERNEL bool any_forced(const std::int64_t* back_r, const std::int64_t* back_s, const std::int64_t* item_pe,
                                 const std::int64_t* silent, std::int64_t pe_r, std::int64_t silent_r,
                                 std::int64_t before, std::int64_t from, std::int64_t n) {
  std::int64_t any = 0;
  for (std::int64_t s = from; s < n; ++s) {
    any |= static_cast<std::int64_t>(back_r[s] < before) & static_cast<std::int64_t>(back_s[s] < before) &
           static_cast<std::int64_t>(item_pe[s] != pe_r) & static_cast<std::int64_t>((silent_r & silent[s]) == 0);
  }
  return any != 0;
}

/// The least of v[from, n) (max int64 when empty).
TMAP_MOVE_KERNEL std::int64_t least_of(const std::int64_t* v, std::int64_t from, std::int64_t n) {
  std::int64_t least = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t k = from; k < n; ++k) least = std::min(least, v[k]);
  return least;
}

/// Traffic and distances below 2^30: the table's rows are 32-bit (a
/// difference of two entries, and of two differences, then fits in 32 bits
/// and a product in 64).
bool narrow(const DenseProblem& p) {
  constexpr std::int64_t kLimit = std::int64_t{1} << 30;
  const auto below = [&](const std::vector<std::int64_t>& values) {
    return std::ranges::all_of(values, [&](std::int64_t v) { return v >= 0 && v < kLimit; });
  };
  return below(p.w) && below(p.d);
}

/// The move table and the current solution; T holds the traffic and the
/// distances (std::int32_t when narrow(), else std::int64_t).
template <typename T>
class MoveTable {
 public:
  MoveTable(const DenseProblem& p, std::vector<std::int64_t>& pos)
      : p_(p), pos_(pos), n_(p.n), f_(static_cast<std::size_t>(p.n)), g_(static_cast<std::size_t>(p.n)) {
    w_.assign(p.w.begin(), p.w.end());
    // dp_[a * n + b] = d(pos[a], pos[b]): the distances between items, kept
    // current under swaps (O(n) each), so that a move's value is a sum over
    // two contiguous rows instead of gathers through pos.
    dp_.resize(static_cast<std::size_t>(n_ * n_));
    for (std::int64_t a = 0; a < n_; ++a) {
      for (std::int64_t b = 0; b < n_; ++b)
        dp_[static_cast<std::size_t>(a * n_ + b)] = static_cast<T>(dist(pos_[a], pos_[b]));
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
  /// delta(r, s) for s > r at [s].
  [[nodiscard]] const std::int64_t* deltas_of(std::int64_t r) const { return delta_.data() + r * n_; }
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
    const auto* wr = w_.data() + r * n_;
    const auto* ws = w_.data() + s * n_;
    const auto* dr = dp_.data() + r * n_;
    const auto* ds = dp_.data() + s * n_;
    for (std::int64_t k = 0; k < n_; ++k) {
      f_[static_cast<std::size_t>(k)] = static_cast<T>(ws[k] - wr[k]);
      g_[static_cast<std::size_t>(k)] = static_cast<T>(ds[k] - dr[k]);
    }
    // Columns r and s of each row change wrongly here: recomputed below.
    for (std::int64_t u = 0; u < n_; ++u) {
      if (u == r || u == s) continue;
      add_products_of(delta_.data() + u * n_, f_.data(), g_.data(), f_[static_cast<std::size_t>(u)],
                      g_[static_cast<std::size_t>(u)], u + 1, n_);
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
    return w_[static_cast<std::size_t>(a * n_ + b)];
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
    const auto* wr = w_.data() + r * n_;
    const auto* ws = w_.data() + s * n_;
    const auto* dr = dp_.data() + r * n_;
    const auto* ds = dp_.data() + s * n_;
    return difference_products_of(wr, ws, dr, ds, n_) + 2 * static_cast<std::int64_t>(wr[s]) * dr[s];
  }

  const DenseProblem& p_;
  std::vector<std::int64_t>& pos_;
  std::int64_t n_;
  std::vector<T> w_;                 ///< the traffic (p_.w) in T
  std::vector<T> dp_;                ///< distances between the items' places
  std::vector<std::int64_t> delta_;  ///< upper triangle, row-major
  std::vector<T> f_, g_;             ///< scratch of swap()
  std::int64_t cost_ = 0;
};

}  // namespace

DenseProblem dense_problem(const CommMatrix& sym, const Topology& topology, const Constraints& constraints) {
  const auto pes = constraints.allowed_pes();
  const auto k = constraints.capacity();
  DenseProblem p;
  p.n = constraints.num_slots();
  const auto n = static_cast<std::size_t>(p.n);
  p.w.assign(n * n, 0);
  for (Rank i = 0; i < sym.num_ranks(); ++i) {
    const auto cols = sym.targets(i);
    const auto vols = sym.volumes(i);
    for (std::size_t e = 0; e < cols.size(); ++e)
      p.w[static_cast<std::size_t>(i) * n + static_cast<std::size_t>(cols[e])] = vols[e];
  }
  p.d.assign(n * n, 0);
  p.pe.resize(n);
  for (std::size_t a = 0; a < n; ++a) {
    p.pe[a] = static_cast<std::int64_t>(a) / k;
    for (std::size_t b = 0; b < n; ++b) {
      p.d[a * n + b] = topology.distance(pes[a / static_cast<std::size_t>(k)], pes[b / static_cast<std::size_t>(k)]);
    }
  }
  p.silent.assign(n, 0);
  for (auto item = static_cast<std::size_t>(sym.num_ranks()); item < n; ++item) p.silent[item] = 1;
  return p;
}

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

namespace {

template <typename T>
SearchStats descend(const DenseProblem& problem, std::vector<std::int64_t>& pos) {
  MoveTable<T> table(problem, pos);
  SearchStats stats;
  stats.start_cost = table.cost();
  for (;;) {
    std::int64_t best = 0;
    std::int64_t br = -1;
    std::int64_t bs = -1;
    for (std::int64_t r = 0; r < problem.n; ++r) {
      const auto* deltas = table.deltas_of(r);
      if (least_of(deltas, r + 1, problem.n) >= best) continue;
      for (std::int64_t s = r + 1; s < problem.n; ++s) {
        if (deltas[s] < best && table.useful(r, s)) {
          best = deltas[s];
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

template <typename T>
SearchStats tabu_search(const DenseProblem& problem, std::vector<std::int64_t>& pos, std::int64_t iterations,
                        double seconds, std::uint64_t seed, const StepReport& on_step,
                        std::int64_t aspiration_squares) {
  const auto n = problem.n;
  MoveTable<T> table(problem, pos);
  SearchStats stats;
  stats.start_cost = table.cost();
  stats.best_cost = table.cost();
  auto best_pos = pos;
  if (n < 2) return stats;
  detail::Random rng(seed, 77);
  // left[item * n + place]: the iteration when the item last left the place.
  // Never-visited places count as left long ago, staggered so that forced
  // moves start only after about (aspiration_squares - 1) N^2 iterations
  // (Taillard's initialisation, with 5). Kept in the two orders the scan
  // reads contiguously: by_item[r * n + s] = left[r][pos[s]] (when r left
  // the place s holds) and by_place[p * n + s] = left[s][p].
  const auto nn = static_cast<std::size_t>(n * n);
  const auto left0 = [n](std::int64_t item, std::int64_t place) { return -(item * n + place + 1); };
  std::vector<std::int64_t> by_item(nn);
  std::vector<std::int64_t> by_place(nn);
  for (std::int64_t a = 0; a < n; ++a) {
    for (std::int64_t b = 0; b < n; ++b) {
      by_item[static_cast<std::size_t>(a * n + b)] = left0(a, pos[b]);
      by_place[static_cast<std::size_t>(a * n + b)] = left0(b, a);
    }
  }
  // The least entry of each by_item row, once: a row's entries only trade
  // places or rise, so no swap with r is forced while it is >= the bound.
  std::vector<std::int64_t> floor_of_row(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r) {
    const auto row = by_item.begin() + r * n;
    floor_of_row[static_cast<std::size_t>(r)] = *std::min_element(row, row + n);
  }
  // Per item: its PE (a swap within one PE changes nothing) and whether it
  // is a free slot (two free slots never swap).
  std::vector<std::int64_t> item_pe(static_cast<std::size_t>(n));
  std::vector<std::int64_t> silent(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r) {
    item_pe[static_cast<std::size_t>(r)] = problem.pe[static_cast<std::size_t>(pos[r])];
    silent[static_cast<std::size_t>(r)] = problem.silent[static_cast<std::size_t>(r)] != 0 ? 1 : 0;
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
    const auto cost = table.cost();
    // A swap is forced (long-term aspiration, diversifying) when both items
    // left the places they would take before `forced_before`; tabu when both
    // left them from `tabu_from` on. The first forced swap in (r, s) order
    // is taken, else the best non-tabu one (a tabu one when it gives a new
    // best), the first of equals.
    const std::int64_t forced_before = it - aspiration;
    const std::int64_t tabu_from = it - tenure;
    for (std::int64_t r = 0; r < n; ++r) {
      const auto* back_r = by_item.data() + r * n;        // [s]: when r left s's place
      const auto* back_s = by_place.data() + pos[r] * n;  // [s]: when s left r's place
      const auto* deltas = table.deltas_of(r);
      const auto pe_r = item_pe[static_cast<std::size_t>(r)];
      const auto silent_r = silent[static_cast<std::size_t>(r)];
      const auto useful = [&](std::int64_t s) {
        return item_pe[static_cast<std::size_t>(s)] != pe_r && (silent_r & silent[static_cast<std::size_t>(s)]) == 0;
      };
      if (floor_of_row[static_cast<std::size_t>(r)] < forced_before &&
          any_forced(back_r, back_s, item_pe.data(), silent.data(), pe_r, silent_r, forced_before, r + 1, n)) {
        for (std::int64_t s = r + 1; s < n; ++s) {
          if (back_r[s] < forced_before && back_s[s] < forced_before && useful(s)) {
            br = r;
            bs = s;
            break;
          }
        }
        break;
      }
      // Most rows hold nothing below the best so far: one vector pass each.
      if (least_of(deltas, r + 1, n) >= best) continue;
      for (std::int64_t s = r + 1; s < n; ++s) {
        const auto delta = deltas[s];
        if (delta >= best || !useful(s)) continue;
        const bool tabu = back_r[s] >= tabu_from && back_s[s] >= tabu_from;
        if (tabu && cost + delta >= stats.best_cost) continue;  // aspiration by a new best
        best = delta;
        br = r;
        bs = s;
      }
    }
    if (br < 0) break;
    // Both leave their places now: by_place's two entries, then by_item's
    // columns br and bs trade (the items trade places) and the two entries
    // for the places they left.
    by_place[static_cast<std::size_t>(pos[br] * n + br)] = it;
    by_place[static_cast<std::size_t>(pos[bs] * n + bs)] = it;
    for (std::int64_t r = 0; r < n; ++r) {
      std::swap(by_item[static_cast<std::size_t>(r * n + br)], by_item[static_cast<std::size_t>(r * n + bs)]);
    }
    by_item[static_cast<std::size_t>(br * n + bs)] = it;
    by_item[static_cast<std::size_t>(bs * n + br)] = it;
    table.swap(br, bs);
    std::swap(item_pe[static_cast<std::size_t>(br)], item_pe[static_cast<std::size_t>(bs)]);
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

}  // namespace

SearchStats dense_descent(const DenseProblem& problem, std::vector<std::int64_t>& pos) {
  return narrow(problem) ? descend<std::int32_t>(problem, pos) : descend<std::int64_t>(problem, pos);
}

SearchStats robust_tabu(const DenseProblem& problem, std::vector<std::int64_t>& pos, std::int64_t iterations,
                        double seconds, std::uint64_t seed, const StepReport& on_step,
                        std::int64_t aspiration_squares) {
  return narrow(problem)
             ? tabu_search<std::int32_t>(problem, pos, iterations, seconds, seed, on_step, aspiration_squares)
             : tabu_search<std::int64_t>(problem, pos, iterations, seconds, seed, on_step, aspiration_squares);
}

}  // namespace tmap::refine
