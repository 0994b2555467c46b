// Objectives: the names table, scores worked by hand, the congestion score
// against the link metrics' independent loop, and refusals.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/machine.hpp"
#include "tmap/metrics.hpp"
#include "tmap/objective.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"

using tmap::CommMatrix;
using tmap::Objective;
using tmap::ObjectiveMeter;
using tmap::PE;

TEST(Objective, NamesComeFromOneTable) {
  EXPECT_EQ(tmap::objective_names(), (std::vector<std::string>{"hop-bytes", "congestion", "time"}));
  for (const auto& name : tmap::objective_names()) {
    EXPECT_EQ(tmap::objective_name(tmap::objective_from_name(name)), name);
  }
  try {
    (void)tmap::objective_from_name("latency");
    FAIL() << "no error";
  } catch (const tmap::ParameterError& e) {
    EXPECT_STREQ(e.what(), "unknown objective 'latency' (known: hop-bytes, congestion, time)");
  }
}

// A chain of four PEs (mesh2D 4 1: links 0-1, 1-2, 2-3), 0->3 100 bytes and
// 1->2 50 bytes.
//   in order:      0->3 crosses all three links, 1->2 the middle one: the
//                  middle link carries 150; hop-bytes 100x3 + 50x1 = 350.
//   {0, 2, 3, 1}:  rank 3 next to rank 0 (link 0-1: 100), ranks 1 and 2 on
//                  PEs 2 and 3 (link 2-3: 50): busiest 100, hop-bytes 150.
TEST(Objective, ScoresWorkedByHandOnAChain) {
  const auto topology = tmap::load_topology("mesh2D 4 1");
  const auto comm = CommMatrix::from_entries(4, {{0, 3, 100}, {1, 2, 50}});
  const std::vector<PE> in_order{0, 1, 2, 3};
  const std::vector<PE> paired{0, 2, 3, 1};

  const ObjectiveMeter hop_bytes(comm, *topology, Objective::HopBytes);
  EXPECT_EQ(hop_bytes(in_order), (tmap::ObjectiveScore{350.0, 350}));
  EXPECT_EQ(hop_bytes.bottleneck(), nullptr);

  const ObjectiveMeter congestion(comm, *topology, Objective::Congestion);
  EXPECT_EQ(congestion(in_order), (tmap::ObjectiveScore{150.0, 350}));
  EXPECT_EQ(congestion(paired), (tmap::ObjectiveScore{100.0, 150}));
  // Links twice as fast halve it.
  const ObjectiveMeter fast(comm, *topology, Objective::Congestion, "dim0=2");
  EXPECT_DOUBLE_EQ(fast(in_order).value, 75.0);

  // Time at 12.5 GB/s and 0.5 us a hop: in order, 0->3 alone takes 3 hops
  // then 100 bytes (1.508 us), later than the middle link, busy from 1->2's
  // arrival after one hop until its 150 bytes passed (0.512 us); paired,
  // link 0-1 from 0.5 us for 100 bytes.
  const ObjectiveMeter time(comm, *topology, Objective::Time);
  EXPECT_DOUBLE_EQ(time(in_order).value, 3 * 0.5e-6 + 100 / 12.5e9);
  EXPECT_DOUBLE_EQ(time(paired).value, 0.5e-6 + 100 / 12.5e9);
  EXPECT_LT(time(paired), time(in_order));
  // Ties of the value go by hop-bytes.
  EXPECT_LT((tmap::ObjectiveScore{1.0, 5}), (tmap::ObjectiveScore{1.0, 6}));
  EXPECT_FALSE((tmap::ObjectiveScore{1.0, 6}) < (tmap::ObjectiveScore{1.0, 6}));
}

