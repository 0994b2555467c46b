// tm-topo: the shipped targets are reproduced exactly, the deco target and
// the built-in model agree, allocations keep whole-machine distances, and
// Scotch's own tools accept what we emit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/machine.hpp"
#include "tmap/topology.hpp"

using tmap::test::Sandbox;

namespace {

std::string arch_file(const std::string& name) {
  std::ifstream in(std::string(TMAP_ARCH_DIR) + "/" + name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool have(const char* tool) {
  return std::system((std::string("command -v ") + tool + " > /dev/null 2>&1").c_str()) == 0;
}

}  // namespace

TEST(TmTopo, ShippedTargetsAreReproduced) {
  Sandbox box;
  ASSERT_EQ(box.run("tm-topo", {"tianhe3", "--rows", "2", "--cols", "2", "--tgt", "a.tgt", "--tree", "t.tgt", "-q"})
                .exit_code,
            0);
  ASSERT_EQ(box.run("tm-topo", {"tianhe3", "--rows", "1", "--cols", "2", "--tgt", "b.tgt", "-q"}).exit_code, 0);
  EXPECT_EQ(box.read("a.tgt"), arch_file("tianhe3-2x2.tgt"));
  EXPECT_EQ(box.read("t.tgt"), arch_file("tianhe3-2x2-tree.tgt"));
  EXPECT_EQ(box.read("b.tgt"), arch_file("tianhe3-1x2.tgt"));
  const auto node = tmap::load_topology(std::string(TMAP_ARCH_DIR) + "/ft2000plus-node.xml");
  EXPECT_EQ(node->size(), 64);
}

TEST(TmTopo, DecoTargetAndBuiltInModelScoreEveryMappingAlike) {
  Sandbox box;
  ASSERT_EQ(
      box.run("tm-gen", {"random", "--ranks", "300", "--degree", "4", "--seed", "2", "--output", "c.coo"}).exit_code,
      0);
  for (const std::string strategy : {"random", "roundrobin", "ohtma"}) {
    const auto a = box.run("tm-map", {"-t", std::string(TMAP_ARCH_DIR) + "/tianhe3-2x2.tgt", "-c", "c.coo", "-s",
                                      strategy, "--format", "json", "-q"});
    ASSERT_EQ(a.exit_code, 0) << a.err;
    box.write("m.json", a.out);
    // The shipped target has one terminal of weight 64 (cores) per node.
    const auto b =
        box.run("tm-eval", {"-t", "tianhe3:2x2,cores=64", "-c", "c.coo", "-m", "m.json", "--format", "json"});
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(nlohmann::json::parse(a.out)["hop_bytes"], nlohmann::json::parse(b.out)["hop_bytes"]) << strategy;
  }
}

TEST(TmTopo, AllocationKeepsWholeMachineDistances) {
  Sandbox box;
  const auto r = box.run("tm-topo", {"tianhe3", "--rows", "2", "--cols", "2", "--nodes", "4", "--alloc", "1,6,9-10",
                                     "--tgt", "a.tgt", "--tree", "t.tgt", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto deco = tmap::load_topology(box.path("a.tgt").string());
  const auto model = tmap::load_topology("tianhe3:2x2,nodes=4");
  const std::vector<tmap::PE> nodes{1, 6, 9, 10};
  // Four terminals labelled by their node ids, each of weight 64 (cores).
  ASSERT_EQ(deco->num_nodes(), 4);
  ASSERT_EQ(deco->size(), 4 * 64);
  for (tmap::PE a = 0; a < 4; ++a) {
    EXPECT_EQ(node_label(*deco, a), nodes[a]);
    EXPECT_EQ(host_name(*deco, a), "cn" + std::to_string(nodes[a]));
    for (tmap::PE b = 0; b < 4; ++b) EXPECT_EQ(deco->distance(a * 64, b * 64), model->distance(nodes[a], nodes[b]));
  }
  EXPECT_EQ(tmap::load_topology(box.path("t.tgt").string())->size(), 4 * 64);
  // The same nodes as a Slurm host list, as tm-map --alloc takes them.
  const auto h = box.run("tm-topo", {"tianhe3", "--rows", "2", "--cols", "2", "--nodes", "4", "--alloc",
                                     "cn[01,06],cn[09-10]", "--tgt", "h.tgt", "-q"});
  ASSERT_EQ(h.exit_code, 0) << h.err;
  EXPECT_EQ(box.read("h.tgt"), box.read("a.tgt"));
}

TEST(TmTopo, ErrorsExitTwoWithoutOutput) {
  Sandbox box;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"tianhe3", "--rows", "2", "--cols", "2"}, "nothing to write"},
      {{"tianhe3", "--rows", "2", "--cols", "2", "--nodes", "3", "--tgt", "x.tgt"}, "nodes per chip must be even"},
      {{"tianhe3", "--rows", "1", "--cols", "1", "--alloc", "0-200", "--tgt", "x.tgt"}, "--alloc: node 96 is outside"},
      {{"tianhe3", "--rows", "1", "--cols", "1", "--cores", "8", "--tree", "x.tgt"},
       "the node has 64 PUs but --cores is 8"},
      {{"tianhe3", "--rows", "1", "--cols", "1", "--node", "pack:x", "--xml", "x.tgt"},
       "hwloc synthetic description 'pack:x': expected items TYPE:COUNT"},
      {{"tianhe3", "--rows", "10", "--cols", "10", "--tgt", "x.tgt"},
       "give the job's nodes as an allocation, or use the built-in spec"},
      {{"mesh", "--rows", "1", "--cols", "1", "--tgt", "x.tgt"}, "machine"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = box.run("tm-topo", args);
    EXPECT_EQ(r.exit_code, 2) << message << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_FALSE(box.exists("x.tgt")) << message;
  }
}

TEST(TmTopo, ScotchToolsAcceptTheEmittedTargets) {
  if (!have("atst") || !have("scotch_gmap")) GTEST_SKIP() << "Scotch's tools (package scotch) are not installed";
  Sandbox box;
  ASSERT_EQ(box.run("tm-topo", {"tianhe3", "--rows", "1", "--cols", "2", "--nodes", "8", "--cores", "4", "--node",
                                "pack:1 core:4 pu:1", "--tgt", "d.tgt", "--tree", "t.tgt", "-q"})
                .exit_code,
            0);
  // atst on the tree target: its average distance (over ordered pairs of
  // distinct terminals) equals ours. (On deco targets atst's distances are
  // off by one terminal, Scotch's bug, so there we only check it loads.)
  auto atst = [&](const std::string& file) {
    const std::string out = box.path("atst.out").string();
    EXPECT_EQ(std::system(("atst " + box.path(file).string() + " > " + out + " 2>&1").c_str()), 0);
    return box.read("atst.out");
  };
  const auto tree = tmap::load_topology(box.path("t.tgt").string());
  double sum = 0;
  for (tmap::PE a = 0; a < tree->size(); ++a) {
    for (tmap::PE b = 0; b < tree->size(); ++b) sum += static_cast<double>(tree->distance(a, b));
  }
  const double ours = sum / static_cast<double>(tree->size() * (tree->size() - 1));
  const auto report = atst("t.tgt");
  const auto at = report.find("avg=");
  ASSERT_NE(at, std::string::npos) << report;
  EXPECT_NEAR(std::stod(report.substr(at + 4)), ours, 1e-4 * ours) << report;
  EXPECT_NE(atst("d.tgt").find("nbr=16"), std::string::npos);
  // scotch_gmap maps an 8x8 stencil onto the deco target; tm-eval scores it.
  ASSERT_EQ(box.run("tm-gen", {"stencil2d", "--dims", "8x8", "--output", "s.grf"}).exit_code, 0);
  ASSERT_EQ(std::system(("scotch_gmap " + box.path("s.grf").string() + " " + box.path("d.tgt").string() + " " +
                         box.path("s.map").string() + " > /dev/null 2>&1")
                            .c_str()),
            0);
  const auto eval = box.run("tm-eval", {"-t", "d.tgt", "-c", "s.grf", "-m", "s.map", "--format", "json"});
  ASSERT_EQ(eval.exit_code, 0) << eval.err;
  EXPECT_GT(nlohmann::json::parse(eval.out)["hop_bytes"].get<std::int64_t>(), 0);
}
