// Recovering the geometry of a structured job: is the traffic graph a 1D, 2D
// or 3D grid (a 3-, 5- or 7-point stencil, not periodic), in whatever order
// its ranks are numbered? If so, each rank's coordinates.
//
// A corner c0 (least degree) and its neighbours fix the axes; the corner at
// the far end of axis k is the corner one step closer to c0's k-th
// neighbour and one step farther from the others. Breadth-first distances
// from c0 and from that corner give coordinate k of every rank:
//   x_k(v) = (dist(c0, v) - dist(e_k, v) + L_k - 1) / 2.
// Periodic stencils (every rank 2, 4 or 6 partners) have no corner: the
// axes are the pairs of a rank's partners that share no other partner, and
// coordinates spread from rank 0 by completing squares (torus_recovery.cpp).
// The result is accepted only when it is exactly a grid: coordinates a
// bijection onto the box, every traffic pair one step apart (around the
// wrap when periodic), and every grid edge present. O(ranks + pairs) time
// and memory.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tmap/comm_matrix.hpp"

namespace tmap::strategies {

struct RecoveredGrid {
  std::vector<std::int64_t> extent;       ///< L_k per axis (1 to 3 axes)
  std::vector<std::int64_t> coordinates;  ///< rank r's coordinate k at [r * axes + k]
  bool periodic = false;                  ///< every axis wraps around

  [[nodiscard]] std::size_t axes() const noexcept { return extent.size(); }
};

/// The grid `sym` (symmetrised traffic) is, or nothing.
[[nodiscard]] std::optional<RecoveredGrid> recover_grid(const CommMatrix& sym);

/// The periodic grid `sym` is (every axis at least 5 long), or nothing.
[[nodiscard]] std::optional<RecoveredGrid> recover_torus(const CommMatrix& sym);

/// Partners of both a and b other than `skip` (rows are sorted): how the
/// torus and lattice walks find a square's or a triangle's corner.
[[nodiscard]] std::vector<Rank> common_partners(const CommMatrix& sym, Rank a, Rank b, Rank skip);

/// Is `sym` exactly this grid (bijection, pairs one step apart, every edge)?
[[nodiscard]] bool is_exactly_the_grid(const CommMatrix& sym, const RecoveredGrid& grid);

}  // namespace tmap::strategies
