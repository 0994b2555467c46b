// Deveci et al.'s strategies (umpa-greedy, umpa-wh, umpa-mc): refinements
// that never worsen their own metric, and invariance to message direction.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "fixtures.hpp"
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

// Random instances on every routed kind, with allocations and oversubscription:
// umpa-wh never has more hop-bytes than umpa-greedy (its start), umpa-mc
// never more maximum congestion than umpa-wh (its start); and MC does drop.
TEST(Umpa, RefinementsNeverWorsenTheirOwnMetric) {
  const char* specs[] = {"torus2D 4 4",         "mesh3D 3 3 2",         "tianhe3:1x3,nodes=4,cores=2",
                         "tianhe3:2x2,nodes=4", "tleaf 3 2 50 4 5 4 1", "hcub 4"};
  int mc_dropped = 0;
  for (std::uint64_t seed = 0; seed < 24; ++seed) {
    const auto topology = tmap::load_topology(specs[seed % std::size(specs)]);
    tmap::detail::Random rng(seed, 33);
    const auto allowed = tmap::test::random_allowed_pes(*topology, rng, 4);
    const auto constraints = Constraints::allowed(*topology, allowed, 1 + static_cast<std::int64_t>(seed % 3 == 2));
    const auto n = static_cast<tmap::Rank>(constraints.num_slots() - static_cast<std::int64_t>(rng.below(3)));
    const auto comm = tmap::gen::random_sparse(n, 3, 1000, seed);
    const auto greedy = tmap::test::map_default("umpa-greedy", comm, *topology, constraints);
    const auto wh = tmap::test::map_default("umpa-wh", comm, *topology, constraints);
    const auto mc = tmap::test::map_default("umpa-mc", comm, *topology, constraints);
    EXPECT_LE(tmap::evaluate(comm, *topology, wh).hop_bytes, tmap::evaluate(comm, *topology, greedy).hop_bytes)
        << topology->description() << " seed " << seed;
    const auto routing = tmap::make_routing(*topology);
    const auto mc_wh = tmap::evaluate_routes(comm, *routing, wh).mc;
    const auto mc_mc = tmap::evaluate_routes(comm, *routing, mc).mc;
    EXPECT_LE(mc_mc, mc_wh) << topology->description() << " seed " << seed;
    mc_dropped += mc_mc < mc_wh ? 1 : 0;
  }
  EXPECT_GT(mc_dropped, 6);
}

// The paper's WH is undirected: the strategies read A + A^T, so A and its
// transpose get the same mapping, and TH and WH do not change either.
TEST(Umpa, MessageDirectionDoesNotMatter) {
  const auto topology = tmap::load_topology("tianhe3:2x2,nodes=4,cores=2");
  const auto comm = tmap::gen::random_sparse(30, 3, 1000, 4);
  std::vector<tmap::CommEntry> flipped;
  for (tmap::Rank i = 0; i < comm.num_ranks(); ++i) {
    for (std::size_t k = 0; k < comm.targets(i).size(); ++k) {
      flipped.push_back({comm.targets(i)[k], i, comm.volumes(i)[k]});
    }
  }
  const auto transposed = CommMatrix::from_entries(comm.num_ranks(), flipped);
  const auto constraints = Constraints::all(*topology);
  const auto routing = tmap::make_routing(*topology);
  for (const char* s : {"greedy", "rcm", "umpa-greedy", "umpa-wh"}) {
    const auto a = tmap::test::map_default(s, comm, *topology, constraints);
    EXPECT_EQ(a, tmap::test::map_default(s, transposed, *topology, constraints)) << s;
    const auto ra = tmap::evaluate_routes(comm, *routing, a);
    const auto rt = tmap::evaluate_routes(transposed, *routing, a);
    EXPECT_EQ(ra.th, rt.th);
    EXPECT_EQ(ra.wh, rt.wh);
  }
}

// On a distance-only target umpa-mc has no routes: it returns umpa-wh's mapping.
TEST(Umpa, CongestionRefinementNeedsARoutingModel) {
  const auto topology = tmap::load_topology("cmpltw 4 1 1 1 1");
  const auto comm = tmap::gen::random_sparse(4, 2, 100, 1);
  const auto constraints = Constraints::all(*topology);
  EXPECT_EQ(tmap::test::map_default("umpa-mc", comm, *topology, constraints),
            tmap::test::map_default("umpa-wh", comm, *topology, constraints));
}
