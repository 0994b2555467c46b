// The distance graphs of the kinds that have one (tmap::GraphView): each
// kind's GraphView builds its graph here, where the edge lists of all
// kinds share one layout.
#pragma once

#include "tmap/topology_views.hpp"

namespace tmap::topo {

class MeshTopology;
class HypercubeTopology;
class CompleteTopology;
class TreeLeafTopology;
class Tianhe3Topology;

[[nodiscard]] DistanceGraph mesh_graph(const MeshTopology& mesh);
[[nodiscard]] DistanceGraph hypercube_graph(const HypercubeTopology& cube);
[[nodiscard]] DistanceGraph complete_graph(const CompleteTopology& complete);
/// tleaf and ltleaf: a switch vertex per subtree.
[[nodiscard]] DistanceGraph tree_graph(const TreeLeafTopology& tree);
/// A vertex per node (its cores are 0 apart) and two switches per chip.
[[nodiscard]] DistanceGraph tianhe3_graph(const Tianhe3Topology& machine);

}  // namespace tmap::topo
