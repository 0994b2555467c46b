// Recovering the geometry of a structured job: is the traffic graph a 1D, 2D
// or 3D grid (a 3-, 5- or 7-point stencil, not periodic), in whatever order
// its ranks are numbered? If so, each rank's coordinates.
//
// A corner c0 (least degree) and its neighbours fix the axes; the corner at
// the far end of axis k is the corner one step closer to c0's k-th
// neighbour and one step farther from the others. Breadth-first distances
// from c0 and from that corner give coordinate k of every rank:
//   x_k(v) = (dist(c0, v) - dist(e_k, v) + L_k - 1) / 2.
// The result is accepted only when it is exactly a grid: coordinates a
// bijection onto the box, every traffic pair one step apart, and every grid
// edge present. O(ranks + pairs) time and memory.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tmap/comm_matrix.hpp"

namespace tmap::strategies {

struct RecoveredGrid {
  std::vector<std::int64_t> extent;       ///< L_k per axis (1 to 3 axes)
  std::vector<std::int64_t> coordinates;  ///< rank r's coordinate k at [r * axes + k]

  [[nodiscard]] std::size_t axes() const noexcept { return extent.size(); }
};

/// The grid `sym` (symmetrised traffic) is, or nothing.
[[nodiscard]] std::optional<RecoveredGrid> recover_grid(const CommMatrix& sym);

}  // namespace tmap::strategies
