// The traffic's hierarchy: heavy-edge pairing (the fresh multilevel
// mapping) or pairing along the machine (a V-cycle from a mapping).
#include <algorithm>
#include <numeric>

#include "multilevel/levels.hpp"
#include "util/random.hpp"

namespace tmap::multilevel {

namespace {

/// The traffic between coarse clusters: each fine edge summed into its
/// clusters' pair, edges inside a cluster dropped.
CommMatrix contract(const CommMatrix& fine, std::span<const std::int64_t> parent, std::int64_t coarse_count) {
  std::vector<std::int64_t> first(static_cast<std::size_t>(coarse_count) + 1, 0);
  for (const auto c : parent) ++first[static_cast<std::size_t>(c) + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<std::int64_t> members(parent.size());
  {
    auto next = first;
    for (std::size_t v = 0; v < parent.size(); ++v)
      members[static_cast<std::size_t>(next[static_cast<std::size_t>(parent[v])]++)] = static_cast<std::int64_t>(v);
  }
  std::vector<std::int64_t> row_begin{0};
  std::vector<Rank> column;
  std::vector<Volume> volume;
  std::vector<Volume> sum(static_cast<std::size_t>(coarse_count), 0);
  std::vector<std::int64_t> touched;
  for (std::int64_t c = 0; c < coarse_count; ++c) {
    touched.clear();
    for (auto k = first[static_cast<std::size_t>(c)]; k < first[static_cast<std::size_t>(c) + 1]; ++k) {
      const auto v = members[static_cast<std::size_t>(k)];
      const auto targets = fine.targets(v);
      const auto volumes = fine.volumes(v);
      for (std::size_t e = 0; e < targets.size(); ++e) {
        const auto t = parent[static_cast<std::size_t>(targets[e])];
        if (t == c) continue;
        if (sum[static_cast<std::size_t>(t)] == 0) touched.push_back(t);
        sum[static_cast<std::size_t>(t)] += volumes[e];
      }
    }
    std::sort(touched.begin(), touched.end());
    for (const auto t : touched) {
      column.push_back(t);
      volume.push_back(sum[static_cast<std::size_t>(t)]);
      sum[static_cast<std::size_t>(t)] = 0;
    }
    row_begin.push_back(static_cast<std::int64_t>(column.size()));
  }
  return CommMatrix::from_csr(coarse_count, std::move(row_begin), std::move(column), std::move(volume));
}

void push_coarse(std::vector<GraphLevel>& levels, std::int64_t coarse_count) {
  auto& fine = levels.back();
  GraphLevel coarse;
  // Members per coarse cluster: 2 = a pair, 1 = a lone cluster.
  std::vector<std::int64_t> members(static_cast<std::size_t>(coarse_count), 0);
  coarse.shape.assign(static_cast<std::size_t>(coarse_count), -1);
  for (std::int64_t v = 0; v < fine.count(); ++v) {
    const auto c = static_cast<std::size_t>(fine.parent[static_cast<std::size_t>(v)]);
    ++members[c];
    coarse.shape[c] = fine.shape[static_cast<std::size_t>(v)];
  }
  for (std::size_t c = 0; c < members.size(); ++c) {
    coarse.shape[c] = members[c] == 2 ? shape_of_pair(coarse.shape[c]) : shape_of_lone(coarse.shape[c]);
  }
  coarse.sym = contract(fine.sym, fine.parent, coarse_count);
  levels.push_back(std::move(coarse));
}

}  // namespace

GraphLevel padded_graph(const CommMatrix& sym, std::int64_t slots) {
  GraphLevel level;
  std::vector<std::int64_t> row_begin(sym.row_begin().begin(), sym.row_begin().end());
  row_begin.resize(static_cast<std::size_t>(slots) + 1, row_begin.back());
  level.sym = CommMatrix::from_csr(slots, std::move(row_begin), {sym.columns().begin(), sym.columns().end()},
                                   {sym.all_volumes().begin(), sym.all_volumes().end()});
  level.shape.assign(static_cast<std::size_t>(slots), 0);
  return level;
}

void coarsen_by_traffic(std::vector<GraphLevel>& levels, std::uint64_t seed) {
  auto& fine = levels.back();
  const auto n = fine.count();
  Candidates heavy;
  heavy.offsets.assign(fine.sym.row_begin().begin(), fine.sym.row_begin().end());
  heavy.targets.assign(fine.sym.columns().begin(), fine.sym.columns().end());
  heavy.scores.assign(fine.sym.all_volumes().begin(), fine.sym.all_volumes().end());
  // Rating: the pair's traffic over the traffic it would still send out,
  // so that blocks grow compact (on uniform stencils every edge weighs the
  // same and heavy-edge alone pairs at random).
  std::vector<Volume> out(static_cast<std::size_t>(n), 0);
  for (std::int64_t v = 0; v < n; ++v) {
    for (const auto w : fine.sym.volumes(v)) out[static_cast<std::size_t>(v)] += w;
  }
  for (std::int64_t v = 0; v < n; ++v) {
    for (auto e = heavy.offsets[static_cast<std::size_t>(v)]; e < heavy.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const auto u = heavy.targets[static_cast<std::size_t>(e)];
      const auto w = static_cast<long double>(heavy.scores[static_cast<std::size_t>(e)]);
      const auto rest =
          static_cast<long double>(out[static_cast<std::size_t>(v)] + out[static_cast<std::size_t>(u)]) - 2 * w;
      heavy.scores[static_cast<std::size_t>(e)] = static_cast<std::int64_t>(w / std::max<long double>(rest, 1) * 1e9L);
    }
  }
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  detail::Random rng(seed, static_cast<std::uint64_t>(levels.size()));
  rng.shuffle(std::span<std::int64_t>(order));
  const auto partner = pair_within_shapes(heavy, fine.shape, order);
  const auto coarse_count = number_pairs(partner, fine.parent);
  // Children in id order.
  fine.child.assign(static_cast<std::size_t>(n), 0);
  std::vector<char> first_seen(static_cast<std::size_t>(coarse_count), 0);
  for (std::int64_t v = 0; v < n; ++v) {
    auto& seen = first_seen[static_cast<std::size_t>(fine.parent[static_cast<std::size_t>(v)])];
    fine.child[static_cast<std::size_t>(v)] = seen ? 1 : 0;
    seen = 1;
  }
  push_coarse(levels, coarse_count);
}

void coarsen_along(std::vector<GraphLevel>& levels, std::span<const std::int64_t> place,
                   std::span<const std::int64_t> group_parent, std::int64_t coarse_groups) {
  auto& fine = levels.back();
  fine.parent.resize(static_cast<std::size_t>(fine.count()));
  for (std::int64_t c = 0; c < fine.count(); ++c) {
    fine.parent[static_cast<std::size_t>(c)] =
        group_parent[static_cast<std::size_t>(place[static_cast<std::size_t>(c)])];
  }
  // A cluster is the child its group is: the first (lowest id) child of the
  // parent group or the second. The projection then restores `place`.
  std::vector<std::int64_t> first_group(static_cast<std::size_t>(coarse_groups), -1);
  for (std::size_t g = 0; g < group_parent.size(); ++g) {
    auto& first = first_group[static_cast<std::size_t>(group_parent[g])];
    if (first < 0) first = static_cast<std::int64_t>(g);
  }
  fine.child.resize(static_cast<std::size_t>(fine.count()));
  for (std::int64_t c = 0; c < fine.count(); ++c) {
    const auto g = place[static_cast<std::size_t>(c)];
    fine.child[static_cast<std::size_t>(c)] =
        first_group[static_cast<std::size_t>(group_parent[static_cast<std::size_t>(g)])] == g ? 0 : 1;
  }
  push_coarse(levels, coarse_groups);
}

}  // namespace tmap::multilevel
