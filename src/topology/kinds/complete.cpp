// Scotch "cmplt N" and "cmpltw N w0 .. wN-1": every terminal one hop from
// every other. A cmpltw terminal of weight w is a node of w PEs (contract
// section 4), 0 apart from one another. The whole kind is this file: the
// machine, its graph and routes, its Scotch words and its row.
#include <optional>
#include <vector>

#include "routing/models.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "topology/distance_graph.hpp"
#include "topology/interfaces.hpp"
#include "topology/kinds/kind.hpp"
#include "topology/terminal_slots.hpp"

namespace tmap::topo {

namespace {

class CompleteTopology final : public Topology, public ScotchView, public HostLayout, public GraphView {
 public:
  /// cmplt `terminals`, or cmpltw with one weight per terminal.
  explicit CompleteTopology(PE terminals, std::vector<std::int64_t> weights = {})
      : terminals_(terminals), weights_(std::move(weights)) {
    if (terminals < 1) throw InputError(kind() + ": the number of PEs must be at least 1");
    if (!weights_.empty()) {
      if (static_cast<PE>(weights_.size()) != terminals) throw InternalError("cmpltw: one weight per terminal");
      slots_.emplace(weights_, "cmpltw");
    }
  }
  [[nodiscard]] PE size() const override { return weights_.empty() ? terminals_ : slots_->size(); }
  [[nodiscard]] Distance distance(PE a, PE b) const override { return node_of(a) == node_of(b) ? 0 : 1; }
  [[nodiscard]] Distance max_distance() const override { return terminals_ > 1 ? 1 : 0; }
  [[nodiscard]] NodeId num_nodes() const override { return terminals_; }
  [[nodiscard]] NodeId node_of(PE pe) const override { return weights_.empty() ? pe : slots_->terminal_of(pe); }
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override { return Distance{0}; }
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override { return weights_.empty() ? 0 : slots_->slot_of(pe); }
  [[nodiscard]] bool scotch_terminals_are_nodes() const override { return true; }
  [[nodiscard]] std::string kind() const override { return weights_.empty() ? "cmplt" : "cmpltw"; }
  [[nodiscard]] std::string description() const override {
    std::string text = kind() + " " + std::to_string(terminals_);
    for (const auto w : weights_) text += " " + std::to_string(w);
    return text;
  }
  [[nodiscard]] std::string to_tgt() const override { return description() + "\n"; }
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return interface_of<ScotchView, HostLayout, GraphView>(this, type);
  }
  [[nodiscard]] std::int64_t graph_edges() const override { return size(); }
  [[nodiscard]] DistanceGraph distance_graph() const override;
  /// Direct links between cmplt's PEs (up to 8192 of them: N^2/2 links).
  [[nodiscard]] std::unique_ptr<RoutingModel> routing_model() const override {
    constexpr PE kMaxCompleteRouting = 8192;
    if (!weights_.empty() || terminals_ > kMaxCompleteRouting) return nullptr;
    return std::make_unique<routing::CompleteRouting>(terminals_);
  }

 private:
  PE terminals_;
  std::vector<std::int64_t> weights_;
  std::optional<TerminalSlots> slots_;
};

/// A star: every node one edge from a central switch, so two nodes are 2
/// apart (scale 2) and the PEs of a node share its vertex.
DistanceGraph CompleteTopology::distance_graph() const {
  const NodeId nodes = num_nodes();
  EdgeList edges(nodes + 1);
  for (NodeId v = 0; v < nodes; ++v) edges.add(v, nodes, 1);
  return one_vertex_per_node(edges, *this, 2);
}

std::unique_ptr<Topology> read_cmplt(detail::TokenStream& in) {
  return std::make_unique<CompleteTopology>(in.expect_int("cmplt size", 1, std::int64_t{1} << 40));
}

std::unique_ptr<Topology> read_cmpltw(detail::TokenStream& in) {
  const auto n = in.expect_int("cmpltw size", 1, std::int64_t{1} << 24);
  std::vector<std::int64_t> weights;
  for (std::int64_t k = 0; k < n; ++k) weights.push_back(in.expect_int("cmpltw weight", 1, std::int64_t{1} << 30));
  return std::make_unique<CompleteTopology>(n, std::move(weights));
}

[[noreturn]] std::unique_ptr<Topology> refuse_variable(detail::TokenStream& in) {
  in.fail("variable-sized targets (varcmplt, varhcub) are not supported for mapping: give a fixed-size target");
}

std::vector<KindExample> examples() {
  return {{"cmplt 7"}, {"cmplt 1"}, {"cmpltw 4 1 2 3 4"}};
}

}  // namespace

MachineKind complete_kind() {
  return {.name = "complete",
          .how_written = {},
          .scotch_words = {{"cmplt", read_cmplt}, {"cmpltw", read_cmpltw}, {"varcmplt", refuse_variable}},
          .examples = examples};
}

}  // namespace tmap::topo
