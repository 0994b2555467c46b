#include "distributed/halo_refine.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/distance_oracle.hpp"
#include "refine/candidate_search.hpp"
#include "tmap/comm_matrix.hpp"

namespace tmap::dist {

namespace {

/// Tabu steps per region and round (after the candidate search's local
/// optimum): 10 per rank, at most 20,000 (regions of 12,288 Tianhe-3 cores).
constexpr std::int64_t kTabuPerRank = 10;
constexpr std::int64_t kTabuMost = 20000;
constexpr std::uint64_t kTabuSeed = 1;

/// A round that gains less than 1/kLittleGain (0.5 %) is the last.
constexpr std::int64_t kLittleGain = 200;

/// Regions whose neighbours are many refine at once instead of by colour
/// classes: more than this many neighbours per region on average, or more
/// classes than kMostColours.
constexpr long long kRegionNeighbours = 32;
constexpr std::int64_t kMostColours = 16;

/// The ranks placed in one region, as received: each with the offset of
/// its record (rank, region, degree, then degree x (target, volume)).
struct RegionRanks {
  std::vector<std::pair<long long, std::size_t>> records;
};

class Regions {
 public:
  Regions(const Constraints& constraints, std::span<const std::int64_t> region_of_pe)
      : pes_(constraints.allowed_pes()), region_of_pe_(region_of_pe) {
    std::int64_t count = 0;
    for (const auto r : region_of_pe) count = std::max(count, r + 1);
    pes_of_region_.resize(static_cast<std::size_t>(count));
    for (std::size_t u = 0; u < region_of_pe.size(); ++u) {
      pes_of_region_[static_cast<std::size_t>(region_of_pe[u])].push_back(static_cast<std::int64_t>(u));
    }
  }

  [[nodiscard]] std::int64_t count() const noexcept { return static_cast<std::int64_t>(pes_of_region_.size()); }
  /// Index of PE p among the allowed PEs.
  [[nodiscard]] std::int64_t index(PE p) const {
    return static_cast<std::int64_t>(std::lower_bound(pes_.begin(), pes_.end(), p) - pes_.begin());
  }
  [[nodiscard]] std::int64_t region_of(PE p) const { return region_of_pe_[static_cast<std::size_t>(index(p))]; }
  [[nodiscard]] const std::vector<std::int64_t>& pes_of(std::int64_t region) const {
    return pes_of_region_[static_cast<std::size_t>(region)];
  }
  [[nodiscard]] PE pe(std::int64_t u) const { return pes_[static_cast<std::size_t>(u)]; }

