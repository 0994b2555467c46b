#include "topology/hypercube.hpp"

#include "routing/models.hpp"
#include "tmap/error.hpp"
#include "topology/distance_graph.hpp"

namespace tmap::topo {

HypercubeTopology::HypercubeTopology(int dimension) : dimension_(dimension) {
  if (dimension < 0 || dimension > 40) throw InputError("hcub: the dimension must be between 0 and 40");
}

std::string HypercubeTopology::description() const {
  return "hcub " + std::to_string(dimension_);
}

std::unique_ptr<RoutingModel> HypercubeTopology::routing_model() const {
  return std::make_unique<routing::HypercubeRouting>(dimension_);
}

DistanceGraph HypercubeTopology::distance_graph() const {
  return hypercube_graph(*this);
}

}  // namespace tmap::topo
