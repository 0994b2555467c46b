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

/// Most entries a count list may expand to (as many as a host list's hosts).
constexpr std::size_t kMaxHosts = std::size_t{1} << 20;

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

std::vector<std::int64_t> expand_slurm_counts(std::string_view text, const std::string& origin) {
  std::vector<std::int64_t> counts;
  std::string_view rest = text;
  std::string_view item;
  while (detail::next_token(rest, item, ",")) {
    std::int64_t repeat = 1;
    auto count_text = item;
    if (const auto open = item.find("(x"); open != std::string_view::npos) {
      if (!item.ends_with(')') || !detail::parse_int(item.substr(open + 2, item.size() - open - 3), repeat) ||
          repeat < 1 || repeat > static_cast<std::int64_t>(kMaxHosts)) {
        throw InputError(origin + ": bad repetition '" + std::string(item) + "' (expected COUNT(xTIMES))");
      }
      count_text = item.substr(0, open);
    }
    std::int64_t count = 0;
    if (!detail::parse_int(count_text, count) || count < 1 || count > (std::int64_t{1} << 24)) {
      throw InputError(origin + ": bad CPU count '" + std::string(item) + "'");
    }
    if (counts.size() + static_cast<std::size_t>(repeat) > kMaxHosts) throw InputError(origin + ": too many entries");
    counts.insert(counts.end(), static_cast<std::size_t>(repeat), count);
  }
  if (counts.empty()) throw InputError(origin + ": no CPU counts");
  return counts;
}

namespace {

/// The variable's value, or nullptr when unset or empty.
const char* env(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  return value != nullptr && *value != '\0' ? value : nullptr;
}

/// One Slurm job's part of the allocation: SLURM_JOB_NODELIST<suffix>,
/// SLURM_JOB_CPUS_PER_NODE<suffix>, SLURM_CPUS_PER_TASK<suffix>,
/// SLURM_JOB_ID<suffix> (suffix "" or "_HET_GROUP_<g>").
Allocation slurm_group(const std::string& suffix, const std::string& host_pattern, const HostIds* known,
                       bool cpus_per_rank_given) {
  const std::string nodelist = "SLURM_JOB_NODELIST" + suffix;
  auto a = parse_allocation(env(nodelist), host_pattern, nodelist, known);
  a.origin = nodelist;
  // Parts of nodes: Slurm says how many CPUs the job holds on each.
  const std::string per_node = "SLURM_JOB_CPUS_PER_NODE" + suffix;
  if (const char* cpus = env(per_node)) {
    a.cpus = expand_slurm_counts(cpus, per_node);
    if (a.cpus.size() != a.nodes.size()) {
      throw InputError(per_node + " '" + std::string(cpus) + "' gives " + std::to_string(a.cpus.size()) +
                       " counts for the " + std::to_string(a.nodes.size()) + " nodes of " + nodelist);
    }
  }
  const std::string per_task = "SLURM_CPUS_PER_TASK" + suffix;
  if (const char* c = cpus_per_rank_given ? nullptr : env(per_task)) {
    if (!detail::parse_int(c, a.cpus_per_rank) || a.cpus_per_rank < 1 || a.cpus_per_rank > (std::int64_t{1} << 20)) {
      throw InputError(per_task + " '" + std::string(c) + "': expected a positive number of CPUs per task");
    }
    a.cpus_per_rank_origin = per_task;
  }
  if (const char* id = env("SLURM_JOB_ID" + suffix)) a.jobs.emplace_back(id);
  return a;
}

/// A heterogeneous job: every group (hosts shared by groups merged, their
/// CPUs added), or the one asked for.
Allocation slurm_het_job(const std::string& host_pattern, const HostIds* known, std::optional<int> het_group,
                         bool cpus_per_rank_given) {
  int groups = 0;
  while (env("SLURM_JOB_NODELIST_HET_GROUP_" + std::to_string(groups)) != nullptr) ++groups;
  if (het_group) {
    if (*het_group < 0 || *het_group >= groups) {
      throw ParameterError("het-group: " + std::to_string(*het_group) + " is not a group of this job (Slurm set " +
                           "SLURM_JOB_NODELIST_HET_GROUP_0.." + std::to_string(groups - 1) + ")");
    }
    return slurm_group("_HET_GROUP_" + std::to_string(*het_group), host_pattern, known, cpus_per_rank_given);
  }
  Allocation all;
  all.origin = "SLURM_JOB_NODELIST_HET_GROUP_*";
  std::map<NodeId, std::size_t> index;
  bool counted = true;  // every group said its CPUs per node
  for (int g = 0; g < groups; ++g) {
    const auto part = slurm_group("_HET_GROUP_" + std::to_string(g), host_pattern, known, cpus_per_rank_given);
    if (g > 0 && part.cpus_per_rank != all.cpus_per_rank) {
      throw InputError("the heterogeneous job's groups take " + std::to_string(all.cpus_per_rank) + " and " +
                       std::to_string(part.cpus_per_rank) +
                       " CPUs per task (SLURM_CPUS_PER_TASK_HET_GROUP_*): map each group with --het-group N");
    }
    all.cpus_per_rank = part.cpus_per_rank;
    all.cpus_per_rank_origin = part.cpus_per_rank_origin;
    all.jobs.insert(all.jobs.end(), part.jobs.begin(), part.jobs.end());
    counted = counted && !part.cpus.empty();
    for (std::size_t k = 0; k < part.nodes.size(); ++k) {
      const auto [it, fresh] = index.emplace(part.nodes[k], all.nodes.size());
      if (fresh) {
        all.nodes.push_back(part.nodes[k]);
        all.hosts.push_back(k < part.hosts.size() ? part.hosts[k] : std::string());
        all.cpus.push_back(part.cpus.empty() ? 0 : part.cpus[k]);
      } else if (!part.cpus.empty()) {
        all.cpus[it->second] += part.cpus[k];
      }
    }
  }
  if (!counted) all.cpus.clear();  // a group of whole nodes: whole nodes for all
  return all;
}

}  // namespace

