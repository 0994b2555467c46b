// A user's own cluster, described once (issue #42): a fat tree of
// two-socket nodes with host names; the launcher files name hosts and
// slots, never a socket as a host.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "cli_runner.hpp"

namespace {

using tmap::test::Sandbox;

const std::vector<std::string> kCluster = {
    "-t", "fattree:2;4,4;1,2;1,2", "--node", "package:2 core:8", "--host-names", "cn[01-16]"};

/// A 256-rank halo (16 x 16 stencil) as a .coo.
std::string halo() {
  std::ostringstream out;
  out << "256\n";
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 16; ++x) {
      const int r = 16 * y + x;
      if (x + 1 < 16) out << r << ' ' << r + 1 << " 1000\n" << r + 1 << ' ' << r << " 1000\n";
      if (y + 1 < 16) out << r << ' ' << r + 16 << " 1000\n" << r + 16 << ' ' << r << " 1000\n";
    }
  }
  return out.str();
}

using SlotUses = std::map<std::string, std::map<int, int>>;

/// A rankfile's ranks by host and slot: {host: {slot: ranks on it}}.
SlotUses slot_uses(const std::string& rankfile) {
  SlotUses used;
  std::istringstream lines(rankfile);
  for (std::string line; std::getline(lines, line);) {
    const auto eq = line.find('=');
    const auto slot = line.find(" slot=");
    if (eq == std::string::npos || slot == std::string::npos) {
      ADD_FAILURE() << "not a rankfile line: " << line;
      continue;
    }
    ++used[line.substr(eq + 1, slot - eq - 1)][std::stoi(line.substr(slot + 6))];
  }
  return used;
}

/// A hostfile's lines a host: {host: ranks on it}.
std::map<std::string, int> ranks_per_host(const std::string& hostfile) {
  std::map<std::string, int> count;
  std::istringstream lines(hostfile);
  for (std::string line; std::getline(lines, line);) ++count[line];
  return count;
}

}  // namespace

TEST(Machines, FatTreeOfTwoSocketNodesNamesItsHostsAndSlots) {
  Sandbox box;
  box.write("halo.coo", halo());
  auto args = kCluster;
  args.insert(args.end(), {"-c", "halo.coo", "--format", "rankfile"});
  const auto rankfile = box.run("tm-map", args);
  ASSERT_EQ(rankfile.exit_code, 0) << rankfile.err;
  // 16 hosts x 16 slots: every (host, slot) once.
  const auto used = slot_uses(rankfile.out);
  int count = 0;
  for (const auto& [host, slots] : used) {
    for (const auto& [slot, ranks] : slots) {
      EXPECT_EQ(ranks, 1) << host << " slot=" << slot;
      count += ranks;
    }
  }
  EXPECT_EQ(count, 256);
  EXPECT_EQ(used.size(), 16U);
  EXPECT_TRUE(used.contains("cn01") && used.contains("cn16"));
  for (const auto& [host, slots] : used) {
    EXPECT_EQ(slots.size(), 16U) << host;
    EXPECT_EQ(slots.begin()->first, 0) << host;
    EXPECT_EQ(slots.rbegin()->first, 15) << host;
  }
  // A hostfile: 16 lines for each host.
  args.back() = "hostfile";
  const auto hostfile = box.run("tm-map", args);
  ASSERT_EQ(hostfile.exit_code, 0) << hostfile.err;
  const auto lines_of = ranks_per_host(hostfile.out);
  EXPECT_EQ(lines_of.size(), 16U);
  for (const auto& [host, n] : lines_of) EXPECT_EQ(n, 16) << host;
}

TEST(Machines, AllocationByTheClustersOwnHostNames) {
  Sandbox box;
  std::string ring = "32\n";
  for (int r = 0; r < 32; ++r) ring += std::to_string(r) + " " + std::to_string((r + 1) % 32) + " 100\n";
  box.write("ring.coo", ring);
  auto args = kCluster;
  args.insert(args.end(), {"-c", "ring.coo", "--alloc", "cn[05-06]", "--format", "hostfile"});
  const auto r = box.run("tm-map", args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ranks_per_host(r.out), (std::map<std::string, int>{{"cn05", 16}, {"cn06", 16}}));
}

