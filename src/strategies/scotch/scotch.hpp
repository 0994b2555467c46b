// Scotch's partition-based static mapping, through libscotch.
//
// The symmetrised traffic becomes a SCOTCH_Graph (edge loads scaled into
// SCOTCH_Num without overflow; --sparse-factor drops small entries as
// TopoMatch's -a). The machine becomes a SCOTCH_Arch (target.hpp): Scotch's
// own kind when every PE is allowed and Scotch computes the same distances
// (cmplt, hcub, mesh2D/3D, torus, tleaf), otherwise an in-memory deco 0 over
// the allowed terminals with exact whole-machine distances and capacities as
// weights — Scotch's own `sub` targets lose distances across gaps, and its
// meshXD is a torus — and beyond 6,144 terminals a deco 2 over the machine's
// distance graph. Each target is mapped with Scotch's quality setting at zero
// imbalance, scotch_gmap -cb's (balance, 1 %) and, up to 4,096 ranks,
// balance at 5 %, each in a deterministic context seeded from --seed, on
// parallel workers with -p; the lowest exact hop-bytes is kept. Scotch may still overfill a
// terminal: such ranks are moved to the free terminal where they cost least
// (repair.hpp), and verbose output says so.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class ScotchMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Context& context) const override;
};

/// Its options, for its row of the strategy table.
std::span<const StrategyOption> scotch_options();
/// --scotch-target as given: auto, native, table, grouped or graph.
std::string_view scotch_target_choice(const Context& context);

}  // namespace tmap::strategies
