#include "tmap/version.hpp"

namespace tmap {
const char* version() noexcept {
  return TMAP_VERSION_STRING;
}
}  // namespace tmap
