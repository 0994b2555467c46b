// The files launchers read (tmap/launch.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "tmap/error.hpp"
#include "tmap/launch.hpp"
#include "util/text.hpp"

namespace tmap {

bool is_launch_format(MappingFormat format) noexcept {
  return format == MappingFormat::Rankfile || format == MappingFormat::Hostfile ||
         format == MappingFormat::Machinefile || format == MappingFormat::Hydra || format == MappingFormat::RankOrder ||
         format == MappingFormat::Binding;
}

namespace {

/// Cray MPICH's rank order file: the ranks in the order of their PEs (node
/// after node, a node's in its PEs' order), a line per node after a comment
/// naming it. Cray MPICH fills each node with the same number of ranks (-N,
/// --ntasks-per-node), so a mapping that loads nodes unequally is refused.
std::string rank_order_file(std::span<const PE> mapping, const std::function<std::string(PE)>& host_of) {
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> nodes;
  for (const auto rank : ranks_in_pe_order(mapping)) {
    const auto r = static_cast<std::size_t>(rank);
    auto host = host_of(mapping[r]);
    if (nodes.empty() || nodes.back().first != host) nodes.emplace_back(std::move(host), std::vector<std::int64_t>{});
    nodes.back().second.push_back(static_cast<std::int64_t>(r));
  }
  for (const auto& [host, ranks] : nodes) {
    if (ranks.size() != nodes.front().second.size()) {
      throw ParameterError(fmt::format(
          "--format rank-order: Cray MPICH places the same number of ranks on every node (-N, --ntasks-per-node), "
          "but this mapping puts {} on {} and {} on {}: balance the nodes (e.g. -o or an allocation of fewer "
          "nodes), or launch with a rankfile, hostfile or tm-bind",
          nodes.front().second.size(), nodes.front().first, ranks.size(), host));
    }
  }
  const auto per_node = nodes.empty() ? 0 : nodes.front().second.size();
  std::string text = fmt::format(
      "# MPICH_RANK_ORDER written by tmap: {} ranks, {} on each of {} nodes (launch with {} ranks per node)\n"
      "# Cray MPICH: MPICH_RANK_REORDER_METHOD=3, this file named MPICH_RANK_ORDER in the run's folder\n"
      "# tmap ranks-per-node={}\n",
      mapping.size(), per_node, nodes.size(), per_node, per_node);
  for (const auto& [host, ranks] : nodes) text += fmt::format("# {}\n{}\n", host, detail::runs_text(ranks));
  return text;
}

}  // namespace

std::vector<Rank> ranks_in_pe_order(std::span<const PE> mapping) {
  std::vector<Rank> order(mapping.size());
  for (std::size_t r = 0; r < order.size(); ++r) order[r] = static_cast<Rank>(r);
  std::stable_sort(order.begin(), order.end(), [&](Rank a, Rank b) {
    return mapping[static_cast<std::size_t>(a)] < mapping[static_cast<std::size_t>(b)];
  });
  return order;
}

std::string format_launch_file(MappingFormat format, std::span<const PE> mapping,
                               const std::function<std::string(PE)>& host_of,
                               const std::function<std::string(PE)>& slot_of, const std::string& program,
                               const std::string& slot_kind) {
  if (!is_launch_format(format)) throw InternalError("not a launcher format");
  if (!host_of || ((format == MappingFormat::Rankfile || format == MappingFormat::Binding) && !slot_of)) {
    throw InternalError("launcher formats need host names and slots");
  }
  if (format == MappingFormat::Hydra && program.empty()) {
    throw ParameterError("the hydra format writes a Hydra -configfile and needs the program to launch");
  }
  if (format == MappingFormat::RankOrder) return rank_order_file(mapping, host_of);
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  if (format == MappingFormat::Binding && slot_kind == "gpu") {
    fmt::format_to(it,
                   "# tmap binding: rank, host, the CPUs near its GPU (OS numbers), the variable that gives it its "
                   "GPU; tm-bind FILE -- PROGRAM binds each rank there and sets the variable\n# tmap binding pe=gpu\n");
    for (std::size_t r = 0; r < mapping.size(); ++r) {
      fmt::format_to(it, "{} {} {}\n", r, host_of(mapping[r]), slot_of(mapping[r]));
    }
  } else if (format == MappingFormat::Binding) {
    // tm-bind's input: the kind first, so that it binds what was meant.
    fmt::format_to(it,
                   "# tmap binding: rank, host, the {}s it runs on (the host's, in hwloc's logical order); "
                   "tm-bind FILE -- PROGRAM binds each rank there\n# tmap binding pe={}\n",
                   slot_kind == "pu" ? "hardware thread" : "core", slot_kind);
    for (std::size_t r = 0; r < mapping.size(); ++r) {
      fmt::format_to(it, "{} {} {}\n", r, host_of(mapping[r]), slot_of(mapping[r]));
    }
  } else if (format == MappingFormat::Rankfile) {
    for (std::size_t r = 0; r < mapping.size(); ++r) {
      fmt::format_to(it, "rank {}={} slot={}\n", r, host_of(mapping[r]), slot_of(mapping[r]));
    }
  } else if (format == MappingFormat::Hostfile) {
    for (const PE p : mapping) fmt::format_to(it, "{}\n", host_of(p));
  } else {
    // Runs of consecutive ranks on one host: ranks are placed in order.
    for (std::size_t r = 0; r < mapping.size();) {
      const auto host = host_of(mapping[r]);
      std::size_t end = r + 1;
      while (end < mapping.size() && host_of(mapping[end]) == host) ++end;
      if (format == MappingFormat::Hydra) {
        fmt::format_to(it, "-n {} -host {} {}\n", end - r, host, program);
      } else {
        fmt::format_to(it, "{}:{}\n", host, end - r);
      }
      r = end;
    }
  }
  return fmt::to_string(out);
}

}  // namespace tmap
