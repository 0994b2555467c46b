// A machine as a weighted graph whose shortest paths are its distances:
// what libscotch's graph-defined targets (SCOTCH_archBuild2, "deco 2") need
// for machines too large for a distance table (a deco 0 text grows as T^2).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tmap/topology.hpp"

namespace tmap::topo {

/// Vertices are places (a PE, or one vertex for PEs 0 apart such as the
/// cores of a Tianhe-3 node) and switches, which carry paths only. For every
/// pair of PEs, the weighted shortest path between their vertices is exactly
/// `scale` x their distance (scale 2 where a switch sits halfway).
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

/// The graph of a mesh, torus, hypercube, complete graph, tree (tleaf,
/// ltleaf) or Tianhe-3; nothing for kinds without one here (hwloc trees,
/// deco and .dist tables) and above 2^27 edges.
std::optional<DistanceGraph> distance_graph(const Topology& topology);

}  // namespace tmap::topo
