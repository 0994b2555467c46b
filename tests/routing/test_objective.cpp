// Objectives: the names table, scores worked by hand, the congestion score
// against the link metrics' independent loop, and refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

#include "routing/phased_time.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/machine.hpp"
#include "tmap/metrics.hpp"
#include "tmap/objective.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"

using tmap::CommMatrix;
using tmap::LinkId;
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

// The same chain with the traffic in phases: 0->3 and 3->0 100 bytes each,
// twice (an exchange: a round waits for the last), then 3->2 50 bytes once
// (rank 3 done with the exchange first). A mesh's link carries both
// directions:
//   in order: 2 x (3 hops + 200 bytes) + (1 hop + 50 bytes);
//   paired:   2 x (1 hop + 200 bytes) + (2 hops + 50 bytes).
// One round of their sum would let 3->2 share link 2-3 with the exchange
// at once (the exchange's 400 bytes after 3 hops). Congestion stays the links' bytes over the whole job (link 2-3:
// 400 + 50).
TEST(Objective, TimeRunsAPhasedTrafficsPhasesInOrder) {
  const auto topology = tmap::load_topology("mesh2D 4 1");
  const auto exchange = CommMatrix::from_entries(4, {{0, 3, 100}, {3, 0, 100}});
  const auto comm = CommMatrix::from_phases(4, {{exchange, 2}, {CommMatrix::from_entries(4, {{3, 2, 50}}), 1}});
  const std::vector<PE> in_order{0, 1, 2, 3};
  const std::vector<PE> paired{0, 2, 3, 1};
  const double hop = 0.5e-6;
  const double byte = 1 / 12.5e9;
  const ObjectiveMeter time(comm, *topology, Objective::Time);
  EXPECT_DOUBLE_EQ(time(in_order).value, 2 * (3 * hop + 200 * byte) + (hop + 50 * byte));
  EXPECT_DOUBLE_EQ(time(paired).value, 2 * (hop + 200 * byte) + (2 * hop + 50 * byte));
  EXPECT_EQ(time(in_order).hop_bytes, 2 * 200 * 3 + 50);
  const auto sum = CommMatrix::from_entries(4, {{0, 3, 200}, {3, 0, 200}, {3, 2, 50}});
  EXPECT_DOUBLE_EQ(ObjectiveMeter(sum, *topology, Objective::Time)(in_order).value, 3 * hop + 400 * byte);
  const ObjectiveMeter congestion(comm, *topology, Objective::Congestion);
  EXPECT_EQ(congestion(in_order), (tmap::ObjectiveScore{450.0, 1250}));
  // Ranks that take no part in a phase go on: 1->2 after the exchange
  // waits for nobody, and the job ends with the exchange.
  const auto apart = CommMatrix::from_phases(4, {{exchange, 2}, {CommMatrix::from_entries(4, {{1, 2, 50}}), 1}});
  EXPECT_DOUBLE_EQ(ObjectiveMeter(apart, *topology, Objective::Time)(in_order).value, 2 * (3 * hop + 200 * byte));
}

// Two exchanges in turn, 0<->1 then 1<->2, 1,000 bytes each way, on the
// chain of four PEs: rank 1 takes part in both, so they follow one
// another; with the second exchange 2<->3 instead, no rank waits for the
// other pair and the two take the time of one.
TEST(Objective, TimeOverlapsPhasesOfDifferentRanks) {
  const auto topology = tmap::load_topology("mesh2D 4 1");
  const double one = 0.5e-6 + 2000 / 12.5e9;  // a hop, both directions' bytes on the link
  const std::vector<PE> in_order{0, 1, 2, 3};
  const auto pair = [](tmap::Rank a, tmap::Rank b) {
    return CommMatrix::from_entries(4, {{a, b, 1000}, {b, a, 1000}});
  };
  const auto chained = CommMatrix::from_phases(4, {{pair(0, 1), 1}, {pair(1, 2), 1}});
  EXPECT_DOUBLE_EQ(ObjectiveMeter(chained, *topology, Objective::Time)(in_order).value, 2 * one);
  const auto apart = CommMatrix::from_phases(4, {{pair(0, 1), 1}, {pair(2, 3), 1}});
  EXPECT_DOUBLE_EQ(ObjectiveMeter(apart, *topology, Objective::Time)(in_order).value, one);
  // An exchange's rounds wait for each other: three rounds, three times one;
  // a million rounds (the format's most) a million times one, in the time
  // of a few (past the first rounds each group of ranks goes at its
  // slowest message's pace).
  const auto rounds = CommMatrix::from_phases(4, {{pair(0, 1), 3}});
  EXPECT_DOUBLE_EQ(ObjectiveMeter(rounds, *topology, Objective::Time)(in_order).value, 3 * one);
  const auto many = CommMatrix::from_phases(4, {{pair(0, 1), 1000000}, {pair(2, 3), 1000000}});
  EXPECT_NEAR(ObjectiveMeter(many, *topology, Objective::Time)(in_order).value, 1e6 * one, 1e-12 * 1e6 * one);
  // A ring 0->1->2->3->0 whose ranks start at different times (ranks 2
  // and 3 first held back by an exchange of 5,000 bytes): 100 rounds as
  // one phase are 100 phases of one round each, followed one by one.
  const auto ring = CommMatrix::from_entries(4, {{0, 1, 1000}, {1, 2, 1000}, {2, 3, 1000}, {3, 0, 1000}});
  const auto late = CommMatrix::from_entries(4, {{2, 3, 5000}, {3, 2, 5000}});
  std::vector<tmap::CommPhase> one_by_one{{late, 1}};
  for (int k = 0; k < 100; ++k) one_by_one.push_back({ring, 1});
  const auto hundred = CommMatrix::from_phases(4, {{late, 1}, {ring, 100}});
  const auto separate = CommMatrix::from_phases(4, one_by_one);
  EXPECT_NEAR(ObjectiveMeter(hundred, *topology, Objective::Time)(in_order).value,
              ObjectiveMeter(separate, *topology, Objective::Time)(in_order).value, 1e-15);
}

