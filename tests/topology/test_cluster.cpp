// Clusters: a fat tree of nodes (SimGrid's FAT_TREE parameters), each node
// an hwloc tree; distances, the tree view and D-mod-k routes against values
// worked out by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "routing/fat_tree.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/job.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapping.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"

namespace {

using tmap::routing::FatTreeNetwork;

// fattree:2;4,4;1,2;1,2: 16 nodes under 4 leaf switches of 4 nodes; each
// leaf has 2 spine switches above it, joined by 2 parallel cables each.
FatTreeNetwork two_level() {
  return FatTreeNetwork({4, 4}, {1, 2}, {1, 2});
}

}  // namespace

TEST(FatTree, CountsAndHops) {
  const auto net = two_level();
  EXPECT_EQ(net.num_nodes(), 16);
  EXPECT_EQ(net.count(1), 4);  // leaves: up[0] x down[1]
  EXPECT_EQ(net.count(2), 2);  // spines: up[0] x up[1]
  EXPECT_EQ(net.num_links(), 16 + 4 * 2 * 2);
  EXPECT_EQ(net.hops(0, 0), 0);
  EXPECT_EQ(net.hops(0, 3), 2);  // one leaf (node label digit 0 differs)
  EXPECT_EQ(net.hops(0, 5), 4);  // across the spine
  EXPECT_EQ(net.hops(15, 12), 2);
  EXPECT_EQ(net.parameters(), "2;4,4;1,2;1,2");
}

// Node 0 to node 5, by hand: up through node 0's only link (0); at leaf
// switch(1,0) the port is (5 / (1 x 1)) mod (2 x 2) = 1: spine 1 over
// parallel cable 0 (link 16 + 0 x 4 + 1 = 17); down from spine 1 on
// parallel cable (source 0 mod 2) = 0 to leaf switch(1,1) (node 5's label
// digit 1 is 1), whose port to spine 1 is 1 (link 16 + 1 x 4 + 1 = 21);
// then node 5's own link (5).
TEST(FatTree, DestinationModKRouteByHand) {
  const auto net = two_level();
  std::vector<tmap::LinkId> links;
  net.route(0, 5, links);
  EXPECT_EQ(links, (std::vector<tmap::LinkId>{0, 17, 21, 5}));
  links.clear();
  net.route(0, 1, links);
  EXPECT_EQ(links, (std::vector<tmap::LinkId>{0, 1}));
  // Every route is as long as the hops, and inside the link range.
  for (std::int64_t a = 0; a < 16; ++a) {
    for (std::int64_t b = 0; b < 16; ++b) {
      links.clear();
      net.route(a, b, links);
      EXPECT_EQ(static_cast<std::int64_t>(links.size()), net.hops(a, b)) << a << " -> " << b;
      for (const auto l : links) EXPECT_TRUE(l >= 0 && l < net.num_links()) << l;
    }
  }
  EXPECT_EQ(net.link_name(17), "switch(1,0) - switch(2,1) #0");  // parallel cable 0 of 2
  EXPECT_EQ(net.link_name(5), "node 5 - switch(1,1)");
}

TEST(FatTree, RefusesWhatIsNotAFatTree) {
  EXPECT_THROW((void)FatTreeNetwork({4}, {1, 2}, {1}), tmap::InputError);
  EXPECT_THROW((void)FatTreeNetwork({4, 0}, {1, 2}, {1, 2}), tmap::InputError);
  EXPECT_THROW((void)FatTreeNetwork({}, {}, {}), tmap::InputError);
  for (const char* bad : {"fattree:2;4,4;1,2", "fattree:2;4,4;1,2;1", "fattree:x;4;1;1", "fattree:1;0;1;1"}) {
    EXPECT_THROW((void)tmap::load_topology(bad), tmap::InputError) << bad;
  }
}

