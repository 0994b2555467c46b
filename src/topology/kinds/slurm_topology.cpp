// A Slurm topology.conf (the topology/tree plugin's switches and the nodes
// on them, which it names): a network of nodes that names its hosts
// itself, each node holding what --node says. Recognised by its content
// (its first setting a SwitchName=), whatever the file's name; the reader
// is topology/slurm_load.cpp.
#include <vector>

#include "topology/cluster_load.hpp"
#include "topology/kinds/kind.hpp"

namespace tmap::topo {

namespace {

bool recognise(const MachineInput& input) {
  return input.is_file() && is_slurm_topology(input.text());
}

std::unique_ptr<Topology> load(const MachineInput& input) {
  return load_slurm_cluster(input.text(), input.origin(), input.nodes);
}

std::vector<KindExample> examples() {
  return {{"topology.conf", "SwitchName=s0 Nodes=n[1-2]\nSwitchName=s1 Nodes=n[3-4]\nSwitchName=top Switches=s[0-1]\n"},
          {"slurm-topology", "# two levels\nSwitchName=leaf Nodes=cn[01-03]\n", "core:2"}};
}

}  // namespace

MachineKind slurm_topology_kind() {
  return {.name = "topology.conf",
          .how_written = "a Slurm topology.conf",
          .recognise = recognise,
          .load = load,
          .takes_nodes = true,
          .names_its_hosts = true,
          .examples = examples};
}

}  // namespace tmap::topo
