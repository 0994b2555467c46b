#include "routing/network.hpp"

#include <fmt/format.h>

#include <utility>

namespace tmap::routing {

NetworkRouting::NetworkRouting(std::shared_ptr<const Network> network, std::int64_t pes_per_node,
                               std::vector<std::int64_t> first_pe, std::vector<Distance> pe_depth)
    : NetworkRouting(std::move(network), pes_per_node, 0) {
  first_pe_ = std::move(first_pe);
  pe_depth_ = std::move(pe_depth);
}

NetworkRouting::NetworkRouting(std::shared_ptr<const Network> network, std::int64_t pes_per_node, Distance node_hops)
    : RoutingModel(network->link_kinds()),
      network_(std::move(network)),
      pes_per_node_(pes_per_node),
      node_hops_(node_hops) {
  std::string spec;
  const auto kinds = network_->link_kinds();
  const auto bandwidths = network_->kind_bandwidths();
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    if (bandwidths[k] != 1.0) spec += fmt::format("{}{}={}", spec.empty() ? "" : ",", kinds[k], bandwidths[k]);
  }
  if (!spec.empty()) set_bandwidths(spec);
}

}  // namespace tmap::routing