// A cluster of GPU and CPU nodes on a fat tree is no tree (its GPU nodes
// are not), but has groups: the network's branches, then a GPU's index in
// its node, or a core's path in its CPU node (its levels, package first).
TEST(Cluster, GroupPathsOfGpuAndCpuNodes) {
  tmap::MachineSpec spec;
  spec.topology = "fattree:2;2,2;1,2;1,1";
  spec.node = "gpu:4 link:all";
  spec.host_names = {"g0", "g1", "c0", "c1"};
  spec.node_by_hosts = {{"c[0-1]", "package:2 core:4"}};
  const auto topology = tmap::load_machine(spec);
  std::vector<std::int64_t> path;
  EXPECT_FALSE(tmap::tree_path(*topology, 0, path));
  ASSERT_TRUE(tmap::group_path(*topology, 5, path));  // node 1, GPU 1
  std::vector<std::int64_t> network;
  ASSERT_TRUE(tmap::group_path(*topology, 4, network));
  EXPECT_EQ(path.back(), 1);
  EXPECT_EQ(network.back(), 0);
  std::vector<std::int64_t> first_core;
  std::vector<std::int64_t> fifth_core;
  ASSERT_TRUE(tmap::group_path(*topology, 8, first_core));   // node 2 (c0), package 0, core 0
  ASSERT_TRUE(tmap::group_path(*topology, 12, fifth_core));  // package 1, core 0
  // The network's two levels, then the node's own (hwloc's levels down to
  // the PU) instead of one flat index; the packages part first.
  const auto network_levels = path.size() - 1;
  EXPECT_GT(first_core.size(), path.size());
  EXPECT_EQ(std::vector(first_core.begin(), first_core.begin() + 2),
            std::vector(fifth_core.begin(), fifth_core.begin() + 2));
  EXPECT_NE(first_core[network_levels], fifth_core[network_levels]);
}

// The cluster: 16 nodes of 2 packages of 8 cores on a 2-level fat
// tree. A PU is 3 edges below its node (package, core, PU): 4 apart on one
// package, 6 on two, 3 + 2 + 3 = 8 under one leaf switch, 3 + 4 + 3 = 10
// across the spine.
TEST(Cluster, DistancesOrderAsTheMachine) {
  const auto machine = tmap::load_machine({"fattree:2;4,4;1,2;1,2", "package:2 core:8", {}});
  ASSERT_EQ(machine->size(), 256);
  EXPECT_EQ(machine->num_nodes(), 16);
  EXPECT_EQ(machine->node_of(17), 1);
  EXPECT_EQ(machine->distance(0, 1), 4);
  EXPECT_EQ(machine->distance(0, 8), 6);
  EXPECT_EQ(machine->distance(0, 16), 8);
  EXPECT_EQ(machine->distance(0, 64), 10);
  EXPECT_EQ(machine->max_distance(), 10);
  EXPECT_EQ(slot_in_node(*machine, 16 + 9), 9);
  EXPECT_EQ(host_name(*machine, 3), "cn3");
  // The tree view gives the same distances (every level one edge).
  for (const tmap::PE b : {1, 8, 16, 64, 255}) {
    std::vector<std::int64_t> x;
    std::vector<std::int64_t> y;
    ASSERT_TRUE(tree_path(*machine, 0, x));
    ASSERT_TRUE(tree_path(*machine, b, y));
    std::size_t common = 0;
    while (common < x.size() && x[common] == y[common]) ++common;
    EXPECT_EQ(static_cast<tmap::Distance>(x.size() + y.size() - 2 * common), machine->distance(0, b)) << b;
  }
  // Routes count the same hops: the node's edges (3 + 3) plus the cables.
  const auto routing = machine->routing_model();
  ASSERT_NE(routing, nullptr);
  for (const tmap::PE b : {16, 64, 255}) EXPECT_EQ(routing->route_hops(0, b), machine->distance(0, b)) << b;
  std::vector<tmap::LinkId> links;
  routing->route(0, 7, links);
  EXPECT_TRUE(links.empty());  // one node: no cable
}

TEST(Cluster, HostNamesAndWhatOnlyNetworksTake) {
  std::vector<std::string> hosts;
  for (int k = 1; k <= 16; ++k) hosts.push_back((k < 10 ? "cn0" : "cn") + std::to_string(k));
  const auto machine = tmap::load_machine({"fattree:2;4,4;1,2;1,2", "core:4", hosts});
  EXPECT_EQ(machine->size(), 64);
  EXPECT_EQ(host_name(*machine, 0), "cn01");
  EXPECT_EQ(host_name(*machine, 15), "cn16");
  hosts.pop_back();
  EXPECT_THROW((void)tmap::load_machine({"fattree:2;4,4;1,2;1,2", "", hosts}), tmap::InputError);
  EXPECT_THROW((void)tmap::load_machine({"tleaf 2 4 10 4 1", "core:4", {}}), tmap::ParameterError);
  EXPECT_THROW((void)tmap::load_machine({"fattree:2;4,4;1,2;1,2", "core:x", {}}), tmap::InputError);
}

