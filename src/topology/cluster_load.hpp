// Reading a cluster from what a user gives: a network spec (fattree:,
// dragonfly:, torus:, SimGrid's cluster zone parameters) or a Slurm
// topology.conf, and what one node holds (--node).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tmap/topology.hpp"
#include "topology/kinds/kind.hpp"

namespace tmap::routing {
class Network;
}

namespace tmap::topo {

/// Whether -t names a network of nodes ("fattree:...", "dragonfly:...", "torus:...").
[[nodiscard]] bool is_cluster_spec(std::string_view spec);

/// A network of nodes: "fattree:L;d1,..,dL;u1,..,uL;p1,..,pL",
/// "dragonfly:G,gl;C,cl;R,rl;N" or "torus:X,Y[,Z]" (SimGrid's FAT_TREE,
/// DRAGONFLY and TORUS parameters), with nodes of `node` (see load_node;
/// empty: one PE per node) named `hosts` (empty: cn<node>). InputError
/// naming the spec (or --node) and the problem.
[[nodiscard]] std::unique_ptr<Topology> load_cluster(std::string_view spec, const NodeSpecs& nodes,
                                                     std::vector<std::string> hosts);

/// The cluster of `network`'s nodes, named `hosts` (empty: cn<node>;
/// checked as host names, errors naming `names_origin`), holding the kinds
/// of node `nodes` says. Shared by every network kind's reader.
[[nodiscard]] std::unique_ptr<Topology> cluster_of(std::shared_ptr<const routing::Network> network,
                                                   const NodeSpecs& nodes, std::vector<std::string> hosts,
                                                   const std::string& names_origin);

/// One node: a file of `nvidia-smi topo -m` or `rocm-smi --showtopo`
/// output (its GPUs are the PEs), an lstopo XML file (its PUs, or with `pe`
/// "gpu" its GPUs), a GPU node spec "gpu:N ...", else an hwloc synthetic
/// description such as "package:2 core:8" (one PU per core when it stops
/// above PUs).
[[nodiscard]] std::unique_ptr<Topology> load_node(const std::string& node, const std::string& pe = {});

/// Whether a file's text is a Slurm topology.conf (its first setting is a
/// SwitchName=, as the topology/tree plugin reads it).
[[nodiscard]] bool is_slurm_topology(std::string_view text);

/// The cluster a Slurm topology.conf describes (its switches and the nodes
/// on them, which it names in order), each node holding `node`. InputError
/// naming the file, the line and the problem.
[[nodiscard]] std::unique_ptr<Topology> load_slurm_cluster(std::string_view text, const std::string& path,
                                                           const NodeSpecs& nodes);

}  // namespace tmap::topo
