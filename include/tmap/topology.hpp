// A machine: PEs 0..N-1 with a distance between any two of them.
//
// One implementation per kind (complete graph, hypercube, mesh/torus, tree
// leaf, Tianhe-3, ...), in the spirit of Scotch's architecture modules.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tmap/export.h"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

class RoutingModel;

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

  /// Compute nodes: groups of PEs that one host (one launcher slot list)
  /// holds. Kinds without such a notion make every PE its own node.
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

  /// Where the description does not say which PEs share a host (a bare
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

  /// The number users know a node by (--alloc, host names): its index,
  /// except where the machine numbers its nodes itself (a deco target's
  /// terminal labels, a sub target's nodes in the whole machine).
  [[nodiscard]] virtual NodeId node_label(NodeId node) const { return node; }
  /// The node a label names; nullopt when no node has it.
  [[nodiscard]] virtual std::optional<NodeId> node_with_label(NodeId label) const {
    if (label < 0 || label >= num_nodes()) return std::nullopt;
    return label;
  }
  /// Host name of a node for launcher files when no allocation spelled it:
  /// "cn<label>" (contract section 2) for every kind; an hwloc machine uses
  /// the host name it records.
  [[nodiscard]] virtual std::string host_name(NodeId node) const { return "cn" + std::to_string(node_label(node)); }
  /// Index of a PE among its node's PEs (the core for a rankfile's slot=).
  [[nodiscard]] virtual std::int64_t slot_in_node(PE /*pe*/) const { return 0; }
  /// The PE's hardware thread on its node, for launchers that bind to PUs
  /// (mpirun --use-hwthread-cpus); differs from slot_in_node only where
  /// cores hold several PUs (hwloc trees with hyper-threads).
  [[nodiscard]] virtual std::int64_t pu_in_node(PE pe) const { return slot_in_node(pe); }
  /// True when the Scotch target this topology writes (to_tgt) has one
  /// terminal per node, labelled node_label: a Scotch .map then names nodes,
  /// not PEs (deco, cmpltw, Tianhe-3).
  [[nodiscard]] virtual bool scotch_terminals_are_nodes() const { return false; }
  /// With scotch_terminals_are_nodes: the Scotch target of some nodes only
  /// (increasing indices), keeping the whole machine's distances; empty
  /// when this kind cannot write one.
  [[nodiscard]] virtual std::string node_subset_tgt(std::span<const NodeId> /*nodes*/) const { return {}; }

  /// For tree-shaped machines: the branch taken at each level from the root
  /// down to the PE (distances grow with the level of the lowest common
  /// ancestor). False for machines that are not trees.
  [[nodiscard]] virtual bool tree_path(PE /*pe*/, std::vector<std::int64_t>& /*path*/) const { return false; }

  /// Coordinates in a grid whose distance is the (wrap-around) Manhattan
  /// distance: meshes and tori, x first (Scotch's numbering). False for
  /// other kinds.
  [[nodiscard]] virtual bool grid_coordinates(PE /*pe*/, std::vector<std::int64_t>& /*coordinates*/) const {
    return false;
  }
  /// The grid of grid_coordinates: each axis's extent, and whether the axes
  /// wrap around (tori). False for other kinds.
  [[nodiscard]] virtual bool grid_extent(std::vector<std::int64_t>& /*extent*/, bool& /*wraps*/) const { return false; }
  /// The group a PE belongs to just below the whole machine: a Tianhe-3
  /// chip or a tree's first branch (tree_path's first step), else its node.
  [[nodiscard]] std::int64_t top_group(PE pe) const {
    std::vector<std::int64_t> path;
    if (tree_path(pe, path) && !path.empty()) return path.front();
    return node_of(pe);
  }
  /// A lower bound on the distance between any two distinct PEs (0 when
  /// none is known). A mapping that puts every communicating pair at this
  /// distance is optimal, which lets `auto` stop early.
  [[nodiscard]] virtual Distance least_distance() const { return 0; }
  /// True when libscotch computes exactly these distances from to_tgt()
  /// (the kinds Scotch has natively and gets right; checked by
  /// test_scotch_distances), so the scotch strategy hands it the target as is.
  [[nodiscard]] virtual bool scotch_native() const { return false; }
  /// The machine's routing model (routes, links, bandwidth classes; see
  /// tmap/routing.hpp), or nullptr for kinds without links (deco, .dist).
  [[nodiscard]] virtual std::unique_ptr<RoutingModel> routing_model() const;

  /// Short kind name ("mesh2D", "tleaf", "tianhe3", ...).
  [[nodiscard]] virtual std::string kind() const = 0;
  /// One-line description a user can read and give back to -t.
  [[nodiscard]] virtual std::string description() const = 0;
  /// The topology as a Scotch target file (text, ends with a newline).
  [[nodiscard]] virtual std::string to_tgt() const = 0;

  /// The Scotch target text this machine was read from (a .tgt file or a
  /// description given to -t), empty when it came from elsewhere: the
  /// scotch strategy hands libscotch exactly this, as scotch_gmap loads it.
  [[nodiscard]] const std::string& scotch_source() const noexcept { return scotch_source_; }
  void set_scotch_source(std::string text) { scotch_source_ = std::move(text); }

 private:
  std::string scotch_source_;
};

