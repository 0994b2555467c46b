// The geometric strategy: a stencil's traffic recognised as a grid, or a
// periodic grid (grid_recovery.hpp), and laid into the allocation's box of
// a mesh or torus, axis onto axis, a block of ranks per PE when the grid is larger
// than the box (each axis a multiple) and one rank per PE when it fits.
// On a box of the grid's own shape every neighbour pair is one hop apart:
// the lowest hop-bytes there is. Elsewhere the strategy maps with scotch,
// saying why (as treematch does off trees); auto, best and multilevel ask
// lay_out_grid directly.
#pragma once

#include <optional>
#include <string>

#include "tmap/mapper.hpp"

namespace tmap::strategies {

/// The grid layout of the problem's traffic, or nothing with `why` set.
[[nodiscard]] std::optional<Mapping> lay_out_grid(const Problem& problem, const Run& context, std::string& why);

class GeometricMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
