// Scotch through libscotch, in two rows of the strategy table.
//
// `scotch` (plain.cpp) is Scotch's static mapping exactly as scotch_gmap
// computes it (default -Cd -cb): the same graph, the target the machine was
// read from, gmap's strategy and context, so the .map files are equal; an
// overfull terminal is repaired and said so. It is the baseline every
// comparison quotes.
//
// `scotch+` (portfolio.cpp) is tmap's portfolio of libscotch runs: the
// symmetrised traffic (edge loads scaled into SCOTCH_Num without overflow;
// --sparse-factor drops small entries as TopoMatch's -a) onto a SCOTCH_Arch
// (target.hpp): Scotch's own kind when every PE is allowed and Scotch
// computes the same distances (cmplt, hcub, mesh2D/3D, torus, tleaf),
// otherwise an in-memory deco 0 over the allowed terminals with exact
// whole-machine distances and capacities as weights — Scotch's own `sub`
// targets lose distances across gaps, and its meshXD is a torus — and
// beyond 6,144 terminals a deco 2 over the machine's distance graph. Each
// target (the allocation, and a compact block of it for fewer ranks than
// slots) is mapped with Scotch's quality setting at zero imbalance,
// gmap's -cb (balance, 1 %) and, up to 4,096 ranks, balance at 5 %, each in
// a deterministic context seeded from --seed, on parallel workers with -p;
// plain `scotch`'s mapping joins them where its target differs (on one
// libscotch thread: gmap's threads crash libscotch 7.0.3 on some jobs). The lowest exact hop-bytes is kept; overfull
// terminals are repaired (repair.hpp).
#pragma once

#include "strategies/scotch/terminals.hpp"
#include "tmap/mapper.hpp"

namespace tmap::strategies {

/// Scotch exactly as scotch_gmap (row "scotch").
class ScotchMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
  /// The same, with gmap's -vs/-vm log (empty where the run is not gmap's);
  /// `libscotch_threads` 0: gmap's mapping, on gmap's threads where the
  /// mapping moves with their number (a `cmplt` target) and on one thread
  /// elsewhere (the same mapping: libscotch 7.0.3's threads crash or hang on
  /// jobs with large loads, a 64x64 stencil of 10 MB a pair on a tleaf:
  /// gmap segfaults 3 of 3 on two threads). 1: always one thread, what
  /// tmap's own uses of plain Scotch ask for.
  [[nodiscard]] static Mapping map_logged(const Problem& problem, const Run& context, ScotchGmapLog* log,
                                          int libscotch_threads = 0);
  /// Plain Scotch on one libscotch thread, whatever the target: tmap's own
  /// uses of it (scotch+'s plain candidate, the fast preset's, multilevel's
  /// start, treematch's and geometric's fallbacks).
  [[nodiscard]] static Mapping map_on_one_thread(const Problem& problem, const Run& context) {
    return map_logged(problem, context, nullptr, 1);
  }
  /// Whether plain scotch gets a target of its own here (gmap's), rather
  /// than the one scotch+ builds for the whole allocation.
  [[nodiscard]] static bool has_gmap_target(const Topology& topology, const scotchmap::Terminals& terminals);
};

/// tmap's portfolio of libscotch runs (row "scotch+").
class ScotchPlusMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

/// Their options, for their rows of the strategy table.
std::span<const StrategyOption> scotch_options();
std::span<const StrategyOption> scotch_plus_options();
/// --scotch-target as given: auto, native, table, grouped or graph.
std::string_view scotch_target_choice(const Context& context);

}  // namespace tmap::strategies
