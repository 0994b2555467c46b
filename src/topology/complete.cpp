#include "topology/complete.hpp"

#include "tmap/error.hpp"

namespace tmap::topo {

CompleteTopology::CompleteTopology(PE size, std::vector<std::int64_t> weights)
    : size_(size), weights_(std::move(weights)) {
  if (size < 1) throw InputError(kind() + ": the number of PEs must be at least 1");
  if (!weights_.empty() && static_cast<PE>(weights_.size()) != size) throw InternalError("cmpltw: one weight per PE");
  for (const auto w : weights_) {
    if (w < 1) throw InputError("cmpltw: weights must be at least 1");
  }
}

std::string CompleteTopology::description() const {
  std::string text = kind() + " " + std::to_string(size_);
  for (const auto w : weights_) text += " " + std::to_string(w);
  return text;
}

}  // namespace tmap::topo
