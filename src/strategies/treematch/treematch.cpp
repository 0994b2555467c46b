#include "strategies/treematch/treematch.hpp"

#include <algorithm>
#include <numeric>

#include "strategies/scotch/scotch.hpp"
#include "strategies/treematch/bisection.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

namespace {

/// The allowed PEs sorted by tree path: every subtree is a contiguous range.
struct Trie {
  std::vector<PE> pes;
  std::vector<std::vector<std::int64_t>> paths;
  std::int64_t capacity = 1;
};

class Placer {
 public:
  Placer(const CommMatrix& sym, const Trie& trie, Mapping& mapping) : sym_(sym), trie_(trie), mapping_(mapping) {}

  void place(std::size_t lo, std::size_t hi, std::size_t depth, const std::vector<Rank>& ranks) {
    if (ranks.empty()) return;
    if (hi - lo == 1) {
      for (const Rank r : ranks) mapping_[r] = trie_.pes[lo];
      return;
    }
    // Children: runs of equal branch at this depth.
    struct Child {
      std::size_t lo;
      std::size_t hi;
      std::int64_t size = 0;
    };
    std::vector<Child> children;
    for (std::size_t k = lo; k < hi;) {
      std::size_t end = k + 1;
      const auto& path = trie_.paths[k];
      while (end < hi && depth < path.size() && depth < trie_.paths[end].size() &&
             trie_.paths[end][depth] == path[depth]) {
        ++end;
      }
      children.push_back({k, end});
      k = end;
    }
    if (children.size() == 1) {
      place(lo, hi, depth + 1, ranks);
      return;
    }
    // Fill the children with the most room first (stable: tree order on ties).
    std::vector<std::size_t> order(children.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return children[a].hi - children[a].lo > children[b].hi - children[b].lo;
    });
    auto left = static_cast<std::int64_t>(ranks.size());
    for (const auto c : order) {
      children[c].size = std::min<std::int64_t>(left, static_cast<std::int64_t>(children[c].hi - children[c].lo) *
                                                          trie_.capacity);
      left -= children[c].size;
    }
    std::vector<Child> used;
    for (const auto& c : children) {
      if (c.size > 0) used.push_back(c);
    }
    split(used, 0, used.size(), depth, ranks);
  }

 private:
  template <typename Child>
  void split(const std::vector<Child>& children, std::size_t first, std::size_t last, std::size_t depth,
             const std::vector<Rank>& ranks) {
    if (last - first == 1) {
      place(children[first].lo, children[first].hi, depth + 1, ranks);
      return;
    }
    const std::size_t mid = first + (last - first) / 2;
    std::int64_t left = 0;
    for (std::size_t k = first; k < mid; ++k) left += children[k].size;
    const auto [a, b] = treematch::bisect(sym_, ranks, left);
    split(children, first, mid, depth, a);
    split(children, mid, last, depth, b);
  }

  const CommMatrix& sym_;
  const Trie& trie_;
  Mapping& mapping_;
};

}  // namespace

Mapping TreeMatchMapper::map(const Problem& problem, const Context& context) const {
  const auto& topology = problem.topology;
  const auto& constraints = problem.constraints;
  Trie trie;
  trie.capacity = constraints.capacity();
  std::vector<std::pair<std::vector<std::int64_t>, PE>> entries;
  for (const PE p : constraints.allowed_pes()) {
    std::vector<std::int64_t> path;
    if (!topology.tree_path(p, path)) {
      context.note(1, "treematch: " + topology.kind() + " is not a tree; mapping with scotch, as TopoMatch does");
      return ScotchMapper().map(problem, context);
    }
    entries.emplace_back(std::move(path), p);
  }
  std::sort(entries.begin(), entries.end());
  for (auto& [path, pe] : entries) {
    trie.paths.push_back(std::move(path));
    trie.pes.push_back(pe);
  }
  const auto sym = problem.comm.symmetrized();
  std::vector<Rank> ranks(static_cast<std::size_t>(sym.num_ranks()));
  std::iota(ranks.begin(), ranks.end(), Rank{0});
  Mapping mapping(ranks.size(), -1);
  Placer(sym, trie, mapping).place(0, trie.pes.size(), 0, ranks);
  return mapping;
}

}  // namespace tmap::strategies
