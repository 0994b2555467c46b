// libtmap-mpi's settings: the machine from the variables a user sets
// (TMAP_TOPOLOGY, TMAP_NODE, TMAP_HOST_NAMES), refused in those words.
#include <gtest/gtest.h>

#include <string>

#include "mpi/settings.hpp"
#include "tmap/error.hpp"
#include "tmap/topology.hpp"

// A bad TMAP_NODE is refused (the program then runs as without the
// library), and the reason names the variable the user set, not tm-map's
// flags (issue 61: ';;' was applied as one PE a node, and reordered).
TEST(MpiPlacement, BadMachineVariablesAreRefusedInTheirOwnWords) {
  const auto reason = [](const char* topology, const char* node, const char* host_names) {
    tmap::mpi::Settings settings;
    settings.topology = topology;
    settings.node = node;
    settings.host_names = host_names;
    try {
      (void)tmap::mpi::load_settings_machine(settings);
    } catch (const tmap::Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(
      reason("fattree:2;2,2;1,1;1,1", ";;", "").find("TMAP_NODE (topo_tmap_node) ';;': an empty entry between ';'"),
      std::string::npos)
      << reason("fattree:2;2,2;1,1;1,1", ";;", "");
  EXPECT_NE(reason("fattree:2;2,2;1,1;1,1", "core:2;", "").find("TMAP_NODE"), std::string::npos);
  EXPECT_NE(reason("fattree:2;2,2;1,1;1,1", "core:2;gpu[1-2]=", "").find("TMAP_NODE"), std::string::npos)
      << reason("fattree:2;2,2;1,1;1,1", "core:2;gpu[1-2]=", "");
  const auto twice = reason("fattree:2;2,2;1,1;1,1", "core:2", "cn[1-3],cn3");
  EXPECT_EQ(twice.find("TMAP_HOST_NAMES"), 0U) << twice;
  EXPECT_EQ(twice.find("--"), std::string::npos) << twice;
  const auto typo = reason("fatree:2;2,2;1,1;1,1", "core:2", "");
  EXPECT_EQ(typo.find("TMAP_TOPOLOGY"), 0U) << typo;
  EXPECT_NE(typo.find("did you mean fattree:?"), std::string::npos) << typo;
  EXPECT_EQ(reason("fattree:2;2,2;1,1;1,1", "core:2", ""), "(accepted)");
}

// TMAP_STRATEGY is read as tm-map reads -s: NAME[:REFINE] through the
// strategy table (one parser), so a misspelt name is refused before any
// reordering; ptscotch, the MPI layer's own, is kept.
TEST(MpiSettings, StrategiesAreReadAsTmMapReadsThem) {
  tmap_orders_settings given{};
  given.strategy = "greedy:tabu";
  const auto good = tmap::mpi::settings_from(&given);
  EXPECT_TRUE(good.error.empty()) << good.error;
  EXPECT_EQ(good.context.strategy, "greedy");
  EXPECT_EQ(good.context.refine.kind, tmap::RefineKind::Tabu);
  given.strategy = "gredy";
  EXPECT_NE(tmap::mpi::settings_from(&given).error.find("gredy"), std::string::npos);
  given.strategy = "ptscotch";
  const auto distributed = tmap::mpi::settings_from(&given);
  EXPECT_TRUE(distributed.error.empty()) << distributed.error;
  EXPECT_EQ(distributed.context.strategy, "ptscotch");
}
