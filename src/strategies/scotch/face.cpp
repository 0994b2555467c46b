#include "strategies/scotch/face.hpp"

#include <algorithm>

#include "strategies/scotch/libscotch.hpp"
#include "strategies/scotch/repair.hpp"
#include "strategies/scotch/run.hpp"
#include "strategies/scotch/target.hpp"
#include "tmap/metrics.hpp"

namespace tmap::scotchmap {

std::int64_t max_mapped_terminals() {
  return kMaxTableTerminals;
}

std::int64_t load_divisor(std::int64_t total) {
  constexpr std::int64_t kRoom = kScotchSumLimit / 64;
  return total > kRoom ? (total + kRoom - 1) / kRoom : 1;
}

namespace {

/// Hop-bytes of the traffic with its ranks on `terminal_of` (each at its
/// terminal's representative PE).
std::int64_t cost_on(const CommMatrix& sym, const Topology& topology, const Terminals& target,
                     const std::vector<std::int64_t>& terminal_of) {
  Mapping at(terminal_of.size());
  for (std::size_t v = 0; v < at.size(); ++v) at[v] = target.representative[static_cast<std::size_t>(terminal_of[v])];
  return evaluate(sym, topology, at).hop_bytes;
}

}  // namespace

std::vector<std::int64_t> map_onto_terminals(const CommMatrix& traffic, const Topology& topology,
                                             const Terminals& target, const Context& context, TerminalsEffort effort) {
  const auto source = source_graph(traffic);
  const bool portfolio = effort == TerminalsEffort::Portfolio;
  std::vector<Terminals> targets{target};
  std::vector<std::vector<std::int64_t>> index_in_target{{}};
  std::int64_t room = 0;
  for (const auto c : target.capacity) room += c;
  const auto n = static_cast<std::int64_t>(traffic.num_ranks());
  if (portfolio && n < room) {
    auto compact = compact_block(topology, target, n);
    if (compact.size() < target.size()) {
      // Where each compact terminal sits in the target (PE lists identify them).
      std::vector<std::int64_t> where;
      for (const auto& pes : compact.pes) {
        where.push_back(std::find(target.pes.begin(), target.pes.end(), pes) - target.pes.begin());
      }
      targets.push_back(std::move(compact));
      index_in_target.push_back(std::move(where));
    }
  }
  std::vector<Setting> settings{{SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE, 0.0, {}}};
  if (portfolio) settings.push_back({SCOTCH_STRATBALANCE, 0.01, {}});
  std::vector<std::int64_t> best;
  std::int64_t best_cost = 0;
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const auto& terminals = targets[k];
    std::int64_t slots = 0;
    for (const auto c : terminals.capacity) slots += c;
    TargetBuilder builder(topology);
    Arch arch;
    builder.build(arch, TargetKind::Table, terminals, context);
    for (const auto& setting : settings) {
      auto labels = map_labels(source, arch, terminals.size(), setting, {context.seed, 1});
      if (slots >= n) {
        (void)repair_overfull(traffic, terminals, labels, [&](std::int64_t a, std::int64_t b) {
          return topology.distance(terminals.representative[static_cast<std::size_t>(a)],
                                   terminals.representative[static_cast<std::size_t>(b)]);
        });
      }
      if (k > 0) {
        for (auto& t : labels) t = index_in_target[k][static_cast<std::size_t>(t)];
      }
      if (!portfolio) return labels;
      const auto cost = cost_on(traffic, topology, target, labels);
      if (best.empty() || cost < best_cost) {
        best = std::move(labels);
        best_cost = cost;
      }
    }
  }
  return best;
}

}  // namespace tmap::scotchmap
