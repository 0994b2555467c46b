// A parallel-ports generalised fat tree (PGFT) of compute nodes, as
// SimGrid's FAT_TREE cluster zone builds it (Zahavi's description): L
// switch levels above the nodes; down[i] children per switch of level i+1,
// up[i] parents per element of level i, ports[i] parallel links between an
// element of level i and each of its parents (0-based vectors; level 0 =
// the nodes). There are prod(down) nodes. Every element has a label of L
// digits; digit j ranges over down[j] for levels <= j and over up[j] above,
// and an element's position in its level is its label read with digit 0
// fastest. A parent and a child are linked when their labels agree on every
// digit but the child's level.
//
// Routing is SimGrid's destination-mod-k (as SimGrid 3.32, Debian's, does
// it): up from the source through the parent port
// (dest / prod_{i<l} up[i]) mod (up[l] ports[l]) at level l, until a switch
// whose subtree holds the destination; then down,
// taking the parallel link (source mod ports) and continuing the port
// search as SimGrid's loop does, so routes (and hence simulated times) are
// SimGrid's link for link.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routing/network.hpp"

namespace tmap::routing {

class FatTreeNetwork final : public Network {
 public:
  /// InputError naming `origin` when the parameters are not a fat tree
  /// (counts < 1, vectors of another length than `levels`, too large).
  FatTreeNetwork(std::vector<std::int64_t> down, std::vector<std::int64_t> up, std::vector<std::int64_t> ports);

  [[nodiscard]] std::int64_t levels() const noexcept { return static_cast<std::int64_t>(down_.size()); }
  [[nodiscard]] std::int64_t num_nodes() const override { return count_[0]; }
  /// Elements (nodes or switches) at a level.
  [[nodiscard]] std::int64_t count(std::int64_t level) const { return count_[static_cast<std::size_t>(level)]; }
  /// Links (cables) in all: every element below the top has up[l] x ports[l] of them.
  [[nodiscard]] LinkId num_links() const override { return links_; }
  /// Cables a message from node a to node b crosses: 2 x the level of the
  /// lowest switch above both (0 when a == b).
  [[nodiscard]] std::int64_t hops(std::int64_t a, std::int64_t b) const override;
  [[nodiscard]] std::int64_t max_hops() const override { return 2 * levels(); }
  /// The lowest switch level above both nodes (0 when a == b).
  [[nodiscard]] std::int64_t top_level(std::int64_t a, std::int64_t b) const;
  /// Appends the links of the D-mod-k route from node a to node b.
  void route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const override;
  /// The level (0-based: 0 = node to level-1 switch) a link climbs from.
  [[nodiscard]] std::int64_t link_level(LinkId link) const;
  /// A cable's ends: the lower element's level and position, the upper
  /// one's position (at level + 1), and which of their parallel cables.
  struct Ends {
    std::int64_t level, lower, upper, parallel;
  };
  [[nodiscard]] Ends ends(LinkId link) const;
  /// "node 3 - switch(1,0) #1": the cable's two ends and parallel index.
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] LinkEnds link_ends(LinkId link) const override;
  /// Kind k: the cables between levels k and k+1 ("level1" above the nodes).
  [[nodiscard]] int link_kind(LinkId link) const override { return static_cast<int>(link_level(link)); }
  [[nodiscard]] std::vector<std::string> link_kinds() const override;
  [[nodiscard]] std::string kind() const override { return "fattree"; }
  [[nodiscard]] std::string spec() const override { return "fattree:" + parameters(); }
  /// The label digits from the top level down: hops are this tree's distance.
  [[nodiscard]] bool tree_path(std::int64_t node, std::vector<std::int64_t>& path) const override;
  /// A node's label digit at `level` (its branch there).
  [[nodiscard]] std::int64_t digit(std::int64_t node, std::int64_t level) const;
  /// "L;d1,..,dL;u1,..,uL;p1,..,pL", SimGrid's topo_parameters.
  [[nodiscard]] std::string parameters() const;

 private:
  /// Digit j's radix at `level`.
  [[nodiscard]] std::int64_t radix(std::int64_t level, std::int64_t j) const {
    return j >= level ? down_[static_cast<std::size_t>(j)] : up_[static_cast<std::size_t>(j)];
  }
  [[nodiscard]] std::vector<std::int64_t> label(std::int64_t level, std::int64_t position) const;
  [[nodiscard]] std::int64_t position(std::int64_t level, const std::vector<std::int64_t>& label) const;
  /// The link from element (level, position) through its parent port `port`.
  [[nodiscard]] LinkId up_link(std::int64_t level, std::int64_t position, std::int64_t port) const;

  std::vector<std::int64_t> down_, up_, ports_;
  std::vector<std::int64_t> count_;  ///< elements per level 0..L
  std::vector<LinkId> first_link_;   ///< per level 0..L-1: the first of its elements' up links
  LinkId links_ = 0;
};

}  // namespace tmap::routing