// dragonfly:3,1;2,1;3,1;2: 3 groups of 2 chassis of 3 routers, 2 nodes per
// router (36 nodes); router index in a group = chassis x 3 + blade, and the
// blue cable from group 0 to group g sits on router index g. By hand from
// node 0 (group 0, chassis 0, blade 0): node 1 shares its router (2 local
// cables); node 2 is on blade 1 (+ green); node 6 on chassis 1 (+ black);
// node 8 on chassis 1 blade 1 (+ green + black); node 12 is group 1's first
// node: green to blade 1 (which holds the cable to group 1), blue, and the
// cable lands on group 1's router index 0 (4); node 35 is group 2, chassis
// 1, blade 2: green to blade 2, blue, then green to blade 2 and black to
// chassis 1 (6).
TEST(Dragonfly, HopsAndRoutesByHand) {
  const auto machine = tmap::load_topology("dragonfly:3,1;2,1;3,1;2");
  ASSERT_EQ(machine->size(), 36);
  EXPECT_EQ(machine->kind(), "dragonfly");
  const std::vector<std::pair<tmap::PE, tmap::Distance>> expected{{1, 2}, {2, 3}, {6, 3}, {8, 4}, {12, 4}, {35, 6}};
  for (const auto& [b, hops] : expected) EXPECT_EQ(machine->distance(0, b), hops) << b;
  EXPECT_EQ(machine->max_distance(), 7);
  const auto routing = machine->routing_model();
  std::vector<tmap::LinkId> links;
  routing->route(0, 35, links);
  std::vector<std::string> kinds;
  kinds.reserve(links.size());
  for (const auto l : links) kinds.push_back(routing->link_kinds()[static_cast<std::size_t>(routing->link_kind(l))]);
  EXPECT_EQ(kinds, (std::vector<std::string>{"local", "green", "blue", "green", "black", "local"}));
  EXPECT_EQ(routing->link_name(links[2]), "blue groups 0-2");
  for (tmap::PE a = 0; a < 36; ++a) {
    for (tmap::PE b = 0; b < 36; ++b) {
      if (a == b) continue;
      links.clear();
      routing->route(a, b, links);
      EXPECT_EQ(static_cast<tmap::Distance>(links.size()), machine->distance(a, b)) << a << " -> " << b;
    }
  }
  // A blue, black or green link stands for that many cables: that much bandwidth.
  const auto fat_links = tmap::load_topology("dragonfly:2,2;3,2;2,3;1")->routing_model();
  EXPECT_EQ(fat_links->bandwidth_of_kind(1), 3.0);                                       // green
  EXPECT_EQ(fat_links->bandwidth_of_kind(2), 2.0);                                       // black
  EXPECT_EQ(fat_links->bandwidth_of_kind(3), 2.0);                                       // blue
  EXPECT_THROW((void)tmap::load_topology("dragonfly:7,1;1,1;3,1;1"), tmap::InputError);  // 7 groups, 3 routers each
  EXPECT_THROW((void)tmap::load_topology("dragonfly:3,1;2,1;3,1"), tmap::InputError);
}

