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

void MeshTopology::distances_from(PE a, std::span<const PE> bs, std::span<Distance> out) const {
  // Per axis, the distance from a's coordinate to each coordinate; along
  // consecutive PEs the coordinates count up like an odometer, so a row of a
  // distance table costs three loads per PE instead of two divisions per axis
  // (the tables of 4,096 PEs of a torus: 16 M distances). Up to three axes,
  // in locals: stores to `out` would otherwise reload every member.
  const auto axes = dims_.size();
  if (axes > 3) {
    Topology::distances_from(a, bs, out);
    return;
  }
  const std::int64_t n0 = dims_[0];
  const std::int64_t n1 = axes > 1 ? dims_[1] : 1;
  const std::int64_t n2 = axes > 2 ? dims_[2] : 1;
  std::vector<Distance> along(static_cast<std::size_t>(n0 + n1 + n2));
  const auto fill = [&](Distance* table, std::int64_t length, std::int64_t own) {
    for (std::int64_t c = 0; c < length; ++c) {
      auto delta = std::abs(own - c);
      if (torus_ && length - delta < delta) delta = length - delta;
      table[c] = delta;
    }
  };
  Distance* const t0 = along.data();
  Distance* const t1 = t0 + n0;
  Distance* const t2 = t1 + n1;
  fill(t0, n0, a % n0);
  fill(t1, n1, a / n0 % n1);
  fill(t2, n2, a / n0 / n1);
  std::int64_t c0 = 0;
  std::int64_t c1 = 0;
  std::int64_t c2 = 0;
  PE previous = -2;
  for (std::size_t i = 0; i < bs.size(); ++i) {
    const PE b = bs[i];
    if (b == previous + 1) {
      if (++c0 == n0) {
        c0 = 0;
        if (++c1 == n1) {
          c1 = 0;
          ++c2;
        }
      }
    } else {
      c0 = b % n0;
      c1 = b / n0 % n1;
      c2 = b / n0 / n1;
    }
    previous = b;
    out[i] = t0[c0] + t1[c1] + t2[c2];
  }
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
