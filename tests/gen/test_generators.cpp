#include <gtest/gtest.h>

#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"

TEST(Generators, StencilEdgeCounts) {
  // 2D 5-point on 4x3: horizontal 3*3 + vertical 4*2 = 17 edges, both directions.
  const auto s5 = tmap::gen::stencil({4, 3}, 5, 10);
  EXPECT_EQ(s5.num_ranks(), 12);
  EXPECT_EQ(s5.num_entries(), 2 * 17);
  EXPECT_TRUE(s5.is_symmetric());
  EXPECT_EQ(s5.at(0, 1), 10);
  EXPECT_EQ(s5.at(0, 4), 10);
  EXPECT_EQ(s5.at(0, 5), 0);
  // 9-point adds 2 diagonals per cell square: 17 + 2*3*2 = 29.
  EXPECT_EQ(tmap::gen::stencil({4, 3}, 9, 10).num_entries(), 2 * 29);
  // 3D 7-point on 2x2x2: 12 edges; 27-point: all 28 pairs of the cube.
  EXPECT_EQ(tmap::gen::stencil({2, 2, 2}, 7, 1).num_entries(), 2 * 12);
  EXPECT_EQ(tmap::gen::stencil({2, 2, 2}, 27, 1).num_entries(), 2 * 28);
  // Periodic 4x4: every rank has exactly 4 neighbours.
  const auto torus = tmap::gen::stencil({4, 4}, 5, 1, true);
  for (tmap::Rank i = 0; i < 16; ++i) EXPECT_EQ(torus.targets(i).size(), 4U);
}

TEST(Generators, StencilRejectsBadArguments) {
  EXPECT_THROW((void)tmap::gen::stencil({4, 4}, 7, 1), tmap::InputError);
  EXPECT_THROW((void)tmap::gen::stencil({4}, 5, 1), tmap::InputError);
  EXPECT_THROW((void)tmap::gen::stencil({4, 0}, 5, 1), tmap::InputError);
}

TEST(Generators, RandomSparseIsSymmetricDeterministicWithAtLeastDegreePartners) {
  const auto a = tmap::gen::random_sparse(50, 3, 100, 9);
  EXPECT_TRUE(a.is_symmetric());
  EXPECT_EQ(a, tmap::gen::random_sparse(50, 3, 100, 9));
  EXPECT_NE(a, tmap::gen::random_sparse(50, 3, 100, 10));
  for (tmap::Rank i = 0; i < 50; ++i) EXPECT_GE(a.targets(i).size(), 3U);
  EXPECT_THROW((void)tmap::gen::random_sparse(3, 3, 100, 0), tmap::InputError);
}

TEST(Generators, ShuffleKeepsTrafficAndComposedMappingKeepsHopBytes) {
  const auto comm = tmap::gen::stencil({4, 4}, 5, 10);
  const auto shuffled = tmap::gen::shuffle_ranks(comm, 3);
  const auto pi = tmap::gen::shuffle_permutation(16, 3);
  EXPECT_EQ(shuffled.total_volume(), comm.total_volume());
  EXPECT_NE(shuffled, comm);
  for (tmap::Rank i = 0; i < 16; ++i) {
    for (tmap::Rank j = 0; j < 16; ++j) EXPECT_EQ(shuffled.at(pi[i], pi[j]), comm.at(i, j));
  }
  // Rank pi(i) of the shuffled job placed where rank i was: same hop-bytes.
  const auto t = tmap::load_topology("mesh2D 4 4");
  std::vector<tmap::PE> identity(16);
  std::vector<tmap::PE> moved(16);
  for (tmap::Rank i = 0; i < 16; ++i) {
    identity[i] = i;
    moved[pi[i]] = i;
  }
  EXPECT_EQ(tmap::evaluate(shuffled, *t, moved).hop_bytes, tmap::evaluate(comm, *t, identity).hop_bytes);
}

// The application patterns: partners as the codes have them.
TEST(AppPatterns, PartnersFollowEachCodesProcessGrid) {
  // BT/SP on 16 ranks (4 x 4 multi-partition): 6 distinct partners each,
  // the three successors and three predecessors of NPB's make_set.
  for (const char* name : {"bt", "sp"}) {
    const auto m = tmap::gen::app_pattern(name, 16, 'A');
    for (tmap::Rank r = 0; r < 16; ++r) EXPECT_EQ(m.targets(r).size(), 6U) << name << " " << r;
    EXPECT_TRUE(m.is_symmetric());
    EXPECT_GT(m.at(0, 1), 0);   // successor(1) of (0, 0) is (1, 0)
    EXPECT_GT(m.at(0, 4), 0);   // successor(2) is (0, 1)
    EXPECT_GT(m.at(0, 13), 0);  // successor(3) is (1, -1 mod 4) = rank 3 * 4 + 1
  }
  // CG on 32 ranks: 4 x 8 grid; 3 row exchanges + 1 transpose partner.
  const auto cg = tmap::gen::app_pattern("cg", 32, 'B');
  for (tmap::Rank r = 0; r < 32; ++r) EXPECT_LE(cg.targets(r).size(), 4U);
  EXPECT_GT(cg.at(0, 1), 0);
  EXPECT_GT(cg.at(0, 4), 0);
  // LU and the sweeps: a 2D grid (8 x 8: rank 0's neighbours 1 and 8) plus a
  // recursive-doubling all-reduce (partners 1, 2, 4, ..., 32).
  for (const char* name : {"lu", "sweep3d", "snap"}) {
    const auto m = tmap::gen::app_pattern(name, 64, 'C');
    std::vector<tmap::Rank> partners(m.targets(0).begin(), m.targets(0).end());
    EXPECT_EQ(partners, (std::vector<tmap::Rank>{1, 2, 4, 8, 16, 32})) << name;
    EXPECT_GT(m.at(0, 1), m.at(0, 2)) << name;  // the sweeps outweigh the reduction
  }
  // FT: all-to-all; MG: a periodic 3D grid of 4 x 4 x 4 (6 partners).
  EXPECT_EQ(tmap::gen::app_pattern("ft", 8, 'S').num_entries(), 8 * 7);
  const auto mg = tmap::gen::app_pattern("mg", 64, 'S');
  for (tmap::Rank r = 0; r < 64; ++r) EXPECT_EQ(mg.targets(r).size(), 6U);
  // Larger classes send more.
  EXPECT_GT(tmap::gen::app_pattern("cg", 16, 'D').total_volume(), tmap::gen::app_pattern("cg", 16, 'A').total_volume());
}

