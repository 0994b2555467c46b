// The Tianhe-3 prototype's network (OHTMA paper, section 4.2 and Table 1;
// contract section 2): chips in an R x C mesh whose rows and columns are fully
// linked, `nodes` compute nodes per chip in two halves (left, right), `cores`
// PEs per node. Distances come from the hop table in O(1), nothing per pair
// is stored, so a full-size machine costs nothing to create.
#pragma once

#include <span>
#include <string_view>

#include "tmap/host_layout.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/tianhe3.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "topology/interfaces.hpp"

namespace tmap::topo {

/// Largest deco target written: the file grows as nodes^2 / 2.
inline constexpr std::int64_t kMaxDecoNodes = 8192;

/// Chips, nodes per chip (even) and PEs per node (the public tmap/tianhe3.hpp).
using Tianhe3Shape = tmap::Tianhe3Shape;

/// Parses "tianhe3:RxC[,nodes=N][,cores=K]" (options in any order).
[[nodiscard]] Tianhe3Shape parse_tianhe3_spec(std::string_view spec);

class Tianhe3Topology final : public Topology, public TreeView, public ScotchView, public HostLayout, public GraphView {
 public:
  explicit Tianhe3Topology(const Tianhe3Shape& shape);

  [[nodiscard]] PE size() const override { return num_nodes() * shape_.cores; }
  [[nodiscard]] Distance distance(PE a, PE b) const override { return node_hops(a / shape_.cores, b / shape_.cores); }
  void distances_from(PE a, std::span<const PE> bs, std::span<Distance> out) const override;
  [[nodiscard]] Distance max_distance() const override;
  [[nodiscard]] NodeId num_nodes() const override { return shape_.rows * shape_.cols * shape_.nodes; }
  [[nodiscard]] NodeId node_of(PE pe) const override { return pe / shape_.cores; }
  /// PEs of one node are 0 network hops apart; hops depend only on nodes.
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override { return Distance{0}; }
  /// The node tree: chip, side, node within the side, core. It ignores the
  /// chip mesh (all chips hang from the root), as tm-topo --tree does.
  void tree_path(PE pe, std::vector<std::int64_t>& path) const override {
    const auto node = pe / shape_.cores;
    const auto half = shape_.nodes / 2;
    path = {node / shape_.nodes, (node % shape_.nodes) / half, node % half, pe % shape_.cores};
  }
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return interface_of<ScotchView, HostLayout, TreeView, GraphView>(this, type);
  }
  /// A node per vertex, two switches per chip and their links.
  [[nodiscard]] std::int64_t graph_edges() const override {
    return num_nodes() + shape_.rows * shape_.cols * (1 + shape_.rows + shape_.cols);
  }
  [[nodiscard]] DistanceGraph distance_graph() const override;
  /// The chip halves: nodes of one half are 1 hop apart, and hops between
  /// halves depend on the halves only.
  [[nodiscard]] std::int64_t uniform_group(NodeId node) const override { return node / (shape_.nodes / 2); }
  [[nodiscard]] std::string kind() const override { return "tianhe3"; }
  [[nodiscard]] std::string description() const override;
  /// A Scotch deco 0 target: one terminal per node (weight = cores), listed
  /// in node order so the bisection tree splits rows, columns, sides, nodes.
  [[nodiscard]] std::string to_tgt() const override;
  /// The same for some nodes only (an allocation), keeping whole-machine
  /// distances; terminal k is nodes[k]. InputError above kMaxDecoNodes.
  [[nodiscard]] std::string deco_target(std::span<const NodeId> nodes) const;
  [[nodiscard]] bool scotch_terminals_are_nodes() const override { return true; }
  [[nodiscard]] std::unique_ptr<RoutingModel> routing_model() const override;
  [[nodiscard]] std::string node_subset_tgt(std::span<const NodeId> nodes) const override { return deco_target(nodes); }
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override { return pe % shape_.cores; }

  /// Hops between two nodes: 0 on the same node, else 1 + [sides differ] +
  /// 2 [rows differ] + 2 [columns differ].
  [[nodiscard]] Distance node_hops(NodeId a, NodeId b) const noexcept {
    if (a == b) return 0;
    const auto chip_a = a / shape_.nodes;
    const auto chip_b = b / shape_.nodes;
    const auto half = shape_.nodes / 2;
    const Distance side = ((a % shape_.nodes) / half) != ((b % shape_.nodes) / half) ? 1 : 0;
    const Distance row = (chip_a / shape_.cols) != (chip_b / shape_.cols) ? 2 : 0;
    const Distance col = (chip_a % shape_.cols) != (chip_b % shape_.cols) ? 2 : 0;
    return 1 + side + row + col;
  }
  [[nodiscard]] const Tianhe3Shape& shape() const noexcept { return shape_; }

 private:
  Tianhe3Shape shape_;
};

}  // namespace tmap::topo
