// What users give to describe a machine, and the loaders that build it:
// a -t value (a Scotch target file or description, tianhe3:..., a network
// of nodes, an hwloc XML, a .dist), with the nodes' contents and host names
// for networks (tmap::MachineSpec).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tmap/export.h"
#include "tmap/topology.hpp"

TMAP_API_BEGIN

namespace tmap {

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
  /// What a PE is (--pe): "" or "cpu" a PU of the node, "gpu" a GPU (one
  /// rank per GPU; nodes from nvidia-smi or rocm-smi text and "gpu:N"
  /// specs are GPUs whatever this says, an hwloc XML's GPUs with "gpu").
  std::string pe = {};
};

/// What a list of node descriptions says (tm-map's repeated --node, the
/// MPI layer's TMAP_NODE split at ';'): the one SPEC for every node (empty:
/// none given) and each HOSTS=SPEC pair (a Slurm host list and its nodes'
/// SPEC; the path of an existing file is a SPEC even with a '=' in it), as
/// MachineSpec's `node` and `node_by_hosts` take them. ParameterError
/// naming `origin` (the flag or variable: "--node", "TMAP_NODE") for two
/// SPECs without hosts. (A job's front ends give them through tmap::Job.)
struct NodeArgs {
  std::string node;
  std::vector<std::pair<std::string, std::string>> by_hosts;
};
[[nodiscard]] NodeArgs parse_node_args(const std::vector<std::string>& args, const std::string& origin);

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
