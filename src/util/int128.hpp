// 128-bit integers for exact sums of 64-bit volumes times distances.
#pragma once

namespace tmap::detail {
__extension__ typedef __int128 Int128;            // NOLINT(modernize-use-using)
__extension__ typedef unsigned __int128 UInt128;  // NOLINT(modernize-use-using)
}  // namespace tmap::detail
