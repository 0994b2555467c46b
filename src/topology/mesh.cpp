#include "topology/mesh.hpp"

#include <cstdlib>

#include "routing/models.hpp"
#include "tmap/error.hpp"
#include "tmap/topology_views.hpp"
#include "topology/distance_graph.hpp"

namespace tmap::topo {

namespace {
constexpr PE kMaxPes = PE{1} << 40;
}

MeshTopology::MeshTopology(std::vector<std::int64_t> dims, bool torus) : dims_(std::move(dims)), torus_(torus) {
  if (dims_.empty()) throw InputError(kind() + ": at least one dimension is needed");
  for (const auto d : dims_) {
    if (d < 1) throw InputError(kind() + ": every dimension must be at least 1");
    if (size_ > kMaxPes / d) throw InputError(kind() + ": more than 2^40 PEs");
    size_ *= d;
  }
}

Distance MeshTopology::distance(PE a, PE b) const {
  Distance total = 0;
  for (const auto d : dims_) {
    const auto ca = a % d;
    const auto cb = b % d;
    a /= d;
    b /= d;
    auto delta = std::abs(ca - cb);
    if (torus_ && d - delta < delta) delta = d - delta;
    total += delta;
  }
  return total;
}

Distance MeshTopology::max_distance() const {
  Distance total = 0;
  for (const auto d : dims_) total += torus_ ? d / 2 : d - 1;
  return total;
}

std::string MeshTopology::kind() const {
  const std::string base = torus_ ? "torus" : "mesh";
  if (dims_.size() == 2) return base + "2D";
  if (dims_.size() == 3) return base + "3D";
  return base + "XD";
}

std::string MeshTopology::description() const {
  std::string text = kind();
  if (dims_.size() != 2 && dims_.size() != 3) text += " " + std::to_string(dims_.size());
  for (const auto d : dims_) text += " " + std::to_string(d);
  return text;
}

void MeshTopology::grid_coordinates(PE pe, std::vector<std::int64_t>& coordinates) const {
  coordinates.clear();
  for (const auto d : dims_) {
    coordinates.push_back(pe % d);
    pe /= d;
  }
}

DistanceGraph MeshTopology::distance_graph() const {
  return mesh_graph(*this);
}

std::unique_ptr<RoutingModel> MeshTopology::routing_model() const {
  return std::make_unique<routing::MeshRouting>(dims_, torus_);
}

}  // namespace tmap::topo
