// Every kind of machine tmap reads, one row each, in the order their
// recognisers are asked (kinds/sources.cpp): specs first (tianhe3:,
// networks, a GPU node's), then files by name or content (hwloc XML before
// all, GPU tools' output, a .dist, a topology.conf), then Scotch's kinds by their target words.
#include "topology/kinds/kind.hpp"

namespace tmap::topo {

MachineKind tianhe3_kind();
MachineKind network_kind();
MachineKind hwloc_kind();
MachineKind gpu_node_kind();
MachineKind dist_kind();
MachineKind slurm_topology_kind();
MachineKind complete_kind();
MachineKind hypercube_kind();
MachineKind mesh_kind();
MachineKind tree_leaf_kind();
MachineKind sub_kind();
MachineKind deco_kind();

const std::vector<MachineKind>& machine_kinds() {
  static const std::vector<MachineKind> kinds{
      tianhe3_kind(),  network_kind(),   hwloc_kind(), gpu_node_kind(),  dist_kind(), slurm_topology_kind(),
      complete_kind(), hypercube_kind(), mesh_kind(),  tree_leaf_kind(), sub_kind(),  deco_kind(),
  };
  return kinds;
}

}  // namespace tmap::topo