// torus:4,4 of nodes: SimGrid's dimension-ordered routes. Node 0 to node 10
// (x 2, y 2) goes up twice along x, then up twice along y (both ways are
// two hops; SimGrid goes up from coordinate 0); node 2 to node 0 goes down
// (from coordinate 2 of 4 SimGrid turns down), over the cables 1->2 and 0->1.
TEST(TorusOfNodes, SimGridsWayRoundByHand) {
  const auto machine = tmap::load_machine({"torus:4,4", "core:2", {}});
  ASSERT_EQ(machine->size(), 32);
  EXPECT_EQ(machine->kind(), "torus");
  const auto routing = machine->routing_model();
  std::vector<tmap::LinkId> links;
  routing->route(0, tmap::PE{2} * 10, links);  // node 0 to node 10
  ASSERT_EQ(links.size(), 4U);
  EXPECT_EQ(routing->link_name(links[0]), "node 0 - node 1 (dim0)");
  EXPECT_EQ(routing->link_name(links[1]), "node 1 - node 2 (dim0)");
  EXPECT_EQ(routing->link_name(links[2]), "node 2 - node 6 (dim1)");
  EXPECT_EQ(routing->link_name(links[3]), "node 6 - node 10 (dim1)");
  links.clear();
  routing->route(tmap::PE{2} * 2, 0, links);  // node 2 to node 0
  ASSERT_EQ(links.size(), 2U);
  EXPECT_EQ(routing->link_name(links[0]), "node 1 - node 2 (dim0)");
  EXPECT_EQ(routing->link_name(links[1]), "node 0 - node 1 (dim0)");
  // Two cores of a node: 4 edges apart (PU, core, the node, core, PU); nodes 0
  // and 10: 2 edges up, 4 cables, 2 edges down.
  EXPECT_EQ(machine->distance(0, 1), 4);
  EXPECT_EQ(machine->distance(0, 20), 2 + 4 + 2);
  EXPECT_THROW((void)tmap::load_topology("torus:4,0"), tmap::InputError);
  EXPECT_THROW((void)tmap::load_topology("torus:"), tmap::InputError);
}

namespace {

/// This test program's scratch folder, removed with what it holds when the
/// program ends (each test is a process of its own under ctest).
const std::filesystem::path& scratch_folder() {
  static const struct Folder {
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("tmap-conf-" + std::to_string(::getpid()));
    Folder() { std::filesystem::create_directories(path); }
    Folder(const Folder&) = delete;
    Folder& operator=(const Folder&) = delete;
    ~Folder() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } folder;
  return folder.path;
}

/// Writes `text` to a fresh file named topology.conf (the name Slurm's
/// file has, which the loader goes by) and returns its path.
std::string conf_file(const std::string& text) {
  static int count = 0;
  const auto dir = scratch_folder() / std::to_string(++count);
  std::filesystem::create_directories(dir);
  const auto path = dir / "topology.conf";
  std::ofstream(path) << text;
  return path.string();
}

/// Each (file text, part of its message): loading it is an InputError
/// saying that.
void expect_refused(const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& [text, message] : cases) {
    try {
      (void)tmap::load_topology(conf_file(text));
      ADD_FAILURE() << "accepted: " << text;
    } catch (const tmap::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace

// Slurm's topology/tree: two leaf switches of four nodes under one spine.
TEST(SlurmTopology, SwitchTreeDistancesAndHostNames) {
  const auto path = conf_file(
      "# the cluster's switches\n"
      "SwitchName=s0 Nodes=cn[01-04] LinkSpeed=100\n"
      "SwitchName=s1 Nodes=cn[05-08]\n"
      "SwitchName=spine Switches=s[0-1]\n");
  const auto machine = tmap::load_machine({path, "core:2", {}});
  ASSERT_EQ(machine->size(), 16);
  EXPECT_EQ(machine->kind(), "slurm-tree");
  EXPECT_EQ(host_name(*machine, 0), "cn01");
  EXPECT_EQ(host_name(*machine, 7), "cn08");
  EXPECT_EQ(machine->distance(0, 1), 4);          // two cores of cn01
  EXPECT_EQ(machine->distance(0, 2), 2 + 2 + 2);  // cn01 - s0 - cn02
  EXPECT_EQ(machine->distance(0, 8), 2 + 4 + 2);  // cn01 - s0 - spine - s1 - cn05
  const auto routing = machine->routing_model();
  std::vector<tmap::LinkId> links;
  routing->route(0, 8, links);
  std::vector<std::string> names;
  names.reserve(links.size());
  for (const auto l : links) names.push_back(routing->link_name(l));
  EXPECT_EQ(names, (std::vector<std::string>{"node 0 - s0", "s0 - spine", "s1 - spine", "node 4 - s1"}));
  // The tree view (every node as deep) gives the same distances.
  std::vector<std::int64_t> x;
  std::vector<std::int64_t> y;
  ASSERT_TRUE(tree_path(*machine, 0, x));
  ASSERT_TRUE(tree_path(*machine, 8, y));
  std::size_t common = 0;
  while (common < x.size() && x[common] == y[common]) ++common;
  EXPECT_EQ(static_cast<tmap::Distance>(x.size() + y.size() - 2 * common), machine->distance(0, 8));
  // As -t alone: one PE per node.
  EXPECT_EQ(tmap::load_topology(path)->size(), 8);
}

TEST(SlurmTopology, RefusesWhatSlurmWouldNot) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"SwitchName=s0 Nodes=cn[1-2]\nSwitchName=s1 Nodes=cn2\nSwitchName=top Switches=s[0-1]\n",
       ":2: node cn2 hangs on two switches (also on line 1)"},
      {"SwitchName=s0 Nodes=cn1\nSwitchName=top Switches=s0,s9\n", ":2: switch s9 (under top) is not defined"},
      {"SwitchName=s0 Nodes=cn1\nSwitchName=a Switches=s0 Nodes=cn2\n",
       ":2: switch a has both Switches= and Nodes= (Slurm refuses it too)"},
      {"SwitchName=s0 Nodes=cn1\nSwitchName=a Switches=s0,b\nSwitchName=b Switches=a\n", "is in a cycle"},
      {"SwitchName=s0 Nodes=cn1 Speed=9\n", ":1: unknown setting 'speed'"},
      {"SwitchName=s0 Nodes=cn1\nSwitchName=s0 Nodes=cn2\n", ":2: switch s0 is defined twice"},
  };
  expect_refused(cases);
}

