#include "strategies/common/place_nodes.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "refine/dense_search.hpp"
#include "strategies/common/node_pes.hpp"
#include "util/random.hpp"

namespace tmap::strategies {

namespace {

/// The tabu search's move-table updates from the mapping as it is (about
/// 0.01-0.03 s here), and those of the other starts together: 2,441 moves
/// on 64 nodes from the mapping, 152 from each shuffle.
constexpr std::int64_t kTableUpdates = 10'000'000;

/// Starts' work in all, in descent steps of n^2 over n nodes (a descent
/// from a shuffle takes about n steps): 16 starts up to 128 nodes, 2 on
/// 256. CG on 1,024 GPUs of 256 4-GPU nodes on a torus: 16 starts took
/// 0.6 s of the default's 1.1 s and reached 0.840 of in-order's time, 2
/// starts 0.864 in 0.4 s.
constexpr std::int64_t kStartsWork = std::int64_t{2} * 256 * 256 * 256;

/// Tabu moves a start at most, per node: every start of CG's 64 ranks on
/// a 4x4 torus of nodes reached the least hop-bytes in 390 moves, and most
/// stopped above it in the descent alone (16 shuffled starts).
constexpr std::int64_t kMovesPerNode = 50;

/// Each allowed node's PEs, in PE order, and where each PE is in them.
struct Nodes {
  std::vector<std::vector<PE>> pes;
  std::map<PE, std::pair<std::size_t, std::size_t>> where;  // PE -> (node index, index in the node)
};

/// The allowed nodes when they can be placed (see place_nodes), else none.
std::optional<Nodes> nodes_to_place(const Topology& topology, std::span<const PE> allowed) {
  Nodes nodes;
  nodes.pes = pes_by_node(topology, allowed);
  const auto count = static_cast<std::int64_t>(nodes.pes.size());
  if (count < 3 || count > kMostNodesPlaced) return std::nullopt;
  for (std::size_t node = 0; node < nodes.pes.size(); ++node) {
    const auto& pes = nodes.pes[node];
    if (pes.size() < 2 || pes.size() != nodes.pes.front().size()) return std::nullopt;
    for (std::size_t k = 0; k < pes.size(); ++k) nodes.where[pes[k]] = {node, k};
  }
  return nodes;
}

/// The node-level problem: items are the nodes' contents (item i starts on
/// node i), positions the nodes; W = A + A^T between nodes.
std::optional<refine::DenseProblem> node_problem(const CommMatrix& comm, const Topology& topology, const Nodes& nodes,
                                                 std::span<const PE> mapping) {
  refine::DenseProblem problem;
  const auto n = nodes.pes.size();
  problem.n = static_cast<std::int64_t>(n);
  std::vector<std::size_t> item_of(mapping.size());
  problem.silent.assign(n, 1);
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    const auto it = nodes.where.find(mapping[r]);
    if (it == nodes.where.end()) return std::nullopt;  // a rank off the allowed PEs: not ours to move
    item_of[r] = it->second.first;
    problem.silent[item_of[r]] = 0;
  }
  problem.w.assign(n * n, 0);
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    const auto targets = comm.targets(i);
    const auto volumes = comm.volumes(i);
    const auto a = item_of[static_cast<std::size_t>(i)];
    for (std::size_t e = 0; e < targets.size(); ++e) {
      const auto b = item_of[static_cast<std::size_t>(targets[e])];
      if (a == b) continue;
      problem.w[a * n + b] += volumes[e];
      problem.w[b * n + a] += volumes[e];
    }
  }
  problem.d.assign(n * n, 0);
  problem.pe.resize(n);
  for (std::size_t a = 0; a < n; ++a) {
    problem.pe[a] = static_cast<std::int64_t>(a);
    for (std::size_t b = 0; b < n; ++b) {
      if (a != b) problem.d[a * n + b] = topology.distance(nodes.pes[a].front(), nodes.pes[b].front());
    }
  }
  if (!refine::dense_fits(problem)) return std::nullopt;
  return problem;
}

/// Hop-bytes of the node-level problem with items at `pos`.
Volume node_cost(const refine::DenseProblem& problem, const std::vector<std::int64_t>& pos) {
  const auto n = static_cast<std::size_t>(problem.n);
  Volume cost = 0;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      cost += problem.w[a * n + b] * problem.d[static_cast<std::size_t>(pos[a]) * n + static_cast<std::size_t>(pos[b])];
    }
  }
  return cost;
}

}  // namespace

std::vector<Mapping> place_nodes(const CommMatrix& comm, const Topology& topology, std::span<const PE> allowed,
                                 const Mapping& mapping, std::uint64_t seed, int starts) {
  const auto nodes = nodes_to_place(topology, allowed);
  if (!nodes) return {};
  const auto problem = node_problem(comm, topology, *nodes, mapping);
  if (!problem) return {};
  const auto n = problem->n;
  starts = static_cast<int>(std::clamp<std::int64_t>(kStartsWork / (n * n * n), 1, std::max(starts, 1)));
  const auto moves = [&](int start) {
    const auto updates = start == 0 ? kTableUpdates : kTableUpdates / std::max(starts - 1, 1);
    return std::max<std::int64_t>(1, std::min(kMovesPerNode * n, updates / (n * n)));
  };
  std::vector<std::int64_t> identity(static_cast<std::size_t>(n));
  for (std::int64_t a = 0; a < n; ++a) identity[static_cast<std::size_t>(a)] = a;
  const Volume start_cost = node_cost(*problem, identity);
  std::vector<std::pair<Volume, std::vector<std::int64_t>>> found;
  for (int start = 0; start < starts; ++start) {
    auto pos = identity;
    if (start > 0) detail::Random(seed, static_cast<std::uint64_t>(start)).shuffle(std::span<std::int64_t>(pos));
    refine::dense_descent(*problem, pos);
    refine::robust_tabu(*problem, pos, moves(start), 0.0, seed + static_cast<std::uint64_t>(start), {},
                        refine::kQualityAspirationSquares);
    std::pair<Volume, std::vector<std::int64_t>> one{node_cost(*problem, pos), std::move(pos)};
    if (one.first <= start_cost && one.second != identity && std::ranges::find(found, one) == found.end()) {
      found.push_back(std::move(one));
    }
  }
  std::ranges::stable_sort(found, {}, [](const auto& one) { return one.first; });
  std::vector<Mapping> out;
  for (const auto& [cost, pos] : found) {
    Mapping placed = mapping;
    for (auto& pe : placed) {
      const auto [node, k] = nodes->where.at(pe);
      pe = nodes->pes[static_cast<std::size_t>(pos[node])][k];
    }
    out.push_back(std::move(placed));
  }
  return out;
}

}  // namespace tmap::strategies