TEST(AppPatterns, RanksTheCodesCannotRunWithAreInputErrors) {
  EXPECT_THROW((void)tmap::gen::app_pattern("bt", 512), tmap::InputError);
  EXPECT_THROW((void)tmap::gen::app_pattern("cg", 48), tmap::InputError);
  EXPECT_THROW((void)tmap::gen::app_pattern("lu", 12), tmap::InputError);
  EXPECT_THROW((void)tmap::gen::app_pattern("cg", 64, 'Q'), tmap::InputError);
  EXPECT_THROW((void)tmap::gen::app_pattern("nas", 64), tmap::InputError);
}

// With phases, each application pattern is the same matrix, its phases in
// the order its proxy runs them summing to it: Sweep3D's and SNAP's 8
// octants, then an all-reduce's steps (one per power of two; a count that
// is not one folds in first and out last); CG's row exchanges then the
// transpose, 25 times each; LU's two sweeps, four halo turns, the norms.
TEST(AppPatterns, PhasesSumToThePatternInTheCodesOrder) {
  for (const auto& name : tmap::gen::app_patterns()) {
    for (const tmap::Rank ranks : {4, 16, 64, 256}) {
      const auto plain = tmap::gen::app_pattern(name, ranks, 'C');
      const auto phased = tmap::gen::app_pattern(name, ranks, 'C', true);
      EXPECT_TRUE(plain.phases().empty());
      ASSERT_FALSE(phased.phases().empty()) << name;
      std::vector<tmap::CommEntry> entries;
      for (const auto& phase : phased.phases()) {
        for (tmap::Rank i = 0; i < ranks; ++i) {
          for (std::size_t k = 0; k < phase.traffic.targets(i).size(); ++k) {
            entries.push_back({i, phase.traffic.targets(i)[k], phase.traffic.volumes(i)[k] * phase.repeat});
          }
        }
      }
      EXPECT_EQ(tmap::CommMatrix::from_entries(ranks, entries), plain) << name << " " << ranks;
    }
  }
  const auto phase_count = [](std::string_view name, tmap::Rank ranks) {
    return tmap::gen::app_pattern(name, ranks, 'D', true).phases().size();
  };
  EXPECT_EQ(phase_count("sweep3d", 256), 8U + 8U);
  EXPECT_EQ(phase_count("snap", 100), 8U + 2U + 6U);  // 64 of 100 reduce: fold in, 6 steps, fold out
  EXPECT_EQ(phase_count("cg", 256), 4U + 1U);         // 16 x 16: 4 row steps, the transpose
  EXPECT_EQ(phase_count("lu", 64), 2U + 4U + 6U);
  EXPECT_EQ(phase_count("bt", 64), 1U + 6U);
  const auto snap = tmap::gen::app_pattern("snap", 64, 'D', true);
  EXPECT_EQ(snap.phases()[0].repeat, 120);  // 30 groups x 4 chunks of planes
  EXPECT_EQ(snap.phases()[0].traffic.at(0, 1), 16 * 4 * 48 * 8);
  EXPECT_EQ(snap.phases()[0].traffic.at(1, 0), 0);  // octant 0 sweeps towards +x
  EXPECT_EQ(snap.phases()[1].traffic.at(1, 0), 16 * 4 * 48 * 8);
  EXPECT_EQ(snap.phases()[8].repeat, 5);  // 5 all-reduces of 30 groups x 1000 values
  EXPECT_EQ(snap.phases()[8].traffic.at(0, 1), 30 * 1000 * 8);
  // Renumbered, the phases follow.
  const auto shuffled = tmap::gen::shuffle_ranks(snap, 3);
  ASSERT_EQ(shuffled.phases().size(), snap.phases().size());
  const auto pi = tmap::gen::shuffle_permutation(64, 3);
  EXPECT_EQ(shuffled.phases()[0].traffic.at(pi[0], pi[1]), 16 * 4 * 48 * 8);
}
