// Scotch "tleaf L s0 l0 s1 l1 ...": a tree whose level k has fan-out s_k
// below each node and link cost l_k. Leaves are numbered left to right. The
// distance of two leaves is the cumulative link cost below their lowest common
// ancestor (Scotch's semantics: "tleaf 3 4 100 4 10 4 1" gives 1, 11, 111).
// "ltleaf ... P p0 .. pP-1" labels the leaves: within each block of P leaves,
// label L sits on leaf L - L % P + inverse(p)[L % P] (Scotch's ltleaf).
#pragma once

#include <algorithm>
#include <vector>

#include "tmap/topology.hpp"

namespace tmap::topo {

class TreeLeafTopology final : public Topology {
 public:
  TreeLeafTopology(std::vector<std::int64_t> fanouts, std::vector<Distance> link_costs,
                   std::vector<std::int64_t> permutation = {});
  [[nodiscard]] PE size() const override { return size_; }
  [[nodiscard]] Distance distance(PE a, PE b) const override;
  [[nodiscard]] Distance max_distance() const override;
  /// The node of a leaf is its parent: leaves that share the last level's
  /// parent form one compute node (e.g. the cores of a socket or host).
  [[nodiscard]] NodeId num_nodes() const override { return size_ / fanouts_.back(); }
  [[nodiscard]] NodeId node_of(PE pe) const override { return leaf(pe) / fanouts_.back(); }
  /// Leaves of one node are the last level's link cost apart; leaves of
  /// different nodes split above that level, which only the nodes decide.
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override { return links_.back(); }
  [[nodiscard]] bool tree_path(PE pe, std::vector<std::int64_t>& path) const override;
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override { return leaf(pe) % fanouts_.back(); }
  [[nodiscard]] std::string kind() const override { return permutation_.empty() ? "tleaf" : "ltleaf"; }
  /// tleaf is native; Scotch's ltleaf distances differ from the labelled
  /// tree's, and libscotch refuses a level of fan-out 1 ("tleaf 3 1 10 ...":
  /// archTleafArchLoad: bad input), which tmap reads as the tree it is.
  [[nodiscard]] bool scotch_native() const override {
    return permutation_.empty() && std::find(fanouts_.begin(), fanouts_.end(), 1) == fanouts_.end();
  }
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
};

}  // namespace tmap::topo
