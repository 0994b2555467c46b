// tmap/tianhe3.hpp: the Tianhe-3 model as Scotch targets and its node
// through hwloc, for tm-topo and embedders, over the topology module's
// concrete machines.
#include <memory>
#include <string>
#include <vector>

#include "tmap/error.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/tianhe3.hpp"
#include "topology/tianhe3.hpp"
#include "topology/tianhe3_tree.hpp"
#if TMAP_HAVE_HWLOC
#include "topology/hwloc_tree.hpp"
#endif

namespace tmap {

namespace {

/// Through the spec parser, so a bad shape gets the same checks and messages
/// as -t tianhe3:...
topo::Tianhe3Shape checked(const Tianhe3Shape& shape) {
  return topo::parse_tianhe3_spec("tianhe3:" + std::to_string(shape.rows) + "x" + std::to_string(shape.cols) +
                                  ",nodes=" + std::to_string(shape.nodes) + ",cores=" + std::to_string(shape.cores));
}

}  // namespace

std::unique_ptr<Topology> tianhe3_topology(const Tianhe3Shape& shape) {
  return std::make_unique<topo::Tianhe3Topology>(checked(shape));
}

std::string tianhe3_target(const Tianhe3Shape& shape, std::span<const NodeId> nodes) {
  const topo::Tianhe3Topology machine(checked(shape));
  return nodes.empty() ? scotch_target(machine) : machine.deco_target(nodes);
}

Tianhe3TreeTarget tianhe3_tree_target(const Tianhe3Shape& shape, const std::vector<std::int64_t>& node_arities,
                                      const std::vector<NodeId>& nodes) {
  auto tree = topo::tianhe3_tree(checked(shape), node_arities, nodes);
  return {std::move(tree.tgt), tree.worst_error_hops};
}

bool have_hwloc() noexcept {
  return TMAP_HAVE_HWLOC != 0;
}

NodeDescription describe_node(const std::string& source, bool from_xml_file) {
#if TMAP_HAVE_HWLOC
  const topo::HwlocTreeTopology node(source, from_xml_file);
  return {node.size(), node.symmetric_arities(), node.xml()};
#else
  (void)source;
  (void)from_xml_file;
  throw UnsupportedError("this build of tmap has no hwloc (cmake -DTMAP_WITH_HWLOC=OFF): it cannot read a node's " +
                         std::string(from_xml_file ? "XML" : "synthetic description"));
#endif
}

}  // namespace tmap
