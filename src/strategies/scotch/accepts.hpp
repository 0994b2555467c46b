// What libscotch 7.0.3 gets right of a Scotch target text: the quirks of
// the library, kept here with the strategy that calls it rather than in the
// machines (which only write their targets). Checked against libscotch
// itself by test_scotch_distances.
#pragma once

#include <string_view>

#include "tmap/topology.hpp"

namespace tmap::scotchmap {

/// True when libscotch computes exactly the distances of `tgt` (a machine's
/// own Scotch target, tmap::scotch_target), so the strategy hands it the
/// target as is: cmplt, hcub, mesh2D/3D and the tori; not meshXD (libscotch
/// applies the torus formula to it), a tleaf with a level of fan-out 1
/// (archTleafArchLoad: bad input; tmap reads it as the tree it is), ltleaf
/// (Scotch's distances differ from the labelled tree's), cmpltw (its
/// capacities are not terminals of ours), sub or deco.
[[nodiscard]] bool libscotch_exact(std::string_view tgt);

/// False where libscotch cannot take a `sub` of `tgt`: a deco's terminals
/// are looked up off by one in libscotch 7.0.3.
[[nodiscard]] bool libscotch_sub_allowed(std::string_view tgt);

/// libscotch_exact of the machine's own target (false for machines without
/// one, whose target is a deco of their distances).
[[nodiscard]] bool libscotch_exact(const Topology& topology);
/// libscotch_sub_allowed of the Scotch text the machine was read from (true
/// where it was read from elsewhere).
[[nodiscard]] bool libscotch_sub_allowed(const Topology& topology);

}  // namespace tmap::scotchmap
