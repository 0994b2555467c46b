// Routing models: route hops against the topology's distances for every pair,
// and the Deveci et al. metrics on hand-worked cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>

#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/metrics.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"

using tmap::CommMatrix;
using tmap::LinkId;
using tmap::PE;

namespace {

std::vector<LinkId> route(const tmap::RoutingModel& r, PE a, PE b) {
  std::vector<LinkId> links;
  r.route(a, b, links);
  return links;
}

}  // namespace

class RouteHopsEqualDistances : public ::testing::TestWithParam<const char*> {};

TEST_P(RouteHopsEqualDistances, ForEveryPairOfPes) {
  const auto topology = tmap::load_topology(GetParam());
  const auto routing = tmap::make_routing(*topology);
  ASSERT_NE(routing, nullptr);
  for (PE a = 0; a < topology->size(); ++a) {
    for (PE b = 0; b < topology->size(); ++b) {
      const auto links = route(*routing, a, b);
      EXPECT_EQ(routing->route_hops(a, b), topology->distance(a, b)) << a << " -> " << b;
      // A route never uses a link twice, and every id is a real link.
      const std::set<LinkId> distinct(links.begin(), links.end());
      EXPECT_EQ(distinct.size(), links.size()) << a << " -> " << b;
      for (const auto l : links) {
        EXPECT_GE(l, 0);
        EXPECT_LT(l, routing->num_links());
      }
      // The way back crosses the same number of links (as many hops).
      EXPECT_EQ(route(*routing, b, a).size(), links.size());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Routing, RouteHopsEqualDistances,
                         ::testing::Values("mesh2D 4 3", "torus2D 5 4", "torus2D 2 3", "torus3D 4 4 4", "mesh3D 3 2 2",
                                           "meshXD 4 2 3 2 2", "hcub 4", "cmplt 6", "tianhe3:1x3,nodes=4",
                                           "tianhe3:2x3,nodes=4,cores=2", "tianhe3:3x3,nodes=2",
                                           "sub 4 0 5 10 15 torus2D 4 4"));

// Dimension-ordered routes on meshes and tori, link by link, against a walk
// over coordinates written independently of MeshRouting's: dimension 0
// first, the shorter way around a torus (upwards on a tie), each step's link
// the one of the vertex it leaves upwards (link id = vertex * D + k).
std::vector<LinkId> coordinate_walk(const std::vector<std::int64_t>& extent, bool torus, PE a, PE b) {
  const auto dims = static_cast<LinkId>(extent.size());
  std::vector<std::int64_t> at(extent.size());
  std::vector<std::int64_t> to(extent.size());
  for (std::size_t k = 0, stride = 1; k < extent.size(); stride *= static_cast<std::size_t>(extent[k]), ++k) {
    at[k] = (a / static_cast<PE>(stride)) % extent[k];
    to[k] = (b / static_cast<PE>(stride)) % extent[k];
  }
  const auto vertex = [&] {
    PE v = 0;
    for (std::size_t k = extent.size(); k-- > 0;) v = v * extent[k] + at[k];
    return v;
  };
  std::vector<LinkId> links;
  for (std::size_t k = 0; k < extent.size(); ++k) {
    const auto d = extent[k];
    const auto forward = ((to[k] - at[k]) % d + d) % d;
    const bool up = torus ? forward <= d - forward : to[k] > at[k];
    while (at[k] != to[k]) {
      if (up) {
        links.push_back(vertex() * dims + static_cast<LinkId>(k));
        at[k] = (at[k] + 1) % d;
      } else {
        at[k] = (at[k] + d - 1) % d;
        links.push_back(vertex() * dims + static_cast<LinkId>(k));
      }
    }
  }
  return links;
}

TEST(Routing, MeshAndTorusRoutesFollowTheCoordinatesLinkByLink) {
  struct Case {
    const char* spec;
    std::vector<std::int64_t> extent;
    bool torus;
  };
  for (const auto& c : {Case{"torus3D 5 4 3", {5, 4, 3}, true}, Case{"torus2D 2 7", {2, 7}, true},
                        Case{"torus3D 6 1 4", {6, 1, 4}, true}, Case{"mesh3D 4 3 5", {4, 3, 5}, false},
                        Case{"meshXD 4 3 2 4 2", {3, 2, 4, 2}, false}}) {
    const auto topology = tmap::load_topology(c.spec);
    const auto routing = tmap::make_routing(*topology);
    ASSERT_NE(routing, nullptr) << c.spec;
    for (PE a = 0; a < topology->size(); ++a) {
      for (PE b = 0; b < topology->size(); ++b) {
        EXPECT_EQ(route(*routing, a, b), coordinate_walk(c.extent, c.torus, a, b))
            << c.spec << ": " << a << " -> " << b;
      }
    }
  }
}

TEST(Routing, TreeRoutesGoUpToTheCommonAncestorAndDown) {
  const auto topology = tmap::load_topology("tleaf 2 2 10 3 1");
  const auto routing = tmap::make_routing(*topology);
  ASSERT_NE(routing, nullptr);
  EXPECT_EQ(routing->num_links(), 2 + 6);
  EXPECT_EQ(route(*routing, 0, 1).size(), 2U);  // leaf, parent, leaf
  EXPECT_EQ(route(*routing, 0, 4).size(), 4U);  // through the root
  EXPECT_EQ(routing->route_hops(0, 4), 4);
  EXPECT_EQ(routing->link_kinds(), (std::vector<std::string>{"level1", "level2"}));
  // Both routes through the root share no link below it with a route that
  // stays in the other subtree.
  const auto up = route(*routing, 0, 4);
  const auto other = route(*routing, 4, 5);
  for (const auto l : other) EXPECT_TRUE(l != up[0]);
}

TEST(Routing, DistanceOnlyTargetsHaveNoModel) {
  EXPECT_EQ(tmap::make_routing(*tmap::load_topology("cmpltw 3 1 2 3")), nullptr);
}

// A 2x2 mesh (PE = x + 2y), dimension-ordered: x first.
//   0->3 (10 bytes): 0-1 then 1-3;  1->2 (5): 1-0 then 0-2;  0->1 (4): 0-1.
TEST(Routing, HandWorkedTwoByTwoMesh) {
  const auto topology = tmap::load_topology("mesh2D 2 2");
  auto routing = tmap::make_routing(*topology);
  const auto comm = CommMatrix::from_entries(4, {{0, 3, 10}, {1, 2, 5}, {0, 1, 4}});
  const std::vector<PE> identity{0, 1, 2, 3};
  auto m = tmap::evaluate_routes(comm, *routing, identity);
  EXPECT_EQ(m.th, 5);
  EXPECT_EQ(m.wh, 34);
  EXPECT_EQ(m.mmc, 3);  // link 0-1 carries all three messages
  EXPECT_DOUBLE_EQ(m.mc, 19.0);
  EXPECT_EQ(m.used_links, 3);
  EXPECT_DOUBLE_EQ(m.amc, 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.ac, 34.0 / 3.0);
  EXPECT_EQ(tmap::link_loads_csv(*routing, m),
            "link,name,kind,bandwidth,messages,bytes,congestion\n"
            "0,0-1,dim0,1,3,19,19\n"
            "1,0-2,dim1,1,1,5,5\n"
            "3,1-3,dim1,1,1,10,10\n");
  // Faster x links halve their congestion: the y link 1-3 becomes the bottleneck.
  routing->set_bandwidths("dim0=2");
  m = tmap::evaluate_routes(comm, *routing, identity);
  EXPECT_DOUBLE_EQ(m.mc, 10.0);
  EXPECT_DOUBLE_EQ(m.ac, (9.5 + 5.0 + 10.0) / 3.0);
  EXPECT_THROW(routing->set_bandwidths("dim7=2"), tmap::InputError);
  EXPECT_THROW(routing->set_bandwidths("dim0=0"), tmap::InputError);
  EXPECT_THROW(routing->set_bandwidths("dim0"), tmap::InputError);
}

// Three chips in a row, 4 nodes each (0,1 left and 2,3 right on chip 0).
//   0->1 (7): same side, hops 1      0->2 (3): other side, hops 2
//   0->6 (2): next chip, right side, hops 4      1->8 (5): chip 2, left, hops 3
TEST(Routing, HandWorkedThreeChipTianhe3) {
  const auto topology = tmap::load_topology("tianhe3:1x3,nodes=4");
  const auto routing = tmap::make_routing(*topology);
  const auto comm = CommMatrix::from_entries(12, {{0, 1, 7}, {0, 2, 3}, {0, 6, 2}, {1, 8, 5}});
  std::vector<PE> identity(12);
  std::iota(identity.begin(), identity.end(), 0);
  const auto m = tmap::evaluate_routes(comm, *routing, identity);
  EXPECT_EQ(m.th, 1 + 2 + 4 + 3);
  EXPECT_EQ(m.wh, 7 + 6 + 8 + 15);
  EXPECT_EQ(m.mmc, 3);           // node 0's link to its switch
  EXPECT_DOUBLE_EQ(m.mc, 12.0);  // node 0 and node 1 both inject 12 bytes
  EXPECT_EQ(m.used_links, 9);
  EXPECT_DOUBLE_EQ(m.amc, 12.0 / 9.0);
  EXPECT_DOUBLE_EQ(m.ac, 46.0 / 9.0);
  std::vector<std::string> names;
  for (const auto& load : m.loads) names.push_back(routing->link_name(load.link));
  EXPECT_EQ(names, (std::vector<std::string>{"cn0-chip(0,0).L", "cn1-chip(0,0).L", "cn2-chip(0,0).R", "cn6-chip(0,1).R",
                                             "cn8-chip(0,2).L", "chip(0,0).L-chip(0,0).R", "chip(0,1).L-chip(0,1).R",
                                             "chip(0,0)-chip(0,1)", "chip(0,0)-chip(0,2)"}));
  // Names with commas are quoted in the CSV (RFC 4180): every row keeps 7 fields.
  const auto csv = tmap::link_loads_csv(*routing, m);
  EXPECT_NE(csv.find("\n0,\"cn0-chip(0,0).L\",node,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",\"chip(0,0)-chip(0,1)\",row,"), std::string::npos) << csv;
}

TEST(Routing, Tianhe3GoesAlongTheRowFirst) {
  const auto topology = tmap::load_topology("tianhe3:2x2,nodes=2");
  const auto routing = tmap::make_routing(*topology);
  // Node 0 on chip (0,0) to node 6 on chip (1,1): row 0 to column 1, then down.
  std::vector<std::string> names;
  for (const auto l : route(*routing, 0, 6)) names.push_back(routing->link_name(l));
  EXPECT_EQ(names, (std::vector<std::string>{"cn0-chip(0,0).L", "chip(0,0)-chip(0,1)", "chip(0,1)-chip(1,1)",
                                             "cn6-chip(1,1).L"}));
  EXPECT_EQ(routing->route_hops(0, 6), 5);
}

// Where hops are distances, WH is hop-bytes, for any mapping.
TEST(Routing, WeightedHopsEqualHopBytesOnHopTopologies) {
  for (const char* spec : {"torus3D 4 4 4", "tianhe3:2x2,nodes=8,cores=2", "hcub 6"}) {
    const auto topology = tmap::load_topology(spec);
    const auto routing = tmap::make_routing(*topology);
    const auto comm = tmap::gen::random_sparse(topology->size(), 6, 1000, 7);
    const auto mapping = tmap::gen::shuffle_permutation(topology->size(), 3);
    EXPECT_EQ(tmap::evaluate_routes(comm, *routing, mapping).wh, tmap::evaluate(comm, *topology, mapping).hop_bytes)
        << spec;
  }
}

namespace {

/// A tleaf whose PEs are numbered through a permutation: tree paths out of
/// PE order, as no built-in machine lists them.
class PermutedTree final : public tmap::Topology, public tmap::TreeView {
 public:
  PermutedTree(std::unique_ptr<tmap::Topology> base, std::vector<tmap::PE> perm)
      : base_(std::move(base)), perm_(std::move(perm)) {}
  [[nodiscard]] tmap::PE size() const override { return base_->size(); }
  [[nodiscard]] tmap::Distance distance(tmap::PE a, tmap::PE b) const override {
    return base_->distance(perm_[static_cast<std::size_t>(a)], perm_[static_cast<std::size_t>(b)]);
  }
  [[nodiscard]] tmap::Distance max_distance() const override { return base_->max_distance(); }
  [[nodiscard]] std::string kind() const override { return "permuted"; }
  [[nodiscard]] std::string description() const override { return "permuted " + base_->description(); }
  void tree_path(tmap::PE pe, std::vector<std::int64_t>& path) const override {
    base_->find<tmap::TreeView>()->tree_path(perm_[static_cast<std::size_t>(pe)], path);
  }

 protected:
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return type == typeid(tmap::TreeView) ? static_cast<const tmap::TreeView*>(this) : nullptr;
  }

 private:
  std::unique_ptr<tmap::Topology> base_;
  std::vector<tmap::PE> perm_;
};

/// Routes from the definition: vertex ids in order of first appearance
/// over the PEs, a vertex being (parent, branch); link = vertex id - 1, up
/// from a to the common ancestor, then down to b.
std::vector<tmap::LinkId> reference_route(const tmap::Topology& t, tmap::PE a, tmap::PE b) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> ids;
  std::vector<std::vector<std::int64_t>> vertices(static_cast<std::size_t>(t.size()));
  std::vector<std::int64_t> path;
  for (tmap::PE pe = 0; pe < t.size(); ++pe) {
    t.find<tmap::TreeView>()->tree_path(pe, path);
    std::int64_t parent = 0;
    for (const auto branch : path) {
      parent = ids.try_emplace({parent, branch}, static_cast<std::int64_t>(ids.size()) + 1).first->second;
      vertices[static_cast<std::size_t>(pe)].push_back(parent);
    }
  }
  const auto& pa = vertices[static_cast<std::size_t>(a)];
  const auto& pb = vertices[static_cast<std::size_t>(b)];
  std::size_t split = 0;
  while (split < pa.size() && pa[split] == pb[split]) ++split;
  std::vector<tmap::LinkId> links;
  for (auto k = pa.size(); k-- > split;) links.push_back(pa[k] - 1);
  for (auto k = split; k < pb.size(); ++k) links.push_back(pb[k] - 1);
  return links;
}

}  // namespace

TEST(TreeRouting, RoutesAsDefinedInPathOrderAndOutOfIt) {
  // In path order (the table-free path), then permuted: out of order from
  // the second PE, from the middle and only at the last PE.
  std::vector<tmap::PE> identity(24);
  std::iota(identity.begin(), identity.end(), tmap::PE{0});
  std::vector<tmap::PE> shuffled = identity;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(5));
  std::vector<tmap::PE> late = identity;
  std::swap(late[13], late[20]);
  std::vector<tmap::PE> last = identity;
  std::swap(last[22], last[23]);
  for (const auto& perm : {identity, shuffled, late, last}) {
    const PermutedTree tree(tmap::load_topology("tleaf 3 2 10 3 5 4 1"), perm);
    const auto routing = tree.routing_model();
    ASSERT_NE(routing, nullptr);
    std::vector<tmap::LinkId> links;
    for (tmap::PE a = 0; a < tree.size(); ++a) {
      for (tmap::PE b = 0; b < tree.size(); ++b) {
        links.clear();
        routing->route(a, b, links);
        EXPECT_EQ(links, reference_route(tree, a, b)) << a << " -> " << b;
      }
    }
  }
}
