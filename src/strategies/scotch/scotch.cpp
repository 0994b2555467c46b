#include "strategies/scotch/scotch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

extern "C" {
#include <scotch.h>
}

#include "strategies/scotch/terminals.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "topology/deco.hpp"
#include "util/int128.hpp"

namespace tmap::strategies {

namespace {

using detail::Int128;
using scotchmap::Terminals;

/// Scotch sums loads times distances in SCOTCH_Num: keep those sums below this.
constexpr Int128 kScotchSumLimit = Int128{1} << 29;
/// Largest deco 0 we hand to Scotch (terminals); its text grows as T^2 / 2.
constexpr std::int64_t kMaxDecoTerminals = 6144;

/// Owns a libscotch object: initialised on construction, freed on every path.
template <typename T, int (*Init)(T*), void (*Exit)(T*)>
struct Scoped {
  T a{};
  Scoped() { Init(&a); }
  ~Scoped() { Exit(&a); }
  Scoped(const Scoped&) = delete;
  Scoped& operator=(const Scoped&) = delete;
};
using Arch = Scoped<SCOTCH_Arch, SCOTCH_archInit, SCOTCH_archExit>;
using Graph = Scoped<SCOTCH_Graph, SCOTCH_graphInit, SCOTCH_graphExit>;
using Strat = Scoped<SCOTCH_Strat, SCOTCH_stratInit, SCOTCH_stratExit>;
using ScotchContext = Scoped<SCOTCH_Context, SCOTCH_contextInit, SCOTCH_contextExit>;

/// Loads Scotch target text into an architecture.
/// libscotch's strategy-string parser (flex/bison) and its target loader
/// are not documented as reentrant: those short calls are serialised. The
/// mapping itself runs on a context of its own, with a private random
/// generator (see map_once), and stays concurrent.
std::mutex& libscotch_parser() {
  static std::mutex mutex;
  return mutex;
}

void load_arch(Arch& arch, const std::string& text) {
  const std::lock_guard lock(libscotch_parser());
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(fmemopen(const_cast<char*>(text.data()), text.size(), "r"),
                                                       &std::fclose);
  if (!file || SCOTCH_archLoad(&arch.a, file.get()) != 0) {
    throw InternalError("scotch: libscotch refused the target it was given");
  }
}

/// The architecture, and whether its terminal labels are PE ids (native) or
/// terminal indices (deco).
void build_arch(Arch& arch, const Topology& topology, const Terminals& terminals, const Context& context) {
  if (terminals.identity && topology.scotch_native()) {
    load_arch(arch, topology.to_tgt());
    return;
  }
  if (terminals.size() > kMaxDecoTerminals) {
    throw InputError("scotch: " + std::to_string(terminals.size()) + " allowed terminals exceed the " +
                     std::to_string(kMaxDecoTerminals) +
                     " a deco target handles here; map onto a whole Scotch-native topology or use ohtma+");
  }
  // Exact distances, scaled down only if they would overflow Scotch's sums.
  const Distance largest = std::max<Distance>(topology.max_distance(), 1);
  const Distance divisor = largest > 65535 ? (largest + 65534) / 65535 : 1;
  bool clamped = false;
  const auto order = scotchmap::bisection_order(topology, terminals);
  const auto text = topo::format_deco0(order, terminals.capacity, [&](std::int64_t i, std::int64_t j) {
    Distance d = topology.distance(terminals.representative[i], terminals.representative[j]) / divisor;
    if (d < 1) {
      clamped = true;
      d = 1;  // deco targets need distinct terminals at least 1 apart
    }
    return d;
  });
  if (clamped) context.note(1, "scotch: some distinct terminals are 0 apart; Scotch sees them 1 apart");
  load_arch(arch, text);
}

/// One libscotch mapping with the given strategy flags and imbalance ratio,
/// repaired and spread over PEs.
Mapping map_once(Graph& graph, Arch& arch, const Terminals& terminals, const CommMatrix& sym, const Topology& topology,
                 const Constraints& constraints, const Context& context, SCOTCH_Num flags, double imbalance) {
  const Rank n = sym.num_ranks();
  ScotchContext scontext;
  SCOTCH_contextOptionSetNum(&scontext.a, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
  SCOTCH_contextOptionSetNum(&scontext.a, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1);
  // Without a clone the context draws from libscotch's one global generator,
  // which concurrent calls then share: a private generator, then our seed.
  if (SCOTCH_contextRandomClone(&scontext.a) != 0) throw InternalError("scotch: SCOTCH_contextRandomClone failed");
  SCOTCH_contextRandomSeed(&scontext.a, static_cast<SCOTCH_Num>(context.seed & 0x7fffffff));
  SCOTCH_contextThreadSpawn(&scontext.a, std::max(1, context.threads), nullptr);
  Graph bound;
  if (SCOTCH_contextBindGraph(&scontext.a, &graph.a, &bound.a) != 0) {
    throw InternalError("scotch: SCOTCH_contextBindGraph failed");
  }
  Strat strat;
  {
    const std::lock_guard lock(libscotch_parser());
    if (SCOTCH_stratGraphMapBuild(&strat.a, flags, static_cast<SCOTCH_Num>(terminals.size()), imbalance) != 0) {
      throw InternalError("scotch: SCOTCH_stratGraphMapBuild failed");
    }
  }
  std::vector<SCOTCH_Num> parttab(static_cast<std::size_t>(n), 0);
  if (n > 0 && SCOTCH_graphMap(&bound.a, &arch.a, &strat.a, parttab.data()) != 0) {
    throw InternalError("scotch: SCOTCH_graphMap failed");
  }

  // Scotch's labels: PE ids for native targets, terminal indices for deco.
  std::vector<std::int64_t> terminal_of(parttab.begin(), parttab.end());
  for (auto& t : terminal_of) {
    if (t < 0 || t >= terminals.size()) throw InternalError("scotch: libscotch returned an unknown terminal");
  }

  // Repair: ranks beyond a terminal's capacity move where they cost least.
  const auto moved = scotchmap::repair_overfull(sym, terminals, terminal_of, [&](std::int64_t a, std::int64_t b) {
    return topology.distance(terminals.representative[a], terminals.representative[b]);
  });
  if (moved > 0) {
    context.note(1, "scotch: libscotch overfilled some PEs; moved " + std::to_string(moved) +
                        " rank(s) to free slots where they cost least");
  }
  return scotchmap::expand(terminals, terminal_of, constraints.capacity());
}

}  // namespace

Mapping ScotchMapper::map(const Problem& problem, const Context& context) const {
  const auto& topology = problem.topology;
  const auto& constraints = problem.constraints;
  const auto sym = problem.comm.symmetrized();
  const Rank n = sym.num_ranks();
  const auto terminals = scotchmap::make_terminals(topology, constraints);
  if (n > std::numeric_limits<SCOTCH_Num>::max() / 4 || sym.num_entries() > std::numeric_limits<SCOTCH_Num>::max()) {
    throw InputError("scotch: the graph is too large for this libscotch's 32-bit SCOTCH_Num");
  }

  // Graph: edge loads scaled so that total load x largest distance fits.
  Int128 total = 0;
  Volume heaviest = 0;
  for (const Volume v : sym.all_volumes()) {
    total += v;
    heaviest = std::max(heaviest, v);
  }
  const Volume cutoff =
      context.scotch.sparse_factor > 0
          ? static_cast<Volume>(std::ceil(context.scotch.sparse_factor * static_cast<double>(heaviest)))
          : 0;
  const Int128 reach = total * std::max<Distance>(std::min<Distance>(topology.max_distance(), 65535), 1);
  const Int128 scale = reach > kScotchSumLimit ? (reach + kScotchSumLimit - 1) / kScotchSumLimit : 1;
  std::vector<SCOTCH_Num> verttab(static_cast<std::size_t>(n) + 1, 0);
  std::vector<SCOTCH_Num> edgetab;
  std::vector<SCOTCH_Num> edlotab;
  edgetab.reserve(static_cast<std::size_t>(sym.num_entries()));
  edlotab.reserve(static_cast<std::size_t>(sym.num_entries()));
  // Keep the graph symmetric under the cutoff: an edge stays iff its load does.
  for (Rank i = 0; i < n; ++i) {
    const auto targets = sym.targets(i);
    const auto volumes = sym.volumes(i);
    for (std::size_t e = 0; e < targets.size(); ++e) {
      if (volumes[e] < cutoff) continue;
      edgetab.push_back(static_cast<SCOTCH_Num>(targets[e]));
      edlotab.push_back(static_cast<SCOTCH_Num>(std::max<Int128>(1, (volumes[e] + scale / 2) / scale)));
    }
    verttab[static_cast<std::size_t>(i) + 1] = static_cast<SCOTCH_Num>(edgetab.size());
  }
  if (cutoff > 0) {
    context.note(2, "scotch: --sparse-factor kept " + std::to_string(edgetab.size() / 2) + " of " +
                        std::to_string(sym.num_entries() / 2) + " edges (loads >= " + std::to_string(cutoff) + ")");
  }
  Graph graph;
  if (SCOTCH_graphBuild(&graph.a, 0, static_cast<SCOTCH_Num>(n), verttab.data(), nullptr, nullptr, nullptr,
                        static_cast<SCOTCH_Num>(edgetab.size()), edgetab.data(), edlotab.data()) != 0) {
    throw InternalError("scotch: SCOTCH_graphBuild failed");
  }

  // The whole allocation, and with fewer ranks than slots also a compact
  // block of it (Scotch would spread the ranks over every terminal).
  // A job needing an eighth of the allocation or less only gets the block:
  // the whole target would spread it out, and its deco text costs seconds
  // on a full machine.
  std::vector<Terminals> targets{terminals};
  std::int64_t slots = 0;
  for (const auto c : terminals.capacity) slots += c;
  if (n < slots && terminals.size() > 1) {
    auto block = scotchmap::compact_block(topology, terminals, n);
    if (block.size() < terminals.size()) {
      if (n * 8 <= slots) targets.clear();
      targets.push_back(std::move(block));
    }
  }

  // Two settings, the better kept (by our exact hop-bytes): zero imbalance
  // gives true 1:1 fills (and the known optima), a 5 % imbalance often cuts
  // less (Scotch's own default leans that way); what it overfills is repaired.
  struct Setting {
    SCOTCH_Num flags;
    double imbalance;
  };
  Mapping best;
  std::int64_t best_cost = 0;
  for (const auto& target : targets) {
    Arch arch;
    build_arch(arch, topology, target, context);
    for (const Setting setting :
         {Setting{SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE, 0.0}, Setting{SCOTCH_STRATBALANCE, 0.05}}) {
      auto candidate =
          map_once(graph, arch, target, sym, topology, constraints, context, setting.flags, setting.imbalance);
      const auto cost = evaluate(problem.comm, topology, candidate).hop_bytes;
      if (best.empty() || cost < best_cost) {
        best = std::move(candidate);
        best_cost = cost;
      }
    }
  }
  return best;
}

}  // namespace tmap::strategies
