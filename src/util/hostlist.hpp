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
/// brackets, bad ranges, more than 2^20 hosts, more than 64 MiB of names, or none.
[[nodiscard]] std::vector<std::string> expand_hostlist(std::string_view list, const std::string& origin);

/// Why `host` cannot name a host in a launcher file (a blank or control
/// byte, or one of = # , : ' " \ [ ] that rankfiles, hostfiles and Hydra
/// configfiles read as syntax); empty when it can.
[[nodiscard]] std::string bad_host_name(std::string_view host);

/// The names a machine gives its nodes, checked: each a host name
/// (bad_host_name) and none twice. InputError naming `origin` and the host.
void check_host_names(const std::vector<std::string>& hosts, const std::string& origin);

}  // namespace tmap::detail
