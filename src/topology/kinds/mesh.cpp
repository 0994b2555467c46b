// Scotch meshes and tori of any dimension ("mesh2D X Y", "torus3D X Y Z",
// "meshXD D d0 .. dD-1"). PE id = c0 + d0 * (c1 + d1 * (c2 + ...)), Scotch's
// numbering; distance = Manhattan, with wrap-around on tori. The whole kind
// is this file.
#include <cstdlib>
#include <vector>

#include "routing/models.hpp"
#include "tmap/error.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "topology/distance_graph.hpp"
#include "topology/interfaces.hpp"
#include "topology/kinds/kind.hpp"

namespace tmap::topo {

namespace {

using detail::TokenStream;
constexpr PE kMaxPes = PE{1} << 40;
constexpr std::int64_t kMaxExtent = std::int64_t{1} << 40;

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

/// Grid edges between neighbours along each dimension, wrapped on tori
/// (a ring of 2 has one edge, not two).
DistanceGraph MeshTopology::distance_graph() const {
  const auto& dims = dims_;
  const PE n = size();
  EdgeList edges(n);
  PE stride = 1;
  for (const auto d : dims) {
    for (PE v = 0; v < n; ++v) {
      const auto c = (v / stride) % d;
      if (c + 1 < d) {
        edges.add(v, v + stride, 1);
      } else if (torus_ && d > 2) {
        edges.add(v, v - (d - 1) * stride, 1);
      }
    }
    stride *= d;
  }
  return one_vertex_per_pe(edges, n);
}

std::unique_ptr<RoutingModel> MeshTopology::routing_model() const {
  return std::make_unique<routing::MeshRouting>(dims_, torus_);
}

std::unique_ptr<Topology> read_mesh(TokenStream& in, std::int64_t ndims, bool torus) {
  const std::string kind = torus ? "torus" : "mesh";
  if (ndims == 0) ndims = in.expect_int(kind + "XD number of dimensions", 1, 64);
  std::vector<std::int64_t> dims;
  for (std::int64_t k = 0; k < ndims; ++k) {
    dims.push_back(in.expect_int(kind + " dimension " + std::to_string(k), 1, kMaxExtent));
  }
  try {
    return std::make_unique<topo::MeshTopology>(std::move(dims), torus);
  } catch (const InputError& e) {
    in.fail(e.problem());
  }
}

std::vector<KindExample> examples() {
  return {{"mesh2D 3 4"},    {"mesh3D 2 2 3"},  {"meshXD 4 2 2 2 2"}, {"meshXD 1 5"}, {"torus2D 3 5"},
          {"torus3D 2 3 4"}, {"torusXD 2 4 3"}, {"torusXD 1 6"},      {"mesh2D 1 1"}};
}

}  // namespace

MachineKind mesh_kind() {
  return {.name = "mesh",
          .how_written = {},
          .scotch_words = {{"mesh2D", [](detail::TokenStream& in) { return read_mesh(in, 2, false); }},
                           {"mesh3D", [](detail::TokenStream& in) { return read_mesh(in, 3, false); }},
                           {"meshXD", [](detail::TokenStream& in) { return read_mesh(in, 0, false); }},
                           {"torus2D", [](detail::TokenStream& in) { return read_mesh(in, 2, true); }},
                           {"torus3D", [](detail::TokenStream& in) { return read_mesh(in, 3, true); }},
                           {"torusXD", [](detail::TokenStream& in) { return read_mesh(in, 0, true); }}},
          .examples = examples};
}

}  // namespace tmap::topo
