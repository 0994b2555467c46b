// A periodic 2D lattice of ranks on a tree machine: the lattice cut into
// congruent tiles (lattice.hpp), one per group of the tree's first level
// that splits the allowed PEs (racks of a tleaf), each group as many slots
// as a tile has ranks. Every group holds the same PEs below it (the same
// tree paths), so one tile's layout inside its group, made by auto's
// candidates on the tiles' mean traffic (each rank by its place in its
// tile), is every tile's.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "strategies/common/tree_order.hpp"
#include "strategies/geometric/geometric.hpp"
#include "strategies/geometric/lattice.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/metrics.hpp"

namespace tmap::strategies {

namespace {

/// The allowed PEs by group of the first tree level that splits them, each
/// group's PEs in the order of their paths below that level; nothing when
/// the machine is no tree, the level has one group, or the groups differ.
std::optional<std::vector<std::vector<PE>>> congruent_groups(const Topology& topology, std::span<const PE> pes,
                                                             std::string& why) {
  if (pes.empty()) {
    why = "no PE is allowed";
    return std::nullopt;
  }
  // In path order every group is a run and its PEs come in the order of
  // their paths below the level (flat arrays: a std::map of a vector per PE
  // took ~0.5 s of a million-PE job).
  const auto order = tree_order(topology, pes);
  if (!order) {
    why = "the machine is not a tree";
    return std::nullopt;
  }
  const auto depth = order->path(0).size();
  for (std::size_t k = 1; k < pes.size(); ++k) {
    if (order->path(k).size() != depth) {
      why = "the tree's PEs are at different depths";
      return std::nullopt;
    }
  }
  const auto branches = branch_depths(*order);
  const auto level =
      pes.size() == 1 ? static_cast<std::int32_t>(depth) : *std::min_element(branches.begin() + 1, branches.end());
  if (static_cast<std::size_t>(level) >= depth) {
    why = "the allowed PEs are one group";
    return std::nullopt;
  }
  std::vector<std::size_t> starts;
  for (std::size_t k = 0; k < pes.size(); ++k) {
    if (k == 0 || branches[k] == level) starts.push_back(k);
  }
  const auto size = pes.size() / starts.size();
  const auto below = [&](std::size_t k) { return order->path(k).subspan(static_cast<std::size_t>(level) + 1); };
  std::vector<std::vector<PE>> groups;
  for (const auto start : starts) {
    const auto end = groups.size() + 1 < starts.size() ? starts[groups.size() + 1] : pes.size();
    bool same = end - start == size;
    for (std::size_t i = 0; same && i < size; ++i) same = std::ranges::equal(below(start + i), below(i));
    if (!same) {
      why = "the groups of the tree's first level hold different PEs";
      return std::nullopt;
    }
    groups.emplace_back(order->pes.begin() + static_cast<std::ptrdiff_t>(start),
                        order->pes.begin() + static_cast<std::ptrdiff_t>(end));
  }
  return groups;
}

/// Tilings of equal cut laid out, the lowest hop-bytes kept: they differ
/// in what their tiles cut inside (BT at 1,024 ranks: 4 of equal cut).
constexpr std::size_t kTilingsTried = 4;

/// Each tile in its group, all laid out as one: the traffic inside the
/// tiles (each rank by its place in its tile) mapped onto the first group
/// by auto's best candidate, each group's PEs taken at the same places.
Mapping lay_out(const Problem& problem, const std::vector<std::vector<PE>>& groups, const LatticeTiles& tiles,
                const Run& context) {
  const auto n = problem.comm.num_ranks();
  const auto size = static_cast<Rank>(groups.front().size()) * problem.constraints.capacity();
  std::vector<CommEntry> inside;
  for (Rank v = 0; v < n; ++v) {
    const auto targets = problem.comm.targets(v);
    const auto volumes = problem.comm.volumes(v);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const auto w = static_cast<std::size_t>(targets[k]);
      if (tiles.tile[static_cast<std::size_t>(v)] != tiles.tile[w]) continue;
      inside.push_back({tiles.place[static_cast<std::size_t>(v)], tiles.place[w], volumes[k]});
    }
  }
  // The tiles' mean traffic, over the loads' common divisor: loads no
  // larger than the job's own (libscotch is fragile with large loads).
  auto mean = CommMatrix::from_entries(size, std::move(inside));
  const auto count = static_cast<Volume>(n / size);
  std::vector<CommEntry> scaled;
  Volume divisor = 0;
  for (Rank v = 0; v < size; ++v) {
    for (std::size_t k = 0; k < mean.targets(v).size(); ++k) {
      scaled.push_back({v, mean.targets(v)[k], std::max<Volume>(1, (mean.volumes(v)[k] + count - 1) / count)});
      divisor = std::gcd(divisor, scaled.back().bytes);
    }
  }
  for (auto& e : scaled) e.bytes /= std::max<Volume>(divisor, 1);
  const auto tile_traffic = CommMatrix::from_entries(size, std::move(scaled));
  const auto group_constraints = Constraints::allowed(problem.topology, groups.front(), problem.constraints.capacity());
  // auto's best candidate (on BT's 256-rank tile 14 % below the multilevel strategy alone).
  Run inside_run = context;
  inside_run.refine.kind = RefineKind::None;
  inside_run.objective = Objective::HopBytes;
  inside_run.hooks.verbosity = context.hooks.verbosity - 1;
  const auto inside_one = map_with("auto", Problem{tile_traffic, problem.topology, group_constraints}, inside_run);
  std::map<PE, std::size_t> index_in_group;  // the first group's PE -> the same place in every group
  for (std::size_t k = 0; k < groups.front().size(); ++k) index_in_group.emplace(groups.front()[k], k);
  Mapping mapping(static_cast<std::size_t>(n));
  for (Rank v = 0; v < n; ++v) {
    const auto pe = inside_one[static_cast<std::size_t>(tiles.place[static_cast<std::size_t>(v)])];
    const auto& group = groups[static_cast<std::size_t>(tiles.tile[static_cast<std::size_t>(v)])];
    mapping[static_cast<std::size_t>(v)] = group[index_in_group.at(pe)];
  }
  return mapping;
}

}  // namespace

