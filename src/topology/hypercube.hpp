// Scotch "hcub D": 2^D PEs, distance = Hamming distance of the ids.
#pragma once

#include <bit>

#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "topology/interfaces.hpp"

namespace tmap::topo {

class HypercubeTopology final : public Topology, public ScotchView, public GraphView {
 public:
  /// Dimensions 0..40 (2^40 PEs is far beyond any machine).
  explicit HypercubeTopology(int dimension);
  [[nodiscard]] PE size() const override { return PE{1} << dimension_; }
  [[nodiscard]] Distance distance(PE a, PE b) const override {
    return std::popcount(static_cast<std::uint64_t>(a ^ b));
  }
  [[nodiscard]] Distance max_distance() const override { return dimension_; }
  /// Distinct PEs differ in a bit.
  [[nodiscard]] Distance least_distance() const override { return 1; }
  [[nodiscard]] std::string kind() const override { return "hcub"; }
  [[nodiscard]] std::string description() const override;
  [[nodiscard]] std::string to_tgt() const override { return description() + "\n"; }
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return interface_of<ScotchView, GraphView>(this, type);
  }
  [[nodiscard]] std::int64_t graph_edges() const override { return size() * std::max<Distance>(dimension_, 1); }
  [[nodiscard]] DistanceGraph distance_graph() const override;
  [[nodiscard]] std::unique_ptr<RoutingModel> routing_model() const override;

 private:
  int dimension_;
};

}  // namespace tmap::topo
