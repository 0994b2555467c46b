// The machine as Scotch sees it: terminals (an allowed node whose PEs are 0
// apart, or a single allowed PE) with capacities, and how a terminal's
// ranks spread over its PEs afterwards.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

namespace tmap::scotchmap {

struct Terminals {
  /// Allowed PEs of each terminal, in increasing order.
  std::vector<std::vector<PE>> pes;
  /// Ranks each terminal holds: its PEs x the oversubscription K.
  std::vector<std::int64_t> capacity;
  /// A PE standing for the terminal in distance queries.
  std::vector<PE> representative;
  /// True when terminals are the topology's own PEs 0..N-1 in order.
  bool identity = false;

  [[nodiscard]] std::int64_t size() const noexcept { return static_cast<std::int64_t>(pes.size()); }
};

/// Groups allowed PEs into terminals: whole nodes when the topology puts
/// PEs of a node 0 apart (Tianhe-3), single PEs otherwise.
Terminals make_terminals(const Topology& topology, const Constraints& constraints);

/// The order in which to list terminals in a deco target, whose bisection
/// tree splits that list in halves recursively. Meshes and tori get an
/// orthogonal recursive bisection of the terminals' coordinates (split the
/// widest extent at the median, as Scotch splits its own meshes), so a cut
/// falls on a gap of a fragmented allocation; other kinds keep PE order,
/// which already follows their hierarchy (trees, Tianhe-3 rows, columns,
/// sides, nodes).
std::vector<std::int64_t> bisection_order(const Topology& topology, const Terminals& terminals);

/// The terminals of a compact block for n ranks: the first terminals in
/// bisection order whose capacities reach n, kept in their original order.
/// Scotch spreads fewer ranks than slots over the whole target (its static
/// mapping balances load over every terminal); mapping onto this block
/// keeps them together.
Terminals compact_block(const Topology& topology, const Terminals& terminals, std::int64_t n);

/// The terminals `which` of `all` (indices, in that order), as terminals of
/// their own.
Terminals subset(const Terminals& all, const std::vector<std::int64_t>& which);

/// Spreads the ranks of each terminal over its PEs (K slots each, in PE
/// order): terminal_of[rank] -> PE.
Mapping expand(const Terminals& terminals, const std::vector<std::int64_t>& terminal_of, std::int64_t capacity);
/// expand for ranks of unequal weight: each terminal's ranks, heaviest
/// first (ties by rank), onto its least loaded PE holding fewer than
/// `capacity` (else its least loaded; the PEs of a terminal are equally
/// far from all others).
Mapping expand_by_load(const Terminals& terminals, const std::vector<std::int64_t>& terminal_of,
                       std::span<const Volume> weights, std::int64_t capacity);

}  // namespace tmap::scotchmap
