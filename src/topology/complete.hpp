// Scotch "cmplt N" and "cmpltw N w0 .. wN-1": every terminal one hop from
// every other. A cmpltw terminal of weight w is a node of w PEs (contract
// section 4), 0 apart from one another.
#pragma once

#include <optional>
#include <vector>

#include "tmap/host_layout.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "topology/interfaces.hpp"
#include "topology/terminal_slots.hpp"

namespace tmap::topo {

class CompleteTopology final : public Topology, public ScotchView, public HostLayout, public GraphView {
 public:
  /// cmplt `terminals`, or cmpltw with one weight per terminal.
  explicit CompleteTopology(PE terminals, std::vector<std::int64_t> weights = {});
  [[nodiscard]] PE size() const override { return weights_.empty() ? terminals_ : slots_->size(); }
  [[nodiscard]] Distance distance(PE a, PE b) const override { return node_of(a) == node_of(b) ? 0 : 1; }
  [[nodiscard]] Distance max_distance() const override { return terminals_ > 1 ? 1 : 0; }
  [[nodiscard]] NodeId num_nodes() const override { return terminals_; }
  [[nodiscard]] NodeId node_of(PE pe) const override { return weights_.empty() ? pe : slots_->terminal_of(pe); }
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override { return Distance{0}; }
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override { return weights_.empty() ? 0 : slots_->slot_of(pe); }
  [[nodiscard]] bool scotch_terminals_are_nodes() const override { return true; }
  [[nodiscard]] std::string kind() const override { return weights_.empty() ? "cmplt" : "cmpltw"; }
  [[nodiscard]] std::string description() const override;
  [[nodiscard]] std::string to_tgt() const override { return description() + "\n"; }
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return interface_of<ScotchView, HostLayout, GraphView>(this, type);
  }
  [[nodiscard]] std::int64_t graph_edges() const override { return size(); }
  [[nodiscard]] DistanceGraph distance_graph() const override;
  /// Direct links between cmplt's PEs (up to 8192 of them: N^2/2 links).
  [[nodiscard]] std::unique_ptr<RoutingModel> routing_model() const override;

 private:
  PE terminals_;
  std::vector<std::int64_t> weights_;
  std::optional<TerminalSlots> slots_;
};

}  // namespace tmap::topo
