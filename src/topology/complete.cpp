#include "topology/complete.hpp"

#include "tmap/error.hpp"

namespace tmap::topo {

CompleteTopology::CompleteTopology(PE size) : size_(size) {
  if (size < 1) throw InputError("cmplt: the number of PEs must be at least 1");
}

std::string CompleteTopology::description() const { return "cmplt " + std::to_string(size_); }

}  // namespace tmap::topo
