// A machine: PEs 0..N-1 with a distance between any two of them.
//
// One implementation per kind (complete graph, hypercube, mesh/torus, tree
// leaf, Tianhe-3, networks of nodes, ...), in the spirit of Scotch's
// architecture modules. The class is the distance core (size, distance,
// node of a PE); what only some machines have (a tree or grid view, routes,
// their own Scotch target, host names) are capabilities asked for by name.
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
class TreeView;
class GridView;
class GraphView;
class ScotchView;
class HostLayout;

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

  // Capabilities beyond distances, each an interface of its own header
  // (tmap/topology_views.hpp, tmap/scotch_export.hpp, tmap/host_layout.hpp),
  // found by asking: nullptr where this machine has none. Code outside
  // the machines uses the free functions of those headers, which fall back
  // to what distances and nodes give.
  [[nodiscard]] virtual const TreeView* tree_view() const { return nullptr; }
  [[nodiscard]] virtual const GridView* grid_view() const { return nullptr; }
  [[nodiscard]] virtual const GraphView* graph_view() const { return nullptr; }
  [[nodiscard]] virtual const ScotchView* scotch_view() const { return nullptr; }
  [[nodiscard]] virtual const HostLayout* host_layout() const { return nullptr; }
  /// The same, to record where the machine was read from (loaders).
  [[nodiscard]] ScotchView* mutable_scotch_view() {
    return const_cast<ScotchView*>(std::as_const(*this).scotch_view());
  }
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
