#include <gtest/gtest.h>

#include <cmath>

#include "tmap/error.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

using tmap::Constraints;

TEST(Constraints, AllPesWithOversubscription) {
  const auto t = tmap::load_topology("cmplt 3");
  const auto c = Constraints::all(*t, 2);
  EXPECT_EQ(c.num_slots(), 6);
  EXPECT_EQ(c.slots(), (std::vector<tmap::PE>{0, 0, 1, 1, 2, 2}));
  EXPECT_TRUE(c.is_allowed(2));
}

TEST(Constraints, AllowedAreSortedAndChecked) {
  const auto t = tmap::load_topology("mesh2D 4 4");
  const auto c = Constraints::allowed(*t, {9, 3, 5});
  EXPECT_EQ(std::vector<tmap::PE>(c.allowed_pes().begin(), c.allowed_pes().end()), (std::vector<tmap::PE>{3, 5, 9}));
  EXPECT_FALSE(c.is_allowed(4));
  EXPECT_THROW((void)Constraints::allowed(*t, {3, 3}), tmap::InputError);
  EXPECT_THROW((void)Constraints::allowed(*t, {16}), tmap::InputError);
  EXPECT_THROW((void)Constraints::allowed(*t, {-1}), tmap::InputError);
  EXPECT_THROW((void)Constraints::all(*t, 0), tmap::InputError);
}

TEST(Constraints, OnNodesTakesEveryPeOfTheNodes) {
  const auto t = tmap::load_topology("tianhe3:1x1,nodes=4,cores=3");
  const std::vector<tmap::NodeId> nodes{1, 3};
  const auto c = Constraints::on_nodes(*t, nodes);
  EXPECT_EQ(std::vector<tmap::PE>(c.allowed_pes().begin(), c.allowed_pes().end()),
            (std::vector<tmap::PE>{3, 4, 5, 9, 10, 11}));
  const std::vector<tmap::NodeId> bad{4};
  EXPECT_THROW((void)Constraints::on_nodes(*t, bad), tmap::InputError);
  const std::vector<tmap::NodeId> twice{1, 1};
  EXPECT_THROW((void)Constraints::on_nodes(*t, twice), tmap::InputError);
}

TEST(Constraints, ValidateMappingCatchesEveryViolation) {
  const auto t = tmap::load_topology("cmplt 4");
  const auto c = Constraints::allowed(*t, {0, 1, 2});
  EXPECT_NO_THROW(tmap::validate_mapping(std::vector<tmap::PE>{2, 0}, 2, c));
  EXPECT_THROW(tmap::validate_mapping(std::vector<tmap::PE>{3, 0}, 2, c), tmap::InternalError);  // not allowed
  EXPECT_THROW(tmap::validate_mapping(std::vector<tmap::PE>{1, 1}, 2, c), tmap::InternalError);  // capacity
  EXPECT_THROW(tmap::validate_mapping(std::vector<tmap::PE>{1}, 2, c), tmap::InternalError);     // size
  const auto c2 = Constraints::allowed(*t, {0, 1, 2}, 2);
  EXPECT_NO_THROW(tmap::validate_mapping(std::vector<tmap::PE>{1, 1}, 2, c2));
  // A run of PEs not from 0 (looked up by offset) and one with a gap (by search).
  const auto run = Constraints::allowed(*t, {1, 2, 3});
  EXPECT_NO_THROW(tmap::validate_mapping(std::vector<tmap::PE>{3, 1}, 2, run));
  EXPECT_THROW(tmap::validate_mapping(std::vector<tmap::PE>{0, 1}, 2, run), tmap::InternalError);
  EXPECT_THROW(tmap::validate_mapping(std::vector<tmap::PE>{3, 3}, 2, run), tmap::InternalError);
  const auto gap = Constraints::allowed(*t, {0, 3});
  EXPECT_NO_THROW(tmap::validate_mapping(std::vector<tmap::PE>{3, 0}, 2, gap));
  EXPECT_THROW(tmap::validate_mapping(std::vector<tmap::PE>{1, 0}, 2, gap), tmap::InternalError);
  EXPECT_THROW(tmap::validate_mapping(std::vector<tmap::PE>{-1, 0}, 2, gap), tmap::InternalError);
}