Allocation allocation_from_env(const std::string& host_pattern, const HostIds* known, std::optional<int> het_group,
                               bool cpus_per_rank_given) {
  if (env("SLURM_JOB_NODELIST_HET_GROUP_0") != nullptr) {
    return slurm_het_job(host_pattern, known, het_group, cpus_per_rank_given);
  }
  if (het_group) {
    throw ParameterError("het-group: this is not a heterogeneous Slurm job (no SLURM_JOB_NODELIST_HET_GROUP_0)");
  }
  if (env("SLURM_JOB_NODELIST") != nullptr) return slurm_group("", host_pattern, known, cpus_per_rank_given);
  if (const char* pbs = std::getenv("PBS_NODEFILE"); pbs != nullptr && *pbs != '\0') {
    const auto text = detail::read_text_file(pbs);
    Allocation a;
    a.origin = pbs;
    detail::LineReader lines(text);
    std::string_view line;
    std::unordered_map<std::string_view, std::size_t> index;  // O(1) per line: node files of 10^6 slots
    while (lines.next(line)) {
      std::string_view host;
      if (!detail::next_token(line, host)) continue;
      if (const auto bad = std::find_if(host.begin(), host.end(),
                                        [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
          bad != host.end()) {
        throw InputError(pbs, lines.line_number(), "a host name holds a control byte: not a host name");
      }
      const auto [it, fresh] = index.emplace(host, a.hosts.size());
      if (!fresh) {  // one line per slot: count the CPUs
        ++a.cpus[it->second];
        continue;
      }
      a.hosts.emplace_back(host);
      a.cpus.push_back(1);
      a.nodes.push_back(
          node_of_host(host, host_pattern, std::string(pbs) + ":" + std::to_string(lines.line_number()), known));
    }
    if (a.hosts.empty()) throw InputError(pbs, "no hosts listed");
    return a;
  }
  throw NoSchedulerError(
      "no scheduler allocation in the environment: neither SLURM_JOB_NODELIST nor PBS_NODEFILE is set");
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