// A phase whose sends form no cycle is a pipeline (a sweep's wavefront:
// each rank sends a round once it received it): its rounds overlap. On the
// chain of four PEs, 0->1->2->3 with 240 bytes a step and 408 steps:
//   in order: the last step reaches rank 3 after the fill of three messages
//             alone (3 x (1 hop + 240 bytes)), the 407 other steps at the
//             pace of the busiest link (240 bytes);
//   {0, 2, 1, 3}: 1 and 2 swapped: 0->1 and 2->3 take two hops, and all
//             three messages cross link 1-2 (720 bytes a step: the pace).
// One after another the steps would take 408 x 3 x (1 hop + 240 bytes).
TEST(Objective, TimePipelinesAPhaseWhoseSendsFormNoCycle) {
  const auto topology = tmap::load_topology("mesh2D 4 1");
  const auto step = CommMatrix::from_entries(4, {{0, 1, 240}, {1, 2, 240}, {2, 3, 240}});
  const auto comm = CommMatrix::from_phases(4, {{step, 408}});
  const double hop = 0.5e-6;
  const double bytes = 240 / 12.5e9;
  const ObjectiveMeter time(comm, *topology, Objective::Time);
  EXPECT_DOUBLE_EQ(time(std::vector<PE>{0, 1, 2, 3}).value, 3 * (hop + bytes) + 407 * bytes);
  EXPECT_DOUBLE_EQ(time(std::vector<PE>{0, 2, 1, 3}).value,
                   (2 * hop + bytes) + (hop + bytes) + (2 * hop + bytes) + 407 * 3 * bytes);
  // Where a link carries more than the fill leaves time for, its bytes set
  // the pace: 0->3 of 10 MB a step, 4 steps, crosses every link (its first
  // byte arrives after the route's 3 hops).
  const auto heavy = CommMatrix::from_phases(4, {{CommMatrix::from_entries(4, {{0, 3, 10000000}}), 4}});
  EXPECT_DOUBLE_EQ(ObjectiveMeter(heavy, *topology, Objective::Time)(std::vector<PE>{0, 1, 2, 3}).value,
                   3 * hop + 4 * 10000000 / 12.5e9);
}

// The order a phase's ranks are taken in for a pipeline: every sender
// before the ranks it sends to; none where the sends form a cycle.
TEST(Objective, PipelineOrderIsUpstreamFirstAndNoneForACycle) {
  const auto wave = CommMatrix::from_entries(4, {{2, 3, 1}, {0, 2, 1}, {1, 3, 1}, {0, 1, 1}});
  const auto order = tmap::detail::upstream_first(wave);
  ASSERT_EQ(order.size(), 4U);
  const auto at = [&](tmap::Rank r) { return std::ranges::find(order, r) - order.begin(); };
  EXPECT_LT(at(0), at(1));
  EXPECT_LT(at(0), at(2));
  EXPECT_LT(at(1), at(3));
  EXPECT_LT(at(2), at(3));
  EXPECT_TRUE(tmap::detail::upstream_first(CommMatrix::from_entries(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}})).empty());
  EXPECT_TRUE(tmap::detail::upstream_first(CommMatrix::from_entries(3, {})).empty());
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

