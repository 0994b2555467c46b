#pragma once

namespace tmap {
/// "MAJOR.MINOR.PATCH" of the library.
const char* version() noexcept;
}  // namespace tmap
