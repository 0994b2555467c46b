#include "tmap/allocation.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <unordered_map>

#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/io.hpp"
#include "tmap/topology.hpp"
#include "util/file.hpp"
#include "util/hostlist.hpp"
#include "util/text.hpp"

namespace tmap {

namespace {

bool is_id_ranges(std::string_view list) {
  return list.find_first_not_of("0123456789-, \t") == std::string_view::npos;
}

/// Whether an id-range list's first entry is one of the machine's host
/// names (hosts called "2", "3", ...): then the list is read as hosts.
bool names_a_known_host(std::string_view list, const HostIds* known) {
  if (known == nullptr) return false;
  std::string_view rest = list;
  std::string_view first;
  if (!detail::next_token(rest, first, ", \t\n")) return false;
  return known->contains(std::string(first));
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view list, const std::string& origin) {
  return detail::expand_hostlist(list, origin);
}

NodeId node_of_host(std::string_view host, const std::string& host_pattern, const std::string& origin,
                    const HostIds* known) {
  if (known != nullptr) {
    if (const auto it = known->find(std::string(host)); it != known->end()) return it->second;
    // A machine whose hosts are named knows them all: another name is
    // another machine's (or misspelt), and its number would be a guess.
    if (host_pattern.empty()) {
      // The first and last in node order (node1 .. node32; as text it would be node1 .. node9).
      std::string_view low;
      std::string_view high;
      NodeId low_id = 0;
      NodeId high_id = 0;
      for (const auto& [name, id] : *known) {
        if (low.empty() || id < low_id) {
          low = name;
          low_id = id;
        }
        if (high.empty() || id > high_id) {
          high = name;
          high_id = id;
        }
      }
      throw InputError(origin + ": host '" + std::string(host) + "' is not a node of this machine (its " +
                       std::to_string(known->size()) + " hosts are " + std::string(low) + " .. " + std::string(high) +
                       "; --host-pattern reads node numbers from other names)");
    }
  }
  if (!host_pattern.empty()) {
    std::regex pattern;
    try {
      pattern = std::regex(host_pattern);
    } catch (const std::regex_error& e) {
      throw ParameterError("host-pattern: '" + host_pattern + "' is not a valid regular expression");
    }
    std::match_results<std::string_view::const_iterator> match;
    NodeId id = 0;
    if (!std::regex_match(host.begin(), host.end(), match, pattern) || match.size() < 2 ||
        !detail::parse_int(std::string_view(&*match[1].first, static_cast<std::size_t>(match[1].length())), id)) {
      throw InputError(origin + ": host '" + std::string(host) + "' does not match the host pattern '" + host_pattern +
                       "' with a number in its first group");
    }
    return id;
  }
  std::size_t start = host.size();
  while (start > 0 && host[start - 1] >= '0' && host[start - 1] <= '9') --start;
  NodeId id = 0;
  if (start == host.size() || !detail::parse_int(host.substr(start), id)) {
    throw InputError(origin + ": host '" + std::string(host) +
                     "' has no trailing number to take as its node id (give a host pattern)");
  }
  return id;
}

Allocation parse_allocation(std::string_view list, const std::string& host_pattern, const std::string& origin,
                            const HostIds* known) {
  Allocation a;
  a.origin = origin;
  // Ids are ids, on a named machine too ("2-9,16-23", as --help offers),
  // unless the machine names a host by digits alone and the list names it.
  if (is_id_ranges(list) && host_pattern.empty() && !names_a_known_host(list, known)) {
    a.nodes = parse_node_ranges(list, origin);
    return a;
  }
  a.hosts = expand_hostlist(list, origin);
  for (const auto& h : a.hosts) a.nodes.push_back(node_of_host(h, host_pattern, origin, known));
  return a;
}

std::string host_number_note(const Allocation& allocation, const Topology& topology) {
  if (allocation.hosts.empty() || allocation.hosts.size() != allocation.nodes.size()) return {};
  std::string shown;
  std::size_t differ = 0;
  for (std::size_t k = 0; k < allocation.hosts.size(); ++k) {
    const auto own = host_name(topology, allocation.nodes[k]);
    if (allocation.hosts[k] == own) continue;  // the machine's own name: exact
    if (++differ <= 4) shown += (shown.empty() ? "" : ", ") + allocation.hosts[k] + " -> " + own;
  }
  if (differ == 0) return {};
  if (differ > 4) shown += ", ...";
  // The names the user probably means: the first host's prefix and
  // padding, numbered from 1 over the whole machine.
  const auto& first = allocation.hosts.front();
  std::size_t digits = first.size();
  while (digits > 0 && first[digits - 1] >= '0' && first[digits - 1] <= '9') --digits;
  const auto width = std::max(first.size() - digits, std::to_string(topology.num_nodes()).size());
  const auto padded = [width](NodeId number) {
    auto text = std::to_string(number);
    return std::string(width > text.size() ? width - text.size() : 0, '0') + text;
  };
  return allocation.origin +
         ": this machine's hosts have no names, so each host was read by its trailing number as a " +
         "node id, counting from 0 (" + shown + "); if " + first.substr(0, digits) + padded(1) +
         " is the machine's first node, name the hosts: --host-names '" + first.substr(0, digits) + "[" + padded(1) +
         "-" + padded(topology.num_nodes()) + "]'";
}

void Allocation::resolve(const Topology& topology) {
  std::map<NodeId, std::size_t> first;
  const auto range = [&topology] {
    const auto lo = node_label(topology, 0);
    const auto hi = node_label(topology, topology.num_nodes() - 1);
    return hi - lo + 1 == topology.num_nodes() ? "nodes " + std::to_string(lo) + ".." + std::to_string(hi)
                                               : std::to_string(topology.num_nodes()) + " nodes numbered " +
                                                     std::to_string(lo) + ".." + std::to_string(hi) + " with gaps";
  };
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const auto what = hosts.empty() ? "node " + std::to_string(nodes[k])
                                    : "host " + hosts[k] + " (node " + std::to_string(nodes[k]) + ")";
    const auto index = node_with_label(topology, nodes[k]);
    if (!index) throw InputError(origin + ": " + what + " is outside the topology (" + range() + ")");
    const auto [it, fresh] = first.emplace(*index, k);
    if (!fresh) {
      throw InputError(origin + ": " + what + " is listed twice" +
                       (hosts.empty() ? "" : " (also as " + hosts[it->second] + ")"));
    }
    nodes[k] = *index;
  }
}

void Allocation::check(const Topology& topology) const {
  Allocation copy = *this;
  copy.resolve(topology);
}

}  // namespace tmap