 private:
  std::span<const PE> pes_;
  std::span<const std::int64_t> region_of_pe_;
  std::vector<std::vector<std::int64_t>> pes_of_region_;
};

/// Position of v in a sorted list.
std::int64_t position(const std::vector<long long>& sorted, long long v) {
  return std::lower_bound(sorted.begin(), sorted.end(), v) - sorted.begin();
}

/// Refines one region's ranks with their halo fixed; appends (rank, PE)
/// for every rank that moved.
void refine_region(const Topology& topology, std::int64_t capacity, const Regions& regions, std::int64_t region,
                   const std::vector<long long>& received, const RegionRanks& ranks, const Mapping& mapping,
                   std::vector<long long>& moved) {
  // Local ranks: the region's own (sorted), then the halo (sorted).
  std::vector<long long> own;
  for (const auto& [rank, at] : ranks.records) own.push_back(rank);
  std::sort(own.begin(), own.end());
  std::vector<long long> halo;
  for (const auto& [rank, at] : ranks.records) {
    const auto degree = received[at + 2];
    for (long long e = 0; e < degree; ++e) {
      const auto target = received[at + 3 + 2 * static_cast<std::size_t>(e)];
      if (regions.region_of(mapping[static_cast<std::size_t>(target)]) != region) halo.push_back(target);
    }
  }
  std::sort(halo.begin(), halo.end());
  halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
  const auto m = static_cast<Rank>(own.size());
  const auto local = [&](long long v) -> Rank {
    const auto k = position(own, v);
    if (k < m && own[static_cast<std::size_t>(k)] == v) return static_cast<Rank>(k);
    return m + static_cast<Rank>(position(halo, v));
  };

  // Local PEs: the region's (movable slots first), then those of the halo.
  std::vector<PE> sub_pes;
  for (const auto u : regions.pes_of(region)) sub_pes.push_back(regions.pe(u));
  const auto region_pes = static_cast<std::int64_t>(sub_pes.size());
  std::vector<PE> halo_pes;
  halo_pes.reserve(halo.size());
  for (const auto h : halo) halo_pes.push_back(mapping[static_cast<std::size_t>(h)]);
  std::sort(halo_pes.begin(), halo_pes.end());
  halo_pes.erase(std::unique(halo_pes.begin(), halo_pes.end()), halo_pes.end());
  sub_pes.insert(sub_pes.end(), halo_pes.begin(), halo_pes.end());
  const auto sub_index = [&](PE p) -> std::int64_t {
    const auto own_end = sub_pes.begin() + region_pes;
    const auto it = std::lower_bound(sub_pes.begin(), own_end, p);
    if (it != own_end && *it == p) return it - sub_pes.begin();
    return region_pes + (std::lower_bound(halo_pes.begin(), halo_pes.end(), p) - halo_pes.begin());
  };

  // Slots: K per local PE; each rank takes the next free one of its PE.
  const auto n = m + static_cast<Rank>(halo.size());
  std::vector<std::int64_t> sigma(static_cast<std::size_t>(n));
  std::vector<std::int64_t> used(sub_pes.size(), 0);
  for (Rank r = 0; r < n; ++r) {
    const auto global = r < m ? own[static_cast<std::size_t>(r)] : halo[static_cast<std::size_t>(r - m)];
    const auto j = sub_index(mapping[static_cast<std::size_t>(global)]);
    sigma[static_cast<std::size_t>(r)] = j * capacity + used[static_cast<std::size_t>(j)]++;
  }

  // Traffic: every edge of the region's ranks (the region's own pairs come
  // from both ends; a halo pair from one, so its mirror is added).
  std::vector<CommEntry> entries;
  for (const auto& [rank, at] : ranks.records) {
    const auto a = local(rank);
    const auto degree = received[at + 2];
    for (long long e = 0; e < degree; ++e) {
      const auto b = local(received[at + 3 + 2 * static_cast<std::size_t>(e)]);
      const auto volume = received[at + 4 + 2 * static_cast<std::size_t>(e)];
      entries.push_back({a, b, volume});
      if (b >= m) entries.push_back({b, a, volume});
    }
  }
  const auto sym = CommMatrix::from_entries(n, std::move(entries));

  // Candidates: a halo PE counts as part of the node of the region's PE
  // nearest to it, so a rank talking across the border is tried there.
  auto node_of_pe = refine::local_nodes(topology, std::span<const PE>(sub_pes.data(), sub_pes.size()));
  {
    std::vector<PE> own_pes(sub_pes.begin(), sub_pes.begin() + region_pes);
    std::vector<Distance> d(own_pes.size());
    for (std::int64_t j = region_pes; j < static_cast<std::int64_t>(sub_pes.size()); ++j) {
      topology.distances_from(sub_pes[static_cast<std::size_t>(j)], own_pes, d);
      const auto nearest = std::min_element(d.begin(), d.end()) - d.begin();
      node_of_pe[static_cast<std::size_t>(j)] = node_of_pe[static_cast<std::size_t>(nearest)];
    }
  }
  const refine::SlotSpace slots{static_cast<std::int64_t>(sub_pes.size()) * capacity, capacity};
  // A distance table per region (its PEs and its halo's): the search
  // reads distances far more often than the table costs to fill.
  detail::with_distances(topology, std::span<const PE>(sub_pes.data(), sub_pes.size()), 1, [&](const auto& d) {
    (void)refine::candidate_tabu(sym, slots, d, node_of_pe, sigma, std::min<std::int64_t>(kTabuPerRank * m, kTabuMost),
                                 kTabuSeed, {}, refine::Movable{m, region_pes * capacity});
  });
  for (Rank r = 0; r < m; ++r) {
    const auto pe = sub_pes[static_cast<std::size_t>(slots.pe_of(sigma[static_cast<std::size_t>(r)]))];
    if (pe != mapping[static_cast<std::size_t>(own[static_cast<std::size_t>(r)])]) {
      moved.insert(moved.end(), {own[static_cast<std::size_t>(r)], pe});
    }
  }
}

/// Colour classes of the regions: no two regions of a class exchange
/// traffic, so a class refined at once is refined exactly (each region's
/// halo is where it will stay). Greedy in region order, the same on every
/// process. Empty when the regions talk to too many others (a random
/// graph's talk to all): then every region refines at once.
std::vector<std::int64_t> colour_regions(MPI_Comm comm, const LocalGraph& graph, const Regions& regions,
                                         const Mapping& mapping) {
  std::vector<std::pair<long long, long long>> pairs;
  for (Rank v = 0; v < graph.count(); ++v) {
    const auto a = regions.region_of(mapping[static_cast<std::size_t>(graph.first + v)]);
    for (auto e = graph.offsets[static_cast<std::size_t>(v)]; e < graph.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const auto b = regions.region_of(mapping[static_cast<std::size_t>(graph.targets[static_cast<std::size_t>(e)])]);
      if (a < b) pairs.emplace_back(a, b);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  auto mine = static_cast<long long>(pairs.size());
  long long most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, comm);
  if (most > kRegionNeighbours * regions.count()) return {};
  std::vector<long long> flat;
  for (const auto& [a, b] : pairs) flat.insert(flat.end(), {a, b});
  const auto all = all_gather(comm, flat);
  std::vector<std::vector<std::int64_t>> lower(static_cast<std::size_t>(regions.count()));
  for (std::size_t i = 0; i + 1 < all.size(); i += 2) lower[static_cast<std::size_t>(all[i + 1])].push_back(all[i]);
  std::vector<std::int64_t> colour(static_cast<std::size_t>(regions.count()), 0);
  std::vector<char> taken;
  for (std::size_t r = 0; r < colour.size(); ++r) {
    taken.assign(static_cast<std::size_t>(kMostColours) + 1, 0);
    for (const auto q : lower[r]) {
      const auto c = colour[static_cast<std::size_t>(q)];
      if (c <= kMostColours) taken[static_cast<std::size_t>(c)] = 1;
    }
    std::int64_t c = 0;
    while (c <= kMostColours && taken[static_cast<std::size_t>(c)] != 0) ++c;
    if (c >= kMostColours) return {};
    colour[r] = c;
  }
  return colour;
}

}  // namespace

HaloStats refine_across_regions(MPI_Comm comm, const LocalGraph& graph, const Topology& topology,
                                const Constraints& constraints, std::span<const std::int64_t> region_of_pe,
                                Mapping& mapping, int rounds) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const auto started = std::chrono::steady_clock::now();
  const Regions regions(constraints, region_of_pe);
  HaloStats stats;
  stats.before = distributed_hop_bytes(comm, graph, topology, mapping);
  stats.after = stats.before;
  // Moves stay within a region, so which ranks a region holds, and so the
  // colouring, stay as they are.
  const auto colour = colour_regions(comm, graph, regions, mapping);
  const std::int64_t phases = colour.empty() ? 1 : *std::max_element(colour.begin(), colour.end()) + 1;
  stats.colours = colour.empty() ? 0 : phases;
  for (int round = 0; round < rounds; ++round) {
    auto trial = mapping;
    bool moved_any = false;
    for (std::int64_t phase = 0; phase < phases; ++phase) {
      const auto refined_now = [&](std::int64_t region) {
        return colour.empty() || colour[static_cast<std::size_t>(region)] == phase;
      };
      // The edges of the phase's ranks to the process refining their region.
      std::vector<std::vector<long long>> outgoing(static_cast<std::size_t>(size));
      for (Rank v = 0; v < graph.count(); ++v) {
        const auto u = graph.first + v;
        const auto region = regions.region_of(trial[static_cast<std::size_t>(u)]);
        if (!refined_now(region)) continue;
        auto& buffer = outgoing[static_cast<std::size_t>(region % size)];
        const auto begin = graph.offsets[static_cast<std::size_t>(v)];
        const auto end = graph.offsets[static_cast<std::size_t>(v) + 1];
        buffer.insert(buffer.end(), {u, region, end - begin});
        for (auto e = begin; e < end; ++e) {
          buffer.insert(buffer.end(),
                        {graph.targets[static_cast<std::size_t>(e)], graph.volumes[static_cast<std::size_t>(e)]});
        }
      }
      const auto received = send_to_owners(comm, outgoing);
      std::vector<RegionRanks> by_region(static_cast<std::size_t>(regions.count()));
      for (std::size_t at = 0; at + 2 < received.size(); at += 3 + 2 * static_cast<std::size_t>(received[at + 2])) {
        by_region[static_cast<std::size_t>(received[at + 1])].records.emplace_back(received[at], at);
      }
      std::vector<long long> moved;
      for (std::int64_t region = 0; region < regions.count(); ++region) {
        const auto& ranks = by_region[static_cast<std::size_t>(region)];
        if (!ranks.records.empty()) {
          refine_region(topology, constraints.capacity(), regions, region, received, ranks, trial, moved);
        }
      }
      const auto all_moved = all_gather(comm, moved);
      for (std::size_t i = 0; i + 1 < all_moved.size(); i += 2) {
        trial[static_cast<std::size_t>(all_moved[i])] = static_cast<PE>(all_moved[i + 1]);
      }
      moved_any = moved_any || !all_moved.empty();
    }
    if (!moved_any) break;
    // Coloured phases cannot raise the hop-bytes; regions refined at once
    // against each other's old places can: a round is kept only when lower.
    const auto cost = distributed_hop_bytes(comm, graph, topology, trial);
    if (cost >= stats.after) break;
    mapping = std::move(trial);
    const bool little = (stats.after - cost) * kLittleGain < stats.after;
    stats.after = cost;
    ++stats.rounds;
    if (little) break;
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return stats;
}

}  // namespace tmap::dist