TEST(Machines, NodeAndHostNamesOnlyForNetworks) {
  Sandbox box;
  box.write("c.coo", "2\n0 1 5\n");
  const auto tleaf = box.run("tm-map", {"-t", "tleaf 2 4 10 4 1", "--node", "core:4", "-c", "c.coo"});
  EXPECT_EQ(tleaf.exit_code, 2);
  EXPECT_NE(tleaf.err.find("--node: only a network of nodes (fattree:..., dragonfly:..., torus:..., topology.conf) "
                           "takes a node description"),
            std::string::npos)
      << tleaf.err;
  const auto few = box.run("tm-map", {"-t", "fattree:2;4,4;1,2;1,2", "--host-names", "cn[01-15]", "-c", "c.coo"});
  EXPECT_EQ(few.exit_code, 2);
  EXPECT_NE(few.err.find("host-names: 15 names for the 16 nodes"), std::string::npos) << few.err;
  const auto bad = box.run("tm-map", {"-t", "fattree:2;4,4;1,2", "-c", "c.coo"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("expected fattree:L;d1,..,dL;u1,..,uL;p1,..,pL"), std::string::npos) << bad.err;
}

// tm-topo writes a network's Scotch view: a deco 0 of its exact distances,
// terminal k = PE k, on which plain Scotch (and scotch_gmap) map the very
// machine tmap maps: the same mapping scores the same on both.
TEST(Machines, TopoWritesTheScotchViewOfANetwork) {
  Sandbox box;
  box.write("halo.coo", halo());
  const auto view = box.run("tm-topo", {"fattree:2;4,4;1,2;1,2", "--node", "package:2 core:8", "--tgt", "view.tgt"});
  ASSERT_EQ(view.exit_code, 0) << view.err;
  ASSERT_TRUE(box.exists("view.tgt"));
  auto on_cluster = kCluster;
  on_cluster.insert(on_cluster.end(), {"-c", "halo.coo", "-s", "scotch", "--format", "json"});
  const auto mapped = box.run("tm-map", on_cluster);
  ASSERT_EQ(mapped.exit_code, 0) << mapped.err;
  const auto on_view = box.run("tm-map", {"-t", "view.tgt", "-c", "halo.coo", "-s", "inorder", "--format", "json"});
  ASSERT_EQ(on_view.exit_code, 0) << on_view.err;
  const auto inorder = box.run("tm-map", {"-t", "fattree:2;4,4;1,2;1,2", "--node", "package:2 core:8", "-c", "halo.coo",
                                          "-s", "inorder", "--format", "json"});
  const auto hop_bytes = [](const std::string& json) {
    const auto at = json.find("\"hop_bytes\": ");
    return std::stoll(json.substr(at + 13));
  };
  EXPECT_EQ(hop_bytes(on_view.out), hop_bytes(inorder.out));
  // The tleaf view (TreeMatch's and Scotch's tree): fan-outs 4 (spine), 4
  // (leaf), 2 (package), 8 (core), each level costing 2 a level of edges
  // below it (core: core and PU, 4); a mapping scores the same on it.
  const auto tree = box.run("tm-topo", {"fattree:2;4,4;1,2;1,2", "--node", "package:2 core:8", "--tree", "-"});
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_EQ(tree.out, "tleaf 4 4 2 4 2 2 2 8 4\n");
  box.write("tree.tgt", tree.out);
  const auto on_tree = box.run("tm-map", {"-t", "tree.tgt", "-c", "halo.coo", "-s", "inorder", "--format", "json"});
  EXPECT_EQ(hop_bytes(on_tree.out), hop_bytes(inorder.out));
  const auto no_tree = box.run("tm-topo", {"dragonfly:3,1;2,1;3,1;2", "--tree", "t.tgt"});
  EXPECT_EQ(no_tree.exit_code, 2);
  EXPECT_FALSE(box.exists("t.tgt"));
  // Two kinds of node, as tm-map takes them: the view scores a shuffled
  // mapping exactly as the machine does. By hand: nodes cn0, cn1 (2 PEs)
  // under one leaf, cn2, cn3 (1 PE) under the other, every PU 2 edges below
  // its node; 100 bytes across the spine (8), 10 under one leaf (6), 1
  // across (8): 868.
  const std::vector<std::string> kinds = {"fattree:2;2,2;1,1;1,1", "--node", "core:2", "--node", "cn[2-3]=core:1"};
  auto topo_args = kinds;
  topo_args.insert(topo_args.end(), {"--tgt", "kinds.tgt"});
  const auto kinds_view = box.run("tm-topo", topo_args);
  ASSERT_EQ(kinds_view.exit_code, 0) << kinds_view.err;
  box.write("six.coo", "6\n0 5 100\n1 4 10\n2 3 1\n");
  box.write("six.perm", "5\n2\n0\n4\n1\n3\n");
  auto on_kinds = std::vector<std::string>{"-t"};
  on_kinds.insert(on_kinds.end(), kinds.begin(), kinds.end());
  on_kinds.insert(on_kinds.end(), {"-c", "six.coo", "-m", "six.perm"});
  const auto machine_score = box.run("tm-eval", on_kinds);
  const auto view_score = box.run("tm-eval", {"-t", "kinds.tgt", "-c", "six.coo", "-m", "six.perm"});
  ASSERT_EQ(machine_score.exit_code, 0) << machine_score.err;
  ASSERT_EQ(view_score.exit_code, 0) << view_score.err;
  const auto hop_bytes_line = [](const std::string& text) {
    const auto at = text.find("hop_bytes ");
    return at == std::string::npos ? std::string("none") : text.substr(at, text.find('\n', at) - at);
  };
  EXPECT_EQ(hop_bytes_line(view_score.out + view_score.err), "hop_bytes 868");
  EXPECT_EQ(hop_bytes_line(view_score.out + view_score.err), hop_bytes_line(machine_score.out + machine_score.err));
  const auto big = box.run("tm-topo", {"torus:64,64", "--node", "core:4", "--tgt", "big.tgt"});
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_NE(big.err.find("16384 PEs; tm-topo writes a deco 0 view of at most 8192 PEs"), std::string::npos) << big.err;
  EXPECT_FALSE(box.exists("big.tgt"));
}

// A topology.conf names its nodes: an allocation names those hosts (not
// their trailing numbers), and a host it does not list is refused.
TEST(Machines, AllocationOnATopologyConfByItsHostNames) {
  Sandbox box;
  box.write("topology.conf",
            "SwitchName=leaf1 Nodes=cn[1-2]\nSwitchName=leaf2 Nodes=cn[3-4]\n"
            "SwitchName=spine Switches=leaf[1-2]\n");
  box.write("pair.coo", "4\n0 1 10\n2 3 10\n");
  const auto r = box.run("tm-map", {"-t", "topology.conf", "--node", "core:2", "-c", "pair.coo", "--alloc", "cn[3-4]",
                                    "--format", "hostfile"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ranks_per_host(r.out), (std::map<std::string, int>{{"cn3", 2}, {"cn4", 2}})) << r.out;
  const auto other = box.run("tm-map", {"-t", "topology.conf", "--node", "core:2", "-c", "pair.coo", "--alloc",
                                        "cn[4-5]", "--format", "hostfile", "--output", "h.txt"});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("--alloc: host 'cn5' is not a node of this machine (its 4 hosts are cn1 .. cn4"),
            std::string::npos)
      << other.err;
  EXPECT_FALSE(box.exists("h.txt"));
  // --host-names too: cn5 is not cn05.
  auto args = kCluster;
  args.insert(args.end(), {"-c", "pair.coo", "--alloc", "cn5"});
  const auto unpadded = box.run("tm-map", args);
  EXPECT_EQ(unpadded.exit_code, 2);
  EXPECT_NE(unpadded.err.find("host 'cn5' is not a node of this machine (its 16 hosts are cn01 .. cn16"),
            std::string::npos)
      << unpadded.err;
}

// --alloc-from-env with no -t outside a Slurm cluster with a switch tree:
// the job's nodes on one switch, each node as hwloc sees this one (here
// hwloc's own HWLOC_SYNTHETIC stands in for the machine).
TEST(Machines, SchedulerMachineWithoutSwitchTreeIsTheJobsNodes) {
  Sandbox box;
  std::string ring = "8\n";
  for (int r = 0; r < 8; ++r) ring += std::to_string(r) + " " + std::to_string((r + 1) % 8) + " 100\n";
  box.write("ring.coo", ring);
  const std::vector<std::pair<std::string, std::string>> job = {{"SLURM_CONF", box.path("no/slurm.conf")},
                                                                {"SLURM_JOB_NODELIST", "node[7-8]"},
                                                                {"SLURM_JOB_CPUS_PER_NODE", "4(x2)"},
                                                                {"HWLOC_SYNTHETIC", "package:2 core:2 pu:1"}};
  const auto r = box.run("tm-map", {"-c", "ring.coo", "--alloc-from-env", "--format", "rankfile"}, job);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("no -t and no switch tree (no Slurm configuration found"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the job's 2 nodes are taken as one switch's, each node as hwloc sees this one"),
            std::string::npos)
      << r.err;
  const std::map<int, int> each_core_once = {{0, 1}, {1, 1}, {2, 1}, {3, 1}};
  EXPECT_EQ(slot_uses(r.out), (SlotUses{{"node7", each_core_once}, {"node8", each_core_once}})) << r.out;
  // The optimum, by hand: the ring crosses between the nodes twice (3 edges
  // up from a PU to its node, a cable to the switch, a cable down, 3 edges:
  // 8 hops), between a node's sockets twice (6 hops), and inside a socket
  // the four other times (4 hops): 100 x (2 x 8 + 2 x 6 + 4 x 4) = 4,400.
  const auto json = box.run("tm-map", {"-c", "ring.coo", "--alloc-from-env", "--format", "json"}, job);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"hop_bytes\": 4400,"), std::string::npos) << json.out;
  // hwloc's variable is read as -x files are: checked, and named when wrong.
  auto huge = job;
  huge.back().second = "pack:1000 core:1000 pu:1000";
  const auto refused = box.run("tm-map", {"-c", "ring.coo", "--alloc-from-env", "--output", "m.txt"}, huge);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("HWLOC_SYNTHETIC=pack:1000 core:1000 pu:1000: the synthetic description"),
            std::string::npos)
      << refused.err;
  EXPECT_FALSE(box.exists("m.txt"));
}

