// The switches of a cluster with compute nodes on its leaf switches, as
// Slurm's topology/tree plugin reads them (topology.conf): each switch lists
// the switches below it, and a switch may sit below several (a leaf under
// every spine of a two-level fat tree). As Slurm does, the distance of two
// switches is the shortest path between them over the switch links (Slurm's
// switches_dist); a message takes a shortest path, among equal ones the
// parent chosen by the destination node (as D-mod-k routing spreads them).
// Switches no link joins form separate parts: Slurm runs no job across them,
// so a job is refused only when it spans two parts (Topology::part_of).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routing/network.hpp"

namespace tmap::routing {

class SwitchTreeNetwork final : public Network {
 public:
  /// Slurm refuses a switch configuration deeper than this ("not a tree").
  static constexpr std::int64_t kMaxLevels = 20;

  /// `children[s]`: the switches below switch s; `switch_of_node[n]`: the
  /// switch node n hangs on. InputError (without a file: the caller names
  /// it) for a cycle, levels deeper than Slurm's, or a machine too large
  /// for the distance tables of a switch graph that is not a tree.
  SwitchTreeNetwork(std::vector<std::string> switch_names, std::vector<std::vector<std::int64_t>> children,
                    std::vector<std::int64_t> switch_of_node, std::string spec);

  [[nodiscard]] std::int64_t num_nodes() const override { return static_cast<std::int64_t>(switch_of_node_.size()); }
  [[nodiscard]] std::int64_t hops(std::int64_t a, std::int64_t b) const override;
  [[nodiscard]] std::int64_t max_hops() const override { return max_hops_; }
  void route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const override;
  /// Link n: node n's cable to its switch; link N + e: the e-th switch
  /// link (child, parent) in the order the file lists them.
  [[nodiscard]] LinkId num_links() const override {
    return static_cast<LinkId>(switch_of_node_.size() + edges_.size());
  }
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] LinkEnds link_ends(LinkId link) const override;
  [[nodiscard]] int link_kind(LinkId link) const override { return link < num_nodes() ? 0 : 1; }
  [[nodiscard]] std::vector<std::string> link_kinds() const override { return {"node", "switch"}; }
  [[nodiscard]] std::string kind() const override { return "slurm-tree"; }
  [[nodiscard]] std::string spec() const override { return spec_; }
  /// The switches from the root down to the node's, where the switches
  /// form one tree (one parent each) and every node hangs as deep as every
  /// other (else false: the tree view needs one depth).
  [[nodiscard]] bool tree_path(std::int64_t node, std::vector<std::int64_t>& path) const override;
  [[nodiscard]] std::int64_t part_of(std::int64_t node) const override {
    return part_[static_cast<std::size_t>(switch_of_node_[static_cast<std::size_t>(node)])];
  }
  [[nodiscard]] std::string why_apart(std::int64_t a, std::int64_t b) const override;

 private:
  [[nodiscard]] std::int64_t lowest_common(std::int64_t s, std::int64_t t) const;
  [[nodiscard]] std::int64_t switch_distance(std::int64_t s, std::int64_t t) const;
  /// Hops between nodes of different parts: past every real route, never
  /// taken by a job (refused), finite so that tables stay well defined.
  [[nodiscard]] std::int64_t apart_hops() const { return max_within_ + 2; }

  std::vector<std::string> names_;
  std::vector<std::int64_t> switch_of_node_;
  std::string spec_;
  /// Switch links: (child, parent), link N + e.
  std::vector<std::pair<std::int64_t, std::int64_t>> edges_;
  /// Per switch, (neighbour, edge index), parents and children alike.
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> adjacent_;
  std::vector<std::int64_t> part_;  ///< per switch: its connected part
  std::int64_t parts_ = 1;
  /// One parent each: the tree's parent and depth (the fast path).
  bool tree_ = true;
  std::vector<std::int64_t> parent_;
  std::vector<std::int64_t> depth_;
  /// Otherwise: per switch holding nodes (its index in leaf_of_), the
  /// distance to every switch (255: another part).
  std::vector<std::int64_t> leaf_of_;  ///< per switch: its row, -1 without nodes
  std::vector<std::vector<std::uint8_t>> distance_from_;
  std::int64_t max_within_ = 0;  ///< the most hops between two nodes of one part
  std::int64_t max_hops_ = 0;
  bool even_ = true;  ///< every node's switch at one depth (trees)
};

}  // namespace tmap::routing
