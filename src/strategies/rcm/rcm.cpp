#include "strategies/rcm/rcm.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <set>

#include "strategies/common/sites.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

namespace {

/// Cuthill-McKee on an implicit graph: `neighbours(v, out)` fills v's
/// neighbours, `degree` is known per vertex. Returns the reversed order.
std::vector<std::int64_t> reverse_cuthill_mckee(
    std::int64_t n, const std::vector<std::int64_t>& degree,
    const std::function<void(std::int64_t, std::vector<std::int64_t>&)>& neighbours) {
  std::vector<std::int64_t> order;
  order.reserve(static_cast<std::size_t>(n));
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> level_of(static_cast<std::size_t>(n), -1);
  std::vector<std::int64_t> scratch;
  // BFS from `root` over unseen vertices; returns the vertices level by level.
  const auto bfs = [&](std::int64_t root, std::vector<std::int64_t>& visit, bool sort_by_degree) {
    visit.clear();
    std::vector<std::int64_t> stamp;  // vertices touched, to reset level_of
    visit.push_back(root);
    level_of[static_cast<std::size_t>(root)] = 0;
    for (std::size_t head = 0; head < visit.size(); ++head) {
      const auto v = visit[head];
      scratch.clear();
      neighbours(v, scratch);
      if (sort_by_degree) {
        std::sort(scratch.begin(), scratch.end(), [&](std::int64_t a, std::int64_t b) {
          return std::pair(degree[static_cast<std::size_t>(a)], a) < std::pair(degree[static_cast<std::size_t>(b)], b);
        });
      }
      for (const auto w : scratch) {
        if (seen[static_cast<std::size_t>(w)] || level_of[static_cast<std::size_t>(w)] >= 0) continue;
        level_of[static_cast<std::size_t>(w)] = level_of[static_cast<std::size_t>(v)] + 1;
        visit.push_back(w);
      }
    }
  };
  std::vector<std::int64_t> visit;
  for (std::int64_t start = 0; start < n; ++start) {
    if (seen[static_cast<std::size_t>(start)]) continue;
    // The component's vertex of least degree, then George-Liu iterations:
    // move to a least-degree vertex of the last BFS level while the
    // eccentricity grows.
    bfs(start, visit, false);
    std::int64_t root = start;
    for (const auto v : visit) {
      if (std::pair(degree[static_cast<std::size_t>(v)], v) < std::pair(degree[static_cast<std::size_t>(root)], root))
        root = v;
    }
    const auto component = visit;
    for (const auto v : component) level_of[static_cast<std::size_t>(v)] = -1;
    std::int64_t eccentricity = -1;
    for (int round = 0; round < 8; ++round) {
      bfs(root, visit, false);
      const auto depth = level_of[static_cast<std::size_t>(visit.back())];
      std::int64_t candidate = -1;
      for (const auto v : visit) {
        if (level_of[static_cast<std::size_t>(v)] != depth) continue;
        if (candidate < 0 || std::pair(degree[static_cast<std::size_t>(v)], v) <
                                 std::pair(degree[static_cast<std::size_t>(candidate)], candidate)) {
          candidate = v;
        }
      }
      for (const auto v : visit) level_of[static_cast<std::size_t>(v)] = -1;
      if (depth <= eccentricity) break;
      eccentricity = depth;
      root = candidate;
    }
    bfs(root, visit, true);
    for (const auto v : visit) {
      level_of[static_cast<std::size_t>(v)] = -1;
      seen[static_cast<std::size_t>(v)] = 1;
      order.push_back(v);
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

/// RCM order of the sites of `pool` on the threshold graph (see rcm.hpp).
std::vector<Site> site_order(const SiteSpace& sites, const std::vector<Site>& pool) {
  const auto s = static_cast<Site>(pool.size());
  if (s <= 2 || s > kMaxRcmSites) return pool;
  const auto d = [&](Site a, Site b) {
    return sites.distance(pool[static_cast<std::size_t>(a)], pool[static_cast<std::size_t>(b)]);
  };
  // Smallest threshold that connects the sites: the bottleneck of a minimum
  // spanning tree (Prim, O(S^2)).
  std::vector<Distance> best(static_cast<std::size_t>(s), std::numeric_limits<Distance>::max());
  std::vector<char> in(static_cast<std::size_t>(s), 0);
  Distance threshold = 0;
  best[0] = 0;
  for (Site step = 0; step < s; ++step) {
    Site u = -1;
    for (Site v = 0; v < s; ++v) {
      if (!in[static_cast<std::size_t>(v)] &&
          (u < 0 || best[static_cast<std::size_t>(v)] < best[static_cast<std::size_t>(u)]))
        u = v;
    }
    in[static_cast<std::size_t>(u)] = 1;
    threshold = std::max(threshold, best[static_cast<std::size_t>(u)]);
    for (Site v = 0; v < s; ++v) {
      if (!in[static_cast<std::size_t>(v)])
        best[static_cast<std::size_t>(v)] = std::min(best[static_cast<std::size_t>(v)], d(u, v));
    }
  }
  std::vector<std::int64_t> degree(static_cast<std::size_t>(s), 0);
  for (Site u = 0; u < s; ++u) {
    for (Site v = 0; v < s; ++v) {
      if (u != v && d(u, v) <= threshold) ++degree[static_cast<std::size_t>(u)];
    }
  }
  auto order = reverse_cuthill_mckee(s, degree, [&](std::int64_t u, std::vector<std::int64_t>& out) {
    for (Site v = 0; v < s; ++v) {
      if (u != v && d(u, v) <= threshold) out.push_back(v);
    }
  });
  for (auto& v : order) v = pool[static_cast<std::size_t>(v)];
  return order;
}

}  // namespace

std::vector<Rank> rcm_order(const CommMatrix& sym) {
  const Rank n = sym.num_ranks();
  std::vector<std::int64_t> degree(static_cast<std::size_t>(n));
  for (Rank r = 0; r < n; ++r) degree[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(sym.targets(r).size());
  return reverse_cuthill_mckee(n, degree, [&](std::int64_t v, std::vector<std::int64_t>& out) {
    const auto t = sym.targets(v);
    out.insert(out.end(), t.begin(), t.end());
  });
}

Mapping RcmMapper::map(const Problem& problem, const Run& context) const {
  const auto sym = problem.comm.symmetrized();
  const SiteSpace sites(problem.topology, problem.constraints);
  const auto ranks = rcm_order(sym);
  // A job much smaller than a large allocation orders only the first sites
  // (in the topology's numbering) holding four times its ranks.
  std::vector<Site> pool;
  std::int64_t room = 0;
  for (Site s = 0; s < sites.num_sites(); ++s) {
    if (sites.num_sites() > kCompactRcmSites && room >= 4 * sym.num_ranks()) break;
    pool.push_back(s);
    room += sites.capacity(s);
  }
  if (static_cast<std::int64_t>(pool.size()) > kMaxRcmSites) {
    context.note(1,
                 "rcm: more than " + std::to_string(kMaxRcmSites) + " sites to order; they keep the topology's order");
  }
  const auto order = site_order(sites, pool);
  std::vector<Site> site_of(static_cast<std::size_t>(sym.num_ranks()));
  std::size_t at = 0;
  for (const Site s : order) {
    for (std::int64_t k = 0; k < sites.capacity(s) && at < ranks.size(); ++k) {
      site_of[static_cast<std::size_t>(ranks[at++])] = s;
    }
  }
  return sites.to_mapping(site_of);
}

}  // namespace tmap::strategies
