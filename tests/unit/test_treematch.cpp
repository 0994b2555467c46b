// treematch: known optima, order invariance, validity everywhere, the
// fallback on machines that are not trees, and the exact-size bisection.
#include <gtest/gtest.h>

#include "strategies/treematch/bisection.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/generators.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "util/random.hpp"

using tmap::Constraints;
using tmap::Context;
using tmap::PE;
using tmap::Problem;

namespace {

std::int64_t hop_bytes(const char* strategy, const tmap::CommMatrix& comm, const tmap::Topology& topology,
                       const Constraints& constraints) {
  return tmap::evaluate(comm, topology, tmap::map_with(strategy, Problem{comm, topology, constraints}, Context{}))
      .hop_bytes;
}

}  // namespace

TEST(TreeMatch, KnownOptimaNaturalAndShuffled) {
  const auto tree = tmap::load_topology("tleaf 3 4 100 4 10 4 1");
  const auto natural = tmap::gen::stencil({8, 8}, 5, 1000);
  for (const std::uint64_t seed : {0ULL, 1ULL, 2ULL, 3ULL}) {
    const auto comm = seed == 0 ? natural : tmap::gen::shuffle_ranks(natural, seed);
    EXPECT_EQ(hop_bytes("treematch", comm, *tree, Constraints::all(*tree)), 4'384'000) << "shuffle " << seed;
  }
  std::vector<PE> allowed;
  for (PE p = 0; p < 16; ++p) allowed.push_back(p);
  for (PE p = 32; p < 48; ++p) allowed.push_back(p);
  EXPECT_EQ(hop_bytes("treematch", tmap::gen::stencil({4, 8}, 5, 1000), *tree, Constraints::allowed(*tree, allowed)),
            1'304'000);
}

TEST(TreeMatch, QualityDoesNotDependOnRankNumbering) {
  // 32x32 stencil onto tleaf 4 8 1000 4 100 4 10 8 1: shuffled numberings
  // stay within 5 % of the natural one.
  const auto tree = tmap::load_topology("tleaf 4 8 1000 4 100 4 10 8 1");
  const auto natural = tmap::gen::stencil({32, 32}, 5, 1000);
  const auto constraints = Constraints::all(*tree);
  const auto base = hop_bytes("treematch", natural, *tree, constraints);
  for (const std::uint64_t seed : {1ULL, 2ULL, 3ULL}) {
    const auto shuffled = hop_bytes("treematch", tmap::gen::shuffle_ranks(natural, seed), *tree, constraints);
    EXPECT_LE(static_cast<double>(shuffled), 1.05 * static_cast<double>(base)) << "shuffle " << seed;
    RecordProperty("shuffle_" + std::to_string(seed) + "_ratio",
                   std::to_string(static_cast<double>(shuffled) / static_cast<double>(base)));
  }
}

TEST(TreeMatch, ValidOnTreesWithConstraintsOversubscriptionAndSpareSlots) {
  const char* specs[] = {"tleaf 3 2 50 4 5 4 1", "tianhe3:2x2,nodes=4,cores=4", "ltleaf 2 4 10 4 1 4 3 2 1 0",
                         "sub 12 0 1 2 3 8 9 10 11 16 17 30 31 tleaf 2 4 10 8 1"};
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    const auto topology = tmap::load_topology(specs[seed % std::size(specs)]);
    tmap::detail::Random rng(seed, 9);
    std::vector<PE> allowed;
    for (PE p = 0; p < topology->size(); ++p) {
      if (seed % 3 == 0 || rng.below(3) != 0) allowed.push_back(p);
    }
    const std::int64_t k = 1 + static_cast<std::int64_t>(seed % 3);
    const auto constraints = Constraints::allowed(*topology, allowed, k);
    const tmap::Rank n = 1 + static_cast<tmap::Rank>(rng.below(static_cast<std::uint64_t>(constraints.num_slots())));
    const auto comm = tmap::gen::random_sparse(n, std::min<tmap::Rank>(3, n - 1), 100, seed);
    const auto mapping = tmap::map_with("treematch", Problem{comm, *topology, constraints}, Context{});
    EXPECT_NO_THROW(tmap::validate_mapping(mapping, n, constraints)) << topology->description() << " seed " << seed;
  }
}

TEST(TreeMatch, SpareSlotsStayCompact) {
  // 8 ranks of two 4-cliques on tleaf 2 4 10 4 1 (16 PEs): each clique on one
  // node, nothing spread over the other two.
  const auto tree = tmap::load_topology("tleaf 2 4 10 4 1");
  std::vector<tmap::CommEntry> entries;
  for (tmap::Rank g = 0; g < 2; ++g) {
    for (tmap::Rank a = 0; a < 4; ++a) {
      for (tmap::Rank b = 0; b < 4; ++b) {
        if (a != b) entries.push_back({4 * g + a, 4 * g + b, 10});
      }
    }
  }
  entries.push_back({0, 4, 1});
  const auto comm = tmap::CommMatrix::from_entries(8, entries);
  // Clique edges at distance 1: 2 * 12 * 10; the light pair across nodes: 11.
  EXPECT_EQ(hop_bytes("treematch", comm, *tree, Constraints::all(*tree)), 2 * 12 * 10 + 11);
}

TEST(TreeMatch, FallsBackToScotchOffTrees) {
  const auto mesh = tmap::load_topology("mesh2D 8 8");
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 8}, 5, 1000), 4);
  const auto constraints = Constraints::all(*mesh);
  std::vector<std::string> notes;
  Context context;
  context.verbosity = 1;
  context.log = [&](std::string_view m) { notes.emplace_back(m); };
  const Problem problem{comm, *mesh, constraints};
  EXPECT_EQ(tmap::map_with("treematch", problem, context), tmap::map_with("scotch", problem, Context{}));
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes.front().find("not a tree; mapping with scotch"), std::string::npos);
}

TEST(TreeMatch, BisectionKeepsExactSizesAndFindsTheStraightCut) {
  // A 4x4 grid split 8/8: the best cut is a straight line of 4 edges.
  const auto sym = tmap::gen::stencil({4, 4}, 5, 1).symmetrized();
  std::vector<tmap::Rank> ranks(16);
  for (tmap::Rank r = 0; r < 16; ++r) ranks[r] = r;
  for (const std::int64_t size : {0, 3, 8, 11, 16}) {
    const auto [a, b] = tmap::treematch::bisect(sym, ranks, size);
    EXPECT_EQ(static_cast<std::int64_t>(a.size()), size);
    EXPECT_EQ(a.size() + b.size(), 16U);
  }
  const auto [a, b] = tmap::treematch::bisect(sym, ranks, 8);
  std::int64_t cut = 0;
  for (const auto r : a) {
    for (const auto t : sym.targets(r)) cut += std::binary_search(b.begin(), b.end(), t) ? 1 : 0;
  }
  EXPECT_EQ(cut, 4);
}
