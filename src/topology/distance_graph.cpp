#include "topology/distance_graph.hpp"

#include <algorithm>

#include "tmap/topology_views.hpp"
#include "topology/complete.hpp"
#include "topology/hypercube.hpp"
#include "topology/mesh.hpp"
#include "topology/tianhe3.hpp"
#include "topology/tree_leaf.hpp"

namespace tmap::topo {

namespace {

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
DistanceGraph one_vertex_per_pe(const EdgeList& edges, PE n) {
  DistanceGraph graph;
  edges.build(graph);
  graph.pe_vertex.resize(static_cast<std::size_t>(n));
  for (PE p = 0; p < n; ++p) graph.pe_vertex[static_cast<std::size_t>(p)] = p;
  return graph;
}

}  // namespace

/// Grid edges between neighbours along each dimension, wrapped on tori
/// (a ring of 2 has one edge, not two).
DistanceGraph mesh_graph(const MeshTopology& mesh) {
  const auto& dims = mesh.dims();
  const PE n = mesh.size();
  EdgeList edges(n);
  PE stride = 1;
  for (const auto d : dims) {
    for (PE v = 0; v < n; ++v) {
      const auto c = (v / stride) % d;
      if (c + 1 < d) {
        edges.add(v, v + stride, 1);
      } else if (mesh.is_torus() && d > 2) {
        edges.add(v, v - (d - 1) * stride, 1);
      }
    }
    stride *= d;
  }
  return one_vertex_per_pe(edges, n);
}

DistanceGraph hypercube_graph(const HypercubeTopology& cube) {
  const PE n = cube.size();
  EdgeList edges(n);
  for (PE v = 0; v < n; ++v) {
    for (PE bit = 1; bit < n; bit <<= 1) {
      if ((v & bit) == 0) edges.add(v, v | bit, 1);
    }
  }
  return one_vertex_per_pe(edges, n);
}

/// A star: every node one edge from a central switch, so two nodes are 2
/// apart (scale 2) and the PEs of a node share its vertex.
DistanceGraph complete_graph(const CompleteTopology& complete) {
  const NodeId nodes = complete.num_nodes();
  EdgeList edges(nodes + 1);
  for (NodeId v = 0; v < nodes; ++v) edges.add(v, nodes, 1);
  DistanceGraph graph;
  edges.build(graph);
  graph.scale = 2;
  graph.pe_vertex.resize(static_cast<std::size_t>(complete.size()));
  for (PE p = 0; p < complete.size(); ++p) graph.pe_vertex[static_cast<std::size_t>(p)] = complete.node_of(p);
  return graph;
}

/// The tree itself: a node at depth k has fan-out s_k children over links
/// of cost l_k; a leaf climbs to the lowest common ancestor and down again,
/// 2 x the cumulative cost (scale 2). tleaf link costs are at least 1.
DistanceGraph tree_graph(const TreeLeafTopology& tree) {
  const auto& fanouts = tree.fanouts();
  const auto& links = tree.link_costs();
  // Vertex ids level by level; `level` holds the current depth's vertices.
  std::vector<std::int64_t> level{0};
  std::int64_t next_vertex = 1;
  struct Edge {
    std::int64_t a;
    std::int64_t b;
    std::int64_t weight;
  };
  std::vector<Edge> edge_list;
  for (std::size_t k = 0; k < fanouts.size(); ++k) {
    std::vector<std::int64_t> below;
    below.reserve(level.size() * static_cast<std::size_t>(fanouts[k]));
    for (const auto parent : level) {
      for (std::int64_t c = 0; c < fanouts[k]; ++c) {
        below.push_back(next_vertex);
        edge_list.push_back({parent, next_vertex, links[k]});
        ++next_vertex;
      }
    }
    level = std::move(below);
  }
  EdgeList edges(next_vertex);
  for (const auto& e : edge_list) edges.add(e.a, e.b, e.weight);
  DistanceGraph graph;
  edges.build(graph);
  graph.scale = 2;
  // Leaves are the last level in order; PE p sits on the leaf that carries
  // label p (ltleaf), which tree_path reads back digit by digit.
  graph.pe_vertex.resize(static_cast<std::size_t>(tree.size()));
  std::vector<std::int64_t> path;
  for (PE p = 0; p < tree.size(); ++p) {
    tree.tree_path(p, path);
    std::int64_t leaf = 0;
    for (std::size_t k = 0; k < fanouts.size(); ++k) leaf = leaf * fanouts[k] + path[k];
    graph.pe_vertex[static_cast<std::size_t>(p)] = level[static_cast<std::size_t>(leaf)];
  }
  return graph;
}

/// Nodes hang off their chip half's switch (1 each way: a node to a node of
/// its half is 1 hop, scale 2); the halves of a chip are joined by 2, and a
/// switch reaches the same half of every chip in its row and in its column
/// by 4, so paths add 1 + [sides differ] + 2 [rows differ] + 2 [columns
/// differ] hops, each at most once.
DistanceGraph tianhe3_graph(const Tianhe3Topology& machine) {
  const auto& shape = machine.shape();
  const auto chips = shape.rows * shape.cols;
  const NodeId nodes = machine.num_nodes();
  const auto half = shape.nodes / 2;
  const auto switch_of = [&](std::int64_t chip, std::int64_t side) { return nodes + chip * 2 + side; };
  EdgeList edges(nodes + chips * 2);
  for (NodeId v = 0; v < nodes; ++v) edges.add(v, switch_of(v / shape.nodes, (v % shape.nodes) / half), 1);
  for (std::int64_t chip = 0; chip < chips; ++chip) {
    const auto row = chip / shape.cols;
    const auto col = chip % shape.cols;
    edges.add(switch_of(chip, 0), switch_of(chip, 1), 2);
    for (std::int64_t side = 0; side < 2; ++side) {
      for (auto c = col + 1; c < shape.cols; ++c)
        edges.add(switch_of(chip, side), switch_of(row * shape.cols + c, side), 4);
      for (auto r = row + 1; r < shape.rows; ++r)
        edges.add(switch_of(chip, side), switch_of(r * shape.cols + col, side), 4);
    }
  }
  DistanceGraph graph;
  edges.build(graph);
  graph.scale = 2;
  graph.pe_vertex.resize(static_cast<std::size_t>(machine.size()));
  for (PE p = 0; p < machine.size(); ++p) graph.pe_vertex[static_cast<std::size_t>(p)] = machine.node_of(p);
  return graph;
}

}  // namespace tmap::topo
