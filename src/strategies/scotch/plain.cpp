// scotch: libscotch's static mapping exactly as scotch_gmap computes it.
//
// gmap loads the graph and the target, builds the strategy from its -c
// letters and -b ratio for SCOTCH_archSize parts (or parses -m), binds the
// graph to a deterministic context (-Cd) and calls SCOTCH_graphMapCompute
// with libscotch's global generator at its fixed seed. This does the same
// calls on the same data: the graph tmap writes for the matrix (tm-gen
// --format grf: adjacency in increasing order, no vertex loads), and the
// target text the machine was read from (or, for machines not read from a
// Scotch target, the deco 0 tm-topo writes for Tianhe-3 and the machine's
// scotch_target() otherwise; an allocation becomes a `sub` of it, as a user would
// hand gmap). A private generator seeded with --seed 0 starts where gmap's
// global one does, so the .map files are equal line for line
// (tests/scotch_gmap_equality.sh). Where Scotch puts more ranks on a terminal
// than it holds, the extra ranks move where they cost least and the run
// says so (never silently). libscotch runs on one thread, except on gmap's
// `cmplt` targets, whose mapping moves with libscotch's thread count: there
// on as many as gmap starts on this machine (SCOTCH_PTHREAD_NUMBER, else
// every core).
#include <algorithm>
#include <cctype>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "strategies/scotch/accepts.hpp"
#include "strategies/scotch/libscotch.hpp"
#include "strategies/scotch/repair.hpp"
#include "strategies/scotch/run.hpp"
#include "strategies/scotch/scotch.hpp"
#include "strategies/scotch/target.hpp"
#include "strategies/scotch/terminals.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "util/int128.hpp"

