// The strategy table: name -> factory. Adding a strategy = one folder under
// src/strategies plus one row here; tm-map's --strategy choices and help text
// are generated from this table.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "refine/dense_search.hpp"
#include "strategies/auto/auto.hpp"
#include "strategies/best/best.hpp"
#include "strategies/common/balanced_moves.hpp"
#include "strategies/common/runners_up.hpp"
#include "strategies/common/task_pool.hpp"
#include "strategies/geometric/geometric.hpp"
#include "strategies/greedy/greedy.hpp"
#include "strategies/grid2d/grid2d.hpp"
#include "strategies/inorder/inorder.hpp"
#include "strategies/multilevel/multilevel.hpp"
#include "strategies/ohtma/ohtma.hpp"
#include "strategies/ohtma/ohtma_plus.hpp"
#include "strategies/ptscotch/ptscotch.hpp"
#include "strategies/random/random.hpp"
#include "strategies/rb/rb.hpp"
#include "strategies/rcm/rcm.hpp"
#include "strategies/roundrobin/roundrobin.hpp"
#include "strategies/scotch/scotch.hpp"
#include "strategies/treematch/treematch.hpp"
#include "strategies/umpa/umpa.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"

namespace tmap {

namespace {

/// Most passes of moves within the load limit after a strategy.
constexpr std::int64_t kBalancedPasses = 16;

template <typename T>
std::unique_ptr<Mapper> make() {
  return std::make_unique<T>();
}

// Rows: name, summary, factory, traits, place in best's portfolio, options.
// The table is sized from its rows: a new row is the only edit.
const std::vector<StrategyInfo>& rows() {
  static const std::vector<StrategyInfo> table{
      {"inorder", "rank i on the i-th allowed slot (fill each PE, then the next)", make<strategies::InOrderMapper>, 0,
       1},
      {"roundrobin", "ranks dealt cyclically over the allowed nodes", make<strategies::RoundRobinMapper>, 0, 2},
      {"random", "a uniformly random placement from --seed", make<strategies::RandomMapper>},
      {"scotch", "Scotch's static mapping through libscotch, exactly as scotch_gmap -Cd -cb (the Scotch baseline)",
       make<strategies::ScotchMapper>, kBalancesLoad, 0, strategies::scotch_options()},
      {"ptscotch",
       "PT-Scotch where the graph lives, under MPI (tm-pmap -s ptscotch, TMAP_STRATEGY=ptscotch); in one process "
       "as scotch",
       make<strategies::PtScotchMapper>, kDistributed},
      {"scotch+", "tmap's portfolio of libscotch runs (settings, exact-distance targets, a compact block) and scotch",
       make<strategies::ScotchPlusMapper>, 0, 6, strategies::scotch_plus_options()},
      {"treematch", "TreeMatch-like top-down grouping on tree machines (tleaf, hwloc, Tianhe-3 nodes)",
       make<strategies::TreeMatchMapper>, kTreesOnly, 7, strategies::treematch_options()},
      {"ohtma", "OHTMA (Li et al. 2020): greedy construction, pair exchange, backtracking (--ohtma-loop)",
       make<strategies::OhtmaMapper>, kQuadraticInRanks, 8, strategies::ohtma_options()},
      {"ohtma+", "OHTMA with repeated passes, moves onto free slots and a candidate-list search",
       make<strategies::OhtmaPlusMapper>, 0, 0, strategies::ohtma_plus_options()},
      {"greedy", "Hoefler-Snir greedy: most-connected rank next, on the free site closest to its partners",
       make<strategies::GreedyMapper>, 0, 4},
      {"rcm", "reverse Cuthill-McKee orders of the traffic and of the machine, matched (Hoefler-Snir)",
       make<strategies::RcmMapper>, 0, 3},
      {"rb", "Hoefler-Snir recursive bisection: machine and traffic cut in halves together (--rb-passes)",
       make<strategies::RecursiveBisectionMapper>, kBalancesLoad, 0, strategies::rb_options()},
      {"umpa-greedy", "Deveci et al. Algorithm 1: BFS-driven greedy mapping, N_BFS in {0, 1}",
       make<strategies::UmpaGreedyMapper>},
      {"umpa-wh", "umpa-greedy + Algorithm 2: weighted-hop swap refinement (Delta = 8)", make<strategies::UmpaWhMapper>,
       0, 5},
      {"umpa-mc", "umpa-wh + Algorithm 3: max-congestion refinement under the routing model",
       make<strategies::UmpaMcMapper>},
      {"grid2d",
       "Malik et al.: 2D stencils with asymmetric halos, group blocks and columns permuted "
       "(--grid2d-bw, --grid2d-domain)",
       make<strategies::Grid2dMapper>, 0, 9, strategies::grid2d_options()},
      {"geometric",
       "a stencil recognised as a 1D/2D/3D grid (any rank order) and laid axis by axis into a mesh or torus box; "
       "on a tree, a periodic 2D lattice (5-point stencil, BT's 6-neighbour traffic) in congruent tiles",
       make<strategies::GeometricMapper>},
      {"multilevel",
       "tmap's multilevel engine: traffic and machine coarsened in step, blocks of ranks moved at every level",
       make<strategies::MultilevelMapper>, 0, 10},
      {"best", "portfolio: every construction, each swap-refined, the best few tabu-searched (--refine tabu)",
       make<strategies::BestMapper>, kRefinesItself},
      {"auto",
       "the lowest of scotch+, treematch and tiles (tree machines), geometric (stencils on grids), greedy (phases, "
       "by time), rb (phases, by time) and in-order (the default: never worse than in-order)",
       make<strategies::AutoMapper>, kBalancesLoad, 0, strategies::auto_options()},
  };
  return table;
}

}  // namespace

std::span<const StrategyInfo> strategy_table() {
  return rows();
}

std::string_view default_strategy() {
  return "auto";
}

const StrategyInfo& find_strategy(std::string_view name) {
  for (const auto& s : rows()) {
    if (s.name == name) return s;
  }
  std::string known;
  for (const auto& s : rows()) known += (known.empty() ? "" : ", ") + std::string(s.name);
  throw ParameterError("unknown strategy '" + std::string(name) + "' (known: " + known + ")");
}

void check_problem(const Problem& problem) {
  const auto& c = problem.constraints;
  if (c.topology_size() != problem.topology.size()) {
    throw InputError("the constraints were made for a topology of " + std::to_string(c.topology_size()) + " PEs, not " +
                     std::to_string(problem.topology.size()));
  }
  const Rank n = problem.comm.num_ranks();
  if (n > c.num_slots()) {
    throw InputError(std::to_string(n) + " ranks do not fit: " + std::to_string(c.allowed_pes().size()) +
                     " allowed PEs x " + std::to_string(c.capacity()) +
                     " rank(s) each = " + std::to_string(c.num_slots()) + " slots");
  }
}

Mapping map(const Problem& problem, const Context& context, const RunHooks& hooks) {
  return map_with(context.strategy, problem, Run(context, hooks));
}

StrategySpec parse_strategy_spec(std::string_view text) {
  StrategySpec spec;
  const auto colon = text.find(':');
  spec.name = std::string(find_strategy(text.substr(0, colon)).name);
  if (colon != std::string_view::npos) spec.refine = refine_kind_from_name(text.substr(colon + 1));
  return spec;
}

Mapping map_with(std::string_view strategy, const Problem& problem, const Run& given) {
  StageStats stages;
  return map_with(strategy, problem, given, stages);
}

namespace {

/// The run as the stages see it: threads within the machine's, one control
/// for the outermost call, a bottleneck objective checked before any work.
Run stage_context(const Problem& problem, const Run& given) {
  check_problem(problem);
  // More threads than the machine has only cost (libgomp and libscotch fail
  // to start thousands of them); results do not depend on the count.
  Run context = given;
  const int hardware = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  context.threads = std::clamp(given.threads, 1, hardware);
  if (!context.hooks.control) context.hooks.control = std::make_shared<RunControl>();  // the outermost call
  // A bottleneck objective on a machine without routes is refused before any work.
  const Objective objective = context.measured_objective();
  if (objective != Objective::HopBytes) {
    (void)ObjectiveMeter(problem.comm, problem.topology, objective, context.link_bandwidths);
  }
  return context;
}

/// What follows the construction: run.refine (unless `refine` is false),
/// then the objective's refinement. `who` names the mapping in notes.
void after_construction(std::string_view who, const Problem& problem, Mapping& mapping, const Run& context, bool refine,
                        StageStats& stages) {
  if (refine && context.refine.kind != RefineKind::None && !context.stopped()) {
    const auto stats = refine_mapping(problem, mapping, context);
    context.note(2, std::string(who) + ": refined by " + stats.method + " " + std::to_string(stats.before) + " -> " +
                        std::to_string(stats.after));
    validate_mapping(mapping, problem.comm.num_ranks(), problem.constraints);
    stages.refine = stats;
  }
  const Objective objective = context.measured_objective();
  if (objective != Objective::HopBytes && !context.stopped()) {
    const auto stats = refine_for_objective(problem, mapping, context);
    context.note(2, fmt::format("{}: {} refined by {} swaps, {} -> {}", who, objective_name(objective), stats.swaps,
                                describe_score(objective, stats.before), describe_score(objective, stats.after)));
    validate_mapping(mapping, problem.comm.num_ranks(), problem.constraints);
    stages.objective = stats;
  }
}

/// After a strategy, where ranks of unequal weight are balanced by load:
/// every PE brought within its limits (Scotch's mapping may exceed them),
/// then, where a refinement was asked, moves within the limits (the slot
/// refinements would swap ranks of unequal weight). The objective's own
/// refinement swaps ranks too: it is left out, said so.
void finish_balanced(std::string_view who, const Problem& problem, Mapping& mapping, const Run& context,
                     StageStats& stages) {
  const auto before = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
  const auto start = std::chrono::steady_clock::now();
  const bool refine = context.refine.kind != RefineKind::None && !context.stopped();
  const auto stats = strategies::balance_and_refine(problem.comm.symmetrized(), problem.topology, problem.constraints,
                                                    mapping, refine ? kBalancedPasses : 0);
  if (stats.repaired > 0) {
    context.note(1, fmt::format("{}: {} rank(s) moved to bring every PE within its load limit of {} (--imbalance)", who,
                                stats.repaired, problem.constraints.load_limit()));
  }
  if (refine) {
    RefineStats refined;
    refined.before = before;
    refined.after = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
    refined.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    refined.iterations = stats.passes;
    refined.swaps = stats.moves;
    refined.method = "moves within the load limit";
    context.note(
        1, fmt::format("{}: --refine {} runs as moves within the load limit (ranks of unequal weight); {} -> {}", who,
                       refine_kind_name(context.refine.kind), refined.before, refined.after));
    stages.refine = refined;
  }
  if (context.measured_objective() != Objective::HopBytes) {
    context.note(1, std::string(who) +
                        ": the objective's refinement swaps ranks of equal weight only; left out "
                        "where ranks of unequal weight are balanced by load");
  }
  validate_mapping(mapping, problem.comm.rank_weights(), problem.comm.num_ranks(), problem.constraints);
}

/// Where a refinement is cheap, a strategy's runners-up are refined too and
/// the fewest hop-bytes kept: the quality mode's multilevel refinement of at
/// most refine::kMaxDenseDescent slots ends in the dense tabu search
/// (0.01-0.03 s a start here), whose local optimum depends on the start (64
/// random ranks on a tleaf: auto's runner-up, scotch+, ends 0.35 % below its
/// choice, treematch, and below SharedMap's strong preset). Judged by
/// hop-bytes only: another objective has its own refinement after.
constexpr std::size_t kRefinedStarts = 2;

std::size_t refined_starts(const Problem& problem, const Run& context, const StrategyInfo& info) {
  const bool cheap = context.refine.kind == RefineKind::Multilevel && !info.has(kRefinesItself) &&
                     problem.constraints.num_slots() <= refine::kMaxDenseDescent &&
                     context.measured_objective() == Objective::HopBytes;
  return cheap ? kRefinedStarts : 1;
}

/// Each of `mappings` refined side by side on the run's threads; the one
/// with the fewest hop-bytes kept (ties to the first: the strategy's
/// choice), with its stages.
Mapping refine_each(std::string_view strategy, const Problem& problem, std::vector<Mapping>& mappings,
                    const Run& context, StageStats& stages) {
  std::vector<StageStats> each(mappings.size());
  std::vector<std::int64_t> hop_bytes(mappings.size());
  strategies::run_tasks(mappings.size(), context, strategies::thread_share(context.threads, mappings.size()),
                        [&](std::size_t k, const Run& run) {
                          const auto who =
                              k == 0 ? std::string(strategy) : fmt::format("{}'s runner-up {}", strategy, k);
                          after_construction(who, problem, mappings[k], run, true, each[k]);
                          hop_bytes[k] = evaluate(problem.comm, problem.topology, mappings[k]).hop_bytes;
                        });
  const auto kept = static_cast<std::size_t>(std::ranges::min_element(hop_bytes) - hop_bytes.begin());
  std::string all;
  for (const auto value : hop_bytes) all += (all.empty() ? "" : ", ") + std::to_string(value);
  context.note(2, fmt::format("{}: refined {} starts ({} hop-bytes): kept {}", strategy, mappings.size(), all,
                              kept == 0 ? std::string("its choice") : fmt::format("runner-up {}", kept)));
  stages = each[kept];
  return std::move(mappings[kept]);
}

}  // namespace

Mapping map_with(std::string_view strategy, const Problem& problem, const Run& given, StageStats& stages) {
  stages = {};
  const StrategyInfo* row = &find_strategy(strategy);
  const Run context = stage_context(problem, given);
  const bool by_load = balances_load(problem.comm.rank_weights(), problem.constraints);
  if (by_load && !row->has(kBalancesLoad)) {
    context.fall_back(row->name, "auto",
                      "ranks of unequal weight balanced by load (--imbalance) are mapped by scotch and auto only");
    row = &find_strategy("auto");
  }
  const auto& info = *row;
  context.report({.stage = info.name, .detail = "started", .fraction = 0.0});
  const auto mapper = info.make();
  if (by_load) {
    auto mapping = mapper->map(problem, context);
    finish_balanced(info.name, problem, mapping, context, stages);
    return mapping;
  }
  const auto starts = refined_starts(problem, context, info);
  std::vector<Mapping> mappings;
  if (const auto* several = dynamic_cast<const strategies::OffersRunnersUp*>(mapper.get()); several && starts > 1) {
    mappings = several->map_several(problem, context, starts);
  } else {
    mappings.push_back(mapper->map(problem, context));
  }
  for (const auto& mapping : mappings) validate_mapping(mapping, problem.comm.num_ranks(), problem.constraints);
  const auto hop_bytes = [&] {
    return context.hooks.progress ? evaluate(problem.comm, problem.topology, mappings.front()).hop_bytes : -1;
  };
  context.report({.stage = info.name, .detail = "done", .fraction = 1.0, .hop_bytes = hop_bytes(), .done = true});
  if (mappings.size() > 1) return refine_each(strategy, problem, mappings, context, stages);
  after_construction(strategy, problem, mappings.front(), context, !info.has(kRefinesItself), stages);
  return std::move(mappings.front());
}

Mapping refine_from(Mapping start, const Problem& problem, const Run& given, StageStats& stages) {
  stages = {};
  const Run context = stage_context(problem, given);
  try {
    validate_mapping(start, problem.comm.num_ranks(), problem.constraints);
  } catch (const InternalError& e) {  // the caller's input, not our bug
    throw InputError(std::string("the starting mapping: ") + e.what());
  }
  if (balances_load(problem.comm.rank_weights(), problem.constraints)) {
    finish_balanced("the given mapping", problem, start, context, stages);
    return start;
  }
  after_construction("the given mapping", problem, start, context, true, stages);
  return start;
}

void refine_given_mapping_by_default(Context& context, bool refine_asked) {
  if (!refine_asked && context.refine.kind == RefineKind::None) context.refine.kind = RefineKind::Multilevel;
}

Mapping map_scotch_gmap(const Problem& problem, const Run& given, ScotchGmapLog& log) {
  check_problem(problem);
  Run context = given;
  if (!context.hooks.control) context.hooks.control = std::make_shared<RunControl>();
  const bool want_view = log.want_view;
  log = {};
  log.want_view = want_view;
  auto mapping = strategies::ScotchMapper::map_logged(problem, context, &log);
  validate_mapping(mapping, problem.comm.num_ranks(), problem.constraints);
  return mapping;
}

}  // namespace tmap
