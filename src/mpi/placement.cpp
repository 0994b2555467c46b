#include "mpi/placement.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/mapper.hpp"
#include "tmap/mapping.hpp"
#include "tmap/metrics.hpp"

namespace tmap::mpi {

namespace {

std::vector<PE> launch_order(const Topology& topology, std::size_t processes) {
  std::vector<PE> pes(processes);
  for (std::size_t i = 0; i < processes; ++i) pes[i] = static_cast<PE>(i % static_cast<std::size_t>(topology.size()));
  return pes;
}

}  // namespace

int given_gpu(const char* cuda, const char* rocr, const char* ze) {
  for (const char* value : {cuda, rocr, ze}) {
    if (value == nullptr || *value == '\0') continue;
    const std::string_view text(value);
    if (text.size() > 7 || text.find_first_not_of("0123456789") != std::string_view::npos) return -1;
    return std::stoi(std::string(text));
  }
  return -1;
}

int bound_pe_index(const ProcessSite& site, std::size_t node_pes) {
  const bool per_thread = site.pus > site.cores && static_cast<std::size_t>(site.pus) == node_pes;
  if (per_thread && site.pu >= 0) return site.pu;
  if (site.core >= 0) return site.core;
  if (site.cores > 0) return -1;  // hwloc saw it unbound (or across cores)
  return site.cpu;
}

std::vector<PE> locate_processes(const Topology& topology, const std::vector<ProcessSite>& sites, std::string* how) {
  std::set<std::string> hosts;
  for (const auto& s : sites) hosts.insert(s.host);
  std::map<std::string, NodeId> node_of_host;
  {
    for (NodeId node = 0; node < topology.num_nodes() && node_of_host.size() < hosts.size(); ++node) {
      const auto name = host_name(topology, node);
      if (hosts.contains(name)) node_of_host.emplace(name, node);
    }
  }
  if (node_of_host.size() != hosts.size()) {
    if (how != nullptr) {
      *how = hosts.size() <= 1 ? "one host the machine does not name: processes on PEs in launch order"
                               : "host names are not the machine's: processes on PEs in launch order";
    }
    return launch_order(topology, sites.size());
  }
  // Each node's PEs, in PE order.
  std::map<NodeId, std::vector<PE>> pes_of_node;
  for (PE pe = 0; pe < topology.size(); ++pe) {
    const auto node = topology.node_of(pe);
    for (const auto& [name, wanted] : node_of_host) {
      if (wanted == node) {
        pes_of_node[node].push_back(pe);
        break;
      }
    }
  }
  std::vector<PE> result(sites.size(), -1);
  // Bound processes first, on their CPU's PE; then the others in launch order.
  std::map<NodeId, std::vector<std::int64_t>> load;  // processes per PE index, per node
  for (const auto& [node, pes] : pes_of_node) load[node].assign(pes.size(), 0);
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const auto node = node_of_host.at(sites[i].host);
    const auto& pes = pes_of_node[node];
    // GPU PEs are numbered as the node's GPUs: a process sits on the one it was given.
    const bool gpus = device_slot(topology, pes.front()).has_value();
    const auto at = gpus ? sites[i].gpu : bound_pe_index(sites[i], pes.size());
    if (at >= 0 && static_cast<std::size_t>(at) < pes.size() && load[node][static_cast<std::size_t>(at)] == 0) {
      result[i] = pes[static_cast<std::size_t>(at)];
      ++load[node][static_cast<std::size_t>(at)];
    }
  }
  for (std::size_t i = 0; i < sites.size(); ++i) {
    if (result[i] >= 0) continue;
    const auto node = node_of_host.at(sites[i].host);
    auto& counts = load[node];
    // The least loaded PE of the node, lowest first.
    const auto at = static_cast<std::size_t>(std::min_element(counts.begin(), counts.end()) - counts.begin());
    result[i] = pes_of_node[node][at];
    ++counts[at];
  }
  if (how != nullptr) {
    *how = device_slot(topology, 0)
               ? "processes on the nodes their host names name, each on the GPU its launcher gave it"
               : "processes on the nodes their host names name, bound ones on their logical cores";
  }
  return result;
}

Assignment assign_vertices(const CommMatrix& graph, const Topology& topology, const std::vector<PE>& pe_of_process,
                           const Context& context) {
  const auto n = static_cast<std::size_t>(graph.num_ranks());
  if (n > pe_of_process.size()) throw InternalError("more graph vertices than processes");
  const auto constraints = process_constraints(topology, pe_of_process);
  auto mapping = map(Problem{graph, topology, constraints}, context);
  Mapping identity(pe_of_process.begin(), pe_of_process.begin() + static_cast<std::ptrdiff_t>(n));
  return settle(mapping, evaluate(graph, topology, mapping).hop_bytes, evaluate(graph, topology, identity).hop_bytes,
                pe_of_process);
}

Constraints process_constraints(const Topology& topology, const std::vector<PE>& pe_of_process) {
  std::map<PE, std::int64_t> processes_on;
  for (const auto pe : pe_of_process) ++processes_on[pe];
  std::vector<PE> allowed;
  std::int64_t capacity = 1;
  for (const auto& [pe, count] : processes_on) {
    allowed.push_back(pe);
    capacity = std::max(capacity, count);
  }
  return Constraints::allowed(topology, allowed, capacity);
}

Assignment settle(const Mapping& mapping, std::int64_t hop_bytes, std::int64_t identity_hop_bytes,
                  const std::vector<PE>& pe_of_process) {
  const auto n = mapping.size();
  std::map<PE, std::vector<int>> processes_on;
  for (std::size_t p = 0; p < pe_of_process.size(); ++p) processes_on[pe_of_process[p]].push_back(static_cast<int>(p));
  Assignment result;
  result.identity_hop_bytes = identity_hop_bytes;
  result.hop_bytes = hop_bytes;
  // A PE may hold more vertices than processes sit there (capacity is the
  // largest count): such a mapping cannot be played, keep the identity.
  std::map<PE, std::size_t> used;
  bool playable = true;
  for (const auto pe : mapping) playable = playable && ++used[pe] <= processes_on[pe].size();
  Mapping chosen = mapping;
  if (!playable || hop_bytes >= identity_hop_bytes) {
    chosen.assign(pe_of_process.begin(), pe_of_process.begin() + static_cast<std::ptrdiff_t>(n));
    result.hop_bytes = identity_hop_bytes;
  }
  // Vertices on a PE take its processes in order: first vertex, first process.
  std::map<PE, std::size_t> next;
  result.process_of_vertex.resize(n);
  for (std::size_t k = 0; k < n; ++k) result.process_of_vertex[k] = processes_on[chosen[k]][next[chosen[k]]++];
  return result;
}

}  // namespace tmap::mpi
