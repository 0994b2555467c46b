// Scotch "cmplt N": every PE one hop from every other.
#pragma once

#include "tmap/topology.hpp"

namespace tmap::topo {

class CompleteTopology final : public Topology {
 public:
  explicit CompleteTopology(PE size);
  [[nodiscard]] PE size() const override { return size_; }
  [[nodiscard]] Distance distance(PE a, PE b) const override { return a == b ? 0 : 1; }
  [[nodiscard]] Distance max_distance() const override { return size_ > 1 ? 1 : 0; }
  [[nodiscard]] std::string kind() const override { return "cmplt"; }
  [[nodiscard]] std::string description() const override;
  [[nodiscard]] std::string to_tgt() const override { return description() + "\n"; }

 private:
  PE size_;
};

}  // namespace tmap::topo
