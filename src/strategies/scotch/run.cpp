#include "strategies/scotch/run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "strategies/scotch/libscotch_errors.hpp"
#include "strategies/scotch/repair.hpp"
#include "tmap/error.hpp"

namespace tmap::scotchmap {

SourceGraph source_graph(const CommMatrix& sym, detail::Int128 scale, Volume cutoff) {
  const Rank n = sym.num_ranks();
  SourceGraph source;
  source.verttab.assign(static_cast<std::size_t>(n) + 1, 0);
  source.edgetab.reserve(static_cast<std::size_t>(sym.num_entries()));
  source.edlotab.reserve(static_cast<std::size_t>(sym.num_entries()));
  for (Rank i = 0; i < n; ++i) {
    const auto partners = sym.targets(i);
    const auto volumes = sym.volumes(i);
    for (std::size_t e = 0; e < partners.size(); ++e) {
      if (volumes[e] < cutoff) continue;
      source.edgetab.push_back(static_cast<SCOTCH_Num>(partners[e]));
      source.edlotab.push_back(static_cast<SCOTCH_Num>(std::max<detail::Int128>(1, (volumes[e] + scale / 2) / scale)));
    }
    source.verttab[static_cast<std::size_t>(i) + 1] = static_cast<SCOTCH_Num>(source.edgetab.size());
  }
  if (const auto weights = sym.rank_weights(); !weights.empty()) {
    detail::Int128 total = 0;
    for (const Volume w : weights) total += w;
    constexpr detail::Int128 kLimit = std::numeric_limits<SCOTCH_Num>::max();
    const detail::Int128 divide = total > kLimit ? (total + kLimit - 1) / kLimit : 1;
    source.velotab.reserve(weights.size());
    for (const Volume w : weights) source.velotab.push_back(static_cast<SCOTCH_Num>((w + divide / 2) / divide));
  }
  return source;
}

namespace {

/// What a libscotch printer writes to a FILE*, as text.
template <typename Print>
std::string captured(Print print) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* stream = open_memstream(&buffer, &size);
  if (stream == nullptr) throw InternalError("scotch: open_memstream failed");
  const int failed = print(stream);
  std::fclose(stream);
  std::string text(buffer != nullptr ? buffer : "", size);
  std::free(buffer);  // NOLINT(cppcoreguidelines-no-malloc): open_memstream's buffer
  if (failed != 0) throw InternalError("scotch: libscotch could not describe the mapping" + libscotch_said());
  return text;
}

}  // namespace

