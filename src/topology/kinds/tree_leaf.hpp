// Scotch "tleaf L s0 l0 s1 l1 ...": a tree whose level k has fan-out s_k
// below each node and link cost l_k. Leaves are numbered left to right. The
// distance of two leaves is the cumulative link cost below their lowest common
// ancestor (Scotch's semantics: "tleaf 3 4 100 4 10 4 1" gives 1, 11, 111).
// "ltleaf ... P p0 .. pP-1" labels the leaves: within each block of P leaves,
// label L sits on leaf L - L % P + inverse(p)[L % P] (Scotch's ltleaf).
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "tmap/host_layout.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "topology/interfaces.hpp"

namespace tmap::topo {

class TreeLeafTopology final : public Topology,
                               public TreeView,
                               public ScotchView,
                               public HostLayout,
                               public GraphView {
 public:
  /// `node_levels`: how many of the lowest levels one node spans (1: the
  /// leaves under one last-level switch are a node).
  TreeLeafTopology(std::vector<std::int64_t> fanouts, std::vector<Distance> link_costs,
                   std::vector<std::int64_t> permutation = {}, std::size_t node_levels = 1);
  [[nodiscard]] PE size() const override { return size_; }
  [[nodiscard]] Distance distance(PE a, PE b) const override;
  [[nodiscard]] Distance max_distance() const override;
  /// The node of a leaf is, by default, its parent: leaves that share the
  /// last level's parent form one compute node (e.g. the cores of a socket
  /// or host); with node_levels k, the leaves under one level-(L-k) switch.
  [[nodiscard]] NodeId num_nodes() const override { return size_ / node_pes_; }
  [[nodiscard]] NodeId node_of(PE pe) const override { return leaf(pe) / node_pes_; }
  /// Leaves of one node are the last level's link cost apart when a node
  /// is one level; leaves of different nodes split above the node's levels,
  /// which only the nodes decide.
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override {
    if (node_pes_ == fanouts_.back()) return links_.back();
    return std::nullopt;
  }
  /// Any level's subtrees could be the hosts: the PEs below each level.
  [[nodiscard]] NodeChoice node_choice() const override;
  [[nodiscard]] std::unique_ptr<Topology> with_node_pes(PE pes) const override;
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return interface_of<ScotchView, HostLayout, TreeView, GraphView>(this, type);
  }
  void tree_path(PE pe, std::vector<std::int64_t>& path) const override;
  [[nodiscard]] std::int64_t graph_edges() const override { return size(); }
  [[nodiscard]] DistanceGraph distance_graph() const override;
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override { return leaf(pe) % node_pes_; }
  [[nodiscard]] std::string kind() const override { return permutation_.empty() ? "tleaf" : "ltleaf"; }
  [[nodiscard]] std::string description() const override;
  [[nodiscard]] std::string to_tgt() const override { return description() + "\n"; }

  [[nodiscard]] const std::vector<std::int64_t>& fanouts() const noexcept { return fanouts_; }
  [[nodiscard]] const std::vector<Distance>& link_costs() const noexcept { return links_; }

 private:
  /// The tree leaf that carries label pe.
  [[nodiscard]] PE leaf(PE pe) const noexcept {
    if (inverse_.empty()) return pe;
    const auto block = static_cast<PE>(inverse_.size());
    return pe - pe % block + inverse_[static_cast<std::size_t>(pe % block)];
  }

  std::vector<std::int64_t> fanouts_;
  std::vector<Distance> links_;
  std::vector<std::int64_t> permutation_;
  std::vector<std::int64_t> inverse_;
  /// suffix_cost_[k] = sum of link costs of levels k..L-1: the distance of
  /// two leaves whose paths first split at level k.
  std::vector<Distance> suffix_cost_;
  PE size_ = 1;
  std::size_t node_levels_ = 1;
  PE node_pes_ = 1;  ///< PEs of one node: the fan-outs of its node_levels_ lowest levels
};

}  // namespace tmap::topo