TEST(Constraints, BalancedByLoadHandComputed) {
  const auto t = tmap::load_topology("cmplt 128");
  const auto all = Constraints::all(*t);
  // 1,000 ranks of weight 1: the average 7.8125, a PE holds
  // max(ceil(7.8125), floor(1.03 x 7.8125)) = 8 of them, or floor(1.2 x 7.8125) = 9.
  const auto c3 = all.balanced({}, 1000, 0.03, 0);
  EXPECT_EQ(c3.capacity(), 8);
  EXPECT_EQ(c3.load_limit(), 8);
  EXPECT_DOUBLE_EQ(c3.imbalance(), 0.03);
  EXPECT_EQ(all.balanced({}, 1000, 0.2, 0).capacity(), 9);
  // -o K stays a count cap.
  EXPECT_EQ(all.balanced({}, 1000, 0.2, 8).capacity(), 8);
  EXPECT_FALSE(tmap::balances_load({}, c3));
  // Equal weights are a count too: 5 ranks of weight 3 on 2 PEs: the
  // average 7.5 rounded up, limit 8, so 2 ranks a PE: they do not fit.
  const auto two = Constraints::all(*tmap::load_topology("cmplt 2"));
  const std::vector<tmap::Volume> threes{3, 3, 3, 3, 3};
  EXPECT_EQ(two.balanced(threes, 5, 0.0, 0).capacity(), 2);
  EXPECT_FALSE(tmap::balances_load(threes, two.balanced(threes, 5, 0.0, 0)));
  // Never above (1 + EPS) x the exact average: 18 on 4 PEs at EPS 0.2 is
  // floor(1.2 x 4.5) = 5, not 1.2 x ceil(4.5) = 6.
  const auto four = Constraints::all(*tmap::load_topology("cmplt 4"));
  EXPECT_EQ(four.balanced(std::vector<tmap::Volume>{3, 1, 2, 1, 2, 1, 2, 1, 2, 3}, 10, 0.2, 0).load_limit(), 5);
  // Unequal weights keep the load limit: {4, 1, 1, 1, 1} on 2 PEs: total 8,
  // limit 4 at EPS 0; at most the four light ranks share a PE.
  const std::vector<tmap::Volume> w{4, 1, 1, 1, 1};
  const auto c = two.balanced(w, 5, 0.0, 0);
  EXPECT_EQ(c.load_limit(), 4);
  EXPECT_EQ(c.capacity(), 4);
  EXPECT_TRUE(tmap::balances_load(w, c));
  EXPECT_EQ(tmap::pe_loads(std::vector<tmap::PE>{0, 1, 1, 1, 1}, w, c), (std::vector<tmap::Volume>{4, 4}));
  tmap::validate_mapping(std::vector<tmap::PE>{0, 1, 1, 1, 1}, w, 5, c);
  EXPECT_THROW(tmap::validate_mapping(std::vector<tmap::PE>{0, 0, 1, 1, 1}, w, 5, c), tmap::InternalError);
  // A rank heavier than a PE may hold (12 on 2 PEs at EPS 0.1: 6), and EPS out of range.
  const std::vector<tmap::Volume> heavy{9, 1, 1, 1};
  try {
    (void)two.balanced(heavy, 4, 0.1, 0);
    FAIL() << "a rank of weight 9 fits no PE of limit 6";
  } catch (const tmap::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0 weighs 9, more than a PE may hold"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)two.balanced(w, 5, -0.1, 0), tmap::InputError);
  EXPECT_THROW((void)two.balanced(w, 5, std::nan(""), 0), tmap::InputError);
}
