// rcm (reverse Cuthill-McKee orders of traffic and machine, matched; a
// baseline of the OHTMA paper): orders and placements worked by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "fixtures.hpp"
#include "strategies/rcm/rcm.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"
#include "util/random.hpp"

using tmap::CommMatrix;
using tmap::Constraints;
using tmap::Context;
using tmap::Problem;

namespace {

/// A path 0-1-...-(n-1) with the ranks renumbered by `perm`.
CommMatrix shuffled_path(tmap::Rank n, const std::vector<tmap::Rank>& perm, tmap::Volume volume) {
  std::vector<tmap::CommEntry> entries;
  for (tmap::Rank i = 0; i + 1 < n; ++i) {
    entries.push_back({perm[i], perm[i + 1], volume});
    entries.push_back({perm[i + 1], perm[i], volume});
  }
  return CommMatrix::from_entries(n, std::move(entries));
}

}  // namespace

TEST(Rcm, OrdersAShuffledPathAlongThePath) {
  const auto perm = tmap::gen::shuffle_permutation(40, 5);
  const auto sym = shuffled_path(40, perm, 1);
  const auto order = tmap::strategies::rcm_order(sym);
  ASSERT_EQ(order.size(), 40U);
  for (std::size_t k = 0; k + 1 < order.size(); ++k) EXPECT_GT(sym.at(order[k], order[k + 1]), 0) << k;
}

// A shuffled path onto a line: RCM finds the bandwidth-1 orders of both, so
// every path edge is one hop (the optimum). (On a ring RCM's order leaves
// the ring's vertices alternating around it: bandwidth 2 as an order, far
// from 1 hop as a placement. That is the baseline as published.)
TEST(Rcm, MapsAShuffledPathOntoALineOptimally) {
  const auto perm = tmap::gen::shuffle_permutation(12, 9);
  const auto comm = shuffled_path(12, perm, 7);
  for (const char* spec : {"mesh2D 12 1", "mesh2D 3 4"}) {
    const auto topology = tmap::load_topology(spec);
    const auto mapping = tmap::test::map_default("rcm", comm, *topology, Constraints::all(*topology));
    if (std::string(spec) == "mesh2D 3 4") {
      // A 3x4 grid's RCM order snakes diagonally, worked by hand (PE = x + 3y;
      // degrees 2 at corners, 4 inside): George-Liu from PE 0 ends at root
      // 11; Cuthill-McKee from 11 with neighbours by (degree, id) visits
      // 11 8 10 5 7 9 2 4 6 1 3 0, reversed 0 3 1 6 4 2 9 7 5 10 8 11, whose
      // steps are 1 2 3 2 2 5 2 2 3 2 1 = 25 hops. The path follows it: 25
      // hops x 7 B x 2 directions.
      EXPECT_EQ(tmap::evaluate(comm, *topology, mapping).hop_bytes, 25 * 7 * 2);
    } else {
      EXPECT_EQ(tmap::evaluate(comm, *topology, mapping).hop_bytes, 2 * 11 * 7) << spec;
    }
  }
}

// A small job on a whole large machine (6144 nodes): rcm orders only the
// first nodes holding 4x the ranks, so it stays in that corner and quick.
TEST(Rcm, SmallJobOnALargeMachineStaysInACompactCorner) {
  const auto topology = tmap::load_topology("tianhe3:8x8");
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 8}, 5, 100), 3);
  const auto mapping = tmap::test::map_default("rcm", comm, *topology, Constraints::all(*topology));
  for (const auto pe : mapping) EXPECT_LT(pe, 4 * 64);
  tmap::validate_mapping(mapping, 64, Constraints::all(*topology));
}
