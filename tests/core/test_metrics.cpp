#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/io.hpp"
#include "tmap/machine.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"

using tmap::CommMatrix;

namespace {

/// An independent evaluator: dense loops straight from the contract's
/// definition, sharing no code with evaluate().
std::int64_t naive_hop_bytes(const std::vector<std::vector<std::int64_t>>& a, const tmap::Topology& t,
                             const std::vector<tmap::PE>& sigma) {
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < a.size(); ++j) {
      if (i != j) sum += a[i][j] * t.distance(sigma[i], sigma[j]);
    }
  }
  return sum;
}

std::vector<std::vector<std::int64_t>> dense(const CommMatrix& m) {
  std::vector<std::vector<std::int64_t>> a(m.num_ranks(), std::vector<std::int64_t>(m.num_ranks(), 0));
  for (tmap::Rank i = 0; i < m.num_ranks(); ++i) {
    for (tmap::Rank j = 0; j < m.num_ranks(); ++j) a[i][j] = m.at(i, j);
  }
  return a;
}

}  // namespace

TEST(Metrics, HandComputedSmallCase) {
  // Ranks 0,1,2 on a path of 3 (mesh2D 3 1). A[0][1]=10, A[1][0]=4, A[0][2]=1.
  const auto t = tmap::load_topology("mesh2D 3 1");
  const auto comm = CommMatrix::from_entries(3, {{0, 1, 10}, {1, 0, 4}, {0, 2, 1}});
  const auto m = tmap::evaluate(comm, *t, std::vector<tmap::PE>{0, 2, 1});
  // d(0,2)=2 for the 0-1 pair both ways, d(0,1)=1 for 0->2.
  EXPECT_EQ(m.hop_bytes, 10 * 2 + 4 * 2 + 1 * 1);
  EXPECT_EQ(m.total_bytes, 15);
  EXPECT_EQ(m.max_com, 20);
  EXPECT_DOUBLE_EQ(m.avg_hops, 29.0 / 15.0);
  ASSERT_EQ(m.bytes_by_distance.size(), 2U);
  EXPECT_EQ(m.bytes_by_distance[0], (std::pair<tmap::Distance, tmap::Volume>{1, 1}));
  EXPECT_EQ(m.bytes_by_distance[1], (std::pair<tmap::Distance, tmap::Volume>{2, 14}));
}

TEST(Metrics, BruteForceOptimumOfA2x3StencilOnA3x2MeshIsAllNeighboursAtOneHop) {
  // 2x3 grid stencil, 100 bytes each way per neighbour pair: 7 edges.
  const auto comm = tmap::gen::stencil({2, 3}, 5, 100);
  const auto t = tmap::load_topology("mesh2D 3 2");
  const auto a = dense(comm);
  std::vector<tmap::PE> sigma(6);
  std::iota(sigma.begin(), sigma.end(), 0);
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  do {
    const auto m = tmap::evaluate(comm, *t, sigma);
    ASSERT_EQ(m.hop_bytes, naive_hop_bytes(a, *t, sigma));
    best = std::min(best, m.hop_bytes);
  } while (std::next_permutation(sigma.begin(), sigma.end()));
  EXPECT_EQ(best, 7 * 2 * 100);  // hand-computed: every edge at distance 1
}

TEST(Metrics, BruteForceOnATreeMatchesTheHandOptimum) {
  // Two pairs that talk a lot (0-1: 100, 2-3: 100) and a light link 1-2: 1.
  // On tleaf 2 2 10 2 1 (two nodes of two cores) the optimum puts each pair on
  // a node: 2*(100*1 + 100*1) + 2*(1*11) = 422.
  const auto comm =
      CommMatrix::from_entries(4, {{0, 1, 100}, {1, 0, 100}, {2, 3, 100}, {3, 2, 100}, {1, 2, 1}, {2, 1, 1}});
  const auto t = tmap::load_topology("tleaf 2 2 10 2 1");
  std::vector<tmap::PE> sigma{0, 1, 2, 3};
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  do {
    best = std::min(best, tmap::evaluate(comm, *t, sigma).hop_bytes);
  } while (std::next_permutation(sigma.begin(), sigma.end()));
  EXPECT_EQ(best, 422);
}

TEST(Metrics, AgreesWithTheNaiveEvaluatorOnRandomInputs) {
  const auto t = tmap::load_topology("tianhe3:2x2,nodes=4,cores=2");
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    const auto comm = tmap::gen::random_sparse(20, 5, 1000, seed);
    std::vector<tmap::PE> sigma(32);
    std::iota(sigma.begin(), sigma.end(), 0);
    sigma = tmap::gen::shuffle_permutation(32, seed);
    sigma.resize(20);
    EXPECT_EQ(tmap::evaluate(comm, *t, sigma).hop_bytes, naive_hop_bytes(dense(comm), *t, sigma));
  }
}

TEST(Metrics, GraphInputsCountEachEdgeOnce) {
  const auto t = tmap::load_topology("mesh2D 2 1");
  // One edge of load 6 between ranks 0 and 1, at distance 1.
  const auto graph = tmap::parse_comm("0\n2 2\n0 010\n1 6 1\n1 6 0\n", tmap::CommFormat::ScotchGraph, "g.grf");
  EXPECT_EQ(tmap::evaluate(graph, *t, std::vector<tmap::PE>{0, 1}).hop_bytes, 6);
  // The same traffic as a matrix: 3 bytes each way.
  const auto mat = tmap::parse_comm("0 3\n3 0\n", tmap::CommFormat::Dense, "m.mat");
  EXPECT_EQ(tmap::evaluate(mat, *t, std::vector<tmap::PE>{0, 1}).hop_bytes, 6);
}

TEST(Metrics, HugeVolumesStayExactOrFailLoudly) {
  const auto t = tmap::load_topology("mesh2D 4 1");
  const tmap::Volume v = 1'000'000'000'000'000;  // 1e15 bytes
  const auto comm = CommMatrix::from_entries(2, {{0, 1, v}, {1, 0, v}});
  EXPECT_EQ(tmap::evaluate(comm, *t, std::vector<tmap::PE>{0, 3}).hop_bytes, 6 * v);
  const auto huge = CommMatrix::from_entries(2, {{0, 1, std::numeric_limits<tmap::Volume>::max() / 2}});
  EXPECT_THROW((void)tmap::evaluate(huge, *t, std::vector<tmap::PE>{0, 3}), tmap::InputError);
}

TEST(Metrics, RejectsMappingsOfTheWrongShape) {
  const auto t = tmap::load_topology("cmplt 2");
  const auto comm = CommMatrix::from_entries(2, {{0, 1, 1}});
  EXPECT_THROW((void)tmap::evaluate(comm, *t, std::vector<tmap::PE>{0}), tmap::InputError);
  EXPECT_THROW((void)tmap::evaluate(comm, *t, std::vector<tmap::PE>{0, 2}), tmap::InputError);
}
