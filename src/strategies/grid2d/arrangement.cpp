#include "strategies/grid2d/arrangement.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tmap::strategies::grid2d {

namespace {

std::vector<std::pair<std::int64_t, std::int64_t>> shapes_of(const Model& model) {
  if (!model.shapes.empty()) return model.shapes;
  std::vector<std::pair<std::int64_t, std::int64_t>> shapes;
  for (std::int64_t r = 1; r <= model.processors; ++r) {
    if (model.processors % r == 0) shapes.emplace_back(r, model.processors / r);
  }
  return shapes;
}

/// Costs of an arrangement split by column: vertical cost of column j, and
/// horizontal cost between column j and the next one.
class Costs {
 public:
  Costs(const Model& model, std::int64_t rows, std::int64_t cols)
      : m_(model),
        rows_(rows),
        cols_(cols),
        h_(model.height / static_cast<double>(rows)),
        w_(model.width / static_cast<double>(cols)) {
    if (!model.scale_with_shape) {
      h_ = model.height;
      w_ = model.width;
    }
  }
  [[nodiscard]] double vertical(const std::vector<std::int64_t>& at, std::int64_t j) const {
    double sum = 0.0;
    const auto last = m_.periodic ? rows_ : rows_ - 1;
    for (std::int64_t i = 0; i < last; ++i) {
      const auto a = at[static_cast<std::size_t>(j * rows_ + i)];
      const auto b = at[static_cast<std::size_t>(j * rows_ + (i + 1) % rows_)];
      if (a != b) sum += m_.inverse_bw_v(a, b);
    }
    return w_ * sum;
  }
  /// Between column j and column (j + 1) mod cols.
  [[nodiscard]] double horizontal(const std::vector<std::int64_t>& at, std::int64_t j) const {
    if (!m_.periodic && j == cols_ - 1) return 0.0;
    double sum = 0.0;
    const auto next = (j + 1) % cols_;
    for (std::int64_t i = 0; i < rows_; ++i) {
      const auto a = at[static_cast<std::size_t>(j * rows_ + i)];
      const auto b = at[static_cast<std::size_t>(next * rows_ + i)];
      if (a != b) sum += m_.inverse_bw_h(a, b);
    }
    return h_ * sum;
  }
  /// Vertical cost of columns 0..k and horizontal cost between them (the
  /// wrap-around pair once all columns are in).
  [[nodiscard]] double prefix(const std::vector<std::int64_t>& at, std::int64_t k) const {
    double sum = 0.0;
    for (std::int64_t j = 0; j <= k; ++j) sum += vertical(at, j);
    for (std::int64_t j = 0; j < k; ++j) sum += horizontal(at, j);
    if (k == cols_ - 1 && cols_ > 1) sum += horizontal(at, cols_ - 1);
    return sum;
  }

 private:
  const Model& m_;
  std::int64_t rows_, cols_;
  double h_, w_;
};

/// Calls f(perm) for every permutation of 0..k-1 in lexicographic order.
template <typename F>
void for_each_permutation(std::int64_t k, F&& f) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(k));
  std::iota(perm.begin(), perm.end(), std::int64_t{0});
  do {
    f(perm);
  } while (std::next_permutation(perm.begin(), perm.end()));
}

/// Chooses the best order of k items by `score` (lower is better; ties keep
/// the earlier candidate): all permutations up to kMaxPermuted items, else
/// pairwise swaps to a local optimum. `apply(perm)` rearranges and returns the
/// score; the best permutation is applied last.
template <typename Apply>
void best_order(std::int64_t k, Apply&& apply) {
  std::vector<std::int64_t> best(static_cast<std::size_t>(k));
  std::iota(best.begin(), best.end(), std::int64_t{0});
  double best_score = apply(best);
  if (k <= 1) return;
  if (k <= kMaxPermuted) {
    for_each_permutation(k, [&](const std::vector<std::int64_t>& perm) {
      const double s = apply(perm);
      if (s < best_score) {
        best_score = s;
        best = perm;
      }
    });
  } else {
    for (bool improved = true; improved;) {
      improved = false;
      for (std::int64_t a = 0; a < k; ++a) {
        for (std::int64_t b = a + 1; b < k; ++b) {
          auto trial = best;
          std::swap(trial[static_cast<std::size_t>(a)], trial[static_cast<std::size_t>(b)]);
          const double s = apply(trial);
          if (s < best_score) {
            best_score = s;
            best = trial;
            improved = true;
          }
        }
      }
    }
  }
  (void)apply(best);
}

