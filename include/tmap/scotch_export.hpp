// Scotch's view of a machine: the target file that hands it to libscotch
// and scotch_gmap. Kinds Scotch has (mesh, torus, hypercube, complete
// graphs, trees, deco) and Tianhe-3 write their own (ScotchView); any other
// machine is written as a deco 0 of its exact distances, one terminal per PE.
#pragma once

#include <span>
#include <string>

#include "tmap/export.h"
#include "tmap/topology.hpp"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

class ScotchView {
 public:
  virtual ~ScotchView() = default;
  /// The machine as a Scotch target file (text, ends with a newline).
  [[nodiscard]] virtual std::string to_tgt() const = 0;
  /// True when to_tgt() has one terminal per node, labelled by the node's
  /// label (host_layout.hpp): a Scotch .map then names nodes, not PEs
  /// (deco, cmpltw, Tianhe-3).
  [[nodiscard]] virtual bool scotch_terminals_are_nodes() const { return false; }
  /// With scotch_terminals_are_nodes: the target of some nodes only
  /// (increasing indices), keeping the whole machine's distances; empty
  /// when this kind cannot write one.
  [[nodiscard]] virtual std::string node_subset_tgt(std::span<const NodeId> /*nodes*/) const { return {}; }
  /// Where nodes fall into groups of uniform distances (Tianhe-3's chip
  /// halves: any two nodes of a group are equally far apart, and the
  /// distance between nodes of two groups depends on the groups only), the
  /// node's group, numbered in node order; -1 elsewhere.
  [[nodiscard]] virtual std::int64_t uniform_group(NodeId /*node*/) const { return -1; }

  /// The Scotch target text this machine was read from (a .tgt file or a
  /// description given to -t), empty when it came from elsewhere: the
  /// scotch strategy hands libscotch exactly this, as scotch_gmap loads it.
  [[nodiscard]] const std::string& scotch_source() const noexcept { return source_; }
  void set_scotch_source(std::string text) { source_ = std::move(text); }

 private:
  std::string source_;
};

/// The machine as a Scotch target file: its own, else a deco 0 of its
/// distances (InputError where two PEs are 0 apart, which Scotch refuses).
[[nodiscard]] std::string scotch_target(const Topology& topology);
/// ScotchView::scotch_terminals_are_nodes, false where it has no view.
[[nodiscard]] bool scotch_terminals_are_nodes(const Topology& topology);
/// ScotchView::node_subset_tgt, empty where it has no view.
[[nodiscard]] std::string scotch_node_subset_target(const Topology& topology, std::span<const NodeId> nodes);
/// ScotchView::uniform_group, -1 where it has no view.
[[nodiscard]] std::int64_t scotch_uniform_group(const Topology& topology, NodeId node);
/// ScotchView::scotch_source, empty where it has no view.
[[nodiscard]] const std::string& scotch_source(const Topology& topology);

}  // namespace tmap

TMAP_API_END
