#include "tmap/allocation.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <unordered_map>

#include "tmap/error.hpp"
#include "tmap/io.hpp"
#include "tmap/topology.hpp"
#include "util/text.hpp"

namespace tmap {

namespace {

/// Most hosts a host list may expand to.
constexpr std::size_t kMaxHosts = std::size_t{1} << 20;

/// Splits at commas outside brackets.
std::vector<std::string_view> split_top_level(std::string_view list, const std::string& origin) {
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t k = 0; k <= list.size(); ++k) {
    const char c = k < list.size() ? list[k] : ',';
    if (c == '[') ++depth;
    if (c == ']' && --depth < 0) throw InputError(origin + " '" + std::string(list) + "': unbalanced ']'");
    // Commas, and white space or newlines as in a pasted host list, separate hosts.
    const bool separator = c == ',' || std::string_view(" \t\r\n\v\f").find(c) != std::string_view::npos;
    if (separator && depth == 0) {
      auto item = list.substr(start, k - start);
      while (!item.empty() && detail::kBlanks.find(item.front()) != std::string_view::npos) item.remove_prefix(1);
      while (!item.empty() && detail::kBlanks.find(item.back()) != std::string_view::npos) item.remove_suffix(1);
      if (!item.empty()) items.push_back(item);
      start = k + 1;
    }
  }
  if (depth != 0) throw InputError(origin + " '" + std::string(list) + "': unbalanced '['");
  return items;
}

/// Expands one item with bracket groups, e.g. "n[1-2]-ib[0-1]".
void expand_item(std::string_view item, const std::string& prefix, std::vector<std::string>& out,
                 const std::string& origin) {
  const auto open = item.find('[');
  if (open == std::string_view::npos) {
    if (out.size() == kMaxHosts) {
      throw InputError(origin + ": the host list expands to more than " + std::to_string(kMaxHosts) + " hosts");
    }
    out.push_back(prefix + std::string(item));
    return;
  }
  const auto close = item.find(']', open);
  const auto head = prefix + std::string(item.substr(0, open));
  const auto inside = item.substr(open + 1, close - open - 1);
  const auto tail = item.substr(close + 1);
  std::string_view rest = inside;
  std::string_view range;
  if (inside.empty()) throw InputError(origin + ": empty brackets in '" + std::string(item) + "'");
  while (detail::next_token(rest, range, ",")) {
    const auto dash = range.find('-');
    const auto lo_text = range.substr(0, dash);
    const auto hi_text = dash == std::string_view::npos ? lo_text : range.substr(dash + 1);
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    if (!detail::parse_int(lo_text, lo) || !detail::parse_int(hi_text, hi) || lo < 0 || hi < lo) {
      throw InputError(origin + ": bad range '" + std::string(range) + "' in '" + std::string(item) + "'");
    }
    if (hi - lo >= static_cast<std::int64_t>(kMaxHosts)) {
      throw InputError(origin + ": range '" + std::string(range) + "' is too long");
    }
    const auto width = lo_text.size();  // zero padding as written
    for (std::int64_t v = lo; v <= hi; ++v) {
      auto digits = std::to_string(v);
      if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
      expand_item(tail, head + digits, out, origin);
    }
  }
}

bool is_id_ranges(std::string_view list) {
  return list.find_first_not_of("0123456789-, \t") == std::string_view::npos;
}

/// How many hosts an item expands to (saturating above kMaxHosts), so huge
/// lists are refused before any string is built.
std::size_t count_item(std::string_view item) {
  std::size_t total = 1;
  for (auto open = item.find('['); open != std::string_view::npos; open = item.find('[', open + 1)) {
    const auto close = item.find(']', open);
    if (close == std::string_view::npos) return total;
    std::size_t group = 0;
    std::string_view rest = item.substr(open + 1, close - open - 1);
    std::string_view range;
    while (detail::next_token(rest, range, ",")) {
      const auto dash = range.find('-');
      std::int64_t lo = 0;
      std::int64_t hi = 0;
      if (!detail::parse_int(range.substr(0, dash), lo)) return total;  // expand_item reports it
      hi = lo;
      if (dash != std::string_view::npos && !detail::parse_int(range.substr(dash + 1), hi)) return total;
      if (hi >= lo) group += static_cast<std::size_t>(std::min<std::int64_t>(hi - lo + 1, kMaxHosts + 1));
      group = std::min(group, kMaxHosts + 1);
    }
    total = std::min(total * std::max<std::size_t>(group, 1), kMaxHosts + 1);
  }
  return total;
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view list, const std::string& origin) {
  std::vector<std::string> hosts;
  const auto items = split_top_level(list, origin);
  std::size_t total = 0;
  for (const auto item : items) total = std::min(total + count_item(item), kMaxHosts + 1);
  if (total > kMaxHosts) {
    throw InputError(origin + ": the host list expands to more than " + std::to_string(kMaxHosts) + " hosts");
  }
  for (const auto item : items) expand_item(item, "", hosts, origin);
  if (hosts.empty()) throw InputError(origin + ": no hosts given");
  return hosts;
}

NodeId node_of_host(std::string_view host, const std::string& host_pattern, const std::string& origin,
                    const HostIds* known) {
  if (known != nullptr) {
    if (const auto it = known->find(std::string(host)); it != known->end()) return it->second;
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
  if (is_id_ranges(list) && host_pattern.empty() && known == nullptr) {
    a.nodes = parse_node_ranges(list, origin);
    return a;
  }
  a.hosts = expand_hostlist(list, origin);
  for (const auto& h : a.hosts) a.nodes.push_back(node_of_host(h, host_pattern, origin, known));
  return a;
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

Allocation allocation_from_env(const std::string& host_pattern, const HostIds* known) {
  if (const char* slurm = std::getenv("SLURM_JOB_NODELIST"); slurm != nullptr && *slurm != '\0') {
    auto a = parse_allocation(slurm, host_pattern, "SLURM_JOB_NODELIST", known);
    // Parts of nodes: Slurm says how many CPUs the job holds on each.
    if (const char* cpus = std::getenv("SLURM_JOB_CPUS_PER_NODE"); cpus != nullptr && *cpus != '\0') {
      a.cpus = expand_slurm_counts(cpus, "SLURM_JOB_CPUS_PER_NODE");
      if (a.cpus.size() != a.nodes.size()) {
        throw InputError("SLURM_JOB_CPUS_PER_NODE '" + std::string(cpus) + "' gives " + std::to_string(a.cpus.size()) +
                         " counts for the " + std::to_string(a.nodes.size()) + " nodes of SLURM_JOB_NODELIST");
      }
    }
    return a;
  }
  if (const char* pbs = std::getenv("PBS_NODEFILE"); pbs != nullptr && *pbs != '\0') {
    const auto text = read_file(pbs);
    Allocation a;
    a.origin = pbs;
    detail::LineReader lines(text);
    std::string_view line;
    std::unordered_map<std::string_view, std::size_t> index;  // O(1) per line: node files of 10^6 slots
    while (lines.next(line)) {
      std::string_view host;
      if (!detail::next_token(line, host)) continue;
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
  throw InputError("no scheduler allocation in the environment: neither SLURM_JOB_NODELIST nor PBS_NODEFILE is set");
}

void Allocation::resolve(const Topology& topology) {
  std::map<NodeId, std::size_t> first;
  const auto range = [&topology] {
    const auto lo = topology.node_label(0);
    const auto hi = topology.node_label(topology.num_nodes() - 1);
    return hi - lo + 1 == topology.num_nodes() ? "nodes " + std::to_string(lo) + ".." + std::to_string(hi)
                                               : std::to_string(topology.num_nodes()) + " nodes numbered " +
                                                     std::to_string(lo) + ".." + std::to_string(hi) + " with gaps";
  };
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const auto what = hosts.empty() ? "node " + std::to_string(nodes[k])
                                    : "host " + hosts[k] + " (node " + std::to_string(nodes[k]) + ")";
    const auto index = topology.node_with_label(nodes[k]);
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