// Slurm's topology guide: four leaf switches under each of four top
// switches (a two-level fat tree; tmap refused it: "two parents"). Nodes of
// one leaf are 2 apart, of two leaves 4 (up to any top switch and down, as
// Slurm's switches_dist), and routes to different nodes spread over the
// top switches.
TEST(SlurmTopology, LeavesUnderSeveralTopSwitches) {
  const auto path = conf_file(
      "SwitchName=s0 Nodes=tux[0-3]\nSwitchName=s1 Nodes=tux[4-7]\nSwitchName=s2 Nodes=tux[8-11]\n"
      "SwitchName=s3 Nodes=tux[12-15]\nSwitchName=s4 Switches=s[0-3]\nSwitchName=s5 Switches=s[0-3]\n"
      "SwitchName=s6 Switches=s[0-3]\nSwitchName=s7 Switches=s[0-3]\n");
  const auto machine = tmap::load_topology(path);
  ASSERT_EQ(machine->size(), 16);
  EXPECT_EQ(host_name(*machine, 12), "tux12");
  EXPECT_EQ(machine->max_distance(), 4);
  const auto routing = machine->routing_model();
  ASSERT_NE(routing, nullptr);
  std::set<std::string> tops;
  for (tmap::PE a = 0; a < 16; ++a) {
    for (tmap::PE b = 0; b < 16; ++b) {
      const tmap::Distance expected = a == b ? 0 : (a / 4 == b / 4 ? 2 : 4);
      ASSERT_EQ(machine->distance(a, b), expected) << a << " " << b;
      std::vector<tmap::LinkId> links;
      routing->route(a, b, links);
      ASSERT_EQ(static_cast<tmap::Distance>(links.size()), expected) << a << " " << b;
      if (expected == 4) {
        const auto up = routing->link_name(links[1]);  // "s0 - s5": the leaf's cable to a top switch
        const auto down = routing->link_name(links[2]);
        EXPECT_EQ(up.substr(up.find(" - ")), down.substr(down.find(" - "))) << up << " / " << down;
        tops.insert(up.substr(up.find(" - ") + 3));
      }
    }
  }
  EXPECT_EQ(tops, (std::set<std::string>{"s4", "s5", "s6", "s7"}));  // every top switch carries traffic
}

