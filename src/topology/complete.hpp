// Scotch "cmplt N" and "cmpltw N w0 .. wN-1": every PE one hop from every
// other. cmpltw's weights (processing capacities) are kept for saving; how
// many ranks a PE holds is -o K.
#pragma once

#include <vector>

#include "tmap/topology.hpp"

namespace tmap::topo {

class CompleteTopology final : public Topology {
 public:
  explicit CompleteTopology(PE size, std::vector<std::int64_t> weights = {});
  [[nodiscard]] PE size() const override { return size_; }
  [[nodiscard]] Distance distance(PE a, PE b) const override { return a == b ? 0 : 1; }
  [[nodiscard]] Distance max_distance() const override { return size_ > 1 ? 1 : 0; }
  [[nodiscard]] std::string kind() const override { return weights_.empty() ? "cmplt" : "cmpltw"; }
  [[nodiscard]] std::string description() const override;
  [[nodiscard]] std::string to_tgt() const override { return description() + "\n"; }

 private:
  PE size_;
  std::vector<std::int64_t> weights_;
};

}  // namespace tmap::topo
