// Malik, Rychkov, Lastovetsky et al., "Network-aware optimization of MPDATA
// on homogeneous multi-core clusters with heterogeneous network" (section 4):
// the processor arrangement for a 2D domain decomposition whose horizontal
// and vertical halo exchanges see different bandwidths.
//
// An arrangement puts p processors in an r x c grid; processor Q(i, j) holds
// sub-domain (i, j). Its cost (eqs. 1-3, with eq. 2's index typo fixed):
//   cost_H = sum_i  h * sum_j 1 / b_H(Q(i, j), Q(i, j+1 mod c))
//   cost_V = sum_j  w * sum_i 1 / b_V(Q(i, j), Q(i+1 mod r, j))
// with h the bytes of a row's halo and w of a column's (h = H / r and
// w = W / c for a domain of H x W bytes; fixed when the shape is fixed).
// A processor next to itself (r or c = 1) costs nothing. Without
// wrap-around (`periodic` false) the (c-1, 0) and (r-1, 0) pairs drop out.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace tmap::strategies::grid2d {

struct Model {
  std::int64_t processors = 0;
  /// Group of each processor (the paper's clusters or nodes).
  std::vector<std::int64_t> group;
  /// Seconds per byte between two processors (1 / bandwidth), horizontal and
  /// vertical halos. Never called with a == b.
  std::function<double(std::int64_t a, std::int64_t b)> inverse_bw_h;
  std::function<double(std::int64_t a, std::int64_t b)> inverse_bw_v;
  /// Domain size in bytes: a row's halo is height / r, a column's width / c
  /// (scale_with_shape), or the halos themselves (a decomposition whose
  /// shape is already fixed).
  double height = 1.0;
  double width = 1.0;
  bool scale_with_shape = true;
  bool periodic = true;
  /// After the fixed point, swap and move single processors while that
  /// lowers the cost (an extension, p <= kMaxPolished; off = the paper's
  /// algorithm).
  bool polish = true;
  /// Shapes (r, c) to consider; empty = every factor pair of `processors`.
  std::vector<std::pair<std::int64_t, std::int64_t>> shapes;
};

struct Arrangement {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  /// Processor at (i, j) = at[j * rows + i] (column-major, the paper's fill).
  std::vector<std::int64_t> at;
  double cost = 0.0;
  int iterations = 0;  ///< rounds of the two steps until the fixed point
};

/// cost_H + cost_V of an arrangement.
[[nodiscard]] double cost(const Model& model, std::int64_t rows, std::int64_t cols,
                          const std::vector<std::int64_t>& at);

/// The heuristic of section 4.2 from a linear order of the processors
/// (each group's processors consecutive): (1) the best shape for the order
/// filled column by column or row by row; (2) in that shape, the best permutation of the
/// group blocks of the first column (vertical cost), then of each next
/// column (vertical + horizontal cost of the columns so far), then the best
/// permutation of whole columns; repeated until the order no longer changes.
/// Beyond kMaxPermuted blocks in a column or columns in the grid, step (2)
/// swaps pairs to a local optimum instead of enumerating.
inline constexpr std::int64_t kMaxPermuted = 8;
/// Largest p the final local search (Model::polish) runs on.
inline constexpr std::int64_t kMaxPolished = 128;
[[nodiscard]] Arrangement arrange(const Model& model, std::vector<std::int64_t> order);

/// The final local search of Model::polish on its own (any arrangement).
void polish(const Model& model, Arrangement& arrangement);

}  // namespace tmap::strategies::grid2d