// Leaf switches with no common parent: Slurm reads the file and runs each
// job inside one part. tmap maps such a job and refuses only one that spans
// two parts, naming the hosts and switches.
TEST(SlurmTopology, PartsWithoutACommonParentTakeJobsInsideOnePart) {
  const auto path = conf_file(
      "SwitchName=a0 Nodes=cn[1-2]\nSwitchName=a1 Nodes=cn[3-4]\nSwitchName=top Switches=a[0-1]\n"
      "SwitchName=b0 Nodes=cn[5-6]\n");
  const auto machine = tmap::load_topology(path);
  ASSERT_EQ(machine->size(), 6);
  EXPECT_EQ(machine->distance(0, 3), 4);  // cn1 - a0 - top - a1 - cn4
  EXPECT_EQ(machine->distance(4, 5), 2);  // cn5 - b0 - cn6
  EXPECT_NE(machine->part_of(0), machine->part_of(4));
  const auto inside = tmap::Constraints::allowed(*machine, {0, 1, 2, 3});
  EXPECT_EQ(inside.allowed_pes().size(), 4U);
  try {
    (void)tmap::Constraints::all(*machine);
    ADD_FAILURE() << "a job across both parts was accepted";
  } catch (const tmap::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("hosts cn1 and cn5 cannot be in one job"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("a0 and b0"), std::string::npos) << e.what();
  }
}

// Slurm's parser joins a line ending in '\' with the next; comments are
// cut first.
TEST(SlurmTopology, ContinuationLinesAreJoined) {
  const auto joined =
      tmap::load_topology(conf_file("SwitchName=s0 Nodes=cn[1-2]\nSwitchName=s1 Nodes=cn[3-4]\n"
                                    "SwitchName=spine Switches=s[0-1]\n"));
  const auto continued =
      tmap::load_topology(conf_file("SwitchName=s0 \\\n  Nodes=cn[1-2]   # leaf one\n"
                                    "SwitchName=s1 Nodes=cn[3-4] \\\n\nSwitchName=spine \\\n"
                                    "  Switches=s[0-1]\n"));
  ASSERT_EQ(continued->size(), joined->size());
  for (tmap::PE a = 0; a < joined->size(); ++a) {
    for (tmap::PE b = 0; b < joined->size(); ++b) EXPECT_EQ(continued->distance(a, b), joined->distance(a, b));
  }
  EXPECT_EQ(host_name(*continued, 3), "cn4");
}

// A chain of switches deeper than Slurm reads (it refuses more than 20
// levels: "not a tree") is refused in time linear in the file: 200,000
// levels took quadratic time before.
TEST(SlurmTopology, ChainsDeeperThanSlurmReadsAreRefused) {
  std::string text = "SwitchName=s0 Nodes=cn1\n";
  for (int k = 1; k < 200000; ++k)
    text += "SwitchName=s" + std::to_string(k) + " Switches=s" + std::to_string(k - 1) + "\n";
  try {
    (void)tmap::load_topology(conf_file(text));
    ADD_FAILURE() << "accepted";
  } catch (const tmap::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("levels above its lowest switches: Slurm reads at most 20"), std::string::npos)
        << e.what();
  }
  // 20 levels are Slurm's and tmap's.
  std::string deep = "SwitchName=s0 Nodes=cn[1-2]\n";
  for (int k = 1; k <= 20; ++k)
    deep += "SwitchName=s" + std::to_string(k) + " Switches=s" + std::to_string(k - 1) + "\n";
  EXPECT_EQ(tmap::load_topology(conf_file(deep))->distance(0, 1), 2);
}

