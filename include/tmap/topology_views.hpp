// Views some machines give of themselves beyond distances (capabilities of
// tmap::Topology): a tree (each PE's branch at every level), a grid
// (Manhattan distances, wrapping or not) and a weighted graph whose
// shortest paths are the distances. Algorithms ask for one and work
// without it where the machine has none.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tmap/export.h"
#include "tmap/topology.hpp"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

/// Tree-shaped machines: distances grow with the level of two PEs' lowest
/// common ancestor.
class TreeView {
 public:
  virtual ~TreeView() = default;
  /// The branch taken at each level from the root down to the PE.
  virtual void tree_path(PE pe, std::vector<std::int64_t>& path) const = 0;
};

/// Clusters whose network is a tree and whose nodes may not be (GPU nodes:
/// their GPUs linked in a mesh or by a switch): each PE's branch at every
/// level of the network, then its node's own tree path where the node has
/// one, else its index in its node. A grouping for the
/// constructions that fill a tree's subtrees (a node's PEs one flat level),
/// not the distances: two PEs of one node may be at different distances.
class NodeGroupsView {
 public:
  virtual ~NodeGroupsView() = default;
  virtual void group_path(PE pe, std::vector<std::int64_t>& path) const = 0;
};

/// Meshes and tori: distance is the (wrap-around) Manhattan distance of
/// grid coordinates, x first (Scotch's numbering).
class GridView {
 public:
  virtual ~GridView() = default;
  virtual void grid_coordinates(PE pe, std::vector<std::int64_t>& coordinates) const = 0;
  /// Each axis's extent, and whether the axes wrap around (tori).
  virtual void grid_extent(std::vector<std::int64_t>& extent, bool& wraps) const = 0;
};

/// A machine as a weighted graph whose shortest paths are its distances:
/// what libscotch's graph-defined targets (SCOTCH_archBuild2, "deco 2")
/// need for machines too large for a distance table. Vertices are places (a
/// PE, or one vertex for PEs 0 apart such as the cores of a Tianhe-3 node)
/// and switches, which carry paths only. For every pair of PEs, the
/// weighted shortest path between their vertices is exactly `scale` x
/// their distance (scale 2 where a switch sits halfway).
struct DistanceGraph {
  /// Adjacency in compressed rows: vertex v's edges are
  /// [offsets[v], offsets[v + 1]) of targets and weights (each >= 1).
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int64_t> targets;
  std::vector<std::int64_t> weights;
  std::int64_t scale = 1;
  /// The vertex of each PE.
  std::vector<std::int64_t> pe_vertex;

  [[nodiscard]] std::int64_t num_vertices() const noexcept { return static_cast<std::int64_t>(offsets.size()) - 1; }
};

class GraphView {
 public:
  virtual ~GraphView() = default;
  /// Undirected edges the graph has, known before building it.
  [[nodiscard]] virtual std::int64_t graph_edges() const = 0;
  [[nodiscard]] virtual DistanceGraph distance_graph() const = 0;
};

/// The PE's tree path into `path`; false where the machine is no tree.
[[nodiscard]] bool tree_path(const Topology& topology, PE pe, std::vector<std::int64_t>& path);
/// The PE's path in the machine's groups: its tree path on a tree machine,
/// else its network's branches and its place in its node on a cluster whose
/// network is a tree (NodeGroupsView); false elsewhere.
[[nodiscard]] bool group_path(const Topology& topology, PE pe, std::vector<std::int64_t>& path);
/// The PE's grid coordinates; false where the machine is no grid.
[[nodiscard]] bool grid_coordinates(const Topology& topology, PE pe, std::vector<std::int64_t>& coordinates);
/// The grid's extent and wrapping; false where the machine is no grid.
[[nodiscard]] bool grid_extent(const Topology& topology, std::vector<std::int64_t>& extent, bool& wraps);
/// The machine's distance graph; nothing where it has none, or above 2^27
/// edges.
[[nodiscard]] std::optional<DistanceGraph> distance_graph(const Topology& topology);

}  // namespace tmap

TMAP_API_END
