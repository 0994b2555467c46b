#include "strategies/common/settle_in_nodes.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <vector>

#include "strategies/common/node_pes.hpp"

namespace tmap::strategies {

namespace {

/// Nodes of at most this many PEs are placed exactly: every permutation of
/// their ranks (8! = 40,320 on a GPU node of 8), scored from tables.
constexpr std::size_t kMostExact = 8;

/// Rotations of three are tried in nodes of at most this many PEs (GPU
/// nodes: 560 triples on 16 GPUs); in larger ones (CPU nodes beside GPU
/// nodes) exchanges alone, O(PEs^2) a pass.
constexpr std::size_t kMostRotated = 16;

/// What i and j exchange in `sym` (rows sorted by target).
Volume pair_volume(const CommMatrix& sym, Rank i, Rank j) {
  const auto targets = sym.targets(i);
  const auto it = std::ranges::lower_bound(targets, j);
  if (it == targets.end() || *it != j) return 0;
  return sym.volumes(i)[static_cast<std::size_t>(it - targets.begin())];
}

/// One node's PEs, the rank on each (-1: free), and the moves among them.
class NodeSettler {
 public:
  NodeSettler(const CommMatrix& sym, const Topology& topology, std::span<const PE> pes, std::span<Rank> on,
              Mapping& mapping)
      : sym_(sym), topology_(topology), pes_(pes), on_(on), mapping_(mapping) {}

  /// One pass of exchanges of two PEs' ranks (or a rank and a free PE);
  /// whether one was made.
  bool exchange_pass() {
    bool moved = false;
    for (std::size_t a = 0; a < pes_.size(); ++a) {
      for (std::size_t b = a + 1; b < pes_.size(); ++b) {
        const std::array<std::size_t, 2> slots{a, b};
        moved |= move_if_better(slots, std::array<std::size_t, 2>{b, a});
      }
    }
    return moved;
  }

  /// The node's ranks onto its PEs in the permutation of least hop-bytes,
  /// the ranks elsewhere where they are (ties: the current placement);
  /// whether it moved any. For nodes of at most kMostExact PEs.
  bool place_exactly() {
    const std::size_t k = pes_.size();
    std::vector<Rank> ranks(on_.begin(), on_.end());
    // Each rank's pairs with ranks elsewhere at each PE, and the pairs
    // among the node's ranks.
    std::vector<Volume> outside(k * k, 0);
    struct Pair {
      std::size_t i;
      std::size_t j;
      Volume volume;
    };
    std::vector<Pair> inside;
    for (std::size_t i = 0; i < k; ++i) {
      if (ranks[i] < 0) continue;
      for (std::size_t t = 0; t < k; ++t)
        outside[i * k + t] = pairs_cost(sym_, topology_, mapping_, ranks[i], pes_[t], ranks);
      for (std::size_t j = i + 1; j < k; ++j) {
        if (ranks[j] < 0) continue;
        if (const auto v = pair_volume(sym_, ranks[i], ranks[j]); v > 0) inside.push_back({i, j, v});
      }
    }
    std::vector<Distance> apart(k * k);
    for (std::size_t a = 0; a < k; ++a) {
      for (std::size_t b = 0; b < k; ++b) apart[a * k + b] = topology_.distance(pes_[a], pes_[b]);
    }
    // The rank on slot i goes to slot to[i].
    std::vector<std::size_t> to(k);
    std::iota(to.begin(), to.end(), std::size_t{0});
    const auto cost = [&] {
      Volume total = 0;
      for (std::size_t i = 0; i < k; ++i) total += outside[i * k + to[i]];
      for (const auto& p : inside) total += p.volume * apart[to[p.i] * k + to[p.j]];
      return total;
    };
    const Volume now = cost();
    Volume least = now;
    std::vector<std::size_t> best = to;
    while (std::next_permutation(to.begin(), to.end())) {
      if (const auto c = cost(); c < least) {
        least = c;
        best = to;
      }
    }
    if (least >= now) return false;
    for (std::size_t i = 0; i < k; ++i) {
      on_[best[i]] = ranks[i];
      if (ranks[i] >= 0) mapping_[static_cast<std::size_t>(ranks[i])] = pes_[best[i]];
    }
    return true;
  }

