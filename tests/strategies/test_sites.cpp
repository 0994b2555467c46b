// strategies/common/sites: the free sites the site-by-site constructions
// (greedy, umpa) search, and their bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "fixtures.hpp"
#include "strategies/common/sites.hpp"
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

// Beyond kScanSites, nearest() searches the machine graph instead of
// scanning every site: the lists must be the scan's, tie order included
// (greedy and umpa decide by them), on each kind with a graph and with a
// fragmented allocation.
TEST(Sites, GraphSearchGivesTheScansNearestSites) {
  using tmap::strategies::Site;
  using tmap::strategies::SiteSpace;
  for (const char* spec :
       {"torus3D 20 16 16", "mesh3D 20 18 16", "tianhe3:8x8,nodes=96,cores=2", "tleaf 3 400 10 16 5 2 1", "hcub 13"}) {
    SCOPED_TRACE(spec);
    const auto topology = tmap::load_topology(spec);
    std::vector<tmap::PE> allowed;
    for (tmap::PE p = 0; p < topology->size(); ++p) {
      if (p % 7 != 3) allowed.push_back(p);
    }
    const SiteSpace sites(*topology, Constraints::allowed(*topology, allowed, 1));
    ASSERT_GT(sites.num_sites(), SiteSpace::kScanSites);
    for (Site s = 0; s < sites.num_sites(); s += sites.num_sites() / 97) {
      std::vector<std::pair<tmap::Distance, Site>> all;
      for (Site t = 0; t < sites.num_sites(); ++t) {
        if (t != s) all.emplace_back(sites.distance(s, t), t);
      }
      std::sort(all.begin(), all.end());
      std::vector<Site> expected;
      for (std::size_t k = 0; k < SiteSpace::kNearest; ++k) expected.push_back(all[k].second);
      const auto got = sites.nearest(s);
      ASSERT_EQ(std::vector<Site>(got.begin(), got.end()), expected) << "site " << s;
    }
  }
}

// Beyond 262,144 sites the site-by-site constructions refuse with a clear
// message naming what to use (greedy took 151 s on a million-PE torus).
TEST(Sites, ConstructionsRefuseAMillionSitesNamingTheAlternative) {
  const auto topology = tmap::load_topology("torus3D 64 64 65");
  const auto comm = tmap::gen::stencil({4, 4}, 5, 10);
  const Problem problem{comm, *topology, Constraints::all(*topology)};
  for (const char* strategy : {"greedy", "umpa-greedy", "umpa-wh", "umpa-mc"}) {
    try {
      (void)tmap::map_with(strategy, problem, Context{});
      ADD_FAILURE() << strategy << " did not refuse";
    } catch (const tmap::ResourceError& e) {
      EXPECT_NE(std::string(e.what()).find("266240 sites exceed the 262144"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("use auto"), std::string::npos) << e.what();
    }
  }
}
