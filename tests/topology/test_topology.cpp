#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tmap/error.hpp"
#include "tmap/machine.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "topology/kinds/kind.hpp"
#include "topology/tianhe3.hpp"

using tmap::load_topology;

namespace {

/// Every pair's distance, for comparing two topologies.
std::vector<tmap::Distance> all_distances(const tmap::Topology& t) {
  std::vector<tmap::Distance> d;
  for (tmap::PE a = 0; a < t.size(); ++a) {
    for (tmap::PE b = 0; b < t.size(); ++b) d.push_back(t.distance(a, b));
  }
  return d;
}

void expect_metric_properties(const tmap::Topology& t) {
  tmap::Distance largest = 0;
  for (tmap::PE a = 0; a < t.size(); ++a) {
    EXPECT_EQ(t.distance(a, a), 0);
    for (tmap::PE b = 0; b < t.size(); ++b) {
      EXPECT_EQ(t.distance(a, b), t.distance(b, a));
      largest = std::max(largest, t.distance(a, b));
    }
  }
  EXPECT_EQ(largest, t.max_distance()) << t.description();
}

}  // namespace

TEST(Topology, CompleteGraph) {
  const auto t = load_topology("cmplt 5");
  EXPECT_EQ(t->size(), 5);
  EXPECT_EQ(t->distance(0, 4), 1);
  EXPECT_EQ(t->kind(), "cmplt");
  expect_metric_properties(*t);
}

TEST(Topology, HypercubeIsHammingDistance) {
  const auto t = load_topology("hcub 4");
  EXPECT_EQ(t->size(), 16);
  EXPECT_EQ(t->distance(0b0000, 0b1111), 4);
  EXPECT_EQ(t->distance(0b0101, 0b0110), 2);
  expect_metric_properties(*t);
}

TEST(Topology, MeshUsesScotchNumberingAndManhattanDistance) {
  const auto t = load_topology("mesh2D 4 3");  // x in 0..3, y in 0..2, id = x + 4y
  EXPECT_EQ(t->size(), 12);
  EXPECT_EQ(t->distance(0, 3), 3);   // (0,0)-(3,0)
  EXPECT_EQ(t->distance(0, 11), 5);  // (0,0)-(3,2)
  EXPECT_EQ(t->distance(5, 6), 1);   // (1,1)-(2,1)
  EXPECT_EQ(t->distance(1, 9), 2);   // (1,0)-(1,2)
  expect_metric_properties(*t);
  const auto m3 = load_topology("mesh3D 2 3 4");
  EXPECT_EQ(m3->size(), 24);
  EXPECT_EQ(m3->distance(0, 23), 1 + 2 + 3);
  expect_metric_properties(*m3);
}

TEST(Topology, TorusWrapsAround) {
  const auto t = load_topology("torus2D 5 4");
  EXPECT_EQ(t->distance(0, 4), 1);   // x 0 and 4 are neighbours on a ring of 5
  EXPECT_EQ(t->distance(0, 15), 1);  // (0,0)-(0,3): y 0 and 3 on a ring of 4
  EXPECT_EQ(t->distance(0, 2 + 2 * 5), 4);
  expect_metric_properties(*t);
  const auto xd = load_topology("torusXD 4 3 2 2 3");
  EXPECT_EQ(xd->size(), 36);
  EXPECT_EQ(xd->kind(), "torusXD");
  expect_metric_properties(*xd);
}

TEST(Topology, TreeLeafDistancesAreCumulativeLinkCosts) {
  const auto t = load_topology("tleaf 3 4 100 4 10 4 1");
  EXPECT_EQ(t->size(), 64);
  EXPECT_EQ(t->distance(0, 1), 1);
  EXPECT_EQ(t->distance(0, 4), 11);
  EXPECT_EQ(t->distance(0, 16), 111);
  EXPECT_EQ(t->distance(17, 18), 1);
  EXPECT_EQ(t->distance(17, 21), 11);
  EXPECT_EQ(t->num_nodes(), 16);
  EXPECT_EQ(t->node_of(17), 4);
  expect_metric_properties(*t);
}

