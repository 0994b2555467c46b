// The geometric strategy: a stencil's traffic recognised as a grid, or a
// periodic grid (grid_recovery.hpp), and laid into the allocation's box of
// a mesh or torus, axis onto axis, a block of ranks per PE when the grid is larger
// than the box (each axis a multiple) and one rank per PE when it fits.
// On a box of the grid's own shape every neighbour pair is one hop apart:
// the lowest hop-bytes there is. On a tree machine a periodic 2D lattice
// goes in tiles (lay_out_tiles). Elsewhere the strategy maps with scotch,
// saying why (as treematch does off trees); auto, best and multilevel ask
// lay_out_grid directly.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "strategies/common/tree_order.hpp"
#include "strategies/geometric/grid_recovery.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/mapper.hpp"

namespace tmap::strategies {

struct GridLayout {
  Mapping mapping;
  std::int64_t hop_bytes = 0;
};

/// A recovered grid laid into the allowed box, the assignment of axes with
/// the lowest `cost` (hop-bytes; called once per assignment that fits, in
/// a fixed order, so a collective cost works on every process alike); or
/// nothing. `why`: what was laid out, or why nothing was.
[[nodiscard]] std::optional<GridLayout> lay_out(const RecoveredGrid& grid, const Topology& topology,
                                                const Constraints& constraints,
                                                const std::function<std::int64_t(const Mapping&)>& cost,
                                                std::string& why);

/// Which pairs talk, as the constructions here read it: `comm` itself when
/// symmetric (a million-rank stencil's symmetrization is a 100 MB copy),
/// else its symmetrization, made into `storage`. Its volumes only rank the
/// tilings of a lattice against each other.
[[nodiscard]] const CommMatrix& traffic_pattern(const CommMatrix& comm, std::optional<CommMatrix>& storage);

/// Why the problem's machine and allocation can hold no grid layout,
/// checked before any traffic (O(1): the first allowed PE off a mesh or
/// torus), or empty when one may: callers symmetrize a million ranks'
/// traffic only where it can be laid out.
[[nodiscard]] std::string grid_cannot_fit(const Problem& problem);

/// The grid layout of the problem's traffic, or nothing with `why` set.
/// `pattern`: traffic_pattern(problem.comm), made once by the caller, who
/// also asks lay_out_tiles and lay_out_blocks (O(pairs) each time).
[[nodiscard]] std::optional<Mapping> lay_out_grid(const Problem& problem, const CommMatrix& pattern, const Run& context,
                                                  std::string& why);

/// As grid_cannot_fit, for lay_out_tiles (O(1): the ranks fill the
/// allowed slots).
[[nodiscard]] std::string tiles_cannot_fit(const Problem& problem);

/// A periodic 2D lattice of ranks in congruent tiles, one per group of a
/// tree machine (tree_tiles.cpp, lattice.hpp), or nothing with `why` set.
/// `pattern` as lay_out_grid's; the machine and allocation are checked first,
/// so off trees it costs nothing.
[[nodiscard]] std::optional<Mapping> lay_out_tiles(const Problem& problem, const CommMatrix& pattern,
                                                   const Run& context, std::string& why);

/// A grid (recover_grid: a 3-, 5- or 7-point stencil in any rank order)
/// cut in blocks along a tree machine's levels (tree_blocks.cpp), or
/// nothing with `why` set. `pattern` as lay_out_grid's. The ranks packed: the children of a
/// subtree with the most room filled first, as treematch does.
[[nodiscard]] std::optional<Mapping> lay_out_blocks(const Problem& problem, const CommMatrix& pattern,
                                                    const Run& context, std::string& why);

/// lay_out_blocks in two steps, so that auto knows before it runs its
/// constructions whether there will be blocks, and cuts them beside the
/// others: the grid (O(pairs)), or nothing with `why` set (else `why`
/// says what will be cut) ...
/// `paths` Groups: along a cluster's network tree, each node one level
/// (GPU nodes, whose links are no tree), the cuts serpentine: each cut's
/// second half mirrored, so that the nodes facing a neighbouring switch
/// alternate (d-mod-k routes then spread over its uplinks).
[[nodiscard]] std::optional<RecoveredGrid> grid_for_blocks(const Problem& problem, const CommMatrix& pattern,
                                                           std::string& why, TreePaths paths = TreePaths::Tree);
/// ... and its blocks (O(ranks x log PEs); `pattern` as given to
/// grid_for_blocks, still alive).
[[nodiscard]] Mapping cut_in_blocks(const Problem& problem, const CommMatrix& pattern, const RecoveredGrid& grid,
                                    const Run& context, TreePaths paths = TreePaths::Tree);

/// Whether the pairs one step apart along each axis of `grid` all send the
/// same volume (the axes may differ): the blocks' cuts, which weigh each
/// axis by its volume, then see the whole traffic.
[[nodiscard]] bool sends_alike_along_each_axis(const CommMatrix& pattern, const RecoveredGrid& grid);

class GeometricMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
