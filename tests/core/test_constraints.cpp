#include <gtest/gtest.h>

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
}
