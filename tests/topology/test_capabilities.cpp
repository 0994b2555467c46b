// Capabilities beyond distances are found by asking the machine, and the
// adapters' fallbacks give what distances and nodes say.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tmap/host_layout.hpp"
#include "tmap/machine.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"

namespace {

struct Expected {
  const char* spec;
  bool tree;
  bool grid;
  bool graph;
  bool scotch;  ///< writes its own Scotch target
  bool hosts;   ///< names its hosts and slots itself
};

TEST(Capabilities, EachKindHasWhatItDescribes) {
  const std::vector<Expected> kinds = {
      {"mesh2D 4 4", false, true, true, true, false},
      {"torus3D 2 2 2", false, true, true, true, false},
      {"hcub 3", false, false, true, true, false},
      {"cmplt 5", false, false, true, true, true},
      {"tleaf 2 2 10 4 1", true, false, true, true, true},
      {"tianhe3:1x2,nodes=4,cores=2", true, false, true, true, true},
      {"deco 0 2 3 0 1 2 1 1 3 5", false, false, false, true, true},
      {"fattree:2;2,2;1,2;1,1", true, false, false, false, true},
      {"torus:2,2", false, false, false, false, true},
  };
  for (const auto& k : kinds) {
    SCOPED_TRACE(k.spec);
    const auto t = tmap::load_topology(k.spec);
    EXPECT_EQ(t->find<tmap::TreeView>() != nullptr, k.tree);
    EXPECT_EQ(t->find<tmap::GridView>() != nullptr, k.grid);
    EXPECT_EQ(t->find<tmap::GraphView>() != nullptr, k.graph);
    EXPECT_EQ(t->find<tmap::ScotchView>() != nullptr, k.scotch);
    EXPECT_EQ(t->find<tmap::HostLayout>() != nullptr, k.hosts);
    std::vector<std::int64_t> path;
    EXPECT_EQ(tmap::tree_path(*t, 0, path), k.tree);
    EXPECT_EQ(tmap::distance_graph(*t).has_value(), k.graph);
  }
}

TEST(Capabilities, ASubMachineHasATreeOnlyWhereItsBaseHasOne) {
  const auto on_tree = tmap::load_topology("sub 3 0 1 3 tleaf 2 2 10 2 1");
  ASSERT_EQ(on_tree->size(), 3);
  ASSERT_NE(on_tree->find<tmap::TreeView>(), nullptr);
  std::vector<std::int64_t> path;
  ASSERT_TRUE(tmap::tree_path(*on_tree, 2, path));
  EXPECT_EQ(path, (std::vector<std::int64_t>{1, 1}));  // PE 2 is the base's PE 3
  const auto on_mesh = tmap::load_topology("sub 2 0 3 mesh2D 2 2");
  EXPECT_EQ(on_mesh->find<tmap::TreeView>(), nullptr);
  EXPECT_EQ(on_mesh->find<tmap::GridView>(), nullptr);  // two PEs of a grid are no grid
  EXPECT_EQ(tmap::scotch_target(*on_mesh), "sub\n2 0 3\nmesh2D 2 2\n");
}

TEST(Capabilities, MachinesWithoutAViewGetTheAdaptersFallbacks) {
  // A fat tree of 4 single-PE nodes: no Scotch kind of its own, so a deco 0
  // of its exact distances (2 under one switch, 4 across), one terminal a PE.
  const auto fat = tmap::load_topology("fattree:2;2,2;1,1;1,1");
  const auto target = tmap::parse_tgt(tmap::scotch_target(*fat), "view.tgt");
  ASSERT_EQ(target->size(), fat->size());
  for (tmap::PE a = 0; a < fat->size(); ++a) {
    for (tmap::PE b = 0; b < fat->size(); ++b) EXPECT_EQ(target->distance(a, b), fat->distance(a, b));
  }
  EXPECT_EQ(fat->distance(0, 1), 2);
  EXPECT_EQ(fat->distance(0, 2), 4);
  EXPECT_TRUE(tmap::scotch_source(*fat).empty());
  // A mesh names no hosts: node k is cn<k>, its one PE in slot 0.
  const auto mesh = tmap::load_topology("mesh2D 2 3");
  EXPECT_EQ(tmap::host_name(*mesh, 4), "cn4");
  EXPECT_EQ(tmap::slot_in_node(*mesh, 5), 0);
  EXPECT_EQ(tmap::node_with_label(*mesh, 5), std::optional<tmap::NodeId>(5));
  EXPECT_FALSE(tmap::node_with_label(*mesh, 6).has_value());
  EXPECT_FALSE(tmap::node_with_label(*mesh, -1).has_value());
}

TEST(Capabilities, ScotchTextIsKeptWhereTheMachineWasReadFromIt) {
  const auto t = tmap::load_topology("tleaf  2 2 10 2 1");
  EXPECT_EQ(tmap::scotch_source(*t), "tleaf  2 2 10 2 1");  // as given, spacing and all
  const auto deco = tmap::load_topology("deco 0 2 3 0 1 2 1 1 3 5");
  EXPECT_TRUE(tmap::scotch_terminals_are_nodes(*deco));
  // Tianhe-3's uniform groups are its chip halves, in node order.
  const auto th = tmap::load_topology("tianhe3:1x2,nodes=4,cores=2");
  std::vector<std::int64_t> groups;
  for (tmap::NodeId n = 0; n < th->num_nodes(); ++n) groups.push_back(tmap::scotch_uniform_group(*th, n));
  EXPECT_EQ(groups, (std::vector<std::int64_t>{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(tmap::scotch_uniform_group(*t, 0), -1);
}

}  // namespace
