// A machine given by its distances: Scotch deco 0/1 targets (terminals with
// labels, weights and a terminal distance map) and `.dist` files (n, then an
// n x n matrix, e.g. measured latencies or a QAP distance matrix).
//
// A terminal of weight w is a node of w PEs (contract section 4), so a
// tm-topo target of one terminal per node with weight = cores gives every
// core its slot. Nodes are the terminals in increasing label order; users
// name them by label (--alloc, host names cn<label>, Scotch .map files).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tmap/host_layout.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "topology/interfaces.hpp"
#include "topology/terminal_slots.hpp"

namespace tmap::topo {

class DistanceMatrixTopology final : public Topology, public ScotchView, public HostLayout {
 public:
  /// `labels` increasing; `distances` is terminals x terminals in that
  /// order, symmetric, zero diagonal.
  DistanceMatrixTopology(std::vector<std::int64_t> labels, const std::vector<std::int64_t>& weights,
                         std::vector<std::uint32_t> distances, std::string kind);

  [[nodiscard]] PE size() const override { return slots_.size(); }
  [[nodiscard]] Distance distance(PE a, PE b) const override {
    return d_[static_cast<std::size_t>(slots_.terminal_of(a) * terminals_ + slots_.terminal_of(b))];
  }
  [[nodiscard]] Distance max_distance() const override { return max_distance_; }
  [[nodiscard]] NodeId num_nodes() const override { return terminals_; }
  [[nodiscard]] NodeId node_of(PE pe) const override { return slots_.terminal_of(pe); }
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override { return Distance{0}; }
  [[nodiscard]] NodeId node_label(NodeId node) const override { return labels_[node]; }
  [[nodiscard]] std::optional<NodeId> node_with_label(NodeId label) const override;
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override { return slots_.slot_of(pe); }
  [[nodiscard]] bool scotch_terminals_are_nodes() const override { return true; }
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return interface_of<ScotchView, HostLayout>(this, type);
  }
  [[nodiscard]] std::string kind() const override { return kind_; }
  [[nodiscard]] std::string description() const override;
  /// A deco 0 target (needs every distance between distinct terminals >= 1).
  [[nodiscard]] std::string to_tgt() const override;

  [[nodiscard]] std::int64_t terminals() const noexcept { return terminals_; }
  [[nodiscard]] std::int64_t weight(std::int64_t terminal) const noexcept { return slots_.weight(terminal); }
  [[nodiscard]] const std::vector<std::int64_t>& labels() const noexcept { return labels_; }
  /// Distance between two terminals (indices in label order).
  [[nodiscard]] Distance terminal_distance(std::int64_t a, std::int64_t b) const noexcept {
    return d_[static_cast<std::size_t>(a * terminals_ + b)];
  }

 private:
  std::int64_t terminals_;
  std::vector<std::int64_t> labels_;
  TerminalSlots slots_;
  std::vector<std::uint32_t> d_;
  Distance max_distance_ = 0;
  std::string kind_;
};

/// Parses a `.dist` file: n, then n rows of n non-negative integers,
/// symmetric with a zero diagonal (checked, with line numbers).
std::unique_ptr<Topology> parse_dist(std::string_view text, const std::string& origin);

}  // namespace tmap::topo
