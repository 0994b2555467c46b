#include "topology/complete.hpp"

#include "routing/models.hpp"
#include "tmap/error.hpp"
#include "topology/distance_graph.hpp"

namespace tmap::topo {

CompleteTopology::CompleteTopology(PE terminals, std::vector<std::int64_t> weights)
    : terminals_(terminals), weights_(std::move(weights)) {
  if (terminals < 1) throw InputError(kind() + ": the number of PEs must be at least 1");
  if (!weights_.empty()) {
    if (static_cast<PE>(weights_.size()) != terminals) throw InternalError("cmpltw: one weight per terminal");
    slots_.emplace(weights_, "cmpltw");
  }
}

std::string CompleteTopology::description() const {
  std::string text = kind() + " " + std::to_string(terminals_);
  for (const auto w : weights_) text += " " + std::to_string(w);
  return text;
}

std::unique_ptr<RoutingModel> CompleteTopology::routing_model() const {
  constexpr PE kMaxCompleteRouting = 8192;
  if (!weights_.empty() || terminals_ > kMaxCompleteRouting) return nullptr;
  return std::make_unique<routing::CompleteRouting>(terminals_);
}

DistanceGraph CompleteTopology::distance_graph() const {
  return complete_graph(*this);
}

}  // namespace tmap::topo
