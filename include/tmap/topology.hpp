// A machine: PEs 0..N-1 with a distance between any two of them, grouped
// in nodes.
//
// One implementation per kind (complete graph, hypercube, mesh/torus, tree
// leaf, Tianhe-3, networks of nodes, ...), as a target library has one
// module per architecture. The class is the distance core (size, distance,
// node of a PE) with optional capabilities: routes, views of the distances
// (a tree, a grid, a graph), and interfaces other headers define, found by
// their type (Topology::find). How machines are described and loaded is
// tmap/machine.hpp.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

#include "tmap/export.h"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

class RoutingModel;
class TreeView;
class GridView;
class GraphView;

class Topology {
 public:
  virtual ~Topology() = default;

  /// Number of PEs.
  [[nodiscard]] virtual PE size() const = 0;
  /// Distance between two PEs; 0 when a == b. Symmetric. O(1) or O(levels).
  [[nodiscard]] virtual Distance distance(PE a, PE b) const = 0;
  /// Largest distance between two PEs (an upper bound is not enough: exact).
  [[nodiscard]] virtual Distance max_distance() const = 0;
  /// distance(a, b) for every b of `bs`, into `out` (as long as `bs`): how
  /// distance tables are filled, a row at a time. Kinds that compute a row
  /// faster than pair by pair override it (Tianhe-3).
  virtual void distances_from(PE a, std::span<const PE> bs, std::span<Distance> out) const {
    for (std::size_t k = 0; k < bs.size(); ++k) out[k] = distance(a, bs[k]);
  }

  /// Compute nodes: groups of PEs that one node of the machine holds (one
  /// operating system, one launcher slot list). Kinds without such a
  /// notion make every PE its own node.
  [[nodiscard]] virtual NodeId num_nodes() const { return size(); }
  [[nodiscard]] virtual NodeId node_of(PE pe) const { return pe; }
  /// Set when distances are determined by nodes: two PEs on different nodes
  /// are as far apart as any other two PEs of those nodes, and two distinct
  /// PEs of one node are this far apart. Algorithms then work per node
  /// (exactly, not as an approximation). Kinds with one PE per node have it
  /// trivially.
  [[nodiscard]] virtual std::optional<Distance> node_uniform_distance() const {
    if (num_nodes() == size()) return Distance{0};
    return std::nullopt;
  }

  /// Where the description does not say which PEs share a node (a bare
  /// tleaf: any level could be the node), the node sizes it allows, in PEs,
  /// smallest first (the PEs below each level), and the one taken; `sizes`
  /// is empty where the description says.
  struct NodeChoice {
    std::vector<PE> sizes;
    PE taken = 0;
  };
  [[nodiscard]] virtual NodeChoice node_choice() const { return {}; }
  /// The same machine with nodes of `pes` PEs (one of node_choice().sizes;
  /// distances unchanged), or nullptr where `pes` is not one of them.
  [[nodiscard]] virtual std::unique_ptr<Topology> with_node_pes(PE /*pes*/) const { return nullptr; }

  /// Parts of the machine that no job spans (a Slurm switch tree whose
  /// leaf switches have no common parent: Slurm accepts it and runs each
  /// job inside one part): the part a PE is in, 0 on machines of one part.
  /// Constraints refuse a set of PEs that spans two, with why_apart's reason.
  [[nodiscard]] virtual std::int64_t part_of(PE /*pe*/) const { return 0; }
  /// Why PEs a and b cannot be in one job (naming their hosts and what
  /// separates them); empty when they can.
  [[nodiscard]] virtual std::string why_apart(PE /*a*/, PE /*b*/) const { return {}; }

  /// The group a PE belongs to just below the whole machine: a Tianhe-3
  /// chip or a tree's first branch (its tree path's first step), else its node.
  [[nodiscard]] std::int64_t top_group(PE pe) const;
  /// A lower bound on the distance between any two distinct PEs (0 when
  /// none is known). A mapping that puts every communicating pair at this
  /// distance is optimal, which lets `auto` stop early.
  [[nodiscard]] virtual Distance least_distance() const { return 0; }
  /// The machine's routing model (routes, links, bandwidth classes; see
  /// tmap/routing.hpp), or nullptr for kinds without links (deco, .dist).
  [[nodiscard]] virtual std::unique_ptr<RoutingModel> routing_model() const;

  /// Short kind name ("mesh2D", "tleaf", "tianhe3", ...).
  [[nodiscard]] virtual std::string kind() const = 0;
  /// One-line description a user can read and give back to -t.
  [[nodiscard]] virtual std::string description() const = 0;

  /// Capabilities beyond distances, one mechanism for all: interfaces that
  /// other headers define and some machines implement, found by their type;
  /// nullptr where this machine does not implement it. Views of the
  /// distances themselves (tmap/topology_views.hpp: TreeView, GridView,
  /// GraphView; code outside the machines uses that header's free
  /// functions), how a machine exports itself (ScotchView) or names its
  /// hosts (HostLayout).
  template <typename Interface>
  [[nodiscard]] const Interface* find() const {
    return static_cast<const Interface*>(find_interface(typeid(Interface)));
  }
  template <typename Interface>
  [[nodiscard]] Interface* find() {
    return const_cast<Interface*>(std::as_const(*this).template find<Interface>());
  }

 protected:
  /// The machine as the interface `type` names (its own conversion of
  /// `this`), or nullptr: what find() asks.
  [[nodiscard]] virtual const void* find_interface(const std::type_info& /*type*/) const { return nullptr; }
};

}  // namespace tmap

TMAP_API_END