// The same chain with the traffic in phases: 0->3 100 bytes twice, then
// 1->2 50 bytes once. Time runs the phases one after another; one round of
// their sum would let 1->2 share the middle link with 0->3 at once.
//   in order: 2 x (3 hops + 100 bytes) + (1 hop + 50 bytes);
//   paired:   2 x (1 hop + 100 bytes) + (1 hop + 50 bytes).
// Congestion stays the links' bytes over the whole job (middle link 250).
TEST(Objective, TimeRunsAPhasedTrafficsPhasesOneAfterAnother) {
  const auto topology = tmap::load_topology("mesh2D 4 1");
  const auto comm = CommMatrix::from_phases(
      4, {{CommMatrix::from_entries(4, {{0, 3, 100}}), 2}, {CommMatrix::from_entries(4, {{1, 2, 50}}), 1}});
  const std::vector<PE> in_order{0, 1, 2, 3};
  const std::vector<PE> paired{0, 2, 3, 1};
  const double hop = 0.5e-6;
  const double bandwidth = 12.5e9;
  const ObjectiveMeter time(comm, *topology, Objective::Time);
  EXPECT_DOUBLE_EQ(time(in_order).value, 2 * (3 * hop + 100 / bandwidth) + (hop + 50 / bandwidth));
  EXPECT_DOUBLE_EQ(time(paired).value, 2 * (hop + 100 / bandwidth) + (hop + 50 / bandwidth));
  EXPECT_EQ(time(in_order).hop_bytes, 200 * 3 + 50);
  // Without its phases the sum is one round: 0->3's 200 bytes after 3 hops.
  const auto sum = CommMatrix::from_entries(4, {{0, 3, 200}, {1, 2, 50}});
  EXPECT_DOUBLE_EQ(ObjectiveMeter(sum, *topology, Objective::Time)(in_order).value, 3 * hop + 200 / bandwidth);
  const ObjectiveMeter congestion(comm, *topology, Objective::Congestion);
  EXPECT_EQ(congestion(in_order), (tmap::ObjectiveScore{250.0, 650}));
}

// On every machine kind with routes: a phased traffic's time is the sum of
// each phase's own time (a meter of that phase alone) times its repeats.
TEST(Objective, PhasedTimeIsEachPhaseAloneTimesItsRepeats) {
  std::mt19937_64 rng(11);
  for (const char* machine : {"mesh2D 4 3", "torus3D 3 3 3", "tianhe3:2x2,nodes=4,cores=2", "tleaf 3 2 10 3 5 4 1"}) {
    const auto topology = tmap::load_topology(machine);
    const auto n = static_cast<tmap::Rank>(std::min<PE>(topology->size(), 24));
    std::vector<tmap::CommPhase> phases;
    for (int p = 0; p < 3; ++p) {
      std::vector<tmap::CommEntry> entries;
      for (tmap::Rank i = 0; i < n; ++i) {
        const auto j = static_cast<tmap::Rank>(rng() % static_cast<std::uint64_t>(n));
        entries.push_back({i, j, static_cast<tmap::Volume>(1 + rng() % 100000)});
      }
      phases.push_back({CommMatrix::from_entries(n, entries), p + 1});
    }
    const auto comm = CommMatrix::from_phases(n, phases);
    const ObjectiveMeter meter(comm, *topology, Objective::Time);
    std::vector<PE> pes(static_cast<std::size_t>(topology->size()));
    std::iota(pes.begin(), pes.end(), 0);
    std::shuffle(pes.begin(), pes.end(), rng);
    const std::vector<PE> mapping(pes.begin(), pes.begin() + n);
    double expected = 0.0;
    for (const auto& phase : phases) {
      expected +=
          static_cast<double>(phase.repeat) * ObjectiveMeter(phase.traffic, *topology, Objective::Time)(mapping).value;
    }
    EXPECT_DOUBLE_EQ(meter(mapping).value, expected) << machine;
    EXPECT_EQ(meter(mapping).hop_bytes, tmap::evaluate(comm, *topology, mapping).hop_bytes) << machine;
  }
}

