#include "topology/distance_graph.hpp"

namespace tmap::topo {

/// The graph of a machine whose PEs are its vertices 0..n-1.
DistanceGraph one_vertex_per_pe(const EdgeList& edges, PE n) {
  DistanceGraph graph;
  edges.build(graph);
  graph.pe_vertex.resize(static_cast<std::size_t>(n));
  for (PE p = 0; p < n; ++p) graph.pe_vertex[static_cast<std::size_t>(p)] = p;
  return graph;
}

DistanceGraph one_vertex_per_node(const EdgeList& edges, const Topology& machine, std::int64_t scale) {
  DistanceGraph graph;
  edges.build(graph);
  graph.scale = scale;
  graph.pe_vertex.resize(static_cast<std::size_t>(machine.size()));
  for (PE p = 0; p < machine.size(); ++p) graph.pe_vertex[static_cast<std::size_t>(p)] = machine.node_of(p);
  return graph;
}

}  // namespace tmap::topo
