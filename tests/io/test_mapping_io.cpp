#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/io.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/report.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"

using tmap::MappingFormat;

namespace {
tmap::MappingReport sample_report() {
  tmap::MappingReport r;
  r.strategy = "inorder";
  r.topology = "mesh2D 2 2";
  r.num_pes = 4;
  r.metrics.hop_bytes = 42;
  r.metrics.avg_hops = 1.5;
  r.metrics.max_com = 8;
  r.metrics.total_bytes = 28;
  r.metrics.bytes_by_distance = {{1, 14}, {2, 14}};
  r.time_s = 0.25;
  return r;
}
}  // namespace

TEST(MappingIo, EveryFormatRoundTrips) {
  const tmap::Mapping m{3, 0, 2, 1};
  for (const auto format :
       {MappingFormat::Perm, MappingFormat::Json, MappingFormat::TopoMatch, MappingFormat::Scotch}) {
    const auto text = tmap::format_mapping(format, m, sample_report());
    EXPECT_EQ(tmap::parse_mapping(text, "m"), m) << text;
  }
}

TEST(MappingIo, ExactTextOfEachFormat) {
  const tmap::Mapping m{3, 0, 2};
  EXPECT_EQ(tmap::format_mapping(MappingFormat::Perm, m, sample_report()), "3\n0\n2\n");
  EXPECT_EQ(tmap::format_mapping(MappingFormat::TopoMatch, m, sample_report()), "TopoMatch: 3,0,2\n");
  EXPECT_EQ(tmap::format_mapping(MappingFormat::Scotch, m, sample_report()), "3\n0\t3\n1\t0\n2\t2\n");
}

TEST(MappingIo, JsonHasTheContractKeys) {
  const auto j = nlohmann::json::parse(tmap::format_mapping(MappingFormat::Json, tmap::Mapping{1, 0}, sample_report()));
  for (const char* key : {"strategy", "n", "pes", "hop_bytes", "avg_hops", "max_com", "time_s", "mapping"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["n"], 2);
  EXPECT_EQ(j["hop_bytes"], 42);
  EXPECT_EQ(j["bytes_by_distance"][1]["bytes"], 14);
}

TEST(MappingIo, ScotchMapWithBaseOneAndAnyOrder) {
  EXPECT_EQ(tmap::parse_mapping("3\n2 5\n1 4\n3 6\n", "m.map"), (tmap::Mapping{4, 5, 6}));
  EXPECT_EQ(tmap::parse_mapping("2\n1\t0\n0\t7\n", "m.map"), (tmap::Mapping{7, 0}));
}

TEST(MappingIo, BadMappings) {
  EXPECT_THROW((void)tmap::parse_mapping("", "m"), tmap::InputError);
  EXPECT_THROW((void)tmap::parse_mapping("1\n-2\n", "m"), tmap::InputError);
  EXPECT_THROW((void)tmap::parse_mapping("1 2\n3\n", "m"), tmap::InputError);
  EXPECT_THROW((void)tmap::parse_mapping("3\n0 1\n1 2\n", "m"), tmap::InputError);  // count mismatch
  EXPECT_THROW((void)tmap::parse_mapping("2\n0 1\n0 2\n", "m"), tmap::InputError);  // vertex twice
  EXPECT_THROW((void)tmap::parse_mapping("{\"mapping\": [1, \"a\"]}", "m"), tmap::InputError);
  EXPECT_THROW((void)tmap::parse_mapping("{\"map\": []}", "m"), tmap::InputError);
  EXPECT_THROW((void)tmap::parse_mapping("{oops", "m"), tmap::InputError);
}

TEST(MappingIo, PeListChecksRangeAndDuplicatesWithLines) {
  const auto path = (std::filesystem::temp_directory_path() / "tmap_test_pes.txt").string();
  std::ofstream(path) << "# allowed\n0 1 2\n5 # five\n";
  EXPECT_EQ(tmap::read_pe_list(path, 8), (std::vector<tmap::PE>{0, 1, 2, 5}));
  try {
    (void)tmap::read_pe_list(path, 4);
    FAIL();
  } catch (const tmap::InputError& e) {
    EXPECT_EQ(e.line(), 3);
  }
  std::ofstream(path) << "1\n2 1\n";
  try {
    (void)tmap::read_pe_list(path, 4);
    FAIL();
  } catch (const tmap::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":2: PE 1 is listed twice (first on line 1)"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(MappingIo, NodeRanges) {
  EXPECT_EQ(tmap::parse_node_ranges("0-2,7, 9-10"), (std::vector<tmap::NodeId>{0, 1, 2, 7, 9, 10}));
  EXPECT_THROW((void)tmap::parse_node_ranges("3-1"), tmap::InputError);
  EXPECT_THROW((void)tmap::parse_node_ranges("a-b"), tmap::InputError);
  EXPECT_THROW((void)tmap::parse_node_ranges(""), tmap::InputError);
}

TEST(MappingIo, AtomicWriteLeavesNoTemporaryAndReplaces) {
  const auto dir = std::filesystem::temp_directory_path() / "tmap_atomic_test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / "out.txt").string();
  tmap::write_file_atomically(path, "one\n");
  tmap::write_file_atomically(path, "two\n");
  EXPECT_EQ(tmap::read_file(path), "two\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{}), 1);
  EXPECT_THROW(tmap::write_file_atomically((dir / "missing" / "x").string(), "x"), tmap::ParameterError);
  std::filesystem::remove_all(dir);
}

// What a mapping costs, as every report shows it, on the chain worked by
// hand in tests/routing/test_objective.cpp (PEs in a row, 0->3 100 bytes,
// 1->2 50 bytes, in order): each PE is a node; the middle link carries 150.
TEST(MappingReport, DescribesAMappingWorkedByHand) {
  const auto topology = tmap::load_topology("mesh2D 4 1");
  const auto constraints = tmap::Constraints::all(*topology);
  const auto comm = tmap::CommMatrix::from_entries(4, {{0, 3, 100}, {1, 2, 50}});
  const tmap::Problem problem{comm, *topology, constraints};
  const std::vector<tmap::PE> in_order{0, 1, 2, 3};
  EXPECT_EQ(tmap::node_traffic(comm, *topology, in_order),
            (std::vector<std::pair<tmap::NodeId, tmap::Volume>>{{0, 100}, {1, 50}, {2, 50}, {3, 100}}));
  const auto bare = tmap::describe_mapping(problem, in_order, nullptr, "");
  EXPECT_EQ(bare.metrics.hop_bytes, 350);
  EXPECT_EQ(bare.num_pes, 4);
  EXPECT_EQ(bare.topology, topology->description());
  EXPECT_FALSE(bare.routes.has_value());
  EXPECT_FALSE(bare.predicted_time_s.has_value());
  const auto routing = tmap::make_routing(*topology);
  routing->set_bandwidths("dim0=2");
  const auto full = tmap::describe_mapping(problem, in_order, routing.get(), "dim0=2");
  ASSERT_TRUE(full.routes.has_value());
  EXPECT_DOUBLE_EQ(full.routes->mc, 75.0);
  // 0->3 alone: 3 hops x 0.5 us, then 100 bytes at 2 x 12.5 GB/s.
  EXPECT_DOUBLE_EQ(*full.predicted_time_s, 1.5e-6 + 100 / 25e9);
  EXPECT_EQ(full.node_traffic, bare.node_traffic);
}
