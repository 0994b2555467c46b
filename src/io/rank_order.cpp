#include "io/rank_order.hpp"

#include "io/topomatch_prefix.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/io.hpp"
#include "tmap/topology.hpp"
#include "util/text.hpp"

namespace tmap {

namespace detail {

namespace {

constexpr std::string_view kPerNodeKey = "tmap ranks-per-node=";

}  // namespace

bool looks_like_rank_order(std::string_view text) {
  // JSON and TopoMatch's line list values with commas too.
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] == '{' || text.substr(first).starts_with(kTopoMatchPrefix)) {
    return false;
  }
  if (text.find("# MPICH_RANK_ORDER") != std::string_view::npos) return true;
  LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    line = strip_comment(line, '#');
    if (line.find(',') != std::string_view::npos) return true;
    // A range "3-7" (a perm's PE ids are never negative, so '-' after a digit).
    for (std::size_t k = 1; k < line.size(); ++k) {
      if (line[k] == '-' && line[k - 1] >= '0' && line[k - 1] <= '9') return true;
    }
  }
  return false;
}

RankOrderFile parse_rank_order(std::string_view text, const std::string& origin) {
  RankOrderFile file;
  std::vector<std::int64_t> line_of;  // where each rank was listed
  LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const auto at = lines.line_number();
    if (const auto key = line.find(kPerNodeKey); key != std::string_view::npos) {
      std::string_view rest = line.substr(key + kPerNodeKey.size());
      std::string_view value;
      if (next_token(rest, value)) file.per_node = parse_int_in(value, 1, kMaxRanks, "ranks per node", origin, at);
    }
    line = strip_comment(line, '#');
    std::string_view token;
    while (next_token(line, token, " \t\r\v\f,")) {
      const auto [first, last] = parse_range(token, 0, kMaxRanks - 1, "rank", origin, at);
      if (static_cast<std::int64_t>(file.order.size()) + (last - first) >= kMaxRanks) {
        throw InputError(origin, at, "more ranks than tmap's limit of " + std::to_string(kMaxRanks));
      }
      for (auto r = first; r <= last; ++r) {
        file.order.push_back(static_cast<Rank>(r));
        line_of.push_back(at);
      }
    }
  }
  const auto n = static_cast<std::int64_t>(file.order.size());
  if (n == 0) throw InputError(origin, "no rank listed");
  std::vector<std::int64_t> listed_at(static_cast<std::size_t>(n), 0);
  for (std::size_t k = 0; k < file.order.size(); ++k) {
    const auto r = file.order[k];
    if (r >= n) {
      throw InputError(origin, line_of[k],
                       "rank " + std::to_string(r) + " but the file lists " + std::to_string(n) +
                           " ranks: each of 0.." + std::to_string(n - 1) + " once");
    }
    auto& seen = listed_at[static_cast<std::size_t>(r)];
    if (seen != 0) {
      throw InputError(origin, line_of[k],
                       "rank " + std::to_string(r) + " is listed twice (also line " + std::to_string(seen) + ")");
    }
    seen = line_of[k];
  }
  return file;
}

}  // namespace detail

Mapping rank_order_placement(std::span<const Rank> order, std::int64_t per_node, const Topology& topology,
                             const Constraints& constraints, const std::string& origin) {
  // Each node's slots: its allowed PEs in increasing order, `capacity` each.
  std::vector<std::vector<PE>> slots_of(static_cast<std::size_t>(topology.num_nodes()));
  for (const PE p : constraints.allowed_pes()) {
    auto& slots = slots_of[static_cast<std::size_t>(topology.node_of(p))];
    slots.insert(slots.end(), static_cast<std::size_t>(constraints.capacity()), p);
  }
  Mapping mapping(order.size(), -1);
  std::size_t next = 0;
  for (std::size_t node = 0; node < slots_of.size() && next < order.size(); ++node) {
    const auto& slots = slots_of[node];
    if (slots.empty()) continue;
    if (per_node > 0 && static_cast<std::size_t>(per_node) > slots.size()) {
      throw InputError(origin, std::to_string(per_node) + " ranks per node, but node " +
                                   host_name(topology, static_cast<NodeId>(node)) + " has " +
                                   std::to_string(slots.size()) + " slot(s) in this job");
    }
    const auto take = per_node > 0 ? static_cast<std::size_t>(per_node) : slots.size();
    for (std::size_t k = 0; k < take && next < order.size(); ++k) {
      mapping[static_cast<std::size_t>(order[next++])] = slots[k];
    }
  }
  if (next < order.size()) {
    throw InputError(origin, std::to_string(order.size()) + " ranks, but the job's nodes hold " + std::to_string(next) +
                                 (per_node > 0 ? " at " + std::to_string(per_node) + " a node" : std::string()));
  }
  return mapping;
}

}  // namespace tmap
