#include "topomatch_cost.hpp"

#include <algorithm>
#include <vector>

#include "tmap/topology_views.hpp"

namespace tmap::cli {

namespace {

/// Tree edges up to the common ancestor of two PEs, each side counted once
/// (TopoMatch's distance level); -1 when the machine is not a tree.
std::int64_t levels_apart(const Topology& topology, PE a, PE b, std::vector<std::int64_t>& pa,
                          std::vector<std::int64_t>& pb) {
  if (!tree_path(topology, a, pa) || !tree_path(topology, b, pb)) return -1;
  std::size_t common = 0;
  while (common < pa.size() && common < pb.size() && pa[common] == pb[common]) ++common;
  return static_cast<std::int64_t>(std::max(pa.size(), pb.size()) - common);
}

}  // namespace

double topomatch_cost(const CommMatrix& comm, const Topology& topology, std::span<const PE> sigma,
                      TopoMatchMetric metric) {
  std::vector<std::int64_t> pa;
  std::vector<std::int64_t> pb;
  const bool hops = metric == TopoMatchMetric::HopByte && tree_path(topology, 0, pa);
  double sum = 0.0;
  double largest = 0.0;
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    const auto targets = comm.targets(i);
    const auto volumes = comm.volumes(i);
    for (std::size_t e = 0; e < targets.size(); ++e) {
      const Rank j = targets[e];
      if (j <= i) continue;  // TopoMatch reads the upper triangle
      const auto a = sigma[static_cast<std::size_t>(i)];
      const auto b = sigma[static_cast<std::size_t>(j)];
      const double d = hops ? 2.0 * static_cast<double>(levels_apart(topology, a, b, pa, pb))
                            : static_cast<double>(topology.distance(a, b));
      const double c = static_cast<double>(volumes[e]) * d;
      sum += c;
      largest = std::max(largest, c);
    }
  }
  return metric == TopoMatchMetric::MaxCom ? largest : sum;
}

}  // namespace tmap::cli