namespace tmap::strategies {

namespace {

using detail::Int128;

/// gmap's -c letters as SCOTCH_STRAT* flags.
SCOTCH_Num strategy_flags(const std::string& letters) {
  SCOTCH_Num flags = 0;
  for (const char c : letters) {
    switch (c) {
      case 'b':
        flags |= SCOTCH_STRATBALANCE;
        break;
      case 'q':
        flags |= SCOTCH_STRATQUALITY;
        break;
      case 'r':
        flags |= SCOTCH_STRATRECURSIVE;
        break;
      case 's':
        flags |= SCOTCH_STRATSPEED;
        break;
      case 't':
        flags |= SCOTCH_STRATSAFETY;
        break;
      default:
        throw ParameterError(std::string("scotch-flags: '") + c + "' is not one of b, q, r, s, t (as gmap's -c)");
    }
  }
  return flags;
}

/// The target gmap would be given for these terminals, and which terminal
/// each of its terminal numbers is. A sub target refers to the whole one,
/// so both live here.
struct GmapTarget {
  scotchmap::Arch whole;
  scotchmap::Arch arch;
  std::unordered_map<std::int64_t, std::int64_t> terminal_of_number;
  std::string what;
};

/// Where gmap's target comes from for these terminals.
enum class GmapSource {
  None,        ///< none here: too large for a table and not read from a Scotch file, or part of a deco file
  Given,       ///< the Scotch text the machine was read from
  NodeSubset,  ///< Tianhe-3: tm-topo --tgt [--alloc]'s deco 0 of the allowed nodes
  Written,     ///< the machine's scotch_target()
};

struct GmapPlan {
  GmapSource source = GmapSource::None;
  bool sub = false;  ///< an allocation: a `sub` of that target
};

GmapPlan plan_gmap_target(const Topology& topology, const scotchmap::Terminals& terminals) {
  std::size_t allowed = 0;
  for (const auto& pes : terminals.pes) allowed += pes.size();
  const bool whole = static_cast<PE>(allowed) == topology.size();
  const bool given = !scotch_source(topology).empty();
  if (whole && given) return {GmapSource::Given, false};
  if (scotch_terminals_are_nodes(topology)) {
    return {terminals.size() > scotchmap::kMaxTableTerminals ? GmapSource::None : GmapSource::NodeSubset, false};
  }
  if (!whole && given && !scotchmap::libscotch_sub_allowed(topology)) return {};
  // Machines not read from Scotch text: their scotch_target() where it is Scotch's
  // own kind (libscotch prints its refusals, so nothing else is tried).
  if (!given && !scotchmap::libscotch_exact(topology)) return {};
  return {given ? GmapSource::Given : GmapSource::Written, !whole};
}

/// Is this Scotch target text a `sub` (its first word)?
bool is_sub_text(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text.substr(first, 3) == "sub" &&
         (text.size() == first + 3 || std::isspace(static_cast<unsigned char>(text[first + 3])) != 0);
}

/// Loads that target; nothing when there is none or libscotch refuses the
/// text (tmap's reader is more lenient than libscotch's).
std::unique_ptr<GmapTarget> load_gmap_target(const Topology& topology, const scotchmap::Terminals& terminals) {
  const auto plan = plan_gmap_target(topology, terminals);
  if (plan.source == GmapSource::None) return nullptr;
  auto target = std::make_unique<GmapTarget>();
  // Scotch numbers a terminal as its node's label where terminals are
  // nodes or nodes are single PEs (a deco's labels), else as the PE (a
  // tleaf's leaves, whose last level tmap calls nodes).
  // A `sub` target as given numbers its terminals by their place in its
  // list (0..N-1), whatever labels the list names: they are tmap's PEs.
  const bool listed_sub = plan.source == GmapSource::Given && is_sub_text(scotch_source(topology));
  const bool by_node =
      !listed_sub && (topology.num_nodes() == topology.size() ||
                      (topology.node_uniform_distance() == Distance{0} && topology.num_nodes() < topology.size()));
  std::vector<SCOTCH_Num> numbers;
  for (std::int64_t t = 0; t < terminals.size(); ++t) {
    const auto pe = terminals.representative[static_cast<std::size_t>(t)];
    const auto number = by_node ? node_label(topology, topology.node_of(pe)) : pe;
    if (!target->terminal_of_number.emplace(number, t).second) return nullptr;
    numbers.push_back(static_cast<SCOTCH_Num>(number));
  }
  std::string text;
  switch (plan.source) {
    case GmapSource::Given:
      text = scotch_source(topology);
      target->what = "the target as given";
      break;
    case GmapSource::NodeSubset: {
      std::vector<NodeId> nodes;
      for (const auto pe : terminals.representative) nodes.push_back(topology.node_of(pe));
      text = scotch_node_subset_target(topology, nodes);
      if (text.empty()) return nullptr;  // only Tianhe-3 writes one
      target->what = "tm-topo's deco 0 of the allowed nodes";
      break;
    }
    default:
      text = scotch_target(topology);
      target->what = "the machine's Scotch target (tm-topo)";
      break;
  }
  if (!plan.sub) return scotchmap::try_load_target(target->arch, text) ? std::move(target) : nullptr;
  // An allocation: a `sub` of the whole target, as a user hands gmap.
  if (!scotchmap::try_load_target(target->whole, text)) return nullptr;
  if (SCOTCH_archSub(&target->arch.a, &target->whole.a, static_cast<SCOTCH_Num>(numbers.size()), numbers.data()) != 0) {
    return nullptr;
  }
  // A sub target numbers its terminals in the order they were listed.
  target->terminal_of_number.clear();
  for (std::int64_t t = 0; t < terminals.size(); ++t) target->terminal_of_number.emplace(t, t);
  target->what += ", as a sub of the allocated terminals";
  return target;
}

}  // namespace

bool ScotchMapper::has_gmap_target(const Topology& topology, const scotchmap::Terminals& terminals) {
  return plan_gmap_target(topology, terminals).source != GmapSource::None;
}

Mapping ScotchMapper::map(const Problem& problem, const Run& context) const {
  return map_logged(problem, context, nullptr);
}

Mapping ScotchMapper::map_logged(const Problem& problem, const Run& context, ScotchGmapLog* log,
                                 int libscotch_threads) {
  const auto& topology = problem.topology;
  const auto sym = problem.comm.symmetrized();
  const Rank n = sym.num_ranks();
  if (n > std::numeric_limits<SCOTCH_Num>::max() / 4 || sym.num_entries() > std::numeric_limits<SCOTCH_Num>::max()) {
    throw ResourceError("scotch: the graph is too large for this libscotch's 32-bit SCOTCH_Num");
  }
  const auto terminals = scotchmap::make_terminals(topology, problem.constraints);
  // --imbalance is gmap's -b where the job is balanced by load.
  const double imbalance =
      problem.constraints.imbalance() >= 0.0 ? problem.constraints.imbalance() : context.scotch.imbalance;
  scotchmap::Setting setting{strategy_flags(context.scotch.flags), imbalance, context.scotch.strategy};

  // The target: gmap's where there is one, else what scotch+ builds.
  auto gmap = load_gmap_target(topology, terminals);
  scotchmap::Arch own;
  Distance distance_scale = 1;
  scotchmap::TargetBuilder builder(topology);
  std::optional<scotchmap::TargetKind> fallback;
  if (!gmap) {
    fallback = builder.plan(terminals);
    distance_scale = builder.scale(*fallback);
    builder.build(own, *fallback, terminals, context);
    context.note(1, "scotch: no Scotch target scotch_gmap could be given here; libscotch gets tmap's own (as scotch+)");
  } else {
    context.note(2, "scotch: libscotch gets " + gmap->what);
  }
  const scotchmap::Arch& arch = gmap ? gmap->arch : own;

  // The graph, loads as they are: exactly the .grf `tm-gen convert` writes
  // and gmap loads (libscotch takes a sum of loads past 2^31 as gmap does).
  // Only a load that does not fit SCOTCH_Num itself (gmap cannot load that
  // graph), or tmap's own target whose distances multiply the loads, gets
  // them divided, and says so.
  Int128 total = 0;
  Volume largest = 0;
  for (const Volume v : sym.all_volumes()) {
    total += v;
    largest = std::max(largest, v);
  }
  constexpr Int128 kLimit = std::numeric_limits<SCOTCH_Num>::max();
  const Int128 need = gmap ? Int128{largest} : total * distance_scale;
  const Int128 scale = need > kLimit ? (need + kLimit - 1) / kLimit : 1;
  if (scale > 1) {
    context.note(1, "scotch: edge loads divided by " + std::to_string(static_cast<std::int64_t>(scale)) +
                        (gmap ? " to fit libscotch's 32-bit integers (a load past 2^31-1: gmap cannot load this graph)"
                              : " to fit libscotch's 32-bit integers on tmap's own target"));
  }
  const auto source = scotchmap::source_graph(sym, scale);

  // libscotch's threads as gmap starts them, whatever -p says, only where
  // its mapping moves with their count: gmap's own `cmplt` target (measured
  // on 12 kinds, 2 graphs of 4,096 vertices, 1, 2 and 4 threads: cmplt
  // gave three mappings, tleaf, mesh, torus, hcub, cmpltw, deco and a sub of
  // cmplt one each). Elsewhere one thread gives gmap's mapping too, and
  // libscotch 7.0.3's threads crash or hang on jobs with large loads (BT
  // at 4,096 ranks with 10 MB a pair on a tleaf: gmap segfaults or hangs
  // on two threads, never on one).
  const bool threads_matter = gmap && std::string_view(SCOTCH_archName(&arch.a)) == "cmplt";
  const scotchmap::RunOptions run{context.seed, libscotch_threads == 0 && !threads_matter ? 1 : libscotch_threads};
  std::vector<std::int64_t> terminal_of;
  if (fallback == scotchmap::TargetKind::Grouped) {
    const auto grouped = scotchmap::uniform_groups(topology, terminals);
    terminal_of = scotchmap::map_two_level(source, sym, topology, terminals, grouped->group_of, grouped->groups, arch,
                                           setting, run);
  } else {
    const auto parts = SCOTCH_archSize(&arch.a);
    if (gmap && log != nullptr && log->want_view && std::string_view(SCOTCH_archName(&arch.a)) == "deco") {
      // libscotch's view indexes deco terminals by label: labels 0..T-1 only.
      for (std::int64_t t = 0; t < terminals.size(); ++t) {
        if (!gmap->terminal_of_number.contains(t)) log->want_view = false;
      }
    }
    terminal_of = scotchmap::map_terminal_numbers(source, arch, parts, setting, run, gmap ? log : nullptr);
    if (gmap) {
      for (auto& t : terminal_of) {
        const auto it = gmap->terminal_of_number.find(t);
        if (it == gmap->terminal_of_number.end())
          throw InternalError("scotch: libscotch returned an unknown terminal number");
        t = it->second;
      }
    } else {
      for (const auto t : terminal_of) {
        if (t < 0 || t >= terminals.size()) throw InternalError("scotch: libscotch returned an unknown terminal");
      }
    }
  }
  if (balances_load(sym.rank_weights(), problem.constraints)) {
    // Loads, not counts: each terminal's ranks onto its PEs by weight; the
    // mapper's stage after this brings PEs within their limits.
    return scotchmap::expand_by_load(terminals, terminal_of, sym.rank_weights(), problem.constraints.capacity());
  }
  const auto moved = scotchmap::repair_on_machine(topology, sym, terminals, terminal_of);
  if (moved > 0 && log != nullptr) *log = {};  // no longer gmap's mapping
  if (moved > 0) {
    context.note(1, "scotch: Scotch's mapping put more ranks on some PEs than they hold; " + std::to_string(moved) +
                        " rank(s) moved to free slots where they cost least (the mapping is no longer gmap's)");
  }
  return scotchmap::expand(terminals, terminal_of, problem.constraints.capacity());
}

}  // namespace tmap::strategies
