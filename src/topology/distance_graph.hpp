// Distance graphs (tmap::GraphView) are laid out the same way by every
// kind that has one: its edges collected here, then written as compressed
// rows. Each kind builds its own graph in its file (topology/kinds/).
#pragma once

#include <cstdint>
#include <vector>

#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "tmap/types.hpp"

namespace tmap::topo {

/// Collects undirected edges, then lays them out as compressed rows.
class EdgeList {
 public:
  explicit EdgeList(std::int64_t vertices) : degree_(static_cast<std::size_t>(vertices), 0) {}
  void add(std::int64_t a, std::int64_t b, std::int64_t weight) {
    edges_.push_back({a, b, weight});
    ++degree_[static_cast<std::size_t>(a)];
    ++degree_[static_cast<std::size_t>(b)];
  }
  /// Fills the graph's rows; each row lists its edges in insertion order.
  void build(DistanceGraph& graph) const {
    graph.offsets.assign(degree_.size() + 1, 0);
    for (std::size_t v = 0; v < degree_.size(); ++v) graph.offsets[v + 1] = graph.offsets[v] + degree_[v];
    graph.targets.assign(static_cast<std::size_t>(graph.offsets.back()), 0);
    graph.weights.assign(graph.targets.size(), 0);
    std::vector<std::int64_t> next(graph.offsets.begin(), graph.offsets.end() - 1);
    for (const auto& e : edges_) {
      const auto put = [&](std::int64_t from, std::int64_t to) {
        const auto slot = static_cast<std::size_t>(next[static_cast<std::size_t>(from)]++);
        graph.targets[slot] = to;
        graph.weights[slot] = e.weight;
      };
      put(e.a, e.b);
      put(e.b, e.a);
    }
  }

 private:
  struct Edge {
    std::int64_t a;
    std::int64_t b;
    std::int64_t weight;
  };
  std::vector<Edge> edges_;
  std::vector<std::int64_t> degree_;
};

/// The graph of a machine whose PEs are its vertices 0..n-1.
[[nodiscard]] DistanceGraph one_vertex_per_pe(const EdgeList& edges, PE n);
/// The graph of a machine whose nodes are its vertices 0..nodes-1 (the PEs
/// of a node 0 apart share its vertex), at `scale`.
[[nodiscard]] DistanceGraph one_vertex_per_node(const EdgeList& edges, const Topology& machine, std::int64_t scale);

}  // namespace tmap::topo
