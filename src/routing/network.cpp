#include "routing/network.hpp"

#include <utility>

namespace tmap::routing {

NetworkRouting::NetworkRouting(std::shared_ptr<const Network> network, std::int64_t pes_per_node, Distance node_hops)
    : RoutingModel(network->link_kinds()),
      network_(std::move(network)),
      pes_per_node_(pes_per_node),
      node_hops_(node_hops) {}

}  // namespace tmap::routing