// A bare tleaf does not say which level is a host: tm-map says which it
// took, and --pes-per-node takes another (the cluster: 4 nodes x 2
// sockets x 8 cores, which the last level would make 8 hosts of 8 cores).
TEST(Machines, TleafSaysWhichLevelIsAHostAndAnOptionSetsIt) {
  Sandbox box;
  std::string pairs = "64\n";
  for (int r = 0; r < 64; r += 2) pairs += std::to_string(r) + " " + std::to_string(r + 1) + " 10\n";
  box.write("pairs.coo", pairs);
  const std::vector<std::string> tleaf = {"-t", "tleaf 3 4 100 2 10 8 1", "-c", "pairs.coo", "--format", "hostfile"};
  const auto taken = box.run("tm-map", tleaf);
  ASSERT_EQ(taken.exit_code, 0) << taken.err;
  EXPECT_NE(taken.err.find("note: tleaf 3 4 100 2 10 8 1 does not say which level is a host: each 8 PEs under a "
                           "last-level switch taken as one (8 hosts); --pes-per-node 16 or 64 takes a higher level"),
            std::string::npos)
      << taken.err;
  auto args = tleaf;
  args.insert(args.end(), {"--pes-per-node", "16"});
  const auto nodes = box.run("tm-map", args);
  ASSERT_EQ(nodes.exit_code, 0) << nodes.err;
  EXPECT_EQ(nodes.err.find("does not say which level"), std::string::npos) << nodes.err;
  EXPECT_EQ(ranks_per_host(nodes.out),
            (std::map<std::string, int>{{"cn0", 16}, {"cn1", 16}, {"cn2", 16}, {"cn3", 16}}));
  // --alloc then counts those hosts: cn3 is the fourth node of 16 PEs.
  args = {"-t",
          "tleaf 3 4 100 2 10 8 1",
          "-c",
          "pairs.coo",
          "--pes-per-node",
          "16",
          "--alloc",
          "cn[2-3]",
          "-o",
          "2",
          "--format",
          "hostfile"};
  const auto allocated = box.run("tm-map", args);
  ASSERT_EQ(allocated.exit_code, 0) << allocated.err;
  EXPECT_EQ(ranks_per_host(allocated.out), (std::map<std::string, int>{{"cn2", 32}, {"cn3", 32}}));
  const auto odd = box.run("tm-map", {"-t", "tleaf 3 4 100 2 10 8 1", "-c", "pairs.coo", "--pes-per-node", "12"});
  EXPECT_EQ(odd.exit_code, 2);
  EXPECT_NE(odd.err.find("--pes-per-node 12: a host of tleaf 3 4 100 2 10 8 1 holds the PEs below one of its levels: "
                         "8, 16, 64"),
            std::string::npos)
      << odd.err;
  const auto mesh = box.run("tm-map", {"-t", "mesh2D 8 8", "-c", "pairs.coo", "--pes-per-node", "2"});
  EXPECT_EQ(mesh.exit_code, 2);
  EXPECT_NE(mesh.err.find("--pes-per-node: mesh2D 8 8 says itself which PEs share a host"), std::string::npos)
      << mesh.err;
}