// Two cores of one Tianhe-3 node are joined by no link: their bytes load the
// node's memory (50 GB/s, 0.2 us) in time, and nothing in congestion.
TEST(Objective, TimeCountsANodesMemoryWhereNoLinkJoinsTwoPes) {
  const auto topology = tmap::load_topology("tianhe3:1x1,nodes=2,cores=2");
  const auto comm = CommMatrix::from_entries(2, {{0, 1, 1000000}});
  const std::vector<PE> same_node{0, 1};
  const ObjectiveMeter time(comm, *topology, Objective::Time);
  EXPECT_DOUBLE_EQ(time(same_node).value, 1e6 / 50e9 + 0.2e-6);
  const ObjectiveMeter congestion(comm, *topology, Objective::Congestion);
  EXPECT_DOUBLE_EQ(congestion(same_node).value, 0.0);
  // On two nodes: the message takes the links, one hop each way up and across.
  const std::vector<PE> two_nodes{0, 2};
  const auto hops = topology->distance(0, 2);
  EXPECT_DOUBLE_EQ(time(two_nodes).value, 1e6 / 12.5e9 + static_cast<double>(hops) * 0.5e-6);
  EXPECT_DOUBLE_EQ(congestion(two_nodes).value, 1e6);
}

// The congestion score is the link metrics' MC (evaluate_routes, its own
// loop over messages), and its hop-bytes the metrics', on every machine kind
// with routes and random mappings.
class CongestionIsTheLinkMetricsMc : public ::testing::TestWithParam<const char*> {};

TEST_P(CongestionIsTheLinkMetricsMc, OnRandomMappings) {
  const auto topology = tmap::load_topology(GetParam());
  const auto routing = tmap::make_routing(*topology);
  ASSERT_NE(routing, nullptr);
  const auto n = static_cast<tmap::Rank>(std::min<PE>(topology->size(), 24));
  std::mt19937_64 rng(7);
  std::vector<tmap::CommEntry> entries;
  for (tmap::Rank i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      const auto j = static_cast<tmap::Rank>(rng() % static_cast<std::uint64_t>(n));
      if (j != i) entries.push_back({i, j, static_cast<tmap::Volume>(1 + rng() % 1000)});
    }
  }
  const auto comm = CommMatrix::from_entries(n, entries);
  const ObjectiveMeter meter(comm, *topology, Objective::Congestion);
  std::vector<PE> pes(static_cast<std::size_t>(topology->size()));
  std::iota(pes.begin(), pes.end(), 0);
  for (int trial = 0; trial < 5; ++trial) {
    std::shuffle(pes.begin(), pes.end(), rng);
    const std::vector<PE> mapping(pes.begin(), pes.begin() + n);
    const auto routes = tmap::evaluate_routes(comm, *routing, mapping);
    EXPECT_DOUBLE_EQ(meter(mapping).value, routes.mc) << GetParam();
    EXPECT_EQ(meter(mapping).hop_bytes, tmap::evaluate(comm, *topology, mapping).hop_bytes);
  }
}

INSTANTIATE_TEST_SUITE_P(Objective, CongestionIsTheLinkMetricsMc,
                         ::testing::Values("mesh2D 4 3", "torus3D 3 3 3", "hcub 4", "tianhe3:2x2,nodes=4,cores=2",
                                           "tleaf 3 2 10 3 5 4 1", "fattree:2;4,2;1,2;1,1"));

TEST(Objective, BottleneckObjectivesNeedAMachineWithRoutes) {
  const auto topology = tmap::load_topology("cmpltw 3 1 2 3");
  const auto comm = CommMatrix::from_entries(3, {{0, 1, 5}});
  EXPECT_NO_THROW(ObjectiveMeter(comm, *topology, Objective::HopBytes));
  try {
    const ObjectiveMeter meter(comm, *topology, Objective::Congestion);
    FAIL() << "no error";
  } catch (const tmap::ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("objective congestion: a cmpltw machine has no routes"), std::string::npos)
        << e.what();
  }
  // A link kind the machine lacks is named.
  const auto mesh = tmap::load_topology("mesh2D 2 2");
  EXPECT_THROW(ObjectiveMeter(comm, *mesh, Objective::Time, "row=2"), tmap::InputError);
}
