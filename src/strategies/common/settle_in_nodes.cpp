#include "strategies/common/settle_in_nodes.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <vector>

namespace tmap::strategies {

namespace {

/// What i and j exchange in `sym` (rows sorted by target).
Volume pair_volume(const CommMatrix& sym, Rank i, Rank j) {
  const auto targets = sym.targets(i);
  const auto it = std::ranges::lower_bound(targets, j);
  if (it == targets.end() || *it != j) return 0;
  return sym.volumes(i)[static_cast<std::size_t>(it - targets.begin())];
}

}  // namespace

void settle_in_nodes(const CommMatrix& sym, const Topology& topology, std::span<const PE> allowed, Mapping& mapping,
                     int passes) {
  // Each node's allowed PEs (PE order) and the rank on each (-1: free).
  std::map<NodeId, std::vector<PE>> by_node;
  for (const PE pe : allowed) by_node[topology.node_of(pe)].push_back(pe);
  std::map<PE, Rank> holder;
  for (std::size_t r = 0; r < mapping.size(); ++r) holder[mapping[r]] = static_cast<Rank>(r);
  // The hop-bytes of r's pairs were it on `pe`, its pair with `skip` left
  // out (an exchange keeps that one's distance).
  const auto cost = [&](Rank r, PE pe, Rank skip) {
    const auto targets = sym.targets(r);
    const auto volumes = sym.volumes(r);
    Volume total = 0;
    for (std::size_t e = 0; e < targets.size(); ++e) {
      if (targets[e] == skip || targets[e] == r) continue;
      total += volumes[e] * topology.distance(pe, mapping[static_cast<std::size_t>(targets[e])]);
    }
    return total;
  };
  std::array<Rank, 3> skip3{-1, -1, -1};
  const auto cost3 = [&](Rank r, PE pe) {
    const auto targets = sym.targets(r);
    const auto volumes = sym.volumes(r);
    Volume total = 0;
    for (std::size_t e = 0; e < targets.size(); ++e) {
      if (targets[e] == r || std::ranges::find(skip3, targets[e]) != skip3.end()) continue;
      total += volumes[e] * topology.distance(pe, mapping[static_cast<std::size_t>(targets[e])]);
    }
    return total;
  };
  for (int pass = 0; pass < passes; ++pass) {
    bool improved = false;
    for (auto& [node, pes] : by_node) {
      std::vector<Rank> on(pes.size(), -1);
      for (std::size_t k = 0; k < pes.size(); ++k) {
        if (const auto it = holder.find(pes[k]); it != holder.end()) on[k] = it->second;
      }
      for (std::size_t a = 0; a < pes.size(); ++a) {
        for (std::size_t b = a + 1; b < pes.size(); ++b) {
          const Rank x = on[a];
          const Rank y = on[b];
          if (x < 0 && y < 0) continue;
          const Volume before = (x >= 0 ? cost(x, pes[a], y) : 0) + (y >= 0 ? cost(y, pes[b], x) : 0);
          const Volume after = (x >= 0 ? cost(x, pes[b], y) : 0) + (y >= 0 ? cost(y, pes[a], x) : 0);
          if (after >= before) continue;
          if (x >= 0) mapping[static_cast<std::size_t>(x)] = pes[b];
          if (y >= 0) mapping[static_cast<std::size_t>(y)] = pes[a];
          std::swap(on[a], on[b]);
          improved = true;
        }
      }
      // Three ranks rotated (a local optimum of exchanges often needs one).
      const auto rank_cost = [&](std::size_t k, PE pe) { return on[k] >= 0 ? cost3(on[k], pe) : Volume{0}; };
      for (std::size_t a = 0; a < pes.size(); ++a) {
        for (std::size_t b = a + 1; b < pes.size(); ++b) {
          for (std::size_t c = b + 1; c < pes.size(); ++c) {
            if (static_cast<int>(on[a] >= 0) + static_cast<int>(on[b] >= 0) + static_cast<int>(on[c] >= 0) < 2) continue;
            for (int turn = 0; turn < 2; ++turn) {
              // turn 0: a->b, b->c, c->a; turn 1: a->c, c->b, b->a.
              const std::size_t to_a = turn == 0 ? b : c;
              const std::size_t to_b = turn == 0 ? c : a;
              const std::size_t to_c = turn == 0 ? a : b;
              skip3 = {on[a], on[b], on[c]};
              const Volume before = rank_cost(a, pes[a]) + rank_cost(b, pes[b]) + rank_cost(c, pes[c]);
              const Volume after = rank_cost(a, pes[to_a]) + rank_cost(b, pes[to_b]) + rank_cost(c, pes[to_c]);
              // The pairs among the three, before and after.
              const auto among = [&](std::size_t pa, std::size_t pb, std::size_t pc) {
                Volume t = 0;
                const std::array<std::pair<std::size_t, PE>, 3> at{{{a, pes[pa]}, {b, pes[pb]}, {c, pes[pc]}}};
                for (std::size_t i = 0; i < 3; ++i) {
                  for (std::size_t j = i + 1; j < 3; ++j) {
                    if (on[at[i].first] < 0 || on[at[j].first] < 0) continue;
                    t += pair_volume(sym, on[at[i].first], on[at[j].first]) * topology.distance(at[i].second, at[j].second);
                  }
                }
                return t;
              };
              if (after + among(to_a, to_b, to_c) >= before + among(a, b, c)) continue;
              const std::array<Rank, 3> was{on[a], on[b], on[c]};
              on[to_a] = was[0];
              on[to_b] = was[1];
              on[to_c] = was[2];
              for (const std::size_t k : {a, b, c}) {
                if (on[k] >= 0) mapping[static_cast<std::size_t>(on[k])] = pes[k];
              }
              improved = true;
              break;
            }
          }
        }
      }
      for (std::size_t k = 0; k < pes.size(); ++k) {
        if (on[k] >= 0) {
          holder[pes[k]] = on[k];
        } else {
          holder.erase(pes[k]);
        }
      }
    }
    if (!improved) break;
  }
}

}  // namespace tmap::strategies