TEST(Topology, Tianhe3HopTableOfThePaper) {
  // 2x3 chips, 4 nodes per chip (2 per side), 2 cores per node.
  const auto t = load_topology("tianhe3:2x3,nodes=4,cores=2");
  auto pe = [](std::int64_t row, std::int64_t col, std::int64_t side, std::int64_t k, std::int64_t core) {
    const std::int64_t node = (row * 3 + col) * 4 + side * 2 + k;
    return node * 2 + core;
  };
  EXPECT_EQ(t->size(), 2 * 3 * 4 * 2);
  EXPECT_EQ(t->num_nodes(), 24);
  EXPECT_EQ(t->distance(pe(0, 0, 0, 0, 0), pe(0, 0, 0, 0, 1)), 0);  // same node
  EXPECT_EQ(t->distance(pe(0, 0, 0, 0, 0), pe(0, 0, 0, 1, 0)), 1);  // same chip, same side
  EXPECT_EQ(t->distance(pe(0, 0, 0, 0, 0), pe(0, 0, 1, 0, 0)), 2);  // same chip, other side
  EXPECT_EQ(t->distance(pe(0, 0, 0, 0, 0), pe(0, 2, 0, 1, 0)), 3);  // same row, same side
  EXPECT_EQ(t->distance(pe(0, 0, 0, 0, 0), pe(1, 0, 1, 1, 1)), 4);  // same column, other side
  EXPECT_EQ(t->distance(pe(0, 0, 0, 0, 0), pe(1, 1, 0, 0, 0)), 5);  // other row and column
  EXPECT_EQ(t->distance(pe(0, 2, 1, 1, 1), pe(1, 0, 0, 0, 0)), 6);
  EXPECT_EQ(t->node_of(pe(1, 2, 1, 1, 1)), 23);
  expect_metric_properties(*t);
}

TEST(Topology, Tianhe3FullSizeMachineCostsNothing) {
  const auto t = load_topology("tianhe3:32x32");
  EXPECT_EQ(t->num_nodes(), 98304);
  EXPECT_EQ(t->distance(0, 98303), 6);
  EXPECT_EQ(t->max_distance(), 6);
  EXPECT_EQ(t->description(), "tianhe3:32x32,nodes=96,cores=1");
}

// A row at a time equals pair by pair, in any order of the targets: on
// Tianhe-3 (once per chip half), meshes and tori (per-axis tables, counting
// along runs of consecutive PEs; odd lengths, an axis of length 1) and on
// kinds with the default.
TEST(Topology, DistanceRowsEqualPairwiseDistances) {
  for (const char* spec :
       {"tianhe3:2x3,nodes=8,cores=3", "tianhe3:2x2,nodes=6,cores=2", "tianhe3:1x1,nodes=4,cores=1", "torus3D 4 3 2",
        "torus3D 5 1 3", "torus2D 5 4", "mesh2D 5 3", "mesh3D 3 2 4", "tleaf 3 2 10 3 5 2 1"}) {
    SCOPED_TRACE(spec);
    const auto topology = tmap::load_topology(spec);
    std::vector<tmap::PE> all(static_cast<std::size_t>(topology->size()));
    for (tmap::PE p = 0; p < topology->size(); ++p) all[static_cast<std::size_t>(p)] = p;
    std::vector<tmap::PE> scrambled = all;
    for (std::size_t k = 0; k < scrambled.size(); ++k)
      std::swap(scrambled[k], scrambled[(k * 7 + 3) % scrambled.size()]);
    // Runs of consecutive PEs broken by gaps, then backwards.
    std::vector<tmap::PE> runs;
    for (tmap::PE p = 0; p < topology->size(); ++p) {
      if (p % 3 != 2) runs.push_back(p);
    }
    for (tmap::PE p = topology->size() - 1; p >= 0; p -= 2) runs.push_back(p);
    for (const auto* targets : {&all, &scrambled, &runs}) {
      std::vector<tmap::Distance> row(targets->size());
      for (const tmap::PE a : all) {
        topology->distances_from(a, *targets, row);
        for (std::size_t k = 0; k < targets->size(); ++k) {
          ASSERT_EQ(row[k], topology->distance(a, (*targets)[k])) << a << " -> " << (*targets)[k];
        }
      }
    }
  }
}

TEST(Topology, Tianhe3SpecErrors) {
  for (const char* spec : {"tianhe3:", "tianhe3:4", "tianhe3:0x4", "tianhe3:4x4,nodes=3", "tianhe3:4x4,cores=0",
                           "tianhe3:4x4,foo=1", "tianhe3:4x4,cores=2,cores=3", "tianhe3:axb"}) {
    EXPECT_THROW((void)load_topology(spec), tmap::InputError) << spec;
  }
}

