// Host names for launching (tmap/launch.hpp): a hosts file's, the
// machine's own, the scheduler's spelling.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/launch.hpp"
#include "tmap/topology.hpp"
#include "util/hostlist.hpp"

namespace tmap {

std::vector<std::string> parse_hosts_file(std::string_view text, const std::string& origin, NodeId nodes) {
  std::vector<std::string> names;
  std::map<std::string, std::int64_t, std::less<>> line_of;
  std::size_t start = 0;
  for (std::int64_t line = 1; start <= text.size(); ++line) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    auto entry = text.substr(start, end - start);
    entry = entry.substr(0, entry.find('#'));
    const auto first = entry.find_first_not_of(" \t\r");
    if (first != std::string_view::npos) {
      entry = entry.substr(first, entry.find_last_not_of(" \t\r") - first + 1);
      if (entry.find_first_of(" \t") != std::string_view::npos) {
        throw InputError(origin, line, "expected one host name per line, found '" + std::string(entry) + "'");
      }
      // A launcher file gets the name as it is: nothing it reads as syntax.
      if (const auto why = detail::bad_host_name(entry); !why.empty()) {
        throw InputError(origin, line, why);
      }
      if (const auto [it, fresh] = line_of.emplace(entry, line); !fresh) {
        throw InputError(
            origin, line,
            "host " + std::string(entry) + " is listed twice (first on line " + std::to_string(it->second) + ")");
      }
      names.emplace_back(entry);
    }
    start = end + 1;
  }
  if (static_cast<NodeId>(names.size()) != nodes) {
    throw InputError(origin, "lists " + std::to_string(names.size()) + " hosts but the machine has " +
                                 std::to_string(nodes) + " nodes (one line per node, in node order)");
  }
  return names;
}

HostIds allocation_host_ids(const Topology& topology, const std::vector<std::string>& listed) {
  auto names = listed;
  if (names.empty()) {
    // The machine's own names (--host-names, a topology.conf's, Slurm's):
    // an allocation names those hosts. A machine without names calls its
    // nodes cn<label>, and any host's trailing number is its node; a
    // one-node machine (an hwloc tree) names the host it was taken on.
    for (NodeId k = 0; k < topology.num_nodes() && topology.num_nodes() > 1; ++k) {
      names.push_back(host_name(topology, k));
    }
    bool named = false;
    for (std::size_t k = 0; k < names.size() && !named; ++k) {
      named = names[k] != "cn" + std::to_string(node_label(topology, static_cast<NodeId>(k)));
    }
    if (!named) names.clear();
  }
  HostIds known;
  for (std::size_t k = 0; k < names.size(); ++k) known.emplace(names[k], node_label(topology, static_cast<NodeId>(k)));
  return known;
}

std::function<std::string(PE)> launch_host_names(const Topology& topology, const Allocation* allocation,
                                                 std::vector<std::string> listed) {
  std::map<NodeId, std::string> spelled;
  if (allocation != nullptr) {
    for (std::size_t k = 0; k < allocation->hosts.size(); ++k) spelled[allocation->nodes[k]] = allocation->hosts[k];
  }
  return [&topology, spelled = std::move(spelled), listed = std::move(listed)](PE pe) {
    const auto node = topology.node_of(pe);
    if (const auto it = spelled.find(node); it != spelled.end()) return it->second;
    if (!listed.empty()) return listed[static_cast<std::size_t>(node)];
    return host_name(topology, node);
  };
}

}  // namespace tmap