/// Builds a topology from what a user gives to `-t`: a path to a `.tgt` file,
/// a Scotch target description given inline ("mesh2D 8 8"), or a built-in
/// spec ("tianhe3:4x4,cores=64"). Throws InputError with file and line.
[[nodiscard]] std::unique_ptr<Topology> load_topology(std::string_view spec);

/// What a user gives to describe a machine: `topology` as load_topology
/// reads it (-t); for a network of nodes (`fattree:L;d..;u..;p..`, SimGrid's
/// FAT_TREE parameters), what one node holds (`node`: an hwloc synthetic
/// description such as "package:2 core:8", or an lstopo XML file; empty:
/// one PE per node; "this": the machine tmap runs on, as hwloc sees it)
/// and the nodes' host names in node order (empty: cn<node>), which
/// launcher files then name. `topology_text`, when given, is the machine's
/// text itself (what a scheduler answered, as a file would hold it), and
/// `topology` then only names it in messages. A network may hold nodes
/// of several kinds: `node_by_hosts` pairs a Slurm host list (of the
/// machine's host names) with what those nodes hold instead of `node`.
struct MachineSpec {
  std::string topology;
  std::string node;
  std::vector<std::string> host_names;
  std::string topology_text = {};
  std::vector<std::pair<std::string, std::string>> node_by_hosts = {};
};

/// The machine of `spec`. ParameterError when a node or host names are given
/// for a machine that describes its PEs and hosts itself (a Scotch target,
/// Tianhe-3, an hwloc XML).
[[nodiscard]] std::unique_ptr<Topology> load_machine(const MachineSpec& spec);

/// A node's hardware tree from an hwloc XML file (lstopo's output): PEs are
/// the PUs in logical order, distance = tree edges through the lowest common
/// ancestor. InputError when hwloc cannot read it.
[[nodiscard]] std::unique_ptr<Topology> load_hwloc_xml(const std::string& path);

/// A machine from the content of a file named `path` (read once: a pipe
/// gives its content only once), told apart as load_topology tells files
/// apart: hwloc XML (`hwloc_xml`, a `.xml` name, or text starting with '<'),
/// a `.dist` (that extension, or no extension and a number first), else
/// Scotch target text. InputError naming the file and the problem.
[[nodiscard]] std::unique_ptr<Topology> parse_topology_file(std::string_view text, const std::string& path,
                                                            bool hwloc_xml = false);

/// Parses Scotch target text (the content of a `.tgt` file). `origin` names
/// the file in error messages.
[[nodiscard]] std::unique_ptr<Topology> parse_tgt(std::string_view text, const std::string& origin);

}  // namespace tmap

TMAP_API_END
