#include "strategies/scotch/target.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "strategies/scotch/accepts.hpp"
#include "strategies/scotch/libscotch_errors.hpp"
#include "tmap/error.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology_views.hpp"
#include "topology/deco.hpp"

namespace tmap::scotchmap {

namespace {

/// Largest distance (after scaling) handed to Scotch, whose sums of load x
/// distance are SCOTCH_Num.
constexpr Distance kMaxScotchDistance = 65535;

void load_text(Arch& arch, const std::string& text) {
  if (!try_load_target(arch, text))
    throw InternalError("scotch: libscotch refused the target it was given" + libscotch_said());
}

/// deco 0: exact distances, scaled down only if they would overflow
/// Scotch's sums.
void build_table(Arch& arch, const Topology& topology, const Terminals& terminals, const Run& context) {
  const Distance largest = std::max<Distance>(topology.max_distance(), 1);
  const Distance divisor = largest > kMaxScotchDistance ? (largest + kMaxScotchDistance - 1) / kMaxScotchDistance : 1;
  bool clamped = false;
  const auto order = bisection_order(topology, terminals);
  const auto text = topo::format_deco0(order, terminals.capacity, [&](std::int64_t i, std::int64_t j) {
    Distance d = topology.distance(terminals.representative[i], terminals.representative[j]) / divisor;
    if (d < 1) {
      clamped = true;
      d = 1;  // deco targets need distinct terminals at least 1 apart
    }
    return d;
  });
  if (clamped) context.note(1, "scotch: some distinct terminals are 0 apart; Scotch sees them 1 apart");
  load_text(arch, text);
}

/// deco 2: the machine's distance graph with the terminals' vertices listed
/// (in terminal order, so Scotch's labels are terminal indices) and their
/// capacities as vertex loads.
void build_graph(Arch& arch, const DistanceGraph& machine, const Terminals& terminals, const Run& context) {
  const auto vertices = machine.num_vertices();
  std::int64_t heaviest = 1;
  for (const auto w : machine.weights) heaviest = std::max(heaviest, w);
  const auto divisor = heaviest > kMaxScotchDistance ? (heaviest + kMaxScotchDistance - 1) / kMaxScotchDistance : 1;
  if (divisor > 1) context.note(1, "scotch: link costs scaled down to fit libscotch's integers");
  std::vector<SCOTCH_Num> verttab(machine.offsets.begin(), machine.offsets.end());
  std::vector<SCOTCH_Num> edgetab(machine.targets.begin(), machine.targets.end());
  std::vector<SCOTCH_Num> edlotab(machine.weights.size());
  std::transform(machine.weights.begin(), machine.weights.end(), edlotab.begin(),
                 [&](std::int64_t w) { return static_cast<SCOTCH_Num>(std::max<std::int64_t>(1, w / divisor)); });
  std::vector<SCOTCH_Num> velotab(static_cast<std::size_t>(vertices), 1);
  std::vector<SCOTCH_Num> list(static_cast<std::size_t>(terminals.size()));
  std::vector<char> listed(static_cast<std::size_t>(vertices), 0);
  for (std::int64_t t = 0; t < terminals.size(); ++t) {
    const auto v = machine.pe_vertex[static_cast<std::size_t>(terminals.representative[t])];
    for (const PE p : terminals.pes[static_cast<std::size_t>(t)]) {
      if (machine.pe_vertex[static_cast<std::size_t>(p)] != v) {
        throw InternalError("scotch: the PEs of a terminal have different vertices in the machine graph");
      }
    }
    if (listed[static_cast<std::size_t>(v)] != 0) {
      throw InternalError("scotch: two terminals share a vertex of the machine graph");
    }
    listed[static_cast<std::size_t>(v)] = 1;
    list[static_cast<std::size_t>(t)] = static_cast<SCOTCH_Num>(v);
    velotab[static_cast<std::size_t>(v)] = static_cast<SCOTCH_Num>(terminals.capacity[t]);
  }
  Graph graph;
  if (SCOTCH_graphBuild(&graph.a, 0, static_cast<SCOTCH_Num>(vertices), verttab.data(), nullptr, velotab.data(),
                        nullptr, static_cast<SCOTCH_Num>(edgetab.size()), edgetab.data(), edlotab.data()) != 0) {
    throw InternalError("scotch: SCOTCH_graphBuild failed on the machine graph" + libscotch_said());
  }
  if (SCOTCH_archBuild2(&arch.a, &graph.a, static_cast<SCOTCH_Num>(list.size()), list.data()) != 0) {
    throw InternalError("scotch: SCOTCH_archBuild2 failed" + libscotch_said());
  }
}

}  // namespace

bool try_load_target(Arch& arch, const std::string& text) {
  const std::lock_guard lock(libscotch_parser());
  (void)take_libscotch_messages();  // a refusal's words are its own
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(fmemopen(const_cast<char*>(text.data()), text.size(), "r"),
                                                       &std::fclose);
  return file && SCOTCH_archLoad(&arch.a, file.get()) == 0;
}

std::optional<TerminalGroups> uniform_groups(const Topology& topology, const Terminals& terminals) {
  if (!scotch_terminals_are_nodes(topology) || topology.size() == 0 ||
      scotch_uniform_group(topology, topology.node_of(0)) < 0) {
    return std::nullopt;
  }
  const auto group_of = [&](PE pe) { return scotch_uniform_group(topology, topology.node_of(pe)); };
  TerminalGroups result;
  std::int64_t last_key = -1;
  for (std::int64_t t = 0; t < terminals.size(); ++t) {
    const auto& pes = terminals.pes[static_cast<std::size_t>(t)];
    const auto key = group_of(pes.front());
    if (group_of(pes.back()) != key) return std::nullopt;  // a terminal must be within one node
    if (key != last_key) {
      if (key < last_key) return std::nullopt;  // terminals come in PE order
      result.groups.pes.emplace_back();
      result.groups.capacity.push_back(0);
      result.groups.representative.push_back(pes.front());
      last_key = key;
    }
    result.group_of.push_back(result.groups.size() - 1);
    auto& group_pes = result.groups.pes.back();
    group_pes.insert(group_pes.end(), pes.begin(), pes.end());
    result.groups.capacity.back() += terminals.capacity[static_cast<std::size_t>(t)];
  }
  return result;
}

TargetKind TargetBuilder::plan(const Terminals& terminals, std::string_view choice) {
  const auto machine_graph = [&] {
    if (!graph_tried_) {
      graph_ = tmap::distance_graph(topology_);
      graph_tried_ = true;
    }
    return graph_.has_value();
  };
  const auto refuse = [&](const std::string& why) {
    throw UnsupportedError("scotch-target " + std::string(choice) + ": " + why);
  };
  if (choice == "native") {
    if (!terminals.identity || !libscotch_exact(topology_)) {
      refuse("Scotch has no kind of its own for this machine and allocation");
    }
    return TargetKind::Native;
  }
  if (choice == "table") {
    if (terminals.size() > kMaxForcedTableTerminals) {
      refuse(std::to_string(terminals.size()) + " terminals exceed the " + std::to_string(kMaxForcedTableTerminals) +
             " a distance table is built for");
    }
    return TargetKind::Table;
  }
  if (choice == "grouped") {
    if (!uniform_groups(topology_, terminals)) refuse("only Tianhe-3 machines have groups of uniform distances here");
    return TargetKind::Grouped;
  }
  if (choice == "graph") {
    if (!machine_graph()) refuse("a " + topology_.kind() + " machine has no machine graph here");
    return TargetKind::MachineGraph;
  }
  if (terminals.identity && libscotch_exact(topology_)) return TargetKind::Native;
  if (terminals.size() <= kMaxTableTerminals) return TargetKind::Table;
  if (const auto grouped = uniform_groups(topology_, terminals);
      grouped && grouped->groups.size() <= kMaxTableTerminals) {
    return TargetKind::Grouped;
  }
  if (machine_graph()) return TargetKind::MachineGraph;
  throw ResourceError("scotch: " + std::to_string(terminals.size()) + " allowed terminals on a " + topology_.kind() +
                      " machine exceed the " + std::to_string(kMaxTableTerminals) +
                      " a distance table handles here, and this kind has no machine graph; use ohtma+ or treematch");
}

Distance TargetBuilder::scale(TargetKind kind) const {
  return kind == TargetKind::MachineGraph && graph_ ? graph_->scale : 1;
}

void TargetBuilder::build(Arch& arch, TargetKind kind, const Terminals& terminals, const Run& context) const {
  switch (kind) {
    case TargetKind::Native:
      load_text(arch, scotch_target(topology_));
      return;
    case TargetKind::Table:
      build_table(arch, topology_, terminals, context);
      return;
    case TargetKind::Grouped:
      build_table(arch, topology_, uniform_groups(topology_, terminals)->groups, context);
      return;
    case TargetKind::MachineGraph:
      build_graph(arch, *graph_, terminals, context);
      return;
  }
}

}  // namespace tmap::scotchmap
