// Rank slots: the CPUs a scheduler gave, grouped per rank, and the
// launcher's binding order (tmap/launch.hpp).
#include <fmt/format.h>

#include <algorithm>

#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/launch.hpp"
#include "tmap/topology.hpp"
#include "util/text.hpp"

namespace tmap {

// Slurm writes a run of two as a range ("7-8").
std::string cpu_list_text(const std::vector<std::int64_t>& cpus) {
  return detail::runs_text(cpus, 2);
}

std::string RankSlots::slot_text(PE pe) const {
  const auto it = cpus_of.find(pe);
  return it != cpus_of.end() ? cpu_list_text(it->second) : std::string("?");
}

RankSlots rank_slots(const Topology& t, const Allocation* allocation, std::int64_t cpus_per_rank) {
  // Each node's PEs by their index in the node (Slurm's CPU id).
  std::vector<std::vector<PE>> pes_of(static_cast<std::size_t>(t.num_nodes()));
  for (PE p = 0; p < t.size(); ++p) {
    auto& pes = pes_of[static_cast<std::size_t>(t.node_of(p))];
    const auto slot = static_cast<std::size_t>(std::max<std::int64_t>(slot_in_node(t, p), 0));
    if (pes.size() <= slot) pes.resize(slot + 1, -1);
    pes[slot] = p;
  }
  RankSlots slots;
  std::int64_t most_cpus = 0;  // the most CPUs one node gives the job
  const auto nodes = allocation != nullptr ? allocation->nodes.size() : static_cast<std::size_t>(t.num_nodes());
  for (std::size_t k = 0; k < nodes; ++k) {
    const auto node = allocation != nullptr ? allocation->nodes[k] : static_cast<NodeId>(k);
    const auto& pes = pes_of[static_cast<std::size_t>(node)];
    const auto host = allocation != nullptr && k < allocation->hosts.size() && !allocation->hosts[k].empty()
                          ? allocation->hosts[k]
                          : host_name(t, node);
    std::vector<std::int64_t> ids;
    if (allocation != nullptr && k < allocation->cpu_ids.size() && !allocation->cpu_ids[k].empty()) {
      ids = allocation->cpu_ids[k];
      for (const auto id : ids) {
        if (id >= static_cast<std::int64_t>(pes.size()) || pes[static_cast<std::size_t>(id)] < 0) {
          throw InputError(fmt::format(
              "Slurm gave CPU {} on {} to this job, but the machine model's node there has {} PEs (0..{}): describe "
              "the node's real CPUs in the machine (e.g. tianhe3:...,cores=K)",
              id, host, pes.size(), pes.size() - 1));
        }
      }
    } else {
      auto count = static_cast<std::int64_t>(pes.size());
      if (allocation != nullptr && k < allocation->cpus.size()) {
        if (allocation->cpus[k] > count && slots.shortfall.empty()) {
          slots.shortfall = fmt::format(
              "{} gave {} CPUs on {}, the machine model says {} per node: using {} (describe the node's real "
              "cores, e.g. tianhe3:...,cores=K)",
              allocation->origin.starts_with("SLURM_JOB_NODELIST")
                  ? "SLURM_JOB_CPUS_PER_NODE" + allocation->origin.substr(18)
                  : allocation->origin,
              allocation->cpus[k], host, count, count);
        }
        count = std::min(count, allocation->cpus[k]);
      }
      for (std::int64_t id = 0; id < count; ++id) ids.push_back(id);
    }
    most_cpus = std::max(most_cpus, static_cast<std::int64_t>(ids.size()));
    for (std::size_t g = 0; (g + 1) * static_cast<std::size_t>(cpus_per_rank) <= ids.size(); ++g) {
      const auto first = ids.begin() + static_cast<std::ptrdiff_t>(g * static_cast<std::size_t>(cpus_per_rank));
      slots.cpus_of[pes[static_cast<std::size_t>(*first)]] = {first, first + cpus_per_rank};
    }
  }
  if (slots.cpus_of.empty() && cpus_per_rank > 1) {
    // Not one rank fits: mapping onto whole nodes instead would launch
    // every rank on one CPU, which is not what was asked.
    const auto origin = allocation != nullptr && !allocation->cpus_per_rank_origin.empty()
                            ? allocation->cpus_per_rank_origin
                            : std::string("--cpus-per-rank");
    throw InputError(
        fmt::format("{}{}{}: a rank takes {} CPUs, but no node has that many for this job ({} at most{}); "
                    "ask for fewer CPUs per rank or for nodes with more",
                    origin, origin.starts_with("--") ? " " : "=", cpus_per_rank, cpus_per_rank, most_cpus,
                    allocation != nullptr && !allocation->cpus.empty() ? ", as the scheduler counts them" : ""));
  }
  return slots;
}

RankSlots job_rank_slots(const Topology& t, const Allocation* allocation, std::int64_t cpus_per_rank) {
  const bool parts = allocation != nullptr && (!allocation->cpus.empty() || !allocation->cpu_ids.empty());
  if (!parts && cpus_per_rank <= 1) return {};
  return rank_slots(t, allocation, cpus_per_rank);
}

Constraints job_constraints(const Topology& t, const Allocation* allocation, const RankSlots& slots,
                            Rank oversubscription) {
  if (slots.cpus_of.empty()) {
    return allocation != nullptr ? Constraints::on_nodes(t, allocation->nodes, oversubscription)
                                 : Constraints::all(t, oversubscription);
  }
  std::vector<PE> pes;
  pes.reserve(slots.cpus_of.size());
  for (const auto& [pe, cpus] : slots.cpus_of) pes.push_back(pe);
  return Constraints::allowed(t, std::move(pes), oversubscription);
}

void keep_launch_order(Mapping& mapping, const Topology& t, const RankSlots& slots) {
  if (slots.cpus_of.empty() || !t.node_uniform_distance()) return;
  // Per node: its ranks in rank order, and its groups' PEs in CPU order.
  std::map<NodeId, std::vector<std::size_t>> ranks_on;
  for (std::size_t r = 0; r < mapping.size(); ++r) ranks_on[t.node_of(mapping[r])].push_back(r);
  std::map<NodeId, std::vector<std::pair<std::int64_t, PE>>> groups_on;
  for (const auto& [pe, cpus] : slots.cpus_of) groups_on[t.node_of(pe)].emplace_back(cpus.front(), pe);
  for (auto& [node, ranks] : ranks_on) {
    auto& groups = groups_on[node];
    std::sort(groups.begin(), groups.end());
    // The PEs the node's ranks hold, as a multiset (oversubscribed PEs
    // hold several): handed out again in CPU order to ranks in rank order.
    std::vector<PE> held;
    held.reserve(ranks.size());
    for (const auto r : ranks) held.push_back(mapping[r]);
    std::map<PE, std::int64_t> first_cpu;
    for (const auto& [cpu, pe] : groups) first_cpu[pe] = cpu;
    std::sort(held.begin(), held.end(), [&first_cpu](PE a, PE b) {
      const auto ia = first_cpu.find(a);
      const auto ib = first_cpu.find(b);
      const auto ca = ia != first_cpu.end() ? ia->second : a;
      const auto cb = ib != first_cpu.end() ? ib->second : b;
      return ca != cb ? ca < cb : a < b;
    });
    for (std::size_t i = 0; i < ranks.size(); ++i) mapping[ranks[i]] = held[i];
  }
}

}  // namespace tmap
