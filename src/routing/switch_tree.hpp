// A tree of switches with compute nodes on its leaves, as Slurm's
// topology/tree plugin describes a cluster (topology.conf): each node hangs
// on one switch, each switch on at most one parent, one root. A message
// climbs from its node's switch to the lowest switch above both nodes and
// goes down (the only route a tree has).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routing/network.hpp"

namespace tmap::routing {

class SwitchTreeNetwork final : public Network {
 public:
  /// `parent[s]`: switch s's parent (-1 for the root); `switch_of_node[n]`:
  /// the switch node n hangs on. InputError when the switches are not one
  /// tree (a cycle, several roots) or a node's switch does not exist.
  SwitchTreeNetwork(std::vector<std::string> switch_names, std::vector<std::int64_t> parent,
                    std::vector<std::int64_t> switch_of_node, std::string spec);

  [[nodiscard]] std::int64_t num_nodes() const override { return static_cast<std::int64_t>(switch_of_node_.size()); }
  [[nodiscard]] std::int64_t hops(std::int64_t a, std::int64_t b) const override;
  [[nodiscard]] std::int64_t max_hops() const override { return max_hops_; }
  void route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const override;
  /// Link n: node n's cable to its switch; link N + s: switch s's cable to its parent.
  [[nodiscard]] LinkId num_links() const override {
    return static_cast<LinkId>(switch_of_node_.size() + parent_.size());
  }
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] int link_kind(LinkId link) const override { return link < num_nodes() ? 0 : 1; }
  [[nodiscard]] std::vector<std::string> link_kinds() const override { return {"node", "switch"}; }
  [[nodiscard]] std::string kind() const override { return "slurm-tree"; }
  [[nodiscard]] std::string spec() const override { return spec_; }
  /// The switches from the root down to the node's, where every node hangs
  /// as deep as every other (else false: the tree view needs one depth).
  [[nodiscard]] bool tree_path(std::int64_t node, std::vector<std::int64_t>& path) const override;

 private:
  [[nodiscard]] std::int64_t lowest_common(std::int64_t s, std::int64_t t) const;

  std::vector<std::string> names_;
  std::vector<std::int64_t> parent_;
  std::vector<std::int64_t> switch_of_node_;
  std::vector<std::int64_t> depth_;
  std::string spec_;
  std::int64_t max_hops_ = 0;
  bool even_ = true;  ///< every node's switch at one depth
};

}  // namespace tmap::routing
