#include <gtest/gtest.h>

#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"

using tmap::CommEntry;
using tmap::CommMatrix;

TEST(CommMatrix, FromEntriesSortsSumsAndDropsDiagonalAndZeros) {
  const auto m = CommMatrix::from_entries(3, {{2, 0, 5}, {0, 1, 3}, {0, 1, 4}, {1, 1, 9}, {1, 2, 0}, {0, 2, 1}});
  EXPECT_EQ(m.num_ranks(), 3);
  EXPECT_EQ(m.num_entries(), 3);
  EXPECT_EQ(m.at(0, 1), 7);
  EXPECT_EQ(m.at(0, 2), 1);
  EXPECT_EQ(m.at(2, 0), 5);
  EXPECT_EQ(m.at(1, 1), 0);
  EXPECT_EQ(m.at(1, 2), 0);
  ASSERT_EQ(m.targets(0).size(), 2U);
  EXPECT_EQ(m.targets(0)[0], 1);
  EXPECT_EQ(m.targets(0)[1], 2);
  EXPECT_EQ(m.total_volume(), 13);
}

TEST(CommMatrix, RejectsOutOfRangeAndNegative) {
  EXPECT_THROW((void)CommMatrix::from_entries(2, {{0, 2, 1}}), tmap::InputError);
  EXPECT_THROW((void)CommMatrix::from_entries(2, {{-1, 0, 1}}), tmap::InputError);
  EXPECT_THROW((void)CommMatrix::from_entries(2, {{0, 1, -1}}), tmap::InputError);
}

TEST(CommMatrix, OverflowingSumIsAnErrorNotAWrap) {
  const tmap::Volume big = std::numeric_limits<tmap::Volume>::max() - 1;
  EXPECT_THROW((void)CommMatrix::from_entries(2, {{0, 1, big}, {0, 1, big}}), tmap::InputError);
  const auto m = CommMatrix::from_entries(3, {{0, 1, big}, {1, 2, big}});
  EXPECT_THROW((void)m.total_volume(), tmap::InputError);
}

TEST(CommMatrix, SymmetrizedIsAPlusATranspose) {
  const auto m = CommMatrix::from_entries(4, {{0, 1, 3}, {1, 0, 4}, {0, 3, 2}, {2, 1, 7}});
  EXPECT_FALSE(m.is_symmetric());
  const auto s = m.symmetrized();
  EXPECT_TRUE(s.is_symmetric());
  EXPECT_EQ(s.at(0, 1), 7);
  EXPECT_EQ(s.at(1, 0), 7);
  EXPECT_EQ(s.at(0, 3), 2);
  EXPECT_EQ(s.at(3, 0), 2);
  EXPECT_EQ(s.at(1, 2), 7);
  EXPECT_EQ(s.at(2, 1), 7);
  EXPECT_EQ(s.num_entries(), 6);
  EXPECT_EQ(s.total_volume(), 2 * m.total_volume());
  // Rows stay sorted.
  for (tmap::Rank i = 0; i < 4; ++i) {
    const auto t = s.targets(i);
    EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
  }
}

TEST(CommMatrix, FromCsrChecksCanonicalForm) {
  EXPECT_NO_THROW((void)CommMatrix::from_csr(2, {0, 1, 2}, {1, 0}, {5, 6}));
  EXPECT_THROW((void)CommMatrix::from_csr(2, {0, 1, 2}, {0, 0}, {5, 6}), tmap::ParameterError);  // diagonal
  EXPECT_THROW((void)CommMatrix::from_csr(2, {0, 1, 2}, {1, 0}, {0, 6}), tmap::ParameterError);  // zero
  EXPECT_THROW((void)CommMatrix::from_csr(2, {0, 2}, {1, 0}, {5, 6}), tmap::ParameterError);     // sizes
}

TEST(CommMatrix, EmptyMatrix) {
  const auto m = CommMatrix::from_entries(0, {});
  EXPECT_EQ(m.num_ranks(), 0);
  EXPECT_EQ(m.total_volume(), 0);
  EXPECT_TRUE(m.symmetrized().is_symmetric());
}

TEST(CommMatrix, RankWeightsAreKeptByTheSameJob) {
  const auto plain = CommMatrix::from_entries(3, {{0, 1, 5}, {2, 1, 7}});
  EXPECT_TRUE(plain.rank_weights().empty());
  EXPECT_EQ(plain.rank_weight(2), 1);
  EXPECT_EQ(plain.total_rank_weight(), 3);
  EXPECT_FALSE(plain.has_unequal_weights());
  const auto weighted = plain.with_rank_weights({4, 0, 2});
  EXPECT_EQ(weighted.rank_weight(0), 4);
  EXPECT_EQ(weighted.total_rank_weight(), 6);
  EXPECT_TRUE(weighted.has_unequal_weights());
  EXPECT_FALSE(plain.with_rank_weights({3, 3, 3}).has_unequal_weights());
  // The symmetrised view is the same ranks: the same work.
  EXPECT_EQ(weighted.symmetrized().rank_weight(0), 4);
  // Weights are part of the job: a matrix with other weights is another.
  EXPECT_NE(weighted, plain);
  EXPECT_EQ(weighted.with_rank_weights({}), plain);
  EXPECT_THROW((void)plain.with_rank_weights({1, 2}), tmap::InputError);
  EXPECT_THROW((void)plain.with_rank_weights({1, -2, 3}), tmap::InputError);
}
