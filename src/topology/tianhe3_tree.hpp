// Tianhe-3 as a tree (Scotch tleaf) for tree-based mappers (TreeMatch,
// TopoMatch, the `treematch` strategy): chip, side, node, then the node's
// hwloc levels.
//
// A tree cannot express the chip mesh (chips in one row or column are 3-4
// hops apart, others 5-6), so the link costs approximate the hop table:
// with U = 10 (I + 1), I = number of node levels (each cost 1), the node
// level costs U - I, the side level U and the chip level
// round(U (h - 2)), where h is the mean hop count between nodes on distinct
// chips. Then two PUs on different nodes of one side are U apart (1 hop),
// on the two sides of a chip 2U (2 hops), on distinct chips about h U; PUs
// of one node are 1..I apart (0 network hops). The worst error, in hops, is
// max(h - 3, 6 - h) between chips (less on one-row or one-column meshes)
// plus I / U inside a node.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/tianhe3.hpp"

namespace tmap::topo {

struct Tianhe3Tree {
  std::vector<std::int64_t> fanouts;
  std::vector<Distance> costs;
  /// Mean hops between nodes on distinct chips (h above; 0 for one chip).
  double mean_chip_hops = 0;
  /// Largest |tree distance / U - hops| over PU pairs of distinct nodes.
  double worst_error_hops = 0;
  /// The tleaf text (wrapped in "sub" when only some nodes are allocated).
  std::string tgt;
};

/// `node_arities`: fan-outs of the node's own levels (from hwloc), root
/// first; their product is the PEs per node. `nodes`: allocated nodes, or
/// empty for the whole machine.
Tianhe3Tree tianhe3_tree(const Tianhe3Shape& shape, const std::vector<std::int64_t>& node_arities,
                         const std::vector<NodeId>& nodes);

}  // namespace tmap::topo
