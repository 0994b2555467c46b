#pragma once
#include "tmap/export.h"

TMAP_API_BEGIN

namespace tmap {
/// "MAJOR.MINOR.PATCH" of the library.
const char* version() noexcept;
}  // namespace tmap

TMAP_API_END
