// The bounds the scheduler module keeps on what it expands.
#pragma once

#include <cstddef>

namespace tmap::sched {

/// Most hosts a host list, node file or count list may expand to.
inline constexpr std::size_t kMaxHosts = std::size_t{1} << 20;

}  // namespace tmap::sched
