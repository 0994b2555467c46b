// The graphs handed to libscotch as deco 2 targets: for every PE pair of
// small machines of each kind, Dijkstra on the graph gives exactly scale x
// the topology's distance (so Scotch sees tmap's distances, not a guess).
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <queue>

#include "tmap/machine.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"

namespace {

std::vector<std::int64_t> shortest_paths(const tmap::DistanceGraph& g, std::int64_t source) {
  constexpr auto kInf = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> dist(static_cast<std::size_t>(g.num_vertices()), kInf);
  using Item = std::pair<std::int64_t, std::int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  dist[static_cast<std::size_t>(source)] = 0;
  queue.push({0, source});
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d > dist[static_cast<std::size_t>(v)]) continue;
    for (auto e = g.offsets[static_cast<std::size_t>(v)]; e < g.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const auto to = g.targets[static_cast<std::size_t>(e)];
      const auto nd = d + g.weights[static_cast<std::size_t>(e)];
      if (nd < dist[static_cast<std::size_t>(to)]) {
        dist[static_cast<std::size_t>(to)] = nd;
        queue.push({nd, to});
      }
    }
  }
  return dist;
}

void expect_paths_are_distances(const std::string& spec) {
  SCOPED_TRACE(spec);
  const auto topology = tmap::load_topology(spec);
  const auto graph = tmap::distance_graph(*topology);
  ASSERT_TRUE(graph.has_value());
  ASSERT_EQ(static_cast<tmap::PE>(graph->pe_vertex.size()), topology->size());
  for (std::size_t e = 0; e < graph->weights.size(); ++e) {
    ASSERT_GE(graph->weights[e], 1);
    ASSERT_NE(graph->targets[e], -1);
  }
  std::int64_t checked = 0;
  for (tmap::PE a = 0; a < topology->size(); ++a) {
    const auto dist = shortest_paths(*graph, graph->pe_vertex[static_cast<std::size_t>(a)]);
    for (tmap::PE b = 0; b < topology->size(); ++b) {
      ASSERT_EQ(dist[static_cast<std::size_t>(graph->pe_vertex[static_cast<std::size_t>(b)])],
                graph->scale * topology->distance(a, b))
          << "PEs " << a << " and " << b;
      ++checked;
    }
  }
  EXPECT_EQ(checked, topology->size() * topology->size());
}

TEST(DistanceGraph, ShortestPathsAreScaledDistancesOnEveryKind) {
  for (const char* spec :
       {"tianhe3:3x4,nodes=4,cores=2", "tianhe3:1x3,nodes=2,cores=1", "tianhe3:2x1,nodes=6,cores=3", "mesh2D 4 5",
        "mesh3D 3 2 4", "torus2D 5 2", "torus3D 3 4 2", "torusXD 4 2 3 5 1", "hcub 5", "cmplt 7", "cmpltw 3 2 1 4",
        "tleaf 3 2 10 3 4 2 1", "tleaf 2 3 5 4 1", "ltleaf 2 2 10 4 1 4 2 0 3 1"}) {
    expect_paths_are_distances(spec);
  }
}

TEST(DistanceGraph, KindsWithoutAGraphSayNothing) {
  const auto topology = tmap::load_topology("deco 0 3 5 0 1 5 2 2 4 1 1 3 6 5 2");
  EXPECT_FALSE(tmap::distance_graph(*topology).has_value());
}

}  // namespace