/// The column-major `at` of an order filled row by row.
std::vector<std::int64_t> row_fill(const std::vector<std::int64_t>& order, std::int64_t rows, std::int64_t cols) {
  std::vector<std::int64_t> at(order.size());
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) {
      at[static_cast<std::size_t>(j * rows + i)] = order[static_cast<std::size_t>(i * cols + j)];
    }
  }
  return at;
}

}  // namespace

double cost(const Model& model, std::int64_t rows, std::int64_t cols, const std::vector<std::int64_t>& at) {
  return Costs(model, rows, cols).prefix(at, cols - 1);
}

Arrangement arrange(const Model& model, std::vector<std::int64_t> order) {
  Arrangement result;
  const auto shapes = shapes_of(model);
  for (int round = 0; round < 100; ++round) {
    result.iterations = round + 1;
    // Step 1: the best shape for this order, filled column-wise or
    // row-wise (the paper tries both fills of every factor pair).
    double best = std::numeric_limits<double>::infinity();
    std::vector<std::int64_t> at;
    for (const auto& [r, c] : shapes) {
      for (const bool by_rows : {false, true}) {
        const auto filled = by_rows ? row_fill(order, r, c) : order;
        const double value = cost(model, r, c, filled);
        if (value < best) {
          best = value;
          result.rows = r;
          result.cols = c;
          at = filled;
        }
      }
    }
    const auto rows = result.rows;
    const auto cols = result.cols;
    const Costs costs(model, rows, cols);
    // Step 2a: the group blocks of each column, column by column.
    for (std::int64_t j = 0; j < cols; ++j) {
      const auto begin = at.begin() + j * rows;
      const std::vector<std::int64_t> column(begin, begin + rows);
      std::vector<std::pair<std::int64_t, std::int64_t>> blocks;  // [start, end) within the column
      for (std::int64_t i = 0; i < rows; ++i) {
        if (i == 0 || model.group[static_cast<std::size_t>(column[static_cast<std::size_t>(i)])] !=
                          model.group[static_cast<std::size_t>(column[static_cast<std::size_t>(i - 1)])]) {
          blocks.emplace_back(i, i + 1);
        } else {
          blocks.back().second = i + 1;
        }
      }
      best_order(static_cast<std::int64_t>(blocks.size()), [&](const std::vector<std::int64_t>& perm) {
        auto out = begin;
        for (const auto b : perm) {
          const auto [s, e] = blocks[static_cast<std::size_t>(b)];
          out = std::copy(column.begin() + s, column.begin() + e, out);
        }
        return costs.prefix(at, j);
      });
    }
    // Step 2b: whole columns.
    const auto columns = at;
    best_order(cols, [&](const std::vector<std::int64_t>& perm) {
      for (std::int64_t j = 0; j < cols; ++j) {
        std::copy(columns.begin() + perm[static_cast<std::size_t>(j)] * rows,
                  columns.begin() + (perm[static_cast<std::size_t>(j)] + 1) * rows, at.begin() + j * rows);
      }
      return costs.prefix(at, cols - 1);
    });
    result.at = at;
    result.cost = cost(model, rows, cols, at);
    if (at == order) break;  // the fixed point
    order = std::move(at);
  }
  if (model.polish) polish(model, result);
  return result;
}

// Extension: local search over single processors, swaps of two of
// different groups and moves of one to another position of the column-
// major order, while one lowers the cost. Group blocks cannot split a
// group, and when groups of one level differ slightly (Table 1's clusters
// of one site) splitting pays. O(p^3) a pass: up to kMaxPolished.
void polish(const Model& model, Arrangement& result) {
  if (model.processors > kMaxPolished) return;
  {
    auto& at = result.at;
    const auto n = at.size();
    for (bool improved = true; improved;) {
      improved = false;
      for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) {
          if (a == b) continue;
          auto trial = at;
          if (a < b && model.group[static_cast<std::size_t>(at[a])] != model.group[static_cast<std::size_t>(at[b])]) {
            std::swap(trial[a], trial[b]);
            const double c = cost(model, result.rows, result.cols, trial);
            if (c < result.cost) {
              at = trial;
              result.cost = c;
              improved = true;
              continue;
            }
            trial = at;
          }
          const auto moved = trial[a];
          trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(a));
          trial.insert(trial.begin() + static_cast<std::ptrdiff_t>(b), moved);
          const double c = cost(model, result.rows, result.cols, trial);
          if (c < result.cost) {
            at = trial;
            result.cost = c;
            improved = true;
          }
        }
      }
    }
  }
}

}  // namespace tmap::strategies::grid2d