// Slurm 23.11's topology/block: blocks of nodes aggregated by BlockSizes
// as Slurm aggregates them (consecutive runs of 2^k base blocks). Hand
// counted: four blocks of two nodes; BlockSizes=2,8 aggregates all four
// (2 apart in a block, 4 across); the default (1, 2, 4, 8 blocks) adds the
// pairs (4 in a pair, 6 across pairs).
TEST(SlurmTopology, BlocksAggregateAsSlurmAggregatesThem) {
  const std::string blocks =
      "BlockName=b1 Nodes=n[1-2]\nBlockName=b2 Nodes=n[3-4]\nBlockName=b3 Nodes=n[5-6]\nBlockName=b4 Nodes=n[7-8]\n";
  const auto flat = tmap::load_topology(conf_file(blocks + "BlockSizes=2,8\n"));
  ASSERT_EQ(flat->size(), 8);
  EXPECT_EQ(host_name(*flat, 7), "n8");
  EXPECT_EQ(flat->distance(0, 1), 2);
  EXPECT_EQ(flat->distance(0, 2), 4);
  EXPECT_EQ(flat->distance(0, 7), 4);
  const auto pairs = tmap::load_topology(conf_file(blocks));
  EXPECT_EQ(pairs->distance(0, 1), 2);
  EXPECT_EQ(pairs->distance(0, 2), 4);  // b1, b2: one pair
  EXPECT_EQ(pairs->distance(0, 4), 6);  // b1, b3: across pairs
  EXPECT_EQ(pairs->max_distance(), 6);
  // BlockSizes=2 alone: no aggregate; every block a part of its own (Slurm
  // runs no job across blocks then): a job in one block maps, one across
  // two is refused.
  const auto alone = tmap::load_topology(conf_file(blocks + "BlockSizes=2\n"));
  EXPECT_EQ(tmap::Constraints::allowed(*alone, {2, 3}).allowed_pes().size(), 2U);
  EXPECT_THROW((void)tmap::Constraints::allowed(*alone, {1, 2}), tmap::InputError);
  // Six blocks, default sizes: the last pair is left out of the 4-block
  // aggregate (too short) and joined at the 8-block level.
  const auto six = tmap::load_topology(conf_file(blocks + "BlockName=b5 Nodes=n[9-10]\nBlockName=b6 Nodes=n[11-12]\n"));
  EXPECT_EQ(six->distance(0, 4), 6);   // b1, b3: the aggregate of b1..b4
  EXPECT_EQ(six->distance(0, 8), 7);   // b1 (under b1..b4) and b5 (its pair under the top)
  EXPECT_EQ(six->distance(8, 10), 4);  // b5, b6: one pair
  // What Slurm refuses, refused with the line.
  const std::vector<std::pair<std::string, std::string>> refused{
      {"BlockName=b1 Nodes=n[1-2]\nBlockSizes=2,6\n", ":2: BlockSizes: 6 is not the base block's 2 nodes"},
      {"BlockName=b1 Nodes=n[1-2]\nBlockName=b2 Nodes=n3\nBlockSizes=2\n", ":2: block b2 has 1 nodes, fewer than"},
      {"BlockName=b1 Nodes=n[1-2]\nBlockName=b1 Nodes=n[3-4]\n", ":2: block b1 is defined twice"},
      {"BlockName=b1 Nodes=n[1-2]\nBlockName=b2 Nodes=n2\n", ":2: node n2 is in two blocks"},
      {"BlockName=b1 Nodes=n[1-2] Switches=x\n", ":1: unknown setting 'switches'"},
  };
  expect_refused(refused);
}

// Slurm 25.05's topology.yaml: the topology Slurm uses by default (the
// first with cluster_default: true, else the first), its tree or block
// section read as the topology.conf it stands for; errors name the YAML's
// own lines. Written as a file named topology.conf is not needed: the
// content says it.
TEST(SlurmTopology, TopologyYamlTreeAndBlock) {
  const std::string blocks =
      "- topology: racks\n"        // 1
      "  block:\n"                 // 2
      "    block_sizes: [2, 8]\n"  // 3
      "    blocks:\n"              // 4
      "      - block: b1\n"        // 5
      "        nodes: n[1-2]\n"    // 6
      "      - block: b2\n"        // 7
      "        nodes: n[3-4]\n";   // 8
  const std::string tree =
      "- topology: fabric\n"
      "  cluster_default: true\n"
      "  tree:\n"
      "    switches:\n"
      "      - switch: top\n"
      "        children: s[1-2]\n"
      "      - switch: s1\n"
      "        nodes: n[1-2]\n"
      "      - switch: s2\n"
      "        nodes: [n3, n4]\n";
  // The default is the tree (cluster_default), though the blocks come first.
  const auto fabric = tmap::load_topology(conf_file("# Slurm's topologies\n---\n" + blocks + tree));
  ASSERT_EQ(fabric->size(), 4);
  EXPECT_EQ(host_name(*fabric, 3), "n4");
  EXPECT_EQ(fabric->distance(0, 1), 2);
  EXPECT_EQ(fabric->distance(0, 2), 4);
  // Without a default, the first: the blocks (one aggregate of both).
  const auto racks = tmap::load_topology(conf_file(blocks));
  EXPECT_EQ(racks->distance(0, 1), 2);
  EXPECT_EQ(racks->distance(0, 2), 4);
  // With --node, as a topology.conf.
  const auto with_nodes = tmap::load_machine({conf_file(blocks), "core:2", {}});
  EXPECT_EQ(with_nodes->size(), 8);
  const std::vector<std::pair<std::string, std::string>> refused{
      {"- topology: all\n  flat: true\n", ":1: topology all is flat: it names no switch and no node"},
      {"- topology: t\n  tree:\n    switches:\n      - switch: top\n        children: s9\n",
       ":4: switch s9 (under top) is not defined"},
      {"- topology: t\n  block:\n    blocks:\n      - block: b1\n        nodes: n[1-2\n", ":4: "},
      {"- topology: t\n  tree: [\n", "not valid YAML"},
      {"- topology: t\n  ring: {}\n", "has none of tree, block or flat"},
  };
  expect_refused(refused);
}