  /// One pass of rotations of three PEs' ranks, both ways (a local optimum
  /// of exchanges often needs one).
  bool rotation_pass() {
    bool moved = false;
    for (std::size_t a = 0; a < pes_.size(); ++a) {
      for (std::size_t b = a + 1; b < pes_.size(); ++b) {
        for (std::size_t c = b + 1; c < pes_.size(); ++c) {
          const std::array<std::size_t, 3> slots{a, b, c};
          if (!move_if_better(slots, std::array<std::size_t, 3>{b, c, a})) {
            moved |= move_if_better(slots, std::array<std::size_t, 3>{c, a, b});
          } else {
            moved = true;
          }
        }
      }
    }
    return moved;
  }

 private:
  /// The hop-bytes the ranks on `slots` have were each on the PE of the
  /// matching entry of `to`: their pairs with others (as placed now) and
  /// among themselves.
  [[nodiscard]] Volume cost(std::span<const std::size_t> slots, std::span<const std::size_t> to) const {
    std::array<Rank, 3> moving{-1, -1, -1};
    for (std::size_t k = 0; k < slots.size(); ++k) moving[k] = on_[slots[k]];
    const std::span<const Rank> skip(moving.data(), slots.size());
    Volume total = 0;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      if (moving[k] < 0) continue;
      total += pairs_cost(sym_, topology_, mapping_, moving[k], pes_[to[k]], skip);
      for (std::size_t l = k + 1; l < slots.size(); ++l) {
        if (moving[l] >= 0) {
          total += pair_volume(sym_, moving[k], moving[l]) * topology_.distance(pes_[to[k]], pes_[to[l]]);
        }
      }
    }
    return total;
  }

  /// Moves the ranks on `slots` to `to` where that lowers hop-bytes.
  bool move_if_better(std::span<const std::size_t> slots, std::span<const std::size_t> to) {
    if (std::ranges::count_if(slots, [&](std::size_t k) { return on_[k] >= 0; }) == 0) return false;
    if (cost(slots, to) >= cost(slots, slots)) return false;
    std::array<Rank, 3> moving{-1, -1, -1};
    for (std::size_t k = 0; k < slots.size(); ++k) moving[k] = on_[slots[k]];
    for (std::size_t k = 0; k < slots.size(); ++k) {
      on_[to[k]] = moving[k];
      if (moving[k] >= 0) mapping_[static_cast<std::size_t>(moving[k])] = pes_[to[k]];
    }
    return true;
  }

  const CommMatrix& sym_;
  const Topology& topology_;
  std::span<const PE> pes_;
  std::span<Rank> on_;
  Mapping& mapping_;
};

}  // namespace

Volume pairs_cost(const CommMatrix& sym, const Topology& topology, std::span<const PE> mapping, Rank r, PE pe,
                  std::span<const Rank> skip) {
  const auto targets = sym.targets(r);
  const auto volumes = sym.volumes(r);
  Volume total = 0;
  for (std::size_t e = 0; e < targets.size(); ++e) {
    if (targets[e] == r || std::ranges::find(skip, targets[e]) != skip.end()) continue;
    total += volumes[e] * topology.distance(pe, mapping[static_cast<std::size_t>(targets[e])]);
  }
  return total;
}

void settle_in_nodes(const CommMatrix& sym, const Topology& topology, std::span<const PE> allowed, Mapping& mapping,
                     int passes) {
  // Each node's allowed PEs (PE order) and the rank on each (-1: free).
  const auto by_node = pes_by_node(topology, allowed);
  std::map<PE, Rank> holder;
  for (std::size_t r = 0; r < mapping.size(); ++r) holder[mapping[r]] = static_cast<Rank>(r);
  std::vector<std::vector<Rank>> on_node(by_node.size());
  for (std::size_t node = 0; node < by_node.size(); ++node) {
    auto& on = on_node[node];
    for (const PE pe : by_node[node]) {
      const auto it = holder.find(pe);
      on.push_back(it == holder.end() ? Rank{-1} : it->second);
    }
  }
  for (int pass = 0; pass < passes; ++pass) {
    bool moved = false;
    for (std::size_t node = 0; node < by_node.size(); ++node) {
      const auto& pes = by_node[node];
      NodeSettler settler(sym, topology, pes, on_node[node], mapping);
      if (pes.size() <= kMostExact) {
        moved |= settler.place_exactly();
        continue;
      }
      moved |= settler.exchange_pass();
      if (pes.size() <= kMostRotated) moved |= settler.rotation_pass();
    }
    if (!moved) break;
  }
}

}  // namespace tmap::strategies
