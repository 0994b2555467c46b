// How a kind of machine answers Topology::find: `self` as the interface
// asked for, among those it implements, else nullptr.
#pragma once

#include <typeinfo>

namespace tmap::topo {

template <typename... Interfaces, typename Self>
[[nodiscard]] const void* interface_of(const Self* self, const std::type_info& type) {
  const void* found = nullptr;
  ((found = found != nullptr || type != typeid(Interfaces)
                ? found
                : static_cast<const void*>(static_cast<const Interfaces*>(self))),
   ...);
  return found;
}

}  // namespace tmap::topo
