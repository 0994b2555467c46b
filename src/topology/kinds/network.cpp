// Networks of nodes: fattree:, dragonfly: and torus: specs (SimGrid's
// FAT_TREE, DRAGONFLY and TORUS cluster zone parameters), each node holding
// what --node says and named by --host-names. The machine is
// topology/cluster.hpp, the networks and their routes routing/, the
// readers topology/cluster_load.cpp.
#include <vector>

#include "topology/cluster_load.hpp"
#include "topology/kinds/kind.hpp"

namespace tmap::topo {

namespace {

bool recognise(const MachineInput& input) {
  return !input.is_file() && is_cluster_spec(input.text());
}

std::unique_ptr<Topology> load(const MachineInput& input) {
  return load_cluster(input.text(), input.nodes, input.host_names);
}

std::vector<KindExample> examples() {
  return {{"fattree:2;2,2;1,2;1,1"},
          {"fattree:2;4,4;1,2;1,1", {}, "package:2 core:2"},
          {"dragonfly:2,1;2,1;2,1;2"},
          {"torus:2,3"},
          {"torus:2,2,2", {}, "core:2"}};
}

}  // namespace

MachineKind network_kind() {
  return {.name = "network",
          .how_written =
              "a network of nodes (fattree:L;d1,..;u1,..;p1,.., dragonfly:G,gl;C,cl;R,rl;N, torus:X,Y[,Z]) "
              "with a description of its nodes",
          .spec_words = {"fattree", "dragonfly", "torus"},
          .recognise = recognise,
          .load = load,
          .takes_nodes = true,
          .names_its_hosts = false,
          .examples = examples};
}

}  // namespace tmap::topo
