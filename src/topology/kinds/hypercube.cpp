// Scotch "hcub D": 2^D PEs, distance = Hamming distance of the ids. The
// whole kind is this file.
#include <algorithm>
#include <bit>

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

class HypercubeTopology final : public Topology, public ScotchView, public GraphView {
 public:
  /// Dimensions 0..40 (2^40 PEs is far beyond any machine).
  explicit HypercubeTopology(int dimension) : dimension_(dimension) {
    if (dimension < 0 || dimension > 40) throw InputError("hcub: the dimension must be between 0 and 40");
  }
  [[nodiscard]] PE size() const override { return PE{1} << dimension_; }
  [[nodiscard]] Distance distance(PE a, PE b) const override {
    return std::popcount(static_cast<std::uint64_t>(a ^ b));
  }
  [[nodiscard]] Distance max_distance() const override { return dimension_; }
  /// Distinct PEs differ in a bit.
  [[nodiscard]] Distance least_distance() const override { return 1; }
  [[nodiscard]] std::string kind() const override { return "hcub"; }
  [[nodiscard]] std::string description() const override { return "hcub " + std::to_string(dimension_); }
  [[nodiscard]] std::string to_tgt() const override { return description() + "\n"; }
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return interface_of<ScotchView, GraphView>(this, type);
  }
  [[nodiscard]] std::int64_t graph_edges() const override { return size() * std::max<Distance>(dimension_, 1); }
  [[nodiscard]] DistanceGraph distance_graph() const override;
  [[nodiscard]] std::unique_ptr<RoutingModel> routing_model() const override {
    return std::make_unique<routing::HypercubeRouting>(dimension_);
  }

 private:
  int dimension_;
};

DistanceGraph HypercubeTopology::distance_graph() const {
  const PE n = size();
  EdgeList edges(n);
  for (PE v = 0; v < n; ++v) {
    for (PE bit = 1; bit < n; bit <<= 1) {
      if ((v & bit) == 0) edges.add(v, v | bit, 1);
    }
  }
  return one_vertex_per_pe(edges, n);
}

std::unique_ptr<Topology> read_hcub(detail::TokenStream& in) {
  return std::make_unique<HypercubeTopology>(static_cast<int>(in.expect_int("hcub dimension", 0, 40)));
}

[[noreturn]] std::unique_ptr<Topology> refuse_variable(detail::TokenStream& in) {
  in.fail("variable-sized targets (varcmplt, varhcub) are not supported for mapping: give a fixed-size target");
}

std::vector<KindExample> examples() {
  return {{"hcub 3"}, {"hcub 0"}};
}

}  // namespace

MachineKind hypercube_kind() {
  return {.name = "hypercube",
          .how_written = {},
          .scotch_words = {{"hcub", read_hcub}, {"varhcub", refuse_variable}},
          .examples = examples};
}

}  // namespace tmap::topo
