// Cray MPICH's rank order (--format rank-order, MPICH_RANK_ORDER): the
// syntax HPE documents (comma lists, ranges first-last, `#` comments, line
// breaks between values), written node by node, read back against the
// machine as Cray MPICH places it, and refused where it cannot say the
// mapping (nodes loaded unequally) or does not list each rank once.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "tmap/error.hpp"
#include "tmap/io.hpp"
#include "tmap/launch.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapping.hpp"
#include "tmap/report.hpp"
#include "tmap/topology.hpp"

namespace {

using tmap::Mapping;
using tmap::MappingFormat;
using tmap::PE;

/// 4 nodes of 4 PEs (cn0..cn3).
std::unique_ptr<tmap::Topology> four_nodes() {
  return tmap::load_machine({.topology = "tleaf 2 4 10 4 1", .node = "", .host_names = {}});
}

std::string written(const tmap::Topology& t, const Mapping& m) {
  return tmap::format_launch_file(
      MappingFormat::RankOrder, m, [&](PE p) { return "cn" + std::to_string(t.node_of(p)); }, nullptr, "");
}

class RankOrderFile : public ::testing::Test {
 protected:
  void TearDown() override { std::filesystem::remove(path_); }
  Mapping read(const std::string& text, const tmap::Topology& t) {
    std::ofstream(path_) << text;
    return tmap::read_mapping(path_, t, tmap::Constraints::all(t));
  }
  std::string refused(const std::string& text, const tmap::Topology& t) {
    try {
      (void)read(text, t);
    } catch (const tmap::InputError& e) {
      return e.what();
    }
    return "(accepted)";
  }
  // A file of each test's own: ctest runs the cases as processes side by side.
  std::string path_ =
      (std::filesystem::temp_directory_path() /
       ("tmap_rank_order_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".txt"))
          .string();
};

// Written node by node in the PEs' order, ranges for runs of three, every
// line a comment or a list HPE's syntax allows.
TEST_F(RankOrderFile, WrittenInHpesSyntaxNodeByNode) {
  const auto t = four_nodes();
  // Ranks 0-3 on cn2 (PEs 8-11 in order), 4..7 on cn0 backwards, 8-15 spread over cn1 and cn3.
  const Mapping m{8, 9, 10, 11, 3, 2, 1, 0, 4, 12, 5, 13, 6, 14, 7, 15};
  const auto text = written(*t, m);
  EXPECT_EQ(text,
            "# MPICH_RANK_ORDER written by tmap: 16 ranks, 4 on each of 4 nodes (launch with 4 ranks per node)\n"
            "# Cray MPICH: MPICH_RANK_REORDER_METHOD=3, this file named MPICH_RANK_ORDER in the run's folder\n"
            "# tmap ranks-per-node=4\n"
            "# cn0\n7,6,5,4\n"
            "# cn1\n8,10,12,14\n"
            "# cn2\n0-3\n"
            "# cn3\n9,11,13,15\n");
  const std::regex list(R"(([0-9]+(-[0-9]+)?)(,[0-9]+(-[0-9]+)?)*)");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_TRUE(line.starts_with("#") || std::regex_match(line, list)) << line;
  }
}

// Read back as Cray MPICH places it, the mapping is the one written (full
// nodes, and nodes of 3 ranks with tmap's ranks-per-node line).
TEST_F(RankOrderFile, RoundTrips) {
  const auto t = four_nodes();
  const Mapping full{8, 9, 10, 11, 3, 2, 1, 0, 4, 12, 5, 13, 6, 14, 7, 15};
  EXPECT_EQ(read(written(*t, full), *t), full);
  const Mapping three_a_node{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14};
  EXPECT_EQ(read(written(*t, three_a_node), *t), three_a_node);
}

// A file as HPE's grid_order or CrayPat writes it: no tmap header, ranges,
// comments, values over several lines; Cray fills each node in turn.
TEST_F(RankOrderFile, ReadsOtherToolsFiles) {
  const auto t = four_nodes();
  const auto m = read("# grid_order -R -g 4,4 -c 2,2\n0,1,4,5,2,3,6,7\n8-9,12-13   # a comment\n10,11,\n14,15\n", *t);
  EXPECT_EQ(m, (Mapping{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}));
  // One rank a line with the header: not taken for a perm.
  const auto per_line = read("# MPICH_RANK_ORDER\n1\n0\n", *t);
  EXPECT_EQ(per_line, (Mapping{1, 0}));
}

TEST_F(RankOrderFile, RefusedWithTheLine) {
  const auto t = four_nodes();
  EXPECT_NE(refused("0-3\n2,4\n", *t).find(":2: rank 2 is listed twice (also line 1)"), std::string::npos)
      << refused("0-3\n2,4\n", *t);
  EXPECT_NE(refused("0,1\n5\n", *t).find(":2: rank 5 but the file lists 3 ranks"), std::string::npos);
  EXPECT_NE(refused("0,3-1\n", *t).find("runs backwards"), std::string::npos);
  EXPECT_NE(refused("0,x\n", *t).find(":1:"), std::string::npos);
  EXPECT_NE(refused("0-16\n", *t).find("17 ranks, but the job's nodes hold 16"), std::string::npos)
      << refused("0-16\n", *t);
  EXPECT_NE(refused("# tmap ranks-per-node=5\n0-4\n", *t).find("5 ranks per node, but node cn0 has 4"),
            std::string::npos)
      << refused("# tmap ranks-per-node=5\n0-4\n", *t);
  // Without the machine, a rank order names no PE.
  EXPECT_THROW((void)tmap::parse_mapping("0,1,2\n", "m"), tmap::InputError);
}

// Cray MPICH gives every node as many ranks: a mapping that loads nodes
// unequally is refused, naming two nodes.
TEST(RankOrder, UnequalNodesAreRefused) {
  const auto t = four_nodes();
  try {
    (void)written(*t, Mapping{0, 1, 2, 4});
    FAIL() << "accepted";
  } catch (const tmap::ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("puts 3 on cn0 and 1 on cn1"), std::string::npos) << e.what();
  }
}

}  // namespace
