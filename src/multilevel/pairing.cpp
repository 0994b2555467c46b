#include "multilevel/pairing.hpp"

#include <map>

namespace tmap::multilevel {

std::vector<std::int64_t> pair_within_shapes(const Candidates& candidates, std::span<const std::int64_t> shape,
                                             std::span<const std::int64_t> order) {
  const auto n = candidates.num_items();
  std::vector<std::int64_t> partner(static_cast<std::size_t>(n), -1);
  const auto free_of_shape = [&](std::int64_t u, std::int64_t v) {
    return u != v && partner[static_cast<std::size_t>(u)] < 0 &&
           shape[static_cast<std::size_t>(u)] == shape[static_cast<std::size_t>(v)];
  };
  const auto join = [&](std::int64_t v, std::int64_t u) {
    partner[static_cast<std::size_t>(v)] = u;
    partner[static_cast<std::size_t>(u)] = v;
  };
  // Phase 1 looks one step away, phase 2 two steps (through any item, the
  // path's score its weaker step): each v takes its best free candidate of
  // its shape, ties to the lowest id.
  const auto each_candidate = [&](std::int64_t v, int steps, auto&& visit) {
    const auto& off = candidates.offsets;
    for (auto e = off[static_cast<std::size_t>(v)]; e < off[static_cast<std::size_t>(v) + 1]; ++e) {
      const auto w = candidates.targets[static_cast<std::size_t>(e)];
      const auto first = candidates.scores[static_cast<std::size_t>(e)];
      if (steps == 1) {
        visit(w, first);
        continue;
      }
      for (auto f = off[static_cast<std::size_t>(w)]; f < off[static_cast<std::size_t>(w) + 1]; ++f) {
        visit(candidates.targets[static_cast<std::size_t>(f)],
              std::min(first, candidates.scores[static_cast<std::size_t>(f)]));
      }
    }
  };
  for (const int steps : {1, 2}) {
    for (const auto v : order) {
      if (partner[static_cast<std::size_t>(v)] >= 0) continue;
      std::int64_t best = -1;
      std::int64_t best_score = 0;
      each_candidate(v, steps, [&](std::int64_t u, std::int64_t score) {
        if (!free_of_shape(u, v)) return;
        if (best < 0 || score > best_score || (score == best_score && u < best)) {
          best = u;
          best_score = score;
        }
      });
      if (best >= 0) join(v, best);
    }
  }
  // 3: the rest, in visit order within each shape class.
  std::map<std::int64_t, std::int64_t> waiting;  // shape -> a lone item of that shape
  for (const auto v : order) {
    if (partner[static_cast<std::size_t>(v)] >= 0) continue;
    const auto s = shape[static_cast<std::size_t>(v)];
    const auto it = waiting.find(s);
    if (it == waiting.end()) {
      waiting.emplace(s, v);
    } else {
      join(v, it->second);
      waiting.erase(it);
    }
  }
  return partner;
}

std::int64_t number_pairs(std::span<const std::int64_t> partner, std::vector<std::int64_t>& parent) {
  const auto n = static_cast<std::int64_t>(partner.size());
  parent.assign(static_cast<std::size_t>(n), -1);
  std::int64_t next = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    if (parent[static_cast<std::size_t>(v)] >= 0) continue;
    parent[static_cast<std::size_t>(v)] = next;
    const auto u = partner[static_cast<std::size_t>(v)];
    if (u >= 0) parent[static_cast<std::size_t>(u)] = next;
    ++next;
  }
  return next;
}

}  // namespace tmap::multilevel
