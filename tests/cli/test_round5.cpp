// Trust, round 5 (issue 61): the edges a new user and a careless one meet,
// through the real tools. Each test is one class of the issue; each fails
// on the code before it (the silent ones gave a wrong figure or mapping).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <ostream>
#include <regex>
#include <sstream>

#include "cli_runner.hpp"

namespace {

using tmap::test::Sandbox;

/// A 3D halo of X*Y*Z ranks, `bytes` to each face neighbour, as a .coo.
std::string halo3d(int x_size, int y_size, int z_size, int bytes) {
  std::ostringstream out;
  out << x_size * y_size * z_size << "\n";
  const auto rank = [&](int x, int y, int z) { return x + x_size * (y + y_size * z); };
  for (int z = 0; z < z_size; ++z) {
    for (int y = 0; y < y_size; ++y) {
      for (int x = 0; x < x_size; ++x) {
        const int r = rank(x, y, z);
        if (x + 1 < x_size) out << r << ' ' << rank(x + 1, y, z) << ' ' << bytes << '\n';
        if (x > 0) out << r << ' ' << rank(x - 1, y, z) << ' ' << bytes << '\n';
        if (y + 1 < y_size) out << r << ' ' << rank(x, y + 1, z) << ' ' << bytes << '\n';
        if (y > 0) out << r << ' ' << rank(x, y - 1, z) << ' ' << bytes << '\n';
        if (z + 1 < z_size) out << r << ' ' << rank(x, y, z + 1) << ' ' << bytes << '\n';
        if (z > 0) out << r << ' ' << rank(x, y, z - 1) << ' ' << bytes << '\n';
      }
    }
  }
  return out.str();
}

/// The number after `label` in `text` (e.g. "hop_bytes 1234"), -1 without one.
long long number_after(const std::string& text, const std::string& label) {
  const std::regex pattern(label + R"(\s*([0-9]+))");
  std::smatch match;
  return std::regex_search(text, match, pattern) ? std::stoll(match[1]) : -1;
}

// The new user's cluster: 32 nodes of 2 x 12 cores on a two-level fat tree.
const std::vector<std::string> kFatTree = {"-t", "fattree:2;16,2;1,2;1,1", "--node", "package:2 core:12"};

// lstopo's XML of any node past 64 hardware threads has empty zero words in
// its cpusets ("0x00000003,,0x0"): refused before, read now by -x, --node
// and HWLOC_XMLFILE with --node this, all as one machine.
TEST(Round5, LstopoXmlOfABigNodeIsReadEveryWay) {
  const Sandbox box;
  const auto xml = box.path("big.xml").string();
  ASSERT_EQ(std::system(("lstopo --input 'package:2 core:64 pu:2' --of xml --force " + xml + " 2>/dev/null").c_str()),
            0);
  ASSERT_NE(box.read("big.xml").find(",,0x0"), std::string::npos);  // the spelling that was refused
  box.write("ring.coo", "4\n0 1 10\n1 2 10\n2 3 10\n3 0 10\n");
  const auto alone = box.run("tm-map", {"-x", "big.xml", "-c", "ring.coo"});
  EXPECT_EQ(alone.exit_code, 0) << alone.err;
  const std::vector<std::string> cluster = {"-t", "fattree:2;2,2;1,1;1,1", "-c", "ring.coo", "-s", "inorder"};
  auto by_file = cluster;
  by_file.insert(by_file.end(), {"--node", "big.xml"});
  auto by_this = cluster;
  by_this.insert(by_this.end(), {"--node", "this"});
  const auto file = box.run("tm-map", by_file);
  const auto variable = box.run("tm-map", by_this, {{"HWLOC_XMLFILE", xml}});
  EXPECT_EQ(file.exit_code, 0) << file.err;
  EXPECT_EQ(variable.exit_code, 0) << variable.err;
  EXPECT_EQ(file.out, variable.out);
  EXPECT_NE(file.err.find("1024 allowed PEs"), std::string::npos) << file.err;  // 4 nodes x 256 PUs
}

// One reading of synthetic text: HWLOC_SYNTHETIC with --node this is the
// same node as --node with the same words (it was refused).
TEST(Round5, HwlocSyntheticIsReadAsNodeText) {
  const Sandbox box;
  box.write("halo.coo", halo3d(4, 4, 3, 1000));
  auto given = kFatTree;
  given.insert(given.end(), {"-c", "halo.coo"});
  auto from_variable = given;
  from_variable[3] = "this";
  const auto a = box.run("tm-map", given);
  const auto b = box.run("tm-map", from_variable, {{"HWLOC_SYNTHETIC", "package:2 core:12"}});
  EXPECT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
}

// On a machine whose hosts have no names, host names are read by their
// trailing number: node004 is node 4, the fifth. Silent before; now said,
// with each host's node and the --host-names that names them. Node ids on a
// named machine are ids (refused before: "host '2-9' is not a node").
TEST(Round5, AllocationNamesAndIdsSayHowTheyWereRead) {
  const Sandbox box;
  box.write("halo.coo", halo3d(4, 4, 3, 1000));
  auto args = kFatTree;
  args.insert(args.end(), {"-c", "halo.coo", "--alloc", "node[004-005]"});
  const auto by_number = box.run("tm-map", args);
  EXPECT_EQ(by_number.exit_code, 0) << by_number.err;
  EXPECT_NE(by_number.err.find("node004 -> cn4, node005 -> cn5"), std::string::npos) << by_number.err;
  EXPECT_NE(by_number.err.find("--host-names 'node[001-032]'"), std::string::npos) << by_number.err;
  // With the machine's own names nothing is guessed: no note.
  auto named = kFatTree;
  named.insert(named.end(), {"--host-names", "node[001-032]", "-c", "halo.coo", "--alloc", "node[004-005]"});
  const auto exact = box.run("tm-map", named);
  EXPECT_EQ(exact.exit_code, 0) << exact.err;
  EXPECT_EQ(exact.err.find("trailing number"), std::string::npos) << exact.err;
  // Its PEs: nodes 3 and 4 (node004 is the fourth node), 24 each.
  std::istringstream pes(exact.out);
  for (long long pe = 0; pes >> pe;) {
    EXPECT_GE(pe, 3 * 24);
    EXPECT_LT(pe, 5 * 24);
  }
  named.back() = "2-3";
  const auto ids = box.run("tm-map", named);
  EXPECT_EQ(ids.exit_code, 0) << ids.err;
  std::istringstream id_pes(ids.out);
  for (long long pe = 0; id_pes >> pe;) {
    EXPECT_GE(pe, 2 * 24);
    EXPECT_LT(pe, 4 * 24);
  }
}

// A hostfile names only hosts: the launcher binds a node's ranks in rank
// order to its cores, losing the sockets tmap chose. Said, with what the
// launcher's placement costs, checked here by tm-eval on that placement
// built from the hostfile itself.
TEST(Round5, HostfileLaunchesSayWhatTheLaunchersOrderCosts) {
  const Sandbox box;
  box.write("halo.coo", halo3d(8, 12, 8, 100000));
  auto args = kFatTree;
  args.insert(args.end(), {"-c", "halo.coo", "--format", "hostfile", "--output", "job.hosts"});
  const auto r = box.run("tm-map", args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::regex note(R"(([0-9]+) of 768 ranks land on another core, ([0-9]+) hop-bytes instead of ([0-9]+))");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(r.err, match, note)) << r.err;
  EXPECT_EQ(std::stoll(match[3]), number_after(r.err, "hop_bytes"));
  // The launcher's placement, from the hostfile: host cnK's ranks in rank
  // order on its cores 0, 1, ... (PE 24 K + i).
  std::istringstream hosts(box.read("job.hosts"));
  std::map<int, int> next;
  std::string perm;
  for (std::string host; std::getline(hosts, host);) {
    const int node = std::stoi(host.substr(2));
    perm += std::to_string(24 * node + next[node]++) + "\n";
  }
  box.write("launched.perm", perm);
  const auto scored =
      box.run("tm-eval", {kFatTree[0], kFatTree[1], kFatTree[2], kFatTree[3], "-c", "halo.coo", "-m", "launched.perm"});
  ASSERT_EQ(scored.exit_code, 0) << scored.err;
  EXPECT_EQ(std::stoll(match[2]), number_after(scored.out + scored.err, "hop_bytes"));
  EXPECT_GT(std::stoll(match[2]), std::stoll(match[3]));
  // A rankfile keeps every rank on its core: nothing to say.
  args[args.size() - 3] = "rankfile";
  args.back() = "job.rankfile";
  const auto rankfile = box.run("tm-map", args);
  EXPECT_EQ(rankfile.exit_code, 0) << rankfile.err;
  EXPECT_EQ(rankfile.err.find("land on another core"), std::string::npos) << rankfile.err;
}

// --compare's references are never refined: with --objective congestion
// the row inorder is in-order itself (tm-eval's figure), the refined one is
// labelled; all includes auto, the default.
TEST(Round5, CompareReferencesAreThemselves) {
  const Sandbox box;
  // The halo's ranks shuffled (r -> 97 r mod 256): in-order is poor, so a
  // refinement for the objective changes it.
  std::istringstream natural(halo3d(8, 8, 4, 1000));
  std::string line;
  std::getline(natural, line);
  std::string shuffled = line + "\n";
  for (int a = 0, b = 0, bytes = 0; natural >> a >> b >> bytes;) {
    shuffled += std::to_string(97 * a % 256) + " " + std::to_string(97 * b % 256) + " " + std::to_string(bytes) + "\n";
  }
  box.write("halo.coo", shuffled);
  box.write("inorder.perm", [] {
    std::string text;
    for (int r = 0; r < 256; ++r) text += std::to_string(r) + "\n";
    return text;
  }());
  const std::vector<std::string> machine = {"-t", "torus3D 8 8 4"};
  auto args = machine;
  args.insert(args.end(), {"-c", "halo.coo", "--compare", "inorder,auto", "--objective", "congestion"});
  const auto r = box.run("tm-map", args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto scored = box.run("tm-eval", {"-t", "torus3D 8 8 4", "-c", "halo.coo", "-m", "inorder.perm"});
  ASSERT_EQ(scored.exit_code, 0) << scored.err;
  const auto inorder = number_after(scored.out + scored.err, "hop_bytes");
  const std::regex row(R"(\n[ *] inorder +([0-9]+) +[-0-9.]+ +1\.000)");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(r.out, match, row)) << r.out;
  EXPECT_EQ(std::stoll(match[1]), inorder);
  EXPECT_NE(r.out.find("inorder+congestion"), std::string::npos) << r.out;
  auto all = machine;
  all.insert(all.end(), {"-c", "halo.coo", "--compare", "all", "-P", "fast"});
  const auto every = box.run("tm-map", all);
  ASSERT_EQ(every.exit_code, 0) << every.err;
  EXPECT_TRUE(std::regex_search(every.out, std::regex(R"(\n[ *] auto +[0-9])"))) << every.out;
}

struct Refusal {
  const char* name;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  const char* says;
  const char* never_says;
  friend void PrintTo(const Refusal& r, std::ostream* out) { *out << r.name; }
};

class Round5Messages : public ::testing::TestWithParam<Refusal> {};

// Each mistake: exit 2, nothing on stdout, a message that points the right
// way (and not the wrong one it pointed before).
TEST_P(Round5Messages, PointTheRightWay) {
  const auto& c = GetParam();
  const Sandbox box;
  box.write("halo.coo", halo3d(8, 12, 8, 1000));
  box.write("h.txt", "n1\nn2\n");
  auto args = c.args;
  args.insert(args.end(), {"-c", "halo.coo"});
  const auto r = box.run("tm-map", args, c.env);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  if (c.never_says != nullptr) {
    EXPECT_EQ(r.err.find(c.never_says), std::string::npos) << r.err;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Catalog, Round5Messages,
    ::testing::Values(
        Refusal{"torus_typo", {"-t", "torus:4x4", "--node", "core:4"}, {}, "expected torus:X,Y", "fattree:L"},
        Refusal{"torus_zero", {"-t", "torus:0,4"}, {}, "expected torus:X,Y", "fattree:L"},
        Refusal{"dragonfly_zero", {"-t", "dragonfly:3,0;1,1;2,1;2"}, {}, "expected dragonfly:G,gl", "fattree:L"},
        Refusal{"misspelt_kind",
                {"-t", "fatree:2;16,2;1,2;1,1", "--node", "core:4"},
                {},
                "did you mean fattree:?",
                "--node:"},
        Refusal{"node_left_out",
                {"-t", "fattree:2;16,2;1,2;1,1"},
                {},
                "without --node each of the 32 nodes is one PE",
                "use -o"},
        Refusal{"more_nodes_first",
                {"-t", "fattree:2;16,2;1,2;1,1", "--node", "core:4"},
                {},
                "give the job more PEs",
                nullptr},
        Refusal{"node_file_missing",
                {"-t", "fattree:2;16,2;1,2;1,1", "--node", "nodes/compute.xml"},
                {},
                "nodes/compute.xml: cannot open the hwloc XML file (no such file)",
                "TYPE:COUNT"},
        Refusal{"node_too_large",
                {"-t", "fattree:2;16,2;1,2;1,1", "--node", "package:100000 core:100000"},
                {},
                "is too large",
                "TYPE:COUNT"},
        Refusal{"suggestion_without_two_equals",
                {"-t", "fattree:2;16,2;1,2;1,1", "--node", "core:4", "--node", "=core:2"},
                {},
                "'gpu[01-04]=core:2'",
                "=="},
        Refusal{"hosts_in_node_order",
                {"-t", "fattree:2;16,2;1,2;1,1", "--node", "core:24", "--node", "gpu1=core:2", "--host-names",
                 "node[1-32]"},
                {},
                "its 32 hosts are node1 .. node32",
                nullptr},
        Refusal{"host_twice",
                {"-t", "fattree:2;8,2;1,2;1,1", "--node", "core:4", "--host-names", "cn[01-08],cn[08-15]"},
                {},
                "host cn08 is listed twice",
                nullptr},
        Refusal{"host_with_equals",
                {"-t", "fattree:2;8,2;1,2;1,1", "--node", "core:4", "--host-names", "a=b[01-16]"},
                {},
                "'=' inside a host name",
                nullptr},
        Refusal{"host_with_hash",
                {"-t", "fattree:2;8,2;1,2;1,1", "--node", "core:4", "--host-names", "x#[01-16]"},
                {},
                "'#' inside a host name",
                nullptr},
        Refusal{"hosts_and_host_names",
                {"-t", "fattree:2;8,2;1,2;1,1", "--node", "core:4", "--host-names", "cn[1-16]", "--hosts", "h.txt"},
                {},
                "--hosts excludes --host-names",
                nullptr},
        Refusal{"empty_host_names",
                {"-t", "fattree:2;8,2;1,2;1,1", "--node", "core:4", "--host-names", ""},
                {},
                "--host-names: is empty",
                nullptr},
        Refusal{"empty_node", {"-t", "fattree:2;8,2;1,2;1,1", "--node", ""}, {}, "--node: empty", nullptr}),
    [](const ::testing::TestParamInfo<Refusal>& refusal) { return std::string(refusal.param.name); });

// Slurm's topology guide: leaf switches under several top switches, and
// parts no switch joins (a job inside one part maps; one across two is
// refused, naming the hosts), continuation lines.
TEST(Round5, SlurmTopologyFilesAsSlurmReadsThem) {
  const Sandbox box;
  box.write("ring.coo", "8\n0 1 10\n1 2 10\n2 3 10\n3 4 10\n4 5 10\n5 6 10\n6 7 10\n7 0 10\n");
  box.write("spines.conf",
            "SwitchName=s0 Nodes=tux[0-3]\nSwitchName=s1 Nodes=tux[4-7]\nSwitchName=s2 Nodes=tux[8-11]\n"
            "SwitchName=s3 Nodes=tux[12-15]\nSwitchName=s4 Switches=s[0-3]\nSwitchName=s5 Switches=s[0-3]\n"
            "SwitchName=s6 \\\n   Switches=s[0-3]   # a continued line\nSwitchName=s7 Switches=s[0-3]\n");
  const auto spines = box.run("tm-map", {"-t", "spines.conf", "--node", "core:2", "-c", "ring.coo"});
  EXPECT_EQ(spines.exit_code, 0) << spines.err;
  box.write("parts.conf",
            "SwitchName=a0 Nodes=cn[1-2]\nSwitchName=a1 Nodes=cn[3-4]\nSwitchName=top Switches=a[0-1]\n"
            "SwitchName=b0 Nodes=cn[5-6]\n");
  const auto across = box.run("tm-map", {"-t", "parts.conf", "--node", "core:2", "-c", "ring.coo"});
  EXPECT_EQ(across.exit_code, 2);
  EXPECT_NE(across.err.find("hosts cn1 and cn5 cannot be in one job"), std::string::npos) << across.err;
  const auto inside =
      box.run("tm-map", {"-t", "parts.conf", "--node", "core:2", "-c", "ring.coo", "--alloc", "cn[1-4]"});
  EXPECT_EQ(inside.exit_code, 0) << inside.err;
}

}  // namespace

namespace {

// See the machine you described: tm-topo --describe counts switches and
// cables kind by kind, so a swapped list in a fat tree's spec (another
// machine: 80 cables instead of 48, hand-counted below) shows at once; one
// example pair per distance with its route; --picture draws the network.
TEST(Round5, DescribeShowsTheMachineAsTmapReadsIt) {
  const Sandbox box;
  // fattree:2;4,8;1,2;1,1: 32 nodes, one cable each up to 8 leaf switches
  // (4 nodes a leaf); each leaf two cables up, to 2 spines: 32 + 16.
  const auto right = box.run(
      "tm-topo", {"fattree:2;4,8;1,2;1,1", "--node", "package:2 core:4", "--host-names", "node[01-32]", "--describe"});
  ASSERT_EQ(right.exit_code, 0) << right.err;
  EXPECT_NE(right.out.find("PEs: 256 on 32 nodes: 32 nodes of 8 PEs"), std::string::npos) << right.out;
  EXPECT_NE(right.out.find("hosts: node01, node02, ..., node32"), std::string::npos) << right.out;
  EXPECT_NE(right.out.find("network: 10 switches or routers, 48 cables"), std::string::npos) << right.out;
  EXPECT_NE(right.out.find("level1: 32 cables from 32 nodes to 8 switches"), std::string::npos) << right.out;
  EXPECT_NE(right.out.find("level2: 16 cables from 8 switches to 2 switches"), std::string::npos) << right.out;
  // PE 0 to a node under another leaf: 2 edges up to its node's root, 4
  // cables, 2 down: 10, through a spine.
  EXPECT_NE(right.out.find("10: PE 32 on node05 slot 0 (224 PEs this far), route: node 0 - switch(1,0), "
                           "switch(1,0) - switch(2,0), switch(1,1) - switch(2,0), node 4 - switch(1,1)"),
            std::string::npos)
      << right.out;
  // Two parents per node, one per leaf: 64 + 16 cables, 16 leaf switches.
  const auto swapped = box.run("tm-topo", {"fattree:2;4,8;2,1;1,1", "--describe", "--format", "json"});
  ASSERT_EQ(swapped.exit_code, 0) << swapped.err;
  EXPECT_NE(swapped.out.find("\"switches\": 18"), std::string::npos) << swapped.out;
  EXPECT_NE(swapped.out.find("\"cables\": 64"), std::string::npos) << swapped.out;
  // The picture: a PNG, written only with --describe.
  const auto drawn = box.run("tm-topo", {"fattree:2;4,8;1,2;1,1", "--describe", "--picture", "ft.png"});
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  EXPECT_EQ(box.read("ft.png").substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  const auto alone = box.run("tm-topo", {"fattree:2;4,8;1,2;1,1", "--picture", "alone.png"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_FALSE(box.exists("alone.png"));
}

}  // namespace

namespace {

// Inside a job with no -t, Slurm's controller is asked for the switch tree
// and the job's CPUs; when it is unreachable libslurm retried for 18-27 s
// in silence. Now a closed controller port is found at once (and an
// unreachable address within 2 s), said, and the job mapped from what is
// known.
TEST(Round5, AnUnreachableControllerIsSaidAndBounded) {
  const Sandbox box;
  // A port nothing listens on: 1 (tcpmux), refused on a test machine.
  box.write("slurm.conf",
            "ClusterName=test\nSlurmctldHost=ctl(127.0.0.1)\nSlurmctldPort=1\nNodeName=cn[1-4] CPUs=4\n"
            "PartitionName=all Nodes=cn[1-4] Default=YES\nTopologyPlugin=topology/tree\n");
  box.write("ring.coo", "4\n0 1 10\n1 2 10\n2 3 10\n3 0 10\n");
  const auto r = box.run("tm-map", {"--alloc-from-env", "-c", "ring.coo"},
                         {{"SLURM_CONF", box.path("slurm.conf").string()},
                          {"SLURM_JOB_NODELIST", "cn[1-2]"},
                          {"SLURM_JOB_ID", "5"},
                          {"SLURM_JOB_CPUS_PER_NODE", "2(x2)"}});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("slurmctld (127.0.0.1:1) accepts no connection within 2 s"), std::string::npos) << r.err;
}

}  // namespace