TEST(Topology, AnyWhiteSpaceLayout) {
  const auto a = load_topology("tleaf 2 3 10 2 1");
  const auto b = tmap::parse_tgt("tleaf\n2\n  3\t10\n\n2 1\n", "x.tgt");
  EXPECT_EQ(all_distances(*a), all_distances(*b));
}

// Every row of the kind table (topology/kinds/table.cpp): its examples are
// read by that row and no other, and saved as a Scotch target they load
// back with the same distances (and save the same text again).
TEST(Topology, SaveLoadRoundTripEveryRowOfTheKindTable) {
  const auto dir = std::filesystem::temp_directory_path() / ("tmap_kinds_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::size_t rows = 0;
  for (const auto& row : tmap::topo::machine_kinds()) {
    SCOPED_TRACE(std::string(row.name));
    ASSERT_NE(row.examples, nullptr);
    const auto examples = row.examples();
#if TMAP_HAVE_HWLOC
    EXPECT_FALSE(examples.empty());
#endif
    ++rows;
    for (const auto& example : examples) {
      SCOPED_TRACE(example.name);
      tmap::MachineSpec spec{example.name, example.node, {}};
      if (!example.content.empty()) {
        spec.topology = (dir / example.name).string();
        std::ofstream(spec.topology) << example.content;
      }
      const tmap::topo::MachineKind* read_by = nullptr;
      auto input =
          example.content.empty() ? tmap::topo::input_of(spec.topology) : tmap::topo::MachineInput::file(spec.topology);
      input.nodes.node = example.node;
      const auto first = tmap::topo::read_machine(input, &read_by);
      ASSERT_EQ(read_by, &row);
      EXPECT_EQ(all_distances(*tmap::load_machine(spec)), all_distances(*first));
      const auto saved = scotch_target(*first);
      const auto second = tmap::parse_tgt(saved, "saved.tgt");
      EXPECT_EQ(all_distances(*first), all_distances(*second));
      EXPECT_EQ(scotch_target(*second), saved);
    }
  }
  EXPECT_EQ(rows, 12U);  // a new row is counted here and in docs/development.md
  std::filesystem::remove_all(dir);
}

TEST(Topology, LoadsFromFile) {
  const auto path = std::filesystem::temp_directory_path() / "tmap_test_topology.tgt";
  std::ofstream(path) << "mesh2D\n8 8\n";
  const auto t = load_topology(path.string());
  EXPECT_EQ(t->description(), "mesh2D 8 8");
  std::filesystem::remove(path);
}

TEST(Topology, ErrorsNameFileLineAndProblem) {
  const auto path = std::filesystem::temp_directory_path() / "tmap_test_bad.tgt";
  std::ofstream(path) << "mesh2D\n8 x\n";
  try {
    (void)load_topology(path.string());
    FAIL();
  } catch (const tmap::InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("expected an integer, found 'x'"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
  EXPECT_THROW((void)load_topology("mesh2D 8"), tmap::InputError);
  EXPECT_THROW((void)load_topology("mesh2D 8 8 8"), tmap::InputError);
  EXPECT_THROW((void)load_topology("mesh2D 0 8"), tmap::InputError);
  EXPECT_THROW((void)load_topology("hcub 41"), tmap::InputError);
  EXPECT_THROW((void)load_topology("tleaf 2 4 10"), tmap::InputError);
  EXPECT_THROW((void)load_topology("tleaf 1 4 -1"), tmap::InputError);
  EXPECT_THROW((void)load_topology("tleaf 2 4 10 4 0"), tmap::InputError);  // Scotch refuses 0 too
  EXPECT_THROW((void)load_topology("nosuch.tgt"), tmap::InputError);
  EXPECT_THROW((void)load_topology("   "), tmap::InputError);
  EXPECT_THROW((void)tmap::parse_tgt("varcmplt", "v.tgt"), tmap::InputError);
}

TEST(Topology, NodeUniformDistanceClaimsHold) {
  for (const char* spec : {"tianhe3:2x2,nodes=4,cores=3", "tleaf 3 2 30 3 4 4 2", "tleaf 2 3 5 1 1", "mesh2D 3 4",
                           "torus3D 2 3 2", "hcub 3", "cmplt 5"}) {
    const auto t = load_topology(spec);
    const auto intra = t->node_uniform_distance();
    ASSERT_TRUE(intra.has_value()) << spec;
    // First PE of each node stands for it.
    std::vector<tmap::PE> first(static_cast<std::size_t>(t->num_nodes()), -1);
    for (tmap::PE p = t->size(); p-- > 0;) first[t->node_of(p)] = p;
    for (tmap::PE a = 0; a < t->size(); ++a) {
      for (tmap::PE b = 0; b < t->size(); ++b) {
        if (a == b) continue;
        const auto na = t->node_of(a);
        const auto nb = t->node_of(b);
        const auto expected = na == nb ? *intra : t->distance(first[na], first[nb]);
        ASSERT_EQ(t->distance(a, b), expected) << spec << " PEs " << a << ", " << b;
      }
    }
  }
}

#include <cstdlib>

#include "topology/hwloc_tree.hpp"
#include "topology/tianhe3.hpp"

TEST(Topology, Deco0ReadsLabelsAndTheLowerTriangle) {
  // Terminals listed as labels 2, 0, 1; distances (2,0)=7 then (1,2)=4, (1,0)=9.
  const auto t = tmap::parse_tgt("deco 0 3 7\n2 1 4\n0 1 6\n1 1 7\n7\n4 9\n", "d.tgt");
  EXPECT_EQ(t->size(), 3);
  EXPECT_EQ(t->distance(2, 0), 7);
  EXPECT_EQ(t->distance(1, 2), 4);
  EXPECT_EQ(t->distance(0, 1), 9);
  EXPECT_EQ(t->max_distance(), 9);
}

TEST(Topology, Deco1FromScotchAmkGrfHasShortestPathDistances) {
  // amk_grf turns a graph into a compiled (deco 1) target; on a 3x2 grid its
  // distances are the grid's Manhattan distances.
  if (std::system("command -v amk_grf > /dev/null 2>&1") != 0) GTEST_SKIP() << "Scotch's amk_grf is not installed";
  const auto dir = std::filesystem::temp_directory_path();
  const auto graph = (dir / "tmap_amk.grf").string();
  const auto target = (dir / "tmap_amk.tgt").string();
  std::ofstream(graph) << "0\n6 14\n0 000\n2 1 3\n3 0 2 4\n2 1 5\n2 0 4\n3 1 3 5\n2 2 4\n";
  ASSERT_EQ(std::system(("amk_grf " + graph + " " + target).c_str()), 0);
  const auto deco = load_topology(target);
  EXPECT_EQ(deco->kind(), "deco");
  EXPECT_EQ(all_distances(*deco), all_distances(*load_topology("mesh2D 3 2")));
  std::filesystem::remove(graph);
  std::filesystem::remove(target);
}

TEST(Topology, Tianhe3DecoTargetEqualsTheBuiltInModel) {
  const auto spec = load_topology("tianhe3:2x3,nodes=4");
  const auto deco = tmap::parse_tgt(scotch_target(*spec), "tianhe3.tgt");
  EXPECT_EQ(all_distances(*deco), all_distances(*spec));
  // An allocation keeps whole-machine distances.
  const auto& model = dynamic_cast<const tmap::topo::Tianhe3Topology&>(*spec);
  const std::vector<tmap::NodeId> nodes{0, 3, 5, 17, 22};
  const auto sub = tmap::parse_tgt(model.deco_target(nodes), "alloc.tgt");
  for (tmap::PE a = 0; a < 5; ++a) {
    for (tmap::PE b = 0; b < 5; ++b) EXPECT_EQ(sub->distance(a, b), spec->distance(nodes[a], nodes[b]));
  }
  EXPECT_THROW((void)tmap::scotch_target(*load_topology("tianhe3:10x10")), tmap::ResourceError);  // 9600 nodes
}

TEST(Topology, DistFileLoadsValidatesAndSavesAsDeco) {
  const auto path = std::filesystem::temp_directory_path() / "tmap_test.dist";
  std::ofstream(path) << "3\n0 2 5\n2 0 1\n5 1 0\n";
  const auto t = load_topology(path.string());
  EXPECT_EQ(t->kind(), "dist");
  EXPECT_EQ(t->distance(0, 2), 5);
  EXPECT_EQ(t->max_distance(), 5);
  EXPECT_EQ(all_distances(*tmap::parse_tgt(scotch_target(*t), "saved.tgt")), all_distances(*t));
  std::ofstream(path) << "2\n0 0\n0 0\n";  // legal, but Scotch cannot hold a 0 distance
  EXPECT_THROW((void)tmap::scotch_target(*load_topology(path.string())), tmap::InputError);
  std::filesystem::remove(path);
}

TEST(Topology, HwlocSyntheticTreeDistances) {
  // Machine > Package > Group (x2) > L2 (x2) > Core (x2) > PU: 8 PUs.
  const tmap::topo::HwlocTreeTopology t("pack:1 numa:2 l2:2 core:2 pu:1", false);
  EXPECT_EQ(t.size(), 8);
  EXPECT_EQ(t.distance(0, 1), 4);  // PU-Core-L2-Core-PU
  EXPECT_EQ(t.distance(0, 2), 6);  // through the group
  EXPECT_EQ(t.distance(0, 4), 8);  // through the package
  EXPECT_EQ(t.max_distance(), 8);
  EXPECT_EQ(t.symmetric_arities(), (std::vector<std::int64_t>{2, 2, 2}));
  expect_metric_properties(t);
  // Its XML loads back to the same tree.
  const auto path = std::filesystem::temp_directory_path() / "tmap_test_node.xml";
  std::ofstream(path) << t.xml();
  EXPECT_EQ(all_distances(*load_topology(path.string())), all_distances(t));
  EXPECT_EQ(all_distances(*tmap::parse_tgt(scotch_target(t), "hw.tgt")), all_distances(t));
  std::filesystem::remove(path);
  EXPECT_THROW(tmap::topo::HwlocTreeTopology("pack:x", false), tmap::InputError);
}

#include <hwloc.h>

TEST(Topology, HwlocAsymmetricTreeFromRestrictedXml) {
  // "pack:2 core:2 pu:2" restricted to PUs {0, 1, 2, 4}: package 0 keeps a
  // core with 2 PUs and a core with 1; package 1 keeps one core with 1 PU.
  hwloc_topology_t topology;
  ASSERT_EQ(hwloc_topology_init(&topology), 0);
  ASSERT_EQ(hwloc_topology_set_synthetic(topology, "pack:2 core:2 pu:2"), 0);
  ASSERT_EQ(hwloc_topology_load(topology), 0);
  hwloc_bitmap_t keep = hwloc_bitmap_alloc();
  for (const unsigned pu : {0U, 1U, 2U, 4U}) hwloc_bitmap_set(keep, pu);
  ASSERT_EQ(hwloc_topology_restrict(topology, keep, 0), 0);
  const auto path = (std::filesystem::temp_directory_path() / "tmap_asym.xml").string();
  ASSERT_EQ(hwloc_topology_export_xml(topology, path.c_str(), 0), 0);
  hwloc_bitmap_free(keep);
  hwloc_topology_destroy(topology);

  const auto t = tmap::load_hwloc_xml(path);
  ASSERT_EQ(t->size(), 4);
  EXPECT_EQ(t->distance(0, 1), 2);  // hyper-threads of one core
  EXPECT_EQ(t->distance(0, 2), 4);  // two cores of package 0
  EXPECT_EQ(t->distance(0, 3), 6);  // across packages
  expect_metric_properties(*t);
  EXPECT_TRUE(dynamic_cast<const tmap::topo::HwlocTreeTopology&>(*t).symmetric_arities().empty());
  std::filesystem::remove(path);
}

// The kind table tells a file apart by its first word or character after
// any white space, blank lines included.
TEST(Topology, FilesAreToldApartAfterLeadingBlankLines) {
  const auto dist = tmap::parse_topology_file("\n\n  2\n0 7\n7 0\n", "matrix");
  EXPECT_EQ(dist->kind(), "dist");
  EXPECT_EQ(dist->distance(0, 1), 7);
  const auto tgt = tmap::parse_topology_file("\n\nmesh2D 2 3\n", "machine");
  EXPECT_EQ(tgt->kind(), "mesh2D");
  try {
    (void)tmap::parse_topology_file("\n\n7 7\n", "c.mat.txt");
    FAIL() << "a number first in a named file is no machine";
  } catch (const tmap::InputError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("this is not a machine"), std::string::npos) << e.what();
  }
}
