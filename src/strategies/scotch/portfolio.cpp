#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "strategies/common/task_pool.hpp"
#include "strategies/scotch/libscotch.hpp"
#include "strategies/scotch/repair.hpp"
#include "strategies/scotch/run.hpp"
#include "strategies/scotch/scotch.hpp"
#include "strategies/scotch/target.hpp"
#include "strategies/scotch/terminals.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "util/int128.hpp"

namespace tmap::strategies {

namespace {

using detail::Int128;
using scotchmap::Arch;
using scotchmap::Terminals;

/// Up to this many ranks every setting runs; above, the two that count.
constexpr Rank kAllSettingsRanks = 4096;

/// Up to this many ranks the zero-imbalance setting runs too: above, it
/// kept no job alone (57 peers' rows and the speed table's 18 jobs at
/// 1,024-4,096 ranks: ties with the others where it was the least), and it
/// is a third of the libscotch runs there.
constexpr Rank kZeroImbalanceRanks = 256;

/// A repaired libscotch mapping and how many ranks the repair moved.
struct Candidate {
  Mapping mapping;
  std::int64_t moved = 0;
};

/// One mapping of a target with one setting, repaired and spread over PEs.
/// Runs concurrently with others (own context and generator), so it
/// reports nothing itself.
Candidate map_once(const scotchmap::SourceGraph& source, const Arch& arch, scotchmap::TargetKind kind,
                   const Terminals& terminals, const CommMatrix& sym, const Topology& topology,
                   const Constraints& constraints, const scotchmap::Setting& setting,
                   const scotchmap::RunOptions& run) {
  std::vector<std::int64_t> terminal_of;
  if (kind == scotchmap::TargetKind::Grouped) {
    const auto grouped = scotchmap::uniform_groups(topology, terminals);
    terminal_of = scotchmap::map_two_level(source, sym, topology, terminals, grouped->group_of, grouped->groups, arch,
                                           setting, run);
  } else {
    terminal_of = scotchmap::map_labels(source, arch, terminals.size(), setting, run);
  }
  // Repair: ranks beyond a terminal's capacity move where they cost least.
  const auto moved = scotchmap::repair_on_machine(topology, sym, terminals, terminal_of);
  return {scotchmap::expand(terminals, terminal_of, constraints.capacity()), moved};
}

}  // namespace

Mapping ScotchPlusMapper::map(const Problem& problem, const Run& context) const {
  const auto& topology = problem.topology;
  const auto& constraints = problem.constraints;
  const auto sym = problem.comm.symmetrized();
  const Rank n = sym.num_ranks();
  const auto terminals = scotchmap::make_terminals(topology, constraints);
  if (n > std::numeric_limits<SCOTCH_Num>::max() / 4 || sym.num_entries() > std::numeric_limits<SCOTCH_Num>::max()) {
    throw ResourceError("scotch: the graph is too large for this libscotch's 32-bit SCOTCH_Num");
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
  // The whole allocation, and with fewer ranks than slots also a compact
  // block of it (Scotch would spread the ranks over every terminal).
  // A job needing a quarter of the allocation or less only gets the block:
  // the whole target would spread it out, and costs more to build (on 10
  // jobs of 56-1,024 ranks filling 0.19-0.22 of tori, a mesh, a tleaf and
  // Tianhe-3 the whole allocation's runs changed neither `-P quality`'s
  // mapping nor scotch+'s; an eighth until session 47). One
  // needing more than seven eighths gets no block: the block differs from
  // the whole by less than an eighth, and on 9 jobs of 960-4,096 ranks
  // filling 0.89-0.98 of tori, a mesh, a tleaf and Tianhe-3 (stencils and
  // random traffic) the quality mode kept its mapping without it in
  // 0.33-0.76x the time (a libscotch run less, on a table of the block's
  // terminals).
  // Above kAllSettingsRanks the block only runs where it replaces the whole.
  const bool all_settings = n <= kAllSettingsRanks;
  std::vector<Terminals> targets{terminals};
  std::size_t block_first = targets.size();  // targets from here on are the compact block (for -vv)
  std::int64_t slots = 0;
  for (const auto c : terminals.capacity) slots += c;
  if (n < slots && n * 8 <= slots * 7 && terminals.size() > 1 && (all_settings || n * 8 <= slots)) {
    auto block = scotchmap::compact_block(topology, terminals, n);
    if (block.size() < terminals.size()) {
      if (n * 4 <= slots) targets.clear();
      targets.push_back(std::move(block));
      block_first = targets.size() - 1;
    }
  }
  scotchmap::TargetBuilder builder(topology);
  std::vector<scotchmap::TargetKind> kinds;
  Distance distance_scale = 1;
  for (const auto& target : targets) {
    kinds.push_back(builder.plan(target, scotch_target_choice(context)));
    distance_scale = std::max(distance_scale, builder.scale(kinds.back()));
  }

  const Int128 reach =
      total * std::max<Distance>(std::min<Distance>(topology.max_distance(), 65535), 1) * distance_scale;
  const Int128 scale =
      reach > scotchmap::kScotchSumLimit ? (reach + scotchmap::kScotchSumLimit - 1) / scotchmap::kScotchSumLimit : 1;
  const auto source = scotchmap::source_graph(sym, scale, cutoff);
  if (cutoff > 0) {
    context.note(2, "scotch: sparse-factor kept " + std::to_string(source.edgetab.size() / 2) + " of " +
                        std::to_string(sym.num_entries() / 2) + " edges (loads >= " + std::to_string(cutoff) + ")");
  }
  // Settings, the best kept (by our exact hop-bytes): zero imbalance gives
  // true 1:1 fills (and the known optima; up to kZeroImbalanceRanks), a 1 % imbalance is scotch_gmap's
  // -cb (so tmap sees what gmap finds), 5 % often cuts less; what they
  // overfill is repaired. Above kZeroImbalanceRanks gmap's setting runs
  // once: where plain Scotch's run joins, that is it (the 1 % runs on these
  // targets were 2 of 3 runs on trees and tori and 2 of 5 on Tianhe-3 at
  // 1,024-4,096 ranks; without them the quality mode kept its mapping on 17
  // jobs of 18 and ended 0.3 % lower on the other: docs/strategies.md).
  // Above kAllSettingsRanks only gmap's setting on the whole allocation
  // runs: it won all 12 stencils measured at 16,384 and 65,536 ranks (torus,
  // mesh, tleaf, Tianhe-3; natural and shuffled), by 17-45 % over zero
  // imbalance and 5-33 % over the compact block.
  // Plain Scotch's mapping (gmap's target, setting and graph) joins unless
  // one of the runs below is the same computation: the whole allocation as
  // Scotch's own kind, gmap's setting, loads neither cut nor scaled.
  const bool plain_ran = kinds.front() == scotchmap::TargetKind::Native && targets.front().size() == terminals.size() &&
                         cutoff == 0 && scale == 1;
  const bool plain = !plain_ran && ScotchMapper::has_gmap_target(topology, terminals);
  std::vector<scotchmap::Setting> settings;
  if (n <= kZeroImbalanceRanks) settings.push_back({SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE, 0.0, {}});
  if (all_settings) settings.push_back({SCOTCH_STRATBALANCE, 0.05, {}});
  if (n <= kZeroImbalanceRanks || !all_settings || !plain) settings.push_back({SCOTCH_STRATBALANCE, 0.01, {}});
  std::vector<Arch> archs(targets.size());
  for (std::size_t k = 0; k < targets.size(); ++k) builder.build(archs[k], kinds[k], targets[k], context);

  // Every (target, setting) run, on parallel workers when there are threads,
  // each run on one libscotch thread whatever -p is: on a cmplt target
  // libscotch's mapping moves with its thread count (the default at 8,192
  // ranks on `cmplt 64` differed between -p 1 and -p 2 when the threads
  // left over went to libscotch), its threads crash on large loads, and
  // they made one run slower here anyway. Results do not depend on the split.
  const std::size_t tasks = targets.size() * settings.size();
  std::vector<Candidate> candidates(tasks + (plain ? 1 : 0));
  run_tasks(candidates.size(), context, 1, [&](std::size_t t, const Run& run) {
    if (t < tasks) {
      const auto k = t / settings.size();
      const auto& setting = settings[t % settings.size()];
      candidates[t] =
          map_once(source, archs[k], kinds[k], targets[k], sym, topology, constraints, setting, {context.seed, 1});
      return;
    }
    Run quiet = run;
    quiet.hooks.log = nullptr;       // its notes are scotch's, not this run's
    quiet.scotch = ScotchOptions{};  // gmap's defaults (-cb), whatever scotch was given
    quiet.scotch.sparse_factor = context.scotch.sparse_factor;
    quiet.scotch.target = context.scotch.target;
    // On one libscotch thread, as the runs above: libscotch 7.0.3's threads
    // can crash or hang (scotch_gmap itself on BT at 16,384 ranks class D on
    // a 16,384-PE tleaf: 2 runs of 5 segfault, one of 5 hangs with the
    // 64-bit build; none of 5 with SCOTCH_PTHREAD_NUMBER=1).
    candidates[t] = {ScotchMapper::map_on_one_thread(problem, quiet), 0};
  });
  Mapping best;
  std::int64_t best_cost = 0;
  std::string costs;
  for (std::size_t t = 0; t < candidates.size(); ++t) {
    auto& candidate = candidates[t];
    if (candidate.moved > 0) {
      context.note(2, "scotch+: libscotch overfilled some PEs; moved " + std::to_string(candidate.moved) +
                          " rank(s) to free slots where they cost least");
    }
    const auto cost = evaluate(problem.comm, topology, candidate.mapping).hop_bytes;
    if (t >= tasks) {
      costs += (costs.empty() ? "" : ", ") + std::string("scotch (gmap) ") + std::to_string(cost);
    } else {
      const auto& setting = settings[t % settings.size()];
      costs += (costs.empty() ? "" : ", ") + std::string(t / settings.size() >= block_first ? "block " : "") +
               ((setting.flags & SCOTCH_STRATQUALITY) != 0 ? "quality " : "balance ") +
               std::to_string(static_cast<int>(setting.imbalance * 100)) + "% " + std::to_string(cost);
    }
    if (best.empty() || cost < best_cost) {
      best = std::move(candidate.mapping);
      best_cost = cost;
    }
  }
  context.note(2, "scotch+: hop-bytes per run (" + costs + ")");
  return best;
}

}  // namespace tmap::strategies
