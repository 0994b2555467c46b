// A torus of compute nodes as SimGrid's TORUS cluster zone builds it:
// "torus:X,Y[,Z,...]" nodes, node id = x + X (y + Y z) (dimension 0
// fastest), one cable from each node to its successor in each dimension
// (the last one's to the first: wrap-around). Routing is SimGrid's:
// dimension by dimension from 0, each the shorter way round, taking the
// direction SimGrid's rule picks where both ways are as long.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routing/network.hpp"

namespace tmap::routing {

class TorusNetwork final : public Network {
 public:
  /// InputError for an empty list, a size below 1, or more than 2^26 nodes.
  explicit TorusNetwork(std::vector<std::int64_t> dims);

  [[nodiscard]] std::int64_t num_nodes() const override { return nodes_; }
  [[nodiscard]] std::int64_t hops(std::int64_t a, std::int64_t b) const override;
  [[nodiscard]] std::int64_t max_hops() const override;
  void route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const override;
  /// Link v D + j: from node v to its successor in dimension j.
  [[nodiscard]] LinkId num_links() const override { return nodes_ * static_cast<std::int64_t>(dims_.size()); }
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] int link_kind(LinkId link) const override {
    return static_cast<int>(link % static_cast<LinkId>(dims_.size()));
  }
  [[nodiscard]] std::vector<std::string> link_kinds() const override;
  [[nodiscard]] LinkEnds link_ends(LinkId link) const override;
  [[nodiscard]] std::string kind() const override { return "torus"; }
  [[nodiscard]] std::string spec() const override;

 private:
  /// +1 (successor) or -1: SimGrid's direction from coordinate m to t in a ring of d.
  [[nodiscard]] static int direction(std::int64_t m, std::int64_t t, std::int64_t d);

  std::vector<std::int64_t> dims_;
  std::vector<std::int64_t> stride_;
  std::int64_t nodes_ = 1;
};

}  // namespace tmap::routing
