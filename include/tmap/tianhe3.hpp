// The Tianhe-3 prototype as files other tools read (what tm-topo writes):
// its network as a Scotch target (the exact hop table as a deco target, or a
// tleaf of chip, side, node and the node's hwloc levels that approximates
// it), and its node through hwloc.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tmap/export.h"
#include "tmap/topology.hpp"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

/// Chips in a rows x cols mesh, `nodes` per chip (even: two halves), `cores`
/// PEs per node: the machine "tianhe3:RxC,nodes=N,cores=K" of load_topology.
struct Tianhe3Shape {
  std::int64_t rows = 1;
  std::int64_t cols = 1;
  std::int64_t nodes = 96;
  std::int64_t cores = 1;
};

/// The machine (as load_topology of its spec); InputError on a bad shape.
[[nodiscard]] std::unique_ptr<Topology> tianhe3_topology(const Tianhe3Shape& shape);

/// Its exact Scotch target: the whole machine (ResourceError past what a
/// deco target can list), or, given allocated nodes (sorted ids), the
/// machine restricted to them.
[[nodiscard]] std::string tianhe3_target(const Tianhe3Shape& shape, std::span<const NodeId> nodes = {});

/// A tleaf approximating the hop table (docs/topologies.md): chip, side,
/// node, then `node_arities` (the node's own fan-outs, root first; their
/// product must be shape.cores). `nodes` as for tianhe3_target.
struct Tianhe3TreeTarget {
  std::string tgt;
  /// Largest |tree distance / hop unit - hops| over PU pairs of distinct nodes.
  double worst_error_hops = 0;
};
[[nodiscard]] Tianhe3TreeTarget tianhe3_tree_target(const Tianhe3Shape& shape,
                                                    const std::vector<std::int64_t>& node_arities,
                                                    const std::vector<NodeId>& nodes = {});

/// One node as hwloc reads it.
struct NodeDescription {
  std::int64_t pus = 0;
  /// Fan-out of each level, root to PUs (fan-out 1 left out); empty when the
  /// tree is not symmetric.
  std::vector<std::int64_t> symmetric_arities;
  /// hwloc's own XML export of it.
  std::string xml;
};

/// True when this build reads machines through hwloc.
[[nodiscard]] bool have_hwloc() noexcept;

/// `source` is an lstopo XML file (from_xml_file) or an hwloc synthetic
/// description ("pack:1 numa:8 core:8 pu:1"). InputError when hwloc cannot
/// read it; UnsupportedError in a build without hwloc.
[[nodiscard]] NodeDescription describe_node(const std::string& source, bool from_xml_file);

}  // namespace tmap

TMAP_API_END