// Nodes of two kinds at different depths (a PU 3 edges below a two-package
// node's root, 2 below a one-level node's): every route counts its two ends'
// depths, so its hops equal the distance for every pair.
TEST(Cluster, TwoKindsRoutesCountEachEndsDepth) {
  tmap::MachineSpec spec{"fattree:2;2,2;1,1;1,1", "core:2", {}};
  spec.node_by_hosts = {{"cn[0-1]", "package:2 core:2"}};
  const auto machine = tmap::load_machine(spec);
  ASSERT_EQ(machine->size(), 12);
  EXPECT_EQ(machine->distance(0, 8), 3 + 4 + 2);   // cn0 to cn2, over the spine
  EXPECT_EQ(machine->distance(8, 10), 2 + 2 + 2);  // cn2 to cn3, one leaf switch
  const auto routing = machine->routing_model();
  ASSERT_NE(routing, nullptr);
  for (tmap::PE a = 0; a < machine->size(); ++a) {
    for (tmap::PE b = 0; b < machine->size(); ++b) {
      if (machine->node_of(a) != machine->node_of(b)) {
        EXPECT_EQ(routing->route_hops(a, b), machine->distance(a, b)) << a << " " << b;
      }
    }
  }
}

// A machine from the strings the MPI layer reads (TMAP_TOPOLOGY, TMAP_NODE
// with kinds after ';', TMAP_HOST_NAMES): the cluster tm-map builds from
// the same flags.
TEST(Cluster, MachineFromTextEqualsTheFlags) {
  tmap::JobSpec spec;
  spec.words = tmap::JobWords::mpi();
  tmap::set_job_field(spec, "machine", "fattree:2;2,2;1,1;1,1");
  tmap::set_job_field(spec, "node", "core:2;gpu[1-2]=core:1");
  tmap::set_job_field(spec, "host-names", "cpu[1-2],gpu[1-2]");
  EXPECT_EQ(spec.machine.nodes, (std::vector<std::string>{"core:2", "gpu[1-2]=core:1"}));
  const auto machine = tmap::Job(spec).machine_shared();
  EXPECT_EQ(machine->size(), 6);  // 2 x 2 + 2 x 1
  EXPECT_EQ(tmap::host_name(*machine, 3), "gpu2");
  EXPECT_EQ(machine->node_of(5), 3);
  spec.machine.nodes.clear();
  tmap::set_job_field(spec, "node", "core:2;core:4");
  try {
    (void)tmap::Job(spec).machine();
    ADD_FAILURE() << "two nodes for every node accepted";
  } catch (const tmap::ParameterError& e) {
    EXPECT_EQ(
        std::string(e.what()).rfind("TMAP_NODE (topo_tmap_node): 'core:2' and 'core:4' are each for every node", 0), 0U)
        << e.what();
  }
  // An empty entry is a mistake, never "one PE a node", said in the variable's words.
  for (const auto* list : {"core:2;;gpu[1-2]=core:1", "core:2;", ";core:2"}) {
    try {
      tmap::set_job_field(spec, "node", list);
      ADD_FAILURE() << list << " accepted";
    } catch (const tmap::ParameterError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("TMAP_NODE (topo_tmap_node) '", 0), 0U) << e.what();
    }
  }
}
