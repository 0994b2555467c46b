#include "topology/tianhe3_tree.hpp"

#include <algorithm>
#include <cmath>

#include "tmap/error.hpp"
#include "tmap/scotch_export.hpp"
#include "topology/kinds/tree_leaf.hpp"

namespace tmap::topo {

Tianhe3Tree tianhe3_tree(const Tianhe3Shape& shape, const std::vector<std::int64_t>& node_arities,
                         const std::vector<NodeId>& nodes) {
  Tianhe3Tree tree;
  const auto levels = static_cast<std::int64_t>(node_arities.size());
  const Distance unit = 10 * (levels + 1);
  const auto chips = static_cast<double>(shape.rows * shape.cols);
  if (chips > 1) {
    const double row = static_cast<double>((shape.rows - 1) * shape.cols) / (chips - 1);
    const double col = static_cast<double>((shape.cols - 1) * shape.rows) / (chips - 1);
    tree.mean_chip_hops = 1.5 + 2 * row + 2 * col;
  }
  const auto chip_cost = std::max<Distance>(1, std::llround(static_cast<double>(unit) * (tree.mean_chip_hops - 2)));
  tree.fanouts = {shape.rows * shape.cols, 2, shape.nodes / 2};
  tree.costs = {chip_cost, unit, unit - levels};
  for (const auto arity : node_arities) {
    tree.fanouts.push_back(arity);
    tree.costs.push_back(1);
  }
  // Worst error between distinct nodes: same side is exact (U), two sides
  // exact (2U); chips give (a + 2U) / U against 3..6 hops.
  if (chips > 1) {
    const double tree_hops = static_cast<double>(chip_cost + 2 * unit) / static_cast<double>(unit);
    const double low = 3.0;
    const double high = (shape.rows > 1 && shape.cols > 1) ? 6.0 : 4.0;
    tree.worst_error_hops = std::max(std::abs(tree_hops - low), std::abs(high - tree_hops));
  }
  TreeLeafTopology tleaf(tree.fanouts, tree.costs);
  tree.tgt = scotch_target(tleaf);
  if (!nodes.empty()) {
    std::int64_t per_node = 1;
    for (const auto arity : node_arities) per_node *= arity;
    std::string list = "sub\n" + std::to_string(static_cast<std::int64_t>(nodes.size()) * per_node);
    for (const NodeId v : nodes) {
      for (std::int64_t k = 0; k < per_node; ++k) list += " " + std::to_string(v * per_node + k);
    }
    tree.tgt = list + "\n" + tree.tgt;
  }
  return tree;
}

}  // namespace tmap::topo
