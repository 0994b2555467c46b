// Scotch meshes and tori of any dimension ("mesh2D X Y", "torus3D X Y Z",
// "meshXD D d0 .. dD-1"). PE id = c0 + d0 * (c1 + d1 * (c2 + ...)), Scotch's
// numbering; distance = Manhattan, with wrap-around on tori.
#pragma once

#include <vector>

#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "topology/interfaces.hpp"

namespace tmap::topo {

class MeshTopology final : public Topology, public GridView, public ScotchView, public GraphView {
 public:
  MeshTopology(std::vector<std::int64_t> dims, bool torus);
  [[nodiscard]] PE size() const override { return size_; }
  [[nodiscard]] Distance distance(PE a, PE b) const override;
  [[nodiscard]] Distance max_distance() const override;
  void distances_from(PE a, std::span<const PE> bs, std::span<Distance> out) const override;
  /// Distinct PEs differ in a coordinate.
  [[nodiscard]] Distance least_distance() const override { return 1; }
  [[nodiscard]] std::string kind() const override;
  [[nodiscard]] std::string description() const override;
  [[nodiscard]] std::string to_tgt() const override { return description() + "\n"; }
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return interface_of<ScotchView, GridView, GraphView>(this, type);
  }
  void grid_coordinates(PE pe, std::vector<std::int64_t>& coordinates) const override;
  void grid_extent(std::vector<std::int64_t>& extent, bool& wraps) const override {
    extent = dims_;
    wraps = torus_;
  }
  [[nodiscard]] std::int64_t graph_edges() const override { return size() * static_cast<std::int64_t>(dims_.size()); }
  [[nodiscard]] DistanceGraph distance_graph() const override;
  [[nodiscard]] std::unique_ptr<RoutingModel> routing_model() const override;

  [[nodiscard]] const std::vector<std::int64_t>& dims() const noexcept { return dims_; }
  [[nodiscard]] bool is_torus() const noexcept { return torus_; }

 private:
  std::vector<std::int64_t> dims_;
  bool torus_;
  PE size_ = 1;
};

}  // namespace tmap::topo