std::string tiles_cannot_fit(const Problem& problem) {
  if (problem.comm.num_ranks() != problem.constraints.num_slots()) return "the ranks do not fill the allowed slots";
  return {};
}

std::optional<Mapping> lay_out_tiles(const Problem& problem, const CommMatrix& pattern, const Run& context,
                                     std::string& why) {
  // The machine and allocation first (O(PEs)), the traffic (O(pairs)) after.
  const auto& constraints = problem.constraints;
  const auto n = problem.comm.num_ranks();
  why = tiles_cannot_fit(problem);
  if (!why.empty()) return std::nullopt;
  const auto groups = congruent_groups(problem.topology, constraints.allowed_pes(), why);
  if (!groups) return std::nullopt;
  const auto size = static_cast<std::int64_t>(groups->front().size()) * constraints.capacity();
  if (size > kLargestTile) {
    why = fmt::format("a group holds {} ranks, more than the {} a tile may have", size, kLargestTile);
    return std::nullopt;
  }
  const auto lattice = recover_lattice(pattern);
  if (!lattice) {
    why = "the traffic is not a periodic 2D lattice (a periodic 5-point stencil or BT's 6-neighbour pattern)";
    return std::nullopt;
  }
  const auto tilings = tile_lattice(*lattice, pattern, size, kTilingsTried);
  if (tilings.empty()) {
    why = fmt::format("the lattice has no tiles of {} ranks", size);
    return std::nullopt;
  }
  std::optional<Mapping> best;
  std::int64_t best_cost = 0;
  for (const auto& tiles : tilings) {
    if (context.stopped()) break;
    auto mapping = lay_out(problem, *groups, tiles, context);
    const auto cost = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
    if (!best || cost < best_cost) {
      best = std::move(mapping);
      best_cost = cost;
      why = fmt::format(
          "the traffic is a periodic {} lattice; {} tiles of {} ranks (centres ({}, 0), ({}, {})), one a "
          "group: {} hop-bytes",
          lattice->kind == Lattice2D::Kind::Triangular ? "triangular" : "square", n / size, size, tiles.centres.a,
          tiles.centres.b, tiles.centres.d, cost);
    }
  }
  if (!best) why = "stopped";
  return best;
}

}  // namespace tmap::strategies
