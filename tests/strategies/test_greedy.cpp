// greedy (Hoefler and Snir's greedy mapping, one of the OHTMA paper's
// baselines): hand-worked traces and brute-forced optima.
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

// A path 0-1 (10 B), 1-2 (5 B), 2-3 (1 B) on a 2x2 mesh (a 4-cycle). Rank 1
// is heaviest (15 B) and starts on PE 0 (every PE is equally central). Rank 0
// (10 B to rank 1) is cheapest on PE 1 or PE 2 (1 hop): PE 1, the lower.
// Rank 2 then costs 5 on PE 2 and 10 on PE 3: PE 2; rank 3 takes PE 3. Every
// edge is 1 hop: hop-bytes 2 x 16 = 32, the optimum.
TEST(Greedy, HandTracedOnATwoByTwoMesh) {
  const auto topology = tmap::load_topology("mesh2D 2 2");
  const auto comm = CommMatrix::from_entries(4, {{0, 1, 10}, {1, 0, 10}, {1, 2, 5}, {2, 1, 5}, {2, 3, 1}, {3, 2, 1}});
  const auto mapping = tmap::test::map_default("greedy", comm, *topology, Constraints::all(*topology));
  EXPECT_EQ(mapping, (tmap::Mapping{1, 0, 2, 3}));
  EXPECT_EQ(tmap::evaluate(comm, *topology, mapping).hop_bytes, 32);
}

// Four heavy pairs and light traffic between them on a tree of four nodes
// with two cores: the optimum keeps each pair on a node, as greedy does.
TEST(Greedy, ReachesTheOptimumOfPairedRanksOnATree) {
  const auto topology = tmap::load_topology("tleaf 2 4 10 2 1");
  std::vector<tmap::CommEntry> entries;
  const tmap::Rank pairs[4][2] = {{0, 5}, {1, 6}, {2, 7}, {3, 4}};
  for (const auto& p : pairs) {
    entries.push_back({p[0], p[1], 100});
    entries.push_back({p[1], p[0], 100});
  }
  for (tmap::Rank i = 0; i < 8; ++i) entries.push_back({i, (i + 1) % 8, 1});
  const auto comm = CommMatrix::from_entries(8, entries);
  const auto optimum = tmap::test::brute_force_optimum(comm, *topology);
  for (const char* s : {"greedy", "umpa-greedy", "umpa-wh"}) {
    EXPECT_EQ(tmap::evaluate(comm, *topology, tmap::test::map_default(s, comm, *topology, Constraints::all(*topology)))
                  .hop_bytes,
              optimum)
        << s;
  }
}
