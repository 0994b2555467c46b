// The grid2d strategy: Malik et al.'s arrangement (arrangement.hpp) for a
// communication matrix that is a 2D 5-point stencil (rank = row * C + col,
// as tm-gen writes it), horizontal and vertical halos of any volumes.
//
// Processors are the first n allowed slots; their groups are the machine's
// natural level (Tianhe-3 chips, the subtrees below a tree's root, nodes
// otherwise). Bandwidths come from a table (--grid2d-bw FILE, format in the
// docs/strategies.md) or, without one, are 1 / hops between the processors' PEs, so the
// cost is then a hop-weighted halo volume. A matrix that is not a 2D stencil
// gets the in-order placement and a note (the strategy stays usable in
// --compare all).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapper.hpp"

namespace tmap::strategies {

namespace grid2d {

/// A 2D 5-point stencil found in a matrix.
struct Stencil {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  Volume horizontal = 0;  ///< bytes of each message to a row neighbour
  Volume vertical = 0;    ///< bytes of each message to a column neighbour
  bool periodic = false;
};

/// The stencil whose pattern is exactly the matrix: every message goes to a
/// grid neighbour, every neighbour gets one, all horizontal messages carry
/// the same volume and all vertical ones too. Shapes are tried by increasing
/// column count; nullopt when none fits.
[[nodiscard]] std::optional<Stencil> recognise_stencil(const CommMatrix& comm);

struct Bandwidth {
  double horizontal = 0.0;
  double vertical = 0.0;
};

/// The --grid2d-bw table: "intra H V", "inter H V" and "G1 G2 H V" lines
/// (positive numbers, any unit, '#' comments).
struct BandwidthTable {
  std::optional<Bandwidth> intra, inter;
  std::map<std::pair<std::int64_t, std::int64_t>, Bandwidth> pairs;

  /// InputError naming origin and line on a bad line.
  static BandwidthTable parse(const std::string& text, const std::string& origin);
  /// The bandwidths between two groups; InputError when the table has none.
  [[nodiscard]] Bandwidth get(std::int64_t g1, std::int64_t g2, const std::string& origin) const;
};

}  // namespace grid2d

class Grid2dMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

/// Its options, for its row of the strategy table.
std::span<const StrategyOption> grid2d_options();

}  // namespace tmap::strategies