// The predicted time of one round, recomputed here link by link from the
// routing model alone: each message's latency (its hops, each link's
// link_hops) and its bytes at its narrowest link; each link busy from its
// first message's arrival until its bytes passed. Machines whose links count
// one hop each and share one bandwidth, and machines where they do not
// (Tianhe-3's links count several hops; --link-bw gives dim0 twice the bandwidth).
class TimeIsTheFlowBoundLinkByLink : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(TimeIsTheFlowBoundLinkByLink, OnRandomMappings) {
  const auto [spec, bandwidths] = GetParam();
  const auto topology = tmap::load_topology(spec);
  auto routing = tmap::make_routing(*topology);
  ASSERT_NE(routing, nullptr);
  if (*bandwidths != 0) routing->set_bandwidths(bandwidths);
  const tmap::TimeModel model;
  const auto n = static_cast<tmap::Rank>(std::min<PE>(topology->size(), 40));
  std::mt19937_64 rng(11);
  // Four messages a rank (a busiest link decides: each message's own
  // latency and narrowest link are checked against the model's too), or one
  // a rank, of a byte but rank 0's.
  const tmap::BottleneckModel bottleneck(*topology, *routing, Objective::Time, model);
  for (const int sends : {4, 1}) {
    std::vector<tmap::CommEntry> entries;
    for (tmap::Rank i = 0; i < n; ++i) {
      for (int k = 0; k < sends; ++k) {
        const auto j = static_cast<tmap::Rank>(rng() % static_cast<std::uint64_t>(n));
        const auto volume = sends == 1 ? (i == 0 ? tmap::Volume{100000} : tmap::Volume{1})
                                       : static_cast<tmap::Volume>(1 + rng() % 100000);
        if (j != i) entries.push_back({i, j, volume});
      }
    }
    const auto comm = CommMatrix::from_entries(n, entries);
    const ObjectiveMeter meter(comm, *topology, Objective::Time, bandwidths);
    std::vector<PE> pes(static_cast<std::size_t>(topology->size()));
    std::iota(pes.begin(), pes.end(), 0);
    for (int trial = 0; trial < 5; ++trial) {
      std::shuffle(pes.begin(), pes.end(), rng);
      const std::vector<PE> mapping(pes.begin(), pes.begin() + n);
      std::vector<double> bytes(static_cast<std::size_t>(routing->num_links()), 0.0);
      std::vector<double> first(bytes.size(), std::numeric_limits<double>::infinity());
      double slowest = 0.0;
      for (tmap::Rank i = 0; i < n; ++i) {
        for (std::size_t e = 0; e < comm.targets(i).size(); ++e) {
          const PE a = mapping[static_cast<std::size_t>(i)];
          const PE b = mapping[static_cast<std::size_t>(comm.targets(i)[e])];
          const auto volume = static_cast<double>(comm.volumes(i)[e]);
          std::vector<LinkId> links;
          if (a != b) routing->route(a, b, links);
          ASSERT_FALSE(links.empty()) << "one PE a node here: every message crosses a link";
          tmap::Distance hops = routing->source_hops(a) + routing->destination_hops(b);
          double narrowest = std::numeric_limits<double>::infinity();
          for (const auto l : links) {
            hops += routing->link_hops(l);
            narrowest = std::min(narrowest, model.bandwidth * routing->bandwidth(l));
          }
          const double latency = model.latency * static_cast<double>(hops);
          std::vector<LinkId> resources;
          bottleneck.resources(a, b, resources);
          ASSERT_EQ(resources, links);
          EXPECT_DOUBLE_EQ(bottleneck.latency(a, b, resources), latency);
          EXPECT_DOUBLE_EQ(bottleneck.narrowest(resources), narrowest);
          for (const auto l : links) {
            bytes[static_cast<std::size_t>(l)] += volume;
            first[static_cast<std::size_t>(l)] = std::min(first[static_cast<std::size_t>(l)], latency);
          }
          slowest = std::max(slowest, latency + volume / narrowest);
        }
      }
      double busiest = 0.0;
      for (LinkId l = 0; l < routing->num_links(); ++l) {
        const auto k = static_cast<std::size_t>(l);
        if (bytes[k] > 0) busiest = std::max(busiest, first[k] + bytes[k] / (model.bandwidth * routing->bandwidth(l)));
      }
      EXPECT_DOUBLE_EQ(meter(mapping).value, std::max(busiest, slowest)) << spec << " " << bandwidths;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Objective, TimeIsTheFlowBoundLinkByLink,
                         ::testing::Values(std::pair{"torus3D 4 3 5", ""}, std::pair{"torus3D 4 3 5", "dim0=2"},
                                           std::pair{"mesh2D 7 6", ""}, std::pair{"tianhe3:2x2,nodes=4", ""},
                                           std::pair{"tleaf 3 2 10 3 5 4 1", ""},
                                           std::pair{"fattree:2;4,2;1,2;1,1", ""}));

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
