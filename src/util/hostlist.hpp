// Slurm host lists ("cn[0012-0040,0100],gpu[1-3]", "n[1-2]-ib[0-1]"),
// expanded in order with zero padding kept; bounded so that a list of
// millions of hosts is refused before any string is built. Used by
// allocations (io) and by machines that name their nodes (topology).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tmap::detail {

/// The hosts of `list` in order. InputError naming `origin` for unbalanced
/// brackets, bad ranges, more than 2^20 hosts or none.
[[nodiscard]] std::vector<std::string> expand_hostlist(std::string_view list, const std::string& origin);

}  // namespace tmap::detail