// Two kinds of node in one machine: --node for every node, --node
// HOSTS=SPEC for the others. PEs are numbered node by node (4 on each
// two-socket node, 2 on each one-socket node); distances by hand.
TEST(Machines, TwoKindsOfNodeInOneMachine) {
  Sandbox box;
  const std::vector<std::string> machine = {"-t",     "fattree:2;2,2;1,1;1,1",   "--node", "package:2 core:2",
                                            "--node", "cn[2-3]=package:1 core:2"};
  std::string ring = "12\n";
  for (int r = 0; r < 12; ++r) ring += std::to_string(r) + " " + std::to_string((r + 1) % 12) + " 10\n";
  box.write("ring.coo", ring);
  auto args = machine;
  args.insert(args.end(), {"-c", "ring.coo", "--format", "rankfile"});
  const auto r = box.run("tm-map", args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::map<int, int> four = {{0, 1}, {1, 1}, {2, 1}, {3, 1}};
  const std::map<int, int> two = {{0, 1}, {1, 1}};
  EXPECT_EQ(slot_uses(r.out), (SlotUses{{"cn0", four}, {"cn1", four}, {"cn2", two}, {"cn3", two}})) << r.out;
  EXPECT_NE(r.err.find("of nodes 2 x 'package:2 core:2', 2 x 'package:1 core:2'"), std::string::npos) << r.err;
  // PE 0 (cn0) to PE 8 (cn2): 3 edges up, 4 cables over the spine, 3 down =
  // 10; PE 8 to PE 9 (cn2's two cores): 4; PE 0 to PE 4 (cn1, same leaf):
  // 3 + 2 + 3 = 8. Traffic 1000, 100 and 10 on those pairs: 10,480.
  box.write("three.coo", "4\n0 1 1000\n1 3 100\n0 2 10\n");
  box.write("three.perm", "0\n8\n4\n9\n");
  args = machine;
  args.insert(args.end(), {"-c", "three.coo", "-m", "three.perm"});
  const auto eval = box.run("tm-eval", args);
  ASSERT_EQ(eval.exit_code, 0) << eval.err;
  EXPECT_NE((eval.out + eval.err).find("hop_bytes 10480"), std::string::npos) << eval.out << eval.err;
  // Mistakes named.
  const auto outside = box.run("tm-map", {"-t", "fattree:2;2,2;1,1;1,1", "--node", "cn[3-4]=core:2", "-c", "ring.coo"});
  EXPECT_EQ(outside.exit_code, 2);
  EXPECT_NE(outside.err.find("--node 'cn[3-4]=core:2': host cn4 is not a node of this machine (its 4 hosts are cn0 .. "
                             "cn3)"),
            std::string::npos)
      << outside.err;
  const auto twice =
      box.run("tm-map", {"-t", "fattree:2;2,2;1,1;1,1", "--node", "core:2", "--node", "core:4", "-c", "ring.coo"});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("--node: 'core:2' and 'core:4' are each for every node"), std::string::npos) << twice.err;
  const auto both = box.run(
      "tm-map", {"-t", "fattree:2;2,2;1,1;1,1", "--node", "cn[0-1]=core:2", "--node", "cn1=core:4", "-c", "ring.coo"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--node 'cn1=core:4': host cn1 has a node already (--node 'cn[0-1]=core:2')"),
            std::string::npos)
      << both.err;
}