std::vector<std::int64_t> map_terminal_numbers(const SourceGraph& source, const Arch& arch, std::int64_t parts,
                                               const Setting& setting, const RunOptions& run, ScotchGmapLog* log) {
  const auto n = source.vertices();
  if (n == 0) return {};
  Graph graph;
  // libscotch reads the arrays without changing them.
  auto* velotab = source.velotab.empty() ? nullptr : const_cast<SCOTCH_Num*>(source.velotab.data());
  if (SCOTCH_graphBuild(&graph.a, 0, n, const_cast<SCOTCH_Num*>(source.verttab.data()), nullptr, velotab, nullptr,
                        static_cast<SCOTCH_Num>(source.edgetab.size()), const_cast<SCOTCH_Num*>(source.edgetab.data()),
                        const_cast<SCOTCH_Num*>(source.edlotab.data())) != 0) {
    throw InternalError("scotch: SCOTCH_graphBuild failed" + libscotch_said());
  }
  ScotchContext scontext;
  SCOTCH_contextOptionSetNum(&scontext.a, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
  SCOTCH_contextOptionSetNum(&scontext.a, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1);
  // Without a clone the context draws from libscotch's one global generator,
  // which concurrent calls then share: a private generator, then our seed.
  if (SCOTCH_contextRandomClone(&scontext.a) != 0)
    throw InternalError("scotch: SCOTCH_contextRandomClone failed" + libscotch_said());
  SCOTCH_contextRandomSeed(&scontext.a, static_cast<SCOTCH_Num>(run.seed & 0x7fffffff));
  // 0: libscotch's own default, as scotch_gmap (SCOTCH_PTHREAD_NUMBER, else every core).
  if (run.threads > 0) SCOTCH_contextThreadSpawn(&scontext.a, run.threads, nullptr);
  Graph bound;
  if (SCOTCH_contextBindGraph(&scontext.a, &graph.a, &bound.a) != 0) {
    throw InternalError("scotch: SCOTCH_contextBindGraph failed" + libscotch_said());
  }
  Strat strat;
  {
    const std::lock_guard lock(libscotch_parser());
    if (!setting.strategy.empty()) {
      if (SCOTCH_stratGraphMap(&strat.a, setting.strategy.c_str()) != 0) {
        throw ParameterError("scotch: libscotch cannot parse the mapping strategy '" + setting.strategy + "'" +
                             libscotch_said());
      }
    } else if (SCOTCH_stratGraphMapBuild(&strat.a, setting.flags, static_cast<SCOTCH_Num>(parts), setting.imbalance) !=
               0) {
      throw InternalError("scotch: SCOTCH_stratGraphMapBuild failed" + libscotch_said());
    }
  }
  std::vector<SCOTCH_Num> parttab(static_cast<std::size_t>(n), 0);
  // The architecture is only read while mapping.
  if (log == nullptr) {
    if (SCOTCH_graphMap(&bound.a, const_cast<SCOTCH_Arch*>(&arch.a), &strat.a, parttab.data()) != 0) {
      throw InternalError("scotch: SCOTCH_graphMap failed" + libscotch_said());
    }
  } else {
    // As gmap: the mapping made on the graph, computed on its context
    // binding, then described by libscotch (its own domains: reading
    // terminal numbers back would go through deco's off-by-one lookup).
    SCOTCH_Mapping mapping;
    if (SCOTCH_graphMapInit(&graph.a, &mapping, &arch.a, parttab.data()) != 0) {
      throw InternalError("scotch: SCOTCH_graphMapInit failed" + libscotch_said());
    }
    const int failed = SCOTCH_graphMapCompute(&bound.a, &mapping, &strat.a);
    if (failed == 0) {
      // gmap's order: the mapping file, then the strategy, then the view
      // (which renumbers what the mapping holds: read the file first). The
      // terminals as gmap's .map names them.
      const auto saved = captured([&](std::FILE* f) { return SCOTCH_graphMapSave(&graph.a, &mapping, f); });
      log->strategy = captured([&](std::FILE* f) { return SCOTCH_stratSave(&strat.a, f); });
      if (log->want_view) {
        log->mapping_view = captured([&](std::FILE* f) { return SCOTCH_graphMapView(&graph.a, &mapping, f); });
      }
      std::istringstream lines(saved);
      long long count = 0;
      lines >> count;
      for (long long k = 0, vertex = 0, terminal = 0; k < count && lines >> vertex >> terminal; ++k) {
        if (vertex >= 0 && vertex < n) parttab[static_cast<std::size_t>(vertex)] = static_cast<SCOTCH_Num>(terminal);
      }
      if (count != n || !lines) throw InternalError("scotch: libscotch's mapping file could not be read back");
    }
    SCOTCH_graphMapExit(&graph.a, &mapping);
    if (failed != 0) throw InternalError("scotch: SCOTCH_graphMapCompute failed" + libscotch_said());
  }
  return {parttab.begin(), parttab.end()};
}

std::vector<std::int64_t> map_labels(const SourceGraph& source, const Arch& arch, std::int64_t terminals,
                                     const Setting& setting, const RunOptions& run) {
  auto labels = map_terminal_numbers(source, arch, terminals, setting, run);
  for (const auto t : labels) {
    if (t < 0 || t >= terminals) throw InternalError("scotch: libscotch returned an unknown terminal");
  }
  return labels;
}

std::vector<std::int64_t> map_two_level(const SourceGraph& source, const CommMatrix& sym, const Topology& topology,
                                        const Terminals& terminals, const std::vector<std::int64_t>& group_of,
                                        const Terminals& groups, const Arch& group_arch, const Setting& setting,
                                        const RunOptions& run) {
  const auto n = static_cast<std::size_t>(source.vertices());
  // Level 1: ranks onto groups, overfull groups repaired.
  auto group_of_rank = map_labels(source, group_arch, groups.size(), setting, run);
  (void)repair_overfull(sym, groups, group_of_rank, [&](std::int64_t a, std::int64_t b) {
    return topology.distance(groups.representative[a], groups.representative[b]);
  });

  // Level 2: each group's ranks onto its terminals.
  std::vector<std::vector<std::int64_t>> members(static_cast<std::size_t>(groups.size()));
  for (std::int64_t t = 0; t < terminals.size(); ++t) members[static_cast<std::size_t>(group_of[t])].push_back(t);
  std::vector<std::vector<SCOTCH_Num>> ranks_in(static_cast<std::size_t>(groups.size()));
  for (std::size_t r = 0; r < n; ++r) {
    ranks_in[static_cast<std::size_t>(group_of_rank[r])].push_back(static_cast<SCOTCH_Num>(r));
  }
  std::vector<SCOTCH_Num> local(n, -1);
  std::vector<std::int64_t> terminal_of(n, 0);
  for (std::size_t g = 0; g < members.size(); ++g) {
    const auto& ranks = ranks_in[g];
    const auto& mine = members[g];
    if (ranks.empty()) continue;
    if (mine.size() == 1) {
      for (const auto r : ranks) terminal_of[static_cast<std::size_t>(r)] = mine.front();
      continue;
    }
    for (std::size_t k = 0; k < ranks.size(); ++k)
      local[static_cast<std::size_t>(ranks[k])] = static_cast<SCOTCH_Num>(k);
    SourceGraph inside;
    inside.verttab.reserve(ranks.size() + 1);
    for (const auto r : ranks) {
      for (auto e = source.verttab[static_cast<std::size_t>(r)]; e < source.verttab[static_cast<std::size_t>(r) + 1];
           ++e) {
        const auto to = local[static_cast<std::size_t>(source.edgetab[static_cast<std::size_t>(e)])];
        if (to < 0) continue;
        inside.edgetab.push_back(to);
        inside.edlotab.push_back(source.edlotab[static_cast<std::size_t>(e)]);
      }
      inside.verttab.push_back(static_cast<SCOTCH_Num>(inside.edgetab.size()));
      if (!source.velotab.empty()) inside.velotab.push_back(source.velotab[static_cast<std::size_t>(r)]);
    }
    std::vector<SCOTCH_Num> weights;
    for (const auto t : mine) weights.push_back(static_cast<SCOTCH_Num>(terminals.capacity[t]));
    Arch complete;
    if (SCOTCH_archCmpltw(&complete.a, static_cast<SCOTCH_Num>(weights.size()), weights.data()) != 0) {
      throw InternalError("scotch: SCOTCH_archCmpltw failed" + libscotch_said());
    }
    const auto labels = map_labels(inside, complete, static_cast<std::int64_t>(mine.size()), setting, run);
    for (std::size_t k = 0; k < ranks.size(); ++k) {
      terminal_of[static_cast<std::size_t>(ranks[k])] = mine[static_cast<std::size_t>(labels[k])];
      local[static_cast<std::size_t>(ranks[k])] = -1;
    }
  }
  return terminal_of;
}

}  // namespace tmap::scotchmap
